"""Pinterest (com.pinterest), signed in as "agentian": the home feed of pins (a
staggered grid; Home tapped again refreshes it), a pin's close-up (Save, Send > Copy
link, comments), Search (suggestions, Pins and Profiles results), people's profiles
(Follow), Notifications (Updates with a filter, Inbox), Saved (your boards with Sort by
and "Search your Pins", your pins), Create > Board, your profile (followers, following,
Share), and settings ("Your account": Account management, Profile visibility, Home feed
tuner, Social permissions, Notifications, Privacy and data, Log out).

Modules: `model` (state and content pools), `screens` (activities and dialogs).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from mobile_gym.errors import SimulatorError
from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.apps.pinterest.model import (
    BOARD_POOL,
    BOARD_SORTS,
    INBOX_POOL,
    PIN_POOL,
    TIMES,
    UPDATE_FILTERS,
    UPDATE_POOL,
    USER_POOL,
    Board,
    Conversation,
    OwnPin,
    Pin,
    PinterestState,
    Update,
    User,
    make_pin,
    own_pins,
)
from mobile_gym.simulator.apps.pinterest.screens import PKG, Main, Unauth, popups

__all__ = ["Board", "OwnPin", "Pin", "Pinterest", "PinterestState", "User"]

BOARD_FIELDS = ("name", "pins", "secret")


class Pinterest(App):
    package = PKG
    label = "Pinterest"
    key = "pinterest"
    loading_screen = True  # a cold launch may show its loading screen first (dynamics)
    icon = "app"
    color = (230, 0, 35)
    State = PinterestState
    stream = 3  # added after the first apps: a random stream of its own

    def main(self) -> Activity:
        return Main(self) if self.state.logged_in else Unauth(self)

    def vary(self, rng: np.random.Generator) -> None:
        """Another home feed (which pins, their order and save counts), boards (their pin
        counts and which was saved to last, maybe one fewer), your pins, whom you follow,
        your follower count, and the notifications and messages (which, in what order,
        how long ago). "Wendy's Lookbook" is never followed at the start; the board
        "DIY projects" is always there."""
        s = self.state
        picks = rng.choice(len(PIN_POOL), size=int(rng.integers(12, len(PIN_POOL) + 1)), replace=False)
        s.pins = [make_pin(int(i), saves=int(PIN_POOL[int(i)][4] * rng.uniform(0.6, 1.6))) for i in picks]
        boards = []
        for name, pins, secret in BOARD_POOL:
            if name != "DIY projects" and rng.random() < 0.15:
                continue
            boards.append(Board(name, max(1, pins + int(rng.integers(-5, 8))), secret))
        order = rng.permutation(len(boards))
        for board, rank in zip(boards, order):
            board.updated = int(rank) + 1
        s.boards = boards
        names = {b.name for b in boards}
        own = [p for p in own_pins() if p.board in names]
        s.own_pins = [own[int(i)] for i in rng.permutation(len(own))]
        others = [u for u in USER_POOL if u[0] != "Wendy's Lookbook"]
        followed = {others[int(i)][0] for i in rng.choice(len(others), size=int(rng.integers(2, 7)), replace=False)}
        s.users = [User(n, h, int(f * rng.uniform(0.9, 1.1)), n in followed, bio) for n, h, f, bio in USER_POOL]
        s.followers = int(rng.integers(12, 240))
        ups = rng.choice(len(UPDATE_POOL), size=int(rng.integers(5, len(UPDATE_POOL) + 1)), replace=False)
        ups = sorted(int(i) for i in ups)
        if not any(UPDATE_POOL[i][0] == "comment" for i in ups):
            ups = [0] + ups
        start = int(rng.integers(0, 3))
        s.updates = [Update(UPDATE_POOL[i][0], UPDATE_POOL[i][1], TIMES[min(len(TIMES) - 1, start + k)])
                     for k, i in enumerate(int(j) for j in rng.permutation(ups))]
        chats = rng.choice(len(INBOX_POOL), size=int(rng.integers(2, len(INBOX_POOL) + 1)), replace=False)
        s.inbox = [Conversation(INBOX_POOL[int(i)][0], INBOX_POOL[int(i)][1], TIMES[min(len(TIMES) - 1, 2 + 2 * k)])
                   for k, i in enumerate(chats)]

    def popups(self, activity: Activity) -> list[Dialog]:
        """The notification-permission prompt, then a "Home feed tuner" card and a
        birthday nudge, on the tabs."""
        return popups(activity) if isinstance(activity, Main) else []

    def configure(self, values: Mapping[str, Any]) -> None:
        """Setup: ``boards`` as names or mappings {name, pins, secret} are added to the
        boards there are; ``board_sort`` and ``updates_filter`` among their choices;
        ``follow`` names users followed at the start; the other fields as they are."""
        values = dict(values)
        boards = values.pop("boards", None)
        follow = values.pop("follow", None)
        for name in ("pins", "own_pins", "users", "updates", "inbox"):
            if name in values:
                raise SimulatorError(f"pinterest {name!r} is seeded content and cannot be set; "
                                     "set 'boards', 'follow' or a setting")
        super().configure(values)
        s = self.state
        if boards is not None:
            if not isinstance(boards, (list, tuple)):
                raise SimulatorError(f"pinterest 'boards' must be a list, got {boards!r}")
            for given in boards:
                self._add_board(given)
        if follow is not None:
            if not isinstance(follow, (list, tuple)):
                raise SimulatorError(f"pinterest 'follow' must be a list of names, got {follow!r}")
            for name in follow:
                user = s.user(name) if isinstance(name, str) else None
                if user is None:
                    raise SimulatorError(f"pinterest has no user {name!r}; users: {[u.name for u in s.users]}")
                user.following = True
        if s.board_sort not in BOARD_SORTS:
            raise SimulatorError(f"pinterest board_sort must be one of {list(BOARD_SORTS)}, got {s.board_sort!r}")
        if s.updates_filter not in UPDATE_FILTERS:
            raise SimulatorError(f"pinterest updates_filter must be one of {list(UPDATE_FILTERS)}, "
                                 f"got {s.updates_filter!r}")

    def _add_board(self, given: Any) -> None:
        if isinstance(given, str):
            given = {"name": given}
        if not isinstance(given, Mapping) or not isinstance(given.get("name"), str) or not given["name"].strip():
            raise SimulatorError(f"pinterest board must be a name or a mapping with a 'name', got {given!r}")
        unknown = set(given) - set(BOARD_FIELDS)
        if unknown:
            raise SimulatorError(f"pinterest board has no field(s) {sorted(unknown)}; known: {list(BOARD_FIELDS)}")
        pins, secret = given.get("pins", 0), given.get("secret", False)
        if not isinstance(pins, int) or isinstance(pins, bool) or pins < 0:
            raise SimulatorError(f"pinterest board 'pins' must be a count, got {pins!r}")
        if not isinstance(secret, bool):
            raise SimulatorError(f"pinterest board 'secret' must be true or false, got {secret!r}")
        s = self.state
        board = s.board(given["name"])
        if board is None:
            top = max((b.updated for b in s.boards), default=0)
            s.boards.append(Board(given["name"], pins, secret, updated=top + 1))
        else:
            board.pins, board.secret = pins, secret

