"""The simulated Google Clock, driven like an agent would: taps on dump nodes, typing,
BACK; oracles read `app_state("clock")`."""

from __future__ import annotations

import pickle

import pytest

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator import SimulatedDevice
from phone import check_dump, node, swipe_up, tap, texts

ID = "com.google.android.deskclock:id/"
MAIN = "com.google.android.deskclock/com.android.deskclock.DeskClock"
SETTINGS = "com.google.android.deskclock/com.android.deskclock.settings.SettingsActivity"
CITIES = "com.google.android.deskclock/com.android.deskclock.worldclock.CitySelectionActivity"


def clock(seed: int = 0, dynamics: str = "none", profile: str = "pixel-6", **state) -> SimulatedDevice:
    setup = {"launch": "clock", "apps": {"clock": state}} if state else {"launch": "clock"}
    return SimulatedDevice(profile, seed=seed, dynamics=dynamics, setup=setup)


def find(phone: SimulatedDevice, **attrs):
    return phone.observe(screenshot=False).hierarchy.find_all(**attrs)


def toast(phone: SimulatedDevice) -> str | None:
    return phone.runtime.toast_text


def state(phone: SimulatedDevice):
    return phone.app_state("clock")


def type_in(phone: SimulatedDevice, text: str) -> None:
    phone.perform(Action.type_text(text))


def back(phone: SimulatedDevice) -> None:
    phone.perform(Action.back())


def settings(phone: SimulatedDevice) -> None:
    tap(phone, content_desc="More options")
    tap(phone, text="Settings")
    assert phone.foreground_activity() == SETTINGS


def scroll_to(phone: SimulatedDevice, **attrs) -> None:
    for _ in range(6):
        if find(phone, **attrs):
            return
        swipe_up(phone)
    raise AssertionError(f"{attrs} not found while scrolling")


# ------------------------------------------------------------------ alarm list

def test_opens_on_alarm_tab_with_default_alarms():
    phone = clock()
    assert phone.foreground_activity() == MAIN
    assert node(phone, resource_id=ID + "tab_menu_alarm").flags["selected"]
    assert not node(phone, resource_id=ID + "tab_menu_clock").flags["selected"]
    times = [n.text for n in find(phone, resource_id=ID + "digital_clock")]
    assert times == ["8:30 AM", "9:00 AM"]
    assert [n.text for n in find(phone, resource_id=ID + "days_of_week")] == [
        "Mon, Tue, Wed, Thu, Fri", "Sun, Sat"]
    assert [n.checked for n in find(phone, resource_id=ID + "onoff")] == [False, False]
    alarms = state(phone).alarms
    assert [(a.hour, a.minute, a.enabled) for a in alarms] == [(8, 30, False), (9, 0, False)]
    assert node(phone, resource_id=ID + "fab").content_desc == "Add alarm"


def test_add_alarm_with_the_dial():
    phone = clock()
    tap(phone, content_desc="Add alarm")
    assert node(phone, resource_id=ID + "header_title").text == "Select time"
    assert node(phone, content_desc="7 o'clock").text == "7"
    tap(phone, text="7")
    assert node(phone, resource_id=ID + "material_hour_tv").text == "07"
    assert node(phone, content_desc="25 minutes").text == "25"  # the dial moved on to minutes
    tap(phone, text="25")
    tap(phone, text="PM")
    assert node(phone, resource_id=ID + "material_clock_period_pm_button").checked
    tap(phone, resource_id=ID + "material_timepicker_ok_button")  # at 10:00:20
    assert toast(phone) == "Alarm set for 9 hours and 24 minutes from now."
    new = state(phone).alarms[-1]
    assert (new.hour, new.minute, new.enabled, new.days, new.label) == (19, 25, True, (), "")
    assert "7:25 PM" in texts(phone)
    assert node(phone, resource_id=ID + "edit_label").text == "Add label"  # the new alarm is open
    assert node(phone, text="Today").resource_id == ID + "days_of_week"


