"""Gmail's screens: the conversation list (search bar, navigation drawer, selection
mode, search results, Spam's "Empty spam now"), the conversation view ("Move to",
star, delete) and settings (account > Notifications)."""

from __future__ import annotations

import pickle
from functools import partial

from mobile_gym.simulator.app import Activity, Dialog
from mobile_gym.simulator.apps.generic import app_bar
from mobile_gym.simulator.apps.gmail.model import (
    CATEGORIES,
    CATEGORY_LABELS,
    FOLDER_LABELS,
    NOTIFICATION_LABELS,
    NOTIFICATIONS,
    STARRED_QUERIES,
    Message,
)
from mobile_gym.simulator.views import (
    VIEW,
    Button,
    Column,
    EditText,
    Icon,
    Row,
    Scroll,
    Spacer,
    Text,
    View,
)

PKG = "com.google.android.gm"
ID = PKG + ":id/"
RED = (234, 67, 53)
TONAL = (232, 240, 254)
LIST = "com.google.android.gm.ConversationListActivityGmail"
DRAWER_FOLDERS = ("inbox", "social", "promotions", "updates", "forums", "starred", "snoozed",
                  "important", "sent", "scheduled", "drafts", "all", "spam", "trash")
ICONS = {"inbox": "app", "social": "person", "promotions": "flag", "updates": "info",
         "forums": "tabs", "starred": "star", "snoozed": "clock", "important": "flag",
         "sent": "forward", "scheduled": "history", "drafts": "edit", "all": "copy",
         "spam": "info", "trash": "trash"}


def title_of(folder: str) -> str:
    if folder in CATEGORY_LABELS:
        return CATEGORY_LABELS[folder]
    if folder.startswith("label:"):
        return folder[6:]
    return FOLDER_LABELS.get(folder, folder)


def avatar(m: Message, selected: bool, on_click) -> View:
    return Icon("check" if selected else "person", desc=("Selected " if selected else "") + m.sender,
                on_click=on_click, h=40, w=40, radius=20, style="appicon",
                bg=(26, 115, 232) if selected else RED, rid=ID + "contact_image")


