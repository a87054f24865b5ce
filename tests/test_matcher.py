"""Each primitive, positive and negative, on hand-made dumps; ordering; explanations."""

from __future__ import annotations

import pytest
from PIL import ImageDraw
from screens import HEIGHT, WIDTH, N, blank, button, checkpoint, component_index, dump, state, windows

from mobile_gym.actions import Action
from mobile_gym.errors import AnnotationError, FormatError
from mobile_gym.matcher import Annotation, Matcher, Tracker, evaluate_trace
from mobile_gym.trace import Trace

CART = dump(
    N(text="Cart", rid="com.bestbuy.android:id/title", bounds=(40, 100, 400, 180)),
    N(text="Your cart is empty", rid="com.bestbuy.android:id/empty", bounds=(40, 600, 1040, 700)),
    button("Continue shopping", (40, 800, 1040, 900), rid="com.bestbuy.android:id/continue"),
    package="com.bestbuy.android",
)
CART_FULL = dump(
    N(text="cart", rid="com.bestbuy.android:id/title", bounds=(40, 120, 400, 200)),
    N(text="1 item", rid="com.bestbuy.android:id/count", bounds=(40, 600, 1040, 700)),
    button("Checkout", (40, 800, 1040, 900), rid="com.bestbuy.android:id/checkout"),
    package="com.bestbuy.android",
)
CART_ACTIVITY = "com.bestbuy.android/.cart.CartActivity"


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher()


def judge(matcher, cp, st, **kw) -> bool:
    return matcher.check(cp, st, **kw).matched


# -- activity -----------------------------------------------------------------------------
def test_activity_matches_short_and_long_forms(matcher):
    ref = state(CART, CART_ACTIVITY)
    cp = checkpoint(ref, "activity<0>")
    assert judge(matcher, cp, state(CART_FULL, "com.bestbuy.android/com.bestbuy.android.cart.CartActivity"))
    assert not judge(matcher, cp, state(CART, "com.bestbuy.android/.home.HomeActivity"))
    assert not judge(matcher, cp, state(CART, None))


def test_activity_is_not_a_substring_test(matcher):
    cp = checkpoint(state(CART, "com.bestbuy.android/.cart.CartActivity"), "activity<0>")
    assert not judge(matcher, cp, state(CART, "com.bestbuy.android/.cart.Cart"))


def test_activity_without_reference_activity_is_an_annotation_error(matcher):
    cp = checkpoint(state(CART, None), "activity<0>")
    with pytest.raises(AnnotationError, match="no recorded activity"):
        matcher.check(cp, state(CART))


# -- exact / exclude ----------------------------------------------------------------------
def test_exact_ignores_bounds_and_case_but_not_text(matcher):
    ref = state(CART)
    title = component_index(ref, text="Cart")
    cp = checkpoint(ref, f"exact<{title}>")
    assert judge(matcher, cp, state(CART_FULL))  # "cart" at other bounds
    empty = component_index(ref, text="Your cart is empty")
    cp2 = checkpoint(ref, f"exact<{empty}>")
    assert judge(matcher, cp2, state(CART))
    result = matcher.check(cp2, state(CART_FULL))
    assert not result.matched
    assert "no node equals component" in result.results[0].detail


def test_exact_compares_state_flags_a_switch_on_never_matches_off(matcher):
    def screen(on: bool) -> str:
        return dump(
            N("android.widget.Switch", "Wi-Fi", "android:id/switch_widget", bounds=(900, 300, 1040, 380),
              flags={"checkable": True, "checked": on, "clickable": True, "focusable": True}),
            package="com.android.settings",
        )

    ref = state(screen(False), "com.android.settings/.Settings")
    cp = checkpoint(ref, "exact<0>")
    assert judge(matcher, cp, state(screen(False)))
    result = matcher.check(cp, state(screen(True)), exhaustive=True)
    assert not result.matched
    assert "checked" in result.results[0].detail


def test_exclude(matcher):
    ref = state(CART_FULL)
    count = component_index(ref, text="1 item")
    cp = checkpoint(ref, f"exclude<{count}>")
    assert judge(matcher, cp, state(CART))
    assert not judge(matcher, cp, state(CART_FULL))


def _icon_screen(icon_box, shape: str):
    """A screen with one text-less ImageView and its drawing."""
    xml = dump(N("android.widget.ImageView", rid="com.example.shop:id/badge", bounds=icon_box))
    image = blank()
    draw = ImageDraw.Draw(image)
    l, t, r, b = icon_box
    if shape == "star":
        draw.polygon([(l + 60, t), (r, b - 20), (l, t + 50), (r, t + 50), (l, b - 20)], fill=(230, 160, 0))
    else:
        draw.ellipse(icon_box, fill=(30, 90, 220))
        draw.rectangle((l + 40, t + 40, r - 40, b - 40), fill=(255, 255, 255))
    return state(xml, screenshot=image)


