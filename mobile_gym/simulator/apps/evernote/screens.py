"""Evernote's screens: Home (widgets, "Customize"), the Notes, Tasks and Tags pages and
the sidebar, all in HomeActivity; the note editor (formatting toolbar with "Insert" and
"Checkbox", the note options sheet with "Available offline" and "Move to Trash"); the
template gallery; Customize Home (background, current widgets, add widgets); settings
(theme, create button, Camera, Sync, Log out); the landing screen after logging out; and
the first-run popups. Dialogs keep only picklable handlers."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from mobile_gym.simulator.app import Activity, Dialog
from mobile_gym.simulator.apps.evernote.model import (
    ACCOUNT_EMAIL,
    ACCOUNT_NAME,
    BACKGROUNDS,
    CREATE_BUTTONS,
    TEMPLATE_BLOCKS,
    TEMPLATES,
    THEMES,
    WIDGETS,
    Block,
    Note,
)
from mobile_gym.simulator.runtime import KEYBOARD_DP
from mobile_gym.simulator.views import (
    VIEW,
    Button,
    CheckBox,
    Column,
    Divider,
    EditText,
    Icon,
    Row,
    Scroll,
    Spacer,
    Switch,
    Text,
    View,
)

PKG = "com.evernote"
ID = PKG + ":id/"
GREEN = (0, 168, 45)
TONAL = (220, 242, 226)
MUTED = (95, 95, 105)
TABS = ("home", "notes", "tasks", "tags")
TAB_TITLES = {"home": "Home", "notes": "Notes", "tasks": "Tasks", "tags": "Tags"}


def home_of(app) -> HomeActivity | None:
    return next((a for a in app.stack if isinstance(a, HomeActivity)), None)


class HomeActivity(Activity):
    """Home with its widgets, and the Notes / Tasks / Tags pages, the bottom navigation,
    the "Create new note" button and the sidebar."""

    name = "com.evernote.ui.HomeActivity"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.tab = "home"
        self.drawer = False
        self.snackbar = ""
        self.snack_note = 0
        app.state.opened = True
        app.state.visited.append("home")

    @property
    def state(self):
        return self.app.state

    # ------------------------------------------------------------ handlers
    def _quiet(self) -> None:
        self.snackbar = ""

    def select(self, tab: str) -> None:
        self._quiet()
        self.drawer = False
        if tab != self.tab:
            self.scroll.clear()
        self.tab = tab
        self.state.visited.append(tab)

    def open_drawer(self) -> None:
        self._quiet()
        self.drawer = True
        self.state.visited.append("sidebar")

    def close_drawer(self) -> None:
        self.drawer = False

    def on_back(self) -> bool:
        if self.drawer:
            self.drawer = False
            return True
        if self.tab != "home":
            self.select("home")
            return True
        return False

    def open_note(self, note: Note) -> None:
        self._quiet()
        self.drawer = False
        self.start(NoteActivity(self.app, note))

    def create(self) -> None:
        """The create button: a new note, or the orbs when that style is set."""
        self._quiet()
        if self.state.create_button == "Orbs":
            self.sys.show(Orbs(self))
        else:
            self.new_note()

    def new_note(self) -> None:
        s = self.state
        nid = max((n.id for n in s.notes), default=0) + 1
        note = Note(nid, "", [], updated="Just now")
        s.notes.insert(0, note)
        s.created.append(nid)
        self.drawer = False
        self.start(NoteActivity(self.app, note, new=True))
        self.sys.keyboard = True  # the title field has focus

    def new_task(self) -> None:
        self.select("tasks")
        self.sys.toast("Add a task from the Tasks page")

    def customize(self) -> None:
        self._quiet()
        self.state.visited.append("customize")
        self.start(CustomizeActivity(self.app))

    def open_settings(self) -> None:
        self._quiet()
        self.drawer = False
        self.state.visited.append("settings")
        self.start(SettingsActivity(self.app))

    def toggle_task(self, index: int) -> None:
        self._quiet()
        tasks = self.state.tasks
        if 0 <= index < len(tasks):
            tasks[index].done = not tasks[index].done

    def trashed(self, note: Note) -> None:
        """The editor moved ``note`` to Trash: say so, with Undo."""
        self.snackbar = "Note moved to Trash"
        self.snack_note = note.id

    def allow_notifications(self, allowed: bool) -> None:
        self.state.notifications_allowed = allowed

    def undo(self) -> None:
        s = self.state
        note = s.note(self.snack_note)
        if note is not None:
            note.trashed = False
            s.trashed = [i for i in s.trashed if i != note.id]
        self.snackbar = ""

    # ------------------------------------------------------------ views
    def top_bar(self) -> View:
        return Row(Icon("menu", desc="Open sidebar", on_click=self.open_drawer, rid=ID + "sidebar_button"),
                   Text(TAB_TITLES[self.tab], size=22, bold=True, rid=ID + "toolbar_title", h=64),
                   Button("Customize", self.customize, style="outlined", w=112, h=40, rid=ID + "customize_button")
                   if self.tab == "home" else None,
                   Icon("person", desc=f"Account: {ACCOUNT_NAME}", radius=20, bg=TONAL, w=48,
                        rid=ID + "account_avatar"),
                   h=64, pad=(4, 0, 8, 0), gap=4, rid=ID + "toolbar")

    def widget(self, name: str) -> View:
        s = self.state
        notes = s.live_notes()
        body: list[View | None]
        if name == "Notes":
            body = [Row(Text(n.title or "Untitled", size=15, rid=ID + "widget_note_title"),
                        Text(n.updated, size=12, style="muted", w=72, align="right"),
                        h=40, on_click=partial(self.open_note, n)) for n in notes[:3]]
            if not notes:
                body = [Text("Create your first note", size=14, style="muted")]
        elif name == "Recently Captured":
            body = [Text("Photos, documents and audio you capture show up here", size=14, lines=2,
                         style="muted")]
        elif name == "Scratch Pad":
            body = [Text("Jot something down…", size=14, style="muted", rid=ID + "scratch_pad_hint")]
        elif name == "Pinned Note":
            body = [Text("Pin a note to keep it handy on Home", size=14, style="muted")]
        elif name == "My Tasks":
            open_tasks = [t for t in s.tasks if not t.done]
            body = [Text(t.title, size=15, rid=ID + "widget_task_title") for t in open_tasks[:3]] or \
                [Text("No tasks due", size=14, style="muted")]
        elif name == "Calendar":
            body = [Text("Connect Google Calendar to see your events", size=14, lines=2, style="muted")]
        elif name == "Notebooks":
            books = sorted({n.notebook for n in notes})
            body = [Text(b, size=15) for b in books[:3]]
        elif name == "Tags":
            body = [Text(", ".join(t for t, _ in s.tag_counts()) or "No tags yet", size=14, lines=2)]
        else:
            body = [Text("Quick access to notes, notebooks and tags you use most", size=14, lines=2,
                         style="muted")]
        return Column(Row(Text(name.upper(), size=13, bold=True, rid=ID + "widget_title"), Spacer(w=8),
                          Icon("more", desc=f"{name} widget options", w=40, h=40), h=40),
                      *body, pad=(16, 8, 16, 12), gap=4, style="card", radius=12, rid=ID + "widget_container",
                      desc=f"{name} widget")

    def home_page(self) -> View:
        s = self.state
        return Scroll(Text(f"Welcome back, {ACCOUNT_NAME}", size=16, style="muted", h=32,
                           pad=(16, 0, 16, 0), rid=ID + "home_greeting"),
                      Text(f"Background: {s.background}", size=12, style="muted", h=16, pad=(16, 0, 16, 0),
                           rid=ID + "home_background") if s.background != "Default" else None,
                      *[self.widget(w) for w in s.widgets], Spacer(h=24),
                      key="home", rid=ID + "home_widgets", gap=12, pad=(12, 0, 12, 0))

    def notes_page(self) -> View:
        notes = self.state.live_notes()
        rows: list[View | None] = []
        for n in notes:
            rows.append(Column(Text(n.title or "Untitled", size=16, bold=True, rid=ID + "note_title"),
                               Text(n.snippet() or "No additional text", size=14, style="muted",
                                    rid=ID + "note_snippet"),
                               Text(n.updated, size=12, style="muted", rid=ID + "note_date"),
                               h=88, pad=(16, 8, 16, 8), rid=ID + "note_item", on_click=partial(self.open_note, n)))
            rows.append(Divider())
        if not notes:
            rows.append(Text("No notes yet", size=18, align="center", h=96, rid=ID + "empty_state_title"))
        count = f"{len(notes)} note" + ("" if len(notes) == 1 else "s")
        return Column(Row(Text(count, size=14, style="muted", h=32, rid=ID + "notes_count"), h=32, pad=(16, 0, 16, 0)),
                      Scroll(*rows, Spacer(h=24), key="notes", rid=ID + "notes_list"), fill=True)

    def tasks_page(self) -> View:
        tasks = self.state.tasks
        rows = [Row(CheckBox(t.done, partial(self.toggle_task, i), desc="Mark as incomplete" if t.done
                             else "Mark as complete", rid=ID + "task_checkbox"),
                    Column(Text(t.title, size=16, rid=ID + "task_title", style="muted" if t.done else None),
                           Text(t.due, size=12, fg=GREEN, rid=ID + "task_due") if t.due else None),
                    h=64, gap=8, pad=(8, 0, 16, 0), rid=ID + "task_item", desc=t.title)
                for i, t in enumerate(tasks)]
        if not tasks:
            rows = [Text("No tasks yet", size=18, align="center", h=96, rid=ID + "empty_state_title")]
        open_count = sum(not t.done for t in tasks)
        return Column(Row(Text("My Tasks", size=14, bold=True, rid=ID + "tasks_filter", h=40, radius=16, bg=TONAL,
                               w=112, align="center"),
                          Text(f"{open_count} open", size=14, style="muted", h=40, rid=ID + "tasks_count"),
                          h=48, gap=12, pad=(16, 4, 16, 4)),
                      Scroll(*rows, Spacer(h=24), key="tasks", rid=ID + "tasks_list"), fill=True)

    def tags_page(self) -> View:
        tags = self.state.tag_counts()
        rows = [Row(Icon("bookmark", w=40), Text(t, size=16, rid=ID + "tag_name"),
                    Text(str(c), size=14, style="muted", w=48, align="right", rid=ID + "tag_count"),
                    h=56, gap=8, pad=(8, 0, 16, 0), rid=ID + "tag_item") for t, c in tags]
        if not tags:
            rows = [Text("No tags yet", size=18, align="center", h=96, rid=ID + "empty_state_title")]
        return Column(Row(Text(f"{len(tags)} tags", size=14, style="muted", h=32, rid=ID + "tags_count"), h=32,
                          pad=(16, 0, 16, 0)),
                      Scroll(*rows, Spacer(h=24), key="tags", rid=ID + "tags_list"), fill=True)

    def bottom_nav(self) -> View:
        def item(tab: str, icon: str) -> View:
            on = self.tab == tab
            return Column(Icon(icon, h=28, w=None, fg=GREEN if on else MUTED),
                          Text(TAB_TITLES[tab], size=12, align="center", fg=GREEN if on else MUTED, h=20,
                               rid=ID + "bottom_nav_label"),
                          weight=1, h=56, selected=on, desc=TAB_TITLES[tab], rid=ID + f"bottom_nav_{tab}",
                          on_click=partial(self.select, tab))
        return Row(item("home", "home"), item("notes", "edit"),
                   Icon("add", desc="Create new note", on_click=self.create, h=56, w=56, bg=GREEN, fg=(255, 255, 255),
                        radius=28, rid=ID + "fab"),
                   item("tasks", "check"), h=64, pad=(8, 4, 8, 4), gap=8, rid=ID + "bottom_navigation")

    def drawer_view(self) -> View:
        def item(label: str, icon: str, handler: Callable[[], None]) -> View:
            return Row(Icon(icon, w=40), Text(label, size=16, rid=ID + "sidebar_item_title"), h=52, gap=12,
                       pad=(16, 0, 16, 0), on_click=handler, desc=label)
        return Column(
            Row(Icon("person", h=48, w=48, radius=24, bg=TONAL),
                Column(Text(ACCOUNT_NAME, size=16, bold=True, rid=ID + "account_name"),
                       Text(ACCOUNT_EMAIL, size=13, style="muted", rid=ID + "account_email")),
                h=72, gap=12, pad=(16, 12, 16, 0), rid=ID + "sidebar_account"),
            Divider(),
            item("Home", "home", partial(self.select, "home")),
            item("Notes", "edit", partial(self.select, "notes")),
            item("Tasks", "check", partial(self.select, "tasks")),
            item("Tags", "bookmark", partial(self.select, "tags")),
            Divider(),
            item("Settings", "settings", self.open_settings),
            Row(Text("Upgrade", size=16, fg=GREEN, bold=True), h=52, pad=(68, 0, 16, 0)),
            Spacer(fill=True),
            w=300, bg=(255, 255, 255), rid=ID + "sidebar",
        )

    def build(self) -> View:
        page = {"home": self.home_page, "notes": self.notes_page, "tasks": self.tasks_page,
                "tags": self.tags_page}[self.tab]()
        snack = None
        if self.snackbar:
            snack = Row(Text(self.snackbar, size=14, fg=(255, 255, 255), rid=ID + "snackbar_text", h=48),
                        Button("Undo", self.undo, style="text", w=80, h=40, rid=ID + "snackbar_action"),
                        h=56, pad=(16, 4, 8, 4), bg=(50, 50, 56), radius=8, rid=ID + "snackbar")
        main = Column(self.top_bar(), Column(page, fill=True), snack, self.bottom_nav())
        if not self.drawer:
            return main
        return Row(self.drawer_view(),
                   View(VIEW, (), on_click=self.close_drawer, bg=(120, 120, 120), desc="Close sidebar"),
                   rid=ID + "drawer_layout")


class Sheet(Dialog):
    """A bottom sheet over the activity ``act``, whose handlers its rows call."""

    def __init__(self, act: Activity) -> None:
        super().__init__(kind="sheet", package=PKG)
        self.act = act


class Orbs(Sheet):
    """The "Orbs" create button: a note or a task."""

    def build(self) -> View:
        return Column(
            Row(Icon("edit", w=48, bg=GREEN, fg=(255, 255, 255), radius=24), Text("Note", size=16, rid=ID + "orb_label"),
                h=56, gap=12, pad=(16, 0, 16, 0), desc="New note", on_click=partial(self._press, self.act.new_note)),
            Row(Icon("check", w=48, bg=GREEN, fg=(255, 255, 255), radius=24), Text("Task", size=16, rid=ID + "orb_label"),
                h=56, gap=12, pad=(16, 0, 16, 0), desc="New task", on_click=partial(self._press, self.act.new_task)),
            pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "create_orbs",
        )


# ------------------------------------------------------------------ the note editor

class NoteActivity(Activity):
    """The note editor: notebook, title, the body's blocks (text, headings, checkboxes),
    a field to write more, the formatting toolbar and the options sheet."""

    name = "com.evernote.note.composer.NewNoteActivity"

    def __init__(self, app, note: Note, new: bool = False) -> None:
        super().__init__(app)
        self.note = note
        self.fields["title"] = note.title
        self.fields["body"] = ""
        if new:
            self.focus = "title"

    def save(self, _text: str = "") -> None:
        n = self.note
        title = self.fields.get("title", "").strip()
        if title:
            n.title = title
        more = self.fields.get("body", "").strip()
        if more:
            n.blocks.append(Block("text", more))
            self.fields["body"] = ""
        n.updated = "Just now" if title or more else n.updated

    def on_back(self) -> bool:
        self.save()
        return False

    def close(self) -> None:
        self.save()
        self.finish()

    def insert_checkbox(self) -> None:
        self.save()
        self.note.blocks.append(Block("check", ""))

    def toggle_block(self, index: int) -> None:
        blocks = self.note.blocks
        if 0 <= index < len(blocks):
            blocks[index].checked = not blocks[index].checked

    def insert_menu(self) -> None:
        self.save()
        self.sys.show(InsertSheet(self))

    def options(self) -> None:
        self.save()
        self.sys.show(NoteOptions(self))

    def templates(self) -> None:
        self.start(TemplateGalleryActivity(self.app, self.note))

    def toggle_offline(self) -> None:
        self.note.offline = not self.note.offline

    def confirm_trash(self) -> None:
        self.sys.show(Dialog("Move note to Trash?", "You can restore it from Trash for 30 days.",
                             (("Cancel", None), ("Move to Trash", self.trash)), package=PKG))

    def trash(self) -> None:
        s = self.app.state
        n = self.note
        n.trashed = True
        if n.id not in s.trashed:
            s.trashed.append(n.id)
        home = home_of(self.app)
        self.finish()
        if home is not None:
            home.trashed(n)

    def build(self) -> View:
        n = self.note
        blocks: list[View | None] = []
        for i, b in enumerate(n.blocks):
            if b.kind == "heading":
                blocks.append(Text(b.text, size=20, bold=True, h=40, rid=ID + "note_heading"))
            elif b.kind == "check":
                blocks.append(Row(CheckBox(b.checked, partial(self.toggle_block, i), desc="Checkbox",
                                           rid=ID + "note_checkbox"),
                                  Text(b.text, size=16, rid=ID + "note_checkbox_text",
                                       style="muted" if b.checked else None),
                                  h=48, gap=4, rid=ID + "note_checklist_item"))
            else:
                blocks.append(Text(b.text, size=16, lines=3 if len(b.text) > 40 else 1, rid=ID + "note_body_text"))
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.close, rid=ID + "note_back"),
                Text(n.notebook, size=14, fg=GREEN, h=48, rid=ID + "notebook_name"),
                Icon("download", desc="Available offline", w=40, fg=GREEN, rid=ID + "offline_badge")
                if n.offline else None,
                Icon("more", desc="More actions", on_click=self.options, rid=ID + "note_options"),
                h=64, pad=(4, 0, 4, 0), gap=4, rid=ID + "toolbar"),
            EditText("title", hint="Title", size=24, h=64, rid=ID + "note_title_edit", on_submit=self.save),
            Scroll(*blocks,
                   EditText("body", hint="Start writing, drag files or choose a template", h=56,
                            rid=ID + "note_body_edit", on_submit=self.save),
                   Spacer(h=24), key="body", rid=ID + "note_body", pad=(16, 0, 16, 0)),
            Row(Icon("add", desc="Insert", on_click=self.insert_menu, rid=ID + "toolbar_insert"),
                Icon("check", desc="Checkbox", on_click=self.insert_checkbox, rid=ID + "toolbar_checkbox"),
                Icon("menu", desc="Bulleted list", rid=ID + "toolbar_bullets"),
                Icon("edit", desc="Text formatting", rid=ID + "toolbar_format"),
                Spacer(),
                h=52, pad=(8, 2, 8, 2), gap=4, style="card", rid=ID + "formatting_toolbar"),
            Spacer(h=KEYBOARD_DP) if self.sys.keyboard else None,
        )


class InsertSheet(Sheet):
    """The editor's "Insert" sheet: Template and the attachment kinds."""

    def build(self) -> View:
        def row(label: str, icon: str, handler: Callable[[], None] | None = None) -> View:
            return Row(Icon(icon, w=40), Text(label, size=16, rid=ID + "insert_option"), h=52, gap=12,
                       pad=(16, 0, 16, 0), desc=label, on_click=partial(self._press, handler) if handler else None)
        return Column(
            Text("Insert", size=14, bold=True, h=40, pad=(16, 8, 16, 0)),
            row("Template", "copy", self.act.templates),
            row("Checkbox", "check", self.act.insert_checkbox),
            row("Camera", "display"),
            row("Attachment", "download"),
            row("Table", "apps"),
            pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "insert_sheet",
        )


