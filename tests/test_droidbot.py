"""Droidbot JSON view hierarchies (LlamaTouch's ``.vh``): made from our hierarchy, they say
what the uiautomator dump says, node for node, under droidbot's field names."""

from __future__ import annotations

import json

import pytest
from lxml import etree

from screens import DIALOG_XML, N, button, dump

from mobile_gym.errors import FormatError
from mobile_gym.formats.droidbot import (
    FLAG_FIELDS,
    VIEW_FIELDS,
    droidbot_views,
    load_views,
    view_hierarchy_json,
)
from mobile_gym.ui.hierarchy import ViewHierarchy


def dump_nodes(xml: bytes | str) -> list[etree._Element]:
    """The ``node`` elements of a dump in document order, read with plain lxml."""
    data = xml.encode("utf-8") if isinstance(xml, str) else xml
    return list(etree.fromstring(data[data.find(b"<"):]).iter("node"))


def assert_views_follow_the_dump(views: list[dict], xml: bytes | str) -> None:
    nodes = dump_nodes(xml)
    assert len(views) == len(nodes) + 1
    root = views[0]
    assert (root["temp_id"], root["parent"], root["class"]) == (0, -1, None)
    for k, (view, node) in enumerate(zip(views[1:], nodes), start=1):
        assert set(view) == set(VIEW_FIELDS)
        assert view["temp_id"] == k
        assert view["class"] == node.get("class")
        assert view["resource_id"] == (node.get("resource-id") or None)
        assert view["text"] == (node.get("text") or None)
        assert view["content_description"] == (node.get("content-desc") or None)
        assert view["package"] == (node.get("package") or None)
        (left, top), (right, bottom) = view["bounds"]
        assert f"[{left},{top}][{right},{bottom}]" == node.get("bounds")
        assert view["size"] == f"{right - left}*{bottom - top}"
        assert view["visible"] == (right > left and bottom > top)
        for name, attribute in FLAG_FIELDS.items():
            assert view[name] == (node.get(attribute) == "true"), (k, name)
        # the tree: children are the node's child elements, each pointing back
        children = [nodes.index(child) + 1 for child in node if child.tag == "node"]
        assert view["children"] == children and view["child_count"] == len(children)
        assert all(views[c]["parent"] == k for c in children)
        parent = node.getparent()
        assert view["parent"] == (nodes.index(parent) + 1 if parent.tag == "node" else 0)
    assert root["children"] == [k for k, v in enumerate(views) if v["parent"] == 0]


def test_a_real_dump_becomes_droidbot_views_node_for_node(tmp_path) -> None:
    xml = DIALOG_XML.read_bytes()
    views = droidbot_views(ViewHierarchy(xml))
    assert_views_follow_the_dump(views, xml)
    # the dump holds the dialog's window alone: the root covers what the dump covers
    assert views[0]["bounds"] == views[1]["bounds"] == [[157, 569], [922, 1286]] and views[0]["size"] == "765*717"
    path = tmp_path / "10.vh"
    path.write_text(view_hierarchy_json(ViewHierarchy(xml)), encoding="utf-8")
    assert load_views(path) == views  # the file is the views, as JSON
    button = next(v for v in views if v["resource_id"] == "com.google.android.apps.maps:id/dialog_positive_button")
    assert button["content_description"] == "Done" and button["text"] is None  # text="" in the dump
    assert button["clickable"] and button["enabled"] and not button["checkable"]
    label, = (views[c] for c in button["children"])
    assert (label["text"], label["class"], label["parent"]) == ("Done", "android.view.View", button["temp_id"])


