"""android_env's adb requests (`adb_pb2.AdbRequest`) answered on our envs.

AndroidWorld's utilities and android_env's clients reach a phone through
``execute_adb_call(AdbRequest) -> AdbResponse``. android_env turns each request into
``adb`` command lines with its own `AdbCallParser` (a tap is ``adb shell input tap X Y``,
the current activity is read from ``am stack list``, ...), which it hands to an
`AdbController`. We keep android_env's parser, so every request becomes exactly the
command lines a phone would get, and put `ShellAdb` where its `AdbController` goes:

- on the simulated phone the command lines run in the fake phone's shell
  (`mobile_gym.devices.fake`), the one the fake adb server serves, on a `JudgedPhone`:
  every input the phone gets (a tap, a swipe, a key, typed text, an app started) is a
  step of the env, so the matcher sees each screen it leads to, as it sees an agent's;
- on a phone (``backend="device"``) they go to the phone over adb as they are. The
  matcher then sees their effect at the env's next step, not each of them.

Inputs that are no action of ours (Delete, Ctrl+A, a key the simulator has no use for)
change the phone directly; the matcher sees what they did at the next step. A request
android_env's parser cannot carry out gets its response status (FAILED_PRECONDITION,
ADB_ERROR, TIMEOUT, ...) as on a phone, never an exception.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from mobile_gym.actions import Action
from mobile_gym.devices.fake.phone import FakePhone
from mobile_gym.devices.fake.services import COMMANDS
from mobile_gym.devices.fake.shell import ShellSession, Streams
from mobile_gym.errors import DeviceError, InvalidActionError, MissingExtraError

if TYPE_CHECKING:
    from mobile_gym.env import MobileEnv

#: The serial AndroidWorld's and android_env's emulators have: what ``adb devices`` shows.
SERIAL = "emulator-5554"

EXTRA_HINT = "pip install 'mobile-gym[androidworld]' (android-env from PyPI: its protos and adb request parser)"


def require_android_env() -> None:
    """Raise `MissingExtraError` naming the extra when android_env is not installed."""
    try:
        import android_env  # noqa: F401
    except ImportError as exc:
        raise MissingExtraError(f"this adapter needs android_env: {EXTRA_HINT}") from exc


class JudgedPhone(FakePhone):
    """The fake phone over an env's simulated device, whose inputs are env steps.

    `FakePhone` hands every input that is an `Action` to ``_perform`` (a tap, a swipe,
    typed text, Back, Home, Enter) and every ``am start`` / ``monkey`` to `launch`; here
    both become ``step(action)``, so the env's clock, trace and matcher see them as they
    see an agent's actions. The rest stays direct: what adb does without input (``am
    force-stop``, ``pm clear``, settings) and the keys no action stands for (Delete,
    Ctrl+A)."""

    def __init__(self, env: MobileEnv, step: Callable[[Action], Any]) -> None:
        super().__init__(SERIAL, env.device, transport_id=1)  # type: ignore[arg-type]
        self._step = step

    def _perform(self, action: Action) -> None:
        with self.changed:
            self._step(action)
            self.changed.notify_all()

    def launch(self, package: str) -> None:
        """An app started over adb: an OPEN_APP step (on a phone it may show a loading screen too)."""
        self._perform(Action.open_app(package))


class ShellAdb:
    """What android_env's `AdbCallParser` needs of its `AdbController`:
    ``execute_command(args) -> bytes``, the output of ``adb ARGS`` with stderr merged,
    `subprocess.CalledProcessError` on a non-zero exit, as android_env's own raises."""

    def __init__(self, phone: FakePhone) -> None:
        self.phone = phone

    def execute_command(self, args: Sequence[str], timeout: float | None = None,
                        device_specific: bool = True) -> bytes:
        del timeout, device_specific  # the simulated phone answers at once; there is one phone
        args = [str(a) for a in args]
        verb = args[0] if args else ""
        out = bytearray()
        if verb == "shell" and len(args) > 1:  # adb joins the words with spaces for a new sh -c
            session = ShellSession(self.phone, COMMANDS, pid=self.phone.new_pid())
            status = session.run(" ".join(args[1:]), Streams(out.extend, out.extend))
        elif verb == "root":
            out += b"adbd cannot run as root in production builds\n"
            status = 0
        elif verb == "get-state":
            out += b"device\n"
            status = 0
        elif verb == "devices":
            out += f"List of devices attached\n{SERIAL}\tdevice\n\n".encode()
            status = 0
        elif verb in ("push", "pull") and len(args) == 3:
            status = self._transfer(verb, args[1], args[2], out)
        else:
            out += f"adb: {' '.join(args) or '(nothing)'}: not offered by the simulated phone\n".encode()
            status = 1
        if status != 0:
            raise subprocess.CalledProcessError(status, ["adb", *args], output=bytes(out))
        return bytes(out)

    def _transfer(self, verb: str, source: str, target: str, out: bytearray) -> int:
        """``adb push LOCAL REMOTE`` / ``adb pull REMOTE LOCAL`` with the fake phone's files."""
        fs = self.phone.fs
        try:
            if verb == "push":
                data = Path(source).read_bytes()
                fs.write(fs.normalize(target, "/"), data)
            else:
                data = fs.read(fs.normalize(source, "/"))
                Path(target).write_bytes(data)
        except Exception as exc:  # a missing file, a folder, no permission: adb's message
            out += f"adb: error: {verb} {source}: {exc}\n".encode()
            return 1
        out += f"{source}: 1 file {verb}ed, 0 skipped. {len(data)} bytes\n".encode()
        return 0


