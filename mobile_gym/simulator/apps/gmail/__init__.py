"""Gmail (com.google.android.gm), signed in: the conversation list with its search bar,
navigation drawer (inbox categories, Starred, All mail, Spam, labels, Settings),
selection mode, conversations ("Move to", star, delete), Spam's "Empty spam now" and
settings (account > Notifications: All / High priority only / None).

Modules: `model` (state, the seeded mailbox), `screens` (activities and dialogs).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from mobile_gym.errors import SimulatorError
from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.apps.gmail.model import (
    CATEGORIES,
    FOLDERS,
    NOTIFICATIONS,
    POOL,
    SPAM_POOL,
    TIMES,
    GmailState,
    Message,
)
from mobile_gym.simulator.apps.gmail.screens import PKG, Compose, ConversationList

__all__ = ["Gmail", "GmailState", "Message"]

MESSAGE_FIELDS = tuple(Message.__dataclass_fields__)


class Gmail(App):
    package = PKG
    label = "Gmail"
    key = "gmail"
    loading_screen = True  # a cold launch may show its loading screen first (dynamics)
    icon = "app"
    color = (234, 67, 53)
    State = GmailState
    stream = 1  # added after the first apps: a random stream of its own

    def main(self) -> Activity:
        return ConversationList(self)

    def shortcuts(self) -> list:
        """The launcher icon's shortcut, as Gmail's: "Compose"."""
        return [("Compose", self.compose_shortcut)]

    def compose_shortcut(self) -> None:
        """Gmail comes to the front with a new message open, as its shortcut starts it."""
        self.sys.launch(self.package)
        self.sys.start(Compose(self))

    def vary(self, rng: np.random.Generator) -> None:
        """Another mailbox: which conversations, their order and times, which are read and
        starred (always at least two primary ones, one of them not starred), 1-4 spam."""
        primary = [i for i, p in enumerate(POOL) if p[3] == "primary"]
        others = [i for i, p in enumerate(POOL) if p[3] != "primary"]
        picks = [int(i) for i in rng.choice(primary, size=int(rng.integers(3, len(primary) + 1)), replace=False)]
        picks += [int(i) for i in rng.choice(others, size=int(rng.integers(2, 6)), replace=False)]
        rng.shuffle(picks)
        start = int(rng.integers(0, 3))
        messages = []
        for n, i in enumerate(picks):
            sender, subject, snippet, category = POOL[i]
            messages.append(Message(n + 1, sender, subject, snippet, TIMES[start + n], "inbox", category,
                                    starred=bool(rng.random() < 0.3), unread=bool(rng.random() < 0.5)))
        first_primary = next(m for m in messages if m.category == "primary")
        first_primary.starred = False
        if not any(m.starred for m in messages):
            messages[-1].starred = True
        spam = rng.choice(len(SPAM_POOL), size=int(rng.integers(1, len(SPAM_POOL) + 1)), replace=False)
        for j, k in enumerate(spam):
            sender, subject, snippet = SPAM_POOL[int(k)]
            messages.append(Message(len(messages) + 1, sender, subject, snippet,
                                    TIMES[min(len(TIMES) - 1, start + len(picks) + j)], "spam"))
        self.state.messages = messages

    def popups(self, activity: Activity) -> list[Dialog]:
        """The notification-permission prompt and a "what's new" card on the mailbox."""
        if not isinstance(activity, ConversationList):
            return []
        return [Dialog("Allow Gmail to send you notifications?", "",
                       (("Don't allow", None), ("Allow", None)), package=PKG),
                Dialog("Meet is now in Gmail", "Start or join a video meeting right from the Meet tab.",
                       (("Got it", None),), package=PKG)]

    def configure(self, values: Mapping[str, Any]) -> None:
        """Setup values: ``messages`` as mappings of `Message` fields; ``starred``, the ids
        of the conversations that are starred (the others are not; ``[]``: none, whatever
        the seeded mailbox); notifications among their choices."""
        values = dict(values)
        messages = values.pop("messages", None)
        starred = values.pop("starred", None)
        super().configure(values)
        if messages is not None:
            if not isinstance(messages, (list, tuple)):
                raise SimulatorError(f"gmail 'messages' must be a list, got {messages!r}")
            self.state.messages = [_message(m, n + 1) for n, m in enumerate(messages)]
        if starred is not None:
            ids = [m.id for m in self.state.messages]
            if not isinstance(starred, (list, tuple)) or not all(
                    isinstance(i, int) and not isinstance(i, bool) and i in ids for i in starred):
                raise SimulatorError(f"gmail 'starred' must be a list of conversation ids among {ids}, "
                                     f"got {starred!r}")
            for m in self.state.messages:
                m.starred = m.id in starred
        if self.state.notifications not in NOTIFICATIONS:
            raise SimulatorError(f"gmail notifications must be one of {list(NOTIFICATIONS)}, "
                                 f"got {self.state.notifications!r}")


def _message(value: Any, n: int) -> Message:
    if isinstance(value, Message):
        value = vars(value)
    if not isinstance(value, Mapping):
        raise SimulatorError(f"gmail message must be a mapping of Message fields, got {value!r}")
    m = Message(id=n)
    for name, given in value.items():
        if name not in MESSAGE_FIELDS:
            raise SimulatorError(f"gmail message has no field {name!r}; known: {', '.join(MESSAGE_FIELDS)}")
        default = getattr(m, name)
        if isinstance(given, bool) != isinstance(default, bool) or not isinstance(given, type(default)):
            raise SimulatorError(f"gmail message field {name!r} expects {type(default).__name__}, got {given!r}")
        setattr(m, name, list(given) if isinstance(given, list) else given)
    if m.category not in CATEGORIES:
        raise SimulatorError(f"gmail message category must be one of {list(CATEGORIES)}")
    if m.folder not in FOLDERS + ("archive",):
        raise SimulatorError(f"gmail message folder must be one of {list(FOLDERS) + ['archive']}")
    return m
