"""The simulated Evernote, driven like an agent would: taps on dump nodes, typing, BACK;
oracles read `app_state("evernote")`. Also the crawler and retained-mode checks the
shared suites run for the other modelled apps."""

from __future__ import annotations

from functools import partial

import pytest
from phone import EVERY_PROFILE, find, launch, node, popup_texts, swipe_up, tap, texts
from test_sim_screens import crawl

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.apps import DEFAULT_INSTALLED, resolve_package

PKG = "com.evernote"
ID = PKG + ":id/"
HOME = f"{PKG}/{PKG}.ui.HomeActivity"
EDITOR = f"{PKG}/{PKG}.note.composer.NewNoteActivity"
TEMPLATES = f"{PKG}/{PKG}.ui.templates.TemplateGalleryActivity"
CUSTOMIZE = f"{PKG}/{PKG}.ui.home.CustomizeHomeActivity"
SETTINGS = f"{PKG}/{PKG}.ui.EvernotePreferenceActivity"
LANDING = f"{PKG}/{PKG}.ui.landing.LandingActivity"
WIDGETS = ("Notes", "Recently Captured", "Scratch Pad", "Pinned Note", "My Tasks", "Calendar", "Notebooks",
           "Tags", "Shortcuts")


evernote = partial(launch, "evernote")


def state(phone: SimulatedDevice):
    return phone.app_state("evernote")


def open_settings(phone: SimulatedDevice) -> None:
    tap(phone, content_desc="Open sidebar")
    tap(phone, text="Settings", resource_id=ID + "sidebar_item_title")


def test_installed_on_a_fresh_phone_and_opens_from_the_drawer() -> None:
    assert PKG in DEFAULT_INSTALLED and resolve_package("Evernote") == PKG
    phone = SimulatedDevice(seed=0, dynamics="none")
    phone.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    tap(phone, text="Evernote", resource_id="com.google.android.apps.nexuslauncher:id/icon")
    assert phone.foreground_activity() == HOME and state(phone).opened
    assert [n.text for n in find(phone, resource_id=ID + "widget_title")] == [w.upper() for w in WIDGETS[:4]]
    assert node(phone, resource_id=ID + "home_greeting").text == "Welcome back, agentian"


def test_create_a_note_with_a_title_and_text() -> None:
    phone = evernote()
    tap(phone, content_desc="Create new note")
    assert phone.foreground_activity() == EDITOR and phone.runtime.keyboard
    assert node(phone, resource_id=ID + "note_title_edit").text == "Title"  # the hint: a new note
    phone.perform(Action.type_text("Shopping"))
    tap(phone, resource_id=ID + "note_body_edit")
    phone.perform(Action.type_text("apples and pears"))
    phone.perform(Action.back())  # hides the keyboard
    phone.perform(Action.back())  # saves and closes
    s = state(phone)
    assert phone.foreground_activity() == HOME and list(s.created) == [6]
    assert s.notes[0].title == "Shopping" and s.notes[0].blocks[0].text == "apples and pears"
    tap(phone, content_desc="Notes", resource_id=ID + "bottom_nav_notes")
    assert find(phone, resource_id=ID + "note_title")[0].text == "Shopping"
    assert node(phone, resource_id=ID + "notes_count").text == "6 notes"


def test_insert_and_tick_a_checkbox() -> None:
    phone = evernote()
    tap(phone, content_desc="Notes", resource_id=ID + "bottom_nav_notes")
    tap(phone, text="Trip to Lisbon")
    assert not find(phone, resource_id=ID + "note_checkbox")
    tap(phone, content_desc="Checkbox", resource_id=ID + "toolbar_checkbox")
    box = node(phone, resource_id=ID + "note_checkbox")
    assert not box.flags["checked"]
    phone.perform(Action.click_center(box.bounds, phone.screen_size))
    assert node(phone, resource_id=ID + "note_checkbox").flags["checked"]
    note = next(n for n in state(phone).notes if n.title == "Trip to Lisbon")
    assert [(b.kind, b.checked) for b in note.checkboxes()] == [("check", True)]


