"""Web sites Chrome can load (being written)."""

SITES: tuple = ()
