"""Oracles of Clock tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice


@oracle("clock.alarm_9am_on")
def _alarm_9am_on(phone: SimulatedDevice) -> bool:
    """An alarm at 9:00 AM is switched on (a new one, or an existing one turned on)."""
    return any(a.hour == 9 and a.minute == 0 and a.enabled for a in phone.app_state("clock").alarms)


@oracle("clock.timer_running")
def _timer_running(phone: SimulatedDevice) -> bool:
    """A timer is counting down (started and not yet gone off)."""
    s = phone.app_state("clock")
    return s.timer_active and s.timer_running and s.timer_left(phone.runtime.time) > 0


@oracle("clock.tokyo_on_world_clock")
def _tokyo_on_world_clock(phone: SimulatedDevice) -> bool:
    return "Tokyo" in phone.app_state("clock").cities


@oracle("clock.12_hour_format")
def _12_hour_format(phone: SimulatedDevice) -> bool:
    return not phone.app_state("clock").use_24_hour


@oracle("clock.stopwatch_running")
def _stopwatch_running(phone: SimulatedDevice) -> bool:
    return phone.app_state("clock").stopwatch_running


@oracle("clock.snooze_changed")
def _snooze_changed(phone: SimulatedDevice) -> bool:
    """The snooze length is no longer the default 10 minutes."""
    return phone.app_state("clock").snooze_minutes != 10
