"""Oracles of Google Tasks tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice


def _state(phone: SimulatedDevice):
    return phone.app_state("googletasks")


@oracle("googletasks.opened")
def _opened(phone: SimulatedDevice) -> bool:
    return _state(phone).opened


@oracle("googletasks.task2_created")
def _task2_created(phone: SimulatedDevice) -> bool:
    """A task titled "Task2" exists (in any list), not yet done."""
    return any(not t.completed for t in _state(phone).find("Task2"))


@oracle("googletasks.personal_list_added")
def _personal_list_added(phone: SimulatedDevice) -> bool:
    return _state(phone).list("Personal") is not None


@oracle("googletasks.account_menu_opened")
def _account_menu_opened(phone: SimulatedDevice) -> bool:
    """The account menu (the signed-in profile) was opened."""
    return "account" in _state(phone).visited


@oracle("googletasks.settings_opened")
def _settings_opened(phone: SimulatedDevice) -> bool:
    return "settings" in _state(phone).visited


@oracle("googletasks.sorted_by_date")
def _sorted_by_date(phone: SimulatedDevice) -> bool:
    """A list is sorted by date."""
    return any(lst.sort == "Date" for lst in _state(phone).lists)


@oracle("googletasks.starred_viewed")
def _starred_viewed(phone: SimulatedDevice) -> bool:
    return "starred" in _state(phone).visited


@oracle("googletasks.task2_starred")
def _task2_starred(phone: SimulatedDevice) -> bool:
    return any(t.starred for t in _state(phone).find("Task2"))


@oracle("googletasks.task2_completed")
def _task2_completed(phone: SimulatedDevice) -> bool:
    tasks = _state(phone).find("Task2")
    return bool(tasks) and all(t.completed for t in tasks)


@oracle("googletasks.test_list_deleted")
def _test_list_deleted(phone: SimulatedDevice) -> bool:
    s = _state(phone)
    return s.list("Test") is None and "Test" in s.deleted_lists
