"""The simulated Google Play Store, driven like an agent would: taps on dump nodes, typing,
ENTER, BACK, swipes; oracles read `app_state("playstore")` and `installed_packages()`."""

from __future__ import annotations

import pickle

import pytest

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.apps import DEFAULT_INSTALLED
from mobile_gym.simulator.catalogue import CATALOGUE
from phone import check_dump, node, swipe_up, tap, texts

PKG = "com.android.vending"
ID = PKG + ":id/"
MAIN = "com.android.vending/com.google.android.finsky.activities.MainActivity"
LAUNCHER = "com.google.android.apps.nexuslauncher/com.google.android.apps.nexuslauncher.NexusLauncherActivity"
EXCEL = "com.microsoft.office.excel"
FIREFOX = "org.mozilla.firefox"


def store(seed: int = 0, dynamics: str = "none", install: tuple[str, ...] = (), **state) -> SimulatedDevice:
    setup: dict = {"launch": "playstore", "install": list(install)}
    if state:
        setup["apps"] = {"playstore": state}
    return SimulatedDevice(seed=seed, dynamics=dynamics, setup=setup)


def find(phone: SimulatedDevice, **attrs):
    return phone.observe(screenshot=False).hierarchy.find_all(**attrs)


def state(phone: SimulatedDevice):
    return phone.app_state("playstore")


def back(phone: SimulatedDevice) -> None:
    phone.perform(Action.back())


def search(phone: SimulatedDevice, query: str) -> None:
    """From the home page: open search, type the query, press ENTER."""
    tap(phone, resource_id=ID + "search_bar_hint")
    phone.perform(Action.type_text(query))
    phone.perform(Action.enter())


def open_details(phone: SimulatedDevice, title: str) -> None:
    search(phone, title)
    tap(phone, resource_id=ID + "title_title", text=title)
    assert node(phone, resource_id=ID + "title_title").text == title


def account(phone: SimulatedDevice, item: str) -> None:
    tap(phone, resource_id=ID + "selected_account_disc")
    tap(phone, text=item)


def drawer_labels(phone: SimulatedDevice) -> list[str]:
    """Labels in the launcher's app drawer (HOME, then swipe up)."""
    phone.perform(Action.home())
    phone.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    labels = [n.text for n in find(phone, resource_id="com.google.android.apps.nexuslauncher:id/icon")]
    phone.perform(Action.home())
    return labels


def reveal(phone: SimulatedDevice, **attrs) -> None:
    """Scroll until a node with these attributes is on screen (down first, then up)."""
    down, up = Action.swipe(0.5, 0.7, 0.5, 0.3), Action.swipe(0.5, 0.3, 0.5, 0.7)
    for action in (down,) * 4 + (up,) * 8:
        if find(phone, **attrs):
            return
        phone.perform(action)
    raise AssertionError(f"{attrs} not found while scrolling")


# ------------------------------------------------------------------ home

def test_home_has_search_bar_account_tabs_navigation_and_recommendations() -> None:
    phone = store()
    assert phone.foreground_activity() == MAIN
    assert node(phone, resource_id=ID + "search_bar_hint").text == "Search for apps & games"
    avatar = node(phone, resource_id=ID + "selected_account_disc")
    assert avatar.content_desc.startswith("Signed in as Alex Miller")
    shown = texts(phone)
    for label in ("For you", "Top charts", "Kids", "Categories", "Games", "Apps", "Offers", "Books",
                  "Recommended for you", "Suggested for you"):
        assert label in shown
    assert node(phone, text="For you").flags["selected"]
    # "none" dynamics: recommendations in catalogue order, with rating and size
    assert shown[shown.index("Recommended for you") + 1] == "eBay: The shopping marketplace"
    assert "4.7 ★" in shown and "4.4 ★   3 MB" in shown
    tap(phone, text="Facebook")
    assert node(phone, resource_id=ID + "title_title").text == "Facebook"
    assert state(phone).viewed == ("com.facebook.katana",)


def test_home_sections_tabs_and_back_order() -> None:
    phone = store()
    tap(phone, text="Top charts")
    assert node(phone, text="Top free").flags["selected"]
    first = find(phone, resource_id=ID + "title")[0].text
    assert first == "Facebook"  # most downloads
    tap(phone, text="Trending")
    assert find(phone, resource_id=ID + "title")[0].text != first
    tap(phone, text="Games")
    assert "Candy Crush Saga" in texts(phone)
    assert "eBay: The shopping marketplace" not in texts(phone)
    tap(phone, text="Categories")
    tap(phone, text="Board")
    assert node(phone, resource_id=ID + "toolbar_title").text == "Board"
    assert "Chess - Play and Learn" in texts(phone)
    back(phone)
    assert node(phone, text="Categories").flags["selected"]  # the page kept its tab
    back(phone)  # Categories -> For you
    assert node(phone, text="For you").flags["selected"] and "Candy Crush Saga" in texts(phone)
    back(phone)  # Games -> Apps
    assert node(phone, content_desc="Apps").flags["selected"]
    back(phone)  # leaves the store
    assert phone.foreground_activity() == LAUNCHER


