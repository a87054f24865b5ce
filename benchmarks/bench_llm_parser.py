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


#: Replies that made the parser slow: (lead, piece, tail), the piece repeated to fill the length.
WORST = [("", "tap(", ""), ("", "tap(1) ", ""), ("", "a-", ""), ("```", " ", "x"), ("id=1", " ", "y"),
         ("", '{"a": ', ""), ("tap(", "-", "1)")]


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
    args = parser.parse_args()
    if args.worst:
        worst(args.runs)
        return
    rng = np.random.default_rng(args.seed)
    outcome: Counter = Counter()
    wrong: list[tuple] = []
    errors: list[tuple] = []
    start = time.perf_counter()
    for _ in range(args.replies):
        verb, values = intended(rng)
        reply = wrap(spell(verb, values, rng), rng)
        try:
            got = spelled(parse_reply(reply))
        except ReplyError as e:
            outcome["parse error"] += 1
            errors.append((reply, str(e)))
            continue
        if got == expected(verb, values):
            outcome["as intended"] += 1
        else:
            outcome["wrong action"] += 1
            wrong.append((reply, got, expected(verb, values)))
    seconds = time.perf_counter() - start
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