def test_add_alarm_by_typing_the_time():
    phone = clock()
    tap(phone, content_desc="Add alarm")
    tap(phone, content_desc="Switch to text input mode for the time input.")
    assert node(phone, resource_id=ID + "header_title").text == "Enter time"
    tap(phone, resource_id=ID + "material_hour_text_input")
    type_in(phone, "13")
    tap(phone, resource_id=ID + "material_timepicker_ok_button")
    assert "Enter a valid time" in texts(phone)  # 13 is no 12-hour hour; the dialog stays
    assert len(state(phone).alarms) == 2
    tap(phone, resource_id=ID + "material_hour_text_input")
    type_in(phone, "12")
    tap(phone, resource_id=ID + "material_minute_text_input")
    type_in(phone, "04")
    phone.perform(Action.enter())  # ENTER is OK, at 10:00:35
    assert toast(phone) == "Alarm set for 14 hours and 3 minutes from now."
    new = state(phone).alarms[-1]
    assert (new.hour, new.minute, new.enabled) == (0, 4, True)
    assert "12:04 AM" in texts(phone)


def test_cancel_and_back_leave_the_alarms_alone():
    phone = clock()
    tap(phone, content_desc="Add alarm")
    tap(phone, text="Cancel")
    assert not find(phone, text="Select time")
    tap(phone, content_desc="Add alarm")
    back(phone)
    assert not find(phone, text="Select time")
    assert phone.foreground_activity() == MAIN
    assert len(state(phone).alarms) == 2


def test_edit_an_alarms_time_turns_it_on():
    phone = clock()
    tap(phone, text="8:30 AM")
    assert node(phone, resource_id=ID + "material_hour_tv").text == "08"
    assert node(phone, resource_id=ID + "material_minute_tv").text == "30"
    tap(phone, text="9")
    tap(phone, text="45")
    tap(phone, text="OK")
    a = state(phone).alarms[0]
    assert (a.hour, a.minute, a.enabled) == (9, 45, True)
    assert len(state(phone).alarms) == 2
    assert [n.text for n in find(phone, resource_id=ID + "digital_clock")] == ["9:00 AM", "9:45 AM"]


def test_switch_turns_an_alarm_on_and_off():
    phone = clock()
    tap(phone, resource_id=ID + "onoff")  # 8:30 AM weekdays; today is Saturday 10:00
    assert state(phone).alarms[0].enabled
    assert toast(phone) == "Alarm set for 1 day, 22 hours, and 30 minutes from now."
    assert any(n.content_desc == "Alarm set for Mon 8:30 AM." for n in find(phone, package="com.android.systemui"))
    tap(phone, resource_id=ID + "onoff")
    assert not state(phone).alarms[0].enabled
    assert not any(n.content_desc.startswith("Alarm set") for n in find(phone, package="com.android.systemui"))


def test_each_switch_names_its_alarm():
    phone = clock()
    tap(phone, content_desc="9:00 AM Alarm", resource_id=ID + "onoff")
    switches = {n.content_desc: n.checked for n in find(phone, resource_id=ID + "onoff")}
    assert switches == {"8:30 AM Alarm": False, "9:00 AM Alarm": True}
    assert [(a.hour, a.enabled) for a in state(phone).alarms] == [(8, False), (9, True)]