def test_kids_offers_and_books() -> None:
    phone = store()
    tap(phone, text="Kids")
    assert "YouTube Kids" in texts(phone) and "Facebook" not in texts(phone)
    tap(phone, text="Offers")
    assert "Try Premium free for 1 month" in texts(phone)
    tap(phone, text="Try Premium free for 1 month")
    assert node(phone, resource_id=ID + "title_title").text == "Spotify: Music and Podcasts"
    back(phone)
    tap(phone, text="Books")
    tap(phone, text="Atomic Habits")
    tap(phone, text="Free sample")
    assert state(phone).book_samples == ("Atomic Habits",)
    assert node(phone, resource_id=ID + "right_button").text == "Buy ebook $13.99"


def test_section_arrow_lists_every_app_of_the_feed() -> None:
    phone = store()
    tap(phone, content_desc="More results for Recommended for you")
    assert node(phone, resource_id=ID + "toolbar_title").text == "Recommended for you"
    assert find(phone, resource_id=ID + "install_button")


# ------------------------------------------------------------------ search

def test_search_suggestions_as_you_type_and_results_for_vlc() -> None:
    phone = store()
    tap(phone, text="Search for apps & games")
    field = node(phone, resource_id=ID + "search_bar_text_input")
    assert field.class_name == "android.widget.EditText" and field.text == "Search apps & games"
    assert field.flags["focused"]
    phone.perform(Action.type_text("vlc"))
    suggestions = [n.text for n in find(phone, resource_id=ID + "suggest_text")]
    assert suggestions == ["VLC for Android"]
    tap(phone, resource_id=ID + "suggest_text", text="VLC for Android")
    assert state(phone).searches == ("VLC for Android",)
    assert state(phone).last_query == "VLC for Android"
    assert node(phone, resource_id=ID + "search_bar_text_input").text == "VLC for Android"
    assert node(phone, resource_id=ID + "title_title").text == "VLC for Android"
    assert node(phone, resource_id=ID + "right_button").text == "Install"
    assert not find(phone, resource_id=ID + "suggest_text")


def test_enter_searches_and_rows_install_and_open() -> None:
    phone = store()
    search(phone, "microsoft")
    assert state(phone).searches == ("microsoft",)
    titles = [n.text for n in find(phone, resource_id=ID + "title")]
    assert titles == ["Microsoft Excel: Spreadsheets", "Microsoft Authenticator"]
    assert [n.text for n in find(phone, resource_id=ID + "install_button")] == ["Install", "Install"]
    tap(phone, resource_id=ID + "install_button")
    assert EXCEL in phone.installed_packages()
    assert state(phone).installs == (EXCEL,)
    assert node(phone, resource_id=ID + "open_button").text == "Open"
    tap(phone, resource_id=ID + "open_button")
    assert phone.foreground_activity().startswith(EXCEL + "/")
    assert "Log in" in texts(phone)


def test_past_searches_are_suggested_and_editing_returns_to_results() -> None:
    phone = store(searches=["spotify"])
    tap(phone, text="Search for apps & games")
    assert [n.text for n in find(phone, resource_id=ID + "suggest_text")] == ["spotify"]
    phone.perform(Action.type_text("Duolingo"))
    phone.perform(Action.enter())
    assert "Duolingo: language lessons" in texts(phone)
    tap(phone, resource_id=ID + "search_bar_text_input")  # edit the query: suggestions again
    assert find(phone, resource_id=ID + "suggest_text")
    back(phone)  # hides the keyboard
    back(phone)  # back to the results
    assert not find(phone, resource_id=ID + "suggest_text")
    assert node(phone, resource_id=ID + "title_title").text == "Duolingo: language lessons"
    tap(phone, content_desc="Clear")
    assert node(phone, resource_id=ID + "search_bar_text_input").text == "Search apps & games"
    back(phone)
    back(phone)  # cleared but not submitted: the results for "Duolingo" come back
    assert node(phone, resource_id=ID + "search_bar_text_input").text == "Duolingo"
    back(phone)
    assert node(phone, resource_id=ID + "search_bar_hint")  # home


