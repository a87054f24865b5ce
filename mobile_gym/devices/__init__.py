"""Device backends behind one interface: the simulator (default), real devices later."""

from mobile_gym.devices.base import Device

__all__ = ["Device"]
