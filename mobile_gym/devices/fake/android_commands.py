"""The Android commands of the fake phone's shell: ``getprop``, ``wm``, ``dumpsys``,
``pm``, ``am``, ``cmd``, ``monkey``, ``input``, ``screencap``, ``uiautomator``,
``settings``, ``ime``, ``svc``, ``ps``, ``pidof``, ``kill``, ``logcat``, ``service`` and the
``app_process`` launch of uiautomator2's server.

Output follows Android 13's closely enough for the parsers in adbutils and
uiautomator2 (``Physical size: WxH``, ``package:NAME``; ``dumpsys`` is in `dumpsys`);
input commands become `Action`s on the simulator, in pixels of the phone's screen.
"""

from __future__ import annotations

import base64
import io
import re
import struct
import time

from mobile_gym.devices.fake.dumpsys import (
    code_path,
    dumpsys,
    is_system,
    short_activity,
    task_id,
    uid_of,
)
from mobile_gym.devices.fake.fs import FsError
from mobile_gym.devices.fake.phone import ADB_KEYBOARD, LATIN_IME
from mobile_gym.devices.fake.shell import Command, Context
from mobile_gym.devices.fake.u2_server import BANNER
from mobile_gym.errors import DeviceError

SYSTEM_UI = "com.android.systemui"


# ------------------------------------------------------------------------- properties
def getprop(ctx: Context, argv: list[str]) -> int:
    props = ctx.phone.props
    if len(argv) == 1:
        ctx.out("".join(f"[{k}]: [{v}]\n" for k, v in sorted(props.items())))
    else:
        ctx.out(props.get(argv[1], argv[2] if len(argv) > 2 else "") + "\n")
    return 0


def setprop(ctx: Context, argv: list[str]) -> int:
    if len(argv) != 3:
        ctx.err("setprop: Need 2 arguments\n")
        return 1
    name, value = argv[1], argv[2]
    if name.startswith("ro.") and name in ctx.phone.props or name.startswith(("ro.", "sys.", "init.")):
        ctx.err(f"Failed to set property '{name}' to '{value}'.\nSee dmesg for error reason.\n")
        return 1
    ctx.phone.props[name] = value
    return 0


def wm(ctx: Context, argv: list[str]) -> int:
    phone = ctx.phone
    sub = argv[1] if len(argv) > 1 else ""
    if sub == "size":
        if len(argv) > 2 and argv[2] != "reset":
            ctx.err("Error: the fake phone's screen size is fixed\n")
            return 255
        if len(argv) == 2:
            w, h = phone.size
            ctx.out(f"Physical size: {w}x{h}\n")
        return 0
    if sub == "density":
        if len(argv) > 2 and argv[2] != "reset":
            ctx.err("Error: the fake phone's density is fixed\n")
            return 255
        if len(argv) == 2:
            ctx.out(f"Physical density: {phone.device.profile.dpi}\n")
        return 0
    ctx.err(f"Error: unknown command '{sub}'\n" if sub else "Window manager (window) commands:\n  size\n  density\n")
    return 255 if sub else 0


