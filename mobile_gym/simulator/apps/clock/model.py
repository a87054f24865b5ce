"""The Clock app's state (what task oracles read) and the time arithmetic its screens
share: formatting times in 12/24-hour style, when an alarm rings next, world-clock
offsets. The device's local zone is Pacific Time and today is Saturday, Nov 21, the
same day the launcher's glance shows."""

from __future__ import annotations

from dataclasses import dataclass, field

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKDAYS_SET = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
WEEKEND = ("Saturday", "Sunday")
TODAY = WEEKDAYS.index("Saturday")
DATE_TEXT = "Sat, Nov 21"
LOCAL_OFFSET = -8 * 60  # minutes from UTC: Pacific Standard Time
DAY = 86400

# World clock cities and their UTC offsets in minutes (late November: southern DST on).
CITIES: dict[str, int] = {
    "Amsterdam": 60, "Anchorage": -540, "Athens": 120, "Auckland": 780, "Bangkok": 420,
    "Beijing": 480, "Berlin": 60, "Bogota": -300, "Boston": -300, "Buenos Aires": -180,
    "Cairo": 120, "Chicago": -360, "Denver": -420, "Dubai": 240, "Dublin": 0,
    "Hong Kong": 480, "Honolulu": -600, "Istanbul": 180, "Jakarta": 420,
    "Johannesburg": 120, "Kathmandu": 345, "Lagos": 60, "Lima": -300, "Lisbon": 0,
    "London": 0, "Los Angeles": -480, "Madrid": 60, "Manila": 480, "Melbourne": 660,
    "Mexico City": -360, "Moscow": 180, "Mumbai": 330, "Nairobi": 180, "New Delhi": 330,
    "New York": -300, "Paris": 60, "Phoenix": -420, "Reykjavik": 0, "Rome": 60,
    "San Francisco": -480, "Sao Paulo": -180, "Seoul": 540, "Shanghai": 480,
    "Singapore": 480, "Stockholm": 60, "Sydney": 660, "Taipei": 480, "Tokyo": 540,
    "Toronto": -300, "Vancouver": -480,
}

# "Home time zone" choices (name, UTC offset in minutes), as the settings list them.
TIME_ZONES: tuple[tuple[str, int], ...] = (
    ("Hawaii", -600), ("Alaska", -540), ("Pacific Time", -480), ("Mountain Time", -420),
    ("Central Time", -360), ("Eastern Time", -300), ("Atlantic Time", -240),
    ("Brasilia", -180), ("London, Dublin", 0), ("Amsterdam, Berlin", 60),
    ("Athens, Cairo", 120), ("Moscow, Istanbul", 180), ("Dubai", 240), ("Kolkata", 330),
    ("Bangkok", 420), ("Beijing, Singapore", 480), ("Tokyo, Osaka", 540),
    ("Sydney, Canberra", 660), ("Auckland", 780),
)
ZONE_OFFSETS = dict(TIME_ZONES)

RINGTONES = ("Silent", "Default (Cesium)", "Argon", "Carbon", "Helium", "Krypton", "Neon",
             "Osmium", "Oxygen", "Platinum", "Promethium", "Scandium")
TIMER_SOUNDS = ("Silent", "Timer Expired", "Argon", "Carbon", "Helium", "Osmium")
STYLES = ("analog", "digital")
SNOOZE_CHOICES = (5, 10, 15, 20, 25, 30)
SILENCE_CHOICES = (1, 5, 10, 15, 20, 25, 0)  # minutes; 0 is "Never"
RAMP_CHOICES = (0, 5, 10, 15, 20, 30, 45, 60)  # seconds; 0 is "Never"
VOLUME_BUTTONS = ("Snooze", "Dismiss", "Control volume", "Do nothing")
WEEK_STARTS = ("Saturday", "Sunday", "Monday")
MAX_VOLUME = 10


@dataclass
class Alarm:
    hour: int = 8  # 0-23
    minute: int = 0
    enabled: bool = False
    days: list[str] = field(default_factory=list)  # weekday names it repeats on; [] rings once
    label: str = ""
    vibrate: bool = True
    ringtone: str = "Default (Cesium)"