def test_to_do_list_template_in_the_first_note() -> None:
    phone = evernote()
    tap(phone, content_desc="Notes", resource_id=ID + "bottom_nav_notes")
    tap(phone, resource_id=ID + "note_title")
    tap(phone, content_desc="Insert")
    tap(phone, text="Template")
    assert phone.foreground_activity() == TEMPLATES
    tap(phone, text="To-Do List")
    assert node(phone, resource_id=ID + "template_preview_title").text == "To-Do List"
    tap(phone, text="Use template")
    assert phone.foreground_activity() == EDITOR
    assert [n.text for n in find(phone, resource_id=ID + "note_heading")] == ["Priority", "Later"]
    first = state(phone).notes[0]
    assert first.title == "Grocery list" and first.template == "To-Do List" and len(first.checkboxes()) == 3


def test_available_offline_and_move_to_trash_with_undo() -> None:
    phone = evernote()
    tap(phone, content_desc="Notes", resource_id=ID + "bottom_nav_notes")
    tap(phone, text="Grocery list")
    tap(phone, content_desc="More actions")
    switch = node(phone, resource_id=ID + "offline_switch")
    assert not switch.flags["checked"]
    tap(phone, text="Available offline")
    assert node(phone, resource_id=ID + "offline_switch").flags["checked"] and state(phone).notes[0].offline
    tap(phone, content_desc="Move to Trash")
    assert node(phone, resource_id="android:id/alertTitle").text == "Move note to Trash?"
    tap(phone, text="Cancel")
    assert not state(phone).trashed and phone.foreground_activity() == EDITOR
    tap(phone, content_desc="More actions")
    tap(phone, content_desc="Move to Trash")
    tap(phone, text="Move to Trash", resource_id="android:id/button1")
    assert phone.foreground_activity() == HOME and list(state(phone).trashed) == [1]
    assert node(phone, resource_id=ID + "snackbar_text").text == "Note moved to Trash"
    assert "Grocery list" not in texts(phone) and node(phone, resource_id=ID + "notes_count").text == "4 notes"
    tap(phone, text="Undo")
    assert not state(phone).trashed and "Grocery list" in texts(phone)
    assert not find(phone, resource_id=ID + "snackbar_text")


@pytest.mark.parametrize("profile", EVERY_PROFILE)
def test_customize_home_lists_every_widget_without_scrolling(profile: str) -> None:
    phone = evernote(profile=profile)
    tap(phone, text="Customize")
    assert phone.foreground_activity() == CUSTOMIZE and "customize" in state(phone).visited
    names = [n.text for n in find(phone, resource_id=ID + "current_widget_name")]
    adds = [n.text for n in find(phone, resource_id=ID + "available_widget_name")]
    assert names == list(WIDGETS[:4]) and adds == list(WIDGETS[4:])
    swipe_up(phone)
    assert [n.text for n in find(phone, resource_id=ID + "available_widget_name")] == list(WIDGETS[4:])