class ConversationList(Activity):
    """The mailbox: a folder's conversations under the search bar."""

    name = LIST

    def __init__(self, app) -> None:
        super().__init__(app)
        self.folder = "inbox"
        self.drawer = False
        self.selected: list[int] = []
        self.searching = False  # the search box is open
        self.query: str | None = None  # results of this query are shown
        self.snackbar = ""
        app.state.visited.append("inbox")

    def inputs(self) -> bytes:
        return pickle.dumps((self.app.state, self.folder, self.drawer, self.selected,
                             self.searching, self.query, self.snackbar), pickle.HIGHEST_PROTOCOL)

    # handlers --------------------------------------------------------------
    def _note(self, text: str = "") -> None:
        self.snackbar = text

    def open_drawer(self) -> None:
        self._note()
        self.drawer = True

    def close_drawer(self) -> None:
        self.drawer = False

    def go(self, folder: str) -> None:
        self._note()
        self.drawer = False
        self.folder, self.selected, self.query, self.searching = folder, [], None, False
        self.scroll.clear()
        self.app.state.visited.append(folder)

    def settings(self) -> None:
        self.drawer = False
        self.start(SettingsList(self.app))

    def open_search(self) -> None:
        self._note()
        self.searching = True
        self.fields["query"] = ""
        self.focus = "query"

    def submit(self, text: str) -> None:
        q = text.strip()
        if not q:
            return
        s = self.app.state
        s.searches.append(q)
        s.visited.append("search:starred" if q.lower() in STARRED_QUERIES else "search")
        self.searching, self.query, self.selected = False, q, []
        self.focus = None
        self.scroll.clear()

    def on_back(self) -> bool:
        if self.drawer:
            self.drawer = False
        elif self.selected:
            self.selected = []
        elif self.searching:
            self.searching = False
            self.focus = None
        elif self.query is not None:
            self.query = None
        elif self.folder != "inbox":
            self.go("inbox")
        else:
            return False
        self._note()
        return True

    def open(self, mid: int) -> None:
        self._note()
        if self.selected:
            self.toggle_select(mid)
            return
        m = self.app.state.message(mid)
        m.unread = False
        self.app.state.opened.append(mid)
        self.start(Conversation(self.app, mid))

    def toggle_select(self, mid: int) -> None:
        self._note()
        if mid in self.selected:
            self.selected.remove(mid)
        else:
            self.selected.append(mid)

    def star(self, mid: int) -> None:
        self._note()
        star(self.app.state, mid)

    def delete_selected(self) -> None:
        n = delete(self.app.state, list(self.selected))
        self.selected = []
        self._note(f"{n} deleted" if self.folder != "trash" else f"{n} deleted forever")

    def archive_selected(self) -> None:
        for mid in self.selected:
            self.app.state.message(mid).folder = "archive"
        self._note(f"{len(self.selected)} archived")
        self.selected = []

    def read_selected(self) -> None:
        for mid in self.selected:
            self.app.state.message(mid).unread = False
        self.selected = []

    def star_selected(self) -> None:
        for mid in self.selected:
            if not self.app.state.message(mid).starred:
                star(self.app.state, mid)
        self.selected = []

    def empty_spam(self) -> None:
        self.sys.show(Dialog("Delete all spam messages?",
                             "All messages in Spam will be permanently deleted.",
                             (("Cancel", None), ("Delete", self.do_empty_spam)), package=PKG))

    def do_empty_spam(self) -> None:
        s = self.app.state
        gone = [m for m in s.messages if m.folder == "spam"]
        s.messages = [m for m in s.messages if m.folder != "spam"]
        s.spam_emptied += len(gone)
        self._note(f"{len(gone)} deleted forever" if gone else "")

    def move_selected(self) -> None:
        if self.selected:
            self.sys.show(MoveTo(self.app, list(self.selected), self.clear_selection))

    def clear_selection(self) -> None:
        self.selected = []

    def compose(self) -> None:
        self._note()
        self.start(Compose(self.app))

    # views -----------------------------------------------------------------
    def row(self, m: Message) -> View:
        sel = m.id in self.selected
        weight = {"bold": m.unread}
        return Row(
            avatar(m, sel, partial(self.toggle_select, m.id)),
            Column(
                Row(Text(m.sender, size=16, rid=ID + "senders", **weight),
                    Text(m.time, size=12, w=84, align="right", rid=ID + "date", **weight), h=24),
                Text(m.subject, size=14, rid=ID + "subject", **weight),
                Row(Text(m.snippet, size=14, style="muted", rid=ID + "snippet"),
                    Icon("star", desc="Starred" if m.starred else "Not starred",
                         on_click=partial(self.star, m.id), h=32, w=40, rid=ID + "star",
                         fg=(244, 180, 0) if m.starred else None), h=32),
                gap=0, pad=(12, 0, 0, 0),
            ),
            h=96, pad=(16, 8, 12, 8), on_click=partial(self.open, m.id),
            on_long_click=partial(self.toggle_select, m.id), long_clickable=True,
            selected=sel, bg=TONAL if sel else None, rid=ID + "viewified_conversation_item_view",
            desc=f"{'Unread, ' if m.unread else ''}{'Starred, ' if m.starred else ''}{m.sender}, {m.subject}, {m.snippet}, {m.time}",
        )

    def search_bar(self) -> View:
        if self.searching:
            return Row(Icon("back", desc="Navigate up", on_click=self.on_back),
                       EditText("query", hint="Search in mail", on_submit=self.submit,
                                rid=ID + "open_search_view_edit_text", style="search"),
                       Icon("mic", desc="Voice search", h=48, w=48),
                       h=64, pad=(4, 4, 8, 4), rid=ID + "open_search_view", style="appbar")
        if self.query is not None:
            return Row(Icon("back", desc="Navigate up", on_click=self.on_back),
                       Text(self.query, size=16, rid=ID + "open_search_bar_text_view",
                            on_click=self.open_search, h=48),
                       h=64, pad=(4, 8, 8, 8), rid=ID + "open_search_bar", style="searchbar", radius=28)
        if self.selected:
            return Row(Icon("close", desc="Done", on_click=self.clear_selection),
                       Text(str(len(self.selected)), size=20, rid=ID + "action_bar_title"),
                       Icon("download", desc="Archive", on_click=self.archive_selected, rid=ID + "archive"),
                       Icon("trash", desc="Delete", on_click=self.delete_selected, rid=ID + "delete"),
                       Icon("app", desc="Mark read", on_click=self.read_selected, rid=ID + "read"),
                       Icon("more", desc="More options", on_click=self.selection_menu),
                       h=64, pad=(4, 0, 4, 0), rid=ID + "action_mode_bar", style="appbar")
        return Row(Icon("menu", desc="Open navigation drawer", on_click=self.open_drawer),
                   Text("Search in mail", size=16, style="muted", rid=ID + "open_search_bar_text_view",
                        on_click=self.open_search, h=48),
                   Icon("person", desc=f"Account and settings. Signed in as {self.app.state.account}",
                        h=40, w=40, radius=20, style="appicon", bg=(52, 168, 83), rid=ID + "og_apd_ring_view"),
                   h=64, pad=(8, 8, 12, 8), rid=ID + "open_search", style="searchbar", radius=28,
                   desc="Search in mail")

    def selection_menu(self) -> None:
        self.sys.show(Menu((("Move to", self.move_selected), ("Add star", self.star_selected))))

    def drawer_view(self) -> View:
        s = self.app.state
        unread = lambda f: sum(m.unread for m in s.in_folder(f))

        def item(folder: str) -> View:
            n = len(s.in_folder(folder)) if folder in ("drafts", "spam") else unread(folder)
            return Row(Icon(ICONS.get(folder, "bookmark"), h=40, w=40),
                       Text(title_of(folder), size=14, rid=ID + "name", bold=folder == self.folder),
                       Text(str(n) if n else "", size=12, w=40, align="right", rid=ID + "unread"),
                       h=48, pad=(16, 0, 16, 0), gap=12, on_click=partial(self.go, folder),
                       selected=folder == self.folder, radius=26,
                       bg=(211, 227, 253) if folder == self.folder else None)

        return Column(
            Text("Gmail", size=22, bold=True, h=64, pad=(28, 16, 0, 0), fg=RED, rid=ID + "drawer_title"),
            Scroll(
                *[item(f) for f in DRAWER_FOLDERS[:5]],
                Text("All labels", size=12, style="muted", h=36, pad=(28, 10, 0, 0)),
                *[item(f) for f in DRAWER_FOLDERS[5:]],
                Text("Labels", size=12, style="muted", h=36, pad=(28, 10, 0, 0)),
                *[item("label:" + name) for name in s.labels],
                Row(Icon("add", h=40, w=40), Text("Create new", size=14), h=52, pad=(16, 0, 16, 0), gap=12),
                Row(Icon("settings", h=40, w=40), Text("Settings", size=14, rid=ID + "name"),
                    h=52, pad=(16, 0, 16, 0), gap=12, on_click=self.settings),
                Row(Icon("info", h=40, w=40), Text("Help & feedback", size=14), h=52, pad=(16, 0, 16, 0), gap=12),
                key="drawer", rid=ID + "drawer_list",
            ),
            w=312, bg=(255, 255, 255), rid=ID + "drawer_container",
        )

    def build(self) -> View:
        s = self.app.state
        if self.query is not None:
            items, heading = s.search(self.query), "Results"
        else:
            items, heading = s.in_folder(self.folder), title_of(self.folder)
        rows = [self.row(m) for m in items]
        if self.folder == "spam" and self.query is None and items:
            banner = Row(Text("Messages that have been in Spam more than 30 days will be automatically deleted.",
                              size=12, lines=2, style="muted"),
                         Button("Empty spam now", self.empty_spam, style="text", w=148, rid=ID + "empty_spam"),
                         h=64, pad=(16, 4, 8, 4), rid=ID + "folder_banner")
        else:
            banner = None
        empty = Text("Nothing in " + heading, size=16, align="center", style="muted", h=96,
                     rid=ID + "empty_text") if not items else None
        main = Column(
            self.search_bar(),
            Text(heading.upper() if self.query is None else heading, size=12, style="muted", h=32,
                 pad=(16, 8, 0, 0), rid=ID + "folder_header"),
            banner,
            Scroll(*rows, empty, key="list", rid=ID + "thread_list_view"),
            Row(Text(self.snackbar, size=14, fg=(255, 255, 255), rid=ID + "snackbar_text"),
                Button("Undo", None, style="text", w=72, rid=ID + "snackbar_action"),
                h=48, pad=(16, 0, 8, 0), bg=(50, 50, 50), rid=ID + "snackbar") if self.snackbar else None,
            Row(Spacer(),
                Button("Compose", self.compose, style="tonal", w=140, h=56, rid=ID + "compose_button",
                       icon="edit", desc="Compose"),
                h=72, pad=(16, 8, 16, 8)) if not self.selected and not self.searching else None,
        )
        if not self.drawer:
            return main
        return Row(self.drawer_view(),
                   View(VIEW, (), on_click=self.close_drawer, bg=(120, 120, 120), desc="Close navigation drawer"),
                   rid=ID + "drawer_layout")


