"""Fuzz every simulator env: hostile and random actions, checked step by step.

A seeded mix over all simulator tasks (each made by ``gym.make(task.env_id)``, and again
with another profile and dynamics): valid samples of the action space, taps on clickable
nodes of the current dump (a field one time in five, so typing lands somewhere and the
walk reaches deep screens), swipes, keys, long texts, hostile texts (control characters,
NUL, non-characters, emoji, combining marks, right-to-left, words longer than a screen,
URL escapes) and malformed actions (non-finite, huge, odd-typed or odd-shaped fields,
lone surrogates). Episodes are reset when they end.

Checked on every step: no exception but `InvalidActionError`, and that one exactly for the
malformed actions, after which the env still steps and has counted nothing; every
observation inside ``env.observation_space``; every dump valid XML; and three
deterministic bounds in place of a wall-clock one: the dump's length, the longest text
in it, and the characters the renderer measures to fit text (the work that grew
quadratically with a field's text). Wall-clock step times and the process's RSS are
reported, never judged.

    python benchmarks/fuzz.py [--actions 100000] [--seed 0] [--rss-every 200] [--unique-text]

``--unique-text`` types a new unique text in every episode (what grew memory in long
runs); RSS is sampled at the start, every ``--rss-every`` episodes and at the end, and
the renderer's caches are shown against their budgets. Last, the time of a TYPE step by
the characters typed into one field so far (it grew quadratically). The exit code is 1
on any failure.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from array import array
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Iterator

import gymnasium as gym
import numpy as np
from lxml import etree
from PIL import ImageFont

import mobile_gym  # noqa: F401 - registers the envs
from mobile_gym.actions import MAX_TEXT_LENGTH, Action, ActionType
from mobile_gym.errors import InvalidActionError
from mobile_gym.simulator import render
from mobile_gym.simulator.memo import BoundedMemo
from mobile_gym.simulator.text import MAX_FIELD_LENGTH
from mobile_gym.tasks.suite import simulator_tasks

#: Deterministic per-step bounds (see the module docstring). A field holds at most
#: MAX_FIELD_LENGTH characters; a page may show it percent-encoded (12 characters for an
#: astral one) and a screen repeats it a few times.
MAX_DUMP_CHARS = 200_000
MAX_ATTRIBUTE_CHARS = 12 * MAX_FIELD_LENGTH + 256
MAX_MEASURED_CHARS = 50_000

#: Other profile and dynamics each task also runs with (round robin over tasks).
VARIANTS = ({"profile": "pixel-3", "dynamics": "none"}, {"profile": "budget-720p", "dynamics": "default"},
            {"profile": "pixel-6", "dynamics": "none"})

HOSTILE_TEXTS = (
    "\x00", "a\x00b", "".join(map(chr, range(1, 32))), "\x7f\x85\x9f", "\ufffe\uffff", "tab\there",
    "two\nlines\r\nand a CR\r", "<&\"'>]]>&amp;", "%00%0D%EF%BF%BE%F0%9F%94%94", "😀" * 64,
    "👩‍👩‍👧‍👦 🏳️‍🌈 🇯🇵", "e" + "\u0301" * 200, "مرحبا بالعالم שלום", "\u202e reversed \u202c",
    "𝄞𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \U0010fffd", "9" * 400, "-1", "25", "0x1F", "\u200b" * 100, "\t\n" * 50,
)


def hostile_value(rng: np.random.Generator) -> Any:
    """A value no action field accepts (for whichever field it is put in)."""
    k = int(rng.integers(300, 5000))
    choices = (
        math.inf, -math.inf, math.nan, 10**k, -(10**k), np.float16("inf"), np.float32("nan"), True, np.bool_(False),
        "0.5", b"\x01", 1j, Decimal("0.5"), None, [[0.5], [0.5]], (0.5, 0.5, 0.5), np.full((2, 1), 0.5),
        np.array([0.5, 0.5], complex), np.array(["0.5", "0.5"]), np.array([1, 0], "datetime64[s]"),
        {0.5: 0.5}, _Hostile(), (_Hostile(), 0.5), "\ud800", ["text"],
    )
    return _pick(rng, choices)


def _pick(rng: np.random.Generator, items: Any) -> Any:
    return items[int(rng.integers(len(items)))]


class _Hostile:
    """A number-like object whose every conversion raises something unexpected."""

    def __float__(self):
        raise RuntimeError("hostile float")

    __int__ = __index__ = __len__ = __iter__ = __float__

    def __repr__(self) -> str:
        raise ZeroDivisionError("hostile repr")


@dataclass
class Report:
    actions: int = 0
    steps: int = 0  # env.step calls that returned
    episodes: int = 0
    refused: int = 0  # malformed actions refused with InvalidActionError, as they must be
    failures: Counter = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)  # failure kind -> its first case
    step_seconds: array = field(default_factory=lambda: array("d"))  # compact: RSS is measured
    slowest: tuple[float, str] = (0.0, "")  # the longest step: seconds, env and action
    max_dump_chars: int = 0
    max_attribute_chars: int = 0
    max_measured_chars: int = 0
    rss: list[tuple[int, int]] = field(default_factory=list)  # (episodes, bytes)
    seconds: float = 0.0

    def fail(self, kind: str, case: str) -> None:
        self.failures[kind] += 1
        self.examples.setdefault(kind, case[:300])


def rss_bytes() -> int:
    """Resident set size of this process (Linux; 0 elsewhere)."""
    try:
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


@contextmanager
def measured_characters() -> Iterator[list[int]]:
    """Counts the characters the font measures (``getlength``), the renderer's text work."""
    count = [0]
    real = ImageFont.FreeTypeFont.getlength

    def getlength(self, text, *args, **kwargs):
        count[0] += len(text)
        return real(self, text, *args, **kwargs)

    ImageFont.FreeTypeFont.getlength = getlength
    try:
        yield count
    finally:
        ImageFont.FreeTypeFont.getlength = real


