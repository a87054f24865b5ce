"""The simulated Gmail, driven like an agent would: taps on dump nodes, typing, BACK;
oracles read `app_state("gmail")`. Also a crawl of every reachable screen at every
profile (valid dump, screenshot, same screens on a second run)."""

from __future__ import annotations

import pytest
from phone import EVERY_PROFILE, node, swipe_up, tap, texts
from test_sim_screens import crawl

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.tasks.oracles import ORACLES

ID = "com.google.android.gm:id/"
LIST = "com.google.android.gm/com.google.android.gm.ConversationListActivityGmail"
SETTINGS = "com.google.android.gm/com.google.android.gm.ui.MailActivityGmail"


def gmail(seed: int = 0, dynamics: str = "none", profile: str = "pixel-6", **state) -> SimulatedDevice:
    setup = {"launch": "gmail", "apps": {"gmail": state}} if state else {"launch": "gmail"}
    return SimulatedDevice(profile, seed=seed, dynamics=dynamics, setup=setup)


def find(phone: SimulatedDevice, **attrs):
    return phone.observe(screenshot=False).hierarchy.find_all(**attrs)


def drawer_to(phone: SimulatedDevice, label: str) -> None:
    tap(phone, content_desc="Open navigation drawer")
    for _ in range(6):
        if find(phone, text=label, resource_id=ID + "name"):
            break
        swipe_up(phone)
    tap(phone, text=label, resource_id=ID + "name")


def test_fresh_phone_has_gmail_signed_in_on_the_inbox() -> None:
    phone = SimulatedDevice("pixel-6", seed=0, dynamics="none")
    tap(phone, text="Gmail", resource_id="com.google.android.apps.nexuslauncher:id/icon")
    assert phone.foreground_activity().endswith("ConversationListActivityGmail")
    assert node(phone, resource_id=ID + "open_search_bar_text_view").text == "Search in mail"
    assert node(phone, resource_id=ID + "folder_header").text == "PRIMARY"
    assert "Jamie Chen" in texts(phone)
    s = phone.app_state("gmail")
    assert list(s.visited) == ["inbox"] and s.account.endswith("@gmail.com")
    with pytest.raises(AttributeError):
        s.notifications = "none"  # read-only for oracles


def test_star_from_the_list_and_from_the_conversation() -> None:
    phone = gmail()
    unstarred = len(find(phone, content_desc="Not starred"))
    tap(phone, content_desc="Not starred", resource_id=ID + "star")
    assert len(find(phone, content_desc="Not starred")) == unstarred - 1
    first = phone.app_state("gmail").starred_by_user[0]
    assert phone.app_state("gmail").message(first).starred
    tap(phone, resource_id=ID + "viewified_conversation_item_view")
    star = node(phone, resource_id=ID + "conversation_header_star")
    tap(phone, resource_id=ID + "conversation_header_star")
    assert node(phone, resource_id=ID + "conversation_header_star").content_desc != star.content_desc


def test_delete_one_conversation_moves_it_to_trash() -> None:
    phone = gmail()
    subject = node(phone, resource_id=ID + "subject").text
    tap(phone, resource_id=ID + "viewified_conversation_item_view")
    assert node(phone, resource_id=ID + "subject_and_folder_view").text == subject
    tap(phone, content_desc="Delete")
    assert subject not in texts(phone)
    assert node(phone, resource_id=ID + "snackbar_text").text == "1 deleted"
    s = phone.app_state("gmail")
    assert len(s.deleted) == 1 and s.message(s.deleted[0]).folder == "trash"
    drawer_to(phone, "Trash")
    assert subject in texts(phone)


def test_selection_mode_deletes_the_selected() -> None:
    phone = gmail()
    tap(phone, resource_id=ID + "contact_image")
    assert node(phone, resource_id=ID + "action_bar_title").text == "1"
    tap(phone, content_desc="Delete", resource_id=ID + "delete")
    assert node(phone, resource_id=ID + "snackbar_text").text == "1 deleted"
    assert len(phone.app_state("gmail").deleted) == 1


def test_empty_spam_asks_then_deletes_forever() -> None:
    phone = gmail()
    drawer_to(phone, "Spam")
    assert node(phone, resource_id=ID + "folder_header").text == "SPAM"
    tap(phone, text="Empty spam now")
    tap(phone, text="Cancel")
    assert any(m.folder == "spam" for m in phone.app_state("gmail").messages)
    tap(phone, text="Empty spam now")
    tap(phone, text="Delete")
    s = phone.app_state("gmail")
    assert s.spam_emptied == 2 and not any(m.folder == "spam" for m in s.messages)
    assert node(phone, resource_id=ID + "empty_text").text == "Nothing in Spam"


