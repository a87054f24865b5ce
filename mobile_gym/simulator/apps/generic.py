"""Apps that are only there to be installed, opened and logged into.

`LoginApp` stands for every Play Store catalogue app: a welcome screen, a login form
(user name, password, "Forgot password?") and a password-reset screen, with resource-ids
under the app's own package. `PlaceholderApp` stands for the Google apps a Pixel ships
with; it opens to an empty screen with the app's name.
"""

from __future__ import annotations

from dataclasses import dataclass

from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.catalogue import CatalogueEntry, Preinstalled
from mobile_gym.simulator.views import (
    Button, Column, EditText, Icon, Row, Spacer, Text, View,
)


def app_bar(activity: Activity, title: str, *, back: bool = True, actions: tuple[View, ...] = ()) -> View:
    """A top app bar: up arrow (finishes the activity), title, action icons."""
    pkg = activity.app.package
    return Row(
        Icon("back", desc="Navigate up", on_click=activity.finish) if back else Spacer(w=16),
        Text(title, size=22, rid=f"{pkg}:id/toolbar_title" if back else ""),
        *actions,
        h=64, pad=(4, 0, 4, 0), rid=f"{pkg}:id/toolbar", style="appbar",
    )


@dataclass
class LoginState:
    logged_in: bool = False
    username: str = ""  # what was submitted on the login screen
    password: str = ""
    reset_requested_for: str = ""  # e-mail a password reset was sent to


class LoginApp(App):
    State = LoginState

    def __init__(self, sys, entry: CatalogueEntry) -> None:
        self.entry = entry
        self.package = entry.package
        self.label = entry.label
        self.key = entry.package
        self.color = entry.color
        super().__init__(sys)

    def main(self) -> Activity:
        return Welcome(self)

    def popups(self, activity: Activity) -> list[Dialog]:
        """The "rate this app" prompt many apps show when they open."""
        if not isinstance(activity, Welcome):
            return []
        return [Dialog(f"Enjoying {self.label}?",
                       "If you like the app, please take a moment to rate it on Google Play.",
                       (("Not now", None), ("Rate", None)))]


class Welcome(Activity):
    name = ".ui.WelcomeActivity"

    def inputs(self) -> tuple:
        return self.app.state.logged_in, self.app.state.username

    def build(self) -> View:
        pkg, app = self.app.package, self.app
        if app.state.logged_in:
            return Column(app_bar(self, app.label, back=False),
                          Text(f"Welcome, {app.state.username}", size=20, align="center", h=120,
                               rid=f"{pkg}:id/welcome_user"))
        return Column(
            Spacer(h=120),
            Icon("app", desc=app.label, h=96, w=96, align="center", style="appicon", bg=app.color),
            Text(app.entry.title, size=24, align="center", bold=True, rid=f"{pkg}:id/app_name"),
            Text(app.entry.description, size=14, align="center", style="muted", lines=2),
            Spacer(h=24, fill=True),
            Button("Log in", lambda: self.start(Login(self.app)), rid=f"{pkg}:id/login_button",
                   w=320, align="center"),
            Button("Create account", None, style="outlined", rid=f"{pkg}:id/signup_button",
                   w=320, align="center", enabled=False),
            Spacer(h=32),
            pad=16, gap=12,
        )


class Login(Activity):
    name = ".ui.LoginActivity"

    def inputs(self) -> tuple:
        return ()  # its fields alone

    def build(self) -> View:
        pkg = self.app.package
        return Column(
            app_bar(self, "Log in"),
            Column(
                Text(f"Log in to {self.app.label}", size=24, bold=True, h=48),
                EditText("username", hint="Email or username", rid=f"{pkg}:id/username"),
                EditText("password", hint="Password", rid=f"{pkg}:id/password", password=True,
                         on_submit=lambda _: self.submit()),
                Button("Log in", self.submit, rid=f"{pkg}:id/login"),
                Button("Forgot password?", lambda: self.start(ForgotPassword(self.app)),
                       style="text", rid=f"{pkg}:id/forgot_password"),
                pad=(24, 16, 24, 16), gap=16,
            ),
        )

    def submit(self) -> None:
        user, password = self.fields.get("username", ""), self.fields.get("password", "")
        if not user or not password:
            self.sys.toast("Enter your email and password")
            return
        state = self.app.state
        state.username, state.password, state.logged_in = user, password, True
        self.finish()


class ForgotPassword(Activity):
    name = ".ui.ForgotPasswordActivity"

    def inputs(self) -> tuple:
        return ()  # its field alone

    def build(self) -> View:
        pkg = self.app.package
        return Column(
            app_bar(self, "Forgot password"),
            Column(
                Text("Reset your password", size=24, bold=True, h=48,
                     rid=f"{pkg}:id/forgot_password_title"),
                Text("Enter the email linked to your account and we'll send you a link.",
                     size=14, lines=2, style="muted"),
                EditText("email", hint="Email", rid=f"{pkg}:id/email",
                         on_submit=lambda _: self.send()),
                Button("Send reset link", self.send, rid=f"{pkg}:id/send_link"),
                pad=(24, 16, 24, 16), gap=16,
            ),
        )

    def send(self) -> None:
        email = self.fields.get("email", "")
        if email:
            self.app.state.reset_requested_for = email
            self.sys.toast("Reset link sent")


class PlaceholderApp(App):
    """A stock Google app that is not simulated in depth."""

    def __init__(self, sys, entry: Preinstalled) -> None:
        self.entry = entry
        self.package = entry.package
        self.label = entry.label
        self.key = entry.package
        self.icon = entry.icon
        self.color = entry.color
        super().__init__(sys)

    def main(self) -> Activity:
        return Placeholder(self)


class Placeholder(Activity):
    name = ".MainActivity"

    def inputs(self) -> tuple:
        return ()

    def build(self) -> View:
        return Column(
            app_bar(self, self.app.label, back=False),
            Spacer(h=160),
            Icon(self.app.icon, desc=self.app.label, h=96, w=96, align="center",
                 style="appicon", bg=self.app.color),
            Text(f"Nothing in {self.app.label} yet", size=16, align="center", style="muted"),
        )