def test_search_without_match_says_so_and_empty_enter_does_nothing() -> None:
    phone = store()
    tap(phone, text="Search for apps & games")
    phone.perform(Action.enter())
    assert state(phone).searches == ()
    phone.perform(Action.type_text("zzqx"))
    phone.perform(Action.enter())
    assert 'No results found for "zzqx"' in texts(phone)


def test_stock_google_apps_are_listed_as_installed() -> None:
    phone = store()
    open_details(phone, "Google Chrome: Fast & Secure")
    assert node(phone, resource_id=ID + "right_button").text == "Open"
    assert not find(phone, text="Uninstall")


# ------------------------------------------------------------------ detail page

def test_detail_page_shows_listing_facts() -> None:
    phone = store()
    open_details(phone, "eBay: The shopping marketplace")
    shown = texts(phone)
    assert node(phone, resource_id=ID + "title_creator").text == "eBay Mobile"
    for text in ("4.7 ★", "3.1M reviews", "100M+", "Downloads", "Teen", "About this app"):
        assert text in shown
    assert state(phone).viewed == ("com.ebay.mobile",)
    tap(phone, text="About this app")
    assert node(phone, resource_id=ID + "toolbar_title").text == "About this app"
    assert "Offered by" in texts(phone)
    back(phone)
    assert node(phone, resource_id=ID + "title_title").text == "eBay: The shopping marketplace"


def test_install_adds_launcher_icon_and_open_shows_login() -> None:
    phone = store()
    open_details(phone, "Firefox Fast & Private Browser")
    assert FIREFOX not in phone.installed_packages()
    tap(phone, text="Install")
    assert FIREFOX in phone.installed_packages()
    assert state(phone).installs == (FIREFOX,)
    assert node(phone, resource_id=ID + "left_button").text == "Uninstall"
    assert node(phone, resource_id=ID + "right_button").text == "Open"
    assert "Firefox" in drawer_labels(phone)
    tap(phone, text="Play Store")  # the store resumes on the detail page
    assert node(phone, resource_id=ID + "title_title").text == "Firefox Fast & Private Browser"
    tap(phone, text="Open")
    assert phone.foreground_activity() == f"{FIREFOX}/{FIREFOX}.ui.WelcomeActivity"
    assert node(phone, resource_id=f"{FIREFOX}:id/login_button").text == "Log in"


def test_uninstall_asks_first_then_removes_package_and_icon() -> None:
    phone = store(install=(EXCEL,))
    assert "Excel" in drawer_labels(phone)
    tap(phone, text="Play Store")
    open_details(phone, "Microsoft Excel: Spreadsheets")
    tap(phone, text="Uninstall")
    assert node(phone, resource_id="android:id/message").text == "Do you want to uninstall this app?"
    tap(phone, text="Cancel")
    assert EXCEL in phone.installed_packages() and state(phone).uninstalls == ()
    tap(phone, text="Uninstall")
    tap(phone, resource_id="android:id/button1", text="Uninstall")
    assert EXCEL not in phone.installed_packages()
    assert state(phone).uninstalls == (EXCEL,)
    assert node(phone, resource_id=ID + "right_button").text == "Install"
    assert "Excel" not in drawer_labels(phone)
    tap(phone, text="Play Store")
    back(phone)
    back(phone)
    account(phone, "Library")  # lists it under "Not installed", ready to reinstall
    tap(phone, resource_id=ID + "install_button")
    assert EXCEL in phone.installed_packages()
    assert "All your apps are installed" in texts(phone)


def test_wishlist_from_the_overflow_menu_shows_in_library() -> None:
    phone = store()
    open_details(phone, "Trello: Manage Team Projects")
    tap(phone, content_desc="More options")
    tap(phone, text="Add to wishlist")
    assert state(phone).wishlist == ("com.trello",)
    back(phone)
    back(phone)
    account(phone, "Library")
    assert "Trello: Manage Team Projects" in texts(phone)


# ------------------------------------------------------------------ account pages

def test_account_menu_lists_pages_and_back_closes_it() -> None:
    phone = store()
    tap(phone, resource_id=ID + "selected_account_disc")
    shown = texts(phone)
    for item in ("alex.miller@gmail.com", "Manage apps & device", "Settings", "Library", "Play Protect"):
        assert item in shown
    back(phone)
    assert not find(phone, text="Manage apps & device")
    account(phone, "Play Protect")
    assert "No harmful apps found" in texts(phone)