def star(state, mid: int) -> None:
    m = state.message(mid)
    m.starred = not m.starred
    if m.starred:
        state.starred_by_user.append(mid)
    elif mid in state.starred_by_user:
        state.starred_by_user.remove(mid)


def delete(state, mids: list[int]) -> int:
    n = 0
    for mid in mids:
        m = state.message(mid)
        if m is None:
            continue
        if m.folder == "trash":
            state.messages.remove(m)
        else:
            m.folder = "trash"
            state.deleted.append(mid)
        n += 1
    return n


class Menu(Dialog):
    """The overflow ("More options") popup menu at the top right."""

    def __init__(self, items) -> None:
        super().__init__(kind="menu", modal=False, package=PKG)
        self.items = items

    def pick(self, handler) -> None:
        self.close()
        if handler is not None:
            handler()

    def build(self) -> View:
        return Column(
            *[Row(Text(label, size=16, rid=ID + "title"), h=48, pad=(16, 0, 16, 0),
                  on_click=partial(self.pick, handler)) for label, handler in self.items],
            w=232, style="card", radius=8, pad=(0, 8, 0, 8), cls="android.widget.ListView",
        )


class MoveTo(Dialog):
    """"Move to": the inbox categories (but the current one) and labels."""

    def __init__(self, app, mids: list[int], then) -> None:
        self.app, self.mids, self.then = app, mids, then
        current = {app.state.message(m).category for m in mids}
        options = [c for c in CATEGORIES if c not in current or len(current) > 1]
        super().__init__("Move to", "", tuple((CATEGORY_LABELS[c], partial(self.move, c)) for c in options)
                         + tuple((name, partial(self.label, name)) for name in app.state.labels)
                         + (("Spam", partial(self.folder, "spam")), ("Trash", partial(self.folder, "trash"))),
                         package=PKG)

    def move(self, category: str) -> None:
        for mid in self.mids:
            m = self.app.state.message(mid)
            if m.category != category:
                self.app.state.moved.append((mid, m.category, category))
                m.category = category
                if m.folder == "archive":
                    m.folder = "inbox"
        self.app.sys.toast(f"Moved to {CATEGORY_LABELS[category]}")
        self.then()

    def label(self, name: str) -> None:
        for mid in self.mids:
            m = self.app.state.message(mid)
            if name not in m.labels:
                m.labels.append(name)
            if m.folder == "inbox":
                m.folder = "archive"
        self.app.sys.toast(f"Moved to {name}")
        self.then()

    def folder(self, name: str) -> None:
        if name == "trash":
            delete(self.app.state, self.mids)
        else:
            for mid in self.mids:
                self.app.state.message(mid).folder = name
        self.app.sys.toast(f"Moved to {name.title()}")
        self.then()

    def build(self) -> View:
        return Column(
            Text("Move to", size=22, rid="android:id/alertTitle"),
            *[Row(Icon("bookmark", h=40, w=40), Text(label, size=16, rid=ID + "folder_name"), h=48, gap=12,
                  on_click=partial(self._press, handler), rid=ID + "move_to_item")
              for label, handler in self.buttons],
            Row(Spacer(), Button("Cancel", self.close, style="text", w=96, rid="android:id/button2"), h=52),
            pad=(24, 20, 16, 8), gap=0, w=312, align="center", style="dialog", radius=28,
            rid="android:id/parentPanel",
        )


