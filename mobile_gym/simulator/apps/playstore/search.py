"""Search: typing shows suggestions, ENTER or a suggestion shows the results."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from mobile_gym.simulator.apps.playstore.model import ID, score
from mobile_gym.simulator.apps.playstore.widgets import Page, section_header
from mobile_gym.simulator.views import Column, Divider, EditText, Icon, Row, Scroll, Text, View

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.playstore.store import PlayStore


class SearchPage(Page):
    """Suggestions are past searches and matching app titles; results list every app
    matching the query (an exact name match first, as a big card with its buttons).
    Tapping the field again edits the query; BACK then returns to the results."""

    def __init__(self, app: PlayStore, query: str = "") -> None:
        super().__init__(app)
        self.results_for: str | None = None
        self.focus = "q"
        if query:
            self.fields["q"] = query

    @property
    def editing(self) -> bool:
        return self.results_for is None or self.focus == "q"

    def on_back(self) -> bool:
        if self.results_for is not None and self.focus == "q":
            self.focus = None
            self.fields["q"] = self.results_for
            return True
        return False

    def clear(self) -> None:
        self.fields["q"] = ""
        self.focus = "q"
        self.sys.keyboard = True

    def submit(self, text: str) -> None:
        query = text.strip()
        if not query:
            return
        state = self.app.state
        state.searches.append(query)
        state.last_query = query
        self.fields["q"] = query
        self.results_for = query
        self.focus = None
        self.sys.keyboard = False
        self.scroll.clear()

    def inputs(self) -> tuple:
        """Editing: the past searches the suggestions list; else the results' query and
        what is installed. Both follow the feed order."""
        if self.editing:
            return "edit", id(self.app.order), tuple(self.app.state.searches)
        return "results", self.results_for, id(self.app.order), self.sys.packages()

    def build(self) -> View:
        text = self.fields.get("q", "")
        bar = Row(
            Icon("back", desc="Navigate up", on_click=self.finish),
            EditText("q", hint="Search apps & games", rid=ID + "search_bar_text_input", style="search",
                     radius=28, h=48, on_submit=self.submit),
            Icon("close", desc="Clear", on_click=self.clear) if text else Icon("mic", desc="Voice search"),
            h=64, pad=(4, 8, 4, 8), gap=4, rid=ID + "search_bar",
        )
        body = self.suggestions(text) if self.editing else self.results()
        return Column(bar, Divider(), Scroll(*body, key="list", rid=ID + "search_results_list"))

    def suggestions(self, text: str) -> list[View | None]:
        q = text.strip().lower()
        recent = list(dict.fromkeys(reversed(self.app.state.searches)))
        past = [r for r in recent if r.lower().startswith(q)][:3 if q else 5]
        titles = [e.title for e in self.app.search(q) if score(e, q) <= 2 and e.title not in past] if q else []
        rows = [(r, "history") for r in past] + [(t, "search") for t in titles[:8 - len(past)]]
        return [Row(Icon(icon, w=56), Text(label, size=16, rid=ID + "suggest_text"), h=56,
                    on_click=partial(self.submit, label), rid=ID + "suggestion")
                for label, icon in rows]

    def results(self) -> list[View | None]:
        query = self.results_for or ""
        found = self.app.search(query)
        if not found:
            return [Text(f'No results found for "{query}"', size=16, align="center", h=64),
                    Text("Check your spelling or try different keywords", size=14, style="muted",
                         align="center")]
        top = found[0]
        if score(top, query) != 0:
            return [self.app_row(e, button=True) for e in found[:20]]
        related = found[1:] + [e for e in self.app.similar(top) if e not in found]
        return [Column(self.header(top), self.stats(top), self.actions(top),
                       on_click=partial(self.details, top.package), rid=ID + "top_result"),
                section_header("Related to your search") if related else None,
                *(self.app_row(e, button=True) for e in related[:10])]