def default_alarms() -> list[Alarm]:
    """A fresh install's alarms: 8:30 AM on weekdays and 9:00 AM at weekends, both off."""
    return [Alarm(8, 30, days=list(WEEKDAYS_SET)), Alarm(9, 0, days=list(WEEKEND))]


@dataclass
class ClockState:
    selected_tab: str = "alarm"  # the main screen's tab; the app reopens on it
    alarms: list[Alarm] = field(default_factory=default_alarms)
    cities: list[str] = field(default_factory=list)  # world clocks on the Clock tab, in order
    # Timer: the set duration, and the seconds left at ``timer_started_at`` (running) or
    # when it was paused; a timer exists (running or paused) while ``timer_active``.
    timer_active: bool = False
    timer_running: bool = False
    timer_seconds: int = 0
    timer_remaining: int = 0
    timer_started_at: int | None = None  # sys.time of the last start/resume
    # Stopwatch: ``stopwatch_elapsed`` seconds before the current run started.
    stopwatch_running: bool = False
    stopwatch_started_at: int | None = None
    stopwatch_elapsed: int = 0
    stopwatch_laps: list[int] = field(default_factory=list)  # total seconds at each lap
    bedtime_enabled: bool = False
    # Settings.
    clock_style: str = "digital"  # "digital" or "analog"
    show_seconds: bool = False
    use_24_hour: bool = False
    auto_home_clock: bool = True
    home_time_zone: str = "Pacific Time"  # a TIME_ZONES name
    silence_after_minutes: int = 10  # 0: never
    snooze_minutes: int = 10
    alarm_volume: int = 7  # 0..MAX_VOLUME
    alarm_ramp_seconds: int = 0  # "Gradually increase volume"; 0: never
    volume_buttons: str = "Control volume"
    start_week_on: str = "Sunday"
    timer_sound: str = "Timer Expired"
    timer_ramp_seconds: int = 0
    timer_vibrate: bool = False

    def timer_left(self, now: int) -> int:
        """Seconds the timer has left (negative once it has gone off)."""
        if self.timer_running and self.timer_started_at is not None:
            return self.timer_remaining - (now - self.timer_started_at) % DAY
        return self.timer_remaining

    def stopwatch_total(self, now: int) -> int:
        if self.stopwatch_running and self.stopwatch_started_at is not None:
            return self.stopwatch_elapsed + (now - self.stopwatch_started_at) % DAY
        return self.stopwatch_elapsed


# ---------------------------------------------------------------- formatting

def fmt_time(hour: int, minute: int, h24: bool, second: int | None = None) -> str:
    """"9:05 AM" / "09:05" (with ":SS" when ``second`` is given), like TextClock."""
    text = f"{hour:02d}:{minute:02d}" if h24 else f"{hour % 12 or 12}:{minute:02d}"
    if second is not None:
        text += f":{second:02d}"
    return text if h24 else f"{text} {'AM' if hour < 12 else 'PM'}"


def fmt_clock(seconds: int, h24: bool, with_seconds: bool = False) -> str:
    seconds %= DAY
    return fmt_time(seconds // 3600, seconds // 60 % 60, h24,
                    seconds % 60 if with_seconds else None)


def fmt_duration(seconds: int) -> str:
    """A countdown as the timer shows it: "4:05", "1:02:03", "-0:10"."""
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    h, m, s = seconds // 3600, seconds // 60 % 60, seconds % 60
    return f"{sign}{h}:{m:02d}:{s:02d}" if h else f"{sign}{m}:{s:02d}"


def fmt_stopwatch(seconds: int) -> str:
    """Stopwatch text without the hundredths: "0:05", "12:30", "1:02:03"."""
    return fmt_duration(seconds)


def _plural(n: int, unit: str) -> str:
    return f"{n} {unit}{'' if n == 1 else 's'}"