class Conversation(Activity):
    """One conversation (the real app shows it in the same activity)."""

    name = LIST

    def __init__(self, app, mid: int) -> None:
        super().__init__(app)
        self.mid = mid

    def inputs(self) -> bytes:
        return pickle.dumps((self.app.state.message(self.mid), self.app.state.labels), pickle.HIGHEST_PROTOCOL)

    def star(self) -> None:
        star(self.app.state, self.mid)

    def delete(self) -> None:
        delete(self.app.state, [self.mid])
        mailbox = next((a for a in self.app.stack if isinstance(a, ConversationList)), None)
        if mailbox is not None:  # the snackbar shows on the mailbox it returns to
            mailbox._note("1 deleted")
        self.finish()

    def archive(self) -> None:
        self.app.state.message(self.mid).folder = "archive"
        self.sys.toast("Conversation archived")
        self.finish()

    def unread(self) -> None:
        self.app.state.message(self.mid).unread = True
        self.finish()

    def more(self) -> None:
        self.sys.show(Menu((("Move to", self.move_to), ("Snooze", None), ("Change labels", None),
                            ("Mark as not important", None), ("Mute", None), ("Print", None),
                            ("Report spam", self.report_spam))))

    def move_to(self) -> None:
        self.sys.show(MoveTo(self.app, [self.mid], self.finish))

    def report_spam(self) -> None:
        self.app.state.message(self.mid).folder = "spam"
        self.sys.toast("Reported as spam")
        self.finish()

    def build(self) -> View:
        m = self.app.state.message(self.mid)
        if m is None:
            return Column(app_bar(self, ""))
        where = "Inbox" if m.folder == "inbox" else title_of(m.folder)
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.finish), Spacer(),
                Icon("download", desc="Archive", on_click=self.archive, rid=ID + "archive"),
                Icon("trash", desc="Delete", on_click=self.delete, rid=ID + "delete"),
                Icon("app", desc="Mark unread", on_click=self.unread, rid=ID + "inside_conversation_unread"),
                Icon("more", desc="More options", on_click=self.more),
                h=64, pad=(4, 0, 4, 0), rid=ID + "mail_toolbar", style="appbar"),
            Scroll(
                Row(Column(Text(m.subject, size=22, lines=2, rid=ID + "subject_and_folder_view"),
                           Text(where, size=12, style="muted", h=24, rid=ID + "folder_chip")),
                    Icon("star", desc="Starred" if m.starred else "Not starred", on_click=self.star,
                         rid=ID + "conversation_header_star", fg=(244, 180, 0) if m.starred else None),
                    pad=(16, 8, 8, 8)),
                Row(Icon("person", desc=m.sender, h=40, w=40, radius=20, style="appicon", bg=RED,
                         rid=ID + "contact_image"),
                    Column(Text(m.sender, size=16, bold=True, rid=ID + "sender_name"),
                           Text("to me", size=12, style="muted", rid=ID + "recipient_summary")),
                    Text(m.time, size=12, w=80, style="muted", rid=ID + "upper_date"),
                    h=64, pad=(16, 8, 8, 8), gap=12),
                Text(m.snippet + ".", size=15, lines=6, pad=(16, 8, 16, 8), rid=ID + "conversation_webview"),
                key="conversation", rid=ID + "conversation_pager",
            ),
            Row(Button("Reply", None, style="outlined", w=110), Button("Forward", None, style="outlined", w=110),
                Spacer(), h=64, pad=(16, 8, 16, 8), gap=12, rid=ID + "footer"),
        )


