"""The `>>>` examples in the library's docstrings run and stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import mobile_gym

#: Packages whose folders are mapped into the namespace (pyproject's package-dir): a walk
#: of mobile_gym's own folder does not reach them.
MAPPED = ("mobile_gym.agents", "mobile_gym.tasks", "mobile_gym.wrappers")
MODULES = sorted({m.name for m in pkgutil.walk_packages(mobile_gym.__path__, "mobile_gym.")}
                 | {m.name for package in MAPPED
                    for m in pkgutil.walk_packages(importlib.import_module(package).__path__, package + ".")}
                 | set(MAPPED))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest failure(s) in {name}"
