"""Evaluating recorded traces: the batch runner, baseline evaluators and reports."""