def test_manage_apps_lists_installed_and_uninstalls_checked() -> None:
    # the store's apps a fresh phone has (the modelled ones: Discord, Evernote, ...) and two more
    fresh = sorted(e.title for e in CATALOGUE if e.package in DEFAULT_INSTALLED)
    assert "Trello: Manage Team Projects" in fresh
    phone = store(install=("com.duolingo", "com.azure.authenticator"))
    account(phone, "Manage apps & device")
    assert node(phone, resource_id=ID + "toolbar_title").text == "Manage apps & device"
    assert f"{len(fresh) + 2} apps installed" in texts(phone)
    tap(phone, text="Manage")
    listed = [n.text for n in find(phone, resource_id=ID + "title")]
    assert listed == sorted([*fresh, "Duolingo: language lessons", "Microsoft Authenticator"])[:len(listed)]
    tap(phone, text="Microsoft Authenticator")
    assert node(phone, content_desc="Microsoft Authenticator", class_name="android.widget.CheckBox").flags["checked"]
    assert find(phone, content_desc="Uninstall selected apps")
    back(phone)  # clears the selection
    assert not find(phone, content_desc="Uninstall selected apps")
    assert not find(phone, checked=True)
    tap(phone, content_desc="Microsoft Authenticator", class_name="android.widget.CheckBox")
    tap(phone, content_desc="Uninstall selected apps")
    assert node(phone, resource_id="android:id/alertTitle").text == "Uninstall apps"
    tap(phone, text="Uninstall")
    assert "com.azure.authenticator" not in phone.installed_packages()
    assert "com.duolingo" in phone.installed_packages()
    assert state(phone).uninstalls == ("com.azure.authenticator",)
    assert "Microsoft Authenticator" not in texts(phone) and "Duolingo: language lessons" in texts(phone)


def test_settings_pages_and_choices() -> None:
    phone = store()
    account(phone, "Settings")
    assert phone.foreground_activity() == MAIN
    assert node(phone, resource_id=ID + "toolbar_title").text == "Settings"
    assert {"General", "Family", "About"} <= set(texts(phone))
    tap(phone, text="General")
    tap(phone, text="Network preferences")
    assert node(phone, text="Auto-update apps")
    tap(phone, text="Auto-update apps")
    phone = pickle.loads(pickle.dumps(phone))  # the open dialog's handlers pickle too
    radios = find(phone, class_name="android.widget.RadioButton")
    assert [n.checked for n in radios] == [False, True, False]
    tap(phone, text="Over any network")
    tap(phone, text="Cancel")
    assert state(phone).auto_update == "Over Wi-Fi only"
    tap(phone, text="App download preference")
    tap(phone, text="Over Wi-Fi only")
    tap(phone, text="Done")
    assert state(phone).download_preference == "Over Wi-Fi only"
    assert find(phone, resource_id="android:id/summary", text="Over Wi-Fi only")
    tap(phone, text="General")  # folds it away
    assert not find(phone, text="Auto-update apps")
    tap(phone, text="About")
    assert node(phone, text="Play Store version")
    assert find(phone, text="Version: 39.6.20-31 [0] [PR] 608214466")
    tap(phone, text="Play Store version")
    assert node(phone, resource_id="android:id/message").text == "Google Play Store is up to date"
    tap(phone, text="Got it")
    back(phone)
    assert node(phone, resource_id=ID + "search_bar_hint")


def test_setup_sets_settings_and_rejects_bad_values() -> None:
    phone = store(auto_update="Don't auto-update apps", account_name="Sam Lee")
    assert state(phone).auto_update == "Don't auto-update apps"
    assert node(phone, resource_id=ID + "selected_account_disc").content_desc.startswith("Signed in as Sam Lee")
    for bad in ({"auto_update": "Sometimes"}, {"searches": "vlc"}, {"installs": [1]},
                {"promo_accepted": "yes"}, {"no_such_field": 1}):
        with pytest.raises(SimulatorError):
            store(**bad)


# ------------------------------------------------------------------ persistence, pickling, dynamics

def test_state_persists_across_navigation_and_pickling() -> None:
    phone = store()
    tap(phone, text="Search for apps & games")
    phone.perform(Action.type_text("Spotify"))
    phone = pickle.loads(pickle.dumps(phone))  # mid-flow: a typed query and the keyboard up
    phone.perform(Action.enter())
    assert state(phone).searches == ("Spotify",)
    tap(phone, text="Install")
    phone.perform(Action.home())
    tap(phone, text="Play Store")
    assert node(phone, resource_id=ID + "right_button").text == "Open"
    back(phone)  # results -> home
    tap(phone, text="Top charts")
    open_details(phone, "Calculator")
    back(phone)
    back(phone)
    assert node(phone, text="Top charts").flags["selected"]  # home kept its tab
    assert state(phone).installs == ("com.spotify.music",)
    assert state(phone).viewed == ("com.google.android.calculator",)


