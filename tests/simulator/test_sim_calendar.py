"""The simulated Google Calendar, driven like an agent would: taps on dump nodes, typing,
swipes, BACK; oracles read `app_state("calendar")`. Also setup validation, seeded content
and popups, and the crawl of every reachable screen at every profile (the retained walk
against the full rebuild runs for every modelled app in test_sim_retained.py)."""

from __future__ import annotations

from datetime import date

import pytest
from phone import EVERY_PROFILE, check_dump, node, swipe_up, tap, texts
from test_sim_retained import assert_same_walk
from test_sim_screens import crawl

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.apps import DEFAULT_INSTALLED, FACTORIES, resolve_package
from mobile_gym.simulator.apps.calendar import GoogleCalendar
from mobile_gym.simulator.apps.calendar.model import week_range
from mobile_gym.simulator.catalogue import PREINSTALLED
from mobile_gym.simulator.profiles import PROFILES
from mobile_gym.tasks.oracles import ORACLES

PKG = "com.google.android.calendar"
ID = PKG + ":id/"
MAIN = f"{PKG}/com.android.calendar.AllInOneActivity"
SEARCH = f"{PKG}/com.google.android.calendar.SearchActivity"
SETTINGS = f"{PKG}/com.google.android.calendar.settings.SettingsActivity"
DRAWER = "Show Calendar List and Settings drawer"
LAUNCHER_ICON = "com.google.android.apps.nexuslauncher:id/icon"


def calendar(seed: int = 0, dynamics: str = "none", profile: str = "pixel-6", **state) -> SimulatedDevice:
    setup = {"launch": "calendar", "apps": {"calendar": state}} if state else {"launch": "calendar"}
    return SimulatedDevice(profile, seed=seed, dynamics=dynamics, setup=setup)


def state(phone: SimulatedDevice):
    return phone.app_state("calendar")


def find(phone: SimulatedDevice, **attrs):
    return phone.observe(screenshot=False).hierarchy.find_all(**attrs)


def descs(phone: SimulatedDevice, rid: str) -> list[str]:
    return [n.content_desc for n in find(phone, resource_id=ID + rid)]


def view(phone: SimulatedDevice, label: str) -> None:
    tap(phone, content_desc=DRAWER)
    tap(phone, text=label, resource_id=ID + "drawer_item_title")


def oracle(name: str, phone: SimulatedDevice) -> bool:
    return ORACLES["calendar." + name](phone)


def test_replaces_the_placeholder_and_opens_from_the_drawer_on_today() -> None:
    assert PKG in DEFAULT_INSTALLED and FACTORIES[PKG] is GoogleCalendar and resolve_package("Google Calendar") == PKG
    assert PKG not in {p.package for p in PREINSTALLED}
    phone = SimulatedDevice(seed=0, dynamics="none")
    assert "Saturday, Nov 21" in texts(phone)  # the launcher's date is the calendar's today
    phone.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    tap(phone, text="Calendar", resource_id=LAUNCHER_ICON)
    assert phone.foreground_activity() == MAIN
    assert node(phone, resource_id=ID + "date_picker_text_view").text == "November"
    assert node(phone, resource_id=ID + "action_today").text == "21"
    headers = descs(phone, "date_header")
    assert headers[:3] == ["Saturday, November 21", "Sunday, November 22", "Monday, November 23"]
    assert node(phone, resource_id=ID + "week_header").text == week_range(date(2026, 11, 22)) == "Nov 22 – 28"
    s = state(phone)
    assert s.opened and s.view == "schedule" and tuple(s.showing)[:2] == ("schedule", "2026-11-21")
    assert oracle("today_shown", phone) and oracle("tomorrow_shown", phone)
    assert not oracle("this_week_shown", phone) and not oracle("rest_of_month_shown", phone)
    with pytest.raises(AttributeError):
        s.view = "month"  # read-only for oracles


