"""City search for the world clock ("Cities" on the Clock tab): a search field and the
cities with their current time. Tapping a city adds it and returns; the ones already on
the world clock are listed first under "Selected cities", and tapping one removes it."""

from __future__ import annotations

from functools import partial

from mobile_gym.simulator.app import Activity
from mobile_gym.simulator.apps.clock.model import CITIES, city_time, fmt_clock
from mobile_gym.simulator.apps.clock.widgets import ID, PRIMARY, section_header
from mobile_gym.simulator.views import EditText, Icon, Row, Scroll, Spacer, Text, View, Column


def matches_query(name: str, query: str) -> bool:
    """Search matches the start of any word of a city's name ("york" finds New York)."""
    name = name.lower()
    return name.startswith(query) or f" {query}" in name


class CitySelection(Activity):
    name = "com.android.deskclock.worldclock.CitySelectionActivity"

    def tap_city(self, name: str) -> None:
        cities = self.app.state.cities
        if name in cities:
            cities.remove(name)
            return
        cities.append(name)
        self.finish()

    def clear(self) -> None:
        self.fields["search"] = ""

    def submit(self, _text: str) -> None:
        self.focus = None  # ENTER closes the keyboard; the list is already filtered

    def row(self, name: str, selected: bool) -> View:
        seconds, _ = city_time(CITIES[name], self.sys.minute * 60)
        return Row(
            Icon("check", h=56, w=32, fg=PRIMARY) if selected else Spacer(w=32),
            Text(name, size=16, rid=ID + "city_name"),
            Text(fmt_clock(seconds, self.app.state.use_24_hour), size=14, style="muted", w=96,
                 align="right", rid=ID + "city_time"),
            h=56, pad=(8, 0, 16, 0), gap=8, on_click=partial(self.tap_city, name),
            selected=selected,
        )

    def inputs(self) -> tuple:
        return tuple(self.app.state.cities), self.app.state.use_24_hour

    def build(self) -> View:
        query = self.fields.get("search", "").strip().lower()
        chosen = self.app.state.cities
        names = sorted(CITIES, key=str.lower)
        if query:
            matches = [n for n in names if matches_query(n, query)]
            rows = [self.row(n, n in chosen) for n in matches] or [
                Text("No results found", size=16, style="muted", align="center", h=64,
                     rid=ID + "search_empty_view")]
        else:
            rows = [self.row(n, True) for n in chosen if n in CITIES]
            if rows:
                rows = [section_header("Selected cities"), *rows, section_header("All cities")]
            rows += [self.row(n, False) for n in names if n not in chosen]
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.finish),
                EditText("search", hint="Search", rid=ID + "search_src_text", on_submit=self.submit,
                         h=48, style="search"),
                Icon("close", desc="Clear query", rid=ID + "search_close_btn", on_click=self.clear)
                if query else None,
                h=64, pad=(4, 8, 16, 8), gap=4, rid=ID + "toolbar"),
            Scroll(*rows, key="cities", rid=ID + "cities_list"),
        )
