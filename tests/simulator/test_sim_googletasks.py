"""The simulated Google Tasks, driven like an agent would: taps on dump nodes, typing,
BACK; oracles read `app_state("googletasks")`. Also the crawler and retained-mode checks
the shared suites run for the other modelled apps."""

from __future__ import annotations

from functools import partial

import pytest

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.apps import DEFAULT_INSTALLED, resolve_package
from phone import find, frames, launch, node, popup_texts, tap, texts
from test_sim_screens import crawl

PKG = "com.google.android.apps.tasks"
ID = PKG + ":id/"
MAIN = f"{PKG}/{PKG}.ui.TaskListsActivity"
SETTINGS = f"{PKG}/{PKG}.ui.settings.SettingsActivity"


tasks = partial(launch, "googletasks")


def state(phone: SimulatedDevice):
    return phone.app_state("googletasks")


def test_installed_on_a_fresh_phone_and_opens_from_the_drawer() -> None:
    assert PKG in DEFAULT_INSTALLED and resolve_package("Google Tasks") == PKG
    phone = SimulatedDevice(seed=0, dynamics="none")
    phone.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    tap(phone, text="Tasks", resource_id="com.google.android.apps.nexuslauncher:id/icon")
    assert phone.foreground_activity() == MAIN and state(phone).opened
    assert node(phone, content_desc="Create new task")
    assert [n.text for n in find(phone, resource_id=ID + "tab_title")] == ["My Tasks"]


def test_create_a_task_with_the_sheet_over_the_keyboard() -> None:
    phone = tasks()
    tap(phone, content_desc="Create new task")
    assert phone.runtime.keyboard
    field = node(phone, resource_id=ID + "add_task_title")
    assert field.text == "New task" and field.flags["focused"]
    tap(phone, resource_id=ID + "add_task_done")  # empty: nothing saved
    assert state(phone).lists[0].tasks == ()
    phone.perform(Action.type_text("Task2"))
    tap(phone, resource_id=ID + "add_task_done")
    assert [t.title for t in state(phone).lists[0].tasks] == ["Task2"]
    assert node(phone, text="Task2", resource_id=ID + "task_name")
    assert not find(phone, resource_id=ID + "add_task_title")


def test_back_closes_the_new_task_sheet() -> None:
    phone = tasks()
    tap(phone, content_desc="Create new task")
    phone.perform(Action.type_text("draft"))
    phone.perform(Action.back())  # hides the keyboard
    phone.perform(Action.back())  # closes the sheet
    assert not find(phone, resource_id=ID + "add_task_title")
    assert phone.foreground_activity() == MAIN and state(phone).lists[0].tasks == ()


def test_new_list_becomes_the_current_tab() -> None:
    phone = tasks()
    tap(phone, content_desc="New list")
    phone.perform(Action.type_text("Personal"))
    tap(phone, text="Done")
    assert [lst.name for lst in state(phone).lists] == ["My Tasks", "Personal"]
    assert state(phone).current == "Personal"
    assert node(phone, text="Personal", resource_id=ID + "tasks_list_title")
    assert node(phone, text="Personal", resource_id=ID + "tab_title").flags["selected"]


def test_star_complete_and_uncomplete_a_task() -> None:
    phone = tasks(lists=[{"name": "My Tasks", "tasks": ["Task1", "Task2"]}])
    row = node(phone, content_desc="Task2")
    star = [n for n in find(phone, content_desc="Add star") if row in n.ancestors()][0]
    phone.perform(Action.click_center(star.bounds, phone.screen_size))
    assert state(phone).find("Task2")[0].starred and node(phone, content_desc="Task2, starred")
    box = [n for n in find(phone, content_desc="Mark as complete")
           if node(phone, content_desc="Task2, starred") in n.ancestors()][0]
    phone.perform(Action.click_center(box.bounds, phone.screen_size))
    assert state(phone).find("Task2")[0].completed
    assert "Task2" not in texts(phone) and "Completed (1)" in texts(phone)
    tap(phone, text="Completed (1)")
    tap(phone, content_desc="Mark as incomplete")
    assert not state(phone).find("Task2")[0].completed


def test_starred_tab_lists_starred_tasks_of_every_list() -> None:
    phone = tasks(lists=[{"name": "My Tasks", "tasks": [{"title": "Call mom", "starred": True}, "Plain"]},
                         {"name": "Work", "tasks": [{"title": "Report", "starred": True}]}])
    tap(phone, content_desc="Starred")
    assert list(state(phone).visited) == ["starred"]
    assert [n.text for n in find(phone, resource_id=ID + "task_name")] == ["Call mom", "Report"]
    assert [n.text for n in find(phone, resource_id=ID + "task_list_name")] == ["My Tasks", "Work"]


def test_sort_by_date_orders_dated_tasks_first() -> None:
    phone = tasks(lists=[{"name": "My Tasks", "tasks": [{"title": "Later", "due": "Dec 2"}, "Undated",
                                                        {"title": "Soon", "due": "Fri, Nov 25"}]}])
    assert [n.text for n in find(phone, resource_id=ID + "task_name")] == ["Later", "Undated", "Soon"]
    tap(phone, content_desc="List options")
    tap(phone, text="Date")
    assert state(phone).lists[0].sort == "Date"
    assert [n.text for n in find(phone, resource_id=ID + "task_name")] == ["Soon", "Later", "Undated"]
    assert node(phone, resource_id=ID + "sort_label").text == "Sorted by date"