def test_expanded_alarm_days_label_vibrate_sound_and_delete():
    phone = clock()
    tap(phone, content_desc="Expand alarm")
    assert node(phone, content_desc="Collapse alarm")
    days = find(phone, resource_id=ID + "day_button_1")
    assert days[0].content_desc == "Monday" and days[0].checked
    tap(phone, resource_id=ID + "day_button_1")  # Monday off
    tap(phone, resource_id=ID + "day_button_0")  # Sunday on
    assert state(phone).alarms[0].days == ("Tuesday", "Wednesday", "Thursday", "Friday", "Sunday")
    assert node(phone, resource_id=ID + "days_of_week").text == "Sun, Tue, Wed, Thu, Fri"

    tap(phone, text="Add label")
    assert node(phone, resource_id=ID + "label_input_field").flags["focused"]
    type_in(phone, "Gym")
    phone.perform(Action.enter())
    assert state(phone).alarms[0].label == "Gym"
    assert node(phone, resource_id=ID + "edit_label").text == "Gym"

    tap(phone, text="Vibrate")
    assert not state(phone).alarms[0].vibrate

    tap(phone, text="Default (Cesium)")
    assert phone.foreground_activity().endswith("ringtone.RingtonePickerActivity")
    assert "Alarm sound" in texts(phone)
    tap(phone, text="Argon")
    assert node(phone, text="Argon").checked
    back(phone)
    assert phone.foreground_activity() == MAIN
    assert state(phone).alarms[0].ringtone == "Argon"

    scroll_to(phone, text="Delete")
    tap(phone, text="Delete")
    assert toast(phone) == "Alarm deleted"
    assert [(a.hour, a.minute) for a in state(phone).alarms] == [(9, 0)]
    assert not find(phone, text="Gym")


def test_collapsing_shows_the_label_on_the_card():
    phone = clock(alarms=[{"hour": 6, "minute": 5, "label": "Run", "days": ["sat"]}])
    assert node(phone, resource_id=ID + "label").text == "Run"
    assert node(phone, resource_id=ID + "alarm_card_layout").content_desc == "6:05 AM Alarm"
    tap(phone, resource_id=ID + "days_of_week")  # tapping the card (not its time) expands it
    assert node(phone, resource_id=ID + "edit_label").text == "Run"
    tap(phone, text="Run")
    assert node(phone, resource_id=ID + "label_input_field").text == "Run"
    type_in(phone, "Swim")  # replaces the selected old label
    tap(phone, text="OK")
    assert state(phone).alarms[0].label == "Swim"
    tap(phone, content_desc="Collapse alarm")
    assert not find(phone, resource_id=ID + "edit_label")


def test_no_alarms_view():
    phone = clock(alarms=[])
    assert node(phone, resource_id=ID + "alarms_empty_view").text == "No alarms"


# ------------------------------------------------------------------ settings

def test_24_hour_format_everywhere():
    phone = clock(use_24_hour=True)
    assert [n.text for n in find(phone, resource_id=ID + "digital_clock")] == ["08:30", "09:00"]
    tap(phone, content_desc="Add alarm")
    assert not find(phone, text="AM")
    tap(phone, content_desc="13 o'clock")  # inner ring of the 24-hour dial
    tap(phone, text="05")
    tap(phone, text="OK")
    assert (state(phone).alarms[-1].hour, state(phone).alarms[-1].minute) == (13, 5)
    assert "13:05" in texts(phone)
    tap(phone, content_desc="Clock")
    assert node(phone, resource_id=ID + "digital_clock").text == "10:00"

    settings(phone)
    row = node(phone, text="Use 24-hour format")
    assert "13:00" in texts(phone)
    tap(phone, text="Use 24-hour format")  # "Turn on the 12-hour format"
    assert not state(phone).use_24_hour
    assert "1:00 PM" in texts(phone) and row
    back(phone)
    assert node(phone, resource_id=ID + "digital_clock").text.endswith("AM")


