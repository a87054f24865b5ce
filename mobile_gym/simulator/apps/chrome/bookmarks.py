"""Bookmarks: folders, bookmark rows with a ⋮ menu (open, edit, move, delete), and the
Edit bookmark screen, which saves when you leave it as Chrome's does."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from mobile_gym.simulator.app import Activity
from mobile_gym.simulator.apps.chrome.state import FOLDERS, Bookmark
from mobile_gym.simulator.apps.chrome.ui import ID, PopupMenu, empty, pref, site_row
from mobile_gym.simulator.apps.chrome.urls import looks_like_url
from mobile_gym.simulator.apps.chrome.web import Url
from mobile_gym.simulator.apps.generic import app_bar
from mobile_gym.simulator.views import Column, EditText, Icon, Row, Scroll, Spacer, Text, View

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.chrome import Chrome


class BookmarksPage(Activity):
    name = "org.chromium.chrome.browser.app.bookmarks.BookmarkActivity"
    app: Chrome

    def __init__(self, app: Chrome) -> None:
        super().__init__(app)
        self.folder: str | None = None  # None: the root with the folders

    def build(self) -> View:
        if self.folder is None:
            counts = {f: sum(b.folder == f for b in self.app.state.bookmarks) for f in FOLDERS}
            rows = [Row(Icon("bookmark", w=40, rid=ID + "icon"), Spacer(w=16),
                        Column(Text(f, size=16, rid=ID + "title"),
                               Text(f"{counts[f]} bookmark{'s' if counts[f] != 1 else ''}",
                                    size=13, style="muted", rid=ID + "description"), h=51, weight=1),
                        h=64, pad=(16, 0, 16, 0), on_click=lambda f=f: self.open_folder(f))
                    for f in FOLDERS]
            title = "Bookmarks"
        else:
            rows = [self.row(i, b) for i, b in enumerate(self.app.state.bookmarks)
                    if b.folder == self.folder] or [empty("No bookmarks here")]
            title = self.folder
        return Column(app_bar(self, title), Scroll(*rows, key="list", rid=ID + "recycler_view"))

    def inputs(self) -> tuple:
        return self.folder, tuple([(b.title, b.url, b.folder) for b in self.app.state.bookmarks])

    def row(self, index: int, bookmark: Bookmark) -> View:
        more = Icon("more", desc=f"More options for {bookmark.title}", rid=ID + "more",
                    on_click=lambda: self.sys.show(PopupMenu((
                        ("Open in new tab", partial(self.open, index, True)),
                        ("Edit", partial(self.edit, index)),
                        ("Move to…", partial(self.choose_folder, index)),
                        ("Delete", partial(self.delete, index))))))
        return site_row(bookmark.title, Url(bookmark.url).host, lambda: self.open(index), more,
                        sub_rid=ID + "description")

    def open_folder(self, folder: str) -> None:
        self.folder = folder
        self.scroll.clear()

    def finish(self) -> None:
        """The up arrow leaves a folder before it leaves the screen."""
        if self.folder is not None:
            self.open_folder(None)  # type: ignore[arg-type]
        else:
            super().finish()

    def on_back(self) -> bool:
        if self.folder is not None:
            self.open_folder(None)  # type: ignore[arg-type]
            return True
        return False

    def open(self, index: int, new_tab: bool = False) -> None:
        url = self.app.state.bookmarks[index].url
        if new_tab:
            self.app.open_tab(url)
        else:
            self.app.load(url)
        super().finish()

    def edit(self, index: int) -> None:
        self.start(BookmarkEditor(self.app, index))

    def choose_folder(self, index: int) -> None:
        self.sys.show(PopupMenu(tuple((f, partial(self.move, index, f)) for f in FOLDERS)))

    def move(self, index: int, folder: str) -> None:
        self.app.state.bookmarks[index].folder = folder
        self.sys.toast(f"Moved to {folder}")

    def delete(self, index: int) -> None:
        bookmark = self.app.state.bookmarks.pop(index)
        self.sys.toast(f"{bookmark.title} deleted")


class BookmarkEditor(Activity):
    name = "org.chromium.chrome.browser.bookmarks.BookmarkEditActivity"
    app: Chrome

    def __init__(self, app: Chrome, index: int) -> None:
        super().__init__(app)
        self.index = index
        bookmark = app.state.bookmarks[index]
        self.fields.update(title=bookmark.title, url=bookmark.url)

    def build(self) -> View:
        bookmark = self.app.state.bookmarks[self.index]
        return Column(
            app_bar(self, "Edit bookmark", actions=(
                Icon("trash", desc="Delete", rid=ID + "delete", on_click=self.delete),)),
            Column(
                Text("Name", size=12, style="muted"),
                EditText("title", hint="Name", rid=ID + "title_text", on_submit=lambda _: self.save()),
                Text("URL", size=12, style="muted"),
                EditText("url", hint="URL", rid=ID + "url_text", on_submit=lambda _: self.save()),
                pad=(16, 8, 16, 8), gap=4,
            ),
            pref("Folder", bookmark.folder, lambda: self.sys.show(PopupMenu(
                tuple((f, partial(self.set_folder, f)) for f in FOLDERS)))),
        )

    def inputs(self) -> tuple:
        return self.index, self.app.state.bookmarks[self.index].folder

    def save(self) -> None:
        """Keep what was typed; an empty name or a URL that is not one keeps the old."""
        bookmark = self.app.state.bookmarks[self.index]
        title = self.fields.get("title", "").strip()
        url = self.fields.get("url", "").strip()
        if title:
            bookmark.title = title
        if looks_like_url(url):
            bookmark.url = self.app.canonical(url)

    def set_folder(self, folder: str) -> None:
        self.app.state.bookmarks[self.index].folder = folder

    def delete(self) -> None:
        bookmark = self.app.state.bookmarks.pop(self.index)
        self.sys.toast(f"{bookmark.title} deleted")
        super().finish()

    def finish(self) -> None:
        self.save()
        super().finish()

    def on_back(self) -> bool:
        self.save()
        return False
