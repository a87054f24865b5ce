"""Oracles of Play Store tasks: installing, uninstalling and searching store apps, and
opening the login apps it installs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice

EBAY = "com.ebay.mobile"
CALCULATOR = "com.google.android.calculator"
EXCEL = "com.microsoft.office.excel"
DUOLINGO = "com.duolingo"
AUTHENTICATOR = "com.azure.authenticator"
FIREFOX = "org.mozilla.firefox"
FACEBOOK = "com.facebook.katana"
NEWSBREAK = "com.particlenews.newsbreak"
LOGIN = ".ui.LoginActivity"  # the login apps' login form


def _in_app(phone: SimulatedDevice, package: str, activity: str = "") -> bool:
    """The foreground activity is ``package``'s (``activity``: its class, e.g. ".ui.Foo")."""
    current = phone.foreground_activity()
    if activity:
        return current == f"{package}/{package}{activity}"
    return current.split("/")[0] == package


@oracle("playstore.ebay_installed")
def _ebay_installed(phone: SimulatedDevice) -> bool:
    return EBAY in phone.installed_packages()


@oracle("playstore.calculator_installed")
def _calculator_installed(phone: SimulatedDevice) -> bool:
    return CALCULATOR in phone.installed_packages()


@oracle("playstore.excel_uninstalled")
def _excel_uninstalled(phone: SimulatedDevice) -> bool:
    return EXCEL not in phone.installed_packages()


@oracle("playstore.authenticator_uninstalled")
def _authenticator_uninstalled(phone: SimulatedDevice) -> bool:
    return AUTHENTICATOR not in phone.installed_packages()


@oracle("playstore.duolingo_uninstalled")
def _duolingo_uninstalled(phone: SimulatedDevice) -> bool:
    return DUOLINGO not in phone.installed_packages()


@oracle("playstore.searched_vlc")
def _searched_vlc(phone: SimulatedDevice) -> bool:
    """The store searched for exactly "VLC for Android" (typed or picked as a suggestion)."""
    return "VLC for Android" in phone.app_state("playstore").searches


@oracle("playstore.firefox_open")
def _firefox_open(phone: SimulatedDevice) -> bool:
    """Firefox is in the foreground (only an installed app can be)."""
    return _in_app(phone, FIREFOX)


@oracle("playstore.facebook_forgot_password")
def _facebook_forgot_password(phone: SimulatedDevice) -> bool:
    """Facebook is on its password-reset page (opened from the login page)."""
    return _in_app(phone, FACEBOOK, ".ui.ForgotPasswordActivity")


def _credentials_entered(phone: SimulatedDevice, package: str, user: str, password: str) -> bool:
    """The login app's form holds ``user`` and ``password`` (typed, not necessarily
    submitted), or it logged in with them. The form lives in the app's Login activity,
    not in its state, so this reads the app's back stack."""
    if package not in phone.installed_packages():
        return False
    state = phone.app_state(package)
    if state.logged_in and (state.username, state.password) == (user, password):
        return True
    app = phone.runtime.app(package)
    return any((a.fields.get("username"), a.fields.get("password")) == (user, password)
               for a in app.stack if a.name == LOGIN)


@oracle("playstore.facebook_credentials_entered")
def _facebook_credentials_entered(phone: SimulatedDevice) -> bool:
    return _credentials_entered(phone, FACEBOOK, "resultants@gmail.com", "earned")


@oracle("playstore.newsbreak_credentials_entered")
def _newsbreak_credentials_entered(phone: SimulatedDevice) -> bool:
    return _credentials_entered(phone, NEWSBREAK, "switch@outlook.com", "fabrics")
