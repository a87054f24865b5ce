"""Trello's screens: the boards home (navigation drawer, starred boards, workspaces and
their boards, templates, the create menu), create board, the template gallery, a board
(lists, cards, inline "Add list" / "Add card", list actions, a card's long-press actions:
open / move, board menu: share / copy link, pin to home screen, offline), the card back (due date, comments), search,
notifications, settings (theme, accessibility, offline boards, sync queue, log out)
and the welcome screen a logged-out member sees. Dialogs keep only picklable handlers."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from mobile_gym.simulator.app import Activity, Dialog
from mobile_gym.simulator.runtime import KEYBOARD_DP
from mobile_gym.simulator.apps.trello.model import (
    COLOURS, EMAIL, FULL_NAME, TEMPLATES, THEMES, USERNAME, VISIBILITIES, WORKSPACE,
    Board, BoardList, Card,
)
from mobile_gym.simulator.views import (
    Button, Column, Divider, EditText, Icon, Row, Scroll, Spacer, Switch, Text, View, FRAME,
)

PKG = "com.trello"
ID = PKG + ":id/"
BLUE = (0, 121, 191)
TONAL = (228, 240, 246)
LIST_BG = (235, 236, 240)
DARK_BAR = (29, 33, 37)
MUTED = (94, 108, 132)
RED = (201, 55, 44)
DUE_DATES = ("Nov 26", "Nov 27", "Nov 28", "Nov 29", "Nov 30", "Dec 1", "Dec 2")
DUE_TIMES = ("9:00 AM", "12:00 PM", "5:00 PM")


def bar(act: Activity, title: str, *, back: str = "back", desc: str = "Navigate up",
        on_back: Callable[[], None] | None = None, actions: tuple = (), rid: str = "toolbar_title") -> View:
    """Trello's toolbar: up (or close) button, title, action icons."""
    dark = act.app.state.theme == "Dark"
    return Row(
        Icon(back, desc=desc, on_click=on_back or act.finish, fg=(255, 255, 255) if dark else None),
        Text(title, size=20, rid=ID + rid, h=64, fg=(255, 255, 255) if dark else None),
        *actions,
        h=64, pad=(4, 0, 4, 0), rid=ID + "toolbar", style="appbar", bg=DARK_BAR if dark else None,
    )


def board_tile(board: Board, on_click, *, subtitle: str = "", rid: str = "board_name") -> View:
    return Row(
        Text("", h=40, w=56, radius=4, bg=COLOURS[board.colour % len(COLOURS)],
             rid=ID + "board_background"),
        Column(Text(board.name, size=16, rid=ID + rid),
               Text(subtitle, size=12, style="muted", rid=ID + "board_subtitle") if subtitle else None),
        Icon("star", w=40, fg=(242, 214, 0), desc="Starred") if board.starred else None,
        h=56, gap=12, pad=(16, 0, 8, 0), on_click=on_click, desc=board.name, rid=ID + "board_row",
    )


def ptext(text: str, *, pad: tuple, h: float | None = None, rid: str = "", **kw) -> View:
    """A text inset by ``pad`` (a TextView's padding), ``h`` high in all."""
    natural = round(kw.get("size", 14.0) * 1.45 * kw.get("lines", 1) + 4) + pad[1] + pad[3]
    return Column(Text(text, rid=rid, **kw), pad=pad, h=max(h, natural) if h is not None else None)


def section(title: str) -> View:
    return ptext(title, size=12, bold=True, style="muted", h=40, pad=(16, 16, 16, 0), rid=ID + "section_header")


def menu_row(icon: str, label: str, on_click, rid: str, *, h: float = 52, selected: bool = False) -> View:
    """A row of the drawer or of a sheet: the icon, then the label (also its content-desc)."""
    return Row(Icon(icon, w=40), Text(label, size=16, rid=ID + rid), h=h, gap=16, pad=(16, 0, 16, 0),
               on_click=on_click, selected=selected, desc=label)


# ------------------------------------------------------------------ home