def pm(ctx: Context, argv: list[str]) -> int:
    phone = ctx.phone
    sub = argv[1:2] and argv[1]
    args = [a for a in argv[2:]]
    if "--user" in args:
        i = args.index("--user")
        del args[i:i + 2]
    if sub == "list" and args[:1] == ["packages"]:
        opts = {a for a in args[1:] if a.startswith("-")}
        needle = next((a for a in args[1:] if not a.startswith("-")), "")
        lines = []  # written at once, not a socket write (and a packet) per package
        for package in sorted(phone.installed()):
            if ("-3" in opts and is_system(package)) or ("-s" in opts and not is_system(package)):
                continue
            if needle not in package:
                continue
            path = f"{code_path(package)}/base.apk=" if "-f" in opts else ""
            lines.append(f"package:{path}{package}" + (" installer=com.android.vending" if "-i" in opts else "") + "\n")
        ctx.out("".join(lines))
        return 0
    if sub == "path":
        if not args or args[-1] not in phone.installed():
            return 1
        ctx.out(f"package:{code_path(args[-1])}/base.apk\n")
        return 0
    if sub in ("clear", "uninstall"):
        package = args[-1] if args else ""
        if package not in phone.installed():
            ctx.out("Failed\n" if sub == "clear" else "Failure [DELETE_FAILED_INTERNAL_ERROR]\n")
            return 1
        phone.clear_data(package) if sub == "clear" else phone.uninstall(package)
        ctx.out("Success\n")
        return 0
    if sub == "install":
        ctx.out("Failure [INSTALL_FAILED_INVALID_APK: the fake phone installs apps from its own catalogue only]\n")
        return 1
    if sub in ("grant", "revoke", "enable", "disable-user", "disable", "set-installer", "trim-caches"):
        return 0
    if sub == "list" and args[:1] == ["features"]:
        ctx.out("feature:android.hardware.touchscreen\nfeature:android.hardware.wifi\n")
        return 0
    ctx.err(f"Unknown command: {sub}\n" if sub else "Package manager (package) commands:\n")
    return 1 if sub else 0


# ------------------------------------------------------------------------- activities
def _intent_args(args: list[str]) -> dict:
    """The flags of ``am start`` / ``am broadcast`` (-a -d -n -c -p --es k v ...)."""
    intent: dict = {"flags": set(), "extras": {}, "categories": []}
    with_value = {"-a": "action", "-d": "data", "-n": "component", "-t": "type", "-p": "package",
                  "-f": "intent_flags", "--user": "user", "-R": "repeat", "-P": "profile",
                  "--start-profiler": "profile", "--windowingMode": "windowing", "--display": "display"}
    i = 0
    while i < len(args):
        a = args[i]
        if a in with_value and i + 1 < len(args):
            intent[with_value[a]] = args[i + 1]
            i += 2
        elif a == "-c" and i + 1 < len(args):
            intent["categories"].append(args[i + 1])
            i += 2
        elif a in ("--es", "--ez", "--ei", "--el", "--ef", "--eu", "--ecn", "--esa", "--eia") and i + 2 < len(args):
            intent["extras"][args[i + 1]] = args[i + 2]
            i += 3
        elif a.startswith("-"):
            intent["flags"].add(a)
            i += 1
        else:
            intent.setdefault("data", a)
            i += 1
    return intent


def _describe(intent: dict) -> str:
    parts = []
    if intent.get("action"):
        parts.append(f"act={intent['action']}")
    if intent["categories"]:
        parts.append("cat=[" + ",".join(intent["categories"]) + "]")
    if intent.get("data"):
        parts.append(f"dat={intent['data']}")
    if intent.get("component"):
        parts.append(f"cmp={intent['component']}")
    return "Intent { " + " ".join(parts) + (" (has extras)" if intent["extras"] else "") + " }"


def _am_start(ctx: Context, intent: dict) -> int:
    phone = ctx.phone
    wait = "-W" in intent["flags"]
    started = None
    if intent.get("component"):
        package, _, activity = intent["component"].partition("/")
        if package not in phone.installed() or not activity:
            ctx.out(f"Starting: {_describe(intent)}\n")
            ctx.err(f"Error type 3\nError: Activity class {{{intent['component']}}} does not exist.\n")
            return 1
        if "-S" in intent["flags"]:
            phone.force_stop(package)
        ctx.out(f"Starting: {_describe(intent)}\n")
        if phone.foreground()[0] == package:
            ctx.out("Warning: Activity not started, intent has been delivered to currently running "
                    "top-most instance.\n")
        phone.launch(package)
        started = package
    elif intent.get("action") == "android.intent.action.VIEW" and re.match(r"https?://", intent.get("data") or ""):
        ctx.out(f"Starting: {_describe(intent)}\n")
        if not phone.open_url(intent["data"]):
            ctx.err(f"Error: Activity not started, unable to resolve {_describe(intent)}\n")
            return 1
        started = "com.android.chrome"
    elif intent.get("package") and intent.get("package") in phone.installed():
        ctx.out(f"Starting: {_describe(intent)}\n")
        phone.launch(intent["package"])
        started = intent["package"]
    else:
        ctx.out(f"Starting: {_describe(intent)}\n")
        ctx.err(f"Error: Activity not started, unable to resolve {_describe(intent)}\n")
        return 1
    if wait:
        package, activity = phone.foreground()
        ctx.out(f"Status: ok\nLaunchState: WARM\nActivity: {package}/{short_activity(package, activity)}\n"
                "TotalTime: 120\nWaitTime: 125\nComplete\n")
    return 0 if started else 1


