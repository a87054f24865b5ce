"""Placeholder for the Settings app (being written)."""

from __future__ import annotations

from mobile_gym.simulator.app import Activity, App
from mobile_gym.simulator.apps.generic import app_bar
from mobile_gym.simulator.views import Column, View


class Settings(App):
    package = "com.android.settings"
    label = "Settings"
    key = "settings"

    def main(self) -> Activity:
        return Main(self)


class Main(Activity):
    name = ".Settings"

    def build(self) -> View:
        return Column(app_bar(self, self.app.label, back=False))