class NoteOptions(Sheet):
    """The note's options: Share, Note info, "Available offline" (a switch), Move to Trash."""

    def build(self) -> View:
        on = self.act.note.offline
        return Column(
            Text(self.act.note.title or "Untitled", size=14, bold=True, h=40, pad=(16, 8, 16, 0),
                 rid=ID + "options_title"),
            Row(Icon("share", w=40), Text("Share", size=16, rid=ID + "option_title"), h=52, gap=12, pad=(16, 0, 16, 0)),
            Row(Icon("info", w=40), Text("Note info", size=16, rid=ID + "option_title"), h=52, gap=12,
                pad=(16, 0, 16, 0)),
            Row(Icon("download", w=40), Text("Available offline", size=16, rid=ID + "option_title"),
                Switch(on, self.act.toggle_offline, desc="Available offline", rid=ID + "offline_switch"),
                h=56, gap=12, pad=(16, 0, 16, 0), on_click=self.act.toggle_offline),
            Divider(),
            Row(Icon("trash", w=40, fg=(200, 40, 40)), Text("Move to Trash", size=16, fg=(200, 40, 40),
                                                            rid=ID + "option_title"),
                h=52, gap=12, pad=(16, 0, 16, 0), desc="Move to Trash",
                on_click=partial(self._press, self.act.confirm_trash)),
            pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "note_options_sheet",
        )