def _am_broadcast(ctx: Context, intent: dict) -> int:
    phone = ctx.phone
    action = intent.get("action", "")
    ctx.out(f"Broadcasting: {_describe(intent)}\n")
    if action.startswith("ADB_KEYBOARD_") and phone.adb_keyboard:
        if action == "ADB_KEYBOARD_INPUT_TEXT":
            try:
                text = base64.b64decode(intent["extras"].get("text", "")).decode("utf-8")
            except ValueError:
                ctx.out('Broadcast completed: result=0, data="bad base64"\n')
                return 0
            phone.type_text(text)
        elif action == "ADB_KEYBOARD_CLEAR_TEXT":
            phone.set_focused_text("")
        elif action == "ADB_KEYBOARD_HIDE":
            phone.hide_keyboard()
        elif action in ("ADB_KEYBOARD_SMART_ENTER", "ADB_KEYBOARD_EDITOR_CODE"):
            from mobile_gym.actions import Action

            phone.perform(Action.enter())
        ctx.out('Broadcast completed: result=-1, data="success"\n')
        return 0
    ctx.out("Broadcast completed: result=0\n")
    return 0


def _am_stack(ctx: Context, args: list[str]) -> int:
    """``am stack list`` (the task in front, as android_env reads the current activity
    from it) and ``am stack remove ID`` (that task's app closed: AndroidWorld's
    ``close_recents``)."""
    phone = ctx.phone
    package, activity = phone.foreground()
    task = task_id(package)
    w, h = phone.size
    if args[:1] == ["list"]:
        ctx.out(f"RootTask id={task} bounds=[0,0][{w},{h}] displayId=0 userId=0\n"
                f" configuration={{1.0 ?mcc?mnc [en_US] ldltr sw411dp w411dp h914dp 420dpi nrml long port}}\n"
                f"  taskId={task}: {package}/{short_activity(package, activity)} bounds=[0,0][{w},{h}] userId=0 "
                f"visible=true topActivity=ComponentInfo{{{package}/{activity}}}\n")
        return 0
    if args[:1] == ["remove"] and len(args) == 2:
        for running in phone.running_packages():
            if args[1] == str(task_id(running)):
                phone.force_stop(running)
        return 0
    ctx.err("Error: unknown stack command\n")
    return 255


def am(ctx: Context, argv: list[str]) -> int:
    sub = argv[1] if len(argv) > 1 else ""
    args = argv[2:]
    if sub in ("start", "start-activity"):
        return _am_start(ctx, _intent_args(args))
    if sub == "broadcast":
        return _am_broadcast(ctx, _intent_args(args))
    if sub in ("force-stop", "kill", "stop-app"):
        packages = [a for a in args if not a.startswith("-") and a != "all"]
        for package in packages:
            ctx.phone.force_stop(package)
        return 0
    if sub == "get-current-user":
        ctx.out("0\n")
        return 0
    if sub == "stack":
        return _am_stack(ctx, args)
    if sub == "":
        ctx.out("Activity manager (activity) commands:\n  start\n  broadcast\n  force-stop\n")
        return 0
    ctx.err(f"Unknown command: {sub}\n")
    return 255


