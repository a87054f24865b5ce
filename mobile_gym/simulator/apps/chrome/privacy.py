"""Privacy settings: Privacy and security, Clear browsing data (time range, data types,
"Clear data"), and Site settings with the JavaScript and permission pages."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from mobile_gym.simulator.apps.chrome.page import Page
from mobile_gym.simulator.apps.chrome.state import CLEAR_RANGES, CLEAR_TYPES, PERMISSIONS
from mobile_gym.simulator.apps.chrome.ui import ID, PopupMenu, check_pref, note, pref, switch_pref
from mobile_gym.simulator.views import Button, Icon, Row, Spacer, Text, View

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.chrome import Chrome

CLEAR_SUMMARIES = {
    "Browsing history": "Clears history, including in the search box",
    "Cookies and site data": "Signs you out of most sites.",
    "Cached images and files": "Frees up less than 1 MB.",
}


class PrivacyPage(Page):
    title = "Privacy and security"

    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), s.secure_connections, s.do_not_track

    def rows(self) -> list[View | None]:
        return [
            pref("Clear browsing data", "Clear history, cookies, site data, cache…",
                 self.opener(ClearBrowsingData)),
            self.switch("Always use secure connections",
                        "Upgrade navigations to HTTPS and warn you before loading sites that "
                        "don't support it", "secure_connections"),
            self.switch('Send a "Do Not Track" request', "", "do_not_track"),
        ]


class ClearBrowsingData(Page):
    """Choices are remembered in state (as Chrome remembers them); "Clear data" removes
    the history in the time range, tells the sites about cleared cookies and closes."""

    title = "Clear browsing data"

    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), s.clear_range, tuple(s.clear_types)

    def rows(self) -> list[View | None]:
        s = self.app.state
        return [
            Row(Spacer(w=16), Text("Time range", size=16, weight=1),
                Row(Text(s.clear_range, size=16, align="right", weight=1),
                    Icon("expand", w=32), w=180, cls="android.widget.Spinner",
                    rid=ID + "spinner", on_click=self.choose_range),
                h=56, pad=(0, 0, 8, 0)),
            *(check_pref(t, CLEAR_SUMMARIES[t], t in s.clear_types, partial(self.toggle, t))
              for t in CLEAR_TYPES),
            Row(Spacer(), Button("Clear data", self.clear, w=136, rid=ID + "clear_button",
                                 enabled=bool(s.clear_types)), h=72, pad=(0, 0, 16, 0)),
        ]

    def choose_range(self) -> None:
        self.sys.show(PopupMenu(tuple((r, partial(self.set_range, r)) for r in CLEAR_RANGES)))

    def set_range(self, name: str) -> None:
        self.app.state.clear_range = name

    def toggle(self, name: str) -> None:
        types = self.app.state.clear_types
        if name in types:
            types.remove(name)
        else:
            types.append(name)

    def clear(self) -> None:
        s = self.app.state
        if "Browsing history" in s.clear_types:
            span = CLEAR_RANGES[s.clear_range]
            now = self.sys.time
            s.history[:] = [v for v in s.history
                            if span is not None and not now - span <= v.time <= now]
            s.cleared_history += 1
        if "Cookies and site data" in s.clear_types:
            for site in self.app.sites.values():
                site.clear_site_data()
        s.last_cleared = [t for t in CLEAR_TYPES if t in s.clear_types]
        self.finish()


class SiteSettingsPage(Page):
    title = "Site settings"

    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), tuple(s.site_permissions.items()), s.javascript_enabled

    def rows(self) -> list[View | None]:
        s = self.app.state
        rows = []
        for name, allowed, blocked in PERMISSIONS:
            on = s.site_permissions.get(name, True)
            rows.append(pref(name, allowed if on else blocked, partial(self.open_category, name)))
            if name == "Notifications":  # JavaScript comes next, as in Chrome
                rows.append(pref("JavaScript", "Allowed" if s.javascript_enabled else "Blocked",
                                 self.opener(JavaScriptPage)))
        return rows

    def open_category(self, name: str) -> None:
        """A new page each time (a kept screen's handler runs again)."""
        self.start(PermissionPage(self.app, name))


class JavaScriptPage(Page):
    title = "JavaScript"

    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), s.javascript_enabled

    def rows(self) -> list[View | None]:
        on = self.app.state.javascript_enabled
        return [self.switch("JavaScript", "Allowed (recommended)" if on else "Blocked",
                            "javascript_enabled"),
                note("Sites usually use JavaScript to display interactive features, like video "
                     "games or web forms", lines=2)]


class PermissionPage(Page):
    """One site-settings category other than JavaScript, with its switch."""

    def __init__(self, app: Chrome, category: str) -> None:
        super().__init__(app)
        self.category = category
        self.title = category

    def inputs(self) -> tuple:
        perms = self.app.state.site_permissions
        return id(perms), self.category, perms.get(self.category, True)

    def rows(self) -> list[View | None]:
        perms = self.app.state.site_permissions
        _, allowed, blocked = next(p for p in PERMISSIONS if p[0] == self.category)
        on = perms.get(self.category, True)
        return [switch_pref(self.category, allowed if on else blocked, on, self.toggle)]

    def toggle(self) -> None:
        perms = self.app.state.site_permissions
        perms[self.category] = not perms.get(self.category, True)

