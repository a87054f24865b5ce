"""Chrome's Settings: the main list and its pages (privacy ones are in `privacy`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.simulator.apps.chrome.page import Page
from mobile_gym.simulator.apps.chrome.privacy import PrivacyPage, SiteSettingsPage
from mobile_gym.simulator.apps.chrome.state import ENGINES, GOOGLE_SERVICES, SYNC_TYPES, THEMES
from mobile_gym.simulator.apps.chrome.ui import (
    ID, check_pref, empty, header, note, pref, radio, switch_pref,
)
from mobile_gym.simulator.apps.chrome.urls import looks_like_url
from mobile_gym.simulator.views import Button, Column, EditText, Icon, Row, Spacer, Text, View

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.chrome import Chrome

VERSION = "120.0.6099.144"


class SettingsMain(Page):
    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), s.sync_enabled, s.search_engine, s.theme, s.homepage_enabled

    def rows(self) -> list[View | None]:
        s = self.app.state
        return [
            header("You and Google"),
            pref("Sync and Google services", "Sync is on" if s.sync_enabled else "Sync is off",
                 self.opener(SyncPage)),
            header("Basics"),
            pref("Search engine", s.search_engine, self.opener(SearchEnginePage)),
            pref("Passwords", "", self.opener(PasswordsPage)),
            pref("Payment methods", "", self.opener(PaymentsPage)),
            pref("Addresses and more", "", self.opener(AddressesPage)),
            pref("Privacy and security", "", self.opener(PrivacyPage)),
            pref("Safety check", "", self.opener(SafetyCheckPage)),
            pref("Notifications", "", self.opener(NotificationsPage)),
            pref("Theme", s.theme, self.opener(ThemePage)),
            header("Advanced"),
            pref("Homepage", "On" if s.homepage_enabled else "Off", self.opener(HomepagePage)),
            pref("Accessibility", "", self.opener(AccessibilityPage)),
            pref("Site settings", "", self.opener(SiteSettingsPage)),
            pref("Languages", "", self.opener(LanguagesPage)),
            pref("About Chrome", "", self.opener(AboutPage)),
        ]


class SearchEnginePage(Page):
    title = "Search engine"

    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), s.search_engine

    def rows(self) -> list[View | None]:
        s = self.app.state
        return [radio(e.name, e.host.removeprefix("www."), s.search_engine == e.name,
                      lambda n=e.name: setattr(s, "search_engine", n))
                for e in ENGINES.values()]


class SyncPage(Page):
    title = "Sync and Google services"

    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), s.sync_enabled, tuple(s.google_services.items())

    def rows(self) -> list[View | None]:
        s = self.app.state
        return [
            self.switch("Sync", "Sync your bookmarks, passwords, history, and more", "sync_enabled"),
            pref("Manage what you sync", "", self.opener(ManageSyncPage), enabled=s.sync_enabled),
            header("Other Google services"),
            *(switch_pref(name, "", s.google_services[name],
                          lambda n=name: s.google_services.update({n: not s.google_services[n]}))
              for name in GOOGLE_SERVICES),
        ]


class ManageSyncPage(Page):
    title = "Manage what you sync"

    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), s.sync_everything, tuple(s.sync_types)

    def rows(self) -> list[View | None]:
        s = self.app.state
        return [
            self.switch("Sync everything", "", "sync_everything"),
            *(check_pref(t, "", s.sync_everything or t in s.sync_types,
                         lambda t=t: self.toggle_type(t), enabled=not s.sync_everything)
              for t in SYNC_TYPES),
        ]

    def toggle_type(self, name: str) -> None:
        types = self.app.state.sync_types
        if name in types:
            types.remove(name)
        else:
            types.append(name)


class PasswordsPage(Page):
    title = "Passwords"

    def inputs(self) -> tuple:
        s = self.app.state
        return (id(s), s.save_passwords, s.auto_sign_in,
                tuple([(c.site, c.username) for c in s.passwords]))

    def rows(self) -> list[View | None]:
        saved = self.app.state.passwords
        return [
            self.switch("Save passwords", "", "save_passwords"),
            self.switch("Auto Sign-in", "Automatically sign in to websites using stored credentials",
                        "auto_sign_in"),
            pref("Check passwords", "Keep your passwords safe from data breaches",
                 lambda: self.sys.toast("No compromised passwords found")),
            header("Passwords"),
            *([pref(c.site, c.username) for c in saved] or
              [empty("Saved passwords will appear here")]),
        ]


class PaymentsPage(Page):
    title = "Payment methods"

    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), s.save_payment_methods, tuple(s.cards)

    def rows(self) -> list[View | None]:
        return [
            self.switch("Save and fill payment methods", "", "save_payment_methods"),
            header("Cards"),
            *(pref(card, "") for card in self.app.state.cards),
            pref("Add card", "", self.opener(AddCardPage), icon="add"),
        ]


class AddCardPage(Page):
    title = "Add card"
    FIELDS = (("number", "Card number"), ("name", "Name on card"), ("expiry", "Expiration (MM/YY)"))

    def inputs(self) -> tuple:
        return ()  # the typed card is the page's own fields

    def rows(self) -> list[View | None]:
        return [Column(
            *(EditText(key, hint=hint, rid=ID + f"card_{key}",
                       on_submit=lambda _, i=i: self.next_field(i))
              for i, (key, hint) in enumerate(self.FIELDS)),
            Row(Spacer(), Button("Done", self.done, w=96), h=56),
            pad=(16, 8, 16, 8), gap=8)]

    def next_field(self, index: int) -> None:
        """ENTER moves to the next field, and submits from the last one."""
        if index + 1 < len(self.FIELDS):
            self.focus = self.FIELDS[index + 1][0]
            self.sys.keyboard = True
        else:
            self.done()

    def done(self) -> None:
        digits = "".join(c for c in self.fields.get("number", "") if c.isdigit())
        if not 12 <= len(digits) <= 19:
            self.sys.toast("Enter a valid card number")
            return
        brand = {"4": "Visa", "5": "Mastercard", "3": "American Express"}.get(digits[0], "Card")
        self.app.state.cards.append(f"{brand} ••••{digits[-4:]}")
        self.finish()


class AddressesPage(Page):
    title = "Addresses and more"

    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), s.save_addresses

    def rows(self) -> list[View | None]:
        return [self.switch("Save and fill addresses", "Includes information like phone numbers, "
                            "email addresses, and shipping addresses", "save_addresses")]


class SafetyCheckPage(Page):
    title = "Safety check"

    def __init__(self, app: Chrome) -> None:
        super().__init__(app)
        self.checked = False

    def inputs(self) -> tuple:
        return (self.checked,)

    def rows(self) -> list[View | None]:
        results = [pref("Updates", "Chrome is up to date"),
                   pref("Passwords", "No compromised passwords"),
                   pref("Safe Browsing", "Standard protection is on")] if self.checked else []
        return [
            note("Chrome can help keep you safe from data breaches, bad extensions, and more"),
            Row(Spacer(w=16), Button("Check now", self.check, w=140), h=56),
            *results,
        ]

    def check(self) -> None:
        self.checked = True


class NotificationsPage(Page):
    title = "Notifications"

    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), s.notifications_enabled

    def rows(self) -> list[View | None]:
        return [self.switch("Show notifications", "Downloads, price drops, and tips from Chrome",
                            "notifications_enabled")]


class ThemePage(Page):
    title = "Theme"

    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), s.theme

    def rows(self) -> list[View | None]:
        s = self.app.state
        return [radio(t, "", s.theme == t, lambda t=t: setattr(s, "theme", t)) for t in THEMES]


class HomepagePage(Page):
    """The switch shows or hides the home button; the address is Chrome's homepage (the
    New Tab Page) or a custom one, saved on ENTER or when leaving."""

    title = "Homepage"

    def __init__(self, app: Chrome) -> None:
        super().__init__(app)
        self.fields["homepage"] = app.state.homepage_url

    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), s.homepage_enabled, s.homepage_url

    def rows(self) -> list[View | None]:
        s = self.app.state
        return [
            self.switch("On" if s.homepage_enabled else "Off", "", "homepage_enabled"),
            radio("Chrome's homepage", "", not s.homepage_url, self.use_default),
            radio("Enter custom web address", "", bool(s.homepage_url), self.edit_custom),
            Row(Spacer(w=64), EditText("homepage", hint="Enter custom web address",
                                       rid=ID + "custom_uri", on_submit=self.save, weight=1),
                h=56, pad=(0, 0, 16, 0)),
        ]

    def use_default(self) -> None:
        self.app.state.homepage_url = ""
        self.fields["homepage"] = ""

    def edit_custom(self) -> None:
        self.focus = "homepage"
        self.sys.keyboard = True

    def save(self, text: str) -> None:
        text = text.strip()
        if looks_like_url(text):
            self.app.state.homepage_url = self.app.canonical(text)
        elif text:
            self.sys.toast("Enter a valid web address")

    def on_back(self) -> bool:
        self.save(self.fields.get("homepage", ""))
        return False


class AccessibilityPage(Page):
    title = "Accessibility"

    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), s.text_scale, s.force_zoom

    def rows(self) -> list[View | None]:
        scale = self.app.state.text_scale
        return [
            Row(Spacer(w=16), Text("Text scaling", size=16, weight=1),
                Icon("remove", desc="Decrease text size", on_click=lambda: self.scale(-10),
                     enabled=scale > 50),
                Text(f"{scale}%", size=16, w=56, align="center", rid=ID + "seekbar_amount"),
                Icon("add", desc="Increase text size", on_click=lambda: self.scale(10),
                     enabled=scale < 200),
                h=56, pad=(0, 0, 8, 0)),
            Row(Spacer(w=16), Text("Preview the text size you want", size=14 * scale / 100,
                                   rid=ID + "preview", weight=1), h=16 + 28 * scale / 100),
            self.switch("Force enable zoom", "Override a website's request to prevent zooming in",
                        "force_zoom"),
        ]

    def scale(self, step: int) -> None:
        s = self.app.state
        s.text_scale = min(200, max(50, s.text_scale + step))


class LanguagesPage(Page):
    title = "Languages"

    def inputs(self) -> tuple:
        s = self.app.state
        return id(s), s.translate_enabled

    def rows(self) -> list[View | None]:
        return [
            pref("Chrome's language", "English (United States)"),
            header("Content languages"),
            pref("English (United States)", "Websites will show content in this language"),
            header("Google Translate"),
            self.switch("Translate pages", "Offer to send pages in other languages to Google Translate",
                        "translate_enabled"),
        ]


class AboutPage(Page):
    title = "About Chrome"

    def inputs(self) -> tuple:
        return ()

    def rows(self) -> list[View | None]:
        return [
            pref("Application version", f"Chrome {VERSION}"),
            pref("Operating system", "Android 14; Pixel 6"),
            pref("Legal information", "Copyright 2024 Google LLC. All rights reserved."),
        ]
