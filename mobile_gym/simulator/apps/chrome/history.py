"""History (visited pages under "Today", search, remove, "Clear browsing data…") and
Downloads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from mobile_gym.simulator.app import Activity
from mobile_gym.simulator.apps.chrome.privacy import ClearBrowsingData
from mobile_gym.simulator.apps.chrome.state import Visit
from mobile_gym.simulator.apps.chrome.ui import BLUE, ID, empty, header, site_row
from mobile_gym.simulator.apps.chrome.web import Url
from mobile_gym.simulator.apps.generic import app_bar
from mobile_gym.simulator.views import Column, EditText, Icon, Row, Scroll, Text, View

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.chrome import Chrome

SHOWN = 40  # history rows listed


def entry(visit: Visit, open_: Callable[[], None], remove: Callable[[], None] | None) -> View:
    """A page row with a remove button (none for downloads)."""
    return site_row(visit.title, Url(visit.url).host, open_,
                    Icon("close", desc="Remove", rid=ID + "remove", w=48, on_click=remove)
                    if remove else None)


class HistoryPage(Activity):
    name = "org.chromium.chrome.browser.history.HistoryActivity"
    app: Chrome

    def __init__(self, app: Chrome) -> None:
        super().__init__(app)
        self.searching = False

    def visits(self) -> list[Visit]:
        """Newest first, one row per page, filtered by the search text: the first
        `SHOWN`, those listed."""
        query = self.fields.get("search", "").strip().lower() if self.searching else ""
        seen: set[str] = set()
        out = []
        for v in reversed(self.app.state.history):
            if len(out) >= SHOWN:
                break
            if v.url not in seen and (not query or query in v.title.lower() or query in v.url.lower()):
                seen.add(v.url)
                out.append(v)
        return out

    def build(self) -> View:
        if self.searching:
            bar = Row(Icon("back", desc="Navigate up", on_click=self.stop_search),
                      EditText("search", hint="Search your history", rid=ID + "search_text",
                               h=48, weight=1, on_submit=lambda _: None),
                      h=64, pad=(4, 0, 16, 0), rid=ID + "action_bar")
        else:
            bar = app_bar(self, "History", back=False, actions=(
                Icon("search", desc="Search your history", rid=ID + "search_menu_id",
                     on_click=self.start_search),
                Icon("close", desc="Close", rid=ID + "close_menu_id", on_click=self.finish)))
        visits = self.visits()
        rows = [entry(v, lambda u=v.url: self.open(u), lambda u=v.url: self.remove(u))
                for v in visits]
        return Column(
            bar,
            Scroll(
                Row(Text("Clear browsing data…", size=16, fg=BLUE, rid=ID + "clear_browsing_data_button"),
                    h=56, pad=(16, 0, 16, 0), on_click=self.clear) if not self.searching else None,
                header("Today") if rows else None,
                *(rows or [empty("No history here" if not self.searching else "No results found")]),
                key="list", rid=ID + "recycler_view",
            ),
        )

    def inputs(self) -> tuple:
        """Whether searching, and the rows shown (the search text is a field)."""
        return self.searching, tuple([(v.title, v.url) for v in self.visits()])

    def start_search(self) -> None:
        self.searching = True
        self.focus = "search"
        self.sys.keyboard = True

    def stop_search(self) -> None:
        self.searching = False
        self.focus = None
        self.fields.pop("search", None)

    def on_back(self) -> bool:
        if self.searching:
            self.stop_search()
            return True
        return False

    def open(self, url: str) -> None:
        self.app.load(url)
        self.finish()

    def remove(self, url: str) -> None:
        self.app.state.history[:] = [v for v in self.app.state.history if v.url != url]

    def clear(self) -> None:
        self.start(ClearBrowsingData(self.app))


class DownloadsPage(Activity):
    name = "org.chromium.chrome.browser.download.DownloadActivity"
    app: Chrome

    def build(self) -> View:
        downloads = list(reversed(self.app.state.downloads))
        rows = [entry(d, lambda u=d.url: self.open(u), None) for d in downloads]
        return Column(
            app_bar(self, "Downloads", back=False, actions=(
                Icon("close", desc="Close", rid=ID + "close_menu_id", on_click=self.finish),)),
            Scroll(*(rows or [empty("No downloads here")]), key="list", rid=ID + "recycler_view"),
        )

    def inputs(self) -> tuple:
        return tuple([(d.title, d.url) for d in self.app.state.downloads])

    def open(self, url: str) -> None:
        self.app.load(url)
        self.finish()