def test_snooze_length_and_other_choices():
    phone = clock()
    settings(phone)
    assert node(phone, text="Snooze length")
    tap(phone, text="Snooze length")
    assert node(phone, text="10 minutes", checkable=True).checked
    tap(phone, text="15 minutes")
    assert state(phone).snooze_minutes == 15
    assert not find(phone, resource_id="android:id/alertTitle")
    snooze = [n for n in find(phone, resource_id="android:id/summary") if n.text == "15 minutes"]
    assert snooze

    tap(phone, text="Style")
    tap(phone, text="Analog")
    assert state(phone).clock_style == "analog"
    tap(phone, text="Silence after")
    tap(phone, text="Never", checkable=True)
    assert state(phone).silence_after_minutes == 0
    tap(phone, text="Home time zone")
    tap(phone, text="Cancel")
    assert state(phone).home_time_zone == "Pacific Time"
    tap(phone, text="Display time with seconds")
    tap(phone, text="Automatic home clock")
    assert state(phone).show_seconds and not state(phone).auto_home_clock

    scroll_to(phone, text="Start week on")
    tap(phone, content_desc="3")
    assert state(phone).alarm_volume == 3
    tap(phone, text="Start week on")
    tap(phone, text="Monday")
    assert state(phone).start_week_on == "Monday"
    scroll_to(phone, text="Timer vibrate")
    tap(phone, text="Timer vibrate")
    assert state(phone).timer_vibrate
    tap(phone, text="Timer sound")
    tap(phone, text="Helium")
    back(phone)
    assert state(phone).timer_sound == "Helium"
    assert phone.foreground_activity() == SETTINGS

    tap(phone, content_desc="Navigate up")
    assert phone.foreground_activity() == MAIN
    tap(phone, content_desc="Expand alarm")
    assert node(phone, resource_id=ID + "day_button_0").content_desc == "Monday"


def test_clock_tab_styles_and_seconds():
    phone = clock(show_seconds=True)
    tap(phone, content_desc="Clock")
    assert node(phone, resource_id=ID + "tab_menu_clock").flags["selected"]
    assert node(phone, resource_id=ID + "digital_clock").text == "10:00:05 AM"
    assert node(phone, resource_id=ID + "date").text == "Sat, Nov 21"
    assert not find(phone, resource_id=ID + "nextAlarm")
    phone = clock(clock_style="analog", alarms=[{"hour": 7, "minute": 0, "enabled": True}])
    tap(phone, content_desc="Clock")
    assert not find(phone, resource_id=ID + "digital_clock")
    assert node(phone, resource_id=ID + "analog_clock").content_desc == "10:00 AM"
    assert node(phone, resource_id=ID + "nextAlarm").text == "Sun 7:00 AM"


# ------------------------------------------------------------------ world clock

def test_add_and_remove_world_clocks():
    phone = clock()
    tap(phone, content_desc="Clock")
    tap(phone, content_desc="Cities")
    assert phone.foreground_activity() == CITIES
    tap(phone, resource_id=ID + "search_src_text")
    type_in(phone, "to")
    names = [n.text for n in find(phone, resource_id=ID + "city_name")]
    assert names == ["Tokyo", "Toronto"]  # word starts: not Boston
    tap(phone, content_desc="Clear query")
    type_in(phone, "york")
    assert [n.text for n in find(phone, resource_id=ID + "city_name")] == ["New York"]
    tap(phone, content_desc="Clear query")
    assert not find(phone, content_desc="Clear query")
    type_in(phone, "to")
    tap(phone, text="Tokyo")
    assert phone.foreground_activity() == MAIN
    assert state(phone).cities == ("Tokyo",)
    card = [n.text for n in find(phone, resource_id=ID + "city_name")]
    assert card == ["Tokyo"]
    assert node(phone, resource_id=ID + "hours_ahead").text == "Tomorrow, 17 hrs ahead"
    assert "3:00 AM" in texts(phone)

    tap(phone, content_desc="Cities")
    shown = texts(phone)
    assert shown.index("Selected cities") < shown.index("Tokyo") < shown.index("All cities")
    tap(phone, resource_id=ID + "search_src_text")
    type_in(phone, "zzz")
    assert node(phone, resource_id=ID + "search_empty_view").text == "No results found"
    phone.perform(Action.enter())
    assert phone.foreground_activity() == CITIES
    tap(phone, content_desc="Navigate up")
    tap(phone, content_desc="Cities")
    tap(phone, text="Tokyo")  # a selected city: removed, the list stays
    assert state(phone).cities == ()
    assert phone.foreground_activity() == CITIES
    back(phone)
    assert not find(phone, resource_id=ID + "city_name")