class HomeActivity(Activity):
    """The boards home: toolbar (drawer, search, notifications), starred boards, the
    workspaces with their boards, templates, and the "Create" button."""

    name = "com.trello.feature.home.HomeActivity"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.drawer = False
        app.state.opened = True

    @property
    def state(self):
        return self.app.state

    # handlers
    def open_drawer(self) -> None:
        self.drawer = True

    def close_drawer(self) -> None:
        self.drawer = False

    def on_back(self) -> bool:
        if self.drawer:
            self.drawer = False
            return True
        return False

    def open_board(self, board: Board) -> None:
        self.drawer = False
        self.start(BoardActivity(self.app, board))

    def search(self) -> None:
        self.start(SearchActivity(self.app))

    def notifications(self) -> None:
        self.state.visited.append("notifications")
        self.start(NotificationFeedActivity(self.app))

    def settings(self) -> None:
        self.drawer = False
        self.state.visited.append("settings")
        self.start(SettingsActivity(self.app))

    def offline_boards(self) -> None:
        self.drawer = False
        self.state.visited.append("offline_boards")
        self.start(OfflineBoardsActivity(self.app))

    def create_menu(self) -> None:
        self.sys.show(CreateMenu(self))

    def create_board(self) -> None:
        self.start(CreateBoardActivity(self.app))
        self.sys.keyboard = True

    def templates(self) -> None:
        self.drawer = False
        self.state.visited.append("templates")
        self.start(TemplateGalleryActivity(self.app))

    def workspace_menu(self, workspace: str) -> None:
        self.drawer = False
        self.state.visited.append("workspace_menu")
        self.sys.show(WorkspaceMenu(self, workspace))

    def my_cards(self) -> None:
        self.drawer = False
        self.sys.toast("No cards assigned to you")

    def allow_notifications(self, allowed: bool) -> None:
        self.state.notifications_allowed = allowed

    # views
    def drawer_view(self) -> View:
        s = self.state

        def item(icon: str, label: str, handler, rid: str, selected: bool = False) -> View:
            return menu_row(icon, label, handler, rid, h=48, selected=selected)

        return Row(
            Column(
                Column(Icon("person", h=48, w=48, radius=24, bg=BLUE, fg=(255, 255, 255), rid=ID + "avatar"),
                       Text(FULL_NAME, size=16, bold=True, rid=ID + "name"),
                       Text("@" + USERNAME, size=14, style="muted", rid=ID + "username"),
                       Text(EMAIL, size=14, style="muted", rid=ID + "email"),
                       pad=(16, 16, 16, 8), gap=4, bg=TONAL, rid=ID + "account_header"),
                Scroll(
                    item("app", "Boards", self.close_drawer, "drawer_boards", True),
                    item("check", "My cards", self.my_cards, "drawer_my_cards"),
                    item("download", "Offline boards", self.offline_boards, "drawer_offline_boards"),
                    item("copy", "Templates", self.templates, "drawer_templates"),
                    Divider(),
                    ptext("WORKSPACES", size=12, bold=True, style="muted", h=36, pad=(16, 12, 16, 0)),
                    *[item("person", w, partial(self.workspace_menu, w), "drawer_workspace") for w in s.workspaces],
                    Divider(),
                    item("settings", "Settings", self.settings, "drawer_settings"),
                    item("info", "Help!", partial(self.sys.toast, "Opening help in your browser"), "drawer_help"),
                    key="drawer", rid=ID + "drawer_list"),
                w=300, style="card", rid=ID + "navigation_drawer"),
            View(on_click=self.close_drawer, bg=(80, 80, 80), desc="Close navigation drawer", h=None),
            fill=True,
        )

    def build(self) -> View:
        s = self.state
        if self.drawer:
            return self.drawer_view()
        rows: list[View | None] = []
        starred = [b for b in s.boards if b.starred]
        if starred:
            rows.append(section("STARRED BOARDS"))
            rows += [board_tile(b, partial(self.open_board, b), rid="starred_board_name") for b in starred]
        rows.append(section("YOUR WORKSPACES"))
        for w in s.workspaces:
            rows.append(Row(Icon("person", h=32, w=32, radius=6, bg=MUTED, fg=(255, 255, 255)),
                            Text(w, size=16, bold=True, rid=ID + "workspace_name"),
                            Icon("more", desc="Workspace menu", on_click=partial(self.workspace_menu, w),
                                 rid=ID + "workspace_menu"),
                            h=56, gap=12, pad=(16, 0, 4, 0), rid=ID + "workspace_row"))
            boards = [b for b in s.boards if b.workspace == w]
            rows += [board_tile(b, partial(self.open_board, b)) for b in boards]
            if not boards:
                rows.append(ptext("No boards in this workspace yet", size=14, style="muted", h=40,
                                 pad=(16, 8, 16, 0), rid=ID + "empty_workspace"))
        rows.append(section("TEMPLATES"))
        rows.append(Row(Icon("copy", w=40), Text("Browse templates", size=16, rid=ID + "templates_row"),
                        h=56, gap=12, pad=(16, 0, 16, 0), on_click=self.templates))
        dark = s.theme == "Dark"
        white = (255, 255, 255) if dark else None
        return Column(
            Row(Icon("menu", desc="Open navigation drawer", on_click=self.open_drawer, fg=white,
                     rid=ID + "drawer_toggle"),
                Text("Boards", size=20, h=64, rid=ID + "toolbar_title", fg=white),
                Icon("search", desc="Search", on_click=self.search, rid=ID + "search", fg=white),
                Icon("notifications", desc="Notifications", on_click=self.notifications, fg=white,
                     rid=ID + "notifications"),
                h=64, pad=(4, 0, 4, 0), style="appbar", rid=ID + "toolbar", bg=DARK_BAR if dark else None),
            Scroll(*rows, Spacer(h=96), key="boards", rid=ID + "boards_list"),
            Row(Spacer(), Icon("add", desc="Create", on_click=self.create_menu, h=56, w=56, radius=16,
                               bg=BLUE, fg=(255, 255, 255), rid=ID + "fab"),
                h=80, pad=(0, 8, 16, 16)),
        )


class Sheet(Dialog):
    """A bottom sheet over the activity ``act``, whose handlers its rows call."""

    def __init__(self, act: Activity) -> None:
        super().__init__(kind="sheet")
        self.act = act


class CreateMenu(Sheet):
    """The "Create" button's menu: board, card, templates."""

    def build(self) -> View:
        def row(icon: str, label: str, handler: Callable[[], None], rid: str) -> View:
            return menu_row(icon, label, partial(self._press, handler), rid, h=56)

        return Column(
            ptext("Create", size=14, bold=True, style="muted", h=40, pad=(16, 12, 16, 0)),
            row("app", "Create board", self.act.create_board, "create_board"),
            row("check", "Create card", partial(self.act.sys.toast, "Open a board to add a card"), "create_card"),
            row("copy", "Browse templates", self.act.templates, "browse_templates"),
            pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "create_menu",
        )


class WorkspaceMenu(Sheet):
    """A workspace's menu: its boards, members, settings."""

    def __init__(self, act: HomeActivity, workspace: str) -> None:
        super().__init__(act)
        self.workspace = workspace

    def build(self) -> View:
        n = sum(1 for b in self.act.app.state.boards if b.workspace == self.workspace)

        def row(icon: str, label: str, rid: str) -> View:
            return menu_row(icon, label, self.close, rid, h=56)

        return Column(
            Row(Icon("person", h=40, w=40, radius=6, bg=MUTED, fg=(255, 255, 255)),
                Column(Text(self.workspace, size=18, bold=True, rid=ID + "workspace_menu_title"),
                       Text("Workspace menu", size=12, style="muted", rid=ID + "workspace_menu_subtitle")),
                h=64, gap=12, pad=(16, 8, 16, 0)),
            Divider(),
            row("app", f"Boards ({n})", "workspace_boards"),
            row("person", "Members", "workspace_members"),
            row("settings", "Workspace settings", "workspace_settings"),
            row("share", "Invite to Workspace", "workspace_invite"),
            pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "workspace_menu_sheet",
        )


# ------------------------------------------------------------------ create board

