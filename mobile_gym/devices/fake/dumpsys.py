"""``dumpsys``: the service dumps adb clients parse for the screen in front.

As on Android 13: ``dumpsys window windows`` lists the windows without the
``mCurrentFocus`` line adbutils' ``app_current`` looks for first; ``dumpsys window`` and
``dumpsys window displays`` have it, with ``mFocusedApp``; ``dumpsys activity
activities`` names the resumed activity (``topResumedActivity=``, ``ResumedActivity:``),
``dumpsys activity top`` the top one. Also the screen's size and rotation (``dumpsys
display``) and an app's version (``dumpsys package``).
"""

from __future__ import annotations

import time
import zlib

from mobile_gym.devices.fake.phone import LATIN_IME
from mobile_gym.devices.fake.shell import Context


def _h(text: str) -> str:
    """A stable short hex id (what Android prints as an object's identity hash)."""
    return format(zlib.crc32(text.encode()), "07x")[:7]


def short_activity(package: str, activity: str) -> str:
    return activity[len(package):] if activity.startswith(package + ".") else activity


# ------------------------------------------------------------------------- dumpsys
def _window_dump(ctx: Context, section: str) -> str:
    """``dumpsys window [section]``: the window list (``windows``), the displays' focus
    (``displays``), or both."""
    package, activity = ctx.phone.foreground()
    h = _h(activity)
    focus = f"Window{{{h} u0 {package}/{activity}}}"
    lines = ["WINDOW MANAGER WINDOWS (dumpsys window windows)",
             f"  Window #0 Window{{{_h('nav')} u0 NavigationBar0}}:", "    mDisplayId=0 rootTaskId=1",
             f"  Window #1 Window{{{_h('status')} u0 StatusBar}}:", "    mDisplayId=0 rootTaskId=1"]
    if ctx.phone.keyboard_shown():
        lines += [f"  Window #2 Window{{{_h('ime')} u0 InputMethod}}:", "    mDisplayId=0 mHasSurface=true"]
    lines += [f"  Window #3 {focus}:", f"    mDisplayId=0 rootTaskId={task_id(package)} mSession=Session{{{_h(package)} "
              f"{ctx.phone.pid_of(package)}:u0a{uid_of(package) % 100000}}} mClient=android.os.BinderProxy@{h}",
              "    mHasSurface=true isReadyForDisplay()=true mWindowRemovalAllowed=false", "",
              "  mGlobalConfiguration={1.0 ?mcc?mnc [en_US] ldltr sw411dp w411dp h914dp 420dpi nrml long port}"]
    displays = ["WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)", "  Display: mDisplayId=0 rootTasks=3",
                f"  mCurrentFocus={focus}",
                f"  mFocusedApp=ActivityRecord{{{_h(package + 'r')} u0 {package}/{short_activity(package, activity)} "
                f"t{task_id(package)}}}",
                "  DisplayRotation", "    mCurrentAppOrientation=SCREEN_ORIENTATION_UNSPECIFIED",
                "    mCurrentRotation=ROTATION_0 mLastOrientation=-1 mUserRotationMode=USER_ROTATION_FREE"]
    chosen = lines if section == "windows" else displays if section == "displays" else lines + [""] + displays
    return "\n".join(chosen) + "\n"


def uid_of(package: str) -> int:
    return 10000 + zlib.crc32(package.encode()) % 900


def task_id(package: str) -> int:
    """The id of ``package``'s task (one task per app, stable across calls)."""
    return 1 + zlib.crc32(package.encode()) % 200


def _activity_dump(ctx: Context, top: bool) -> str:
    phone = ctx.phone
    package, activity = phone.foreground()
    record = f"ActivityRecord{{{_h(package + 'r')} u0 {package}/{short_activity(package, activity)} t{task_id(package)}}}"
    if top:
        return (f"TASK {uid_of(package)}:{package} id={task_id(package)} userId=0\n"
                f"  ACTIVITY {package}/{short_activity(package, activity)} {_h(activity)} pid={phone.pid_of(package)}\n"
                "    Local Activity " + _h(activity + "l") + " State:\n      mResumed=true mStopped=false mFinished=false\n")
    return ("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n"
            "Display #0 (activities from top to bottom):\n"
            f"  * Task{{{_h(package + 't')} #{task_id(package)} type=standard A={uid_of(package)}:{package} U=0 "
            "visible=true visibleRequested=true mode=fullscreen translucent=false sz=1}\n"
            f"    topResumedActivity={record}\n"
            f"    * Hist  #0: {record}\n\n"
            f"  ResumedActivity: {record}\n\n"
            f"  mFocusedApp={record}\n")


def _recents_dump(ctx: Context) -> str:
    """``dumpsys activity recents``: a task per running app, each with its ``id=``
    (AndroidWorld's ``close_recents`` removes them by it)."""
    lines = ["ACTIVITY MANAGER RECENT TASKS (dumpsys activity recents)", "  Recent tasks:"]
    for n, package in enumerate(ctx.phone.running_packages()):
        lines += [f"  * Recent #{n}: Task{{{_h(package + 't')} #{task_id(package)} type=standard "
                  f"A={uid_of(package)}:{package} U=0 visible=false mode=fullscreen translucent=false sz=1}}",
                  f"    id={task_id(package)} userId=0 effectiveUid=u0a{uid_of(package) % 100000} "
                  f"mCallingPackage={package}"]
    return "\n".join(lines) + "\n"


