"""What the language-model side costs per step, the model's call left out: the screen as
text (`TextObservation`), reading the reply and carrying it out on the screen's elements
(`TextActions`). Target (issue 13): ≤ 5 ms median per step.

A seeded walk over every simulator task, replies naming a random element in a random
grammar: the text observation as the wrapper builds it on each new screen (the element
list, compact HTML, history), parsing the reply, and turning it into env actions.
Medians and p99 over all steps; the env's own step is not counted.

    python benchmarks/bench_llm_text.py [--steps 40] [--seed 0]
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium as gym
import numpy as np

from mobile_gym.llm.grammar import parse_reply
from mobile_gym.tasks.suite import select_simulator_tasks
from mobile_gym.ui.screen_text import ScreenElements
from mobile_gym.wrappers import TextActions, TextObservation

GRAMMARS = (
    "Thought: element {i} looks right.\nAction: tap({i})",
    '```json\n{{"action": "tap", "element": {i}}}\n```',
    '{{"action_type": "click", "index": {i}}}',
    "- id={i} - action=tap - input_text=N/A",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=40, help="steps per task")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    text_ms: list[float] = []
    parse_ms: list[float] = []
    act_ms: list[float] = []
    for task in select_simulator_tasks("*"):
        env = TextObservation(TextActions(gym.make(task.env_id, dynamics="default")))
        observe = env._observe

        def timed_observe(*a, _observe=observe):  # the text as step builds it, first on each screen
            start = time.perf_counter()
            try:
                return _observe(*a)
            finally:
                if stepping:
                    text_ms.append((time.perf_counter() - start) * 1e3)
        env._observe = timed_observe
        stepping = False
        obs, info = env.reset(seed=args.seed)
        for _ in range(args.steps):
            screen = ScreenElements(env.unwrapped.hierarchy)
            reply = GRAMMARS[int(rng.integers(len(GRAMMARS)))].format(i=int(rng.integers(max(1, len(screen)))))
            start = time.perf_counter()
            command = parse_reply(reply)
            parsed = time.perf_counter()
            if len(screen):
                command.actions(screen)
            act_ms.append((time.perf_counter() - parsed) * 1e3)
            parse_ms.append((parsed - start) * 1e3)
            stepping = True
            obs, _, terminated, truncated, info = env.step(reply if len(screen) else "back()")
            stepping = False
            if terminated or truncated:
                obs, info = env.reset()
        env.close()
    total = [a + b + c for a, b, c in zip(text_ms, parse_ms, act_ms)]
    for name, values in (("screen as text", text_ms), ("parse the reply", parse_ms),
                         ("reply to actions", act_ms), ("all three", total)):
        values = sorted(values)
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        print(f"{name:18} median {statistics.median(values):.3f} ms  p99 {p99:.3f} ms  ({len(values)} steps)")
    verdict = "meets" if statistics.median(total) <= 5 else "misses"
    print(f"agent overhead per step, model call excluded: median {statistics.median(total):.3f} ms "
          f"({verdict} the 5 ms target)")


if __name__ == "__main__":
    main()