def test_move_to_a_category() -> None:
    phone = gmail()
    subject = node(phone, resource_id=ID + "subject").text
    tap(phone, resource_id=ID + "viewified_conversation_item_view")
    tap(phone, content_desc="More options")
    tap(phone, text="Move to")
    options = [n.text for n in find(phone, resource_id=ID + "folder_name")]
    assert options[:4] == ["Social", "Promotions", "Updates", "Forums"]  # not Primary, where it is
    tap(phone, text="Promotions")
    assert phone.runtime.toast_text == "Moved to Promotions"
    assert subject not in texts(phone)
    _, was, to = phone.app_state("gmail").moved[0]
    assert (was, to) == ("primary", "promotions")
    drawer_to(phone, "Promotions")
    assert subject in texts(phone)


def test_all_mail_and_starred_search() -> None:
    phone = gmail()
    drawer_to(phone, "All mail")
    assert node(phone, resource_id=ID + "folder_header").text == "ALL MAIL"
    all_mail = len(find(phone, resource_id=ID + "viewified_conversation_item_view"))
    phone.perform(Action.back())
    assert node(phone, resource_id=ID + "folder_header").text == "PRIMARY"
    assert all_mail > len(find(phone, resource_id=ID + "viewified_conversation_item_view"))
    tap(phone, text="Search in mail")
    phone.perform(Action.type_text("is:starred"))
    phone.perform(Action.enter())
    results = find(phone, resource_id=ID + "viewified_conversation_item_view")
    assert results and all(n.content_desc.startswith(("Starred", "Unread, Starred")) for n in results)
    s = phone.app_state("gmail")
    assert list(s.searches) == ["is:starred"] and "search:starred" in s.visited and "all" in s.visited


def test_a_bare_starred_is_a_word_searched_for_not_the_operator() -> None:
    phone = gmail()
    tap(phone, text="Search in mail")
    phone.perform(Action.type_text("starred"))
    phone.perform(Action.enter())
    s = phone.app_state("gmail")
    assert list(s.searches) == ["starred"] and "search:starred" not in s.visited and "search" in s.visited
    assert not ORACLES["gmail.starred_search_shown"](phone)


def test_notifications_setting() -> None:
    phone = gmail()
    drawer_to(phone, "Settings")
    assert phone.foreground_activity() == SETTINGS
    tap(phone, text=phone.app_state("gmail").account)
    tap(phone, text="Notifications", resource_id="android:id/title")
    assert [n.text for n in find(phone, resource_id="android:id/text1")] == ["All", "High priority only", "None"]
    tap(phone, text="None", resource_id="android:id/text1")
    assert phone.app_state("gmail").notifications == "none"
    assert "None" in texts(phone)


def test_setup_and_validation() -> None:
    phone = gmail(notifications="high_priority",
                  messages=[{"sender": "Ann", "subject": "Hi", "snippet": "hello", "time": "9:00 AM"}])
    assert phone.app_state("gmail").messages[0].id == 1
    assert "Ann" in texts(phone)
    with pytest.raises(SimulatorError):
        gmail(notifications="sometimes")
    with pytest.raises(SimulatorError):
        gmail(messages=[{"sender": "Ann", "category": "junk"}])
    for seed in range(4):  # `starred` over the seeded mailbox: exactly those, or none
        assert [m.id for m in gmail(seed=seed, dynamics="default", starred=[2]).app_state("gmail").messages
                if m.starred] == [2]
        assert not any(m.starred for m in gmail(seed=seed, dynamics="default", starred=[]).app_state("gmail").messages)
    for bad in (2, [0], [True], ["1"]):
        with pytest.raises(SimulatorError, match="'starred' must be a list of conversation ids"):
            gmail(starred=bad)


def test_dynamics_vary_the_mailbox_and_show_a_popup() -> None:
    inboxes = set()
    for seed in range(8):
        phone = gmail(seed=seed, dynamics="default")
        s = phone.app_state("gmail")
        assert any(m.folder == "spam" for m in s.messages) and any(m.starred for m in s.messages)
        first = next(m for m in s.messages if m.folder == "inbox" and m.category == "primary")
        assert not first.starred
        inboxes.add(tuple(m.subject for m in s.messages))
    assert len(inboxes) >= 6
    assert gmail(seed=3, dynamics="default").observe(screenshot=False).xml == \
        gmail(seed=3, dynamics="default").observe(screenshot=False).xml


@pytest.mark.parametrize("profile", EVERY_PROFILE)
def test_every_reachable_screen_has_a_valid_dump_at_every_profile(profile: str) -> None:
    screens = crawl("gmail", seed=5, profile=profile, limit=45)
    assert len(screens) >= 20
    assert crawl("gmail", seed=5, profile=profile, limit=12) == dict(list(screens.items())[:12])  # deterministic


@pytest.mark.slow
def test_every_reachable_screen_has_a_valid_dump_with_dynamics() -> None:
    crawl("gmail", dynamics="default", seed=5, limit=45)
