"""A fake Android phone on loopback that the real adbutils and uiautomator2 drive.

`FakePhoneServer` is an adb server (the host protocol on 127.0.0.1) whose devices are
`SimulatedDevice`s; behind it each phone has a small ``sh`` with the Android commands
clients use, a file system for ``sync``, and a uiautomator2 JSON-RPC server that
``app_process`` starts on device port 9008. `Faults` make a phone misbehave on cue
(the u2 server dies, a response is cut off, a request stalls, dumps come back empty).

    from mobile_gym.devices.fake import FakePhoneServer
    with FakePhoneServer(seed=0) as server:
        d = server.client().device("emulator-5554")    # adbutils.AdbDevice
        d.shell("input tap 540 1200")
        server.faults("emulator-5554").u2_dead = True
"""

from mobile_gym.devices.fake.adb_server import FakePhoneServer
from mobile_gym.devices.fake.faults import Faults
from mobile_gym.devices.fake.phone import FakePhone, pixel_point

__all__ = ["FakePhoneServer", "Faults", "FakePhone", "pixel_point"]