def test_exact_without_text_compares_image_patches_where_the_node_moved(matcher):
    ref = _icon_screen((100, 300, 220, 420), "star")
    cp = checkpoint(ref, "exact<0>")
    assert judge(matcher, cp, _icon_screen((600, 1500, 720, 1620), "star"))  # moved, same look
    result = matcher.check(cp, _icon_screen((100, 300, 220, 420), "ring"))  # same place, other look
    assert not result.matched
    assert "looks different" in result.results[0].detail


# -- click / type -------------------------------------------------------------------------
def test_click_by_component_xpath_and_by_xpath_content(matcher):
    ref = state(CART)
    target = component_index(ref, text="Continue shopping")
    cp = checkpoint(ref, f"click<{target}>")
    moved = dump(N(text="Ad", bounds=(0, 0, 1080, 300)),
                 button("Continue shopping", (40, 1800, 1040, 1900), rid="com.bestbuy.android:id/continue"))
    inside = Action.click(540 / WIDTH, 1850 / HEIGHT)
    assert judge(matcher, cp, state(moved), action=inside)
    assert not judge(matcher, cp, state(moved), action=Action.click(540 / WIDTH, 850 / HEIGHT))
    assert not judge(matcher, cp, state(moved), action=Action.swipe(0.5, 0.77, 0.5, 0.2))
    assert not judge(matcher, cp, state(moved), action=None)
    cp_xpath = checkpoint(ref, 'click<//*[@resource-id="com.bestbuy.android:id/continue"]>')
    assert judge(matcher, cp_xpath, state(moved), action=inside)


def test_click_on_a_real_dump_inside_and_outside_the_node(matcher, ):
    from screens import FIXTURES

    xml = (FIXTURES / "click_test_case" / "case1" / "10.xml").read_text()
    ref = state(xml, "com.google.android.apps.maps/.MapsActivity", screen_size=(1080, 1918))
    done = component_index(ref, class_name="android.widget.Button", content_desc="Done")
    cp = checkpoint(ref, f"click<{done}>")
    exec_state = state(xml, screen_size=(1080, 1918))
    assert judge(matcher, cp, exec_state, action=Action.click(540 / 1080, 1050 / 1918))  # on "Done"
    assert not judge(matcher, cp, exec_state, action=Action.click(540 / 1080, 1180 / 1918))  # on the other button
    assert not judge(matcher, cp, exec_state, action=Action.click(0.05, 0.05))  # outside the dialog


def test_a_tap_outside_a_dialog_clicks_nothing_below_it(matcher):
    # Android's dialogs, sheets and menus are modal: a tap outside one dismisses it (or
    # does nothing) and never reaches the app window below; a keyboard is not modal
    ref = state(CART)
    target = component_index(ref, text="Continue shopping")
    cp = checkpoint(ref, f"click<{target}>")
    app = N("android.widget.FrameLayout", bounds=(0, 0, WIDTH, HEIGHT),
            children=[button("Continue shopping", (40, 800, 1040, 900), rid="com.bestbuy.android:id/continue")])
    dialog = N("android.widget.FrameLayout", bounds=(100, 1200, 980, 1600),
               children=[button("Allow", (140, 1480, 940, 1580), rid="com.android.permissioncontroller:id/allow")])
    keyboard = N("android.widget.FrameLayout", bounds=(0, 1500, WIDTH, HEIGHT))
    on_it = Action.click(540 / WIDTH, 850 / HEIGHT)
    alone = windows((app, "com.bestbuy.android"), (keyboard, "com.google.android.inputmethod.latin"))
    assert judge(matcher, cp, state(alone), action=on_it)
    shop, prompt = (app, "com.bestbuy.android"), (dialog, "com.android.permissioncontroller")
    for shown in (windows(shop, prompt), windows(prompt, shop)):  # real dumps list the focused window first
        result = matcher.check(cp, state(shown), action=on_it)
        assert not result.matched and "went to the dialog" in result.results[0].detail
    shown = state(windows(shop, prompt))
    allow = checkpoint(shown, f"click<{component_index(shown, text='Allow')}>")
    assert judge(matcher, allow, shown, action=Action.click(540 / WIDTH, 1530 / HEIGHT))


def test_type(matcher):
    cp = checkpoint(state(CART), "type<bestbuy>")
    assert judge(matcher, cp, state(CART), action=Action.type_text("bestbuy"))
    assert not judge(matcher, cp, state(CART), action=Action.type_text("best buy"))
    assert not judge(matcher, cp, state(CART), action=Action.enter())