class CreateBoardActivity(Activity):
    """"Create board": name, workspace, visibility (and the template it comes from)."""

    name = "com.trello.feature.board.create.CreateBoardActivity"

    def __init__(self, app, template: str = "") -> None:
        super().__init__(app)
        self.template = template
        self.workspace = app.state.workspaces[0] if app.state.workspaces else WORKSPACE
        self.visibility = "Workspace"
        self.fields["name"] = template
        self.focus = None if template else "name"

    def create(self, _text: str = "") -> None:
        name = self.fields.get("name", "").strip()
        if not name:
            return
        s = self.app.state
        board = Board(name, workspace=self.workspace, visibility=self.visibility, template=self.template,
                      lists=[BoardList(n) for n in TEMPLATES.get(self.template, ())], colour=len(s.boards))
        s.boards.append(board)
        self.sys.keyboard = False
        self.finish()
        self.sys.start(BoardActivity(self.app, board))

    def pick_workspace(self) -> None:
        self.sys.show(Picker("Workspace", tuple(self.app.state.workspaces), self.workspace,
                             partial(setattr, self, "workspace")))

    def pick_visibility(self) -> None:
        self.sys.show(Picker("Visibility", VISIBILITIES, self.visibility, partial(setattr, self, "visibility")))

    def build(self) -> View:
        title = "Create board from template" if self.template else "Create board"
        return Column(
            bar(self, title, back="close", desc="Close", actions=(
                Button("Create", self.create, style="text", w=96, rid=ID + "create_board_button",
                       enabled=bool(self.fields.get("name", "").strip())),)),
            ptext("Board name", size=12, style="muted", h=28, pad=(16, 12, 16, 0)),
            EditText("name", hint="Board name", rid=ID + "board_name_input", on_submit=self.create),
            ptext("Template: " + self.template, size=14, style="muted", h=32, pad=(16, 4, 16, 0),
                 rid=ID + "template_name") if self.template else None,
            Row(Column(Text("Workspace", size=12, style="muted"), Text(self.workspace, size=16,
                                                                       rid=ID + "workspace_value")),
                Icon("expand", w=40), h=64, pad=(16, 8, 8, 0), on_click=self.pick_workspace,
                rid=ID + "workspace_spinner"),
            Row(Column(Text("Visibility", size=12, style="muted"), Text(self.visibility, size=16,
                                                                        rid=ID + "visibility_value")),
                Icon("expand", w=40), h=64, pad=(16, 8, 8, 0), on_click=self.pick_visibility,
                rid=ID + "visibility_spinner"),
            Row(Column(Text("Background", size=12, style="muted"), Text("Blue", size=16)),
                Text("", h=32, w=48, bg=BLUE, radius=4), h=64, pad=(16, 8, 16, 0),
                rid=ID + "background_picker"),
            Spacer(fill=True),
        )


class Picker(Dialog):
    """A single-choice list (workspace, visibility, theme): a tap picks and closes."""

    def __init__(self, title: str, choices: tuple[str, ...], current: str, on_pick: Callable[[str], None],
                 rid: str = "choice") -> None:
        super().__init__(title)
        self.choices, self.current, self.on_pick, self.rid = choices, current, on_pick, rid

    def pick(self, value: str) -> None:
        self.close()
        self.on_pick(value)

    def build(self) -> View:
        return Column(
            Text(self.title, size=22, rid="android:id/alertTitle", h=40),
            *[Row(Icon("radio_on" if c == self.current else "radio_off", w=40, fg=BLUE if c == self.current else MUTED),
                  Text(c, size=16, rid=ID + self.rid, checkable=True, checked=c == self.current),
                  h=48, gap=8, on_click=partial(self.pick, c), selected=c == self.current, desc=c)
              for c in self.choices],
            Row(Spacer(), Button("Cancel", self.close, style="text", w=96, rid="android:id/button2"), h=52),
            cls=FRAME, pad=(24, 20, 16, 8), gap=4, w=312, align="center", style="dialog", radius=28,
            rid="android:id/parentPanel",
        )


class TemplateGalleryActivity(Activity):
    """The template gallery: a tap on a template makes a board from it."""

    name = "com.trello.feature.template.TemplateGalleryActivity"

    def use(self, name: str) -> None:
        self.start(CreateBoardActivity(self.app, template=name))

    def build(self) -> View:
        blurbs = {"Basic Board": "Start with the basics: To Do, Doing, Done",
                  "Kanban Template": "Track work through every stage",
                  "Project Management": "Keep your projects on track",
                  "Weekly Planning": "Plan your week, one day at a time"}
        return Column(
            bar(self, "Templates"),
            Scroll(
                section("POPULAR TEMPLATES"),
                *[Row(Icon("copy", h=48, w=64, radius=6, bg=COLOURS[i], fg=(255, 255, 255), style="appicon"),
                      Column(Text(name, size=16, bold=True, rid=ID + "template_name"),
                             Text(blurbs[name], size=12, style="muted", lines=2, rid=ID + "template_description")),
                      h=80, gap=12, pad=(16, 4, 16, 4), on_click=partial(self.use, name), desc=name)
                  for i, name in enumerate(TEMPLATES)],
                key="templates", rid=ID + "template_list"),
        )


# ------------------------------------------------------------------ board

