"""Test-wide settings.

Hypothesis judges its own speed (the ``too_slow`` health check, per-example deadlines);
on a shared 2-core machine that is a wall-clock assertion, so it is switched off: the
properties are checked, the timing is not.
"""

from hypothesis import HealthCheck, settings

settings.register_profile("mobile_gym", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mobile_gym")