def test_the_drawer_switches_views_and_each_shows_its_days() -> None:
    phone = calendar()
    view(phone, "Week")
    assert descs(phone, "day_header") == [f"{d}, November {n}" for d, n in zip(
        ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"), range(15, 22))]
    assert oracle("this_week_shown", phone) and list(state(phone).visited) == ["drawer", "week"]
    view(phone, "3 days")
    assert descs(phone, "day_header") == ["Saturday, November 21", "Sunday, November 22", "Monday, November 23"]
    view(phone, "Day")
    assert descs(phone, "day_header") == ["Saturday, November 21"]
    assert "Farmers market, 9:00 – 10:00 AM" in descs(phone, "event_chip")
    view(phone, "Month")
    cells = descs(phone, "month_day")
    assert cells[0] == "Sunday, November 1" and cells[-1] == "Saturday, December 5" and len(cells) == 35
    assert oracle("rest_of_month_shown", phone)
    assert node(phone, resource_id=ID + "date_picker_button").clickable is False  # no dropdown in Month


def test_swipes_move_each_view() -> None:
    phone = calendar(view="week")
    phone.perform(Action.swipe(0.8, 0.15, 0.2, 0.15))  # sideways on the week: the next one
    assert descs(phone, "day_header")[0] == "Sunday, November 22"
    phone.perform(Action.swipe(0.2, 0.15, 0.8, 0.15))
    phone.perform(Action.swipe(0.2, 0.15, 0.8, 0.15))
    assert descs(phone, "day_header")[0] == "Sunday, November 8"
    tap(phone, content_desc="Jump to Today")
    assert descs(phone, "day_header")[0] == "Sunday, November 15"
    view(phone, "Month")
    swipe_up(phone)
    assert node(phone, resource_id=ID + "date_picker_text_view").text == "December"
    assert tuple(state(phone).showing) == ("month", "2026-12-01", "2026-12-31")
    for _ in range(2):
        swipe_up(phone)
    assert node(phone, resource_id=ID + "date_picker_text_view").text == "February 2027"


def test_the_schedule_scrolls_by_whole_rows_and_says_what_it_shows() -> None:
    phone = calendar(profile="budget-720p")
    first = tuple(state(phone).showing)
    swipe_up(phone)
    after = tuple(state(phone).showing)
    assert after[1] > first[1] and after[2] >= first[2]
    assert "Saturday, November 21" not in descs(phone, "date_header")
    for _ in range(3):
        swipe_up(phone)
    assert "December" in texts(phone)  # the month's banner
    for _ in range(8):
        phone.perform(Action.swipe(0.5, 0.3, 0.5, 0.7))
    assert descs(phone, "date_header")[0] < "Saturday, November 21" or state(phone).showing[1] < "2026-11-21"
    tap(phone, content_desc="Jump to Today")
    assert descs(phone, "date_header")[0] == "Saturday, November 21"
    # every row on screen is whole: the oracles' span is what the dump shows
    for n in find(phone, resource_id=ID + "date_header"):
        assert n.bounds.bottom - n.bounds.top > 50


def test_month_day_opens_its_day_and_the_third_week_of_next_month() -> None:
    phone = calendar()
    view(phone, "Month")
    swipe_up(phone)
    tap(phone, content_desc="Sunday, December 13", resource_id=ID + "month_day")
    assert tuple(state(phone).showing) == ("day", "2026-12-13", "2026-12-13")
    view(phone, "Week")
    assert descs(phone, "day_header")[-1] == "Saturday, December 19"
    assert oracle("third_week_next_month_shown", phone)


def test_the_month_dropdown_jumps_to_a_date() -> None:
    phone = calendar(view="day")
    tap(phone, resource_id=ID + "date_picker_button")
    assert len(find(phone, resource_id=ID + "mini_month_day")) == 30
    phone.perform(Action.swipe(0.8, 0.25, 0.2, 0.25))  # the dropdown turns to December
    tap(phone, content_desc="Friday, December 25", resource_id=ID + "mini_month_day")
    assert not find(phone, resource_id=ID + "mini_month_day")
    assert descs(phone, "day_header") == ["Friday, December 25"] and "Christmas Day" in texts(phone)
    tap(phone, resource_id=ID + "date_picker_button")
    phone.perform(Action.back())  # BACK closes the dropdown, not the app
    assert phone.foreground_activity() == MAIN and not find(phone, resource_id=ID + "mini_month_day")


def test_create_an_event_on_friday_with_the_date_picker() -> None:
    phone = calendar()
    tap(phone, content_desc="Create new event")
    tap(phone, text="Event")
    assert phone.runtime.keyboard and node(phone, resource_id=ID + "title").flags["focused"]
    phone.perform(Action.type_text("Haircut"))
    tap(phone, resource_id=ID + "start_date")
    tap(phone, content_desc="Change to next month")
    assert node(phone, resource_id=ID + "month_navigation_fragment_toggle").text == "December 2026"
    tap(phone, content_desc="Change to previous month")
    tap(phone, text="27", resource_id=ID + "date_picker_day")
    assert node(phone, resource_id=ID + "mtrl_picker_header_selection_text").text == "Fri, Nov 27"
    tap(phone, text="OK")
    assert node(phone, resource_id=ID + "start_date").text == "Fri, Nov 27, 2026"
    assert node(phone, resource_id=ID + "end_date").text == "Fri, Nov 27, 2026"  # the end moves with it
    tap(phone, resource_id=ID + "start_time")
    phone.perform(Action.swipe(0.5, 0.6, 0.5, 0.4))  # the list of times scrolls
    tap(phone, text="2:30 PM")
    assert node(phone, resource_id=ID + "end_time").text == "3:30 PM"  # the length is kept
    assert not oracle("haircut_on_friday", phone)
    tap(phone, text="Save")
    e, = state(phone).created()
    assert (e.title, e.date, e.start, e.end, e.repeat) == ("Haircut", "2026-11-27", 870, 930, "none")
    assert oracle("haircut_on_friday", phone) and phone.foreground_activity() == MAIN
    assert descs(phone, "date_header")[0] == "Friday, November 27"  # the Schedule shows it
    assert "Haircut, 2:30 – 3:30 PM" in descs(phone, "event_chip")


def test_a_daily_task_and_an_all_day_event() -> None:
    phone = calendar()
    tap(phone, content_desc="Create new event")
    tap(phone, text="Task")
    phone.perform(Action.type_text("drink Water"))
    assert not find(phone, resource_id=ID + "end_date")  # a task has one date
    tap(phone, resource_id=ID + "recurrence_row")
    assert [n.text for n in find(phone, resource_id="android:id/text1")][:3] == [
        "Does not repeat", "Every day", "Every week on Saturday"]
    tap(phone, text="Every day")
    assert node(phone, resource_id=ID + "recurrence").text == "Every day"
    tap(phone, text="Save")
    assert oracle("daily_water_reminder", phone)
    assert state(phone).created()[0].kind == "task"
    tap(phone, content_desc="Create new event")
    tap(phone, text="Event")
    tap(phone, resource_id=ID + "all_day")
    assert not find(phone, resource_id=ID + "start_time")
    tap(phone, text="Save")  # no title: "(No title)", as the real app saves it
    assert [e.title for e in state(phone).created()] == ["drink Water", "(No title)"]
    assert state(phone).created()[1].all_day


def test_back_from_a_changed_editor_asks_to_discard() -> None:
    phone = calendar()
    tap(phone, content_desc="Create new event")
    tap(phone, text="Event")
    phone.perform(Action.back())  # hides the keyboard
    phone.perform(Action.back())  # nothing typed: closes
    assert phone.foreground_activity() == MAIN and not find(phone, resource_id=ID + "title")
    tap(phone, content_desc="Create new event")
    tap(phone, text="Event")
    phone.perform(Action.type_text("Draft"))
    tap(phone, content_desc="Close")
    assert node(phone, resource_id="android:id/alertTitle").text == "Discard this event?"
    tap(phone, text="Keep editing")
    assert node(phone, resource_id=ID + "title").text == "Draft"
    tap(phone, content_desc="Close")
    tap(phone, text="Discard")
    assert not state(phone).created() and phone.foreground_activity() == MAIN


def test_event_details_edit_and_delete_one_of_a_series() -> None:
    phone = calendar()
    view(phone, "Week")
    tap(phone, content_desc="Team sync, 10:00 – 10:30 AM")
    assert node(phone, resource_id=ID + "when_repeat").text == "Every week on Wednesday"
    assert node(phone, resource_id=ID + "when_datetime").text == "Wednesday, November 18 · 10:00 – 10:30 AM"
    tap(phone, content_desc="More options")
    tap(phone, text="Delete")
    assert node(phone, resource_id="android:id/alertTitle").text == "Delete recurring event"
    tap(phone, text="OK")  # "This event"
    e, = state(phone).find("Team sync")
    assert list(e.exceptions) == ["2026-11-18"] and phone.runtime.toast_text == "Event deleted"
    assert "Team sync, 10:00 – 10:30 AM" not in descs(phone, "event_chip")
    tap(phone, content_desc="Farmers market, 9:00 – 10:00 AM")
    tap(phone, content_desc="Edit event")
    assert node(phone, resource_id=ID + "title").text == "Farmers market"
    tap(phone, resource_id=ID + "recurrence_row")
    tap(phone, text="Every week on Saturday")
    tap(phone, text="Save")
    assert state(phone).find("Farmers market")[0].repeat == "weekly"
    assert not state(phone).created()  # edited, not made


def test_search_lists_matches_and_opens_them() -> None:
    phone = calendar()
    tap(phone, content_desc="Search")
    assert phone.foreground_activity() == SEARCH and phone.runtime.keyboard
    phone.perform(Action.type_text("yoga"))
    phone.perform(Action.enter())
    result = node(phone, resource_id=ID + "search_result")
    assert result.content_desc == "Yoga class, Thursday, November 26, 6:30 – 7:30 PM"  # the next one
    tap(phone, resource_id=ID + "search_result")
    assert node(phone, resource_id=ID + "title").text == "Yoga class"
    phone.perform(Action.back())
    phone.perform(Action.type_text("zzz"))
    assert list(state(phone).searches) == ["yoga"]


def test_hidden_calendars_and_settings() -> None:
    phone = calendar(view="month")
    assert "Thanksgiving Day +2" in texts(phone)
    tap(phone, content_desc=DRAWER)
    tap(phone, text="Holidays in United States")
    assert list(state(phone).hidden_calendars) == ["Holidays in United States"]
    tap(phone, content_desc="Close navigation drawer")
    assert "Thanksgiving Day +2" not in texts(phone)
    tap(phone, content_desc=DRAWER)
    tap(phone, text="Settings", resource_id=ID + "drawer_item_title")
    assert phone.foreground_activity() == SETTINGS
    tap(phone, text="Default event duration")
    tap(phone, text="30 minutes")
    assert state(phone).default_duration == 30
    phone.perform(Action.back())
    assert phone.foreground_activity() == MAIN


def test_setup_is_checked() -> None:
    phone = calendar(events=[{"title": "Haircut", "date": "2026-11-27", "start": 600, "end": 660}], view="day",
                     anchor="2026-11-27")
    assert [e.title for e in state(phone).events] == ["Haircut"]
    assert descs(phone, "day_header") == ["Saturday, November 21"]  # the app opens on today
    for bad, problem in (({"view": "year"}, "view"), ({"events": [{"title": "x"}]}, "'date'"),
                         ({"events": [{"title": "x", "date": "Nov 27"}]}, "date like"),
                         ({"events": [{"title": "x", "date": "2026-11-27", "repeat": "hourly"}]}, "repeat"),
                         ({"events": [{"title": "x", "date": "2026-11-27", "colour": "red"}]}, "no field"),
                         ({"hidden_calendars": ["Work"]}, "hidden_calendars"), ({"default_duration": 7}, "duration"),
                         ({"nonsense": 1}, "no state field")):
        with pytest.raises(SimulatorError, match=problem):
            calendar(**bad)


def test_default_dynamics_vary_the_events_and_tomorrow_always_shows() -> None:
    seen = set()
    for seed in range(8):
        phone = calendar(seed=seed, dynamics="default")
        s = state(phone)
        seen.add(tuple((e.title, e.date, e.start) for e in s.events))
        assert s.on(date(2026, 11, 22)) and len(s.on(date(2026, 11, 21))) <= 3
        assert not s.created() and {e.title for e in s.events} >= {"Thanksgiving Day", "Christmas Day"}
    assert len(seen) == 8
    for profile in sorted(PROFILES):  # the app opens on today and tomorrow, whatever the seed
        for seed in range(12):
            phone = calendar(seed=seed, dynamics="default", profile=profile)
            assert oracle("today_shown", phone) and oracle("tomorrow_shown", phone), (profile, seed)
            assert "Sunday, November 22" in descs(phone, "date_header")


POPUP_TITLES = ("Google Calendar", "Allow Calendar to send you notifications?")


def test_default_dynamics_show_each_popup_once_and_back_dismisses_it() -> None:
    popups = {}
    for seed in range(16):
        phone = calendar(seed=seed, dynamics="default")
        for _ in range(3):
            roots = phone.observe(screenshot=False).hierarchy.roots
            shown = [n.text for r in roots[1:] for n in r.iter() if n.text in POPUP_TITLES]
            if not shown:
                break
            popups.setdefault(shown[0], seed)
            if shown[0] == "Google Calendar":
                tap(phone, text="Got it")
                assert state(phone).welcomed
            else:
                phone.perform(Action.back())
            assert phone.foreground_activity() == MAIN
            phone.perform(Action.back())  # leaves the app; opened again it may show the next one
            phone.runtime.launch(PKG)
    assert set(popups) == set(POPUP_TITLES), popups


@pytest.mark.parametrize("profile", EVERY_PROFILE)
def test_every_reachable_screen_has_a_valid_dump_at_every_profile(profile: str) -> None:
    screens = crawl("calendar", seed=5, profile=profile, limit=40)
    assert len(screens) >= 30
    assert crawl("calendar", seed=5, profile=profile, limit=8) == dict(list(screens.items())[:8])  # deterministic


def screens_of_every_flow(profile: str) -> list[tuple[str, str]]:
    """Each screen and dialog the crawl's breadth-first bound does not reach, by a walk
    through every flow: (activity, dump), each dump checked."""
    phone = calendar(seed=1, dynamics="default", profile=profile)
    seen = []

    def look() -> None:
        xml = phone.observe(screenshot_size=(90, 200)).xml
        check_dump(phone, xml)
        seen.append((phone.foreground_activity(), xml))

    for label in ("Task", "Event"):
        tap(phone, content_desc="Create new event")
        look()
        tap(phone, text=label)
        look()
        phone.perform(Action.type_text("Dentist"))
        for target in ("start_date", "start_time", "recurrence_row", "end_date", "end_time"):
            if find(phone, resource_id=ID + target):
                tap(phone, resource_id=ID + target)
                look()
                phone.perform(Action.back())
        tap(phone, resource_id=ID + "all_day")
        look()
        tap(phone, content_desc="Close")
        look()  # discard?
        tap(phone, text="Discard")
    tap(phone, resource_id=ID + "event_chip")
    look()
    tap(phone, content_desc="More options")
    look()
    tap(phone, text="Delete")
    look()
    phone.perform(Action.back())
    tap(phone, content_desc="Edit event")
    look()
    phone.perform(Action.back())
    tap(phone, content_desc="Search")
    phone.perform(Action.type_text("a"))
    phone.perform(Action.enter())
    look()
    phone.perform(Action.back())
    for label in ("Day", "3 days", "Week", "Month", "Schedule"):
        view(phone, label)
        if label != "Month":
            tap(phone, resource_id=ID + "date_picker_button")
        look()
    tap(phone, content_desc=DRAWER)
    tap(phone, text="Settings", resource_id=ID + "drawer_item_title")
    tap(phone, text="Default event duration")
    look()
    return seen


@pytest.mark.parametrize("profile", EVERY_PROFILE)
def test_every_flow_has_valid_deterministic_screens_at_every_profile(profile: str) -> None:
    screens = screens_of_every_flow(profile)
    assert len(screens) >= 25 and screens == screens_of_every_flow(profile)


@pytest.mark.slow
def test_every_reachable_screen_has_a_valid_dump_with_dynamics() -> None:
    crawl("calendar", dynamics="default", seed=5, limit=60)


@pytest.mark.parametrize("profile, seed", [("pixel-6", 4), pytest.param("budget-720p", 6, marks=pytest.mark.slow)])
def test_the_retained_walk_shows_what_the_full_rebuild_shows(profile: str, seed: int) -> None:
    assert_same_walk(PKG, 200, seed, profile)