class BoardActivity(Activity):
    """A board: its open lists one under another, each with its cards and "Add card",
    then "Add list". While a card or list is being added the toolbar turns into
    "Cancel" / "Save" (the field is above the keyboard)."""

    name = "com.trello.feature.board.BoardActivity"

    def __init__(self, app, board: Board) -> None:
        super().__init__(app)
        self.board = board
        self.adding: BoardList | None = None  # the list a card is being added to
        self.adding_list = False
        self.snackbar = ""

    def _note(self, text: str = "") -> None:
        self.snackbar = text

    def start_card(self, lst: BoardList) -> None:
        self._note()
        self.cancel()
        self.adding = lst
        self.fields["new_card"] = ""
        self.focus = "new_card"
        self.sys.keyboard = True

    def start_list(self) -> None:
        self._note()
        self.cancel()
        self.adding_list = True
        self.fields["new_list"] = ""
        self.focus = "new_list"
        self.sys.keyboard = True

    def cancel(self) -> None:
        self.adding = None
        self.adding_list = False
        self.fields.pop("new_card", None)
        self.fields.pop("new_list", None)
        self.focus = None
        self.sys.keyboard = False

    def save(self, _text: str = "") -> None:
        if self.adding is not None:
            title = self.fields.get("new_card", "").strip()
            if title:
                self.adding.cards.append(Card(title))
                self.cancel()
        elif self.adding_list:
            name = self.fields.get("new_list", "").strip()
            if name:
                self.board.lists.append(BoardList(name))
                self.cancel()

    def on_back(self) -> bool:
        if self.adding is not None or self.adding_list:
            self.cancel()
            return True
        return False

    def open_card(self, card: Card) -> None:
        self._note()
        self.start(CardBackActivity(self.app, self.board, card))

    def list_menu(self, lst: BoardList) -> None:
        self._note()
        self.sys.show(ListActions(self, lst))

    def card_actions(self, card: Card) -> None:
        """A long press on a card: its quick actions."""
        self._note()
        self.cancel()
        self.sys.show(CardActions(self, card))

    def move_card(self, card: Card, name: str) -> None:
        """Move ``card`` to the end of the open list ``name``."""
        target = next((lst for lst in self.board.open_lists() if lst.name == name), None)
        source = next((lst for lst in self.board.lists if any(c is card for c in lst.cards)), None)
        if target is None or source is None or target is source:
            return
        source.cards = [c for c in source.cards if c is not card]
        target.cards.append(card)
        self._note(f"Card moved to {name}")

    def archive_list(self, lst: BoardList) -> None:
        if lst.archived:
            return
        lst.archived = True
        self.app.state.archived_lists.append((self.board.name, lst.name))
        self._note("List archived")

    def board_menu(self) -> None:
        self._note()
        self.cancel()
        self.sys.show(BoardMenu(self))

    def toggle_star(self) -> None:
        self._note()
        self.board.starred = not self.board.starred

    def copy_link(self) -> None:
        self.app.state.copied_links.append(self.board.name)
        self._note("Link copied to clipboard")

    def share(self) -> None:
        self.sys.show(ShareSheet(self))

    def pin(self) -> None:
        self.sys.show(PinShortcut(self))

    def do_pin(self) -> None:
        self.board.pinned = True
        self._note("Board pinned to home screen")

    def toggle_offline(self) -> None:
        self.board.offline = not self.board.offline
        self._note("Board available offline" if self.board.offline else "")

    def list_view(self, lst: BoardList) -> View:
        s = self.app.state
        cards = []
        for c in lst.cards:
            badges = [Text(f"Due {c.due}", size=12, w=150, fg=RED if c.due.startswith("Nov 2") else MUTED,
                           rid=ID + "card_due_date") if c.due else None,
                      Text(f"{len(c.comments)} comments" if len(c.comments) != 1 else "1 comment", size=12, w=96,
                           style="muted", rid=ID + "badge_comments") if c.comments else None]
            labels = [Text(name if s.show_label_names else "", size=11, w=72, h=16 if s.show_label_names else 8,
                           bg=(97, 189, 79) if not s.color_blind else (0, 82, 204), radius=4, rid=ID + "label")
                      for name in c.labels]
            cards.append(Column(
                Row(*labels, h=20, gap=4) if labels else None,
                Text(c.title, size=15, lines=2 if len(c.title) > 34 else 1, rid=ID + "card_name"),
                Row(*badges, h=20, gap=8) if any(badges) else None,
                pad=(12, 8, 12, 8), gap=2, style="card", bg=(255, 255, 255), radius=8, desc=c.title,
                on_click=partial(self.open_card, c),
                on_long_click=self.sys.long_click(partial(self.card_actions, c)),
                rid=ID + "card_view"))
        if self.adding is lst:
            tail = EditText("new_card", hint="Card name", rid=ID + "add_card_edit_text", on_submit=self.save)
        else:
            tail = Row(Icon("add", w=32), Text("Add card", size=15, rid=ID + "add_card_button"), h=44, gap=4,
                       pad=(8, 0, 8, 0), on_click=partial(self.start_card, lst), desc="Add card")
        return Column(
            Row(Text(lst.name, size=16, bold=True, rid=ID + "list_name"),
                Icon("more", desc="List actions", on_click=partial(self.list_menu, lst), rid=ID + "list_menu"),
                h=48, pad=(12, 0, 0, 0), on_click=partial(self.list_menu, lst), rid=ID + "list_header"),
            *cards, tail,
            pad=(8, 0, 8, 8), gap=8, bg=LIST_BG, radius=12, style="card", rid=ID + "list_view",
        )

    def build(self) -> View:
        b = self.board
        editing = self.adding is not None or self.adding_list
        dark = self.app.state.theme == "Dark"
        white = (255, 255, 255) if dark else None
        if editing:
            top = Row(Icon("close", desc="Cancel", on_click=self.cancel, fg=white, rid=ID + "cancel_edit"),
                      Text("Add card" if self.adding is not None else "Add list", size=20, h=64, fg=white,
                           rid=ID + "toolbar_title"),
                      Icon("check", desc="Save", on_click=self.save, fg=white, rid=ID + "save_edit"),
                      h=64, pad=(4, 0, 4, 0), style="appbar", rid=ID + "toolbar", bg=DARK_BAR if dark else None)
        else:
            top = Row(Icon("back", desc="Navigate up", on_click=self.finish, fg=white),
                      Column(Text(b.name, size=18, rid=ID + "board_name", fg=white),
                             Text(b.workspace, size=12, rid=ID + "board_workspace", fg=white, style="muted"),
                             pad=(0, 6, 0, 0)),
                      Icon("star", desc="Unstar board" if b.starred else "Star board", on_click=self.toggle_star,
                           fg=(242, 214, 0) if b.starred else white, rid=ID + "star_board"),
                      Icon("more", desc="Board menu", on_click=self.board_menu, fg=white, rid=ID + "board_menu"),
                      h=64, pad=(4, 0, 4, 0), style="appbar", rid=ID + "toolbar", bg=DARK_BAR if dark else None)
        if self.adding_list:
            add_list = Column(EditText("new_list", hint="List name", rid=ID + "add_list_edit_text",
                                       on_submit=self.save),
                              pad=(8, 8, 8, 8), bg=LIST_BG, radius=12, style="card")
        else:
            add_list = Row(Icon("add", w=32), Text("Add list", size=15, rid=ID + "add_list_button"), h=48, gap=4,
                           pad=(8, 0, 8, 0), bg=LIST_BG, radius=12, style="card", on_click=self.start_list,
                           desc="Add list")
        lists = b.open_lists()
        return Column(
            top,
            Scroll(*[self.list_view(lst) for lst in lists], add_list,
                   Text("This board has no lists yet. Add one to get started.", size=14, lines=2, style="muted",
                        h=48, pad=(8, 8, 8, 0), rid=ID + "empty_board") if not lists else None,
                   Spacer(h=24), key="lists", rid=ID + "board_lists", pad=(12, 12, 12, 0), gap=12,
                   bg=COLOURS[b.colour % len(COLOURS)]),
            Row(Text(self.snackbar, size=14, fg=(255, 255, 255), rid=ID + "snackbar_text"), h=48,
                pad=(16, 0, 16, 0), bg=(50, 50, 50), radius=4, rid=ID + "snackbar") if self.snackbar else None,
            Spacer(h=KEYBOARD_DP) if editing and self.sys.keyboard else None,
        )


