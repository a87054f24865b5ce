"""`FakePhoneServer`: an adb server on loopback whose devices are simulated phones.

It speaks the adb host ("smart socket") protocol that adbutils, uiautomator2 and the
``adb`` command line use to talk to the real server on port 5037: host services
(``host:version``, ``host:devices[-l]``, ``host:transport:S``, ``host:tport:serial:S``,
``host-serial:S:features``, forwards, ``host:track-devices``, ...) and, once a phone
is picked, its device services (see `services`). Point a client at it with
``adbutils.AdbClient(port=server.port)`` or ``ANDROID_ADB_SERVER_PORT``.

Every thread is a daemon and waits on sockets or conditions that `close` wakes, so
closing never hangs on a stalled client.
"""

from __future__ import annotations

import logging
import re
import socket
import struct
import threading
from typing import Any, Iterable, Mapping

from mobile_gym.devices.fake import wire
from mobile_gym.devices.fake.faults import Faults
from mobile_gym.devices.fake.phone import FakePhone
from mobile_gym.devices.fake.services import FEATURES, Link, serve_device
from mobile_gym.devices.fake.stats import Stats, total
from mobile_gym.errors import ConfigError, DeviceError

logger = logging.getLogger(__name__)

HOST = "127.0.0.1"  # never anything else: the fake is for this machine only
ADB_VERSION = 41  # what platform-tools 1.0.41 (every release since 2019) reports
JOIN_TIMEOUT = 5.0

_DEVICE_COMMANDS = re.compile(
    r"(features|get-state|get-serialno|get-devpath|list-forward|killforward-all|killforward:.*"
    r"|forward:.*|wait-for-.*|reconnect.*|host-features|disconnect)")


