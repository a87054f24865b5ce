"""View hierarchy parsing (real and malformed dumps), lookup, xpaths, hit-testing,
component lists and the compact HTML form."""

from __future__ import annotations

import pytest
from screens import DIALOG_XML, FIXTURES, N, button, dump

from mobile_gym.errors import FormatError, ViewHierarchyError
from mobile_gym.ui import Bounds, ViewHierarchy, component_list, screen_html

REAL_DUMP = FIXTURES / "click_test_case" / "case1" / "10.xml"


@pytest.fixture(scope="module")
def real() -> ViewHierarchy:
    return ViewHierarchy.from_file(REAL_DUMP)


def test_every_real_dump_parses():
    dumps = sorted(FIXTURES.rglob("*.xml"))
    assert dumps
    for path in dumps:
        h = ViewHierarchy.from_file(path)
        assert len(h) > 0 and h.rotation == 0


def test_real_dump_nodes_and_bounds(real):
    assert len(real) == 23
    done = real.find(class_name="android.widget.Button", content_desc="Done")
    assert done.bounds == Bounds(224, 988, 855, 1114)
    assert done.clickable and done.package == "com.google.android.apps.maps"
    assert real.find_all(text="done", ignore_case=True)[0].class_name == "android.view.View"
    assert real.find(clickable=True, text="Nope") is None


def test_xpaths_locate_their_node_in_both_spellings(real):
    for node in real:
        assert node in real.xpath(node.xpath)
        assert real.xpath(node.absolute_xpath) == [node]
    done = real.find(class_name="android.widget.Button", content_desc="Done")
    assert done.xpath == '//*[@resource-id="com.google.android.apps.maps:id/dialog_positive_button"]'
    assert real.xpath('//node[@content-desc="Done"][@class="android.widget.Button"]') == [done]
    assert real.xpath("//android.widget.Button") == real.find_all(class_name="android.widget.Button")
    with pytest.raises(ViewHierarchyError, match="invalid xpath"):
        real.xpath("//*[")


def test_xpaths_by_one_attribute_select_what_lxml_selects():
    """``//*[@name="value"]`` is answered from the nodes, not an XML tree: on every real
    dump and a simulated screen it selects what lxml does (the same test in parentheses
    is left to lxml), for every value of the five attributes it reads, in either quote."""
    from mobile_gym.simulator import SimulatedDevice

    phone = SimulatedDevice(seed=0, setup={"launch": "settings"})
    screens = [ViewHierarchy.from_file(path) for path in sorted(FIXTURES.rglob("*.xml"))]
    screens.append(ViewHierarchy.of(phone.observe(screenshot=False).xml))
    checked = 0
    for h in screens:
        for name, field in (("resource-id", "resource_id"), ("text", "text"), ("content-desc", "content_desc"),
                            ("class", "class_name"), ("package", "package")):
            for value in {getattr(n, field) for n in h} - {""}:
                quote = "'" if '"' in value else '"'
                if quote in value:
                    continue
                fast = h.xpath(f"//*[@{name}={quote}{value}{quote}]")
                assert fast == h.xpath(f"//*[(@{name}={quote}{value}{quote})]") and fast, (name, value)
                checked += 1
    assert checked > 50
    assert screens[-1].xpath('//*[@resource-id="no:id/such"]') == []


def test_hit_testing_routes_taps_to_the_clickable_ancestor(real):
    done = real.find(class_name="android.widget.Button", content_desc="Done")
    assert real.node_at(540, 1050).class_name == "android.view.View"  # the label drawn on top
    assert real.clickable_at(540, 1050) is done
    assert real.clickable_at(540, 700) is None  # dialog title: nothing clickable
    assert real.node_at(5, 5) is None  # outside the dialog


def test_malformed_dumps_recover_or_fail_clearly(tmp_path):
    xml = dump(button("OK", (0, 0, 100, 100)), N(text="Title", bounds=(0, 200, 100, 300)))
    truncated = ViewHierarchy(xml[: xml.index("Title") + 40])
    assert truncated.find(text="OK") is not None
    noisy = ViewHierarchy("UI hierchary dumped to: /dev/tty\n" + xml)
    assert len(noisy) == 3
    for bad in ["", "not xml at all", "<hierarchy rotation='0'></hierarchy>", "<hierarchy><node broken"]:
        with pytest.raises(ViewHierarchyError):
            ViewHierarchy(bad)
    lone_surrogate = ViewHierarchy(dump(N(text="caf\udce9")))  # text decoded with surrogateescape
    assert lone_surrogate.find(text="caf?") is not None
    path = tmp_path / "3.xml"
    path.write_text("<<<garbage")
    with pytest.raises(FormatError, match="3.xml"):
        ViewHierarchy.from_file(path)
    with pytest.raises(FormatError, match="view hierarchy is missing"):
        ViewHierarchy.from_file(tmp_path / "missing.xml")


def test_a_dump_over_the_size_limit_is_refused_before_parsing():
    from mobile_gym.formats.files import MAX_DUMP_BYTES

    with pytest.raises(ViewHierarchyError, match="larger than the limit of 8 MiB"):
        ViewHierarchy(dump(N(text="x" * MAX_DUMP_BYTES)))