def monkey(ctx: Context, argv: list[str]) -> int:
    args = argv[1:]
    package = args[args.index("-p") + 1] if "-p" in args and args.index("-p") + 1 < len(args) else None
    for a in args:
        ctx.out(f"  bash arg: {a}\n")
    if package is None or package not in ctx.phone.installed():
        ctx.out("** No activities found to run, monkey aborted.\n")
        return 252
    ctx.phone.launch(package)
    ctx.out("Events injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n")
    return 0


def cmd(ctx: Context, argv: list[str]) -> int:
    service = argv[1] if len(argv) > 1 else ""
    target = {"package": pm, "activity": am, "input": input_, "window": wm}.get(service)
    if target is None:
        ctx.err(f"cmd: Can't find service: {service}\n")
        return 20
    return target(ctx, [service, *argv[2:]])


# ------------------------------------------------------------------------- input
#: Android key names (without ``KEYCODE_``) -> codes, for the keys adb clients send.
KEYCODES = {"HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6, "DPAD_UP": 19, "DPAD_DOWN": 20,
            "DPAD_LEFT": 21, "DPAD_RIGHT": 22, "DPAD_CENTER": 23, "VOLUME_UP": 24, "VOLUME_DOWN": 25,
            "POWER": 26, "CAMERA": 27, "CLEAR": 28, "COMMA": 55, "PERIOD": 56, "TAB": 61, "SPACE": 62,
            "ENTER": 66, "DEL": 67, "AT": 77, "MENU": 82, "NOTIFICATION": 83, "SEARCH": 84,
            "ESCAPE": 111, "FORWARD_DEL": 112, "MOVE_HOME": 122, "MOVE_END": 123, "NUMPAD_ENTER": 160,
            "VOLUME_MUTE": 164, "APP_SWITCH": 187, "SLEEP": 223, "WAKEUP": 224,
            **{str(d): 7 + d for d in range(10)}, **{chr(65 + i): 29 + i for i in range(26)}}
_TYPED = {**{7 + d: str(d) for d in range(10)}, **{29 + i: chr(97 + i) for i in range(26)},
          55: ",", 56: ".", 62: " ", 77: "@"}


#: Modifier keys (shift, alt, ctrl, meta: left and right) and the two Ctrl keys.
_MODIFIERS = frozenset({57, 58, 59, 60, 113, 114, 117, 118})
_CTRL = frozenset({113, 114})


def _keycode(name: str) -> int | None:
    if name.isdigit():
        return int(name)
    return KEYCODES.get(name.upper().removeprefix("KEYCODE_"))


def _press(ctx: Context, code: int) -> None:
    from mobile_gym.actions import Action

    phone = ctx.phone
    if code == 3:
        phone.perform(Action.home())
    elif code == 4:
        phone.perform(Action.back())
    elif code in (66, 160):
        phone.perform(Action.enter())
    elif code in _TYPED:
        phone.type_text(_TYPED[code])
    elif code == 67:
        phone.delete_char()