def _display_dump(ctx: Context) -> str:
    w, h = ctx.phone.size
    dpi = ctx.phone.device.profile.dpi
    frame = f"Rect(0, 0 - {w}, {h})"
    return ("DISPLAY MANAGER (dumpsys display)\n"
            "  mOnlyCode=false\n  mSafeMode=false\n  mPendingTraversal=false\n"
            f"  mViewports=[DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, "
            f"uniqueId='local:4619827259835644672', physicalPort=0, orientation=0, logicalFrame={frame}, "
            f"physicalFrame={frame}, deviceWidth={w}, deviceHeight={h}}}]\n"
            "  mDefaultDisplayDefaultColorMode=0\n"
            f"    mBaseDisplayInfo=DisplayInfo{{\"Built-in Screen\", displayId 0, real {w} x {h}, "
            f"rotation 0, density {dpi}, {dpi}.0 x {dpi}.0 dpi, state ON}}\n")


def _input_dump(ctx: Context) -> str:
    """``dumpsys input``: the display viewport (logical and physical frames: AndroidWorld
    reads both) and the touchscreen's orientation (android_env reads it)."""
    w, h = ctx.phone.size
    viewport = (f"Viewport INTERNAL: displayId=0, uniqueId=local:4619827259835644672, port=0, orientation=0, "
                f"logicalFrame=[0, 0, {w}, {h}], physicalFrame=[0, 0, {w}, {h}], deviceSize=[{w}, {h}], "
                "isActive=[1]")
    return ("INPUT MANAGER (dumpsys input)\n\nInput Manager State:\n  Interactive: true\n"
            "  Show Touches: false\n  Display Viewports:\n"
            f"    {viewport}\n\n"
            "Input Reader State (Nums of device: 1):\n  Device 2: virtio_input_multi_touch_7\n"
            "    Sources: TOUCHSCREEN | STYLUS\n    Touch Input Mapper (mode - DIRECT):\n"
            f"      {viewport}\n      DisplayBounds: {w}px x {h}px\n"
            f"      PhysicalWidth: {w}px\n      PhysicalHeight: {h}px\n      SurfaceOrientation: 0\n")


def _package_dump(ctx: Context, package: str) -> str:
    if package not in ctx.phone.installed():
        return f"Unable to find package: {package}\n"
    system = is_system(package)
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(ctx.phone.boot_time))
    flags = "SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA" if system else "HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP"
    return ("Packages:\n"
            f"  Package [{package}] ({_h(package)}):\n"
            f"    userId={uid_of(package)}\n"
            f"    pkg=Package{{{_h(package + 'p')} {package}}}\n"
            f"    codePath={code_path(package)}\n"
            "    versionCode=1 minSdk=24 targetSdk=33\n"
            "    versionName=1.0\n"
            f"    flags=[ {flags} ]\n"
            f"    pkgFlags=[ {flags} ]\n"
            f"    timeStamp={stamp}\n"
            f"    firstInstallTime={stamp}\n"
            f"    lastUpdateTime={stamp}\n"
            f"    signatures=PackageSignatures{{{_h(package + 's')} version:2, signatures:[{_h(package + 'k')}], "
            "past signatures:[]}\n"
            "    installPermissionsFixed=true\n"
            "    User 0: ceDataInode=1 installed=true hidden=false suspended=false stopped=false "
            "notLaunched=false enabled=0 instant=false virtual=false\n")


def dumpsys(ctx: Context, argv: list[str]) -> int:
    service = argv[1] if len(argv) > 1 else ""
    args = argv[2:]
    phone = ctx.phone
    if service == "window":
        ctx.out(_window_dump(ctx, args[0] if args else ""))
    elif service == "activity" and args[:1] == ["recents"]:
        ctx.out(_recents_dump(ctx))
    elif service == "activity":
        ctx.out(_activity_dump(ctx, top=bool(args) and args[0] == "top"))
    elif service == "display":
        ctx.out(_display_dump(ctx))
    elif service == "input":
        ctx.out(_input_dump(ctx))
    elif service == "power":
        ctx.out("POWER MANAGER (dumpsys power)\n  mWakefulness=Awake\n  mHoldingDisplaySuspendBlocker=true\n"
                "  mHoldingWakeLockSuspendBlocker=false\n  Display Power: state=ON\n")
    elif service == "battery":
        ctx.out("Current Battery Service state:\n  AC powered: false\n  USB powered: true\n"
                "  Wireless powered: false\n  Dock powered: false\n  Max charging current: 500000\n"
                "  Max charging voltage: 5000000\n  Charge counter: 3000000\n  status: 2\n  health: 2\n"
                "  present: true\n  level: 100\n  scale: 100\n  voltage: 4350\n  temperature: 250\n"
                "  technology: Li-ion\n")
    elif service == "package":
        ctx.out(_package_dump(ctx, args[-1]) if args else "Packages:\n")
    elif service == "input_method":
        ime = phone.settings["secure"].get("default_input_method", LATIN_IME)
        ctx.out(f"  mCurMethodId={ime}\n  mInputShown={'true' if phone.keyboard_shown() else 'false'}\n")
    elif service == "SurfaceFlinger":
        ctx.out('Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL displayName="Built-in Screen"\n')
    elif not service:
        ctx.out("Currently running services:\n  activity\n  battery\n  display\n  input\n  input_method\n  package\n"
                "  power\n  SurfaceFlinger\n  window\n")
    else:
        ctx.err(f"Can't find service: {service}\n")
    return 0


# ------------------------------------------------------------------------- packages
def is_system(package: str) -> bool:
    from mobile_gym.simulator.apps import DEFAULT_INSTALLED

    return package in DEFAULT_INSTALLED


def code_path(package: str) -> str:
    if is_system(package):
        return f"/product/app/{package.rsplit('.', 1)[-1]}"
    return f"/data/app/~~{_h(package + 'a')}==/{package}-{_h(package + 'b')}=="
