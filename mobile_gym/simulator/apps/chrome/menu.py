"""Chrome's app menu (the ⋮ popup: icon row, then items), the Share sheet and Page info."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from mobile_gym.simulator.app import Dialog
from mobile_gym.simulator.apps.chrome.bookmarks import BookmarkEditor, BookmarksPage
from mobile_gym.simulator.apps.chrome.history import DownloadsPage, HistoryPage
from mobile_gym.simulator.apps.chrome.settings import SettingsMain
from mobile_gym.simulator.apps.chrome.state import RECENT_TABS_URL, Visit
from mobile_gym.simulator.apps.chrome.ui import ID
from mobile_gym.simulator.apps.chrome.urls import is_internal
from mobile_gym.simulator.apps.chrome.web import Url
from mobile_gym.simulator.views import CheckBox, Column, Icon, Row, Text, View

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.chrome.browser import Main

HELP_URL = "https://support.google.com/chrome/"


class MainMenu(Dialog):
    """The ⋮ menu; items that make no sense on Chrome's own pages are hidden, as in Chrome."""

    def __init__(self, main: Main) -> None:
        super().__init__(kind="menu", modal=False)
        self.main = main

    def build(self) -> View:
        main, app = self.main, self.main.app
        tab = app.tab
        web = not is_internal(tab.url)
        marked = app.bookmark_index(tab.url) is not None

        def do(action: Callable[[], None]) -> Callable[[], None]:
            return lambda: (self.close(), action())

        icons = Row(
            Icon("forward", desc="Forward", rid=ID + "forward_menu_id",
                 enabled=tab.index < len(tab.history) - 1, on_click=do(self.forward)),
            Icon("star" if marked else "bookmark", desc="Edit bookmark" if marked else "Bookmark",
                 rid=ID + "bookmark_this_page_id", enabled=web, on_click=do(self.bookmark)),
            Icon("download", desc="Download page", rid=ID + "offline_page_id", enabled=web,
                 on_click=do(self.download)),
            Icon("info", desc="Page info", rid=ID + "info_menu_id", enabled=web,
                 on_click=do(main.page_info)),
            Icon("refresh", desc="Refresh", rid=ID + "reload_menu_id", on_click=do(main.reload)),
            h=56, pad=(4, 0, 4, 0), rid=ID + "icon_row_menu_id",
        )
        items: list[tuple[str, Callable[[], None]]] = [
            ("New tab", main.new_tab),
            ("New Incognito tab", lambda: main.new_tab(incognito=True)),
            ("History", lambda: main.start(HistoryPage(app))),
            ("Downloads", lambda: main.start(DownloadsPage(app))),
            ("Bookmarks", lambda: main.start(BookmarksPage(app))),
            ("Recent tabs", lambda: app.load(RECENT_TABS_URL)),
        ]
        if web:
            items += [
                ("Share…", lambda: main.sys.show(ShareSheet(main))),
                ("Find in page", main.find_in_page),
                ("Translate…", lambda: main.sys.toast(
                    "This page is in English" if app.state.translate_enabled
                    else "Translate is turned off")),
            ]
        if web:
            items.append(("Desktop site", self.desktop_site))
        items += [("Settings", lambda: main.start(SettingsMain(app))),
                  ("Help & feedback", lambda: app.open_tab(HELP_URL))]
        rows = [Row(Text(label, size=16, rid=ID + "menu_item_text", weight=1),
                    CheckBox(app.state.desktop_site, None, rid=ID + "checkbox", focusable=False)
                    if label == "Desktop site" else None,
                    h=48, pad=(16, 0, 4, 0), on_click=do(action)) for label, action in items]
        return Column(icons, Column(*rows, cls="android.widget.ListView", rid=ID + "app_menu_list"),
                      w=260, style="dialog", radius=8, pad=(0, 4, 0, 8))

    def forward(self) -> None:
        self.main.app.tab.index += 1

    def bookmark(self) -> None:
        app = self.main.app
        url = app.tab.url
        index = app.bookmark_index(url)
        if index is not None:
            self.main.start(BookmarkEditor(app, index))
        else:
            app.add_bookmark(url)
            app.sys.toast("Bookmarked in Mobile bookmarks")

    def download(self) -> None:
        app = self.main.app
        url = app.tab.url
        app.state.downloads.append(Visit(url, app.title(url), app.sys.time))
        app.sys.toast("Download complete")

    def desktop_site(self) -> None:
        s = self.main.app.state
        s.desktop_site = not s.desktop_site


class ShareSheet(Dialog):
    """Android's share sheet as Chrome opens it: the page, then share targets."""

    TARGETS = (("Copy link", "share", "Link copied"),
               ("Send to your devices", "person", "No other devices signed in"),
               ("QR Code", "apps", "QR code created"),
               ("Print", "menu", "Printing is not available"))

    def __init__(self, main: Main) -> None:
        super().__init__(kind="sheet")
        self.main = main

    def build(self) -> View:
        app = self.main.app
        url = app.tab.url
        return Column(
            Text(app.title(url), size=16, bold=True, rid=ID + "title"),
            Text(Url(url).host, size=13, style="muted", rid=ID + "display_url"),
            Row(*(Column(Icon(icon, h=40, w=40, align="center"),
                         Text(label, size=12, align="center", lines=2),
                         h=88, desc=label, on_click=lambda t=toast: self.share(t))
                  for label, icon, toast in self.TARGETS), h=96),
            pad=(16, 20, 16, 16), gap=4, style="dialog", radius=24, rid=ID + "sheet_container",
        )

    def share(self, toast: str) -> None:
        self.close()
        self.main.sys.toast(toast)


def page_info(main: Main) -> Dialog:
    url = main.app.tab.url
    secure = url.startswith("https://") and main.app.resolve(url)[0] is not None
    return Dialog(
        Url(url).host,
        "Connection is secure. Your information (for example, passwords or credit card "
        "numbers) is private when it is sent to this site." if secure else
        "Your connection to this site is not secure.",
        (("Done", None),), kind="sheet")