def test_home_clock_when_home_zone_differs():
    phone = clock(home_time_zone="Eastern Time", cities=["Mumbai"])
    tap(phone, content_desc="Clock")
    assert [n.text for n in find(phone, resource_id=ID + "city_name")] == ["Home", "Mumbai"]
    assert [n.text for n in find(phone, resource_id=ID + "hours_ahead")] == [
        "Today, 3 hrs ahead", "Today, 13 hrs 30 min ahead"]
    phone = clock(home_time_zone="Eastern Time", auto_home_clock=False)
    tap(phone, content_desc="Clock")
    assert not find(phone, resource_id=ID + "city_name")


# ------------------------------------------------------------------ timer and stopwatch

def test_timer_keypad_countdown_pause_and_reset():
    phone = clock()
    tap(phone, content_desc="Timer")
    assert node(phone, resource_id=ID + "timer_setup_time").text == "00h 00m 00s"
    assert not find(phone, content_desc="Start")
    for key in ("0", "1", "3", "0", "5"):
        tap(phone, resource_id=ID + f"timer_setup_digit_{key}")
    tap(phone, content_desc="Delete")
    assert node(phone, resource_id=ID + "timer_setup_time").text == "00h 01m 30s"
    tap(phone, content_desc="Clock")
    tap(phone, content_desc="Timer")
    assert node(phone, resource_id=ID + "timer_setup_time").text == "00h 01m 30s"  # kept
    tap(phone, content_desc="Start")
    s = state(phone)
    assert s.timer_running and s.timer_active and s.timer_seconds == 90
    assert node(phone, resource_id=ID + "timer_text").text == "1:25"
    tap(phone, text="+1:00")
    assert node(phone, resource_id=ID + "timer_text").text == "2:20"
    tap(phone, content_desc="Pause")
    assert not state(phone).timer_running and state(phone).timer_remaining == 140
    tap(phone, content_desc="Alarm")
    tap(phone, content_desc="Timer")
    assert node(phone, resource_id=ID + "timer_text").text == "2:20"  # paused: no time passes
    assert "Time's up" not in texts(phone)
    tap(phone, text="Reset")
    assert node(phone, resource_id=ID + "timer_text").text == "2:30"
    tap(phone, content_desc="Start")
    assert state(phone).timer_running
    tap(phone, content_desc="Delete")
    assert not state(phone).timer_active
    assert node(phone, resource_id=ID + "timer_setup_time").text == "00h 00m 00s"


def test_timer_goes_off_and_stops():
    phone = clock(timer_active=True, timer_running=True, timer_seconds=10, timer_remaining=10,
                  timer_started_at=36000)
    tap(phone, content_desc="Timer")  # 10:00:05 -> shown at 10:00:05
    assert node(phone, resource_id=ID + "timer_text").text == "0:05"
    tap(phone, resource_id=ID + "timer_label")
    tap(phone, resource_id=ID + "timer_label")
    assert node(phone, resource_id=ID + "timer_text").text == "-0:05"
    assert "Time's up" in texts(phone)
    tap(phone, content_desc="Stop")
    assert not state(phone).timer_running and state(phone).timer_remaining == 10


