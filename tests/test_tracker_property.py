"""The online tracker, the offline evaluator and a brute-force search agree."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from screens import HEIGHT, WIDTH, N, button, checkpoint, dump, state

from mobile_gym.actions import Action
from mobile_gym.matcher import Annotation, Matcher, Tracker, evaluate_trace
from mobile_gym.trace import Trace

ACTIVITIES = ["com.example.shop/.Home", "com.example.shop/.Cart", "com.example.shop/.Search"]
LABELS = ["Home", "Cart", "Search", "Checkout"]


def screen(activity: int, label: int, extra: int) -> tuple[str, str]:
    xml = dump(
        N(text=LABELS[label], rid="com.example.shop:id/title", bounds=(40, 100, 600, 200)),
        button(LABELS[extra], (40, 1000, 1040, 1100), rid="com.example.shop:id/action"),
    )
    return xml, ACTIVITIES[activity]


SCREENS = [screen(a, lbl, e) for a in range(3) for lbl in range(4) for e in (0, 3)]
ACTIONS = [
    Action.click(0.5, 1050 / HEIGHT),  # on the action button
    Action.click(0.5, 150 / HEIGHT),  # on the title
    Action.type_text("shoes"),
    Action.swipe(0.5, 0.8, 0.5, 0.2),
    Action.back(),
    None,
]
# checkpoint templates: (screen index, ess); component 0 is the title, 1 the button
TEMPLATES = ["activity<0>", "exact<0>", "activity<0>|exact<1>", "exclude<0>", "click<1>",
             "activity<0>|type<shoes>", "exact<0>|click<0>"]
MATCHER = Matcher()

checkpoints = st.lists(st.tuples(st.integers(0, len(SCREENS) - 1), st.integers(0, len(TEMPLATES) - 1)),
                       min_size=1, max_size=3)


def build(cps, trace_steps):
    annotation = Annotation([checkpoint(state(*SCREENS[s][:1], SCREENS[s][1]), TEMPLATES[t]) for s, t in cps])
    states = [state(SCREENS[s][0], SCREENS[s][1], action=ACTIONS[a], screen_size=(WIDTH, HEIGHT))
              for s, a in trace_steps]
    return annotation, Trace.from_states(states, installed_packages=frozenset())


def brute_force(annotation, trace) -> int:
    """Longest prefix of checkpoints matchable on strictly increasing steps."""
    ok = [[MATCHER.check(cp, s, action=s.action, installed=frozenset()).matched for s in trace]
          for cp in annotation.checkpoints]
    best, earliest = 0, -1
    for k in range(len(ok)):
        later = [t for t in range(earliest + 1, len(trace)) if ok[k][t]]
        if not later:
            break
        best, earliest = k + 1, later[0]
    return best


def brute_force_any_assignment(annotation, trace) -> bool:
    """Success by exhaustive search over all increasing step assignments."""
    from itertools import combinations

    n = len(annotation.checkpoints)
    return any(
        all(MATCHER.check(cp, trace[t], action=trace[t].action, installed=frozenset()).matched
            for cp, t in zip(annotation.checkpoints, chosen))
        for chosen in combinations(range(len(trace)), n)
    )


def steps_for(cps):
    """Trace steps that often revisit the annotated screens, so that many traces
    match some or all checkpoints."""
    screen = st.one_of(st.sampled_from([s for s, _ in cps]), st.integers(0, len(SCREENS) - 1))
    return st.lists(st.tuples(screen, st.integers(0, len(ACTIONS) - 1)), min_size=1, max_size=10)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_online_offline_and_brute_force_agree(data):
    cps = data.draw(checkpoints)
    trace_steps = data.draw(steps_for(cps))
    annotation, trace = build(cps, trace_steps)
    offline = evaluate_trace(annotation, trace, MATCHER)

    online = Tracker(annotation, MATCHER)  # fed like an env: observe, then act
    for s in trace:
        online.observe(s, frozenset())
        if s.action is not None:
            online.act(s.action)

    assert online.success == offline.success
    assert online.matched == offline.matched
    assert online.progress == offline.progress
    assert len(offline.matched) == brute_force(annotation, trace)
    assert offline.success == brute_force_any_assignment(annotation, trace)
    steps_in_order = [offline.matched[k] for k in sorted(offline.matched)]
    assert steps_in_order == sorted(set(steps_in_order))  # strictly increasing


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_alternative_routes_succeed_when_any_route_does(data):
    routes = [data.draw(checkpoints) for _ in range(data.draw(st.integers(2, 3)))]
    trace_steps = data.draw(steps_for([c for cps in routes for c in cps]))
    alone = [build(cps, trace_steps)[0] for cps in routes]
    trace = build(routes[0], trace_steps)[1]
    annotation = Annotation(alone[0].checkpoints, alternatives=alone[1:])
    offline = evaluate_trace(annotation, trace, MATCHER)

    online = Tracker(annotation, MATCHER)
    for s in trace:
        online.observe(s, frozenset())
        if s.action is not None:
            online.act(s.action)
    assert (online.success, online.matched, online.progress, online.route) == (
        offline.success, offline.matched, offline.progress, offline.route)

    solved = [brute_force_any_assignment(a, trace) for a in alone]
    assert offline.success == any(solved)
    if offline.success:
        assert solved[offline.route] and offline.progress == 1.0
    else:
        fractions = [brute_force(a, trace) / len(a) for a in alone]
        assert offline.progress == max(fractions) and offline.route == fractions.index(max(fractions))
        assert len(offline.matched) == brute_force(alone[offline.route], trace)