def test_delete_list_asks_first_and_the_default_list_cannot_be_deleted() -> None:
    phone = tasks(lists=[{"name": "Test", "tasks": ["Draft report"]}])
    tap(phone, content_desc="List options")
    assert node(phone, text="Delete list").clickable_target is None
    phone.perform(Action.back())
    tap(phone, text="Test", resource_id=ID + "tab_title")
    tap(phone, content_desc="List options")
    tap(phone, text="Delete list")
    assert node(phone, resource_id="android:id/alertTitle").text == "Delete this list?"
    tap(phone, text="Cancel")
    assert state(phone).list("Test") is not None
    tap(phone, content_desc="List options")
    tap(phone, text="Delete list")
    tap(phone, text="Delete")
    assert state(phone).list("Test") is None and list(state(phone).deleted_lists) == ["Test"]
    assert state(phone).current == "My Tasks" and phone.runtime.toast_text == "List deleted"


def test_account_menu_and_settings() -> None:
    phone = tasks()
    tap(phone, resource_id=ID + "og_apd_internal_image_view")
    assert node(phone, resource_id=ID + "og_primary_account_email").text.endswith("@gmail.com")
    tap(phone, text="Settings")
    assert phone.foreground_activity() == SETTINGS and list(state(phone).visited) == ["account", "settings"]
    tap(phone, text="Add new items to the bottom")
    assert state(phone).new_at_bottom
    phone.perform(Action.back())
    assert phone.foreground_activity() == MAIN


def test_task_details_edit_and_delete() -> None:
    phone = tasks(lists=[{"name": "My Tasks", "tasks": ["Task1"]}])
    tap(phone, text="Task1", resource_id=ID + "task_name")
    assert node(phone, resource_id=ID + "task_list_name").text == "My Tasks"
    tap(phone, text="Mark completed")
    assert state(phone).find("Task1")[0].completed and phone.foreground_activity() == MAIN
    tap(phone, text="Completed (1)")
    tap(phone, text="Task1", resource_id=ID + "task_name")
    tap(phone, content_desc="Delete")
    assert not state(phone).find("Task1")


def test_default_dynamics_seed_content_and_popups() -> None:
    seen = set()
    for seed in range(6):
        phone = tasks(seed=seed, dynamics="default")
        s = state(phone)
        seen.add(tuple((lst.name, tuple(t.title for t in lst.tasks)) for lst in s.lists))
        assert s.lists[0].name == "My Tasks" and not s.find("Task2")
    assert len(seen) > 3
    popups = {}
    for seed in range(12):
        phone = tasks(seed=seed, dynamics="default")
        shown = popup_texts(phone, POPUP_TITLES)
        if shown:
            popups.setdefault(shown[0], seed)
            phone.perform(Action.back())  # BACK closes the popup, not the app
            assert phone.foreground_activity() == MAIN
            assert not popup_texts(phone, POPUP_TITLES)
            for _ in range(3):  # the app opened again may show the next one
                phone.perform(Action.back())  # leaves the app: its activity finishes
                phone.runtime.launch(PKG)
                shown = popup_texts(phone, POPUP_TITLES)
                if shown:
                    popups.setdefault(shown[0], seed)
    assert set(popups) == set(POPUP_TITLES), popups


POPUP_TITLES = ("Allow Tasks to send you notifications?", "What's new in Tasks")


def test_setup_is_checked() -> None:
    with pytest.raises(SimulatorError, match="sort"):
        tasks(lists=[{"name": "X", "sort": "Size"}])
    with pytest.raises(SimulatorError, match="no field"):
        tasks(lists=[{"name": "X", "tasks": [{"title": "a", "colour": "red"}]}])
    with pytest.raises(SimulatorError, match="current"):
        tasks(current="Nope")
    phone = tasks(seed=3, dynamics="default", lists=[{"name": "My Tasks", "tasks": ["Task2"]}])
    assert state(phone).lists[0].tasks[0].title == "Task2"  # added to the seeded tasks


def test_every_reachable_screen_has_a_valid_dump() -> None:
    assert len(crawl("googletasks")) >= 10


@pytest.mark.slow
def test_every_reachable_screen_has_a_valid_dump_with_dynamics() -> None:
    crawl("googletasks", dynamics="default", seed=11)


@pytest.mark.parametrize("profile", ["pixel-6", "pixel-3", "budget-720p"])
def test_screens_are_deterministic_on_every_profile(profile: str) -> None:
    def run() -> list:
        phone = tasks(seed=2, dynamics="default", profile=profile, lists=[{"name": "Test", "tasks": ["Task2"]}])
        return frames(phone, (Action.back(), Action.back(), Action.click(0.5, 0.3), Action.back(),
                              Action.click(0.9, 0.9), Action.type_text("x"), Action.back()))
    assert run() == run()