class Compose(Activity):
    name = "com.google.android.gm.ComposeActivityGmail"

    def build(self) -> View:
        return Column(
            Row(Icon("close", desc="Navigate up", on_click=self.finish), Text("Compose", size=22), Spacer(),
                Icon("forward", desc="Send", rid=ID + "send"), h=64, pad=(4, 0, 4, 0), style="appbar"),
            Row(Text("From", size=14, w=64, style="muted"), Text(self.app.state.account, size=14), h=56, pad=(16, 0, 16, 0)),
            EditText("to", hint="To", rid=ID + "to"),
            EditText("subject", hint="Subject", rid=ID + "subject"),
            EditText("body", hint="Compose email", rid=ID + "body", h=120),
        )


SETTINGS = "com.google.android.gm.ui.MailActivityGmail"


class SettingsList(Activity):
    """Settings: General settings and the account."""

    name = SETTINGS

    def __init__(self, app) -> None:
        super().__init__(app)
        app.state.visited.append("settings")

    def inputs(self) -> str:
        return self.app.state.account

    def account(self) -> None:
        self.start(AccountSettings(self.app))

    def build(self) -> View:
        pref = lambda title, click=None: Row(Text(title, size=16, rid="android:id/title"), h=64,
                                             pad=(16, 0, 16, 0), on_click=click)
        return Column(app_bar(self, "Settings"),
                      Scroll(pref("General settings"), pref(self.app.state.account, self.account),
                             pref("Add account"), key="list", rid="android:id/list"))


