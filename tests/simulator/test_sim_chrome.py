"""Chrome in the simulator, driven like an agent drives it: through the dump, taps,
typing, ENTER and BACK. Most tests swap the shopping sites for a tiny test site so they
only depend on the browser shell."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field

import pytest

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.apps.chrome import Chrome
from mobile_gym.simulator.apps.chrome.sites import SITES
from mobile_gym.simulator.apps.chrome.web import Site, Url
from mobile_gym.simulator.views import Button, EditText, Text
from phone import check_dump, node, swipe_up, tap, texts

ID = "com.android.chrome:id/"
MAIN = "com.android.chrome/org.chromium.chrome.browser.ChromeTabbedActivity"
SETTINGS = "com.android.chrome/org.chromium.chrome.browser.settings.SettingsActivity"
HISTORY = "com.android.chrome/org.chromium.chrome.browser.history.HistoryActivity"
BOOKMARKS = "com.android.chrome/org.chromium.chrome.browser.app.bookmarks.BookmarkActivity"
LAUNCHER = "com.google.android.apps.nexuslauncher/com.google.android.apps.nexuslauncher.NexusLauncherActivity"
TOYS = ("Robot", "Kite", "Yo-yo", "Puzzle", "Train set", "Drone", "Blocks", "Marbles",
        "Teddy bear", "Rubik's cube", "Chess set", "Jigsaw", "Slinky", "Doll house", "Top",
        "Paint kit", "Race car", "Dinosaur", "Rocket", "Xylophone", "Frisbee")


@dataclass
class ToyState:
    cart: list[str] = field(default_factory=list)
    signed_in: bool = True
    banner: bool = False


class ToyShop(Site):
    """A test site: a home page with a search form and a long list of toys with "Add"
    buttons, and a results page."""

    key = "toyshop"
    host = "www.toyshop.com"
    aliases = ("toyshop.com",)
    name = "Toy Shop"
    State = ToyState

    def vary(self, rng, popup_rate):
        self.state.banner = bool(rng.random() < 2 * popup_rate)

    def clear_site_data(self):
        self.state.signed_in = False

    def title(self, url: Url) -> str:
        q = url.query.get("q")
        return f"{q} - Toy Shop" if q else "Toy Shop: toys for everyone"

    def page(self, url: Url, browser):
        search = EditText("q", hint="Search Toy Shop", rid="search",
                          on_submit=lambda t: browser.navigate(f"https://toyshop.com/search?q={t}"))
        if url.path == "/search":
            q = url.query.get("q", "").lower()
            return [search, *(Text(t, size=16) for t in TOYS if q in t.lower())]
        if url.path == "/cart":
            return [Text(f"Cart: {', '.join(self.state.cart) or 'empty'}", size=16)]
        return [search, Text("Welcome to Toy Shop", size=22),
                Text("Cart", on_click=lambda: browser.navigate("/cart")), *(
            Button(f"Add {t}", lambda t=t: self.state.cart.append(t)) for t in TOYS)]


@pytest.fixture
def phone(monkeypatch):
    monkeypatch.setattr(Chrome, "site_classes", (ToyShop,))
    return SimulatedDevice(seed=7, setup={"launch": "chrome"})


def make(monkeypatch, **kw) -> SimulatedDevice:
    monkeypatch.setattr(Chrome, "site_classes", (ToyShop,))
    return SimulatedDevice(**kw)


def omnibox(phone, text: str) -> None:
    tap(phone, resource_id=ID + "url_bar")
    phone.perform(Action.type_text(text))
    phone.perform(Action.enter())


def menu(phone, item: str) -> None:
    tap(phone, resource_id=ID + "menu_button")
    tap(phone, text=item)


def back(phone, times: int = 1) -> None:
    for _ in range(times):
        phone.perform(Action.back())


def url(phone) -> str:
    return phone.app_state("chrome").url


# ---------------------------------------------------------------- new tab page and omnibox

def test_launch_shows_the_new_tab_page(phone):
    assert phone.foreground_activity() == MAIN
    bar = node(phone, resource_id=ID + "url_bar")
    assert bar.text == "Search or type web address" and bar.class_name == "android.widget.EditText"
    assert node(phone, resource_id=ID + "search_box_text").text == "Search or type web address"
    assert node(phone, resource_id=ID + "search_provider_logo").text == "Google"
    assert node(phone, content_desc="Open the home page").resource_id == ID + "home_button"
    assert node(phone, resource_id=ID + "tab_switcher_button").content_desc == "1 open tab, tap to switch tabs"
    assert node(phone, resource_id=ID + "menu_button").content_desc == "Customize and control Google Chrome"
    assert "Toy Shop" in [n.text for n in phone.observe(screenshot=False).hierarchy.find_all(
        resource_id=ID + "tile_view_title")]
    assert "Discover" in texts(phone)


def test_typing_an_address_loads_the_site_in_a_webview(phone):
    omnibox(phone, "toyshop.com")
    assert url(phone) == "https://www.toyshop.com/"  # canonical host
    web = node(phone, class_name="android.webkit.WebView")
    assert web.text == "Toy Shop: toys for everyone"
    assert node(phone, resource_id=ID + "url_bar").text == "www.toyshop.com"
    assert node(phone, text="Welcome to Toy Shop")
    state = phone.app_state("chrome")
    assert [(v.url, v.title) for v in state.history] == [("https://www.toyshop.com/", "Toy Shop: toys for everyone")]


def test_tiles_and_search_box_lead_to_pages(phone):
    tap(phone, content_desc="Toy Shop")
    assert url(phone) == "https://www.toyshop.com/"
    tap(phone, content_desc="Open the home page")
    assert url(phone) == "chrome://newtab/"
    tap(phone, resource_id=ID + "search_box_text")  # hands the typing to the omnibox
    phone.perform(Action.type_text("www.toyshop.com/search?q=kite"))
    phone.perform(Action.enter())
    assert url(phone) == "https://www.toyshop.com/search?q=kite"
    assert "Kite" in texts(phone)


def test_url_bar_selects_its_text_so_typing_replaces_it(phone):
    omnibox(phone, "toyshop.com")
    tap(phone, resource_id=ID + "url_bar")
    assert node(phone, resource_id=ID + "url_bar").text == "https://www.toyshop.com/"
    phone.perform(Action.type_text("www.toyshop.com/search?q=robot"))
    assert node(phone, resource_id=ID + "url_bar").text == "www.toyshop.com/search?q=robot"
    phone.perform(Action.enter())
    assert url(phone) == "https://www.toyshop.com/search?q=robot"


def test_search_goes_to_google_and_a_named_site_comes_first(phone):
    omnibox(phone, "cheap robot toyshop")
    assert url(phone) == "https://www.google.com/search?q=cheap+robot+toyshop"
    assert node(phone, class_name="android.webkit.WebView").text == "cheap robot toyshop - Google Search"
    tap(phone, text="Toy Shop: toys for everyone")
    assert url(phone) == "https://www.toyshop.com/"


def test_search_without_results_says_so(monkeypatch):
    monkeypatch.setattr(Chrome, "site_classes", ())
    phone = SimulatedDevice(seed=1, setup={"launch": "chrome"})
    omnibox(phone, "zzzz qqqq")
    assert "Your search - zzzz qqqq - did not match any documents." in texts(phone)


def test_omnibox_suggests_sites_and_history(phone):
    tap(phone, resource_id=ID + "url_bar")
    phone.perform(Action.type_text("toy"))
    lines = [n.text for n in phone.observe(screenshot=False).hierarchy.find_all(resource_id=ID + "line_1")]
    assert lines[:2] == ["toy", "Toy Shop"]
    tap(phone, text="Toy Shop", resource_id=ID + "line_1")
    assert url(phone) == "https://www.toyshop.com/"
    assert phone.observe(screenshot=False).hierarchy.find(resource_id=ID + "line_1") is None


def test_clear_input_and_back_leave_the_omnibox(phone):
    omnibox(phone, "toyshop.com")
    tap(phone, resource_id=ID + "url_bar")
    tap(phone, content_desc="Clear input")
    assert node(phone, resource_id=ID + "url_bar").text == "Search or type web address"
    back(phone, 2)  # hide the keyboard, then leave the omnibox
    assert node(phone, resource_id=ID + "url_bar").text == "www.toyshop.com"
    assert url(phone) == "https://www.toyshop.com/"


def test_unknown_hosts_cannot_be_reached(phone):
    omnibox(phone, "nosuchsite.org")
    assert url(phone) == "https://nosuchsite.org/"
    assert "This site can't be reached" in texts(phone)
    assert node(phone, class_name="android.webkit.WebView").text == "nosuchsite.org"
    tap(phone, text="Reload")
    assert phone.app_state("chrome").reloads == 1
    assert phone.app_state("chrome").reloaded == ("https://nosuchsite.org/",)


# ---------------------------------------------------------------- web pages

def test_web_form_fields_submit_on_enter_and_reset_per_page(phone):
    omnibox(phone, "toyshop.com")
    tap(phone, text="Search Toy Shop")
    phone.perform(Action.type_text("train"))
    assert node(phone, resource_id="search").text == "train"
    phone.perform(Action.enter())
    assert url(phone) == "https://www.toyshop.com/search?q=train"
    assert "Train set" in texts(phone) and "Robot" not in texts(phone)
    assert node(phone, resource_id="search").text == "Search Toy Shop"  # a new page's form
    back(phone)
    tap(phone, text="Cart")  # a link relative to the page
    assert url(phone) == "https://www.toyshop.com/cart" and "Cart: empty" in texts(phone)


def test_pages_scroll_and_site_state_survives_tabs(phone):
    omnibox(phone, "toyshop.com")
    assert phone.observe(screenshot=False).hierarchy.find(text="Add Frisbee") is None
    for _ in range(4):
        swipe_up(phone, 0.5)
    tap(phone, text="Add Frisbee")
    menu(phone, "New tab")
    assert len(phone.app_state("chrome").tabs) == 2
    omnibox(phone, "toyshop.com")
    tap(phone, text="Add Robot")
    view = phone.app_state("chrome")
    assert view.site("toyshop").cart == ("Frisbee", "Robot")
    assert view.sites["toyshop"].signed_in is True
    with pytest.raises(AttributeError):
        view.site("toyshop").cart = []
    with pytest.raises(SimulatorError, match="no site 'ebay'"):
        view.site("ebay")


def test_back_walks_tab_history_then_leaves_chrome(phone):
    omnibox(phone, "toyshop.com")
    omnibox(phone, "toyshop.com/search?q=kite")
    back(phone)
    assert url(phone) == "https://www.toyshop.com/"
    tap(phone, resource_id=ID + "menu_button")
    tap(phone, content_desc="Forward")
    assert url(phone) == "https://www.toyshop.com/search?q=kite"
    back(phone, 2)
    assert url(phone) == "chrome://newtab/"
    back(phone)
    assert phone.foreground_activity() == LAUNCHER
    tap(phone, text="Chrome", resource_id="com.google.android.apps.nexuslauncher:id/icon")
    assert phone.foreground_activity() == MAIN and url(phone) == "chrome://newtab/"


def test_find_in_page_counts_matches(phone):
    omnibox(phone, "toyshop.com")
    menu(phone, "Find in page")
    phone.perform(Action.type_text("set"))
    assert node(phone, resource_id=ID + "find_status").text == "1/2"  # Train set, Chess set
    tap(phone, content_desc="Next result")
    assert node(phone, resource_id=ID + "find_status").text == "2/2"
    back(phone, 2)
    assert phone.observe(screenshot=False).hierarchy.find(resource_id=ID + "find_query") is None
    assert node(phone, resource_id=ID + "url_bar").text == "www.toyshop.com"


# ---------------------------------------------------------------- menu and tabs

def test_menu_items_icons_and_refresh(phone):
    tap(phone, resource_id=ID + "menu_button")
    on_ntp = texts(phone)
    assert node(phone, content_desc="Forward").flags["enabled"] is False
    assert "Find in page" not in on_ntp and "Settings" in on_ntp
    back(phone)
    omnibox(phone, "toyshop.com")
    tap(phone, resource_id=ID + "menu_button")
    items = [n.text for n in phone.observe(screenshot=False).hierarchy.find_all(resource_id=ID + "menu_item_text")]
    assert items == ["New tab", "New Incognito tab", "History", "Downloads", "Bookmarks", "Recent tabs",
                     "Share…", "Find in page", "Translate…", "Desktop site", "Settings", "Help & feedback"]
    tap(phone, content_desc="Refresh")
    tap(phone, resource_id=ID + "menu_button")
    tap(phone, content_desc="Refresh")
    assert phone.app_state("chrome").reloads == 2
    assert phone.app_state("chrome").reloaded == ("https://www.toyshop.com/",) * 2
    tap(phone, resource_id=ID + "menu_button")
    tap(phone, content_desc="Download page")
    menu(phone, "Downloads")
    assert node(phone, resource_id=ID + "title").text == "Toy Shop: toys for everyone"
    assert phone.app_state("chrome").downloads[0].url == "https://www.toyshop.com/"
    tap(phone, content_desc="Close")
    menu(phone, "Desktop site")
    assert phone.app_state("chrome").desktop_site is True
    tap(phone, resource_id=ID + "menu_button")
    assert node(phone, resource_id=ID + "checkbox").checked
    back(phone)
    menu(phone, "Share…")
    assert node(phone, resource_id=ID + "display_url").text == "www.toyshop.com"
    tap(phone, content_desc="Copy link")
    assert phone.observe(screenshot=False).hierarchy.find(content_desc="Copy link") is None


def test_tab_switcher_switch_close_and_close_all(phone):
    omnibox(phone, "toyshop.com")
    tap(phone, resource_id=ID + "tab_switcher_button")
    tap(phone, content_desc="New tab")
    assert url(phone) == "chrome://newtab/"
    assert node(phone, resource_id=ID + "tab_switcher_button").content_desc == "2 open tabs, tap to switch tabs"
    tap(phone, resource_id=ID + "tab_switcher_button")
    titles = [n.text for n in phone.observe(screenshot=False).hierarchy.find_all(resource_id=ID + "tab_title")]
    assert titles == ["Toy Shop: toys for everyone", "New tab"]
    tap(phone, text="Toy Shop: toys for everyone")
    assert url(phone) == "https://www.toyshop.com/" and phone.app_state("chrome").current_tab == 0
    tap(phone, resource_id=ID + "tab_switcher_button")
    tap(phone, content_desc="Close New tab tab")
    assert len(phone.app_state("chrome").tabs) == 1
    back(phone)  # back from the switcher returns to the tab
    assert node(phone, class_name="android.webkit.WebView")
    tap(phone, resource_id=ID + "tab_switcher_button")
    tap(phone, resource_id=ID + "menu_button")
    tap(phone, text="Close all tabs")
    state = phone.app_state("chrome")
    assert state.tabs == () and state.recently_closed == ("https://www.toyshop.com/",)
    assert "No open tabs" in texts(phone)
    back(phone)
    assert phone.foreground_activity() == LAUNCHER
    tap(phone, text="Chrome", resource_id="com.google.android.apps.nexuslauncher:id/icon")
    assert url(phone) == "chrome://newtab/" and len(phone.app_state("chrome").tabs) == 1
    menu(phone, "Recent tabs")
    tap(phone, text="Toy Shop: toys for everyone")
    assert url(phone) == "https://www.toyshop.com/"


def test_incognito_tabs_leave_no_history(phone):
    menu(phone, "New Incognito tab")
    assert "You've gone Incognito" in texts(phone)
    omnibox(phone, "toyshop.com")
    state = phone.app_state("chrome")
    assert state.tabs[1].incognito and state.history == ()


# ---------------------------------------------------------------- history

def visit_two(phone) -> None:
    omnibox(phone, "toyshop.com")
    omnibox(phone, "toyshop.com/search?q=kite")


def test_history_lists_visits_opens_and_removes(phone):
    visit_two(phone)
    menu(phone, "History")
    assert phone.foreground_activity() == HISTORY
    titles = [n.text for n in phone.observe(screenshot=False).hierarchy.find_all(resource_id=ID + "title")]
    assert "Today" in texts(phone) and titles == ["kite - Toy Shop", "Toy Shop: toys for everyone"]
    assert node(phone, resource_id=ID + "domain").text == "www.toyshop.com"
    tap(phone, content_desc="Search your history")
    phone.perform(Action.type_text("everyone"))
    assert [n.text for n in phone.observe(screenshot=False).hierarchy.find_all(
        resource_id=ID + "title")] == ["Toy Shop: toys for everyone"]
    back(phone, 2)  # keyboard, then search
    tap(phone, content_desc="Remove")
    assert [v.title for v in phone.app_state("chrome").history] == ["Toy Shop: toys for everyone"]
    tap(phone, text="Toy Shop: toys for everyone")
    assert phone.foreground_activity() == MAIN and url(phone) == "https://www.toyshop.com/"


def test_clear_browsing_data_all_time(phone):
    visit_two(phone)
    menu(phone, "History")
    tap(phone, text="Clear browsing data…")
    assert phone.foreground_activity() == SETTINGS
    for label in ("Browsing history", "Cookies and site data", "Cached images and files"):
        assert node(phone, text=label)
    tap(phone, resource_id=ID + "spinner")
    tap(phone, text="All time")
    assert node(phone, resource_id=ID + "spinner").children[0].text == "All time"
    tap(phone, text="Clear data")
    assert phone.foreground_activity() == HISTORY
    assert "No history here" in texts(phone)
    state = phone.app_state("chrome")
    assert state.history == () and state.cleared_history == 1
    assert state.last_cleared == ("Browsing history", "Cookies and site data", "Cached images and files")
    assert state.site("toyshop").signed_in is False


def test_clear_last_hour_keeps_older_visits_and_unchecked_types(monkeypatch):
    old = {"url": "https://www.toyshop.com/search?q=old", "title": "old - Toy Shop", "time": 0}
    phone = make(monkeypatch, seed=1, setup={"launch": "chrome", "apps": {"chrome": {"history": [old]}}})
    omnibox(phone, "toyshop.com")
    menu(phone, "Settings")
    tap(phone, text="Privacy and security")
    tap(phone, text="Clear browsing data")
    tap(phone, text="Cookies and site data")
    assert phone.app_state("chrome").clear_types == ("Browsing history", "Cached images and files")
    tap(phone, text="Clear data")
    state = phone.app_state("chrome")
    assert [v.title for v in state.history] == ["old - Toy Shop"]
    assert state.site("toyshop").signed_in is True and state.cleared_history == 1


# ---------------------------------------------------------------- bookmarks

def test_bookmark_a_page_then_edit_move_and_delete(phone):
    omnibox(phone, "toyshop.com/search?q=kite")
    tap(phone, resource_id=ID + "menu_button")
    tap(phone, content_desc="Bookmark")
    b = phone.app_state("chrome").bookmarks[-1]
    assert (b.title, b.url, b.folder) == (
        "kite - Toy Shop", "https://www.toyshop.com/search?q=kite", "Mobile bookmarks")
    tap(phone, resource_id=ID + "menu_button")
    assert node(phone, content_desc="Edit bookmark")
    back(phone)
    menu(phone, "Bookmarks")
    assert phone.foreground_activity() == BOOKMARKS
    tap(phone, text="Mobile bookmarks")
    tap(phone, content_desc="More options for kite - Toy Shop")
    tap(phone, text="Edit")
    tap(phone, resource_id=ID + "title_text")
    phone.perform(Action.type_text(" (fav)"))
    back(phone, 2)  # keyboard, then leave: Chrome saves on the way out
    assert phone.foreground_activity() == BOOKMARKS
    assert node(phone, text="kite - Toy Shop (fav)")
    tap(phone, content_desc="More options for kite - Toy Shop (fav)")
    tap(phone, text="Move to…")
    tap(phone, text="Other bookmarks")
    assert phone.app_state("chrome").bookmarks[-1].folder == "Other bookmarks"
    back(phone)  # up to the folders
    assert "1 bookmark" in texts(phone)
    tap(phone, text="Other bookmarks")
    tap(phone, content_desc="More options for kite - Toy Shop (fav)")
    tap(phone, text="Delete")
    assert "No bookmarks here" in texts(phone)
    assert [b.title for b in phone.app_state("chrome").bookmarks] == ["Google", "Toy Shop"]


def test_seeded_bookmarks_open_in_the_tab(phone):
    menu(phone, "Bookmarks")
    tap(phone, text="Mobile bookmarks")
    assert [n.text for n in phone.observe(screenshot=False).hierarchy.find_all(
        resource_id=ID + "title")] == ["Google", "Toy Shop"]
    tap(phone, text="Google")
    assert phone.foreground_activity() == MAIN and url(phone) == "https://www.google.com/"


# ---------------------------------------------------------------- settings

def test_search_engine_choice_changes_omnibox_searches(phone):
    menu(phone, "Settings")
    assert phone.foreground_activity() == SETTINGS
    assert node(phone, text="Search engine").parent.children[1].text == "Google"
    tap(phone, text="Search engine")
    tap(phone, text="Bing")
    radios = phone.observe(screenshot=False).hierarchy.find_all(class_name="android.widget.RadioButton", checked=True)
    assert len(radios) == 1
    back(phone)
    assert phone.app_state("chrome").search_engine == "Bing"
    assert node(phone, text="Search engine").parent.children[1].text == "Bing"
    back(phone)
    omnibox(phone, "kites")
    assert url(phone) == "https://www.bing.com/search?q=kites"


def test_sync_javascript_translate_and_homepage_settings(phone):
    menu(phone, "Settings")
    tap(phone, text="Sync and Google services")
    tap(phone, text="Sync")
    assert phone.app_state("chrome").sync_enabled is True
    tap(phone, text="Manage what you sync")
    tap(phone, text="Sync everything")
    tap(phone, text="Passwords")
    state = phone.app_state("chrome")
    assert state.sync_everything is False and "Passwords" not in state.sync_types
    check_dump(phone)
    back(phone, 2)
    for _ in range(3):
        swipe_up(phone)
    tap(phone, text="Site settings")
    tap(phone, text="JavaScript")
    switch = node(phone, resource_id=ID + "switchWidget")
    assert switch.checked and "Allowed (recommended)" in texts(phone)
    tap(phone, resource_id=ID + "switchWidget")
    assert phone.app_state("chrome").javascript_enabled is False and "Blocked" in texts(phone)
    back(phone)
    tap(phone, text="Pop-ups and redirects")
    tap(phone, text="Pop-ups and redirects", resource_id="android:id/title")
    assert phone.app_state("chrome").site_permissions["Pop-ups and redirects"] is True
    assert "Allowed" in texts(phone)
    check_dump(phone)
    back(phone, 2)
    tap(phone, text="Languages")
    tap(phone, text="Translate pages")
    assert phone.app_state("chrome").translate_enabled is False
    back(phone)
    tap(phone, text="Homepage")
    tap(phone, text="Enter custom web address", class_name="android.widget.EditText")
    phone.perform(Action.type_text("toyshop.com"))
    phone.perform(Action.enter())
    assert phone.app_state("chrome").homepage_url == "https://www.toyshop.com/"
    back(phone, 2)  # ENTER hid the keyboard
    tap(phone, content_desc="Open the home page")
    assert url(phone) == "https://www.toyshop.com/"


def test_every_settings_page_opens(phone):
    menu(phone, "Settings")
    pages = ["Sync and Google services", "Search engine", "Passwords", "Payment methods",
             "Addresses and more", "Privacy and security", "Safety check", "Notifications", "Theme",
             "Homepage", "Accessibility", "Site settings", "Languages", "About Chrome"]
    for title in pages:
        if phone.observe(screenshot=False).hierarchy.find(text=title) is None:
            swipe_up(phone)
        tap(phone, text=title)
        assert phone.foreground_activity() == SETTINGS
        assert node(phone, resource_id=ID + "toolbar_title").text == title
        check_dump(phone)
        back(phone)
        assert node(phone, resource_id=ID + "toolbar_title").text == "Settings"


def test_payment_card_theme_and_text_scaling(phone):
    menu(phone, "Settings")
    tap(phone, text="Payment methods")
    tap(phone, text="Add card")
    check_dump(phone)
    tap(phone, text="Card number")
    phone.perform(Action.type_text("4111 1111 1111 1234"))
    phone.perform(Action.enter())  # on to the name
    phone.perform(Action.type_text("Ada Lovelace"))
    assert node(phone, resource_id=ID + "card_name").text == "Ada Lovelace"
    tap(phone, text="Done")
    assert phone.app_state("chrome").cards == ("Visa ••••1234",)
    assert "Visa ••••1234" in texts(phone)
    back(phone)
    tap(phone, text="Theme")
    tap(phone, text="Dark")
    assert phone.app_state("chrome").theme == "Dark"
    back(phone)
    swipe_up(phone)
    tap(phone, text="Accessibility")
    tap(phone, content_desc="Increase text size")
    assert node(phone, resource_id=ID + "seekbar_amount").text == "110%"
    assert phone.app_state("chrome").text_scale == 110


# ---------------------------------------------------------------- setup, dynamics, determinism

def test_setup_opens_url_and_configures_state_and_sites(monkeypatch):
    phone = make(monkeypatch, seed=1, setup={"launch": "chrome", "apps": {"chrome": {
        "url": "toyshop.com/search?q=kite", "search_engine": "DuckDuckGo", "sync_enabled": True,
        "bookmarks": [{"title": "Kites", "url": "https://www.toyshop.com/search?q=kite"}],
        "sites": {"toyshop": {"cart": ["Kite"]}}}}})
    assert url(phone) == "https://www.toyshop.com/search?q=kite"
    assert "Kite" in texts(phone)
    state = phone.app_state("chrome")
    assert state.search_engine == "DuckDuckGo" and state.sync_enabled
    assert state.bookmarks[0].title == "Kites" and state.site("toyshop").cart == ("Kite",)


@pytest.mark.parametrize("values, message", [
    ({"search_engine": "AltaVista"}, "search_engine"),
    ({"sync_enabled": "yes"}, "sync_enabled"),
    ({"no_such_field": 1}, "no_such_field"),
    ({"tabs": [{"history": [], "index": 0}]}, "tab"),
    ({"tabs": [{"history": ["https://a.com"]}], "current_tab": 3}, "current_tab"),
    ({"bookmarks": [{"title": "x"}]}, "bookmarks"),
    ({"bookmarks": [{"title": "x", "url": "https://x.com", "folder": "Nowhere"}]}, "folder"),
    ({"sites": {"ebay": {}}}, "no site 'ebay'"),
    ({"sites": {"toyshop": {"cart": "Kite"}}}, "cart"),
    ({"sites": {"toyshop": {"wishlist": []}}}, "wishlist"),
    ({"url": 42}, "url"),
    ({"site_permissions": {"Camera": "no"}}, "booleans"),
    ({"site_permissions": {"Telepathy": True}}, "Telepathy"),
])
def test_bad_setup_raises(monkeypatch, values, message):
    with pytest.raises(SimulatorError, match=message):
        make(monkeypatch, seed=1, setup={"apps": {"chrome": values}})


def feed(phone) -> list[str]:
    return list(phone.app_state("chrome").feed)


def test_dynamics_vary_content_and_none_stays_canonical(monkeypatch):
    canonical = [make(monkeypatch, seed=s).app_state("chrome") for s in (1, 2)]
    assert canonical[0].feed == canonical[1].feed and canonical[0].most_visited == canonical[1].most_visited
    assert canonical[0].site("toyshop").banner is False
    varied = [make(monkeypatch, seed=s, dynamics="default").app_state("chrome") for s in range(6)]
    assert len({v.feed for v in varied}) > 1
    assert {v.site("toyshop").banner for v in varied} == {True, False}  # the site varied too


def test_popups_show_once_and_dismiss(monkeypatch):
    seen = []
    for seed in range(12):
        phone = make(monkeypatch, seed=seed, dynamics="default", setup={"launch": "chrome"})
        if phone.observe(screenshot=False).hierarchy.find(text="Turn on sync?"):
            seen.append(seed)
            tap(phone, text="Yes, I'm in")
            assert phone.app_state("chrome").sync_enabled is True
            assert phone.observe(screenshot=False).hierarchy.find(text="Turn on sync?") is None
    assert seen
    quiet = make(monkeypatch, seed=seen[0], setup={"launch": "chrome"})
    assert quiet.observe(screenshot=False).hierarchy.find(text="Turn on sync?") is None


def flow(phone) -> list[str]:
    dumps = []
    for step in (lambda: omnibox(phone, "toyshop.com"), lambda: tap(phone, text="Add Kite"),
                 lambda: menu(phone, "History"), lambda: back(phone),
                 lambda: tap(phone, resource_id=ID + "tab_switcher_button")):
        step()
        dumps.append(phone.observe(screenshot=False).xml)
    return dumps


def test_same_seed_same_dumps_and_pickling_mid_flow(monkeypatch):
    a = make(monkeypatch, seed=3, dynamics="default", setup={"launch": "chrome"})
    b = make(monkeypatch, seed=3, dynamics="default", setup={"launch": "chrome"})
    assert flow(a) == flow(b)
    c = make(monkeypatch, seed=3, setup={"launch": "chrome"})
    omnibox(c, "toyshop.com")
    tap(c, text="Add Kite")
    d = pickle.loads(pickle.dumps(c))
    for p in (c, d):
        tap(p, text="Add Robot")
        menu(p, "New tab")
    assert c.observe(screenshot=False).xml == d.observe(screenshot=False).xml
    assert d.app_state("chrome").site("toyshop").cart == ("Kite", "Robot")


def test_dump_is_valid_on_every_screen(phone):
    screens = [
        lambda: None,
        lambda: tap(phone, resource_id=ID + "url_bar"),
        lambda: (phone.perform(Action.type_text("toy")), None)[1],
        lambda: back(phone, 2),
        lambda: omnibox(phone, "toyshop.com"),
        lambda: tap(phone, resource_id=ID + "menu_button"),
        lambda: tap(phone, text="Share…"),
        lambda: back(phone),
        lambda: tap(phone, content_desc="Connection is secure"),
        lambda: back(phone),
        lambda: omnibox(phone, "kite toyshop"),
        lambda: omnibox(phone, "www.google.com"),
        lambda: omnibox(phone, "nosuch.example"),
        lambda: menu(phone, "Find in page"),
        lambda: back(phone, 2),
        lambda: tap(phone, resource_id=ID + "tab_switcher_button"),
        lambda: tap(phone, resource_id=ID + "menu_button"),
        lambda: back(phone),
        lambda: back(phone),
        lambda: menu(phone, "Recent tabs"),
        lambda: menu(phone, "Downloads"),
        lambda: back(phone),
        lambda: menu(phone, "History"),
        lambda: tap(phone, text="Clear browsing data…"),
        lambda: tap(phone, resource_id=ID + "spinner"),
        lambda: back(phone, 3),
        lambda: menu(phone, "Bookmarks"),
        lambda: tap(phone, text="Mobile bookmarks"),
        lambda: tap(phone, content_desc="More options for Google"),
        lambda: tap(phone, text="Edit"),
        lambda: back(phone, 3),
        lambda: menu(phone, "New Incognito tab"),
        lambda: tap(phone, content_desc="Open the home page"),
        lambda: menu(phone, "Help & feedback"),
        lambda: menu(phone, "Settings"),
    ]
    activities = set()
    for step in screens:
        step()
        check_dump(phone)
        activities.add(phone.foreground_activity())
    assert {MAIN, SETTINGS, HISTORY, BOOKMARKS} <= activities


@pytest.mark.skipif(not SITES, reason="no shopping sites yet")
def test_real_sites_route_and_render(monkeypatch):
    phone = SimulatedDevice(seed=1, setup={"launch": "chrome"})
    for cls in SITES:
        omnibox(phone, cls.host.removeprefix("www."))
        assert url(phone).startswith(f"https://{cls.host}/")
        web = node(phone, class_name="android.webkit.WebView")
        assert web.text and len(web.children) > 0
        check_dump(phone)
        assert phone.app_state("chrome").site(cls.key) is not None
    clone = pickle.loads(pickle.dumps(phone))
    assert clone.observe(screenshot=False).xml == phone.observe(screenshot=False).xml