def test_default_dynamics_vary_recommendations_and_show_a_dismissable_promo() -> None:
    def first_card(phone: SimulatedDevice) -> str:
        shown = texts(phone)
        return shown[shown.index("Recommended for you") + 1]

    firsts, promo = set(), None
    for seed in range(12):
        phone = store(seed=seed, dynamics="default")
        if find(phone, resource_id=ID + "promo_title"):
            promo = promo or phone
        else:
            firsts.add(first_card(phone))
    assert len(firsts) > 1
    assert promo is not None
    assert node(promo, resource_id=ID + "promo_title").text == "Get 3 months of Google One"
    tap(promo, text="No thanks")
    assert not find(promo, resource_id=ID + "promo_title")
    assert not state(promo).promo_accepted
    assert first_card(store(seed=3)) == "eBay: The shopping marketplace"  # "none" is canonical


def test_same_seed_gives_identical_dumps_and_screens() -> None:
    def run() -> tuple[list[str], bytes]:
        phone = store(seed=5, dynamics="default")
        dumps = [phone.observe(screenshot=False).xml]
        if find(phone, resource_id=ID + "promo_title"):
            tap(phone, text="No thanks")
        tap(phone, resource_id=ID + "search_bar_hint")
        for action in (Action.type_text("goo"), Action.enter(), Action.swipe(0.5, 0.7, 0.5, 0.3)):
            phone.perform(action)
            dumps.append(phone.observe(screenshot=False).xml)
        tap(phone, resource_id=ID + "title")
        dumps.append(phone.observe(screenshot=False).xml)
        return dumps, phone.observe(screenshot_size=(90, 200)).image.tobytes()

    first = run()
    assert "Google Keep - Notes and Lists" in first[0][2]
    assert first == run()


# ------------------------------------------------------------------ every screen

def test_every_screen_has_a_valid_dump() -> None:
    phone = store(install=(EXCEL,), wishlist=["com.trello"], searches=["vlc"])
    check_dump(phone)
    for tab in ("Top charts", "Kids", "Categories", "For you"):
        tap(phone, text=tab)
        check_dump(phone)
        swipe_up(phone)
        check_dump(phone)
    for section in ("Games", "Offers", "Books", "Apps"):
        tap(phone, text=section)
        check_dump(phone)
    tap(phone, text="Books")
    tap(phone, text="Atomic Habits")
    check_dump(phone)
    back(phone)
    tap(phone, text="Apps")
    tap(phone, text="Categories")
    tap(phone, text="Finance")
    check_dump(phone)
    back(phone)
    tap(phone, text="Search for apps & games")
    check_dump(phone)  # past searches
    phone.perform(Action.type_text("microsoft"))
    check_dump(phone)  # suggestions
    phone.perform(Action.enter())
    check_dump(phone)  # results
    tap(phone, text="Microsoft Excel: Spreadsheets")
    for _ in range(3):
        check_dump(phone)
        swipe_up(phone, 0.5)
    tap(phone, content_desc="More options")
    check_dump(phone)
    back(phone)
    tap(phone, text="Uninstall")
    check_dump(phone)
    back(phone)
    tap(phone, text="About this app")
    check_dump(phone)
    for _ in range(3):
        back(phone)
    tap(phone, resource_id=ID + "selected_account_disc")
    check_dump(phone)
    back(phone)
    for item in ("Manage apps & device", "Payments & subscriptions", "Play Protect", "Library",
                 "Play Pass", "Offers & notifications", "Help & feedback", "Manage your Google Account"):
        account(phone, item)
        check_dump(phone)
        if item == "Manage apps & device":
            tap(phone, text="Manage")
            tap(phone, resource_id=ID + "checkbox")
            check_dump(phone)
            tap(phone, content_desc="Uninstall selected apps")
            check_dump(phone)
            back(phone)
            back(phone)
        back(phone)
    account(phone, "Settings")
    for group in ("General", "Network preferences", "Family", "About"):
        tap(phone, text=group)
    for _ in range(3):
        check_dump(phone)
        swipe_up(phone, 0.5)
    tap(phone, text="Theme")
    check_dump(phone)
    back(phone)
    for page in ("Open source licenses", "Parental controls", "Notifications",
                 "Account and device preferences"):
        reveal(phone, text=page)
        tap(phone, text=page)
        check_dump(phone)
        back(phone)