def test_component_list_follows_llamatouch_rules(real):
    components = component_list(real)
    assert [c.id for c in components] == list(range(len(components)))
    described = [(c.class_name.rsplit(".", 1)[-1], c.text or c.content_desc) for c in components]
    assert described == [
        ("TextView", "Timeline data deleted"),
        ("TextView", "You may also want to check your past searches and the content you've browsed in your Timeline and other apps."),
        ("Button", "Done"),
        ("View", "Done"),
        ("Button", "Go to Web & App Activity"),
        ("View", "Go to Web & App Activity"),
    ]
    assert components[2].xpath and components[0].xpath is None  # click targets carry an xpath
    assert all(c.flag("visible") for c in components)


def test_component_list_keeps_widgets_and_labelled_containers_only():
    h = ViewHierarchy(dump(
        N("android.widget.LinearLayout", bounds=(0, 0, 1080, 200), children=[
            N("android.widget.ImageView", bounds=(0, 0, 100, 100)),
            N("android.widget.LinearLayout", bounds=(100, 0, 200, 100)),
            N("android.view.View", bounds=(200, 0, 300, 100)),
            N("android.widget.TextView", "gone", bounds=(300, 0, 300, 100)),
        ]),
        N("android.view.ViewGroup", desc="Card", bounds=(0, 300, 1080, 600), children=[N(text="x", bounds=(0, 300, 10, 310))]),
        N("android.widget.ActionMenuView", desc="More", bounds=(0, 700, 100, 800)),
    ))
    assert [(c.class_name, c.text or c.content_desc) for c in component_list(h)] == [
        ("android.widget.ImageView", ""),
        ("android.view.ViewGroup", "Card"),
        ("android.widget.TextView", "x"),
    ]


def test_compact_html(real):
    assert screen_html(real).splitlines() == [
        "<p id=0>Timeline data deleted</p>",
        "<p id=1>You may also want to check your past searches and </p>",
        "<button id=2 text='Done'>Done</button>",
        "<button id=3 text='Go to Web &amp; App Activity'>Go to Web &amp; App Activity</button>",
    ]
    h = ViewHierarchy(dump(
        N("android.widget.EditText", "excel", "com.android.vending:id/search", desc="Search",
          bounds=(0, 0, 1000, 100), flags={"clickable": True, "focusable": True}),
        N("android.widget.LinearLayout", bounds=(0, 100, 1080, 300), flags={"clickable": True}, children=[
            N(text="Wi-Fi", bounds=(0, 100, 500, 200)),
            N("android.widget.Switch", bounds=(900, 100, 1000, 200), flags={"checkable": True, "checked": True}),
        ]),
        N("android.widget.CheckBox", "Remember me", bounds=(0, 400, 500, 500), flags={"checkable": True}),
        N("androidx.recyclerview.widget.RecyclerView", bounds=(0, 600, 1080, 2000), flags={"scrollable": True},
          children=[N(text="Item 1", bounds=(0, 600, 1080, 700))]),
        N("android.view.View", rid="android:id/statusBarBackground", desc="status", bounds=(0, 0, 1080, 60)),
    ))
    assert screen_html(h).splitlines() == [
        "<input id=0 text='Search'>excel</input>",
        "<checkbox id=1 checked=True>Wi-Fi</checkbox>",
        "<checkbox id=2 checked=False>Remember me</checkbox>",
        "<scroller id=3></scroller>",
        "<p id=4>Item 1</p>",
    ]
    assert "id=" not in screen_html(h, with_ids=False)


def test_a_hierarchy_pickles_as_its_xml() -> None:
    import pickle

    from mobile_gym.simulator import SimulatedDevice

    h = SimulatedDevice(seed=0).observe(screenshot=False).hierarchy
    clone = pickle.loads(pickle.dumps(h))
    assert [(n.text, n.bounds, n.xpath) for n in clone.nodes] == [(n.text, n.bounds, n.xpath) for n in h.nodes]


def test_dumps_in_uiautomators_attribute_order_read_the_same_as_any_other_order() -> None:
    """Nodes in uiautomator's attribute order are read by position (fast); the same
    nodes with their attributes shuffled or missing are read by name, to the same model."""
    import random

    from lxml import etree

    from mobile_gym.ui.hierarchy import _DUMP_ATTRIBUTES

    from mobile_gym.simulator import SimulatedDevice

    dumps = [DIALOG_XML.read_text(encoding="utf-8")]  # a real phone's
    for app in ("settings", "chrome", "clock", "playstore"):
        dumps.append(SimulatedDevice(dynamics="default", seed=1, setup={"launch": app}).observe(screenshot=False).xml)
    rng = random.Random(0)
    for text in dumps:
        fast = ViewHierarchy(text)
        root = etree.fromstring(text.encode())
        for e in root.iter("node"):
            items = list(e.attrib.items())
            rng.shuffle(items)
            e.attrib.clear()
            e.attrib.update(items)
        slow = ViewHierarchy(etree.tostring(root))
        assert len(fast) == len(slow)
        for a, b in zip(fast, slow):
            assert (a.index, a.text, a.resource_id, a.class_name, a.package, a.content_desc, a.flags, a.bounds) == \
                   (b.index, b.text, b.resource_id, b.class_name, b.package, b.content_desc, b.flags, b.bounds)
    assert any(e.keys() == _DUMP_ATTRIBUTES for e in etree.fromstring(dumps[0].encode()).iter("node"))
