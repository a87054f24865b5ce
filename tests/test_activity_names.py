"""Activity names in every form LlamaTouch files and dumpsys write them (issue 10).

Each form is read from disk (AgentEnv traces and LlamaTouch ground truth, judged with
`evaluate_trace`) and fed online to the `Tracker`; a name without its package takes the
app window's package from the same step's dump; a form that cannot be made canonical is
an error naming the file, never a silent match or mismatch.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from screens import HEIGHT, WIDTH, N, checkpoint, component_index, screenshot_file

from mobile_gym.actions import Action
from mobile_gym.cli import main
from mobile_gym.errors import AnnotationError, FormatError
from mobile_gym.formats.agentenv import read_trace, write_trace
from mobile_gym.formats.llamatouch import GroundTruthDataset, load_ground_truth, write_ground_truth
from mobile_gym.matcher import Annotation, Matcher, Tracker, evaluate_trace
from mobile_gym.matcher.annotation import parse_ess
from mobile_gym.trace import Trace, UIState

APP = "com.bestbuy.android"
CART = f"{APP}/{APP}.cart.CartActivity"
HOME = f"{APP}/{APP}.home.HomeActivity"
KEYBOARD_PACKAGE = "com.google.android.inputmethod.latin"
SYSTEMUI = "com.android.systemui"

#: (text as recorded, canonical name). The last class lives outside the app's package,
#: so guessing the package from the class would be wrong.
FORMS = [
    pytest.param(f"{APP}/.cart.CartActivity", CART, id="pkg/.Cls"),
    pytest.param(CART, CART, id="pkg/full.Cls"),
    pytest.param(f"{APP}/.cart.CartActivity\n", CART, id="pkg/.Cls-newline"),
    pytest.param(f"ActivityRecord{{5fbfa9f u0 {APP}/.cart.CartActivity t12}}", CART, id="ActivityRecord"),
    pytest.param(f"  mResumedActivity: ActivityRecord{{5fbfa9f u0 {APP}/.cart.CartActivity t12}}\n", CART,
                 id="mResumedActivity"),
    pytest.param(f"  mCurrentFocus=Window{{2f1e0c3 u0 {CART}}}\n", CART, id="mCurrentFocus"),
    pytest.param(f"  mFocusedApp=ActivityRecord{{e4c7d8f u0 {APP}/.cart.CartActivity t12}}", CART,
                 id="mFocusedApp"),
    pytest.param(
        "  mFocusedApp=AppWindowToken{9d5e4f token=Token{5b7f0e "
        f"ActivityRecord{{a1b2c3 u0 {APP}/.cart.CartActivity t12}}}}}}",
        CART, id="mFocusedApp-android9",
    ),
    pytest.param(f"  mObscuringWindow=Window{{8e3f1a2 u0 {CART}}}\n", CART, id="mObscuringWindow"),
    pytest.param(
        f"  mObscuringWindow=null\n  mCurrentFocus=Window{{3c1a6b1 u0 StatusBar}}\n"
        f"  mFocusedApp=ActivityRecord{{e4c7d8f u0 {APP}/.cart.CartActivity t12}}\n",
        CART, id="dumpsys-lines",
    ),
    pytest.param(".cart.CartActivity", CART, id=".Cls"),
    pytest.param(f"{APP}.cart.CartActivity", CART, id="full.Cls"),
    pytest.param("com.bestbuy.shared.CartActivity", f"{APP}/com.bestbuy.shared.CartActivity", id="full.Cls-elsewhere"),
]

#: Texts that name no activity: the step has none, which never matches an annotated one.
NO_ACTIVITY = [
    pytest.param("", id="empty"),
    pytest.param("null\n", id="null"),
    pytest.param("  mObscuringWindow=null\n", id="mObscuringWindow=null"),
    pytest.param("  mCurrentFocus=Window{3c1a6b1 u0 StatusBar}\n  mFocusedApp=null\n", id="system-window"),
]

#: Texts that are no activity name in any known form.
UNREADABLE = [
    pytest.param("hello world", id="prose"),
    pytest.param("CartActivity", id="Cls-without-dot"),
    pytest.param(f"{APP}/", id="no-class"),
    pytest.param("  mCurrentFocus=Window{2f1e0c3}\n", id="empty-window"),
    pytest.param("  mResumedActivity: ActivityRecord{5fbfa9f u0 CartActivity t12}\n", id="record-without-package"),
]


def _other(text: str) -> str:
    """The same form naming another activity of the app."""
    return text.replace("cart.CartActivity", "home.HomeActivity").replace(".CartActivity", ".HomeActivity")


# -- dumps: one top-level node per window ---------------------------------------------
def _window(package: str, bounds: tuple[int, int, int, int], *children: N) -> str:
    return N("android.widget.FrameLayout", bounds=bounds, children=list(children)).xml(0, package)


APP_WINDOW = (APP, _window(APP, (0, 0, WIDTH, HEIGHT),
                           N(text="Cart", rid=f"{APP}:id/title", bounds=(40, 100, 400, 180))))
KEYBOARD_WINDOW = (KEYBOARD_PACKAGE, _window(KEYBOARD_PACKAGE, (0, 1500, WIDTH, 2274), N(desc="Keyboard")))
STATUS_BAR = (SYSTEMUI, _window(SYSTEMUI, (0, 0, WIDTH, 63), N(text="12:00")))
NAV_BAR = (SYSTEMUI, _window(SYSTEMUI, (0, 2274, WIDTH, HEIGHT), N(desc="Back")))


def windows(*stack: tuple[str, str]) -> str:
    return (
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
        + "".join(xml for _, xml in stack)
        + "</hierarchy>"
    )


SCREEN = windows(APP_WINDOW, KEYBOARD_WINDOW, STATUS_BAR, NAV_BAR)  # the simulator's order, bottom to top
SIZE = (WIDTH, HEIGHT)


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher()


# -- offline: files in each form --------------------------------------------------------
def _states(second: str) -> list[UIState]:
    """Home, then the cart (whose activity is `second`)."""
    shot = screenshot_file(SIZE)
    return [
        UIState(xml=SCREEN, screenshot_path=shot, activity=HOME, action=Action.back(), screen_size=SIZE),
        UIState(xml=SCREEN, screenshot_path=shot, activity=second, action=Action.complete(), screen_size=SIZE),
    ]


def write_dataset(root: Path, reference: str) -> Path:
    """A one-episode LlamaTouch dataset whose annotated screen 1 records `reference`."""
    trace_dir = root / "general" / "trace_0"
    write_ground_truth(trace_dir, Trace.from_states(_states(CART)), {1: parse_ess("activity<1>")},
                       episode="ep", instruction="Open the cart")
    (trace_dir / "1.activity").write_text(reference, encoding="utf-8")
    return root


def write_agent_trace(folder: Path, recorded: str) -> Path:
    """An AgentEnv trace whose step 1 records `recorded`."""
    write_trace(folder, Trace.from_states(_states(CART)))
    (folder / "captured_data" / "activity" / "1.activity").write_text(recorded, encoding="utf-8")
    return folder


@pytest.mark.parametrize(("text", "canonical"), FORMS)
def test_files_in_each_form_are_judged_on_the_canonical_name(tmp_path, matcher, text, canonical):
    annotation = GroundTruthDataset(write_dataset(tmp_path / "dataset", text)).load("ep")
    assert annotation.checkpoints[0].screen.state.canonical_activity == canonical
    same = read_trace(write_agent_trace(tmp_path / "same", text))
    assert same[1].canonical_activity == canonical
    assert evaluate_trace(annotation, same, matcher).success

    other = read_trace(write_agent_trace(tmp_path / "other", _other(text)))
    result = evaluate_trace(annotation, other, matcher)
    assert not result.success
    assert f"wanted {canonical}" in result.explanations[0]


@pytest.mark.parametrize(("text", "canonical"), FORMS)
def test_writers_store_the_short_canonical_form(tmp_path, text, canonical):
    """What a writer is given (a device's dumpsys line, a bare class) is written the way
    LlamaTouch's own files are: ``pkg/.Cls``, read back as the same canonical name."""
    folder = write_trace(tmp_path / "ep", Trace.from_states(_states(text)))
    written = (folder / "captured_data" / "activity" / "1.activity").read_text(encoding="utf-8")
    assert "{" not in written and written.startswith(f"{APP}/")
    assert read_trace(folder)[1].activity == canonical


@pytest.mark.parametrize("text", NO_ACTIVITY)
def test_no_activity_never_matches_and_cannot_be_a_reference(tmp_path, matcher, text):
    annotation = load_ground_truth(write_dataset(tmp_path / "dataset", CART) / "general" / "trace_0")
    trace = read_trace(write_agent_trace(tmp_path / "trace", text))
    assert trace[1].activity is None and trace[1].canonical_activity is None
    assert not evaluate_trace(annotation, trace, matcher).success
    (verdict,) = matcher.check(annotation.checkpoints[0], trace[1]).results
    assert not verdict.passed and verdict.detail.startswith("activity is unknown")

    write_dataset(tmp_path / "reference", text)
    with pytest.raises(AnnotationError, match="names no activity") as info:
        load_ground_truth(tmp_path / "reference" / "general" / "trace_0")
    assert info.value.path == tmp_path / "reference" / "general" / "trace_0" / "1.activity"


@pytest.mark.parametrize("text", UNREADABLE)
def test_unreadable_forms_are_errors_naming_the_file(tmp_path, text):
    folder = write_agent_trace(tmp_path / "trace", text)
    with pytest.raises(FormatError, match="line 1") as info:
        read_trace(folder)
    assert info.value.path == folder / "captured_data" / "activity" / "1.activity"

    trace_dir = write_dataset(tmp_path / "dataset", text) / "general" / "trace_0"
    with pytest.raises(FormatError) as info:
        load_ground_truth(trace_dir)
    assert info.value.path == trace_dir / "1.activity"


def test_a_class_with_no_app_window_to_take_the_package_from(tmp_path, matcher):
    """The hierarchy shows only system windows: the package cannot be known, so it is an
    error naming the activity file, when loaded (reference) or compared (trace step)."""
    trace_dir = write_dataset(tmp_path / "dataset", ".cart.CartActivity") / "general" / "trace_0"
    (trace_dir / "1.xml").write_text(windows(STATUS_BAR, KEYBOARD_WINDOW), encoding="utf-8")
    with pytest.raises(FormatError, match="no app window") as info:
        load_ground_truth(trace_dir)
    assert info.value.path == trace_dir / "1.activity"

    annotation = load_ground_truth(write_dataset(tmp_path / "good", CART) / "general" / "trace_0")
    folder = write_agent_trace(tmp_path / "trace", ".cart.CartActivity")
    (folder / "captured_data" / "xml" / "1.xml").write_text(windows(STATUS_BAR), encoding="utf-8")
    trace = read_trace(folder)  # loading reads the name, not the dump
    with pytest.raises(FormatError, match="no app window") as info:
        evaluate_trace(annotation, trace, matcher)
    assert info.value.path == folder / "captured_data" / "activity" / "1.activity"


def test_rejecting_on_activity_reads_no_dump_or_screenshot(tmp_path, matcher):
    """A name with its package is compared without the dump, and the explanation does
    not report the broken files of steps rejected on activity; a bare class needs the dump."""
    ref = UIState(xml=SCREEN, activity=CART)
    annotation = Annotation([checkpoint(ref, f"activity<0>|exact<{component_index(ref, text='Cart')}>")])
    folder = write_agent_trace(tmp_path / "trace", f"  mCurrentFocus=Window{{2f1e0c3 u0 {HOME}}}\n")
    (folder / "captured_data" / "xml" / "1.xml").unlink()
    (folder / "captured_data" / "screenshot" / "1.png").write_bytes(b"not a png")
    (folder / "captured_data" / "xml" / "0.xml").unlink()
    (folder / "captured_data" / "screenshot" / "0.png").write_bytes(b"not a png")
    result = evaluate_trace(annotation, read_trace(folder), matcher)
    assert not result.success and f"activity is {HOME}" in result.explanations[0]

    (folder / "captured_data" / "activity" / "1.activity").write_text(".cart.CartActivity", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        evaluate_trace(annotation, read_trace(folder), matcher)
    assert info.value.path == folder / "captured_data" / "xml" / "1.xml"


@pytest.mark.parametrize(
    ("text", "problem"),
    [pytest.param("hello world", "not an activity name", id="unreadable"),
     pytest.param(".cart.CartActivity", "no app window", id="unresolvable")],
)
def test_cli_reports_the_activity_file(tmp_path, text, problem):
    write_dataset(tmp_path / "dataset", CART)
    folder = write_agent_trace(tmp_path / "traces" / "ep", text)
    (folder / "captured_data" / "xml" / "1.xml").write_text(windows(STATUS_BAR), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["evaluate", "--dataset", str(tmp_path / "dataset"), "--traces", str(tmp_path / "traces"),
                 "--out", str(out)]) == 0
    with (out / "episodes.csv").open(encoding="utf-8", newline="") as f:
        (row,) = list(csv.DictReader(f))
    assert row["success"] == "False"
    assert str(folder / "captured_data" / "activity" / "1.activity") in row["error"] and problem in row["error"]


# -- online: the tracker fed a device's states ----------------------------------------
def _tracker(reference: str, matcher: Matcher) -> Tracker:
    return Tracker(Annotation([checkpoint(UIState(xml=SCREEN, activity=reference), "activity<0>")]), matcher)


@pytest.mark.parametrize(("text", "canonical"), FORMS)
def test_tracker_compares_canonical_names(matcher, text, canonical):
    for reference, observed in ((canonical, text), (text, canonical)):
        assert _tracker(reference, matcher).observe(UIState(xml=SCREEN, activity=observed))
        assert not _tracker(reference, matcher).observe(UIState(xml=SCREEN, activity=_other(observed)))


@pytest.mark.parametrize(
    "stack",
    [
        pytest.param((APP_WINDOW, KEYBOARD_WINDOW, STATUS_BAR, NAV_BAR), id="bottom-to-top"),
        pytest.param((STATUS_BAR, KEYBOARD_WINDOW, APP_WINDOW, NAV_BAR), id="shade-focused-first"),
        pytest.param((KEYBOARD_WINDOW, APP_WINDOW), id="keyboard-first"),
    ],
)
def test_the_package_comes_from_the_app_window_not_system_ones(matcher, stack):
    """Real dumps list the focused window first, the simulator bottom to top; in both
    the first window that is neither system UI nor a keyboard is the app's."""
    state = UIState(xml=windows(*stack), activity=".cart.CartActivity")
    assert state.canonical_activity == CART
    assert _tracker(CART, matcher).observe(UIState(xml=windows(*stack), activity=".cart.CartActivity"))


@pytest.mark.parametrize("text", NO_ACTIVITY)
def test_tracker_step_without_activity_does_not_match(matcher, text):
    assert not _tracker(CART, matcher).observe(UIState(xml=SCREEN, activity=text))


def test_tracker_step_with_a_class_and_only_system_windows_is_an_error(matcher):
    with pytest.raises(FormatError, match="no app window"):
        _tracker(CART, matcher).observe(UIState(xml=windows(STATUS_BAR, KEYBOARD_WINDOW), activity=".Cls"))


def test_a_new_activity_is_resolved_again():
    """A state's activity may be set after creation (a recorder does); the canonical name
    follows it."""
    state = UIState(xml=SCREEN, activity=CART)
    assert state.canonical_activity == CART
    state.activity = ".home.HomeActivity"
    assert state.canonical_activity == HOME
