"""Real replies of published agents and models (tests/data/real_replies.jsonl), read by
`parse_reply` and carried out by `Command.actions` on a real simulator screen: each must
do exactly what it names (a tap at the named point, ±3 units of its frame, the typed
text, ...). The expectations were worked out from each reply and its source's
documentation, not from the parser. Replies the parser gets wrong are marked
``known_failure`` in the corpus and counted in the rate, never skipped."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import gymnasium as gym
import pytest

from mobile_gym.actions import Action
from mobile_gym.errors import ReplyError
from mobile_gym.llm.coordinates import CoordinateFrame, coordinate_frame
from mobile_gym.llm.grammar import Command, parse_reply
from mobile_gym.ui.elements import main_list
from mobile_gym.ui.screen_text import ScreenElements

CORPUS = Path(__file__).parent / "data" / "real_replies.jsonl"
TASK = "LlamaTouch/settings-open-v0"
TOLERANCE = 3  # units of the reply's frame
RATE = 0.99
KINDS = {"CLICK", "LONG_PRESS", "TYPE", "SWIPE", "BACK", "HOME", "ENTER", "COMPLETE", "IMPOSSIBLE", "WAIT",
         "OPEN_APP", "ANSWER", "DOUBLE_TAP"}


def load() -> list[dict]:
    with CORPUS.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


ENTRIES = load()


@pytest.fixture(scope="module")
def screen() -> ScreenElements:
    """The search screen of the launcher (a focused text field, a list, 19 elements):
    the home screen of the task after a tap on its Google search bar."""
    env = gym.make(TASK, profile="pixel-6")
    env.reset(seed=0)
    home = ScreenElements.of(env.unwrapped.hierarchy)
    bar = next(e for e in home.elements if e.label == "Google search")
    env.step(home.actions_for(bar.index, "tap")[0])
    search = ScreenElements.of(env.unwrapped.hierarchy)
    assert any(e.editable for e in search.elements) and main_list(search.elements, search.size) is not None
    yield search
    env.close()


def frame_of(entry: dict, screen: ScreenElements) -> CoordinateFrame | None:
    name = entry["frame"]
    if name is None:
        return None
    size = entry.get("screen")
    if name == "device":
        return coordinate_frame("device", tuple(size))
    return coordinate_frame(name, screen.size, tuple(size) if size else None)


def element_for(screen: ScreenElements, k: int, kind: str) -> int:
    """An element of ``screen`` standing in for the reply's element ``k`` (the reply's
    screen is not this one): ``k`` modulo the count; a text field for a TYPE."""
    if kind == "TYPE":
        fields = [e.index for e in screen.elements if e.editable]
        return fields[k % len(fields)]
    return k % len(screen.elements)


def near(point: tuple[float, float], want: list[float], frame: CoordinateFrame) -> bool:
    w, h = frame.size
    return abs(point[0] * w - want[0]) <= TOLERANCE and abs(point[1] * h - want[1]) <= TOLERANCE


def check(entry: dict, screen: ScreenElements) -> str | None:
    """None when the reply does exactly what it names; else what went wrong. A
    `ReplyError` is a wrong answer; any other exception propagates."""
    want = entry["expected"]
    kind = want["kind"]
    frame = frame_of(entry, screen)
    try:
        command: Command = parse_reply(entry["reply"])
        chained = [a for c in command.then for a in c.actions(screen, frame)]  # "click(...) then wait()"
        if [a.action_type.name for a in chained] != [w["kind"] for w in want.get("then", ())]:
            return f"chains {[str(a) for a in chained]}, not {want.get('then', [])}"
        command = replace(command, then=())
        if "element" in want:
            if command.element != want["element"]:
                return f"names element {command.element}, not {want['element']} ({command.verb})"
            command = replace(command, element=element_for(screen, want["element"], kind))
        actions = command.actions(screen, frame)
    except ReplyError as e:
        return f"ReplyError: {e}"
    kinds = [a.action_type.name for a in actions]
    got = f"{[str(a) for a in actions]}"
    if "element" in want:
        k = command.element
        e = screen.element(k)
        expected = {"CLICK": lambda: screen.actions_for(k, "tap"),
                    "TYPE": lambda: screen.actions_for(k, "type", want["text"]),
                    "LONG_PRESS": lambda: [Action.long_press(*e.point)],
                    "DOUBLE_TAP": lambda: [Action.double_tap(*e.point)]}[kind]()
        return None if actions == expected else f"did {got}, not {[str(a) for a in expected]}"
    if kind in ("CLICK", "LONG_PRESS", "DOUBLE_TAP"):
        ok = kinds == [kind] and near(actions[0].touch, want["point"], frame)
    elif kind == "TYPE":
        typed = kinds[-1:] == ["TYPE"] and actions[-1].text == want["text"]
        if "point" in want:
            ok = typed and kinds == ["CLICK", "TYPE"] and near(actions[0].touch, want["point"], frame)
        else:
            ok = typed and len(actions) == 1
    elif kind == "SWIPE":
        ok = kinds == ["SWIPE"]
        if ok and "end" in want:
            ok = near(actions[0].touch, want["point"], frame) and near(actions[0].lift, want["end"], frame)
        elif ok:  # a scroll: what is in that direction comes into view, the finger going the other way
            (tx, ty), (lx, ly) = actions[0].touch, actions[0].lift
            ok = {"down": ly < ty, "up": ly > ty, "right": lx < tx, "left": lx > tx}[want["scroll"]]
    elif kind in ("OPEN_APP", "ANSWER"):
        ok = kinds == [kind] and actions[0].text == want["text"]
    else:
        ok = kinds == [kind]
    return None if ok else f"did {got}"


def test_the_corpus_is_well_formed() -> None:
    assert len(ENTRIES) >= 60
    assert len({e["source"].split()[0] for e in ENTRIES}) >= 5
    for e in ENTRIES:
        want = e["expected"]
        assert want["kind"] in KINDS, e
        assert isinstance(e["reply"], str) and e["reply"].strip(), e
        assert e["frame"] in (None, "device", "screenshot", "fraction", "permille"), e
        if "point" in want:
            assert e["frame"] is not None, e
        if e["frame"] in ("device", "screenshot"):
            w, h = e["screen"]
            assert 0 < w and 0 < h, e


@pytest.fixture(scope="module")
def results(screen) -> dict[int, str | Exception | None]:
    """Each entry's outcome: None (it does what it names), what went wrong, or the
    exception other than a `ReplyError` it raised."""
    out: dict[int, str | Exception | None] = {}
    for i, entry in enumerate(ENTRIES):
        try:
            out[i] = check(entry, screen)
        except Exception as e:  # noqa: BLE001 - anything but a ReplyError is a crash
            out[i] = e
    right, total = Counter(), Counter()
    for i, entry in enumerate(ENTRIES):
        total[entry["form"]] += 1
        right[entry["form"]] += out[i] is None
    print(f"\nreal replies: {sum(right.values())}/{len(ENTRIES)} ({sum(right.values()) / len(ENTRIES):.1%}); by form: "
          + ", ".join(f"{f}: {right[f]}/{n}" for f, n in sorted(total.items())))
    for i, why in out.items():
        if why is not None:
            print(f"  FAIL {ENTRIES[i]['source'].split()[0]}: {ENTRIES[i]['reply'][:70]!r}: {why}")
    return out


def test_no_reply_raises_anything_but_a_reply_error(results) -> None:
    crashes = {ENTRIES[i]["reply"][:80]: f"{type(e).__name__}: {e}" for i, e in results.items() if isinstance(e, Exception)}
    assert not crashes


def test_the_failures_are_the_replies_marked_known_failure(results) -> None:
    """The corpus says which real replies the parser gets wrong, and why: a reply that
    starts or stops failing is news (the rate below counts them all)."""
    wrong = {i for i, why in results.items() if why is not None}
    marked = {i for i, e in enumerate(ENTRIES) if e.get("known_failure")}
    assert wrong == marked, {"unmarked failures": {i: (ENTRIES[i]["reply"][:60], str(results[i])) for i in wrong - marked},
                             "marked but passing": [ENTRIES[i]["reply"][:60] for i in sorted(marked - wrong)]}


def test_real_replies_do_what_they_name(results) -> None:
    """At least 99% of the real replies do exactly what they name, the known failures counted."""
    right = sum(why is None for why in results.values())
    failing = "; ".join(f"{ENTRIES[i]['reply'][:50]!r}: {why}" for i, why in results.items() if why is not None)
    assert right / len(ENTRIES) >= RATE, f"{right}/{len(ENTRIES)} real replies do what they name; failing: {failing}"