def input_(ctx: Context, argv: list[str]) -> int:
    args = argv[1:]
    sources = {"keyboard", "mouse", "joystick", "touchnavigation", "touchpad", "trackball", "stylus",
               "dpad", "gesture", "touchscreen", "gamepad", "rotaryencoder"}
    if args and args[0] in sources:
        args = args[1:]
    if args[:1] == ["-d"]:
        args = args[2:]
    if not args:
        ctx.err("Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n")
        return 1
    command, rest = args[0], args[1:]
    try:
        if command == "tap" and len(rest) == 2:
            ctx.phone.tap(float(rest[0]), float(rest[1]))
            return 0
        if command in ("swipe", "draganddrop") and len(rest) in (4, 5):
            x1, y1, x2, y2 = (float(v) for v in rest[:4])
            if command == "swipe" and len(rest) == 5 and (x1, y1) == (x2, y2):
                # a swipe that stays put for DURATION ms: how adb clients long-press
                ctx.phone.press(x1, y1, float(rest[4]) / 1000)
                return 0
            ctx.phone.swipe(x1, y1, x2, y2)
            return 0
        if command == "text" and rest:
            ctx.phone.type_text(rest[0].replace("%s", " "))
            return 0
        if command in ("keyevent", "keycombination") and rest:
            codes = []
            for name in (a for a in rest if not a.startswith("--")):
                code = _keycode(name)
                if code is None:
                    ctx.err(f"Error: Unknown keycode: {name}\n")
                    return 1
                codes.append(code)
            if command == "keycombination":  # keys held together: a modifier changes the rest
                held = [c for c in codes if c not in _MODIFIERS]
                if len(held) < len(codes):
                    if held == [29] and any(c in _CTRL for c in codes):
                        ctx.phone.select_all()  # Ctrl+A: how AndroidWorld clears a field before typing
                    return 0  # other shortcuts (copy, paste, ...) the simulated fields do not have
                codes = held
            for code in codes:
                _press(ctx, code)
            return 0
    except ValueError:
        ctx.err(f"Error: Invalid arguments for command: {command}\n")
        return 1
    ctx.err(f"Error: Invalid arguments for command: {command}\n"
            "Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n")
    return 1


# ------------------------------------------------------------------------- screen
def screencap(ctx: Context, argv: list[str]) -> int:
    args = argv[1:]
    png = "-p" in args
    operands = [a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] != "-d")]
    image = ctx.phone.screenshot()
    path = operands[0] if operands else None
    if png or (path or "").endswith(".png"):
        buf = io.BytesIO()
        image.save(buf, "PNG")
        data = buf.getvalue()
    else:  # the raw format: width, height, pixel format (RGBA_8888), colour space, pixels
        w, h = image.size
        data = struct.pack("<IIII", w, h, 1, 1) + image.convert("RGBA").tobytes()
    if path is None:
        ctx.out(data)
        return 0
    try:
        ctx.phone.fs.write(ctx.phone.fs.normalize(path, ctx.cwd), data)
    except FsError as exc:
        ctx.err(f"Error opening file: {path} ({str(exc).split(': ')[-1]})\n")
        return 1
    return 0


def uiautomator(ctx: Context, argv: list[str]) -> int:
    args = argv[1:]
    if args[:1] != ["dump"]:
        ctx.out("Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\n"
                "help: displays help message\n\ndump: creates an XML dump of current UI hierarchy\n")
        return 0 if not args or args[0] == "help" else 1
    operands = [a for a in args[1:] if not a.startswith("--")]
    path = operands[0] if operands else "/sdcard/window_dump.xml"
    from mobile_gym.devices.fake.phone import EMPTY_HIERARCHY

    xml = ctx.phone.dump(ctx.alive)
    if xml == EMPTY_HIERARCHY:
        ctx.err("ERROR: null root node returned by UiTestAutomationBridge.\n")
        return 0
    try:
        ctx.phone.fs.write(ctx.phone.fs.normalize(path, ctx.cwd), xml.encode("utf-8"))
    except Exception as exc:
        ctx.err(f"ERROR: could not write {path}: {exc}\n")
        return 1
    ctx.out(f"UI hierchary dumped to: {path}\n")
    return 0


# ------------------------------------------------------------------------- settings, IME
def settings(ctx: Context, argv: list[str]) -> int:
    args = argv[1:]
    if args[:1] == ["--user"]:
        args = args[2:]
    store = ctx.phone.settings
    if len(args) >= 2 and args[0] in ("get", "put", "delete", "list") and args[1] in store:
        op, table, rest = args[0], store[args[1]], args[2:]
        if op == "get" and rest:
            ctx.out(table.get(rest[0], "null") + "\n")
            return 0
        if op == "put" and len(rest) >= 2:
            table[rest[0]] = rest[1]
            return 0
        if op == "delete" and rest:
            ctx.out(f"Deleted {1 if table.pop(rest[0], None) is not None else 0} rows\n")
            return 0
        if op == "list":
            ctx.out("".join(f"{k}={v}\n" for k, v in sorted(table.items())))
            return 0
    ctx.err("usage:  settings [--user <USER_ID> | current] get namespace key\n"
            "        settings [--user <USER_ID> | current] put namespace key value\n")
    return 1