def test_strings_flags_and_fields_take_droidbot_names() -> None:
    xml = dump(
        N("android.widget.EditText", "secret", "com.example.shop:id/password", flags={"password": True,
                                                                                     "focused": True},
          bounds=(0, 100, 1080, 200)),
        N("android.widget.ImageButton", desc="Cart", bounds=(0, 300, 200, 400),
          flags={"clickable": True, "long-clickable": True}),
        N("android.widget.Switch", bounds=(900, 500, 1000, 560), flags={"checkable": True, "checked": True}),
        N("android.view.View", bounds=(10, 10, 10, 10)),  # zero area: shows nothing
    )
    views = droidbot_views(ViewHierarchy(xml))
    assert_views_follow_the_dump(views, xml)
    field, cart, switch, empty = views[-4:]
    assert field["editable"] and field["is_password"] and field["focused"] and field["text"] == "secret"
    assert not cart["editable"] and cart["long_clickable"] and cart["text"] is None
    assert cart["content_description"] == "Cart" and cart["resource_id"] is None
    assert switch["checkable"] and switch["checked"] and switch["size"] == "100*60"
    assert empty["visible"] is False and all(v["visible"] for v in views[:-1])


def test_every_window_of_a_dump_hangs_under_one_root() -> None:
    """A dump holds a node per window; view 0 is the <hierarchy> above them, so no real
    view has temp_id 0 (AutoDroid's simplify_views reads id 0 as 'no clickable ancestor')."""
    app = dump(button("Buy", (0, 300, 540, 400), rid="com.example.shop:id/buy"))
    keyboard = app.replace("</hierarchy>", dump(N("android.view.View", "q", bounds=(0, 1800, 108, 1900)),
                                                   package="com.google.android.inputmethod.latin")
                           .split("<hierarchy rotation=\"0\">", 1)[1])
    views = droidbot_views(ViewHierarchy(keyboard))
    assert_views_follow_the_dump(views, keyboard)
    tops = views[0]["children"]
    assert len(tops) == 2 and [views[t]["package"] for t in tops] == ["com.example.shop",
                                                                       "com.google.android.inputmethod.latin"]
    assert views[0]["clickable"] is False and views[0]["bounds"] == [[0, 0], [1080, 2400]]


def test_load_views_reads_agentenv_shaped_files(tmp_path) -> None:
    """AgentEnv's converter writes the same fields, indented, with '' for empty strings and
    [[0, 0], [0, 0]] for the root; the reader takes that too."""
    root = {"bounds": [[0, 0], [0, 0]], "checkable": False, "checked": False, "children": [1], "class": None,
            "clickable": False, "content_description": None, "editable": False, "enabled": True,
            "focusable": False, "focused": False, "is_password": False, "long_clickable": False, "package": "",
            "parent": -1, "resource_id": None, "scrollable": False, "selected": False, "size": "1080*2400",
            "temp_id": 0, "text": None, "visible": True, "child_count": 1}
    frame = {**root, "bounds": [[0, 0], [1080, 2400]], "children": [], "child_count": 0, "parent": 0, "temp_id": 1,
             "class": "android.widget.FrameLayout", "content_description": "", "resource_id": "", "text": "",
             "package": "com.google.android.apps.nexuslauncher"}
    path = tmp_path / "0.vh"
    path.write_text(json.dumps([root, frame], indent=4), encoding="utf-8")
    assert load_views(path) == [root, frame]


@pytest.mark.parametrize(("text", "problem"), [
    ("{not json", "not valid JSON"),
    ('{"temp_id": 0}', "non-empty JSON array"),
    ("[]", "non-empty JSON array"),
    ("[1]", "view 0 is not an object"),
    ('[{"temp_id": 1, "parent": -1, "children": [], "bounds": [[0, 0], [1, 1]]}]', "view 0 has temp_id 1"),
    ('[{"temp_id": 0, "parent": 3, "children": [], "bounds": [[0, 0], [1, 1]]}]', "view 0 has parent 3"),
    ('[{"temp_id": 0, "parent": -1, "children": [1], "bounds": [[0, 0], [1, 1]]}]', r"view 0 has children \[1\]"),
    ('[{"temp_id": 0, "parent": -1, "children": [], "bounds": "[0,0][1,1]"}]', "view 0 has bounds"),
    ('[{"temp_id": 0, "parent": -1, "children": [], "bounds": [[0, 0], [1, true]]}]', "view 0 has bounds"),
])
def test_a_broken_vh_file_is_a_format_error_naming_it(tmp_path, text, problem) -> None:
    path = tmp_path / "3.vh"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=problem) as info:
        load_views(path)
    assert info.value.path == path
