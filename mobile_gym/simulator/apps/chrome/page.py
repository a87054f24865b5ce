"""The base of Chrome's settings screens. Like Chrome, every page is a SettingsActivity
(one per fragment) with an app bar over a preference list; a page lists its rows in
`rows`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from mobile_gym.simulator.app import Activity
from mobile_gym.simulator.apps.chrome.ui import ID, switch_pref
from mobile_gym.simulator.apps.generic import app_bar
from mobile_gym.simulator.views import Column, Scroll, View

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.chrome import Chrome


class Page(Activity):
    """A settings page: ``title`` in the app bar, `rows` in a scrolling list."""

    name = "org.chromium.chrome.browser.settings.SettingsActivity"
    title = "Settings"
    app: Chrome

    def build(self) -> View:
        return Column(app_bar(self, self.title),
                      Scroll(*self.rows(), key="list", rid=ID + "recycler_view"))

    def rows(self) -> list[View | None]:
        raise NotImplementedError

    def opener(self, page: type[Page]) -> Callable[[], None]:
        return lambda: self.start(page(self.app))

    def toggler(self, field: str) -> Callable[[], None]:
        """Flip a boolean state field."""
        s = self.app.state
        return lambda: setattr(s, field, not getattr(s, field))

    def switch(self, title: str, summary: str, field: str, **kw) -> View:
        return switch_pref(title, summary, getattr(self.app.state, field), self.toggler(field), **kw)