class TemplateGalleryActivity(Activity):
    """The template gallery; a template opens its preview with "Use template"."""

    name = "com.evernote.ui.templates.TemplateGalleryActivity"

    def __init__(self, app, note: Note) -> None:
        super().__init__(app)
        self.note = note

    def inputs(self) -> tuple:
        return (id(self.note),)

    def preview(self, name: str) -> None:
        self.sys.show(TemplatePreview(self, name))

    def use(self, name: str) -> None:
        n = self.note
        if not n.title:
            n.title = name
        n.blocks.extend(Block(kind, text) for kind, text in TEMPLATE_BLOCKS[name])
        n.template = name
        n.updated = "Just now"
        self.finish()
        editor = next((a for a in self.app.stack if isinstance(a, NoteActivity) and a.note is n), None)
        if editor is not None:
            editor.fields["title"] = n.title

    def build(self) -> View:
        return Column(
            Row(Icon("close", desc="Close", on_click=self.finish), Text("Templates", size=22, h=64,
                                                                         rid=ID + "toolbar_title"),
                h=64, rid=ID + "toolbar"),
            Text("Evernote templates", size=14, bold=True, h=36, pad=(16, 8, 16, 0)),
            Scroll(*[Row(Icon("copy", w=48, h=48, bg=TONAL, radius=8),
                         Column(Text(name, size=16, rid=ID + "template_name"),
                                Text(desc, size=13, style="muted", rid=ID + "template_description")),
                         h=72, gap=12, pad=(16, 8, 16, 8), rid=ID + "template_item", desc=name,
                         on_click=partial(self.preview, name)) for name, desc in TEMPLATES],
                   key="templates", rid=ID + "templates_list"),
        )