class PhoneAdb:
    """`ShellAdb` for a phone (``backend="device"``): ``adb shell`` lines run on it."""

    def __init__(self, device: Any) -> None:
        self.device = device

    def execute_command(self, args: Sequence[str], timeout: float | None = None,
                        device_specific: bool = True) -> bytes:
        del device_specific
        args = [str(a) for a in args]
        if args[:1] != ["shell"] or len(args) < 2:
            raise subprocess.CalledProcessError(1, ["adb", *args],
                                                output=b"adb: only 'adb shell' is forwarded to the phone\n")
        try:
            status, output = self.device.shell(" ".join(args[1:]), timeout=timeout)
        except DeviceError as exc:  # android_env's parser turns these into the response's status
            if "did not answer" in str(exc):
                raise subprocess.TimeoutExpired(["adb", *args], timeout or 0, output=str(exc).encode()) from exc
            raise subprocess.CalledProcessError(255, ["adb", *args], output=str(exc).encode()) from exc
        if status != 0:
            raise subprocess.CalledProcessError(status, ["adb", *args], output=output)
        return output


class AdbCalls:
    """``execute(AdbRequest) -> AdbResponse`` for an env, through android_env's own parser.

    ``step(action)`` is how the owner steps its env (it keeps the reward, the info); the
    simulated phone's inputs go through it. Made again whenever the owner's env changes."""

    def __init__(self, env: MobileEnv, step: Callable[[Action], Any]) -> None:
        require_android_env()
        from android_env.components.adb_call_parser import AdbCallParser

        adb = ShellAdb(JudgedPhone(env, step)) if env.backend == "sim" else PhoneAdb(env.device)
        self.adb: ShellAdb | PhoneAdb = adb
        self._parser = AdbCallParser(adb)  # type: ignore[arg-type]

    def execute(self, request: Any) -> Any:
        from android_env.proto import adb_pb2

        if not isinstance(request, adb_pb2.AdbRequest):
            raise InvalidActionError(f"execute_adb_call takes an android_env adb_pb2.AdbRequest; got "
                                     f"{type(request).__name__}")
        return self._parser.parse(request)

    def shell(self, command: str) -> str:
        """``adb shell COMMAND``'s output as text (a failing command's output too)."""
        try:
            return self.adb.execute_command(["shell", command]).decode("utf-8", "replace")
        except subprocess.CalledProcessError as exc:
            return (exc.output or b"").decode("utf-8", "replace")
