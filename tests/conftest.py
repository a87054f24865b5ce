"""Test-wide settings.

Hypothesis judges its own speed (the ``too_slow`` health check, per-example deadlines);
on a shared 2-core machine that is a wall-clock assertion, so it is switched off: the
properties are checked, the timing is not.

adbutils runs ``adb start-server`` when it cannot reach its server; tests talk to fake
phones only, and a test that takes a fake server away must not start a real one, so
``ADBUTILS_ADB_PATH`` points at ``false`` for every test.
"""

import shutil

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("mobile_gym", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mobile_gym")


@pytest.fixture(autouse=True)
def _no_real_adb(monkeypatch):
    monkeypatch.setenv("ADBUTILS_ADB_PATH", shutil.which("false") or "/bin/false")
    monkeypatch.delenv("ANDROID_SERIAL", raising=False)