class AccountSettings(Activity):
    name = SETTINGS

    def __init__(self, app) -> None:
        super().__init__(app)
        app.state.visited.append("account_settings")

    def inputs(self) -> tuple:
        return self.app.state.notifications, self.app.state.conversation_view

    def notifications(self) -> None:
        s = self.app.state
        self.sys.show(Choice(s, [(NOTIFICATION_LABELS[v], v) for v in NOTIFICATIONS]))

    def flip_conversation_view(self) -> None:
        self.app.state.conversation_view = not self.app.state.conversation_view

    def build(self) -> View:
        s = self.app.state

        def pref(title: str, summary: str = "", click=None) -> View:
            return Column(Text(title, size=16, rid="android:id/title"),
                          Text(summary, size=14, style="muted", rid="android:id/summary") if summary else None,
                          h=72 if summary else 56, pad=(16, 10, 16, 8), on_click=click)

        header = lambda t: Text(t, size=14, fg=(26, 115, 232), h=44, pad=(16, 16, 0, 0))
        return Column(
            app_bar(self, s.account),
            Scroll(
                header("Account"),
                pref("Manage your Google Account"),
                header("Inbox"),
                pref("Inbox type", "Default inbox"),
                pref("Inbox categories", "Primary, Social, Promotions, Updates"),
                header("Notifications"),
                pref("Notifications", NOTIFICATION_LABELS[s.notifications], self.notifications),
                pref("Inbox notifications", "Notify for every new message"),
                pref("Manage labels"),
                header("General"),
                Row(Column(Text("Conversation view", size=16, rid="android:id/title"),
                           Text("Group emails with the same topic together", size=14, style="muted",
                                rid="android:id/summary")),
                    View("android.widget.CheckBox", (), checkable=True, checked=s.conversation_view,
                         on_click=self.flip_conversation_view, w=48, h=48, rid="android:id/checkbox"),
                    h=72, pad=(16, 8, 16, 8), on_click=self.flip_conversation_view),
                pref("Default reply action", "Reply"),
                pref("Signature", "Not set"),
                key="list", rid="android:id/list",
            ),
        )


class Choice(Dialog):
    """A single-choice dialog (Notifications: All / High priority only / None)."""

    def __init__(self, state, options: list[tuple[str, str]]) -> None:
        self.state, self.options = state, options
        super().__init__("Notifications", "", (("Cancel", None),), package=PKG)

    def pick(self, value: str) -> None:
        self.state.notifications = value
        self.close()

    def build(self) -> View:
        return Column(
            Text(self.title, size=22, rid="android:id/alertTitle"),
            *[Row(Icon("radio_on" if value == self.state.notifications else "radio_off", h=40, w=40),
                  Text(label, size=16, rid="android:id/text1"), h=48, gap=12,
                  cls="android.widget.CheckedTextView", checkable=True,
                  checked=value == self.state.notifications, on_click=partial(self.pick, value))
              for label, value in self.options],
            Row(Spacer(), Button("Cancel", self.close, style="text", w=96, rid="android:id/button2"), h=52),
            pad=(24, 20, 16, 8), gap=4, w=312, align="center", style="dialog", radius=28,
            rid="android:id/parentPanel",
        )
