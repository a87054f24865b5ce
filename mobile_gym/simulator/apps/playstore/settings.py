"""The store's Settings page: General (with Network preferences), Family and About fold
open; a setting's options open as radio buttons in a dialog."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from mobile_gym.simulator.app import Dialog
from mobile_gym.simulator.apps.generic import app_bar
from mobile_gym.simulator.apps.playstore.model import CHOICES, ID, VERSION
from mobile_gym.simulator.apps.playstore.widgets import Page, info_row, radio
from mobile_gym.simulator.views import Column, Icon, Row, Scroll, Text, View

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.playstore.store import PlayStore

NETWORK = ("download_preference", "auto_update", "auto_play_videos")


class SettingsPage(Page):
    def __init__(self, app: PlayStore) -> None:
        super().__init__(app)
        self.expanded: list[str] = []  # groups folded open

    def toggle(self, name: str) -> None:
        if name in self.expanded:
            self.expanded.remove(name)
        else:
            self.expanded.append(name)

    def choose(self, state_field: str) -> None:
        title, options = CHOICES[state_field]
        self.sys.show(Choice(self.app, title, state_field, options), self.app)

    def version(self) -> None:
        self.sys.show(Dialog("", "Google Play Store is up to date", (("Got it", None),)), self.app)

    def inputs(self) -> tuple:
        s = self.app.state
        return (tuple(self.expanded), *(getattr(s, f) for f in CHOICES))

    def group(self, name: str, subtitle: str = "", level: int = 0) -> View:
        """A heading that folds its rows open or closed."""
        title = Text(name, size=18 if level == 0 else 16, bold=level == 0)
        return Row(
            Column(title, Text(subtitle, size=14, style="muted"), h=title.h + 24) if subtitle else title,
            Icon("expand", desc="Collapse" if name in self.expanded else "Expand", w=48),
            h=72 if subtitle else 64, pad=(16 + 16 * level, 8, 8, 8), on_click=partial(self.toggle, name),
            selected=name in self.expanded,
        )

    def build(self) -> View:
        s = self.app.state
        info = self.app.open_info
        rows: list[View | None] = [self.group("General")]
        if "General" in self.expanded:
            rows += [
                info_row("Account and device preferences", "Country and profiles, Sign-in, Instant apps",
                         partial(info, "Account and device preferences"), indent=32),
                info_row("Notifications", "Manage notifications for downloads, updates, rewards and more",
                         partial(info, "Notifications"), indent=32),
                self.group("Network preferences", "App download preference, Auto-update apps, Auto-play videos", 1),
            ]
            if "Network preferences" in self.expanded:
                rows += [info_row(CHOICES[f][0], getattr(s, f), partial(self.choose, f), indent=48)
                         for f in NETWORK]
            rows.append(info_row("Theme", s.theme, partial(self.choose, "theme"), indent=32))
        rows.append(self.group("Family"))
        if "Family" in self.expanded:
            rows.append(info_row("Parental controls", "Parental controls are off",
                                 partial(info, "Parental controls"), indent=32))
        rows.append(self.group("About"))
        if "About" in self.expanded:
            rows += [
                info_row("Play Store version", f"Version: {VERSION}", self.version, indent=32),
                info_row("Play Protect certification", "Device is certified", indent=32),
                info_row("Open source licenses", "License details for open source software",
                         partial(info, "Open source licenses"), indent=32),
            ]
        return Column(app_bar(self, "Settings"), Scroll(*rows, key="list", rid=ID + "settings_list"))


class Choice(Dialog):
    """A setting's options as radio buttons; Done saves the picked one into state."""

    def __init__(self, app: PlayStore, title: str, state_field: str, options: tuple[str, ...]) -> None:
        super().__init__(title, buttons=(("Cancel", None), ("Done", self.done)))
        self.app, self.state_field, self.options = app, state_field, options
        self.choice = getattr(app.state, state_field)

    def pick(self, option: str) -> None:
        self.choice = option

    def done(self) -> None:
        setattr(self.app.state, self.state_field, self.choice)

    def build(self) -> View:
        """The standard alert, with the options between title and buttons."""
        box = super().build()
        box.children[1:1] = [radio(o, o == self.choice, partial(self.pick, o)) for o in self.options]
        return box