class TemplatePreview(Dialog):
    def __init__(self, gallery: TemplateGalleryActivity, name: str) -> None:
        super().__init__(kind="sheet", package=PKG)
        self.gallery, self.name = gallery, name

    def use(self) -> None:
        self.close()
        self.gallery.use(self.name)

    def build(self) -> View:
        lines = [Text(("☐ " if kind == "check" else "") + text, size=14, bold=kind == "heading")
                 for kind, text in TEMPLATE_BLOCKS[self.name] if text]
        return Column(
            Text(self.name, size=22, rid=ID + "template_preview_title"),
            *lines,
            Button("Use template", self.use, style="filled", rid=ID + "use_template_button"),
            pad=(24, 16, 24, 16), gap=6, style="dialog", radius=16, rid=ID + "template_preview",
        )


# ------------------------------------------------------------------ Customize Home

class CustomizeActivity(Activity):
    """Customize Home: the background, the current widgets (move up, move down, remove)
    and the widgets to add. Changes apply to Home as they are made; "Done" (or BACK)
    closes the page."""

    name = "com.evernote.ui.home.CustomizeHomeActivity"

    def inputs(self) -> tuple:
        s = self.app.state
        return tuple(s.widgets), s.background

    @property
    def widgets(self) -> list[str]:
        return self.app.state.widgets

    @property
    def background(self) -> str:
        return self.app.state.background

    def move(self, name: str, step: int) -> None:
        w = self.widgets
        i = w.index(name)
        j = i + step
        if 0 <= j < len(w):
            w[i], w[j] = w[j], w[i]

    def remove(self, name: str) -> None:
        if name in self.widgets and len(self.widgets) > 1:
            self.widgets.remove(name)

    def add(self, name: str) -> None:
        if name not in self.widgets:
            self.widgets.append(name)

    def set_background(self, name: str) -> None:
        self.app.state.background = name

    def pick_background(self) -> None:
        self.sys.show(BackgroundSheet(self))

    def done(self) -> None:
        home = home_of(self.app)
        if home is not None:
            home.scroll.clear()
        self.finish()

    def on_back(self) -> bool:
        self.done()
        return True

    def build(self) -> View:
        current = []
        widgets = self.widgets
        n = len(widgets)
        for i, name in enumerate(widgets):
            current.append(Row(
                Text(name, size=16, rid=ID + "current_widget_name"),
                Icon("expand", desc=f"Move {name} up", on_click=partial(self.move, name, -1) if i else None,
                     enabled=i > 0, w=40, h=40, rid=ID + "move_up"),
                Icon("chevron", desc=f"Move {name} down", on_click=partial(self.move, name, 1) if i < n - 1 else None,
                     enabled=i < n - 1, w=40, h=40, rid=ID + "move_down"),
                Icon("remove", desc=f"Remove {name}", on_click=partial(self.remove, name) if n > 1 else None,
                     enabled=n > 1, w=40, h=40, rid=ID + "remove_widget"),
                h=44, gap=4, pad=(16, 0, 8, 0), rid=ID + "current_widget"))
        addable = [w for w in WIDGETS if w not in widgets]
        adds = [Row(Text(name, size=16, rid=ID + "available_widget_name"),
                    Icon("add", desc=f"Add {name}", on_click=partial(self.add, name), w=40, h=40,
                         rid=ID + "add_widget"),
                    h=44, gap=4, pad=(16, 0, 8, 0), rid=ID + "available_widget") for name in addable]
        return Column(
            Row(Spacer(w=88),
                Text("Customize Home", size=18, bold=True, align="center", h=56, rid=ID + "toolbar_title"),
                Button("Done", self.done, style="text", w=88, h=40, rid=ID + "customize_done"),
                h=56, pad=(4, 0, 4, 0), rid=ID + "toolbar"),
            Row(Icon("display", w=40), Column(Text("Background", size=16, rid=ID + "background_label"),
                                              Text(self.background, size=13, style="muted",
                                                   rid=ID + "background_name")),
                Text("Change", size=14, fg=GREEN, w=72, h=48, align="right"),
                h=56, gap=8, pad=(16, 0, 16, 0), on_click=self.pick_background, rid=ID + "background_row"),
            Divider(),
            Text("CURRENT WIDGETS", size=12, bold=True, style="muted", h=28, pad=(16, 8, 16, 0),
                 rid=ID + "current_widgets_header"),
            *current,
            Text("ADD WIDGETS", size=12, bold=True, style="muted", h=28, pad=(16, 8, 16, 0),
                 rid=ID + "add_widgets_header"),
            *adds,
            Spacer(fill=True),
        )