class Fuzzer:
    """Seeded fuzzing over ``specs`` [(task id, gym.make kwargs)]; `run` fills `report`."""

    def __init__(self, seed: int = 0, specs: list[tuple[str, dict]] | None = None, unique_text: bool = False):
        self.rng = np.random.default_rng(seed)
        self.unique_text = unique_text
        tasks = simulator_tasks()
        if specs is None:
            specs = [(t, {}) for t in tasks] + [(t, VARIANTS[i % len(VARIANTS)]) for i, t in enumerate(tasks)]
        self.envs = [(f"{t} {kw or ''}".strip(), gym.make(tasks[t].env_id, **kw)) for t, kw in specs]
        for i, (_, env) in enumerate(self.envs):
            env.action_space.seed(seed * 1000 + i)
        self.report = Report()
        self.measured = [0]  # characters measured since the last step began
        self._dump: etree._Element | None = None  # the last observation's dump, to tap in

    def close(self) -> None:
        for _, env in self.envs:
            env.close()

    def run(self, actions: int, episode_steps: int = 60, rss_every: int = 0) -> Report:
        """At least ``actions`` actions, in episodes of at most ``episode_steps`` actions
        (the env's own step limit usually ends them first), rotating over the envs."""
        report = self.report
        report.rss.append((0, rss_bytes()))
        start = time.perf_counter()
        with measured_characters() as measured:
            self.measured = measured
            while report.actions < actions:
                name, env = self.envs[report.episodes % len(self.envs)]
                self._episode(name, env, episode_steps)
                report.episodes += 1
                if rss_every and report.episodes % rss_every == 0:
                    report.rss.append((report.episodes, rss_bytes()))
        report.seconds = time.perf_counter() - start
        report.rss.append((report.episodes, rss_bytes()))
        return report

    # ------------------------------------------------------------------ one episode
    def _episode(self, name: str, env: gym.Env, steps: int) -> None:
        self.measured[0] = 0
        try:
            obs, info = env.reset(seed=int(self.rng.integers(2**31)))
        except Exception as exc:
            self.report.fail(f"untyped {type(exc).__name__}", f"{name}: reset: {exc}")
            return
        if not self._check(name, env, "reset", obs):
            return
        token = f" {self.report.episodes}-{int(self.rng.integers(10**9))} "  # unique per episode
        after_refusal = False
        for _ in range(steps):
            if after_refusal:  # the env must still step, and must have counted nothing
                action, malformed = self._tap(env), False
            else:
                action, malformed = self._action(env, token)
            self.report.actions += 1
            self.measured[0] = 0
            t0 = time.perf_counter()
            try:
                result = env.step(action)
            except InvalidActionError as exc:
                if malformed:
                    self.report.refused += 1
                    after_refusal = True
                else:
                    self.report.fail("valid action refused", f"{name}: {_shown(action)}: {exc}")
                continue
            except Exception as exc:  # the point of the fuzzer: nothing else may escape
                self.report.fail(f"untyped {type(exc).__name__}", f"{name}: {_shown(action)}: {exc}")
                return
            seconds = time.perf_counter() - t0
            if malformed:
                self.report.fail("malformed action accepted", f"{name}: {_shown(action)}")
            self.report.steps += 1
            self.report.slowest = max(self.report.slowest, (seconds, f"{name}: {_shown(action)}"))
            self.report.step_seconds.append(seconds)
            obs, _, terminated, truncated, new_info = result
            if after_refusal and new_info["steps"] != info["steps"] + 1:
                self.report.fail("refused action counted", f"{name}: steps {info['steps']} -> {new_info['steps']}")
            after_refusal, info = False, new_info
            if not self._check(name, env, _shown(action), obs) or terminated or truncated:
                return

    def _check(self, name: str, env: gym.Env, action: str, obs: dict) -> bool:
        """Checks an observation; False if the episode cannot go on (no dump to tap in)."""
        report = self.report
        ok = True
        report.max_measured_chars = max(report.max_measured_chars, self.measured[0])
        if self.measured[0] > MAX_MEASURED_CHARS:
            report.fail("over bound: characters measured", f"{name}: {action}: {self.measured[0]}")
        if not env.observation_space.contains(obs):
            report.fail("observation outside the space", f"{name}: {action}")
            ok = False
        xml = obs.get("view_hierarchy") if isinstance(obs, dict) else None
        if not isinstance(xml, str):
            return False
        report.max_dump_chars = max(report.max_dump_chars, len(xml))
        if len(xml) > MAX_DUMP_CHARS:
            report.fail("over bound: dump length", f"{name}: {action}: {len(xml)}")
        try:
            root = etree.fromstring(xml.encode("utf-8", "surrogatepass"))
        except (etree.XMLSyntaxError, ValueError) as exc:
            report.fail("invalid XML", f"{name}: {action}: {exc}")
            return False
        longest = max((len(v) for n in root.iter("node") for k, v in n.attrib.items()
                       if k in ("text", "content-desc")), default=0)
        report.max_attribute_chars = max(report.max_attribute_chars, longest)
        if longest > MAX_ATTRIBUTE_CHARS:
            report.fail("over bound: text in the dump", f"{name}: {action}: {longest}")
        self._dump = root
        return ok

    # ------------------------------------------------------------------ actions
    def _action(self, env: gym.Env, token: str) -> tuple[Any, bool]:
        """An action and whether it is malformed (must raise InvalidActionError)."""
        r = self.rng.random()
        if r < 0.25:
            return env.action_space.sample(), False
        if r < 0.60:
            return self._tap(env), False
        if r < 0.68:
            x, y = self.rng.uniform(0.1, 0.9, 2)
            dx, dy = _pick(self.rng, ((0, -0.4), (0, 0.4), (-0.5, 0), (0.5, 0)))
            return Action.swipe(x, y, float(np.clip(x + dx, 0, 1)), float(np.clip(y + dy, 0, 1))), False
        if r < 0.73:
            return Action(_pick(self.rng, (ActionType.BACK, ActionType.HOME, ActionType.ENTER))), False
        if r < 0.90:
            text = _pick(self.rng, HOSTILE_TEXTS)
            if self.rng.random() < 0.3:  # as long as a TYPE may be
                text = (text * (MAX_TEXT_LENGTH // max(1, len(text)) + 1))[:MAX_TEXT_LENGTH]
            if self.unique_text:
                text = (token + text)[:MAX_TEXT_LENGTH]
            return Action.type_text(text), False
        return self._malformed(), True

    def _tap(self, env: gym.Env) -> Action:
        """A tap on the centre of a clickable node of the last dump (a field one time in
        five when there is one), or anywhere when none is."""
        nodes = [n for n in self._dump.iter("node") if n.get("clickable") == "true"]
        fields = [n for n in nodes if n.get("class", "").endswith("EditText")]
        pool = fields if fields and self.rng.random() < 0.2 else nodes
        W, H = env.unwrapped.device.screen_size
        if not pool:
            return Action.click(*self.rng.uniform(0, 1, 2))
        l, t, r, b = (int(v) for v in _pick(self.rng, pool).get("bounds").replace("][", ",").strip("[]").split(","))
        return Action.click(min(1.0, (l + r) / 2 / W), min(1.0, (t + b) / 2 / H))

    def _malformed(self) -> dict:
        """A gym action with one hostile field (the others valid)."""
        kind = int(self.rng.integers(4))
        action = {"action_type": kind if kind < 3 else int(ActionType.CLICK), "touch": np.array([0.5, 0.5], np.float32),
                  "lift": np.array([0.5, 0.1], np.float32), "text": "ok"}
        action[("action_type", "touch", "lift", "text")[kind]] = hostile_value(self.rng)
        if kind == 3:
            action["action_type"] = int(ActionType.TYPE)
            action["text"] = _pick(self.rng, ("\ud800", "ok\udfff", "\ud83d\ude00", "x" * (MAX_TEXT_LENGTH + 1)))
        if kind == 2:
            action["action_type"] = int(ActionType.SWIPE)
        return action


def _shown(action: Any) -> str:
    try:
        return repr(action)[:200]
    except Exception:
        return f"<{type(action).__name__}>"


def table(report: Report) -> str:
    times = np.array(report.step_seconds or [0.0]) * 1000
    mb = [f"{rss / 2**20:.0f}" for _, rss in report.rss]
    rows = [
        ("actions", f"{report.actions} ({report.steps} steps, {report.refused} malformed refused, "
                    f"{report.episodes} episodes)"),
        ("untyped exceptions", str(sum(v for k, v in report.failures.items() if k.startswith("untyped")))),
        ("observations outside the space", str(report.failures["observation outside the space"])),
        ("invalid XML", str(report.failures["invalid XML"])),
        ("other failures", str(sum(v for k, v in report.failures.items() if not k.startswith("untyped")
                                   and k not in ("observation outside the space", "invalid XML")))),
        ("step time max / p99 / p50", f"{times.max():.1f} / {np.percentile(times, 99):.1f} / {np.percentile(times, 50):.1f} ms"),
        ("slowest step", report.slowest[1][:100]),
        ("steps/s", f"{report.steps / report.seconds:.0f}" if report.seconds else "-"),
        ("max dump / text in it", f"{report.max_dump_chars} / {report.max_attribute_chars} chars "
                                  f"(bounds {MAX_DUMP_CHARS} / {MAX_ATTRIBUTE_CHARS})"),
        ("max characters measured in a step", f"{report.max_measured_chars} (bound {MAX_MEASURED_CHARS})"),
        ("RSS MB (start .. end)", " ".join(mb)),
        ("renderer caches MB (held/budget)", ", ".join(
            f"{m.__name__.strip('_')} {m.nbytes / 2**20:.1f}/{m.max_bytes / 2**20:.0f}"
            for m in vars(render).values() if isinstance(m, BoundedMemo))),
    ]
    width = max(len(k) for k, _ in rows)
    lines = [f"{k:<{width}}  {v}" for k, v in rows]
    lines += [f"FAIL {kind} x{n}: {report.examples[kind]}" for kind, n in report.failures.items()]
    return "\n".join(lines)


def typing_step_ms(rounds: int = 3, chunks: int = 12) -> dict[int, float]:
    """Median ms of a TYPE step into Chrome's URL bar by characters typed so far, 512 a
    step and no space (the issue: 0.3 s at 512, 6.6 s at 2,560, 31.5 s at 6,144)."""
    env = gym.make("LlamaTouch/chrome-clear-history-v0", dynamics="none", max_episode_steps=None)
    times: dict[int, list[float]] = {}
    for seed in range(rounds):
        env.reset(seed=seed)
        device = env.unwrapped.device
        device.runtime.launch("com.android.chrome")  # the task starts on the launcher
        l, t, r, b = next(v.bounds for v in device.runtime.frame().nodes() if v.rid.endswith("url_bar"))
        env.step(Action.click((l + r) / 2 / device.screen_size[0], (t + b) / 2 / device.screen_size[1]))
        for i in range(1, chunks + 1):
            text = (f"{seed}{i:03d}" + "typed" * MAX_TEXT_LENGTH)[:MAX_TEXT_LENGTH]
            t0 = time.perf_counter()
            env.step(Action.type_text(text))
            times.setdefault(i * MAX_TEXT_LENGTH, []).append(1000 * (time.perf_counter() - t0))
    env.close()
    return {n: float(np.median(t)) for n, t in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rss-every", type=int, default=200, help="sample RSS every N episodes")
    parser.add_argument("--unique-text", action="store_true", help="type a new unique text every episode")
    args = parser.parse_args(argv)
    fuzzer = Fuzzer(args.seed, unique_text=args.unique_text)
    print(f"fuzzing {len(fuzzer.envs)} envs ({len(simulator_tasks())} tasks), seed {args.seed}, "
          f"{args.actions} actions{', unique text per episode' if args.unique_text else ''}", flush=True)
    report = fuzzer.run(args.actions, rss_every=args.rss_every)
    fuzzer.close()
    print(table(report))
    typing = typing_step_ms()
    print("TYPE step (median of 3) by characters typed into one field: "
          + ", ".join(f"{n}: {ms:.1f} ms" for n, ms in typing.items() if n in (512, 2560, 6144)))
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