def _imes(ctx: Context) -> list[str]:
    return [LATIN_IME, *([ADB_KEYBOARD] if ctx.phone.adb_keyboard else [])]


def ime(ctx: Context, argv: list[str]) -> int:
    args = argv[1:]
    sub = args[0] if args else ""
    secure = ctx.phone.settings["secure"]
    if sub == "list":
        for ime_id in _imes(ctx):
            ctx.out(ime_id + ("\n" if "-s" in args else ":\n  mId=" + ime_id + "\n"))
        return 0
    if sub in ("enable", "disable", "set") and len(args) > 1:
        ime_id = args[-1]
        if ime_id not in _imes(ctx):
            ctx.err(f"Unknown input method {ime_id} cannot be {'selected' if sub == 'set' else sub + 'd'} "
                    "for user #0\n")
            return 1
        if sub == "set":
            secure["default_input_method"] = ime_id
            ctx.out(f"Input method {ime_id} selected for user #0\n")
        else:
            ctx.out(f"Input method {ime_id}: {'already ' if sub == 'enable' else ''}{sub}d for user #0\n")
        return 0
    if sub == "reset":
        secure["default_input_method"] = LATIN_IME
        ctx.out("Reset input method for user #0\n")
        return 0
    ctx.err("ime <command>:\n  list [-a] [-s]\n  enable ID\n  disable ID\n  set ID\n  reset\n")
    return 1


def svc(ctx: Context, argv: list[str]) -> int:
    if len(argv) >= 3 and argv[1] == "wifi" and argv[2] in ("enable", "disable"):
        ctx.phone.settings["global"]["wifi_on"] = "1" if argv[2] == "enable" else "0"
    return 0


# ------------------------------------------------------------------------- processes
def _processes(ctx: Context) -> list[tuple[str, int, int, str]]:
    """(user, pid, ppid, name) of what runs on the phone."""
    phone = ctx.phone
    procs = [("root", 1, 0, "init"), ("root", 580, 1, "zygote64"), ("system", 612, 580, "system_server"),
             ("u0_a200", phone.pid_of(SYSTEM_UI), 580, SYSTEM_UI), ("shell", 2890, 1, "adbd")]
    for package in phone.running_packages():
        procs.append((f"u0_a{uid_of(package) % 1000}", phone.pid_of(package), 580, package))
    with phone.lock:
        servers = list(phone.u2_servers.values())
    procs += [("shell", s.pid, 2890, "com.wetest.uia2.Main") for s in servers if not s.stopped]
    return procs


def ps(ctx: Context, argv: list[str]) -> int:
    ctx.out("USER            PID   PPID     VSZ    RSS WCHAN            ADDR S NAME                       \n")
    for user, pid, ppid, name in _processes(ctx):
        ctx.out(f"{user:<12} {pid:>6} {ppid:>6} 10782796 9600 do_epoll_wait       0 S {name}\n")
    ctx.out(f"shell        {ctx.env.get('$', '4242'):>6}   2890 10783164 3968 0                   0 R ps\n")
    return 0


def pidof(ctx: Context, argv: list[str]) -> int:
    pids = [str(pid) for _, pid, _, name in _processes(ctx) if name in argv[1:]]
    if not pids:
        return 1
    ctx.out(" ".join(pids) + "\n")
    return 0


def kill(ctx: Context, argv: list[str]) -> int:
    status = 0
    for arg in argv[1:]:
        if arg.startswith("-"):
            continue
        with ctx.phone.lock:
            server = next((s for s in ctx.phone.u2_servers.values() if str(s.pid) == arg), None)
        if server is not None:
            server.stop("killed by kill")
        elif any(str(pid) == arg for _, pid, _, _ in _processes(ctx)):
            ctx.err(f"/system/bin/sh: kill: {arg}: Operation not permitted\n")
            status = 1
        else:
            ctx.err(f"/system/bin/sh: kill: {arg}: No such process\n")
            status = 1
    return status