class BackgroundSheet(Sheet):
    """Customize Home's background choices; a tap picks one and closes the sheet."""

    def pick(self, name: str) -> None:
        self.close()
        self.act.set_background(name)

    def build(self) -> View:
        rows = [Row(Icon("radio_on" if b == self.act.background else "radio_off", w=40),
                    Text(b, size=16, rid=ID + "background_option"), h=48, gap=8, pad=(16, 0, 16, 0),
                    checkable=True, checked=b == self.act.background, on_click=partial(self.pick, b))
                for b in BACKGROUNDS]
        return Column(Text("Choose a background", size=18, bold=True, h=44, pad=(16, 8, 16, 0)), *rows,
                      pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "background_sheet")


# ------------------------------------------------------------------ settings

def _pref(title: str, summary: str = "", handler: Callable[[], None] | None = None) -> View:
    return Row(Column(Text(title, size=16, rid="android:id/title"),
                      Text(summary, size=14, style="muted", rid="android:id/summary") if summary else None),
               h=72 if summary else 56, pad=(16, 8, 16, 8), on_click=handler)


def _header(title: str) -> View:
    return Row(Text(title, size=14, bold=True, fg=GREEN, h=24), h=40, pad=(16, 16, 16, 0))


class SettingsActivity(Activity):
    """Settings: account, Theme, Create button, Camera, Notifications, Sync, Log out."""

    name = "com.evernote.ui.EvernotePreferenceActivity"

    def inputs(self) -> tuple:
        s = self.app.state
        return s.theme, s.create_button

    def choose(self, attr: str, title: str, options: tuple[str, ...]) -> None:
        self.sys.show(Choice(self.app.state, attr, title, options))

    def page(self, which: str) -> None:
        self.app.state.visited.append("settings:" + which)
        self.start(SettingsPage(self.app, which))

    def confirm_logout(self) -> None:
        self.sys.show(Dialog("Log out of Evernote?", f"You are signed in as {ACCOUNT_NAME}.",
                             (("Cancel", None), ("Log out", self.logout)), package=PKG))

    def logout(self) -> None:
        s = self.app.state
        s.signed_in = False
        landing = LandingActivity(self.app)
        self.start(landing)
        for act in list(self.app.stack):
            if act is not landing:
                self.sys.finish(act)

    def build(self) -> View:
        s = self.app.state
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.finish), Text("Settings", size=22, h=64,
                                                                              rid=ID + "toolbar_title"),
                h=64, rid=ID + "toolbar"),
            Scroll(
                _header("Account"),
                Row(Icon("person", w=40, h=40, radius=20, bg=TONAL),
                    Column(Text(ACCOUNT_NAME, size=16, rid=ID + "settings_account_name"),
                           Text(ACCOUNT_EMAIL, size=14, style="muted", rid=ID + "settings_account_email")),
                    h=64, gap=12, pad=(16, 8, 16, 0)),
                _pref("Account info", "Evernote Free"),
                _header("Preferences"),
                _pref("Theme", s.theme, partial(self.choose, "theme", "Theme", THEMES)),
                _pref("Create button", s.create_button,
                      partial(self.choose, "create_button", "Create button", CREATE_BUTTONS)),
                _pref("Camera", "Photos and document scanning", partial(self.page, "camera")),
                _pref("Notifications", "Reminders and shared notes"),
                _pref("Sync", "Sync status and options", partial(self.page, "sync")),
                _header("Help"),
                _pref("Help & Learning"),
                _pref("Legal"),
                Row(Text(f"Log out {ACCOUNT_NAME}", size=16, fg=(200, 40, 40), rid=ID + "logout"), h=56,
                    pad=(16, 0, 16, 0), on_click=self.confirm_logout, desc="Log out"),
                Spacer(h=24),
                key="settings", rid=ID + "settings_list"),
        )