class ListActions(Sheet):
    """A list's actions menu."""

    def __init__(self, act: BoardActivity, lst: BoardList) -> None:
        super().__init__(act)
        self.lst = lst

    def build(self) -> View:
        note = partial(self.act._note, "Not available offline")

        def row(label: str, handler: Callable[[], None], rid: str) -> View:
            return Row(Text(label, size=16, rid=ID + rid), h=52, pad=(16, 0, 16, 0),
                       on_click=partial(self._press, handler), desc=label)

        return Column(
            ptext(self.lst.name, size=14, bold=True, style="muted", h=40, pad=(16, 12, 16, 0),
                 rid=ID + "list_actions_title"),
            row("Add card", partial(self.act.start_card, self.lst), "action_add_card"),
            row("Copy list", note, "action_copy_list"),
            row("Move list", note, "action_move_list"),
            row("Archive list", partial(self.act.archive_list, self.lst), "action_archive_list"),
            row("Archive all cards in this list", note, "action_archive_cards"),
            pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "list_actions_menu",
        )


class CardActions(Sheet):
    """A card's long-press actions: "Open card" and "Move card" (to another list)."""

    def __init__(self, act: BoardActivity, card: Card) -> None:
        super().__init__(act)
        self.card = card

    def move(self) -> None:
        act: BoardActivity = self.act  # type: ignore[assignment]
        current = next((lst.name for lst in act.board.lists if any(c is self.card for c in lst.cards)), "")
        act.sys.show(Picker("Move card to", tuple(lst.name for lst in act.board.open_lists()), current,
                            partial(act.move_card, self.card)))

    def build(self) -> View:
        def row(icon: str, label: str, handler: Callable[[], None], rid: str) -> View:
            return menu_row(icon, label, partial(self._press, handler), rid)

        return Column(
            ptext(self.card.title, size=14, bold=True, style="muted", h=40, pad=(16, 12, 16, 0),
                  rid=ID + "card_actions_title"),
            row("app", "Open card", partial(self.act.open_card, self.card), "action_open_card"),
            row("forward", "Move card", self.move, "action_move_card"),
            pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "card_actions_menu",
        )


class BoardMenu(Sheet):
    """The board menu: about, share, pin to home screen, offline, archived items."""

    def build(self) -> View:
        b = self.act.board

        def row(icon: str, label: str, handler: Callable[[], None], rid: str) -> View:
            return menu_row(icon, label, partial(self._press, handler), rid)

        return Column(
            ptext("Board menu", size=14, bold=True, style="muted", h=40, pad=(16, 12, 16, 0),
                 rid=ID + "board_menu_title"),
            row("info", "About this board", partial(self.act._note, f"{b.visibility} board in {b.workspace}"),
                "about_board"),
            row("share", "Share", self.act.share, "share_board"),
            row("home", "Pin to home screen", self.act.pin, "pin_to_home"),
            Row(Icon("download", w=40), Text("Make available offline", size=16, rid=ID + "offline_title"),
                Switch(b.offline, self.act.toggle_offline, rid=ID + "offline_switch"),
                h=52, gap=16, pad=(16, 0, 16, 0), on_click=self.act.toggle_offline),
            row("trash", "Archived items", partial(self.act._note, "No archived cards"), "archived_items"),
            pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "board_menu_sheet",
        )


class ShareSheet(Sheet):
    """Share the board: copy its link or send it."""

    def build(self) -> View:
        b = self.act.board
        slug = "".join(ch if ch.isalnum() else "-" for ch in b.name.lower())
        return Column(
            ptext("Share board", size=18, bold=True, h=44, pad=(16, 12, 16, 0), rid=ID + "share_title"),
            ptext(f"trello.com/b/x7Kq2mZa/{slug}", size=14, style="muted", h=28, pad=(16, 0, 16, 0),
                 rid=ID + "share_link"),
            menu_row("copy", "Copy link", partial(self._press, self.act.copy_link), "copy_link"),
            menu_row("share", "Share link", self.close, "share_link_button"),
            menu_row("person", "Invite by email", self.close, "invite_email"),
            pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "share_sheet",
        )


class PinShortcut(Dialog):
    """Android's pin-shortcut confirmation (the launcher asks)."""

    def __init__(self, act: BoardActivity) -> None:
        super().__init__("Add to Home screen?", buttons=(("Cancel", None), ("Add to home screen", act.do_pin)),
                         package="com.google.android.apps.nexuslauncher")
        self.act = act

    def build(self) -> View:
        launcher = "com.google.android.apps.nexuslauncher:id/"
        cancel, add = self.buttons
        return Column(
            Text("Add to Home screen", size=22, rid=launcher + "title", h=40),
            Row(Text("", h=48, w=48, radius=12, bg=COLOURS[self.act.board.colour % len(COLOURS)]),
                Text(self.act.board.name, size=16, rid=launcher + "shortcut_label"), h=64, gap=12),
            Text("Touch & hold to place manually", size=14, style="muted"),
            Row(Spacer(), Button("Cancel", partial(self._press, cancel[1]), style="text", w=96,
                                 rid=launcher + "cancel_button"),
                Button("Add to home screen", partial(self._press, add[1]), style="text", w=180,
                       rid=launcher + "add_automatically"), h=52),
            cls=FRAME, pad=(24, 20, 16, 8), gap=8, w=320, align="center", style="dialog", radius=28,
            rid=launcher + "add_item_confirmation",
        )


