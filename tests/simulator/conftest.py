"""Screenshots the simulator tests save for people to look at.

They go to ``$MOBILE_GYM_ARTIFACTS`` or ``.artifacts/screens`` in the checkout (ignored
by git), one PNG per named screen, overwritten on every run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def artifacts() -> Path:
    path = Path(os.environ.get("MOBILE_GYM_ARTIFACTS", ROOT / ".artifacts" / "screens"))
    path.mkdir(parents=True, exist_ok=True)
    return path
