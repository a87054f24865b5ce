"""The backend-neutral device interface the env drives.

A device shows a screen (`observe`), takes actions (`perform`) and can be put back into a
fresh state for a seed and a task's setup (`reset`). It knows nothing of tasks or
rewards: the env joins devices and the matcher.
"""

from __future__ import annotations

import abc
from typing import Any, Mapping

from mobile_gym.actions import Action
from mobile_gym.trace import UIState


class Device(abc.ABC):
    """One phone (simulated, emulator or real)."""

    @property
    @abc.abstractmethod
    def screen_size(self) -> tuple[int, int]:
        """(width, height) in px."""

    @abc.abstractmethod
    def reset(self, seed: int | None = None, setup: Mapping[str, Any] | None = None) -> None:
        """Return to a fresh state: the seed fixes any variation the backend has, the
        setup is the task's initial state (apps installed, app state, app in front)."""

    @abc.abstractmethod
    def observe(self, *, screenshot: bool = True, screenshot_size: tuple[int, int] | None = None,
                deferred_screenshot: bool = False) -> UIState:
        """The current screen: dump, activity, installed packages and (optionally) a
        screenshot at ``screenshot_size`` (default: full screen size). With
        ``deferred_screenshot`` (and ``screenshot=False``) the full-size screenshot is
        taken only if the state's picture is read: a device whose screen is a snapshot
        draws it then (a simulator keeps its frame), another takes it now."""

    @abc.abstractmethod
    def perform(self, action: Action) -> None:
        """Carry out one action (COMPLETE and IMPOSSIBLE do nothing on the device)."""

    @abc.abstractmethod
    def installed_packages(self) -> frozenset[str]:
        ...

    @abc.abstractmethod
    def foreground_activity(self) -> str:
        """``package/fully.qualified.Activity`` of the screen in front."""

    def close(self) -> None:
        """Release the device; further calls raise `DeviceError`."""

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
