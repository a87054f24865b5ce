"""One hierarchy per screen, shared by the env and the agents (`ViewHierarchy.of`): an
agent handed the env's dump gets the env's own hierarchy and parses nothing; the memo
is bounded by entries and characters, hits on equal strings, keeps no failed parse; and
agents act on a shared hierarchy exactly as on a fresh parse."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from screens import N, button, dump

import mobile_gym  # noqa: F401 - registers the envs
from mobile_gym.agents import DetourAgent, OracleAgent, RandomAgent
from mobile_gym.errors import ViewHierarchyError
from mobile_gym.ui.hierarchy import PARSES, ViewHierarchy

AGENTS = {"random": lambda task, seed: RandomAgent(seed=seed, task=task),
          "oracle": lambda task, seed: OracleAgent(task),
          "detour": lambda task, seed: DetourAgent(task, seed=seed, rate=0.5)}


def play(env_id: str, name: str, seed: int, act, **options) -> int:
    """One episode of agent ``name``, each action ``act(env, agent, obs, info)``; its steps."""
    env = gym.make(env_id, max_episode_steps=40, **options)
    agent = AGENTS[name](env.unwrapped.task, seed)
    obs, info = env.reset(seed=seed)
    agent.reset(seed)
    steps, done = 0, False
    while not done:
        obs, _, terminated, truncated, info = env.step(act(env, agent, obs, info))
        steps, done = steps + 1, terminated or truncated
    env.close()
    return steps


def test_the_hierarchy_of_an_observation_is_the_envs_own() -> None:
    env = gym.make("LlamaTouch/settings-turn-off-wifi-v0")
    obs, _ = env.reset(seed=0)
    assert ViewHierarchy.of(obs["view_hierarchy"]) is env.unwrapped.hierarchy
    agent = RandomAgent(seed=1)
    for _ in range(8):  # screens the matcher did not read too: the env's, made when first asked for
        obs, *_ = env.step(agent.act(obs, {}))
        assert ViewHierarchy.of(obs["view_hierarchy"]) is env.unwrapped.hierarchy


@pytest.mark.parametrize("name", ["random", "oracle", "detour"])
def test_an_agent_acting_on_the_envs_observation_parses_nothing(name: str, monkeypatch) -> None:
    parses = []
    parse = ViewHierarchy.__init__

    def counted(self, *args, **kwargs):
        parses.append(args[0])
        parse(self, *args, **kwargs)

    monkeypatch.setattr(ViewHierarchy, "__init__", counted)

    def act(env, agent, obs, info):
        before = len(parses)
        action = agent.act(obs, info)
        assert len(parses) == before, f"{name} parsed the screen it was handed"
        return action

    for seed in (0, 1):
        assert play("LlamaTouch/bestbuy-empty-cart-v0", name, seed, act, dynamics="default") > 5
    ViewHierarchy.of(dump(button("OK", (0, 0, 100, 100)), N(text=f"no env made this: {name} {id(parses)}")))
    assert parses  # the counter counts: a dump no env made is parsed


@pytest.mark.parametrize("env_id", ["LlamaTouch/settings-turn-off-wifi-v0", "LlamaTouch/bestbuy-empty-cart-v0",
                                    "LlamaTouch/clock-set-alarm-9am-v0"])
@pytest.mark.parametrize("name", ["random", "oracle", "detour"])
def test_agents_act_on_the_shared_hierarchy_as_on_a_fresh_parse(env_id: str, name: str) -> None:
    """A twin agent (same seed) is handed an equal copy of each dump with the memo cleared,
    so it parses; both choose the same actions, step after step."""
    steps = 0
    for seed in (0, 7, 11):
        twin = AGENTS[name](env_id, seed)
        twin.reset(seed)

        def act(env, agent, obs, info):
            action = agent.act(obs, info)
            assert ViewHierarchy.of(obs["view_hierarchy"]) is env.unwrapped.hierarchy
            PARSES.clear()
            copy = "".join(list(obs["view_hierarchy"]))
            assert copy == obs["view_hierarchy"] and copy is not obs["view_hierarchy"]
            assert twin.act({**obs, "view_hierarchy": copy}, info) == action
            assert ViewHierarchy.of(copy) is not env.unwrapped.hierarchy  # the twin's was a parse
            return action

        steps += play(env_id, name, seed, act, dynamics="default")
    assert steps > 10


def test_an_equal_string_finds_the_same_hierarchy() -> None:
    xml = dump(button("Equal", (0, 0, 100, 100)))
    copy = "".join(list(xml))
    assert copy is not xml
    assert ViewHierarchy.of(copy) is ViewHierarchy.of(xml)


def test_the_memo_is_bounded_by_entries_and_characters() -> None:
    first = dump(button("screen 0", (0, 0, 100, 100)))
    kept = ViewHierarchy.of(first)
    for i in range(1, 4 * PARSES.max_entries):
        ViewHierarchy.of(dump(button(f"screen {i}", (0, 0, 100, 100))))
        assert len(PARSES) <= PARSES.max_entries
    assert ViewHierarchy.of(first) is not kept  # the oldest was let go, and parsed again
    long_text = "x" * (PARSES.max_chars // 5)
    for i in range(10):
        last = dump(N(text=f"{i} {long_text}"))
        ViewHierarchy.of(last)
        assert PARSES.chars <= PARSES.max_chars
    assert len(PARSES) < 10 and ViewHierarchy.of(last) is ViewHierarchy.of(last)
    assert PARSES.chars == sum(len(xml) for xml, _ in PARSES.entries.values())
    too_long = dump(N(text="y" * PARSES.max_chars))
    assert ViewHierarchy.of(too_long) is not ViewHierarchy.of(too_long)  # never kept
    assert PARSES.chars <= PARSES.max_chars


@pytest.mark.parametrize("bad", ["", "not xml at all", "<hierarchy rotation='0'></hierarchy>",
                                 "<hierarchy><node broken", '<hierarchy rotation="up"><node class="x"/></hierarchy>'])
def test_a_dump_that_fails_to_parse_raises_as_before_and_is_not_kept(bad: str) -> None:
    with pytest.raises(ViewHierarchyError) as direct:
        ViewHierarchy(bad)
    for _ in range(2):
        with pytest.raises(ViewHierarchyError) as shared:
            ViewHierarchy.of(bad)
        assert str(shared.value) == str(direct.value)
    assert all(xml != bad for xml, _ in PARSES.entries.values())


def test_bytes_and_named_sources_are_parsed_afresh() -> None:
    xml = dump(button("Bytes", (0, 0, 100, 100)))
    data = xml.encode()
    assert ViewHierarchy.of(data) is not ViewHierarchy.of(data)
    assert ViewHierarchy.of(data).find(text="Bytes") is not None
    named = ViewHierarchy(xml, source="screen.xml")
    assert ViewHierarchy.of(xml) is not named and ViewHierarchy.of(xml).source is None


def test_lookups_and_hit_tests_answer_as_a_scan_of_the_nodes() -> None:
    rng = np.random.default_rng(0)
    env = gym.make("LlamaTouch/bestbuy-empty-cart-v0", dynamics="default")
    obs, _ = env.reset(seed=0)
    agent = RandomAgent(seed=0)
    for _ in range(25):
        h = env.unwrapped.hierarchy
        assert h.find_all(clickable=True, enabled=True) == [n for n in h if n.clickable and n.flags["enabled"]]
        label = h.nodes[int(rng.integers(len(h)))].text
        assert h.find_all(text=label.upper(), ignore_case=True, focused=False) == [
            n for n in h if n.text.lower() == label.upper().lower() and not n.flags["focused"]]
        screen = h.screen_bounds
        for x, y in rng.uniform(0, 1, (20, 2)) * (screen.right, screen.bottom):
            hits = [n for n in reversed(h.nodes) if n.bounds.area and n.bounds.contains(x, y)]
            assert h.nodes_at(x, y) == hits and h.node_at(x, y) is (hits[0] if hits else None)
            targets = [n.clickable_target for n in hits if n.clickable_target is not None]
            assert h.clickable_at(x, y) is (targets[0] if targets else None)
        obs, _, terminated, truncated, _ = env.step(agent.act(obs, {}))
        if terminated or truncated:
            obs, _ = env.reset()


def test_a_promise_that_reads_another_state_of_the_same_screen_ends():
    """A replay's state may promise its dump's hierarchy as another state's (the ground
    truth's): reading either makes it once, never the promise asking for itself."""
    from mobile_gym.trace import UIState

    xml = dump(button("Replayed", (0, 0, 100, 50)))
    PARSES.clear()
    replay = UIState(xml=xml, tree=lambda: original.hierarchy)  # promised first
    original = UIState(xml=xml, tree=lambda: ViewHierarchy(xml))
    assert original.hierarchy is replay.hierarchy
    assert ViewHierarchy.of(xml) is original.hierarchy
