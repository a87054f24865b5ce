"""AndroidWorld's JSON actions carried out as AndroidWorld carries them out on a phone.

AndroidWorld's ``actuation.execute_adb_action`` turns a `JSONAction` into adb requests:
an element's index into the centre of its box, a scroll into a swipe from the middle of
the element (or screen) to its edge, typed text into ``input text`` word by word (spaces
as ``%s``, non-ASCII dropped, as ``adb shell input text`` needs) followed by Enter. We
send the same requests through the env's controller, so an action here and the same
action sent by AndroidWorld's own actuation code reach the phone identically, but:

- its sleeps (a second after a click, a second for ``wait``) are left out: the simulated
  phone is ready at once, and ``wait`` is the simulator's WAIT step (a second passes on
  its clock, a loading screen may end);
- typed text is one TYPE step per line, the same text the words would have made: the
  matcher's ``type`` check compares the text an agent typed in one action, as LlamaTouch
  records it;
- where the verb means one gesture the phone knows whole, it is that gesture: a
  ``double_tap`` is the simulator's DOUBLE_TAP (on a phone, AndroidWorld's two quick
  taps make one; through the controller they are two taps), an ``open_app`` an OPEN_APP
  step whose name `mobile_gym.app_names` resolves (launcher labels, store titles,
  packages; AndroidWorld's own table knows about forty apps, few of ours). A name no
  installed app answers to is a step that does nothing, the reason in
  ``info["action_error"]``.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any, Callable, Sequence

from mobile_gym.actions import MAX_TEXT_LENGTH, Action
from mobile_gym.devices.fake.phone import pixel_point
from mobile_gym.errors import InvalidActionError

if TYPE_CHECKING:
    from mobile_gym.compat.androidworld.interface import UIElement

#: AndroidWorld's verbs that touch a point or an element.
POINTED = ("click", "double_tap", "long_press")
#: The verbs that may name a UI element by its index.
ON_ELEMENTS = (*POINTED, "input_text", "scroll")
#: How long a long press holds the finger down, in ms (AndroidWorld's ``input swipe`` duration).
LONG_PRESS_MS = 1000
#: How long a whole-screen ``swipe`` takes, in ms.
SWIPE_MS = 500


def phone_text(text: str) -> str:
    """What reaches the field when AndroidWorld types ``text`` with ``adb shell input
    text``: accents folded, other non-ASCII characters dropped (the command types ASCII
    only; its escaping of shell characters is undone by the phone's shell)."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


class Actuator:
    """Carries out JSON actions on an env: ``adb(request)`` sends an android_env
    ``AdbRequest`` to its controller, ``step(action)`` takes an env step."""

    def __init__(self, adb: Callable[[Any], Any], step: Callable[[Action], Any]) -> None:
        from android_env.proto import adb_pb2

        self._pb = adb_pb2
        self._adb = adb
        self._step = step

    def execute(self, action: Any, elements: Sequence[UIElement], screen_size: tuple[int, int]) -> None:
        """Carry out ``action`` (a `JSONAction` or its dict) on the screen whose UI elements
        are ``elements``; ``screen_size`` is the logical (width, height) in pixels.
        Raises `InvalidActionError` (a ``ValueError``, as AndroidWorld raises) for an
        action it cannot carry out: an index off the list, a click without a target."""
        get = action.get if isinstance(action, dict) else lambda key: getattr(action, key, None)
        kind = get("action_type")
        pb = self._pb.AdbRequest
        if kind in POINTED:
            x, y = self._point(get, elements)
            if kind == "click":
                self._adb(pb(tap=pb.Tap(x=x, y=y)))
            elif kind == "double_tap":
                point = pixel_point(x, y, screen_size)
                if point is not None:  # off the screen, as a tap there: nothing
                    self._step(Action.double_tap(*point))
            else:
                self._shell("input", "swipe", x, y, x, y, LONG_PRESS_MS)
        elif kind == "input_text":
            self._type(get, elements, screen_size)
        elif kind == "keyboard_enter":
            self._adb(pb(press_button=pb.PressButton(button=pb.PressButton.ENTER)))
        elif kind == "navigate_home":
            self._adb(pb(press_button=pb.PressButton(button=pb.PressButton.HOME)))
        elif kind == "navigate_back":
            self._adb(pb(press_button=pb.PressButton(button=pb.PressButton.BACK)))
        elif kind == "press_keyboard":
            self._shell("input", "keyevent", get("keycode"))
        elif kind == "scroll":
            self._scroll(get("index"), get("direction"), elements, screen_size)
        elif kind == "swipe":
            self._swipe(get("direction"), screen_size)
        elif kind == "drag_and_drop":
            start, end = get("touch_xy"), get("lift_xy")
            if start is not None and end is not None:
                self._shell("input", "draganddrop", *_pixels(start, "touch_xy"), *_pixels(end, "lift_xy"), 4000)
        elif kind == "open_app":
            name = get("app_name")
            if not name:
                raise InvalidActionError("open_app needs an app_name")
            self._step(Action.open_app(str(name)))
        elif kind == "wait":
            self._step(Action.wait())
        elif kind == "launch_adb_activity":
            self._launch_activity(get("activity_nickname"), screen_size)
        elif kind in ("answer", "status", "unknown"):
            return  # nothing reaches the phone (the env keeps an answer)
        else:
            raise InvalidActionError(f"AndroidWorld action type {kind!r} is not one the phone can carry out")

    # ------------------------------------------------------------------ the verbs
    def _point(self, get: Callable[[str], Any], elements: Sequence[UIElement]) -> tuple[int, int]:
        """The pixel an action points at: its element's box centre, or its x and y."""
        index = get("index")
        if index is not None:
            index = _index(index, elements)
            box = elements[index].bbox_pixels
            if box is None:
                raise InvalidActionError(f"UI element {index} has no bounding box to point at")
            x, y = box.center
            return int(x), int(y)
        x, y = get("x"), get("y")
        if x is None or y is None:
            raise InvalidActionError(f"{get('action_type')} needs an element index or both x and y")
        return _pixels((x, y), "x and y")

    def _type(self, get: Callable[[str], Any], elements: Sequence[UIElement], screen_size: tuple[int, int]) -> None:
        text = get("text")
        if not text:
            return  # AndroidWorld types nothing (and warns)
        if get("index") is not None or (get("x") is not None and get("y") is not None):
            self.execute({**_fields(get), "action_type": "click"}, elements, screen_size)  # focus the field
        if get("clear_text"):  # select all, delete
            self._shell("input", "keycombination", 113, 29, "&&", "input", "keyevent", 67)
        pb = self._pb.AdbRequest
        for i, line in enumerate(str(text).split("\n")):
            if i:  # a line break is an Enter
                self._adb(pb(press_button=pb.PressButton(button=pb.PressButton.ENTER)))
            line = phone_text(line)
            for start in range(0, len(line), MAX_TEXT_LENGTH):
                self._step(Action.type_text(line[start:start + MAX_TEXT_LENGTH]))
        self._adb(pb(press_button=pb.PressButton(button=pb.PressButton.ENTER)))

    def _scroll(self, index: Any, direction: Any, elements: Sequence[UIElement], screen_size: tuple[int, int]) -> None:
        """From the middle of the element (or screen) to its edge: ``down`` moves the
        finger up, so the content below comes into view."""
        width, height = screen_size
        index = None if index is None else _index(index, elements)
        if index:  # AndroidWorld's test: an index of 0 scrolls the whole screen, as on a phone
            box = elements[index].bbox_pixels
            if box is None:
                raise InvalidActionError(f"UI element {index} has no bounding box to scroll")
            x0, y0 = max(box.x_min, 0), max(box.y_min, 0)
            x1, y1 = min(box.x_max, width), min(box.y_max, height)
        else:
            x0, y0, x1, y1 = 0, 0, width, height
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        ends = {"down": (cx, y0), "up": (cx, y1), "right": (x0, cy), "left": (x1, cy)}
        if direction not in ends:
            raise InvalidActionError(f"scroll direction must be one of {', '.join(ends)}; got {direction!r}")
        self._shell("input", "swipe", int(cx), int(cy), *map(int, ends[direction]))

    def _swipe(self, direction: Any, screen_size: tuple[int, int]) -> None:
        """Edge to edge through the middle, the finger moving ``direction``'s way
        (a scroll the other way round)."""
        width, height = screen_size
        mx, my = int(0.5 * width), int(0.5 * height)
        paths = {"down": (mx, 0, mx, height), "up": (mx, height, mx, 0),
                 "left": (0, my, width, my), "right": (width, my, 0, my)}
        if direction not in paths:
            raise InvalidActionError(f"swipe direction must be one of {', '.join(paths)}; got {direction!r}")
        self._shell("input", "swipe", *paths[direction], SWIPE_MS)

    def _launch_activity(self, nickname: Any, screen_size: tuple[int, int]) -> None:
        width, height = screen_size
        if nickname == "app_drawer":
            pb = self._pb.AdbRequest
            self._adb(pb(press_button=pb.PressButton(button=pb.PressButton.HOME)))
            self._shell("input", "swipe", width // 2, int(height * 0.9), width // 2, int(0.3 * height))
        elif nickname == "quick_settings":
            self._shell("input", "swipe", width // 2, 30, width // 2, int(0.3 * height), 10)
        else:
            raise InvalidActionError(f"launch_adb_activity knows app_drawer and quick_settings; got {nickname!r}")

    def _shell(self, *args: Any) -> None:
        pb = self._pb.AdbRequest
        self._adb(pb(generic=pb.GenericRequest(args=["shell", *map(str, args)])))


def _index(index: Any, elements: Sequence[Any]) -> int:
    try:
        index = int(index)
    except (TypeError, ValueError):
        raise InvalidActionError(f"an element index must be a whole number; got {index!r}") from None
    if not 0 <= index < len(elements):
        raise InvalidActionError(f"Invalid element index: {index}, must be between 0 and {len(elements) - 1}.")
    return index


#: The pixels an adb request can carry (int32), far beyond any screen.
_PIXEL_RANGE = range(-(2**31), 2**31)


def _pixels(point: Any, what: str) -> tuple[int, int]:
    """A point as whole pixels; anything else an `InvalidActionError`."""
    try:
        x, y = (int(v) for v in point)
    except (TypeError, ValueError, OverflowError):
        raise InvalidActionError(f"{what} must be two numbers of pixels; got {point!r}") from None
    if x not in _PIXEL_RANGE or y not in _PIXEL_RANGE:
        raise InvalidActionError(f"{what} ({x}, {y}) is far off any screen")
    return x, y


def _fields(get: Callable[[str], Any]) -> dict[str, Any]:
    return {key: get(key) for key in ("index", "x", "y")}