# ------------------------------------------------------------------ card back

class CardBackActivity(Activity):
    """A card: title, its list and board, description, due date, labels and the
    activity feed with comments; the "Add comment" composer at the bottom."""

    name = "com.trello.feature.card.back.CardBackActivity"

    def __init__(self, app, board: Board, card: Card) -> None:
        super().__init__(app)
        self.board, self.card = board, card

    def owner(self) -> str:
        return next((lst.name for lst in self.board.lists if any(c is self.card for c in lst.cards)), "")

    def due_picker(self) -> None:
        self.sys.show(DuePicker(self))

    def set_due(self, due: str) -> None:
        self.card.due = due

    def comment(self, _text: str = "") -> None:
        text = self.fields.get("comment", "").strip()
        if text:
            self.card.comments.append(text)
            self.fields["comment"] = ""
            self.focus = None
            self.sys.keyboard = False

    def build(self) -> View:
        c = self.card
        s = self.app.state
        comments = [Row(Icon("person", h=32, w=32, radius=16, bg=BLUE, fg=(255, 255, 255)),
                        Column(Text(FULL_NAME, size=14, bold=True, rid=ID + "comment_author"),
                               Text(text, size=15, lines=2 if len(text) > 36 else 1, rid=ID + "comment_text")),
                        h=80 if len(text) > 36 else 56, gap=12, pad=(16, 4, 16, 0), rid=ID + "comment_row")
                    for text in reversed(c.comments)]
        keyboard = self.sys.keyboard and self.focus == "comment"
        return Column(
            bar(self, "", back="close", desc="Close", actions=(
                Icon("more", desc="More options", rid=ID + "card_menu"),)),
            Scroll(
                ptext(c.title, size=22, lines=2 if len(c.title) > 26 else 1, pad=(16, 0, 16, 0),
                     rid=ID + "card_name"),
                ptext(f"{self.board.name} in list {self.owner()}", size=13, style="muted", h=24, pad=(16, 0, 16, 0),
                     rid=ID + "card_location"),
                Divider(),
                Row(Icon("menu", w=40), Text("Add card description…", size=16, style="muted",
                                             rid=ID + "description"), h=56, gap=12, pad=(8, 0, 16, 0)),
                Row(Icon("flag", w=40),
                    Text(", ".join(c.labels) if c.labels else "Labels…", size=16,
                         style=None if c.labels else "muted", rid=ID + "labels"), h=56, gap=12, pad=(8, 0, 16, 0)),
                Row(Icon("clock", w=40), Text("Start date…", size=16, style="muted", rid=ID + "start_date"),
                    h=56, gap=12, pad=(8, 0, 16, 0)),
                Row(Icon("clock", w=40),
                    Text("Due " + c.due if c.due else "Due date…", size=16, style=None if c.due else "muted",
                         rid=ID + ("due_date_text" if c.due else "due_date")),
                    h=56, gap=12, pad=(8, 0, 16, 0), on_click=self.due_picker, desc="Due date"),
                Row(Icon("person", w=40), Text("Members…", size=16, style="muted", rid=ID + "members"),
                    h=56, gap=12, pad=(8, 0, 16, 0)),
                Divider(),
                ptext("Activity", size=16, bold=True, h=40, pad=(16, 12, 16, 0), rid=ID + "activity_header"),
                *comments,
                ptext(f"{FULL_NAME} added this card to {self.owner()}", size=13, style="muted", h=32,
                     pad=(16, 8, 16, 0), rid=ID + "activity_text"),
                key="card", rid=ID + "card_back_list"),
            Row(EditText("comment", hint="Add comment", rid=ID + "comment_edit_text", on_submit=self.comment),
                Icon("forward", desc="Send comment", on_click=self.comment, rid=ID + "post_comment",
                     fg=BLUE if self.fields.get("comment", "").strip() else MUTED),
                h=64, pad=(8, 4, 4, 4), gap=4, rid=ID + "comment_composer",
                bg=DARK_BAR if s.theme == "Dark" else None),
            Spacer(h=KEYBOARD_DP) if keyboard else None,
        )


class DuePicker(Dialog):
    """The due date dialog: date and time (a tap moves to the next choice), Done."""

    def __init__(self, act: CardBackActivity) -> None:
        super().__init__("Due date")
        self.act = act
        self.day = 0
        self.time = 0
        due = act.card.due
        for i, d in enumerate(DUE_DATES):
            if due.startswith(d + ","):
                self.day = i
        for i, t in enumerate(DUE_TIMES):
            if due.endswith(t):
                self.time = i

    def next_day(self) -> None:
        self.day = (self.day + 1) % len(DUE_DATES)

    def next_time(self) -> None:
        self.time = (self.time + 1) % len(DUE_TIMES)

    def done(self) -> None:
        self.close()
        self.act.set_due(f"{DUE_DATES[self.day]}, {DUE_TIMES[self.time]}")

    def remove(self) -> None:
        self.close()
        self.act.set_due("")

    def build(self) -> View:
        return Column(
            Text("Due date", size=22, rid="android:id/alertTitle", h=40),
            Row(Icon("clock", w=40), Column(Text("Date", size=12, style="muted"),
                                            Text(DUE_DATES[self.day] + ", 2026", size=16, rid=ID + "date_value")),
                Icon("chevron", w=40, desc="Next day", on_click=self.next_day, rid=ID + "next_day"),
                h=56, gap=8, on_click=self.next_day),
            Row(Icon("clock", w=40), Column(Text("Time", size=12, style="muted"),
                                            Text(DUE_TIMES[self.time], size=16, rid=ID + "time_value")),
                Icon("chevron", w=40, desc="Later", on_click=self.next_time, rid=ID + "next_time"),
                h=56, gap=8, on_click=self.next_time),
            Row(Button("Remove", self.remove, style="text", w=96, rid="android:id/button3"), Spacer(),
                Button("Cancel", self.close, style="text", w=96, rid="android:id/button2"),
                Button("Done", self.done, style="text", w=80, rid="android:id/button1"), h=52),
            cls=FRAME, pad=(24, 20, 16, 8), gap=8, w=328, align="center", style="dialog", radius=28,
            rid=ID + "due_date_dialog",
        )