def test_customize_add_remove_reorder_and_background_apply_to_home() -> None:
    phone = evernote()
    tap(phone, text="Customize")
    first_up = node(phone, content_desc="Move Notes up")
    assert not first_up.flags["enabled"] and first_up.clickable_target is None
    tap(phone, content_desc="Add My Tasks")
    tap(phone, content_desc="Remove Notes")
    tap(phone, content_desc="Move Recently Captured down")
    tap(phone, content_desc="Move My Tasks up")
    assert list(state(phone).widgets) == ["Scratch Pad", "Recently Captured", "My Tasks", "Pinned Note"]
    assert not node(phone, content_desc="Move Scratch Pad up").flags["enabled"]
    assert "Notes" in [n.text for n in find(phone, resource_id=ID + "available_widget_name")]
    tap(phone, resource_id=ID + "background_row")
    tap(phone, text="Ocean")
    assert state(phone).background == "Ocean" and node(phone, resource_id=ID + "background_name").text == "Ocean"
    for name in ("Scratch Pad", "Recently Captured", "My Tasks"):  # one widget always stays
        tap(phone, content_desc=f"Remove {name}")
    assert list(state(phone).widgets) == ["Pinned Note"]
    assert node(phone, content_desc="Remove Pinned Note").clickable_target is None
    tap(phone, text="Done")
    assert phone.foreground_activity() == HOME
    assert [n.text for n in find(phone, resource_id=ID + "widget_title")] == ["PINNED NOTE"]
    assert node(phone, resource_id=ID + "home_background").text == "Background: Ocean"


def test_pages_and_sidebar() -> None:
    phone = evernote(tasks=[{"title": "File taxes", "due": "Apr 15"}])
    tap(phone, content_desc="Tasks", resource_id=ID + "bottom_nav_tasks")
    assert node(phone, resource_id=ID + "toolbar_title").text == "Tasks"
    assert [n.text for n in find(phone, resource_id=ID + "task_title")][:2] == ["File taxes", "Renew gym membership"]
    tap(phone, content_desc="Mark as complete")
    assert state(phone).tasks[0].done and node(phone, resource_id=ID + "tasks_count").text == "3 open"
    phone.perform(Action.back())  # back to Home
    assert node(phone, resource_id=ID + "toolbar_title").text == "Home"
    tap(phone, content_desc="Open sidebar")
    assert node(phone, resource_id=ID + "account_name").text == "agentian"
    tap(phone, text="Tags", resource_id=ID + "sidebar_item_title")
    tags = [(n.text, c.text) for n, c in zip(find(phone, resource_id=ID + "tag_name"),
                                              find(phone, resource_id=ID + "tag_count"))]
    assert tags == [("reading", "1"), ("recipes", "1"), ("shopping", "1"), ("travel", "1"), ("work", "1")]
    assert list(state(phone).visited) == ["home", "tasks", "home", "sidebar", "tags"]
    tap(phone, content_desc="Open sidebar")
    phone.perform(Action.back())  # closes the sidebar only
    assert not find(phone, resource_id=ID + "sidebar") and phone.foreground_activity() == HOME


def test_settings_theme_create_button_camera_and_sync() -> None:
    phone = evernote()
    open_settings(phone)
    assert phone.foreground_activity() == SETTINGS and "settings" in state(phone).visited
    tap(phone, text="Theme")
    tap(phone, text="Dark", resource_id="android:id/text1")
    assert state(phone).theme == "Dark" and "Dark" in texts(phone)
    tap(phone, text="Create button")
    tap(phone, text="Orbs")
    assert state(phone).create_button == "Orbs"
    tap(phone, text="Camera")
    tap(phone, content_desc="Save photos in photo gallery")
    assert state(phone).save_photos and node(phone, content_desc="Save photos in photo gallery").flags["checked"]
    phone.perform(Action.back())
    tap(phone, text="Sync")
    assert node(phone, resource_id=ID + "last_sync_time").text == "Last synced: 2 hours ago"
    tap(phone, text="Sync now")
    assert state(phone).syncs == 1 and node(phone, resource_id=ID + "last_sync_time").text == "Last synced: Just now"
    phone.perform(Action.back())
    phone.perform(Action.back())
    tap(phone, content_desc="Create new note")  # the orbs now
    assert phone.foreground_activity() == HOME and not state(phone).created
    tap(phone, text="Note", resource_id=ID + "orb_label")
    assert phone.foreground_activity() == EDITOR and len(state(phone).created) == 1