def week_order(start: str) -> tuple[str, ...]:
    i = WEEKDAYS.index(start)
    return WEEKDAYS[i:] + WEEKDAYS[:i]


# ---------------------------------------------------------------- alarms

def seconds_until(alarm: Alarm, now: int) -> int:
    """Seconds from ``now`` (today, a Saturday) until the alarm next rings."""
    target = alarm.hour * 3600 + alarm.minute * 60
    if not alarm.days:
        return (target - now) % DAY or DAY
    best = None
    for day in alarm.days:
        delta = (WEEKDAYS.index(day) - TODAY) % 7 * DAY + target - now
        if delta <= 0:
            delta += 7 * DAY
        best = delta if best is None else min(best, delta)
    return best


def alarm_set_toast(delta: int) -> str:
    """The toast shown when an alarm is set: "Alarm set for 14 hours and 3 minutes from now."."""
    minutes = delta // 60
    if minutes == 0:
        return "Alarm set for less than 1 minute from now."
    days, rest = divmod(minutes, 1440)
    parts = [_plural(n, unit) for n, unit in ((days, "day"), (rest // 60, "hour"), (rest % 60, "minute")) if n]
    text = parts[0] if len(parts) == 1 else (
        f"{parts[0]} and {parts[1]}" if len(parts) == 2 else f"{parts[0]}, {parts[1]}, and {parts[2]}")
    return f"Alarm set for {text} from now."


def days_summary(alarm: Alarm, now: int, week_start: str) -> str:
    """The line under an alarm's time: its repeat days, or when a one-off alarm rings."""
    if alarm.days:
        if len(set(alarm.days)) == 7:
            return "Every day"
        return ", ".join(d[:3] for d in week_order(week_start) if d in alarm.days)
    if not alarm.enabled:
        return "Not scheduled"
    return "Today" if alarm.hour * 3600 + alarm.minute * 60 > now else "Tomorrow"


def next_alarm(alarms: list[Alarm], now: int) -> tuple[Alarm, int] | None:
    """The enabled alarm that rings first and the seconds until it rings."""
    upcoming = [(seconds_until(a, now), i) for i, a in enumerate(alarms) if a.enabled]
    if not upcoming:
        return None
    delta, i = min(upcoming)
    return alarms[i], delta


def next_alarm_text(alarms: list[Alarm], now: int, h24: bool) -> str:
    """"Sun 9:00 AM", as the Clock tab and the status bar show the next alarm."""
    found = next_alarm(alarms, now)
    if found is None:
        return ""
    alarm, delta = found
    day = WEEKDAYS[(TODAY + (now + delta) // DAY) % 7][:3]
    return f"{day} {fmt_time(alarm.hour, alarm.minute, h24)}"


# ---------------------------------------------------------------- world clock

def city_time(offset: int, now: int) -> tuple[int, int]:
    """(seconds since that city's midnight, days ahead of the local date)."""
    shifted = now + (offset - LOCAL_OFFSET) * 60
    return shifted % DAY, shifted // DAY


def offset_text(offset: int, now: int) -> str:
    """"Tomorrow, 17 hrs ahead", "Today, 3 hrs behind", "Today, 13 hrs 30 min ahead"."""
    _, days = city_time(offset, now)
    day = {0: "Today", 1: "Tomorrow", -1: "Yesterday"}[days]
    diff = offset - LOCAL_OFFSET
    if diff == 0:
        return f"{day}, same time"
    hours, minutes = divmod(abs(diff), 60)
    amount = f"{hours} hr{'' if hours == 1 else 's'}" + (f" {minutes} min" if minutes else "")
    return f"{day}, {amount} {'ahead' if diff > 0 else 'behind'}"


def zone_label(name: str) -> str:
    """"(GMT-8:00) Pacific Time", as the Home time zone list shows a zone."""
    offset = ZONE_OFFSETS[name]
    sign = "+" if offset >= 0 else "-"
    return f"(GMT{sign}{abs(offset) // 60}:{abs(offset) % 60:02d}) {name}"
