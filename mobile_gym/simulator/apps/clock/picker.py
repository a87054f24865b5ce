"""Dialogs of the alarm list: Material's time picker and the label editor.

The time picker is the one the Clock app shows (MaterialTimePicker): "Select time", hour
and minute chips, AM/PM toggle and a clock face whose numbers are tappable TextViews
("8" with content-desc "8 o'clock", "25" with "25 minutes"); picking an hour moves on
to the minutes. The keyboard button switches to "Enter time" with two text fields,
for minutes the face cannot show. The layout engine has no absolute positions, so the
face is five rows of numbers spaced like a dial.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from mobile_gym.simulator.app import Dialog
from mobile_gym.simulator.apps.clock.model import Alarm
from mobile_gym.simulator.apps.clock.widgets import ID, PRIMARY, TONAL
from mobile_gym.simulator.views import (
    Button, Column, EditText, Icon, Row, Spacer, Text, View, FRAME,
)

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.clock.main import DeskClock

FACE = 256  # dp, the clock face's diameter
CHIP = (232, 230, 238)
# Dial positions of the 12 outer numbers (index 0 at 12 o'clock): (row, dx from centre).
OUTER = ((-2, 0), (-2, 50), (-1, 87), (0, 100), (1, 87), (2, 50), (2, 0), (2, -50),
         (1, -87), (0, -100), (-1, -87), (-2, -50))
# The inner ring of the 24-hour face: 00 at the top, then 13..23 clockwise.
INNER = ((-1, 0), (-1, 30), (-1, 60), (0, 60), (1, 60), (1, 30), (1, 0), (1, -30), (1, -60),
         (0, -60), (-1, -60), (-1, -30))
OUTER_24 = tuple((row, 92 if dx == 87 else -92 if dx == -87 else dx) for row, dx in OUTER)


def dial(cells: list[tuple[int, float, str, str, bool, Callable[[], None]]], size: float) -> View:
    """The clock face: ``cells`` are (row -2..2, dx, text, content-desc, selected, on_click)."""
    pitch = 46
    rows = []
    for r in range(-2, 3):
        kids: list[View] = []
        x = 0.0
        for _, dx, text, desc, selected, on_click in sorted((c for c in cells if c[0] == r),
                                                           key=lambda c: c[1]):
            left = FACE / 2 + dx - size / 2
            if left - x > 0.5:
                kids.append(Spacer(w=left - x))
            kids.append(Text(text, desc=desc, size=16 if size > 32 else 14, w=size, h=size,
                             align="center", radius=size / 2, on_click=on_click,
                             selected=selected, bg=PRIMARY if selected else None,
                             fg=(255, 255, 255) if selected else None))
            x = left + size
        rows.append(Row(*kids, h=size))
    top = (FACE - 4 * pitch - size) / 2
    return Column(*rows, w=FACE, h=FACE, pad=(0, top, 0, top), gap=pitch - size, align="center",
                  bg=CHIP, radius=FACE / 2, rid=ID + "material_clock_face")


class TimePicker(Dialog):
    """Picks an alarm's time; OK hands it to ``owner`` (the alarm list's activity)."""

    def __init__(self, owner: DeskClock, alarm: Alarm | None, hour: int, minute: int) -> None:
        super().__init__(kind="alert")
        self.owner, self.alarm = owner, alarm
        self.hour, self.minute = hour, minute
        self.face = "hour"  # which numbers the dial shows
        self.text_mode = False
        self.error = ""

    @property
    def h24(self) -> bool:
        return self.owner.app.state.use_24_hour

    # ------------------------------------------------------------ input
    def on_focus(self, field: str) -> None:
        self.select_all = True  # typing replaces the two digits, like the chip input

    def pick_hour(self, hour: int) -> None:
        self.hour = hour
        self.face = "minute"

    def pick_minute(self, minute: int) -> None:
        self.minute = minute

    def set_pm(self, pm: bool) -> None:
        self.hour = self.hour % 12 + (12 if pm else 0)

    def toggle_mode(self) -> None:
        if self.text_mode:
            self.read_fields()
        else:
            self.fields = {"hour": self.hour_text(), "minute": f"{self.minute:02d}"}
            self.focus = None
        self.text_mode = not self.text_mode
        self.error = ""

    def read_fields(self) -> bool:
        """Take the typed hour and minute; False (and an error shown) if invalid."""
        try:
            hour, minute = int(self.fields.get("hour", "")), int(self.fields.get("minute", ""))
        except ValueError:
            hour, minute = -1, -1
        valid_hour = 0 <= hour <= 23 if self.h24 else 1 <= hour <= 12
        if not valid_hour or not 0 <= minute <= 59:
            self.error = "Enter a valid time"
            self.focus = None  # the next tap on a field selects its text again
            return False
        self.hour = hour if self.h24 else hour % 12 + (12 if self.hour >= 12 else 0)
        self.minute = minute
        return True

    def ok(self) -> None:
        if self.text_mode and not self.read_fields():
            return
        self.close()
        self.owner.alarm_time_set(self.alarm, self.hour, self.minute)

    def submit(self, _text: str) -> None:
        self.ok()

    # ------------------------------------------------------------ views
    def hour_text(self) -> str:
        return f"{self.hour:02d}" if self.h24 else f"{self.hour % 12 or 12:02d}"

    def chip(self, text: str, face: str, rid: str) -> View:
        selected = self.face == face
        return Text(text, size=44, w=88, h=80, align="center", radius=8, rid=ID + rid,
                    checkable=True, checked=selected, on_click=lambda: setattr(self, "face", face),
                    bg=TONAL if selected else CHIP)

    def period(self) -> View | None:
        if self.h24:
            return None
        pm = self.hour >= 12

        def button(text: str, on: bool, rid: str) -> View:
            return Button(text, lambda: self.set_pm(text == "PM"), style="tonal" if on else "outlined",
                          h=40, radius=8, checkable=True, checked=on, rid=ID + rid)

        return Column(button("AM", not pm, "material_clock_period_am_button"),
                      button("PM", pm, "material_clock_period_pm_button"),
                      w=52, h=80, rid=ID + "material_clock_period_toggle")

    def face_view(self) -> View:
        if self.face == "minute":
            cells = [(r, dx, f"{5 * i:02d}", f"{5 * i} minutes", self.minute == 5 * i,
                      lambda m=5 * i: self.pick_minute(m)) for i, (r, dx) in enumerate(OUTER)]
            return dial(cells, 40)
        if not self.h24:
            cells = [(r, dx, str(i or 12), f"{i or 12} o'clock", self.hour % 12 == i,
                      lambda h=i: self.pick_hour(h + (12 if self.hour >= 12 else 0)))
                     for i, (r, dx) in enumerate(OUTER)]
            return dial(cells, 40)
        cells = [(r, dx, str(i or 12), f"{i or 12} o'clock", self.hour == (i or 12),
                  lambda h=i or 12: self.pick_hour(h)) for i, (r, dx) in enumerate(OUTER_24)]
        cells += [(r, dx, f"{12 + j if j else 0:02d}", f"{12 + j if j else 0} o'clock",
                   self.hour == (12 + j if j else 0), lambda h=12 + j if j else 0: self.pick_hour(h))
                  for j, (r, dx) in enumerate(INNER)]
        return dial(cells, 30)

    def inputs(self) -> View:
        def field(name: str, rid: str) -> View:
            return EditText(name, rid=ID + rid, size=36, w=88, h=80, align="center",
                            on_submit=self.submit)

        return Column(
            Row(field("hour", "material_hour_text_input"), Text(":", size=44, w=20, h=80, align="center"),
                field("minute", "material_minute_text_input"), Spacer(w=4), self.period(), h=80, gap=8),
            Row(Text("Hour", size=12, style="muted", w=88), Spacer(w=36),
                Text("Minute", size=12, style="muted", w=88), h=20),
        )

    def build(self) -> View:
        header = "Enter time" if self.text_mode else "Select time"
        if self.text_mode:
            body = self.inputs()
        else:
            body = Column(
                Row(self.chip(self.hour_text(), "hour", "material_hour_tv"),
                    Text(":", size=44, w=20, h=80, align="center"),
                    self.chip(f"{self.minute:02d}", "minute", "material_minute_tv"),
                    Spacer(w=4), self.period(), h=80, gap=8),
                Spacer(h=16),
                self.face_view(),
            )
        mode = ("Switch to clock mode for the time input." if self.text_mode
                else "Switch to text input mode for the time input.")
        return Column(
            Text(header, size=12, style="muted", rid=ID + "header_title"),
            body,
            Text(self.error, size=12, fg=(179, 38, 30)) if self.error else None,
            Row(Icon("clock" if self.text_mode else "edit", desc=mode, on_click=self.toggle_mode,
                     rid=ID + "material_timepicker_mode_button"),
                Spacer(),
                Button("Cancel", self.close, style="text", w=88,
                       rid=ID + "material_timepicker_cancel_button"),
                Button("OK", self.ok, style="text", w=64, rid=ID + "material_timepicker_ok_button"),
                h=52),
            cls=FRAME, pad=(24, 20, 16, 8), gap=12, w=328, style="dialog", radius=28,
            rid=ID + "material_timepicker_container",
        )


class LabelDialog(Dialog):
    """"Label": an alarm's label in a text field; OK or ENTER saves it."""

    def __init__(self, alarm: Alarm) -> None:
        super().__init__("Label")
        self.alarm = alarm
        self.fields["label"] = alarm.label
        self.focus = "label"
        self.select_all = True  # the old label is selected: typing replaces it

    def save(self, _text: str = "") -> None:
        self.alarm.label = self.fields.get("label", "").strip()
        self.close()

    def build(self) -> View:
        return Column(
            Text("Label", size=22, rid="android:id/alertTitle", h=40),
            EditText("label", hint="Label", rid=ID + "label_input_field", on_submit=self.save),
            Row(Spacer(), Button("Cancel", self.close, style="text", w=96, rid="android:id/button2"),
                Button("OK", self.save, style="text", w=64, rid="android:id/button1"), h=52),
            cls=FRAME, pad=(24, 20, 16, 8), gap=12, w=328, style="dialog", radius=28,
            rid="android:id/parentPanel",
        )
