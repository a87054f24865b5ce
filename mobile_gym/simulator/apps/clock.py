"""Placeholder for the Clock app (being written)."""

from __future__ import annotations

from mobile_gym.simulator.app import Activity, App
from mobile_gym.simulator.apps.generic import app_bar
from mobile_gym.simulator.views import Column, View


class Clock(App):
    package = "com.google.android.deskclock"
    label = "Clock"
    key = "clock"

    def main(self) -> Activity:
        return Main(self)


class Main(Activity):
    name = "com.android.deskclock.DeskClock"

    def build(self) -> View:
        return Column(app_bar(self, self.app.label, back=False))
