"""The fuzzer of ``benchmarks/fuzz.py`` in the suite, seeded and bounded: valid, random
and hostile actions over every simulator env must raise nothing but `InvalidActionError`
(and that for exactly the malformed ones, leaving the env usable), keep every observation
inside the observation space and every dump valid XML, and stay within deterministic
bounds: the dump's length, the longest text in it and the characters the renderer
measures per step (wall-clock times are reported by the benchmark, never asserted)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from mobile_gym.tasks.suite import simulator_tasks


def _load():
    spec = importlib.util.spec_from_file_location("fuzz", Path(__file__).resolve().parents[1] / "benchmarks" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


fuzz = _load()

#: A few tasks of every app without fuzzy checkpoints (no model to load): the quick run.
QUICK = ("bestbuy-empty-cart", "clock-set-timer", "playstore-install-ebay", "settings-turn-off-wifi",
         "chrome-clear-history")


def fuzzed(seed: int, actions: int, specs=None, **kwargs) -> fuzz.Report:
    fuzzer = fuzz.Fuzzer(seed, specs, **kwargs)
    try:
        return fuzzer.run(actions)
    finally:
        fuzzer.close()


def test_quick_fuzz_of_a_few_envs():
    report = fuzzed(1, 400, [(t, {}) for t in QUICK] + [(QUICK[0], fuzz.VARIANTS[1])], unique_text=True)
    assert not report.failures, fuzz.table(report)
    assert report.refused > 10 and report.steps > 300, fuzz.table(report)


@pytest.mark.slow
def test_fuzz_every_simulator_env():
    envs = 2 * len(simulator_tasks())  # each task with default arguments and with a variant
    report = fuzzed(0, max(5000, 20 * envs))  # episodes take the envs in turn: each gets one or more
    assert not report.failures, fuzz.table(report)
    assert report.episodes >= envs and report.refused > 200 and report.steps > 4000, fuzz.table(report)
    assert report.max_attribute_chars > 512, fuzz.table(report)  # long text reached the fields