def test_log_out_asks_first_and_lands_signed_out() -> None:
    phone = evernote()
    open_settings(phone)
    for _ in range(4):
        if find(phone, resource_id=ID + "logout"):
            break
        swipe_up(phone)
    tap(phone, resource_id=ID + "logout")
    tap(phone, text="Cancel")
    assert state(phone).signed_in
    tap(phone, resource_id=ID + "logout")
    tap(phone, text="Log out", resource_id="android:id/button1")
    assert not state(phone).signed_in and phone.foreground_activity() == LANDING
    assert node(phone, resource_id=ID + "login_button").text == "Log in"
    phone.perform(Action.back())  # leaves the app; it opens signed out again
    assert phone.foreground_activity() != LANDING
    phone.runtime.launch(PKG)
    assert phone.foreground_activity() == LANDING


POPUP_TITLES = ("Allow Evernote to send you notifications?", "What's new in Evernote", "Try Evernote Personal")


def test_default_dynamics_seed_content_and_popups() -> None:
    seen = set()
    for seed in range(6):
        s = state(evernote(seed=seed, dynamics="default"))
        seen.add((tuple(n.title for n in s.notes), tuple(t.title for t in s.tasks), s.last_sync))
        assert 3 <= len(s.notes) <= 7 and s.tasks and list(s.widgets) == list(WIDGETS[:4])
        assert not any(n.checkboxes() or n.offline or n.template for n in s.notes)
    assert len(seen) == 6
    popups = {}
    for seed in range(12):
        phone = evernote(seed=seed, dynamics="default")
        shown = popup_texts(phone, POPUP_TITLES)
        if shown:
            popups.setdefault(shown[0], seed)
            phone.perform(Action.back())  # BACK closes the popup, not the app
            assert phone.foreground_activity() == HOME
            for _ in range(3):  # the app opened again may show the next one
                phone.perform(Action.back())
                phone.runtime.launch(PKG)
                shown = popup_texts(phone, POPUP_TITLES)
                if shown:
                    popups.setdefault(shown[0], seed)
                    phone.perform(Action.back())
    assert set(popups) == set(POPUP_TITLES), popups


def test_setup_is_checked() -> None:
    with pytest.raises(SimulatorError, match="theme must be one of"):
        evernote(theme="Sepia")
    with pytest.raises(SimulatorError, match="Orbs"):
        evernote(create_button="Big")
    with pytest.raises(SimulatorError, match="widgets"):
        evernote(widgets=["Notes", "Weather"])
    with pytest.raises(SimulatorError, match="no field"):
        evernote(notes=[{"title": "a", "colour": "red"}])
    with pytest.raises(SimulatorError, match="notebook"):
        evernote(notes=[{"title": "a", "notebook": "Nope"}])
    with pytest.raises(SimulatorError, match="expects bool"):
        evernote(save_photos="yes")
    phone = evernote(seed=3, dynamics="default", notes=[{"title": "Packing", "body": ["# Bags", "[ ] socks"]}])
    first = state(phone).notes[0]
    assert first.title == "Packing" and [b.kind for b in first.blocks] == ["heading", "check"]
    assert first.id not in [n.id for n in state(phone).notes[1:]]


@pytest.mark.parametrize("profile", EVERY_PROFILE)
def test_reachable_screens_have_valid_dumps_on_every_profile(profile: str) -> None:
    assert len(crawl("evernote", seed=5, profile=profile, limit=12)) == 12


@pytest.mark.slow
@pytest.mark.parametrize("profile", EVERY_PROFILE)
def test_every_reachable_screen_has_a_valid_dump_and_the_crawl_is_deterministic(profile: str) -> None:
    screens = crawl("evernote", seed=5, profile=profile, limit=60)
    assert len(screens) >= 40
    assert crawl("evernote", seed=5, profile=profile, limit=12) == dict(list(screens.items())[:12])


@pytest.mark.slow
def test_every_reachable_screen_has_a_valid_dump_with_dynamics() -> None:
    crawl("evernote", dynamics="default", seed=11)
