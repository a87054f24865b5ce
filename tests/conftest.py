"""Test-wide settings.

Hypothesis judges its own speed (the ``too_slow`` health check, per-example deadlines);
on a shared 2-core machine that is a wall-clock assertion, so it is switched off: the
properties are checked, the timing is not.

adbutils runs ``adb start-server`` when it cannot reach its server; tests talk to fake
phones only, and a test that takes a fake server away must not start a real one, so
``ADBUTILS_ADB_PATH`` points at ``false`` for every test.

Stable-Baselines3 makes a log folder for every model that learns (``SB3-<time>`` under
the system's temporary folder unless ``SB3_LOGDIR`` says where): the tests' go under
pytest's own temporary folder.
"""

import shutil

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("mobile_gym", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mobile_gym")


@pytest.fixture(scope="session")
def _sb3_logs(tmp_path_factory):
    return tmp_path_factory.mktemp("sb3-logs")


@pytest.fixture(autouse=True)
def _environment(monkeypatch, _sb3_logs):
    """No real adb, no phone named by the shell, SB3 logs under pytest's folder."""
    monkeypatch.setenv("ADBUTILS_ADB_PATH", shutil.which("false") or "/bin/false")
    monkeypatch.delenv("ANDROID_SERIAL", raising=False)
    monkeypatch.setenv("SB3_LOGDIR", str(_sb3_logs))