class Choice(Dialog):
    """A single-choice dialog (Theme, Create button)."""

    def __init__(self, state, attr: str, title: str, options: tuple[str, ...]) -> None:
        super().__init__(title, "", (("Cancel", None),), package=PKG)
        self.state, self.attr, self.options = state, attr, options

    def pick(self, value: str) -> None:
        setattr(self.state, self.attr, value)
        self.close()

    def build(self) -> View:
        current = getattr(self.state, self.attr)
        return Column(
            Text(self.title, size=22, rid="android:id/alertTitle"),
            *[Row(Icon("radio_on" if v == current else "radio_off", h=40, w=40),
                  Text(v, size=16, rid="android:id/text1"), h=48, gap=12, cls="android.widget.CheckedTextView",
                  checkable=True, checked=v == current, on_click=partial(self.pick, v)) for v in self.options],
            Row(Spacer(), Button("Cancel", self.close, style="text", w=96, rid="android:id/button2"), h=52),
            pad=(24, 20, 16, 8), gap=4, w=312, align="center", style="dialog", radius=28,
            rid="android:id/parentPanel",
        )


class SettingsPage(Activity):
    """A settings sub-page: Camera (switches) or Sync ("Sync now")."""

    name = "com.evernote.ui.EvernotePreferenceActivity"

    def __init__(self, app, which: str) -> None:
        super().__init__(app)
        self.which = which

    def inputs(self) -> tuple:
        s = self.app.state
        return self.which, s.save_photos, s.scan_documents, s.wifi_only_sync, s.last_sync

    def toggle(self, attr: str) -> None:
        setattr(self.app.state, attr, not getattr(self.app.state, attr))

    def sync_now(self) -> None:
        s = self.app.state
        s.syncs += 1
        s.last_sync = "Just now"
        self.sys.toast("Sync complete")

    def switch(self, title: str, summary: str, attr: str) -> View:
        on = getattr(self.app.state, attr)
        return Row(Column(Text(title, size=16, rid="android:id/title"),
                          Text(summary, size=14, style="muted", rid="android:id/summary", lines=2)),
                   Switch(on, partial(self.toggle, attr), desc=title, rid="android:id/switch_widget"),
                   h=96, gap=8, pad=(16, 8, 16, 8), on_click=partial(self.toggle, attr))

    def build(self) -> View:
        s = self.app.state
        if self.which == "camera":
            title = "Camera"
            rows = [self.switch("Save photos in photo gallery", "Keep a copy of photos you take in Evernote",
                                "save_photos"),
                    self.switch("Automatically detect documents", "Find the edges of documents as you scan",
                                "scan_documents")]
        else:
            title = "Sync"
            rows = [Row(Text(f"Last synced: {s.last_sync}", size=16, rid=ID + "last_sync_time"), h=56,
                        pad=(16, 0, 16, 0)),
                    Row(Button("Sync now", self.sync_now, style="filled", w=160, rid=ID + "sync_now"), Spacer(),
                        h=64, pad=(16, 8, 16, 8)),
                    self.switch("Sync on Wi-Fi only", "Save mobile data", "wifi_only_sync")]
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.finish), Text(title, size=22, h=64,
                                                                              rid=ID + "toolbar_title"),
                h=64, rid=ID + "toolbar"),
            Scroll(*rows, key="page", rid=ID + "settings_list"),
        )