# ------------------------------------------------------------------ search, notifications

class SearchActivity(Activity):
    """Search: the query field; on ENTER, the boards and cards that match (shown while
    the field still holds that query)."""

    name = "com.trello.feature.search.SearchActivity"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.fields["query"] = ""
        self.focus = "query"
        self.query: str | None = None
        app.state.visited.append("search")

    def submit(self, text: str) -> None:
        q = text.strip()
        if not q:
            return
        self.app.state.searches.append(q)
        self.query = q
        self.focus = None
        self.sys.keyboard = False
        self.scroll.clear()

    def open_board(self, board: Board) -> None:
        self.start(BoardActivity(self.app, board))

    def open_card(self, board: Board, card: Card) -> None:
        self.start(CardBackActivity(self.app, board, card))

    def clear(self) -> None:
        self.fields["query"] = ""
        self.query = None
        self.focus = "query"

    def build(self) -> View:
        s = self.app.state
        shown = self.query is not None and self.fields.get("query", "").strip() == self.query
        rows: list[View | None] = []
        if shown:
            q = self.query.lower()
            boards = [b for b in s.boards if q in b.name.lower()]
            cards = [(b, lst, c) for b in s.boards for lst in b.open_lists() for c in lst.cards if q in c.title.lower()]
            rows.append(section("BOARDS"))
            rows += [board_tile(b, partial(self.open_board, b), subtitle=b.workspace) for b in boards]
            if not boards:
                rows.append(ptext("No boards match", size=14, style="muted", h=36, pad=(16, 8, 16, 0),
                                 rid=ID + "no_results"))
            rows.append(section("CARDS"))
            rows += [Column(Text(c.title, size=16, rid=ID + "card_name"),
                            Text(f"{b.name}: {lst.name}", size=12, style="muted", rid=ID + "card_location"),
                            h=60, pad=(16, 8, 16, 0), on_click=partial(self.open_card, b, c), desc=c.title)
                     for b, lst, c in cards[:12]]
            if not cards:
                rows.append(ptext("No cards match", size=14, style="muted", h=36, pad=(16, 8, 16, 0),
                                 rid=ID + "no_results"))
        else:
            rows.append(Text("Search for boards, cards and comments", size=14, style="muted", h=48,
                             pad=(16, 16, 16, 0), align="center", rid=ID + "search_hint"))
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.finish),
                EditText("query", hint="Search Trello", rid=ID + "search_src_text", on_submit=self.submit, style="search"),
                Icon("close", desc="Clear query", on_click=self.clear, rid=ID + "search_close_btn")
                if self.fields.get("query") else None,
                h=64, pad=(4, 4, 8, 4), gap=4, rid=ID + "toolbar", style="appbar"),
            Scroll(*rows, key="results", rid=ID + "search_results"),
        )


class NotificationFeedActivity(Activity):
    """Notifications: All / Unread, each notification with who, what and when."""

    name = "com.trello.feature.notification.feed.NotificationFeedActivity"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.unread_only = False

    def show_unread(self, on: bool) -> None:
        self.unread_only = on
        self.scroll.clear()

    def mark_all_read(self) -> None:
        for n in self.app.state.notifications:
            n.unread = False

    def build(self) -> View:
        notes = [n for n in self.app.state.notifications if n.unread or not self.unread_only]
        rows = [Row(Icon("person", h=40, w=40, radius=20, bg=BLUE, fg=(255, 255, 255)),
                    Column(Text(f"{n.who} {n.text} {n.board}", size=14, lines=2, rid=ID + "notification_text"),
                           Text(n.when, size=12, style="muted", rid=ID + "notification_time")),
                    Icon("circle", w=16, fg=BLUE, desc="Unread") if n.unread else Spacer(w=16),
                    h=80, gap=12, pad=(16, 8, 12, 0), rid=ID + "notification_row")
                for n in notes]
        if not rows:
            rows = [ptext("You're all caught up", size=16, align="center", h=64, pad=(16, 24, 16, 0),
                         rid=ID + "empty_notifications")]

        def tab(label: str, on: bool) -> View:
            return Text(label, size=14, bold=on == self.unread_only, align="center", h=48,
                        selected=on == self.unread_only, rid=ID + "filter_tab", on_click=partial(self.show_unread, on))

        return Column(
            bar(self, "Notifications", actions=(Icon("check", desc="Mark all as read", on_click=self.mark_all_read,
                                                     rid=ID + "mark_all_read"),)),
            Row(tab("All", False), tab("Unread", True), h=48, rid=ID + "notification_tabs"),
            Divider(),
            Scroll(*rows, key="notifications", rid=ID + "notification_list"),
        )


# ------------------------------------------------------------------ settings