def app_process(ctx: Context, argv: list[str]) -> int:
    """``CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main -p 9008``:
    the uiautomator2 server runs while this command's adb stream stays open."""
    args = argv[1:]
    classpath = ctx.env.get("CLASSPATH", "")
    for a in args:
        if a.startswith("-Djava.class.path="):
            classpath = a.split("=", 1)[1]
    main = next((a for a in args[1:] if not a.startswith("-") and "." in a), "")
    jars = [p for p in classpath.split(":") if p]
    if not main or not jars or not all(ctx.phone.fs.stat(ctx.phone.fs.normalize(j)) for j in jars) \
            or not re.search(r"uia2|uiautomator", main):
        ctx.err(f'Exception in thread "main" java.lang.ClassNotFoundException: Didn\'t find class "{main}" '
                f'on path: DexPathList[[zip file "{classpath}"],nativeLibraryDirectories=[/system/lib64]]\n')
        return 1
    port = 9008
    if "-p" in args and args.index("-p") + 1 < len(args):
        try:
            port = int(args[args.index("-p") + 1])
        except ValueError:
            ctx.err("java.lang.NumberFormatException: bad port\n")
            return 1
    try:
        server = ctx.phone.start_u2(port)
    except DeviceError as exc:
        ctx.out(BANNER)
        ctx.err(f"{exc}\n")
        return 1
    ctx.out(BANNER + f"[server] INFO: http server listening on *:{port}\n")
    if not ctx.can_hold:  # sent to the background: runs until killed
        return 0
    hung_up = ctx.hold(server.subscribe)
    if hung_up:  # the client closed the launch stream: SIGHUP ends the server
        server.stop("launch stream closed")
        return 129
    return 137


def logcat(ctx: Context, argv: list[str]) -> int:
    args = argv[1:]
    if "-c" in args or "--clear" in args:
        return 0
    stamp = time.strftime("%m-%d %H:%M:%S.000", time.localtime())
    ctx.out(f"--------- beginning of main\n{stamp}  612  612 I ActivityManager: fake phone "
            f"{ctx.phone.serial} is running\n")
    if "-d" in args or not ctx.can_hold:
        return 0
    ctx.hold(lambda waker: None)  # streams until the client hangs up
    return 0


def service(ctx: Context, argv: list[str]) -> int:
    """``service list | check NAME | call NAME CODE ...``: a binder call answers an empty
    parcel (AndroidWorld sets the time zone with ``service call alarm 3 s16 UTC``)."""
    args = argv[1:]
    if args[:1] == ["call"] and len(args) >= 3:
        ctx.out("Result: Parcel(00000000    '....')\n")
        return 0
    if args[:1] == ["check"] and len(args) == 2:
        ctx.out(f"Service {args[1]}: found\n")
        return 0
    if args[:1] == ["list"]:
        ctx.out("Found 4 services:\n0\tactivity: [android.app.IActivityManager]\n1\talarm: [android.app.IAlarmManager]\n"
                "2\tinput: [android.hardware.input.IInputManager]\n3\twindow: [android.view.IWindowManager]\n")
        return 0
    ctx.err("Usage: service [-h|-?]\n       service list\n       service check SERVICE\n"
            "       service call SERVICE CODE [i32 N | i64 N | f N | d N | s16 STR | null | fd f] ...\n")
    return 1


ANDROID: dict[str, Command] = {
    "getprop": getprop, "setprop": setprop, "wm": wm, "dumpsys": dumpsys, "pm": pm, "am": am,
    "cmd": cmd, "monkey": monkey, "input": input_, "screencap": screencap, "uiautomator": uiautomator,
    "settings": settings, "ime": ime, "svc": svc, "ps": ps, "pidof": pidof, "kill": kill,
    "app_process": app_process, "app_process64": app_process, "logcat": logcat, "service": service,
}
