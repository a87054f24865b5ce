"""Points in replies (issue 36): every spelling published agents use for a point, read in
each coordinate frame (device pixels, screenshot pixels, fractions, the 0-1000 grid); a
point outside the frame is an error naming the frame; and a held-out corpus of replies
in those spellings, made by a generator of its own (not the benchmark's), read as the
action each names on a 1080×2400 phone."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest

from mobile_gym.actions import Action, ActionType
from mobile_gym.errors import AppNotInstalledError, ConfigError, ReplyError
from mobile_gym.llm.coordinates import COORDINATES, CoordinateFrame, coordinate_frame
from mobile_gym.llm.grammar import grammar_help, parse_reply, spelled
from mobile_gym.ui.screen_text import ScreenElements
from mobile_gym.wrappers import TextActions

W, H = 1080, 2400
TASK = "LlamaTouch/settings-open-v0"
FRAMES = {"device": coordinate_frame("device", (W, H)), "screenshot": coordinate_frame("screenshot", (W, H), (270, 600)),
          "fraction": coordinate_frame("fraction", (W, H)), "permille": coordinate_frame("permille", (W, H))}
#: The same point, (540, 1800) on the phone, in each frame.
AT = {"device": (540, 1800), "screenshot": (135, 450), "fraction": (0.5, 0.75), "permille": (500, 750)}


@pytest.fixture(scope="module")
def screen() -> ScreenElements:
    env = gym.make(TASK, profile="pixel-6")
    env.reset(seed=0)
    yield ScreenElements.of(env.unwrapped.hierarchy)
    env.close()


def acts(reply, screen, frame="device") -> list[str]:
    return [str(a) for a in parse_reply(reply).actions(screen, FRAMES[frame] if frame else None)]


# -- frames ---------------------------------------------------------------------------------
def test_frames_and_their_sizes() -> None:
    assert COORDINATES == ("device", "screenshot", "fraction", "permille")
    assert FRAMES["device"] == CoordinateFrame("device", (1080.0, 2400.0))
    assert FRAMES["screenshot"].size == (270, 600) and FRAMES["permille"].size == (1000, 1000)
    for name, (x, y) in AT.items():
        assert FRAMES[name].to_fraction(x, y) == (0.5, 0.75)
    assert FRAMES["device"].to_fraction(1080, 2400) == (1.0, 1.0)  # the edges are in
    with pytest.raises(ConfigError, match="coordinates must be one of"):
        coordinate_frame("pixels", (W, H))
    with pytest.raises(ConfigError, match="screenshot"):
        coordinate_frame("screenshot", (W, H))


@pytest.mark.parametrize("frame, point, message", [
    ("device", (1200, 2500), r"point \(1200, 2500\) is outside the device screen \(1080×2400 pixels\)"),
    ("device", (-1, 5), r"point \(-1, 5\) is outside the device screen"),
    ("screenshot", (540, 1200), r"outside the screenshot \(270×600 pixels\)"),
    ("fraction", (540, 1200), r"outside the screen in fractions \(0 to 1\)"),
    ("permille", (500, 1001), r"outside the 0-1000 grid \(1000×1000\)"),
])
def test_a_point_outside_the_frame_is_an_error_naming_it(screen, frame, point, message) -> None:
    with pytest.raises(ReplyError, match=message):
        FRAMES[frame].to_fraction(*point)
    with pytest.raises(ReplyError, match=message):  # never clamped
        acts(f"tap({point[0]}, {point[1]})", screen, frame)


def test_without_a_frame_only_fractions_are_read(screen) -> None:
    assert acts("tap(0.42, 0.61)", screen, None) == [str(Action.click(0.42, 0.61))]
    with pytest.raises(ReplyError, match="need a frame"):
        acts("tap(540, 1200)", screen, None)
    with pytest.raises(ReplyError, match="fractions of the screen from 0 to 1"):
        acts("tap(1.5, 0.2)", screen, None)
    with pytest.raises(ReplyError, match="looks like fractions.*device screen"):
        acts("tap(0.42, 0.61)", screen, "device")  # not a pixel in the corner
    # AITW dual points are fractions (y first) in every frame
    aitw = '{"action_type": "dual_point", "touch_point": [0.3, 0.4], "lift_point": [0.3, 0.4], "typed_text": ""}'
    assert {acts(aitw, screen, f)[0] for f in (None, *FRAMES)} == {str(Action.click(0.4, 0.3))}


# -- every spelling, in every frame ----------------------------------------------------------------
def spellings(x, y):
    """(reply, what it does) for a point (x, y) of the frame; ``P`` is that point as a fraction."""
    return [
        # AndroidWorld / AndroidControl JSON
        (f'{{"action_type": "click", "x": {x}, "y": {y}}}', ["CLICK P"]),
        (f'{{"action_type": "long_press", "x": {x}, "y": {y}}}', ["LONG_PRESS P"]),
        (f'{{"action_type": "double_tap", "x": {x}, "y": {y}}}', ["DOUBLE_TAP P"]),
        (f'{{"action_type": "input_text", "text": "hi", "x": {x}, "y": {y}}}', ["CLICK P", "TYPE('hi')"]),
        (f'{{"action_type": "type", "text": "hi", "x": {x}, "y": {y}}}', ["CLICK P", "TYPE('hi')"]),
        (f'{{"action_type": "scroll", "direction": "down", "x": {x}, "y": {y}}}', ["SCROLL down P"]),
        # Qwen-VL / MAI-UI mobile_use, in tool_call tags with prose around
        (f'I will tap it.\n<tool_call>\n{{"name": "mobile_use", "arguments": {{"action": "click", "coordinate": '
         f'[{x}, {y}]}}}}\n</tool_call>', ["CLICK P"]),
        (f'<tool_call>{{"name": "mobile_use", "arguments": {{"action": "long_press", "coordinate": [{x}, {y}], '
         f'"time": 2}}}}</tool_call> done', ["LONG_PRESS P"]),
        (f'<tool_call>{{"name": "mobile_use", "arguments": {{"action": "swipe", "direction": "up", '
         f'"coordinate": [{x}, {y}]}}}}</tool_call>', ["SCROLL down P"]),  # the finger's way: up
        # UI-TARS
        (f"Thought: the gear.\nAction: click(start_box='({x},{y})')", ["CLICK P"]),
        (f"click(start_box='<|box_start|>({x},{y})<|box_end|>')", ["CLICK P"]),
        (f"long_press(start_box='({x},{y})')", ["LONG_PRESS P"]),
        (f"scroll(start_box='({x},{y})', direction='down')", ["SCROLL down P"]),
        # Claude computer use
        (f'{{"action": "left_click", "coordinate": [{x}, {y}]}}', ["CLICK P"]),
        (f'{{"action": "double_click", "coordinate": [{x}, {y}]}}', ["DOUBLE_TAP P"]),
        (f'{{"action": "scroll", "coordinate": [{x}, {y}], "scroll_direction": "down", "scroll_amount": 3}}',
         ["SCROLL down P"]),
        # function style
        (f"tap({x}, {y})", ["CLICK P"]), (f"long_press({x}, {y})", ["LONG_PRESS P"]),
        (f"double_tap({x}, {y})", ["DOUBLE_TAP P"]), (f'type({x}, {y}, "hi")', ["CLICK P", "TYPE('hi')"]),
        (f"scroll({x}, {y}, down)", ["SCROLL down P"]),
    ]


@pytest.mark.parametrize("frame", list(FRAMES))
def test_every_spelling_of_a_point_in_every_frame(screen, frame) -> None:
    point = FRAMES[frame].to_fraction(*AT[frame])
    for reply, expected in spellings(*AT[frame]):
        got = parse_reply(reply).actions(screen, FRAMES[frame])
        assert len(got) == len(expected), reply
        for action, want in zip(got, expected):
            if want == "CLICK P":
                assert action == Action.click(*point), reply
            elif want in ("LONG_PRESS P", "DOUBLE_TAP P"):
                assert action == Action(ActionType[want.split()[0]], touch=point), reply
            elif want == "SCROLL down P":  # a swipe that starts there, the finger going up
                assert action.action_type is ActionType.SWIPE and action.touch == point, reply
                assert action.lift[0] == point[0] and action.lift[1] < point[1], reply
            else:
                assert str(action) == want, reply


def test_boxes_are_read_as_their_centre(screen) -> None:
    centre = [str(Action.click(300 / W, 500 / H))]
    for reply in ("click(start_box='[200,400,400,600]')", "click(start_box='(200,400,400,600)')",
                  "click(start_box='<|box_start|>(200,400,400,600)<|box_end|>')", "click(point='<point>300 500</point>')",
                  '{"action": "click", "coordinate": [200, 400, 400, 600]}'):
        assert acts(reply, screen) == centre, reply


@pytest.mark.parametrize("reply", [
    "swipe(100, 2000, 100, 800)", "drag(start_box='(100,2000)', end_box='(100,800)')",
    '{"action": "left_click_drag", "start_coordinate": [100, 2000], "coordinate": [100, 800]}',
    '<tool_call>{"name": "mobile_use", "arguments": {"action": "swipe", "coordinate": [100, 2000], '
    '"coordinate2": [100, 800]}}</tool_call>',
    '{"name": "mobile_use", "arguments": {"action": "drag", "start_coordinate": [100, 2000], '
    '"end_coordinate": [100, 800]}}',
])
def test_swipes_and_drags_between_two_points(screen, reply) -> None:
    assert acts(reply, screen) == [str(Action.swipe(100 / W, 2000 / H, 100 / W, 800 / H))]


def test_a_swipe_between_the_same_point_is_an_error(screen) -> None:
    with pytest.raises(ReplyError, match="the same"):
        acts("swipe(100, 200, 100, 200)", screen)


def test_scrolls_at_a_point_near_an_edge_stay_on_the_screen(screen) -> None:
    (swipe,) = parse_reply("scroll(540, 10, down)").actions(screen, FRAMES["device"])
    assert swipe.lift[1] == 0.0 and swipe.touch[1] > swipe.lift[1]  # moved down, its length kept
    for direction in ("up", "down", "left", "right"):  # swipe names the finger's way: the opposite scroll
        swiped = parse_reply(f"swipe({direction})").actions(screen)
        opposite = {"up": "down", "down": "up", "left": "right", "right": "left"}[direction]
        assert swiped == parse_reply(f"scroll({opposite})").actions(screen)


@pytest.mark.parametrize("reply, expected", [
    ('{"action_type": "open_app", "app_name": "Gmail"}', ["OPEN_APP('Gmail')"]),
    ('<tool_call>{"name": "mobile_use", "arguments": {"action": "open", "text": "Gmail"}}</tool_call>',
     ["OPEN_APP('Gmail')"]),
    ("open_app(app_name='Gmail')", ["OPEN_APP('Gmail')"]), ('open_app("Gmail")', ["OPEN_APP('Gmail')"]),
    ('{"action_type": "wait"}', ["WAIT"]), ("wait()", ["WAIT"]), ('{"action": "wait", "duration": 2}', ["WAIT"]),
    ('{"name": "mobile_use", "arguments": {"action": "wait", "time": 2}}', ["WAIT"]),
    ('{"action_type": "answer", "text": "42"}', ["ANSWER('42')"]), ('answer("42")', ["ANSWER('42')"]),
    ("answer(42)", ["ANSWER('42')"]),
    ('<tool_call>{"name": "mobile_use", "arguments": {"action": "answer", "text": "42"}}</tool_call>',
     ["ANSWER('42')"]),
    ("finished(content='It is 42.')", ["ANSWER('It is 42.')", "COMPLETE"]), ("finished()", ["COMPLETE"]),
    ("type(content='it\\'s (here)')", ["TYPE(\"it's (here)\")"]), ('{"action": "type", "text": "hi"}', ["TYPE('hi')"]),
    ("press_home()", ["HOME"]), ("press_back()", ["BACK"]),
])
def test_the_other_verbs(screen, reply, expected) -> None:
    assert acts(reply, screen) == expected


@pytest.mark.parametrize("status, expected", [
    *[(s, "COMPLETE") for s in ("complete", "successful", "success", "Succeeded", "done", "finished")],
    *[(s, "IMPOSSIBLE") for s in ("infeasible", "failure", "failed", "FAIL", "impossible")],
])
def test_status_variants(screen, status, expected) -> None:
    assert acts(f'{{"action_type": "status", "goal_status": "{status}"}}', screen) == [expected]
    tool = f'{{"name": "mobile_use", "arguments": {{"action": "terminate", "status": "{status}"}}}}'
    assert acts(f"<tool_call>{tool}</tool_call>", screen) == [expected]
    assert acts(f"terminate(status='{status}')", screen) == [expected]


@pytest.mark.parametrize("key, expected", [("Return", "ENTER"), ("Enter", "ENTER"), ("KP_Enter", "ENTER"),
                                           ("Back", "BACK"), ("Home", "HOME"), ("KEYCODE_BACK", "BACK")])
def test_key_names(screen, key, expected) -> None:
    assert acts(f'{{"action": "key", "text": "{key}"}}', screen) == [expected]
    tool = f'{{"name": "mobile_use", "arguments": {{"action": "system_button", "button": "{key}"}}}}'
    assert acts(f"<tool_call>{tool}</tool_call>", screen) == [expected]


@pytest.mark.parametrize("reply, message", [
    ('{"action_type": "dismiss", "x": 540, "y": 1200}', "unknown action 'dismiss'"),
    ('{"action": "key", "text": "Tab"}', "the key 'Tab' is no action"),
    ('{"name": "mobile_use", "arguments": {"action": "system_button", "button": "Menu"}}', "'Menu' is no action"),
    ('{"action": "right_click", "coordinate": [1, 2]}', "unknown action 'right_click'"),
    ('{"action_type": "status", "goal_status": "maybe"}', "unknown goal status"),
    ('{"action_type": "click", "x": 540}', "tap needs an element"),
    ("tap(1, 2, 3)", "got 3 numbers"), ("swipe(1, 2)", "swipe needs a direction"),
    ('{"action": "click", "coordinate": [1, 2, 3]}', "a point is"), ("open_app('  ')", "app's name"),
    ("click(start_box='(1e999,2)')", "coordinates are numbers"),
])
def test_unusable_points_and_invented_verbs_are_clear_errors(reply, message) -> None:
    with pytest.raises(ReplyError, match=message):
        parse_reply(reply)


def test_an_element_still_wins_and_element_verbs_are_new_too(screen) -> None:
    e = screen.elements[5]
    assert acts('{"action_type": "click", "index": 5, "x": 1, "y": 2}', screen) == [str(Action.click(*e.point))]
    assert acts("long_press(5)", screen) == [str(Action.long_press(*e.point))]
    assert acts('{"action": "double_tap", "element": 5}', screen) == [str(Action.double_tap(*e.point))]
    assert spelled(parse_reply("tap(540, 1200)")) == "tap((540, 1200))"
    help_ = grammar_help()
    assert "long_press(element)" in help_ and "open_app(app)" in help_ and "(x, y)" not in help_
    assert "tap(element) or tap(x, y)" in grammar_help(points=True)


# -- through the env ----------------------------------------------------------------------------
class RefusesApps(gym.Wrapper):
    """An env that raises for an app it has not (as an env of someone else's may)."""

    def step(self, action):
        if action.action_type is ActionType.OPEN_APP and action.text == "Nope":
            raise AppNotInstalledError("no app 'Nope' is installed (nearest: Notes)")
        return self.env.step(action)


def test_text_actions_reads_points_in_its_frame_and_steps_an_invalid_action_when_it_cannot() -> None:
    env = TextActions(RefusesApps(gym.make(TASK, profile="pixel-6")), coordinates="device")
    env.reset(seed=0)
    screen = env.screen()
    gear = screen.elements[5]
    x, y = gear.point[0] * W, gear.point[1] * H
    info = env.step(f'{{"action_type": "click", "x": {x:.0f}, "y": {y:.0f}}}')[-1]
    assert info["parse_error"] is None and info["success"]
    env.reset(seed=0)
    for i, (reply, error) in enumerate([("tap(1200, 2500)", "outside the device screen (1080×2400 pixels)"),
                                        ("open_app('Nope')", "no app 'Nope' is installed")], start=1):
        obs, reward, terminated, truncated, info = env.step(reply)
        assert error in info["parse_error"] and info["steps"] == i and not terminated and reward == 0
        assert info["actions"] == []
    assert info["command"] == "open_app('Nope')"
    # the env itself refuses an app that is not installed without raising: a step that did nothing
    real = TextActions(gym.make(TASK, profile="pixel-6"), coordinates="device")
    obs, _ = real.reset(seed=0)
    obs2, reward, terminated, _, info = real.step('{"action_type": "open_app", "app_name": "Gmial"}')
    assert info["parse_error"].startswith("cannot open app 'Gmial'") and "nearest installed: Gmail" in info["parse_error"]
    assert info["actions"] == ["OPEN_APP('Gmial')"] and info["steps"] == 1 and not terminated
    assert obs2["view_hierarchy"] == obs["view_hierarchy"]
    with pytest.raises(ConfigError):
        TextActions(gym.make(TASK), coordinates="pixels")
    shot = TextActions(gym.make(TASK, profile="pixel-6"), coordinates="screenshot")
    assert shot.frame == CoordinateFrame("screenshot", tuple(map(float, shot.unwrapped.observation_size)))


# -- held out: a corpus of its own ---------------------------------------------------------------
TEXTS = ["hello", "it's 9:00", 'say "hi", then (wave)', "café crème", "a, b"]
APPS = ["Gmail", "Clock", "Settings", "Chrome", "YouTube"]
DIRS = ["up", "down", "left", "right"]
FINGER = {"up": "down", "down": "up", "left": "right", "right": "left"}  # a swipe's way for each scroll


def intent(rng):
    kind = rng.choice(["tap", "tap", "long_press", "double_tap", "type", "swipe", "scroll", "back", "home", "enter",
                       "complete", "impossible", "wait", "open_app", "answer"])
    p = (int(rng.integers(20, W - 20)), int(rng.integers(20, H - 20)))
    if kind == "scroll":  # away from the edges: the swipe starts at the point
        p = (int(rng.integers(300, W - 300)), int(rng.integers(900, H - 900)))
    q = (int(rng.integers(20, W - 20)), int(rng.integers(20, H - 20)))
    return {"kind": str(kind), "p": p, "q": q, "text": str(rng.choice(TEXTS)), "app": str(rng.choice(APPS)),
            "dir": str(rng.choice(DIRS)), "at": bool(rng.random() < 0.6)}


def spell(i, rng) -> str | dict:
    """One intent in one of the published spellings (a form without the verb: function style)."""
    k, (x, y), (x2, y2), text, d = i["kind"], i["p"], i["q"], i["text"], i["dir"]
    form = rng.choice(["androidworld", "mobile_use", "uitars", "claude", "call"])
    j = lambda o: json.dumps(o, ensure_ascii=False)  # noqa: E731
    if form == "androidworld":
        aw = {"tap": {"action_type": "click", "x": x, "y": y}, "long_press": {"action_type": "long_press", "x": x, "y": y},
              "double_tap": {"action_type": "double_tap", "x": x, "y": y},
              "type": {"action_type": str(rng.choice(["input_text", "type"])), "text": text,
                       **({"x": x, "y": y} if i["at"] else {})},
              "scroll": {"action_type": "scroll", "direction": d, **({"x": x, "y": y} if i["at"] else {})},
              "back": {"action_type": "navigate_back"}, "home": {"action_type": "navigate_home"},
              "enter": {"action_type": "keyboard_enter"}, "wait": {"action_type": "wait"},
              "complete": {"action_type": "status", "goal_status": str(rng.choice(["complete", "successful"]))},
              "impossible": {"action_type": "status", "goal_status": str(rng.choice(["infeasible", "failure"]))},
              "open_app": {"action_type": "open_app", "app_name": i["app"]},
              "answer": {"action_type": "answer", "text": text}}
        if k in aw:
            return j(aw[k])
    if form == "mobile_use":
        mu = {"tap": {"action": "click", "coordinate": [x, y]}, "long_press": {"action": "long_press",
                                                                            "coordinate": [x, y], "time": 2},
              "type": {"action": "type", "text": text}, "swipe": {"action": "swipe", "coordinate": [x, y],
                                                                  "coordinate2": [x2, y2]},
              "scroll": {"action": "swipe", "direction": FINGER[d], "coordinate": [x, y]},
              "back": {"action": "system_button", "button": "Back"}, "home": {"action": "system_button",
                                                                             "button": "Home"},
              "enter": {"action": "system_button", "button": "Enter"}, "wait": {"action": "wait", "time": 1},
              "complete": {"action": "terminate", "status": "success"},
              "impossible": {"action": "terminate", "status": "failure"},
              "open_app": {"action": "open", "text": i["app"]}, "answer": {"action": "answer", "text": text}}
        if k in mu and not (k == "type" and i["at"]):
            call = j({"name": "mobile_use", "arguments": mu[k]})
            return str(rng.choice(["", "I see the screen.\n"])) + f"<tool_call>\n{call}\n</tool_call>"
    if form == "uitars":
        box = str(rng.choice([f"({x},{y})", f"<|box_start|>({x},{y})<|box_end|>", f"[{x - 4},{y - 6},{x + 4},{y + 6}]"]))
        quoted = text.replace("\\", "\\\\").replace("'", "\\'")
        ut = {"tap": f"click(start_box='{box}')", "long_press": f"long_press(start_box='{box}')",
              "type": f"type(content='{quoted}')", "swipe": f"drag(start_box='({x},{y})', end_box='({x2},{y2})')",
              "scroll": f"scroll(start_box='({x},{y})', direction='{d}')", "back": "press_back()",
              "home": "press_home()", "wait": "wait()", "complete": "finished(content='')",
              "open_app": f"open_app(app_name='{i['app']}')"}
        if k in ut and not (k == "type" and i["at"]) and not (k == "scroll" and not i["at"]):
            return f"Thought: {rng.choice(['I should act.', 'The list goes on.'])}\nAction: {ut[k]}"
    if form == "claude":
        cl = {"tap": {"action": "left_click", "coordinate": [x, y]},
              "double_tap": {"action": "double_click", "coordinate": [x, y]}, "type": {"action": "type", "text": text},
              "swipe": {"action": "left_click_drag", "start_coordinate": [x, y], "coordinate": [x2, y2]},
              "scroll": {"action": "scroll", "coordinate": [x, y], "scroll_direction": d, "scroll_amount": 3},
              "back": {"action": "key", "text": "Back"}, "home": {"action": "key", "text": "Home"},
              "enter": {"action": "key", "text": "Return"}, "wait": {"action": "wait", "duration": 1}}
        if k in cl and not (k == "type" and i["at"]) and not (k == "scroll" and not i["at"]):
            if rng.random() < 0.3:
                return {"role": "assistant", "content": [{"type": "text", "text": "Clicking."},
                                                         {"type": "tool_use", "name": "computer", "input": cl[k]}]}
            return j(cl[k])
    q = json.dumps(text, ensure_ascii=False)
    calls = {"tap": f"tap({x}, {y})", "long_press": f"long_press({x}, {y})", "double_tap": f"double_tap({x}, {y})",
             "type": f"type({x}, {y}, {q})" if i["at"] else f"type({q})", "swipe": f"swipe({x}, {y}, {x2}, {y2})",
             "scroll": f"scroll({x}, {y}, {d})" if i["at"] else f"scroll({d})", "back": "back()", "home": "home()",
             "enter": "enter()", "wait": "wait()", "complete": "complete()", "impossible": "impossible()",
             "open_app": f'open_app("{i["app"]}")', "answer": f"answer({q})"}
    return calls[k]


def wrapped(reply, rng):
    if not isinstance(reply, str) or reply.startswith("Thought:") or "<tool_call>" in reply:
        return reply
    style = rng.choice(["plain", "prose", "fence", "action", "action_fence"])
    lead = "The Settings row (item 4) is what the task needs; tapping the icon opens it.\n"
    if style == "prose":
        return lead + reply + "\nI will check the next screen."
    if style == "fence":
        return lead + ("```json\n" if reply.startswith("{") else "```\n") + reply + "\n```"
    if style == "action":
        return lead + "Action: " + reply
    if style == "action_fence":
        return "Action:\n```\n" + reply + "\n```"
    return reply


def near(point, x, y) -> bool:
    return abs(point[0] * W - x) <= 3 and abs(point[1] * H - y) <= 3


def does_what_it_names(i, actions: list[Action]) -> bool:
    k, (x, y), (x2, y2) = i["kind"], i["p"], i["q"]
    kinds = [a.action_type.name for a in actions]
    if k in ("tap", "long_press", "double_tap"):
        name = {"tap": "CLICK", "long_press": "LONG_PRESS", "double_tap": "DOUBLE_TAP"}[k]
        return kinds == [name] and near(actions[0].touch, x, y)
    if k == "type":
        typed = actions[-1].action_type is ActionType.TYPE and actions[-1].text == i["text"]
        if len(actions) == 2:
            return typed and kinds[0] == "CLICK" and near(actions[0].touch, x, y)
        return typed and len(actions) == 1
    if k == "swipe":
        return kinds == ["SWIPE"] and near(actions[0].touch, x, y) and near(actions[0].lift, x2, y2)
    if k == "scroll":
        if kinds != ["SWIPE"]:
            return False
        (tx, ty), (lx, ly) = actions[0].touch, actions[0].lift
        moved = {"down": ly < ty, "up": ly > ty, "right": lx < tx, "left": lx > tx}[i["dir"]]
        return moved and (not i["at"] or near(actions[0].touch, x, y))
    if k == "open_app":
        return kinds == ["OPEN_APP"] and actions[0].text == i["app"]
    if k == "answer":
        return kinds == ["ANSWER"] and actions[0].text == i["text"]
    return kinds == [{"back": "BACK", "home": "HOME", "enter": "ENTER", "complete": "COMPLETE",
                      "impossible": "IMPOSSIBLE", "wait": "WAIT"}[k]]


def held_out(n: int, seed: int):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        i = intent(rng)
        yield i, wrapped(spell(i, rng), rng)


@pytest.mark.parametrize("n", [pytest.param(3000, id="3000"), pytest.param(30_000, id="30000", marks=pytest.mark.slow)])
def test_held_out_replies_do_what_they_name(screen, n) -> None:
    frame, right, failures = FRAMES["device"], 0, []
    for i, reply in held_out(n, seed=36_036):
        try:
            actions = parse_reply(reply).actions(screen, frame)
        except ReplyError as e:
            failures.append((reply, str(e)))
            continue
        if does_what_it_names(i, actions):
            right += 1
        else:
            failures.append((reply, [str(a) for a in actions]))
    assert right / n >= 0.99, failures[:5]


def test_held_out_replies_through_the_env() -> None:
    """A sample through `TextActions` on a 1080×2400 phone: the env is given the actions
    the reply names (an app that is not installed: a clear error naming it)."""
    env = TextActions(gym.make(TASK, profile="pixel-6", max_episode_steps=1000), coordinates="device")
    env.reset(seed=0)
    assert env.unwrapped.device.screen_size == (W, H)
    for i, reply in held_out(120, seed=3_600):
        expected = parse_reply(reply).actions(env.screen(), env.frame)
        _, _, terminated, truncated, info = env.step(reply)
        if info["parse_error"] is not None:  # only the device's refusal of an app it lacks
            assert i["kind"] == "open_app" and i["app"] in info["parse_error"], (reply, info["parse_error"])
        else:
            done = [str(a) for a in expected]  # all of them, or up to the step that ended the episode
            assert does_what_it_names(i, expected), reply
            assert info["actions"] == (done[:len(info["actions"])] if terminated else done), reply
        if terminated or truncated:
            env.reset(seed=0)


def test_python_spelled_objects_and_chains_with_then(screen) -> None:
    """AndroidWorld's agents print their action as a Python dict (read back with
    ``ast.literal_eval``); UI-TARS may chain a second call with "then": both read."""
    assert parse_reply("Reason: done.\nAction: {'action_type': 'status', 'goal_status': 'infeasible'}").verb \
        == "impossible"
    assert parse_reply("Action: {'action_type': 'answer', 'text': \"it's 42\"}").text == "it's 42"
    assert parse_reply("Maybe {it's the gear}. Action: tap(5)").element == 5  # prose in braces stays prose
    chain = parse_reply("Thought: open it, then let it load.\nAction: click(start_box='(500,300)') then wait()")
    assert spelled(chain) == "tap((500, 300)) then wait()"
    frame = coordinate_frame("permille", (1080, 2400))
    assert [a.action_type for a in chain.actions(screen, frame)] == [ActionType.CLICK, ActionType.WAIT]
    with pytest.raises(ReplyError, match="several actions"):
        parse_reply("Action: tap(3) or tap(4)")  # no "then": not guessed at
    with pytest.raises(ReplyError, match="chains 5 actions"):
        parse_reply("Action: " + " then ".join(f"tap({i})" for i in range(5)))


def test_a_chain_of_the_same_verb_is_each_of_them_and_a_refusal_stops_it() -> None:
    assert [a.action_type for a in parse_reply("back() then back()").actions(None)] == [ActionType.BACK] * 2
    assert spelled(parse_reply("Looks like tap(3).\nAction: tap(3)")) == "tap(3)"  # named twice, not chained
    env = TextActions(gym.make(TASK, actions="all"), coordinates="device")
    env.reset(seed=0)
    info = env.step('open_app("Nonexistent") then tap(540, 1200)')[-1]
    assert info["parse_error"].startswith("cannot open app 'Nonexistent'")
    assert info["actions"] == ["OPEN_APP('Nonexistent')"] and info["steps"] == 1  # the tap is not done
