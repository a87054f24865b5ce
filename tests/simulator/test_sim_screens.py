"""Crawl every modelled app: from its launch screen, tap each clickable node of each
screen found (breadth first, bounded), and check every screen's dump and screenshot.

The crawl branches by pickling the phone, so each path is followed exactly once; a
handler that raises, a dump with bad bounds or a screen that cannot be drawn fails here.
"""

from __future__ import annotations

import pickle
from collections import deque

import pytest

from mobile_gym.actions import Action
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.ui.hierarchy import ViewHierarchy
from phone import check_dump

APPS = ("settings", "clock", "playstore", "chrome", "launcher")
MAX_SCREENS = 80


def _signature(h: ViewHierarchy, activity: str) -> tuple:
    return (activity, tuple(sorted((n.class_name, n.text, n.content_desc, n.resource_id)
                                   for n in h.find_all(clickable=True))))


def crawl(app: str, dynamics: str = "none", seed: int = 0, profile: str = "pixel-6",
          limit: int = MAX_SCREENS) -> dict[tuple, str]:
    phone = SimulatedDevice(profile, seed=seed, dynamics=dynamics,
                            setup={"launch": app} if app != "launcher" else None)
    W, H = phone.screen_size
    seen: dict[tuple, str] = {}
    queue = deque([pickle.dumps(phone)])
    while queue and len(seen) < limit:
        phone = pickle.loads(queue.popleft())
        state = phone.observe(screenshot_size=(90, 200))
        assert state.screenshot is not None
        h = check_dump(phone, state.xml)
        sig = _signature(h, state.activity)
        if sig in seen:
            continue
        seen[sig] = state.xml
        snapshot = pickle.dumps(phone)
        for n in h.find_all(clickable=True):
            if n.package == "com.android.systemui":
                continue
            b = n.bounds
            branch = pickle.loads(snapshot)
            branch.perform(Action.click((b.left + b.right) / 2 / W, (b.top + b.bottom) / 2 / H))
            if branch.foreground_activity().split("/")[0] in (phone.foreground_activity().split("/")[0],):
                queue.append(pickle.dumps(branch))
        for action in (Action.swipe(0.5, 0.75, 0.5, 0.3), Action.back()):
            branch = pickle.loads(snapshot)
            branch.perform(action)
            queue.append(pickle.dumps(branch))
    return seen


@pytest.mark.parametrize("app", APPS)
def test_every_reachable_screen_has_a_valid_dump(app: str) -> None:
    screens = crawl(app)
    assert len(screens) >= (2 if app == "launcher" else 5), f"{app}: only {len(screens)} screens reachable"


@pytest.mark.slow
@pytest.mark.parametrize("app", APPS)
def test_every_reachable_screen_has_a_valid_dump_with_dynamics(app: str) -> None:
    crawl(app, dynamics="default", seed=11)
