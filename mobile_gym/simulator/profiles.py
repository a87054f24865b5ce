"""Device profiles: the screens the simulator can pretend to be."""

from __future__ import annotations

from dataclasses import dataclass

from mobile_gym.errors import SimulatorError


@dataclass(frozen=True)
class DeviceProfile:
    name: str  # registry key, e.g. "pixel-6"
    width: int  # screen width in px
    height: int  # screen height in px
    dpi: int  # screen density; dp -> px factor is dpi / 160
    status_bar_dp: float = 24.0  # height of the status bar
    nav_bar_dp: float = 48.0  # height of the three-button navigation bar

    @property
    def density(self) -> float:
        return self.dpi / 160.0

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)


PROFILES: dict[str, DeviceProfile] = {
    p.name: p
    for p in (
        # LlamaTouch's Pixel emulator (the fixtures' size).
        DeviceProfile("pixel-6", 1080, 2400, 420),
        # An older 18.5:9 phone.
        DeviceProfile("pixel-3", 1080, 2160, 440),
        # A budget phone at xhdpi.
        DeviceProfile("budget-720p", 720, 1600, 320),
    )
}
DEFAULT_PROFILE = "pixel-6"


def get_profile(profile: str | DeviceProfile) -> DeviceProfile:
    if isinstance(profile, DeviceProfile):
        return profile
    try:
        return PROFILES[profile]
    except KeyError:
        raise SimulatorError(
            f"unknown device profile {profile!r}; known: {', '.join(PROFILES)}") from None
