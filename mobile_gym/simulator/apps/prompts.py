"""Prompts many apps raise when they open: Android's runtime notification permission (drawn
by the permission controller, over the app) and a "what's new" sheet."""

from __future__ import annotations

from functools import partial
from typing import Callable

from mobile_gym.simulator.app import Dialog
from mobile_gym.simulator.views import FRAME, Button, Column, Icon, Row, Spacer, Text, View

CONTROLLER = "com.android.permissioncontroller:id/"


class NotificationPermission(Dialog):
    """"Allow <app> to send you notifications?"; `answer(allowed)` records the choice
    (a bound method or partial: a dialog is kept between frames and pickled)."""

    def __init__(self, label: str, answer: Callable[[bool], None],
                 color: tuple[int, int, int] | None = None) -> None:
        super().__init__(f"Allow {label} to send you notifications?",
                         buttons=(("Don't allow", partial(answer, False)), ("Allow", partial(answer, True))),
                         package="com.google.android.permissioncontroller")
        self.color = color

    def build(self) -> View:
        deny, allow = self.buttons
        return Column(
            Icon("notifications", h=40, w=40, align="center", fg=self.color),
            Text(self.title, size=20, lines=2, align="center", rid=CONTROLLER + "permission_message"),
            Button("Allow", partial(self._press, allow[1]), style="tonal", rid=CONTROLLER + "permission_allow_button"),
            Button("Don't allow", partial(self._press, deny[1]), style="tonal",
                   rid=CONTROLLER + "permission_deny_button"),
            cls=FRAME, pad=(24, 24, 24, 16), gap=8, w=312, align="center", style="dialog", radius=28,
            rid=CONTROLLER + "grant_dialog",
        )


class WhatsNew(Dialog):
    """The "what's new" sheet an app shows once after an update: an optional icon, a title,
    a few lines and "Got it", with resource-ids under the app's package."""

    def __init__(self, package: str, title: str, message: str, *, icon: str | None = None,
                 color: tuple[int, int, int] | None = None) -> None:
        super().__init__(title, message, (("Got it", None),), kind="sheet", package=package)
        self.icon, self.color = icon, color

    def build(self) -> View:
        ids = f"{self.package}:id/"
        return Column(
            Icon(self.icon, h=56, w=56, align="center", fg=self.color) if self.icon else None,
            Text(self.title, size=22, align="center", rid=ids + "whats_new_title"),
            Text(self.message, size=14, lines=3, align="center", style="muted", rid=ids + "whats_new_body"),
            Row(Spacer(), Button("Got it", self.close, style="filled", w=112, rid=ids + "whats_new_dismiss"),
                Spacer(), h=56),
            pad=(24, 24, 24, 16), gap=12, style="dialog", radius=28,
        )