# -- system state -------------------------------------------------------------------------
def test_check_install_and_uninstall_by_name_or_package(matcher):
    ref = state(CART)
    installed = frozenset({"com.android.vending", "com.microsoft.office.excel"})
    assert judge(matcher, checkpoint(ref, "check_install<Microsoft Excel>|fuzzy<-2>"), state(CART), installed=installed)
    assert judge(matcher, checkpoint(ref, "check_install<com.microsoft.office.excel>"), state(CART), installed=installed)
    assert not judge(matcher, checkpoint(ref, "check_install<eBay>"), state(CART), installed=installed)
    assert judge(matcher, checkpoint(ref, "check_uninstall<Duolingo: language lessons>"), state(CART), installed=installed)
    assert not judge(matcher, checkpoint(ref, "check_uninstall<microsoft excel>"), state(CART), installed=installed)


def test_install_check_errors(matcher):
    ref = state(CART)
    with pytest.raises(AnnotationError, match="unknown app"):
        matcher.check(checkpoint(ref, "check_install<No Such App>"), state(CART), installed=frozenset())
    with pytest.raises(FormatError, match="installed apps"):
        matcher.check(checkpoint(ref, "check_install<eBay>"), state(CART), installed=None)


def test_index_out_of_range_is_an_annotation_error():
    with pytest.raises(AnnotationError, match="out of range"):
        checkpoint(state(CART), "exact<99>")


# -- ordering -----------------------------------------------------------------------------
def _annotation(*cps) -> Annotation:
    return Annotation(list(cps))


def _trace(*states) -> Trace:
    return Trace.from_states(states, installed_packages=frozenset())


def test_checkpoints_must_match_in_order_on_strictly_later_steps(matcher):
    ref_full, ref_empty = state(CART_FULL), state(CART)
    first = checkpoint(ref_full, f"exact<{component_index(ref_full, text='1 item')}>")
    second = checkpoint(ref_empty, f"exact<{component_index(ref_empty, text='Your cart is empty')}>")
    annotation = _annotation(first, second)

    ok = evaluate_trace(annotation, _trace(state(CART_FULL), state(CART)), matcher)
    assert ok.success and ok.matched == {0: 0, 1: 1} and ok.progress == 1.0

    reversed_order = evaluate_trace(annotation, _trace(state(CART), state(CART_FULL)), matcher)
    assert not reversed_order.success and reversed_order.matched == {0: 1}
    assert "trace ended" in reversed_order.explanations[0]

    both_on_one = dump(N(text="1 item", rid="com.bestbuy.android:id/count", bounds=(0, 0, 10, 10)),
                       N(text="Your cart is empty", rid="com.bestbuy.android:id/empty", bounds=(0, 600, 1040, 700)),
                       package="com.bestbuy.android")
    one_step = evaluate_trace(annotation, _trace(state(both_on_one)), matcher)
    assert one_step.matched == {0: 0} and not one_step.success
    two_steps = evaluate_trace(annotation, _trace(state(both_on_one), state(both_on_one)), matcher)
    assert two_steps.success and two_steps.matched == {0: 0, 1: 1}


def test_trace_ending_early_reports_progress_and_explains(matcher):
    ref_full, ref_empty = state(CART_FULL, CART_ACTIVITY), state(CART, CART_ACTIVITY)
    annotation = _annotation(
        checkpoint(ref_full, "activity<0>"),
        checkpoint(ref_empty, f"activity<0>|exact<{component_index(ref_empty, text='Your cart is empty')}>"),
        checkpoint(ref_empty, "check_install<com.bestbuy.android>"),
    )
    result = evaluate_trace(annotation, _trace(state(CART_FULL, CART_ACTIVITY), state(CART_FULL, CART_ACTIVITY)), matcher)
    assert not result.success
    assert result.progress == pytest.approx(1 / 3)
    assert result.explanations[0].startswith("checkpoint 1")
    assert "closest step 1" in result.explanations[0]
    assert "Your cart is empty" in result.explanations[0]
    assert "activity<0> ok" not in result.explanations[0]  # only failing primitives are listed
    assert result.explanations[1].startswith("checkpoint 2") and "not reached" in result.explanations[1]


def test_action_checkpoint_is_judged_on_the_action_from_its_state(matcher):
    ref = state(CART, CART_ACTIVITY)
    target = component_index(ref, text="Continue shopping")
    annotation = _annotation(checkpoint(ref, f"activity<0>|click<{target}>"))
    tracker = Tracker(annotation, matcher)
    assert not tracker.observe(state(CART, CART_ACTIVITY))
    assert not tracker.success  # judged only when the action is known
    assert tracker.act(Action.click(0.5, 850 / HEIGHT))
    assert tracker.success and tracker.matched == {0: 0}
