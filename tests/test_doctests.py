"""The `>>>` examples in the library's docstrings run and stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import mobile_gym

MODULES = sorted(m.name for m in pkgutil.walk_packages(mobile_gym.__path__, "mobile_gym."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest failure(s) in {name}"
