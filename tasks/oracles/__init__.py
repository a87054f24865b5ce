"""Task oracles: predicates on the simulator's app state that say whether a task is
done. They are ground truth for testing the matcher, never the default reward.

Task files name them (``oracle: settings.wifi_off``); each takes the device. One module
per app holds its oracles; importing this package registers them all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice

Oracle = Callable[["SimulatedDevice"], bool]
ORACLES: dict[str, Oracle] = {}


def oracle(name: str) -> Callable[[Oracle], Oracle]:
    def register(fn: Oracle) -> Oracle:
        if name in ORACLES:
            raise ValueError(f"oracle {name!r} is defined twice")
        ORACLES[name] = fn
        return fn
    return register


from mobile_gym.tasks.oracles import (  # noqa: E402,F401 - registers
    calendar, chrome, clock, discord, evernote, gmail, googletasks, pinterest, playstore, reddit, settings, trello,
    youtube,
)