class LandingActivity(Activity):
    """The signed-out landing screen: "Sign up for free" and "Log in"."""

    name = "com.evernote.ui.landing.LandingActivity"

    def inputs(self) -> tuple:
        return (self.app.state.signed_in,)

    def log_in(self) -> None:
        self.sys.toast("Enter your email on the next screen")

    def build(self) -> View:
        return Column(
            Spacer(h=96),
            Icon("edit", h=72, w=72, align="center", bg=GREEN, fg=(255, 255, 255), radius=36),
            Text("Evernote", size=28, bold=True, align="center", rid=ID + "landing_title"),
            Text("Remember everything. Capture ideas, organize notes and tasks, all in one place.", size=16,
                 lines=3, align="center", style="muted", rid=ID + "landing_subtitle"),
            Spacer(fill=True),
            Button("Sign up for free", self.log_in, style="filled", rid=ID + "sign_up_button"),
            Button("Log in", self.log_in, style="outlined", rid=ID + "login_button"),
            Spacer(h=24),
            pad=(24, 0, 24, 0), gap=12,
        )


# ------------------------------------------------------------------ popups

class UpgradeNudge(Dialog):
    """The Personal plan upsell."""

    def __init__(self) -> None:
        super().__init__("Try Evernote Personal", "Sync unlimited devices and work offline. "
                         "Free for 14 days.", (("Not now", None), ("Try it free", None)), package=PKG)
