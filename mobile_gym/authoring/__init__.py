"""Tools for task authors: the route explorer (every way a simulator task can be done)
and annotation suggestions drawn from its routes."""
