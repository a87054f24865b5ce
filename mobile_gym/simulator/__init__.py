"""The embedded simulated Android device (the default backend)."""

from mobile_gym.simulator.device import SimulatedDevice
from mobile_gym.simulator.dynamics import DYNAMICS, Dynamics
from mobile_gym.simulator.profiles import PROFILES, DeviceProfile

__all__ = ["SimulatedDevice", "DYNAMICS", "Dynamics", "PROFILES", "DeviceProfile"]
