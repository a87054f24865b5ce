"""How well the reply grammar reads what models write: a corpus of replies made from
templates of the forms models answer in (AndroidWorld's JSON, OpenAI tool calls,
function calls, AutoDroid's blanks, AITW coordinates), each wrapped the ways models wrap
them (reasoning before, a closing remark after, code fences, an "Action:" line, upper
case, reasoning that names other elements in words). Each reply has one intended
action; it is read as that action, as a parse error, or — the failure that matters — as
another action. Target (issue 13): ≥ 99% read as intended, 0 wrong.

    python benchmarks/bench_llm_parser.py [--replies 5000] [--seed 0]

The corpus is generated, not collected from models (no model is reachable from CI):
it measures the grammar against the forms above, not a model's habits.

``--worst`` times instead replies made to be slow to read (issue 35: ``"tap(" * n`` took
31 s at 32k characters), at 4k characters and at `MAX_REPLY`, the median of ``--runs``
reads each, and says what each read ended in (a command, `ReplyError`, or an untyped
error). The fuzz that checks every reply ends in a command or a `ReplyError` is
``tests/test_llm_replies.py`` (a larger sweep under ``-m slow``).

    python benchmarks/bench_llm_parser.py --worst [--runs 5]

``--forms points`` reads instead replies that name a point (issue 36), in the spellings
of AndroidWorld's JSON (``"x": 334, "y": 2269``), the ``mobile_use`` tool in
``<tool_call>`` tags, UI-TARS (``click(start_box='(x,y)')``, boxes), Claude's computer
use and function style, plus open_app, wait, answer, goal statuses and key names, read
in device pixels of a 1080×2400 phone: as intended means the actions the reply names
(a point to the pixel). ``--forms old`` is the corpus above alone, ``all`` both.

    python benchmarks/bench_llm_parser.py --forms points [--replies 5000] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter

import numpy as np

from mobile_gym.actions import Action
from mobile_gym.errors import ReplyError
from mobile_gym.llm.coordinates import coordinate_frame
from mobile_gym.llm.grammar import MAX_REPLY, parse_reply, spelled

WORDS = ["Settings", "Wi-Fi", "the search box", "Network & internet", "Cart", "Remove", "Alarm", "OK", "Install"]
TEXTS = ["bestbuy.com", "hello world", "9:00 AM", "Wi-Fi (5 GHz)", "it's \"quoted\"", "ébène, café", "a, b"]


def intended(rng: np.random.Generator) -> tuple[str, dict]:
    verb = rng.choice(["tap", "tap", "tap", "type", "scroll", "back", "home", "enter", "complete", "impossible"])
    args: dict = {}
    if verb in ("tap", "type") or (verb == "scroll" and rng.random() < 0.4):
        args["element"] = int(rng.integers(0, 40))
    if verb == "type":
        args["text"] = str(rng.choice(TEXTS))
    if verb == "scroll":
        args["direction"] = str(rng.choice(["up", "down", "left", "right"]))
    return str(verb), args


def spell(verb: str, args: dict, rng: np.random.Generator):
    """The action in one of the grammars; a dict for a tool call."""
    forms = ["call", "json", "androidworld", "tool", "autodroid"]
    if verb == "tap" and rng.random() < 0.1:
        forms = ["aitw"]
    form = rng.choice(forms)
    if form == "autodroid" and verb not in ("tap", "type", "complete"):
        form = "call"
    if form == "call":
        values = [repr(args[k]) if k != "text" else json.dumps(args[k], ensure_ascii=False)
                  for k in ("element", "text", "direction") if k in args]
        name = verb.upper() if rng.random() < 0.1 else verb
        return f"{name}({', '.join(values)})"
    if form == "json":
        return json.dumps({"action": verb, **args}, ensure_ascii=False)
    if form == "androidworld":
        names = {"tap": "click", "type": "input_text", "scroll": "scroll", "back": "navigate_back",
                 "home": "navigate_home", "enter": "keyboard_enter"}
        if verb in ("complete", "impossible"):
            body = {"action_type": "status", "goal_status": "complete" if verb == "complete" else "infeasible"}
        else:
            body = {"action_type": names[verb], **({"index": args["element"]} if "element" in args else {}),
                    **{k: v for k, v in args.items() if k in ("text", "direction")}}
        return json.dumps(body, ensure_ascii=False)
    if form == "tool":
        return {"role": "assistant", "content": None,
                "tool_calls": [{"id": "c", "type": "function",
                                "function": {"name": verb, "arguments": json.dumps(args, ensure_ascii=False)}}]}
    if form == "autodroid":
        if verb == "complete":
            return "- id=-1 - action=N/A - input_text=N/A"
        action = "tap" if verb == "tap" else "input"
        text = args.get("text", "N/A")
        return f"- id={args['element']} - action={action} - input_text={text}"
    # aitw: a tap at a point
    y, x = (round(float(v), 3) for v in rng.uniform(0.05, 0.95, 2))
    args["point"] = (x, y)
    return json.dumps({"action_type": "dual_point", "touch_point": [y, x], "lift_point": [y, x], "typed_text": ""})


def wrap(spelled_action, rng: np.random.Generator):
    """The ways models surround an answer."""
    if isinstance(spelled_action, dict):
        return spelled_action
    word = str(rng.choice(WORDS))
    before = str(rng.choice([
        "", f"I need to open {word} first.\n", f"The screen shows {word}; it is what the task needs.\n",
        f"Thought: the element labelled '{word}' (the gear icon) looks right.\n",
        "1. Completing this task usually involves opening the app. 2. The previous actions opened it. "
        "3. N. 4. Y.\n",
    ]))
    after = str(rng.choice(["", "\nLet me know if this works.", "\n(I will verify on the next screen.)"]))
    style = rng.choice(["plain", "fence", "action", "action_fence"])
    if style == "fence":
        body = f"```json\n{spelled_action}\n```" if spelled_action.startswith("{") else f"```\n{spelled_action}\n```"
    elif style == "action":
        body = f"Action: {spelled_action}"
    elif style == "action_fence":
        body = f"Action:\n```\n{spelled_action}\n```"
    else:
        body = spelled_action
    return before + body + after


def expected(verb: str, args: dict) -> str:
    if "point" in args:
        return str(Action.click(*args["point"]))
    values = [repr(args[k]) for k in ("element", "text", "direction") if k in args]
    return f"{verb}({', '.join(values)})"


# -- points (issue 36) --------------------------------------------------------------------------
W, H = 1080, 2400
FRAME = coordinate_frame("device", (W, H))
POINT_VERBS = ["tap", "tap", "long_press", "double_tap", "type_at", "swipe", "scroll_at", "open_app", "wait",
               "answer", "complete", "impossible", "back", "home", "enter"]
APPS = ["Gmail", "Clock", "Chrome", "Play Store"]


def point_intent(rng: np.random.Generator) -> tuple[str, dict]:
    verb = str(rng.choice(POINT_VERBS))
    args = {"p": (int(rng.integers(10, W - 10)), int(rng.integers(10, H - 10))),
            "q": (int(rng.integers(10, W - 10)), int(rng.integers(10, H - 10))),
            "text": str(rng.choice(TEXTS)), "app": str(rng.choice(APPS)),
            "direction": str(rng.choice(["up", "down", "left", "right"]))}
    if verb == "scroll_at":
        args["p"] = (int(rng.integers(300, W - 300)), int(rng.integers(900, H - 900)))
    return verb, args


def spell_point(verb: str, a: dict, rng: np.random.Generator) -> str:
    """A point intent in one published spelling (function style when the form has no such verb)."""
    (x, y), (x2, y2), text, d = a["p"], a["q"], a["text"], a["direction"]
    finger = {"up": "down", "down": "up", "left": "right", "right": "left"}[d]
    j = lambda o: json.dumps(o, ensure_ascii=False)  # noqa: E731
    forms = {
        "androidworld": {"tap": {"action_type": "click", "x": x, "y": y},
                         "long_press": {"action_type": "long_press", "x": x, "y": y},
                         "double_tap": {"action_type": "double_tap", "x": x, "y": y},
                         "type_at": {"action_type": "input_text", "text": text, "x": x, "y": y},
                         "scroll_at": {"action_type": "scroll", "direction": d, "x": x, "y": y},
                         "open_app": {"action_type": "open_app", "app_name": a["app"]}, "wait": {"action_type": "wait"},
                         "answer": {"action_type": "answer", "text": text},
                         "complete": {"action_type": "status", "goal_status": "successful"},
                         "impossible": {"action_type": "status", "goal_status": "infeasible"}},
        "mobile_use": {"tap": {"action": "click", "coordinate": [x, y]},
                       "long_press": {"action": "long_press", "coordinate": [x, y], "time": 2},
                       "swipe": {"action": "swipe", "coordinate": [x, y], "coordinate2": [x2, y2]},
                       "scroll_at": {"action": "swipe", "direction": finger, "coordinate": [x, y]},
                       "open_app": {"action": "open", "text": a["app"]}, "wait": {"action": "wait", "time": 2},
                       "answer": {"action": "answer", "text": text},
                       "complete": {"action": "terminate", "status": "success"},
                       "impossible": {"action": "terminate", "status": "failure"},
                       "back": {"action": "system_button", "button": "Back"},
                       "home": {"action": "system_button", "button": "Home"},
                       "enter": {"action": "system_button", "button": "Enter"}},
        "uitars": {"tap": f"click(start_box='<|box_start|>({x},{y})<|box_end|>')",
                   "long_press": f"long_press(start_box='({x},{y})')",
                   "swipe": f"drag(start_box='({x},{y})', end_box='({x2},{y2})')",
                   "scroll_at": f"scroll(start_box='({x},{y})', direction='{d}')",
                   "open_app": f"open_app(app_name='{a['app']}')", "wait": "wait()", "back": "press_back()",
                   "home": "press_home()"},
        "claude": {"tap": {"action": "left_click", "coordinate": [x, y]},
                   "double_tap": {"action": "double_click", "coordinate": [x, y]},
                   "swipe": {"action": "left_click_drag", "start_coordinate": [x, y], "coordinate": [x2, y2]},
                   "scroll_at": {"action": "scroll", "coordinate": [x, y], "scroll_direction": d, "scroll_amount": 3},
                   "wait": {"action": "wait", "duration": 1}, "back": {"action": "key", "text": "Back"},
                   "home": {"action": "key", "text": "Home"}, "enter": {"action": "key", "text": "Return"}},
    }
    form = str(rng.choice(["androidworld", "mobile_use", "uitars", "claude", "call"]))
    body = forms.get(form, {}).get(verb)
    if body is None:
        q = json.dumps(text, ensure_ascii=False)
        calls = {"tap": f"tap({x}, {y})", "long_press": f"long_press({x}, {y})", "double_tap": f"double_tap({x}, {y})",
                 "type_at": f"type({x}, {y}, {q})", "swipe": f"swipe({x}, {y}, {x2}, {y2})",
                 "scroll_at": f"scroll({x}, {y}, {d})", "open_app": f'open_app("{a["app"]}")', "wait": "wait()",
                 "answer": f"answer({q})"}
        return calls.get(verb, f"{verb}()")
    if form == "mobile_use":
        return f"<tool_call>\n{j({'name': 'mobile_use', 'arguments': body})}\n</tool_call>"
    if form == "uitars":
        return f"Thought: {rng.choice(WORDS)} is what the task needs.\nAction: {body}"
    return j(body)


def intended_actions(verb: str, a: dict, screen) -> list[str]:
    """What a point intent does: its actions in device pixels."""
    (x, y), (x2, y2) = a["p"], a["q"]
    p = (x / W, y / H)
    if verb == "scroll_at":  # the canonical call's swipe: the spellings must agree with it
        return [str(act) for act in parse_reply(f"scroll({x}, {y}, {a['direction']})").actions(screen, FRAME)]
    done = {"tap": [Action.click(*p)], "long_press": [Action.long_press(*p)], "double_tap": [Action.double_tap(*p)],
            "type_at": [Action.click(*p), Action.type_text(a["text"])], "open_app": [Action.open_app(a["app"])],
            "wait": [Action.wait()], "answer": [Action.answer(a["text"])], "complete": [Action.complete()],
            "impossible": [Action.impossible()], "back": [Action.back()], "home": [Action.home()],
            "enter": [Action.enter()]}
    if verb == "swipe":
        return [str(Action.swipe(*p, x2 / W, y2 / H))] if (x, y) != (x2, y2) else ["(no swipe)"]
    return [str(act) for act in done[verb]]


def points_screen():
    """A 1080×2400 screen of the simulator for the point corpus."""
    import gymnasium as gym

    import mobile_gym  # noqa: F401 - registers the envs
    from mobile_gym.ui.screen_text import ScreenElements

    env = gym.make("LlamaTouch/settings-open-v0", profile="pixel-6")
    env.reset(seed=0)
    return ScreenElements.of(env.unwrapped.hierarchy)


#: Replies that made the parser slow: (lead, piece, tail), the piece repeated to fill the length.
WORST = [("", "tap(", ""), ("", "tap(1) ", ""), ("", "a-", ""), ("```", " ", "x"), ("id=1", " ", "y"),
         ("", '{"a": ', ""), ("tap(", "-", "1)"),
         ("", "{'a': 1} ", ""), ("", "tap(1) then ", "")]  # Python-spelled objects, chains


def worst(runs: int) -> None:
    """The median time to read each of `WORST` at 4k characters and at `MAX_REPLY`."""
    print(f"| reply | 4,096 chars | {MAX_REPLY:,} chars | ends in |")
    print("|---|---|---|---|")
    for lead, piece, tail in WORST:
        cells, ending = [], ""
        for n in (4096, MAX_REPLY):
            reply, times = lead + piece * ((n - len(lead) - len(tail)) // len(piece)) + tail, []
            for _ in range(runs):
                start = time.perf_counter()
                try:
                    ending = spelled(parse_reply(reply))
                except Exception as e:  # noqa: BLE001 - an untyped error is what this reports
                    ending = type(e).__name__
                times.append(time.perf_counter() - start)
            cells.append(f"{statistics.median(times) * 1e3:.1f} ms")
        label = " + ".join([repr(lead)] * bool(lead) + [f"{piece!r} × n"] + [repr(tail)] * bool(tail))
        print(f"| `` {label} `` | {cells[0]} | {cells[1]} | {ending} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--replies", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worst", action="store_true", help="time the replies made to be slow to read instead")
    parser.add_argument("--runs", type=int, default=5, help="reads of each reply with --worst")
    parser.add_argument("--forms", choices=["old", "points", "all"], default="all",
                        help="the element corpus (old), the point corpus (points, issue 36) or both, alternating")
    args = parser.parse_args()
    if args.worst:
        worst(args.runs)
        return
    rng = np.random.default_rng(args.seed)
    screen = points_screen() if args.forms != "old" else None
    outcome: Counter = Counter()
    wrong: list[tuple] = []
    errors: list[tuple] = []
    seconds = 0.0
    for i in range(args.replies):
        points = args.forms == "points" or (args.forms == "all" and i % 2)
        if points:
            verb, values = point_intent(rng)
            reply = wrap(spell_point(verb, values, rng), rng)
            want = intended_actions(verb, values, screen)
        else:
            verb, values = intended(rng)
            reply = wrap(spell(verb, values, rng), rng)
            want = expected(verb, values)
        start = time.perf_counter()  # the parser's time: reading the reply and spelling the command
        try:
            command = parse_reply(reply)
            got = spelled(command)
        except ReplyError as e:
            seconds += time.perf_counter() - start
            outcome["parse error"] += 1
            errors.append((reply, str(e)))
            continue
        seconds += time.perf_counter() - start
        if points:
            try:
                got = [str(a) for a in command.actions(screen, FRAME)]
            except ReplyError as e:
                outcome["parse error"] += 1
                errors.append((reply, str(e)))
                continue
        if got == want:
            outcome["as intended"] += 1
        else:
            outcome["wrong action"] += 1
            wrong.append((reply, got, want))
    n = args.replies
    print(f"{n} replies: as intended {outcome['as intended'] / n:.2%}, parse errors {outcome['parse error']}, "
          f"wrong actions {outcome['wrong action']} ({seconds / n * 1e3:.3f} ms a reply)")
    for reply, got, want in wrong[:5]:
        print(f"WRONG: {reply!r} read as {got}, meant {want}")
    for reply, why in errors[:5]:
        print(f"ERROR: {reply!r}: {why}")
    ok = outcome["as intended"] / n >= 0.99 and not wrong
    print(f"target (>= 99% as intended, 0 wrong): {'met' if ok else 'missed'}")


if __name__ == "__main__":
    main()
