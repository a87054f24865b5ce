"""Settings' dialogs: single-choice lists, a text prompt and the brightness sheet.

They are kept between frames, so they hold only the app, field names and picklable
callables (module functions or ``functools.partial``), never lambdas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from mobile_gym.simulator.app import Dialog
from mobile_gym.simulator.apps.settings.widgets import radio_pref, slider
from mobile_gym.simulator.views import Button, Column, EditText, Row, Spacer, Text, View, FRAME

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.settings import Settings


def _frame(title: str, *body: View | None, actions: tuple[View, ...] = ()) -> View:
    """The Material alert box the base `Dialog` draws, with any body."""
    return Column(
        Text(title, size=22, rid="android:id/alertTitle", h=36),
        *body,
        Row(Spacer(), *actions, h=52, rid="android:id/buttonPanel") if actions else None,
        cls=FRAME, pad=(24, 20, 16, 8), gap=12, w=312, align="center", style="dialog",
        radius=28, rid="android:id/parentPanel",
    )


def _text_button(label: str, on_click: Callable[[], None] | None, n: int, *,
                 enabled: bool = True) -> View:
    return Button(label, on_click, style="text", w=max(64, 10 * len(label) + 24),
                  rid=f"android:id/button{n}", enabled=enabled)


class ChoiceDialog(Dialog):
    """A list of options with radio buttons; picking one sets ``field`` and closes."""

    def __init__(self, app: Settings, field: str, title: str,
                 options: tuple[tuple[object, str], ...]) -> None:
        super().__init__(title)
        self.app, self.field, self.options = app, field, options

    def build(self) -> View:
        current = getattr(self.app.state, self.field)
        rows = [radio_pref(label, value == current, lambda v=value: self.pick(v))
                for value, label in self.options]
        return _frame(self.title, Column(*rows, cls="android.widget.ListView",
                                         rid="android:id/select_dialog_listview"),
                      actions=(_text_button("Cancel", self.close, 2),))

    def pick(self, value: object) -> None:
        self.app.state.set(self.field, value)
        self.close()


class InputDialog(Dialog):
    """A one-field prompt (device name, Wi‑Fi password). ``on_done(text)`` runs when
    the positive button or ENTER is pressed with at least ``min_len`` characters."""

    def __init__(self, title: str, hint: str, on_done: Callable[[str], None], *,
                 initial: str = "", positive: str = "OK", password: bool = False,
                 min_len: int = 1) -> None:
        super().__init__(title)
        self.hint, self.on_done, self.positive = hint, on_done, positive
        self.password, self.min_len = password, min_len
        self.fields["text"] = initial
        self.focus = "text"
        self.select_all = bool(initial)  # typing replaces the current value

    def build(self) -> View:
        ready = len(self.fields.get("text", "")) >= self.min_len
        return _frame(
            self.title,
            EditText("text", hint=self.hint, rid="com.android.settings:id/edittext",
                     password=self.password, on_submit=lambda _: self.done()),
            actions=(_text_button("Cancel", self.close, 2),
                     _text_button(self.positive, self.done, 1, enabled=ready)),
        )

    def done(self) -> None:
        text = self.fields.get("text", "").strip() if not self.password else self.fields.get("text", "")
        if len(text) >= self.min_len:
            self.close()
            self.on_done(text)


class LevelDialog(Dialog):
    """The brightness slider sheet that "Brightness level" opens."""

    def __init__(self, app: Settings, field: str, title: str) -> None:
        super().__init__(title, kind="sheet")
        self.app, self.field = app, field

    def build(self) -> View:
        value = getattr(self.app.state, self.field)
        return Column(
            slider(self.title, value, self.step, icon="display"),
            Row(Spacer(), Button("Done", self.close, style="text", w=96,
                                 rid="android:id/button1"), h=52, pad=(16, 0, 16, 0)),
            cls=FRAME, pad=(8, 16, 8, 16), style="dialog", radius=28, align="bottom",
            rid="com.android.settings:id/brightness_slider_sheet",
        )

    def step(self, delta: int) -> None:
        value = getattr(self.app.state, self.field)
        self.app.state.set(self.field, max(0, min(100, value + delta)))
