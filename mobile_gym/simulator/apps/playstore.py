"""Placeholder for the Play Store app (being written)."""

from __future__ import annotations

from mobile_gym.simulator.app import Activity, App
from mobile_gym.simulator.apps.generic import app_bar
from mobile_gym.simulator.views import Column, View


class PlayStore(App):
    package = "com.android.vending"
    label = "Play Store"
    key = "playstore"

    def main(self) -> Activity:
        return Main(self)


class Main(Activity):
    name = "com.google.android.finsky.activities.MainActivity"

    def build(self) -> View:
        return Column(app_bar(self, self.app.label, back=False))