def test_stopwatch_laps_pause_reset():
    phone = clock()
    tap(phone, content_desc="Stopwatch")
    assert node(phone, resource_id=ID + "stopwatch_time_text").text == "0:00"
    assert not find(phone, content_desc="Reset")
    tap(phone, content_desc="Start")  # at 10:00:05
    assert state(phone).stopwatch_running
    tap(phone, content_desc="Lap")
    tap(phone, content_desc="Lap")
    assert state(phone).stopwatch_laps == (5, 10)
    assert [n.text for n in find(phone, resource_id=ID + "lap_number")] == ["# 2", "# 1"]
    tap(phone, content_desc="Pause")
    assert state(phone).stopwatch_elapsed == 15 and not state(phone).stopwatch_running
    tap(phone, content_desc="Alarm")
    tap(phone, content_desc="Stopwatch")
    assert node(phone, resource_id=ID + "stopwatch_time_text").text == "0:15"
    tap(phone, content_desc="Reset")
    assert state(phone).stopwatch_elapsed == 0 and state(phone).stopwatch_laps == ()


def test_bedtime_tab():
    phone = clock()
    tap(phone, content_desc="Bedtime")
    assert node(phone, resource_id=ID + "tab_menu_bedtime").flags["selected"]
    tap(phone, text="Get started")
    assert state(phone).bedtime_enabled
    assert "11:00 PM" in texts(phone) and "7:00 AM" in texts(phone)
    tap(phone, text="Turn off schedule")
    assert not state(phone).bedtime_enabled


# ------------------------------------------------------------------ navigation

def test_menu_screensaver_and_back():
    phone = clock()
    tap(phone, content_desc="Timer")
    tap(phone, content_desc="More options")
    assert [n.text for n in find(phone, resource_id=ID + "title")] == ["Screensaver", "Settings"]
    phone.perform(Action.click(0.5, 0.7))  # outside the menu: it closes
    assert not find(phone, text="Screensaver")
    tap(phone, content_desc="More options")
    tap(phone, text="Screensaver")
    assert phone.foreground_activity().endswith("com.android.deskclock.ScreensaverActivity")
    tap(phone, resource_id=ID + "digital_clock")
    assert phone.foreground_activity() == MAIN
    settings(phone)
    back(phone)
    assert node(phone, resource_id=ID + "tab_menu_timer").flags["selected"]  # same tab
    back(phone)
    assert "nexuslauncher" in phone.foreground_activity()
    tap(phone, text="Clock")  # the app reopens on the last tab
    assert node(phone, resource_id=ID + "tab_menu_timer").flags["selected"]
    assert state(phone).selected_tab == "timer"
    assert node(clock(selected_tab="stopwatch"), resource_id=ID + "tab_menu_stopwatch").flags["selected"]


def test_state_survives_leaving_the_app_and_pickling():
    phone = clock()
    tap(phone, content_desc="Add alarm")
    tap(phone, text="6")
    phone = pickle.loads(pickle.dumps(phone))  # mid-flow: a dialog is open
    tap(phone, text="15")
    tap(phone, text="OK")
    phone.perform(Action.home())
    tap(phone, text="Clock")
    assert "6:15 AM" in texts(phone)
    back(phone)
    tap(phone, text="Clock")
    assert [(a.hour, a.minute, a.enabled) for a in state(phone).alarms][-1] == (6, 15, True)
    assert "6:15 AM" in texts(phone)


# ------------------------------------------------------------------ setup and dynamics

def test_setup_alarms_and_validation():
    phone = clock(alarms=[{"hour": 9, "minute": 0, "enabled": False},
                          {"hour": 21, "minute": 30, "enabled": True, "days": ["Sun", "monday"]}])
    alarms = state(phone).alarms
    assert (alarms[0].hour, alarms[0].minute, alarms[0].enabled) == (9, 0, False)
    assert alarms[1].days == ("Monday", "Sunday")
    assert [n.text for n in find(phone, resource_id=ID + "days_of_week")] == ["Not scheduled", "Sun, Mon"]
    bad = [
        {"alarms": [{"hour": 24, "minute": 0}]},
        {"alarms": [{"hour": 9, "minute": 0, "days": ["Funday"]}]},
        {"alarms": [{"hour": "9"}]},
        {"alarms": [{"hour": 9, "snooze": 3}]},
        {"alarms": [{"hour": 9, "days": "Monday"}]},
        {"alarms": "9:00"},
        {"cities": ["Atlantis"]},
        {"clock_style": "sundial"},
        {"snooze_minutes": 7},
        {"home_time_zone": "Mars"},
        {"use_24_hour": "yes"},
        {"alarm_clock": 1},
        {"selected_tab": "world"},
        {"timer_running": True, "timer_active": True},
        {"stopwatch_running": True, "stopwatch_started_at": "10:00"},
    ]
    for values in bad:
        with pytest.raises(SimulatorError):
            SimulatedDevice(seed=0, setup={"apps": {"clock": values}})