class SettingsActivity(Activity):
    """Settings: account, theme, accessibility switches, sync (offline boards, sync
    queue), about, log out."""

    name = "com.trello.feature.settings.SettingsActivity"

    def toggle(self, attr: str) -> None:
        setattr(self.app.state, attr, not getattr(self.app.state, attr))

    def theme(self) -> None:
        self.sys.show(Picker("Theme", THEMES, self.app.state.theme, self.set_theme, rid="theme_option"))

    def set_theme(self, theme: str) -> None:
        self.app.state.theme = theme

    def offline(self) -> None:
        self.app.state.visited.append("offline_boards")
        self.start(OfflineBoardsActivity(self.app))

    def sync_queue(self) -> None:
        self.app.state.visited.append("sync_queue")
        self.start(SyncQueueActivity(self.app))

    def log_out(self) -> None:
        self.sys.show(Dialog("Log out?", "Any changes that haven't synced yet will be lost.",
                             (("Cancel", None), ("Log out", self.do_log_out)), package=PKG))

    def do_log_out(self) -> None:
        s = self.app.state
        s.signed_in = False
        s.logged_out += 1
        old = list(self.app.stack)
        self.sys.start(WelcomeActivity(self.app))
        for act in old:
            self.sys.finish(act)

    def switch(self, title: str, summary: str, attr: str) -> View:
        on = getattr(self.app.state, attr)
        return Row(Column(Text(title, size=16, rid="android:id/title"),
                          Text(summary, size=13, style="muted", lines=2, rid="android:id/summary")),
                   Switch(on, partial(self.toggle, attr), rid="android:id/switch_widget", desc=title),
                   h=80, pad=(16, 8, 16, 0), on_click=partial(self.toggle, attr))

    def link(self, title: str, summary: str, handler=None) -> View:
        return Row(Column(Text(title, size=16, rid="android:id/title"),
                          Text(summary, size=13, style="muted", rid="android:id/summary") if summary else None),
                   h=64 if summary else 52, pad=(16, 8, 16, 0), on_click=handler)

    def header(self, title: str) -> View:
        return ptext(title, size=14, bold=True, fg=BLUE, h=44, pad=(16, 16, 16, 0), rid=ID + "preference_category")

    def build(self) -> View:
        s = self.app.state
        return Column(
            bar(self, "Settings"),
            Scroll(
                self.header("Account"),
                self.link("Profile and visibility", "@" + USERNAME),
                self.link("Email", EMAIL),
                self.header("Display"),
                self.link("Theme", s.theme, self.theme),
                self.header("Accessibility"),
                self.switch("Color blind friendly mode", "Add patterns to labels", "color_blind"),
                self.switch("Enable animations", "Animate transitions between screens", "animations"),
                self.switch("Show label names on card front", "Label names show on the front of cards",
                            "show_label_names"),
                self.header("Sync"),
                self.link("Offline boards", "Choose boards to keep on this device", self.offline),
                self.link("Sync queue", "Changes waiting to sync", self.sync_queue),
                self.header("About"),
                self.link("Help", ""),
                self.link("Privacy policy", ""),
                self.link("Version", "2023.14.2.8427"),
                Row(Text("Log out", size=16, fg=RED, rid=ID + "log_out"), h=56, pad=(16, 0, 16, 0),
                    on_click=self.log_out, desc="Log out"),
                Spacer(h=24),
                key="settings", rid=ID + "settings_list"),
        )


class OfflineBoardsActivity(Activity):
    """Offline boards: "Sync all boards" and, per board, "Available offline"."""

    name = "com.trello.feature.sync.offline.OfflineSyncBoardsActivity"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.sync_all = False

    def toggle_all(self) -> None:
        self.sync_all = not self.sync_all

    def toggle(self, board: Board) -> None:
        board.offline = not board.offline

    def build(self) -> View:
        s = self.app.state
        offline = [b for b in s.boards if b.offline]
        rows = [Row(Text(b.name, size=16, rid=ID + "offline_board_name"),
                    Switch(True, partial(self.toggle, b), rid=ID + "offline_board_switch"),
                    h=56, pad=(16, 0, 16, 0)) for b in offline]
        if not rows:
            rows = [Column(Icon("download", h=56, w=56, align="center", fg=MUTED),
                           Text("No offline boards", size=18, align="center", rid=ID + "empty_title"),
                           Text("Boards you make available offline show here. Open a board's menu and turn "
                                "on \u201cMake available offline\u201d.", size=14, lines=3, align="center",
                                style="muted", rid=ID + "empty_body"), pad=(24, 32, 24, 0), gap=8)]
        return Column(
            bar(self, "Offline boards"),
            Row(Column(Text("Sync all boards", size=16, rid="android:id/title"),
                       Text("Keep every board available offline", size=13, style="muted",
                            rid="android:id/summary")),
                Switch(self.sync_all, self.toggle_all, rid=ID + "sync_all_switch"),
                h=72, pad=(16, 8, 16, 0), on_click=self.toggle_all),
            Divider(),
            Scroll(*rows, key="offline", rid=ID + "offline_boards_list"),
        )


class SyncQueueActivity(Activity):
    """The sync queue: changes made offline that wait to sync (none while online)."""

    name = "com.trello.feature.sync.queue.SyncQueueActivity"

    def build(self) -> View:
        return Column(
            bar(self, "Sync queue"),
            Column(Icon("refresh", h=56, w=56, align="center", fg=MUTED),
                   Text("Everything is synced", size=18, align="center", rid=ID + "sync_queue_empty_title"),
                   Text("Changes you make offline wait here until Trello can sync them.", size=14, lines=2,
                        align="center", style="muted", rid=ID + "sync_queue_empty_body"),
                   pad=(24, 48, 24, 0), gap=8, rid=ID + "sync_queue_empty"),
            Spacer(fill=True),
        )


# ------------------------------------------------------------------ logged out

class WelcomeActivity(Activity):
    """What a logged-out member sees: sign up or log in."""

    name = "com.trello.feature.authentication.WelcomeActivity"

    def log_in(self) -> None:
        self.sys.show(Dialog("Log in", f"Continue as {EMAIL}?",
                             (("Cancel", None), ("Continue", self.do_log_in)), package=PKG))

    def do_log_in(self) -> None:
        self.app.state.signed_in = True
        self.sys.start(HomeActivity(self.app))
        self.finish()

    def build(self) -> View:
        return Column(
            Spacer(h=96),
            Row(Spacer(), Text("", h=72, w=72, radius=16, bg=BLUE, rid=ID + "logo_image"), Spacer(), h=72),
            Text("Trello", size=32, bold=True, align="center", rid=ID + "logo"),
            Text("Move teamwork forward \u2014 even on the go", size=16, lines=2, align="center", style="muted",
                 pad=(32, 0, 32, 0), rid=ID + "tagline"),
            Spacer(fill=True),
            Button("Sign up", partial(self.sys.toast, "Sign up in your browser"), style="filled",
                   rid=ID + "signup_button"),
            Button("Log in", self.log_in, style="outlined", rid=ID + "login_button"),
            Spacer(h=48),
            pad=(24, 0, 24, 0), gap=12,
        )


# ------------------------------------------------------------------ popups