class FakePhoneServer:
    """A fake adb server hosting one simulated phone per serial.

    >>> with FakePhoneServer(serials=("emulator-5554",), seed=0) as server:
    ...     d = server.client().device("emulator-5554")  # an adbutils.AdbDevice
    ...     d.shell("input keyevent KEYCODE_HOME && wm size")
    'Physical size: 1080x2400'
    """

    def __init__(self, port: int = 0, serials: Iterable[str] = ("emulator-5554",), *,
                 profile: Any = "pixel-6", seed: int | None = None,
                 setup: Mapping[str, Any] | None = None, dynamics: str = "none",
                 devices: Mapping[str, Any] | None = None) -> None:
        """``port`` 0 picks a free port. Each serial gets a fresh `SimulatedDevice` of
        ``profile``/``dynamics``/``seed``/``setup``; ``devices`` maps serials to devices
        you made yourself instead."""
        if not isinstance(port, int) or not 0 <= port <= 65535:
            raise ConfigError(f"port must be an integer from 0 to 65535; got {port!r}")
        self._profile, self._seed, self._setup, self._dynamics = profile, seed, setup, dynamics
        self._closing = threading.Event()
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)  # the device list changed
        self._phones: dict[str, FakePhone] = {}
        self._next_transport = 1
        self._links: set[Link] = set()
        self._threads: set[threading.Thread] = set()
        self._forwards: dict[str, _Forward] = {}
        self._listener: socket.socket | None = None
        self._stall_all = False
        self._port = 0
        self._stats = Stats()  # connections and host requests; each phone counts its own
        for serial in serials:
            self.add_device(serial)
        for serial, device in (devices or {}).items():
            self.add_device(serial, device)
        self._listen(port)

    # ------------------------------------------------------------------ public API
    @property
    def port(self) -> int:
        return self._port

    @property
    def address(self) -> tuple[str, int]:
        return (HOST, self._port)

    @property
    def serials(self) -> list[str]:
        with self._lock:
            return list(self._phones)

    @property
    def listening(self) -> bool:
        return self._listener is not None

    def env(self) -> dict[str, str]:
        """Environment variables that point adb clients (adbutils, ``adb``) here."""
        return {"ANDROID_ADB_SERVER_HOST": HOST, "ANDROID_ADB_SERVER_PORT": str(self._port)}

    def client(self):
        """An ``adbutils.AdbClient`` for this server."""
        import adbutils

        return adbutils.AdbClient(host=HOST, port=self._port)

    def stats(self) -> dict[str, float]:
        """Round trips clients made and seconds the simulators took, added up over the
        server and its phones since it started (see `mobile_gym.devices.fake.stats`);
        a benchmark subtracts two of these."""
        return total([self._stats.snapshot(), *(p.stats.snapshot() for p in self._all_phones())])

    def phone(self, serial: str) -> FakePhone:
        with self._lock:
            try:
                return self._phones[serial]
            except KeyError:
                raise DeviceError(f"no fake phone {serial!r}; serials: {', '.join(self._phones)}") from None

    def device(self, serial: str):
        """The `SimulatedDevice` behind ``serial``."""
        return self.phone(serial).device

    def faults(self, serial: str) -> Faults:
        return self.phone(serial).faults

    def console_port(self, serial: str, token: str | None = None, port: int = 0) -> int:
        """The port of the phone's emulator console (``adb emu``: snapshots), on 127.0.0.1
        (`FakePhone.console_port`)."""
        return self.phone(serial).console_port(token, port)

    def add_device(self, serial: str, device: Any = None) -> FakePhone:
        """Plug in a phone (a fresh `SimulatedDevice` unless one is given)."""
        if not isinstance(serial, str) or not serial or any(c.isspace() for c in serial):
            raise ConfigError(f"a serial is a non-empty string without spaces; got {serial!r}")
        if device is None:
            from mobile_gym.simulator import SimulatedDevice

            device = SimulatedDevice(profile=self._profile, dynamics=self._dynamics, seed=self._seed,
                                     setup=self._setup)
        with self._changed:
            if serial in self._phones:
                raise ConfigError(f"serial {serial!r} is already in use")
            phone = FakePhone(serial, device, self._next_transport, alive=self._alive)
            self._next_transport += 1
            phone.faults.watch(self._notify)
            self._phones[serial] = phone
            self._changed.notify_all()
        return phone

    def remove_device(self, serial: str) -> None:
        """Unplug a phone: its uiautomator2 server and connections end."""
        with self._changed:
            phone = self._phones.pop(serial, None)
            self._changed.notify_all()
        if phone is None:
            raise DeviceError(f"no fake phone {serial!r}")
        phone.close()

    @property
    def stall_all(self) -> bool:
        """While True, every request (host ones too) is read and never answered."""
        return self._stall_all

    @stall_all.setter
    def stall_all(self, value: bool) -> None:
        with self._changed:
            self._stall_all = bool(value)
            self._changed.notify_all()

    def kill_adb(self) -> None:
        """The adb server dies: it stops listening, every connection and forward drops
        and the uiautomator2 servers (children of adb shells) die with them. The phones
        keep their screens; `revive_adb` brings the server back on the same port."""
        self._stop_listening()
        self._drop_links()
        for phone in self._all_phones():
            phone.kill_u2()

    def revive_adb(self) -> None:
        if self._closing.is_set():
            raise DeviceError("the fake adb server is closed")
        if self._listener is None:
            self._listen(self._port)

    def close(self) -> None:
        """Stop everything; returns once the server threads have ended."""
        if self._closing.is_set():
            return
        self._closing.set()
        self._stop_listening()
        self._drop_links()
        for phone in self._all_phones():
            phone.close()
        with self._changed:
            self._changed.notify_all()
        with self._lock:
            threads = list(self._threads)
        for t in threads:
            if t is not threading.current_thread():
                t.join(JOIN_TIMEOUT)
                if t.is_alive():
                    logger.warning("fake adb server thread %s did not stop", t.name)

    def __enter__(self) -> FakePhoneServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closing.is_set() else f"port {self._port}"
        return f"FakePhoneServer({state}, serials={self.serials})"

    # ------------------------------------------------------------------ plumbing
    def _alive(self) -> bool:
        return not self._closing.is_set()

    def _notify(self) -> None:
        with self._changed:
            self._changed.notify_all()

    def _all_phones(self) -> list[FakePhone]:
        with self._lock:
            return list(self._phones.values())

    def _spawn(self, target, *args, name: str) -> None:
        def run() -> None:
            try:
                target(*args)
            except Exception:  # a bug must not kill the server or reach the test silently
                logger.exception("fake adb server thread %s failed", name)
            finally:
                with self._lock:
                    self._threads.discard(threading.current_thread())

        t = threading.Thread(target=run, name=name, daemon=True)
        with self._lock:
            self._threads.add(t)
        t.start()

    def _listen(self, port: int) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((HOST, port))
        except OSError as exc:
            sock.close()
            raise DeviceError(f"cannot listen on {HOST}:{port}: {exc.strerror}") from exc
        sock.listen(64)
        self._port = sock.getsockname()[1]
        self._listener = sock
        self._spawn(self._accept, sock, name=f"fake-adb-accept-{self._port}")
        logger.debug("fake adb server listening on %s:%d", HOST, self._port)

    def _stop_listening(self) -> None:
        with self._lock:
            sock, self._listener = self._listener, None
            forwards, self._forwards = list(self._forwards.values()), {}
        if sock is not None:
            wire.shutdown(sock)
            wire.close(sock)
        for fwd in forwards:
            fwd.close()

    def _drop_links(self) -> None:
        with self._lock:
            links = list(self._links)
        for link in links:
            link.drop()
        for phone in self._all_phones():
            phone.wake()
        self._notify()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                sock, _ = listener.accept()
            except OSError:
                return
            if not self._track_and_serve(sock, smart=True, listener=listener):
                return

    def _track_and_serve(self, sock: socket.socket, smart: bool, phone: FakePhone | None = None,
                         service: str | None = None, listener: socket.socket | None = None) -> bool:
        """Serve a new connection in its own thread; False (and the connection dropped)
        if the server closed or stopped listening since it was accepted."""
        wire.no_delay(sock)
        link = Link(sock, smart=smart, server_alive=self._alive)
        with self._lock:  # checked and registered at once: `_drop_links` sees it or it is refused
            if self._closing.is_set() or (listener is not None and self._listener is not listener):
                wire.abort(sock)
                return False
            self._links.add(link)
        self._stats.count("adb_connections")
        self._spawn(self._serve, link, phone, service, name=f"fake-adb-conn-{sock.fileno()}")
        return True

    def _serve(self, link: Link, phone: FakePhone | None, service: str | None) -> None:
        sock = link.sock
        try:
            if service is not None and phone is not None:  # a forwarded connection
                serve_device(link, phone, service)
                return
            while link.alive():
                request = wire.read_request(sock)
                if request is None:
                    return
                logger.debug("fake adb request %r", request)
                if self._stall_all:
                    with self._changed:
                        self._changed.wait_for(lambda: not self._stall_all or not link.alive())
                    return
                if phone is None:
                    self._stats.count("host_requests")
                    phone = self._host(link, request)
                    if phone is None:
                        return
                    link.reset_status()
                elif request.startswith("host:"):  # a host service for the chosen phone
                    self._device_command(link, f"id:{phone.transport_id}", request[len("host:"):])
                    return
                else:
                    serve_device(link, phone, request)
                    return
        except wire.Disconnected:
            pass
        finally:
            with self._lock:
                self._links.discard(link)
            wire.abort(sock)

    # ------------------------------------------------------------------ host services
    def _host(self, link: Link, request: str) -> FakePhone | None:
        """Answer a host request; the phone if it switched the connection to one."""
        sock = link.sock
        if request.startswith("host:"):
            return self._host_plain(link, request[len("host:"):])
        for prefix in ("host-serial:", "host-transport-id:", "host-usb:", "host-local:"):
            if request.startswith(prefix):
                rest = request[len(prefix):]
                if prefix in ("host-usb:", "host-local:"):
                    selector, command = "any", rest
                else:
                    m = re.fullmatch(r"(.+?):" + _DEVICE_COMMANDS.pattern, rest)
                    if m is None:
                        link.fail(f"unknown host service '{rest}'")
                        return None
                    selector = ("id:" if prefix == "host-transport-id:" else "serial:") + m.group(1)
                    command = rest[len(m.group(1)) + 1:]
                self._device_command(link, selector, command)
                return None
        wire.fail(sock, f"unknown host service '{request}'")
        return None

    def _host_plain(self, link: Link, command: str) -> FakePhone | None:
        if command == "version":
            link.okay("%04x" % ADB_VERSION)
        elif command in ("devices", "devices-l"):
            link.okay(self._device_list(long=command == "devices-l"))
        elif command in ("features", "host-features"):
            link.okay(FEATURES)
        elif command == "kill":
            link.okay()
            self._spawn(self.kill_adb, name="fake-adb-kill")
        elif command in ("track-devices", "track-devices-l"):
            self._track(link, long=command.endswith("-l"))
        elif command == "list-forward":
            link.okay(self._forward_list(None))
        elif command == "killforward-all":
            self._kill_forwards(None)
            link.okay()
            link.okay()
        elif command.startswith("connect:"):
            link.okay(f"failed to connect to '{command[len('connect:'):]}': Connection refused")
        elif command.startswith("disconnect:"):
            link.fail(f"no such device '{command[len('disconnect:'):]}'")
        elif command.startswith("wait-for-"):
            self._wait_for(link, "any")
        elif command.startswith(("transport", "tport:")):
            return self._switch(link, command)
        elif _DEVICE_COMMANDS.fullmatch(command):  # get-state, forward:... on the only phone
            self._device_command(link, "any", command)
        else:
            link.fail(f"unknown host service '{command}'")
        return None

    def _switch(self, link: Link, command: str) -> FakePhone | None:
        """``transport:S`` / ``transport-id:N`` / ``transport-any`` / ``tport:serial:S`` ..."""
        tport = command.startswith("tport:")
        spec = command[len("tport:"):] if tport else command[len("transport"):]
        if spec.startswith(":"):
            selector = "serial:" + spec[1:]
        elif spec.startswith("-id:"):
            selector = "id:" + spec[len("-id:"):]
        elif spec.startswith(("serial:", "id:")) or spec.startswith("transport-id:"):
            selector = spec.replace("transport-id:", "id:")
        else:
            selector = "any"
        phone = self._pick(link, selector)
        if phone is None:
            return None
        link.okay()
        if tport:
            wire.send(link.sock, struct.pack("<Q", phone.transport_id))
        return phone

    def _pick(self, link: Link, selector: str, allow_offline: bool = False) -> FakePhone | None:
        """The phone a selector names, or a FAIL reply as adb words it and None."""
        with self._lock:
            phones = dict(self._phones)
        kind, _, value = selector.partition(":")
        if kind == "serial":
            phone = phones.get(value)
            if phone is None:
                link.fail(f"device '{value}' not found")
                return None
        elif kind == "id":
            phone = next((p for p in phones.values() if str(p.transport_id) == value), None)
            if phone is None:
                link.fail(f"no device with transport id '{value}'")
                return None
        else:
            online = [p for p in phones.values() if not p.faults.offline]
            if not phones:
                link.fail("no devices/emulators found")
                return None
            if len(phones) > 1:
                link.fail("more than one device/emulator")
                return None
            phone = online[0] if online else next(iter(phones.values()))
        if phone.faults.offline and not allow_offline:
            link.fail("device offline")
            return None
        return phone

    def _device_command(self, link: Link, selector: str, command: str) -> None:
        if command.startswith("wait-for-"):
            self._wait_for(link, selector)
            return
        phone = self._pick(link, selector, allow_offline=command == "get-state")
        if phone is None:
            return
        if command in ("features", "host-features"):
            link.okay(FEATURES)
        elif command == "get-state":
            link.okay("offline" if phone.faults.offline else "device")
        elif command == "get-serialno":
            link.okay(phone.serial)
        elif command == "get-devpath":
            link.okay("usb:1-1")
        elif command == "list-forward":
            link.okay(self._forward_list(phone.serial))
        elif command == "killforward-all":
            self._kill_forwards(phone.serial)
            link.okay()
            link.okay()
        elif command.startswith("killforward:"):
            local = command[len("killforward:"):]
            with self._lock:
                fwd = self._forwards.pop(local, None)
            if fwd is None:
                link.fail(f"listener '{local}' not found")
                return
            fwd.close()
            link.okay()
            link.okay()
        elif command.startswith("forward:"):
            self._forward(link, phone, command[len("forward:"):])
        else:
            link.fail(f"unknown host service '{command}'")

    def _device_list(self, long: bool) -> str:
        lines = []
        for phone in self._all_phones():
            state = "offline" if phone.faults.offline else "device"
            if long:
                props = phone.props
                lines.append(f"{phone.serial:<22} {state} product:{props['ro.product.name']} "
                             f"model:{props['ro.product.model'].replace(' ', '_')} "
                             f"device:{props['ro.product.device']} transport_id:{phone.transport_id}\n")
            else:
                lines.append(f"{phone.serial}\t{state}\n")
        return "".join(lines)

    def _track(self, link: Link, long: bool) -> None:
        """``host:track-devices``: the device list now and after every change."""
        link.okay()
        last = None
        while link.alive():
            with self._changed:
                listing = self._device_list(long)
                if listing == last:
                    self._changed.wait()
                    continue
            wire.send(link.sock, wire.block(listing))
            last = listing

    def _wait_for(self, link: Link, selector: str) -> None:
        """``wait-for-any-device``: OKAY now, another once such a phone is online."""
        link.okay()
        kind, _, value = selector.partition(":")

        def ready() -> bool:
            phones = self._all_phones()
            if kind == "serial":
                phones = [p for p in phones if p.serial == value]
            elif kind == "id":
                phones = [p for p in phones if str(p.transport_id) == value]
            return any(not p.faults.offline for p in phones)

        with self._changed:
            self._changed.wait_for(lambda: ready() or not link.alive())
        if link.alive():
            wire.okay(link.sock)

    # ------------------------------------------------------------------ forwards
    def _forward(self, link: Link, phone: FakePhone, spec: str) -> None:
        norebind = spec.startswith("norebind:")
        if norebind:
            spec = spec[len("norebind:"):]
        local, sep, remote = spec.partition(";")
        if not sep or not local.startswith("tcp:") or not local[4:].isdigit():
            link.fail(f"cannot bind listener: only tcp:PORT local ends are supported, not '{local}'")
            return
        with self._lock:
            existing = self._forwards.get(local)
            if existing is not None:
                if norebind:
                    link.fail(f"cannot rebind existing socket '{local}'")
                    return
                existing.remote, existing.phone = remote, phone
                link.okay()
                link.okay()
                return
        try:
            fwd = _Forward(self, phone, int(local[4:]), remote)
        except OSError as exc:
            link.fail(f"cannot bind listener: cannot bind to {HOST}:{local[4:]}: {exc.strerror}")
            return
        with self._lock:
            self._forwards[f"tcp:{fwd.port}"] = fwd
        link.okay()
        link.okay(str(fwd.port) if local == "tcp:0" else None)

    def _forward_list(self, serial: str | None) -> str:
        with self._lock:
            items = list(self._forwards.items())
        return "".join(f"{f.phone.serial} {local} {f.remote}\n" for local, f in items
                       if serial is None or f.phone.serial == serial)

    def _kill_forwards(self, serial: str | None) -> None:
        with self._lock:
            doomed = [k for k, f in self._forwards.items() if serial is None or f.phone.serial == serial]
            forwards = [self._forwards.pop(k) for k in doomed]
        for fwd in forwards:
            fwd.close()


class _Forward:
    """``adb forward tcp:LOCAL REMOTE``: a loopback port whose connections become the
    device service REMOTE (e.g. ``tcp:9008``) of one phone."""

    def __init__(self, server: FakePhoneServer, phone: FakePhone, port: int, remote: str) -> None:
        self.server, self.phone, self.remote = server, phone, remote
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.sock.bind((HOST, port))
        except OSError:
            self.sock.close()
            raise
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        server._spawn(self._accept, name=f"fake-adb-forward-{self.port}")

    def _accept(self) -> None:
        while True:
            try:
                sock, _ = self.sock.accept()
            except OSError:
                return
            if not self.server._track_and_serve(sock, smart=False, phone=self.phone, service=self.remote):
                return

    def close(self) -> None:
        wire.shutdown(self.sock)
        wire.close(self.sock)

