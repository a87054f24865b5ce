"""The Pixel launcher: home screen (glance, app icons, hotseat, search bar) and the app
drawer (swipe up), modelled on the real dumps: icons are clickable TextViews with id
``icon`` whose text and content-desc are the app label, and the drawer has the search
field "Search your phone and more". A long press on an icon opens its popup menu: the
app's shortcuts and "App info" (Settings' page about the app)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.views import (
    Column, EditText, Icon, Row, Scroll, Spacer, Stack, Text, View, RECYCLER, TEXT, VIEWGROUP,
)

PKG = "com.google.android.apps.nexuslauncher"
ID = PKG + ":id/"
SETTINGS = "com.android.settings"
HOTSEAT = ("com.google.android.dialer", "com.android.chrome", "com.android.vending",
           "com.android.camera2")
WORKSPACE = ("com.google.android.gm", "com.google.android.apps.photos",
             "com.google.android.youtube", "com.google.android.apps.maps",
             "com.google.android.deskclock", "com.android.settings")
COLUMNS = 4
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass
class LauncherState:
    home_icons: list[str] = field(default_factory=lambda: list(WORKSPACE))  # packages on home


class Launcher(App):
    package = PKG
    label = "Pixel Launcher"
    key = "launcher"
    State = LauncherState

    def main(self) -> Activity:
        return Home(self)

    def on_package_changed(self, package: str, installed: bool) -> None:
        """New apps get a home-screen icon, as with "Add app icons to Home screen"."""
        icons = self.state.home_icons
        if installed and package not in icons and package not in HOTSEAT:
            icons.append(package)
        elif not installed and package in icons:
            icons.remove(package)

    def icon_view(self, package: str, *, h: float = 112) -> View | None:
        if package not in self.sys.installed:
            return None
        app = self.sys.app(package)
        return View(TEXT, text=app.label, desc=app.label, rid=ID + "icon", h=h, size=12,
                    align="center", style="launcher_icon", icon=app.icon, bg=app.color,
                    on_click=lambda: self.sys.launch(package),
                    on_long_click=self.sys.long_click(partial(self.icon_menu, package)))

    def icon_menu(self, package: str) -> None:
        """A long press on an icon: its popup menu, hanging from the icon."""
        menu = IconMenu(self, package)
        menu.anchor = self.sys.press_bounds
        self.sys.show(menu, self)

    def app_info(self, package: str) -> None:
        """"App info": Settings opens its page about the app."""
        self.sys.app(SETTINGS).show_app_info(package)  # type: ignore[attr-defined]


class IconMenu(Dialog):
    """An icon's long-press menu: the app's shortcuts, then "App info" (when Settings is
    installed). BACK or a tap outside closes it."""

    def __init__(self, launcher: Launcher, package: str) -> None:
        super().__init__(kind="menu", modal=False, package=PKG)
        self.launcher, self.target = launcher, package

    def pick(self, handler) -> None:
        self.close()
        handler()

    def build(self) -> View:
        sys = self.launcher.sys
        items = list(sys.app(self.target).shortcuts()) if self.target in sys.installed else []
        if SETTINGS in sys.installed:
            items.append(("App info", partial(self.launcher.app_info, self.target)))
        rows = [Row(Icon("info" if label == "App info" else "app", w=40, h=40),
                    Text(label, size=15, rid=ID + "bubble_text"), h=48, gap=8, pad=(12, 0, 16, 0),
                    desc=label, on_click=partial(self.pick, handler), rid=ID + "system_shortcut")
                for label, handler in items]
        if not rows:
            rows = [Row(Text("No shortcuts", size=14, style="muted"), h=48, pad=(16, 0, 16, 0))]
        return Column(*rows, w=220, style="card", radius=16, pad=(0, 6, 0, 6),
                      rid=ID + "deep_shortcuts_container", desc=sys.app(self.target).label
                      if self.target in sys.installed else "")


def grid(views: list[View], columns: int = COLUMNS, h: float = 112) -> list[View]:
    rows = []
    for i in range(0, len(views), columns):
        cells = views[i:i + columns]
        cells += [Spacer() for _ in range(columns - len(cells))]
        rows.append(Row(*cells, h=h))
    return rows


class Home(Activity):
    name = ".NexusLauncherActivity"

    def __init__(self, app: Launcher) -> None:
        super().__init__(app)
        self.drawer_open = False

    def on_home(self) -> None:
        self.drawer_open = False
        self.focus = None
        self.fields.clear()
        self.scroll.clear()

    def on_back(self) -> bool:
        if self.drawer_open:
            self.on_home()
            return True
        return True  # the launcher never finishes

    def on_swipe(self, dx: float, dy: float) -> bool:
        if abs(dy) < abs(dx):
            return False
        if dy < 0 and not self.drawer_open:
            self.drawer_open = True
            return True
        if dy > 0 and self.drawer_open and self.scroll.get("apps", 0) == 0:
            self.on_home()
            return True
        return False

    def open_search(self) -> None:
        self.drawer_open = True
        self.focus = "search"
        self.sys.keyboard = True

    def build(self) -> View:
        return self.drawer() if self.drawer_open else self.home()

    def inputs(self) -> tuple:
        app: Launcher = self.app  # type: ignore[assignment]
        return self.drawer_open, tuple(app.state.home_icons), self.sys.packages()

    def home(self) -> View:
        app: Launcher = self.app  # type: ignore[assignment]
        sys = self.sys
        day = DAYS[(sys.day + 5) % 7]
        icons = [v for v in (app.icon_view(p) for p in app.state.home_icons) if v is not None]
        hotseat = [v for v in (app.icon_view(p, h=96) for p in HOTSEAT) if v is not None]
        return Column(
            Column(
                Text(f"{day}, Nov 21", size=20, rid=ID + "date", h=36),
                Text("Sunny · 18°C", size=14, h=24),
                rid=ID + "glance", pad=(24, 24, 24, 8), h=104,
            ),
            View(VIEWGROUP, grid(icons), rid=ID + "workspace", fill=True,
                 pad=(16, 8, 16, 0)),
            Row(*hotseat, rid=ID + "hotseat", h=96, pad=(16, 0, 16, 0)),
            Row(
                Icon("search", desc="", w=48),
                Text("Search", size=16, style="muted"),
                Icon("mic", desc="Voice search", w=48),
                rid=ID + "search_container_hotseat", h=56, radius=28, bg=None, style="searchbar",
                on_click=self.open_search, desc="Google search",
            ),
            Spacer(h=12),
            pad=(0, 0, 0, 0),
        )

    def drawer(self) -> View:
        app: Launcher = self.app  # type: ignore[assignment]
        query = self.fields.get("search", "").strip().lower()
        packages = sorted(self.sys.installed - {PKG}, key=lambda p: self.sys.app(p).label.lower())
        if query:
            packages = [p for p in packages if query in self.sys.app(p).label.lower()]
        icons = [app.icon_view(p, h=128) for p in packages]
        results = grid(icons, h=128) if icons else [
            Text(f'No results for "{query}"', size=14, align="center", h=64, style="muted")]
        return Column(
            Stack(
                EditText("search", hint="Search your phone and more", rid=ID + "input",
                         style="search", radius=28, h=52, on_submit=self.submit),
                Icon("more", desc="Preferences", rid=ID + "action_btn", w=52, h=52,
                     align="right", on_click=lambda: None),
                h=52, pad=(0, 0, 0, 0),
            ),
            Scroll(*results, key="apps", rid=ID + "apps_list_view", cls=RECYCLER),
            pad=(22, 20, 22, 0), gap=8,
        )

    def submit(self, text: str) -> None:
        """ENTER opens the first match, as the launcher's search does."""
        query = text.strip().lower()
        matches = sorted(
            (p for p in self.sys.installed - {PKG} if query and query in self.sys.app(p).label.lower()),
            key=lambda p: self.sys.app(p).label.lower())
        if matches:
            self.on_home()
            self.sys.launch(matches[0])
