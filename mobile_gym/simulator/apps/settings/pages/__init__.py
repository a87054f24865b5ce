"""Every sub-page of Settings; importing this package registers them all."""

from mobile_gym.simulator.apps.settings.pages import (  # noqa: F401  (registration)
    accessibility, apps, battery, devices, display, network, privacy, system,
)