def test_dynamics_vary_content_and_are_deterministic():
    canonical = clock(seed=1).observe(screenshot=False).xml
    assert clock(seed=2).observe(screenshot=False).xml == canonical  # "none" is canonical
    varied = set()
    for seed in range(6):
        a, b = clock(seed, "default"), clock(seed, "default")
        for phone in (a, b):
            tap(phone, content_desc="Clock")
        assert a.observe(screenshot=False).xml == b.observe(screenshot=False).xml
        varied.add(tuple((x.hour, x.minute) for x in state(a).alarms) + state(a).cities)
    assert len(varied) > 3


def test_bedtime_promo_popup_is_dismissable():
    shown = None
    for seed in range(30):
        phone = clock(seed, "default")
        if find(phone, text="Try Bedtime"):
            shown = phone
            break
    assert shown is not None
    tap(shown, text="Not now")
    assert not find(shown, text="Try Bedtime")
    assert shown.foreground_activity() == MAIN
    for seed in range(10):
        assert not find(clock(seed), text="Try Bedtime")


# ------------------------------------------------------------------ dumps

@pytest.mark.parametrize("profile", ["pixel-6", "budget-720p"])
def test_every_screen_dumps_validly(profile):
    phone = clock(profile=profile, cities=["London", "Sydney"], home_time_zone="Tokyo, Osaka",
                  alarms=[{"hour": 7, "minute": 0, "enabled": True, "label": "Wake up"}])
    steps = [
        lambda: None,
        lambda: tap(phone, content_desc="Expand alarm"),
        lambda: swipe_up(phone),
        lambda: tap(phone, text="Wake up"),
        lambda: back(phone),  # the keyboard
        lambda: back(phone),  # the label dialog
        lambda: tap(phone, content_desc="Add alarm"),
        lambda: tap(phone, text="9"),
        lambda: tap(phone, content_desc="Switch to text input mode for the time input."),
        lambda: back(phone),
        lambda: tap(phone, content_desc="Clock"),
        lambda: tap(phone, content_desc="Cities"),
        lambda: swipe_up(phone),
        lambda: back(phone),
        lambda: tap(phone, content_desc="Timer"),
        lambda: tap(phone, text="5"),
        lambda: tap(phone, text="0"),
        lambda: tap(phone, content_desc="Start"),
        lambda: tap(phone, content_desc="Pause"),
        lambda: tap(phone, content_desc="Stopwatch"),
        lambda: tap(phone, content_desc="Start"),
        lambda: tap(phone, content_desc="Lap"),
        lambda: tap(phone, content_desc="Bedtime"),
        lambda: tap(phone, text="Get started"),
        lambda: tap(phone, content_desc="More options"),
        lambda: tap(phone, text="Screensaver"),
        lambda: back(phone),
        lambda: settings(phone),
        lambda: tap(phone, text="Home time zone"),
        lambda: back(phone),
        lambda: swipe_up(phone, 0.6),
        lambda: tap(phone, text="Timer sound"),
    ]
    for step in steps:
        step()
        check_dump(phone)
    phone = clock(profile=profile, use_24_hour=True)
    tap(phone, content_desc="Add alarm")
    check_dump(phone)
    assert phone.observe(screenshot_size=(180, 400)).image.size == (180, 400)
