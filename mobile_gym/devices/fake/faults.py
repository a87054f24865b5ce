"""Fault switches for one fake phone, flipped by tests while the server runs.

Every change wakes the server threads waiting on the phone (a stalled request, a slow
dump), so a test that lifts a stall or closes the server never waits for a timer.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

#: name -> default; the only attributes a `Faults` has.
_DEFAULTS: dict[str, Any] = {
    # The uiautomator2 server died: setting True kills it (its launch shell ends, device
    # port 9008 refuses connections); a new ``app_process`` launch clears it.
    "u2_dead": False,
    # ``app_process`` launches of the uiautomator2 server crash at once.
    "u2_launch_fails": False,
    # Requests to this phone are read and never answered while True: "stall" covers the
    # adb services on the phone and uiautomator2 HTTP, "stall_u2" only the latter. Lifting
    # the stall drops the stalled connections (their clients have given up).
    "stall": False,
    "stall_u2": False,
    # The next N uiautomator2 HTTP responses / adb service replies (shell output, sync
    # data) are cut off halfway and the connection dropped.
    "drop_u2_responses": 0,
    "drop_adb_responses": 0,
    # The next N hierarchy dumps (uiautomator2 or ``uiautomator dump``) are empty (no
    # windows, as while an app starts) / truncated mid-document.
    "empty_dumps": 0,
    "truncated_dumps": 0,
    # Seconds every hierarchy dump takes.
    "dump_delay": 0.0,
    # Seconds before a tap, swipe or key shows on the screen: the request is answered at
    # once, the screen changes later (an app that takes a moment to open).
    "input_lag": 0.0,
    # The phone is listed as "offline" and refuses transports.
    "offline": False,
}


class Faults:
    """Thread-safe switches; see `_DEFAULTS` for what each does. Unknown names raise
    AttributeError, so a typo in a test does not silently test nothing."""

    def __init__(self, kill_u2: Callable[[], None] | None = None) -> None:
        object.__setattr__(self, "_cond", threading.Condition())
        object.__setattr__(self, "_kill_u2", kill_u2)
        object.__setattr__(self, "on_change", None)  # the server's hook: "offline" changes the device list
        object.__setattr__(self, "_values", dict(_DEFAULTS))

    def __getattr__(self, name: str) -> Any:  # only called for names not found normally
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        raise AttributeError(f"Faults has no switch {name!r}; known: {', '.join(_DEFAULTS)}")

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in _DEFAULTS:
            raise AttributeError(f"Faults has no switch {name!r}; known: {', '.join(_DEFAULTS)}")
        with self._cond:
            self._values[name] = value
            self._cond.notify_all()
        if name == "u2_dead" and value and self._kill_u2 is not None:
            self._kill_u2()
        if self.on_change is not None:
            self.on_change()

    def __repr__(self) -> str:
        on = {k: v for k, v in self._values.items() if v != _DEFAULTS[k]}
        return f"Faults({', '.join(f'{k}={v!r}' for k, v in on.items())})"

    def reset(self) -> None:
        """All switches off (the u2 server is not restarted: launch it again)."""
        with self._cond:
            self._values.update(_DEFAULTS)
            self._cond.notify_all()
        if self.on_change is not None:
            self.on_change()

    # ------------------------------------------------------------------ for the server
    def watch(self, callback: Callable[[], None] | None) -> None:
        """Call ``callback`` after every change (the device list shows "offline")."""
        object.__setattr__(self, "on_change", callback)

    def wake(self) -> None:
        """Re-check every waiter's condition (the server is closing, a link dropped)."""
        with self._cond:
            self._cond.notify_all()

    def stalled(self, u2: bool) -> bool:
        return bool(self._values["stall"] or (u2 and self._values["stall_u2"]))

    def hold_while_stalled(self, u2: bool, alive: Callable[[], bool]) -> bool:
        """Block while a stall is on; True if a stall happened (the caller then drops
        the connection without replying)."""
        with self._cond:
            if not self.stalled(u2):
                return False
            self._cond.wait_for(lambda: not self.stalled(u2) or not alive())
            return True

    def take(self, counter: str) -> bool:
        """Consume one unit of a countdown switch; True if it was positive."""
        with self._cond:
            if self._values[counter] > 0:
                self._values[counter] -= 1
                return True
            return False

    def wait(self, seconds: float, alive: Callable[[], bool]) -> None:
        """Wait ``seconds`` (a slow dump, ``sleep``), cut short when ``alive`` turns False."""
        if seconds > 0:
            with self._cond:
                self._cond.wait_for(lambda: not alive(), timeout=seconds)
