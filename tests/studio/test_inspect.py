"""The inspector's model: a UI dump as a tree, the deepest node under a point, selectors that find their node
and only it, and search with uiautomator2 selectors and XPath, with clear errors for near misses."""

from __future__ import annotations

import pytest

from droidpilot.device.sim.phone import SimDevice
from droidpilot.studio.inspect import InspectError, UiTree


def _screens() -> list[str]:
    phone = SimDevice()
    dumps = [phone.ui_xml()]
    for app in ("Notes", "Settings", "Contacts"):
        phone.open_app(app)
        dumps.append(phone.ui_xml())
    return dumps


@pytest.mark.parametrize("n", range(4))
def test_every_selector_finds_its_node_and_only_it(n: int) -> None:
    tree = UiTree.parse(_screens()[n])
    assert len(tree.nodes) > 3
    for node in tree.nodes:
        sel = tree.selectors(node.id)
        assert tree.find(sel["u2"]) == [node.id], sel
        assert tree.find(sel["xpath"]) == [node.id], sel


def test_the_deepest_node_under_a_point() -> None:
    phone = SimDevice()
    phone.open_app("Notes")
    tree = UiTree.parse(phone.ui_xml())
    hit = tree.deepest_at(935, 2120)
    assert hit is not None and tree.nodes[hit].attrs["content-desc"] == "New note"
    title = tree.deepest_at(300, 510)  # the Groceries title inside its row (below New folder): the title
    assert title is not None and tree.nodes[title].attrs["text"] == "Groceries"
    assert tree.deepest_at(5000, 5000) is None


def _dump(*texts: str) -> str:
    from xml.sax.saxutils import quoteattr

    nodes = "".join(f'<node index="{i}" text={quoteattr(t)} resource-id="" class="android.widget.TextView" '
                    f'content-desc="" bounds="[0,{i * 10}][100,{i * 10 + 10}]" />'
                    for i, t in enumerate(texts))
    return f'<hierarchy><node index="0" text="" class="android.widget.FrameLayout" bounds="[0,0][100,100]">' \
           f"{nodes}</node></hierarchy>"


def test_quotes_and_repeated_text_still_give_unique_selectors() -> None:
    tree = UiTree.parse(_dump('say "hi"', "it's", "both ' and \"", "same", "same"))
    for node in tree.nodes:
        sel = tree.selectors(node.id)
        assert tree.find(sel["u2"]) == [node.id] and tree.find(sel["xpath"]) == [node.id], sel
    assert tree.selectors(1)["xpath"] == """//android.widget.TextView[@text='say "hi"']"""
    assert tree.selectors(1)["u2"] == 'd(text="say \\"hi\\"")'
    assert tree.selectors(3)["xpath"].startswith("/hierarchy/")  # both quote kinds: a path by position
    assert tree.selectors(5)["u2"] == 'd(text="same", instance=1)'
    assert tree.selectors(5)["xpath"] == '(//android.widget.TextView[@text="same"])[2]'


def test_search_written_differently_finds_the_same_nodes() -> None:
    tree = UiTree.parse(_dump("OK", "Cancel", "OK"))
    assert tree.find('d(text="OK")') == tree.find("d(text='OK')") == tree.find("//*[@text='OK']") == [1, 3]
    assert tree.find('d(textContains="anc")') == [2]
    assert tree.find('d(text="OK", instance=1)') == [3]
    assert tree.find('(//*[@text="OK"])[2]') == [3]
    assert tree.find('d(text="Ok")') == []  # case matters, as on a phone
    assert tree.find("/hierarchy/android.widget.FrameLayout[1]/android.widget.TextView[2]") == [2]


@pytest.mark.parametrize(("selector", "message"), [
    ("", "the selector is empty"),
    ('e(text="OK")', "cannot read the selector"),
    ('d("OK")', "keywords only"),
    ('d(txt="OK")', "unknown keyword 'txt'"),
    ("d(text=ok)", "must be a plain string"),
    ("d()", "d() selects nothing in particular"),
    ('d(text="OK"', "cannot read the uiautomator2 selector"),
    ("//*[contains(@text, 'O')]", "cannot run the XPath"),
    ("x" * 3000, "at most 2,000"),
])
def test_selector_near_misses_say_what_is_wrong(selector: str, message: str) -> None:
    tree = UiTree.parse(_dump("OK"))
    with pytest.raises(InspectError, match=message.replace("(", r"\(").replace(")", r"\)")):
        tree.find(selector)


def test_a_broken_dump_names_where() -> None:
    with pytest.raises(InspectError, match=r"3.xml: not a readable UI dump \(XML error at line 1, column"):
        UiTree.parse("<hierarchy><node></hierarchy>", "3.xml")


def test_a_long_list_of_look_alike_rows_gets_one_selector_per_row() -> None:
    tree = UiTree.parse(_dump(*[f"item {i % 7}" for i in range(300)]))
    selectors = [tree.selectors(n.id) for n in tree.nodes]
    assert len({s["u2"] for s in selectors}) == len({s["xpath"] for s in selectors}) == len(tree.nodes)
    for node, sel in list(zip(tree.nodes, selectors, strict=True))[::37]:  # found back, a sample
        assert tree.find(sel["u2"]) == [node.id] and tree.find(sel["xpath"]) == [node.id]


@pytest.mark.filterwarnings("error")
def test_a_selector_with_a_backslash_that_starts_no_escape_is_read_as_typed() -> None:
    """'C:\\Files' typed into the search box made Python warn (an error where warnings are errors); it reads
    as typed, and the same text written raw or with the backslash doubled finds the same node."""
    tree = UiTree.parse(_dump("C:\\Files", "C:Files"))
    assert tree.find(r"d(text='C:\Files')") == tree.find(r"d(text=r'C:\Files')") == [1]
    assert tree.find(r"d(text='C:\\Files')") == [1]
    assert tree.find(r"d(text='C:Files')") == [2]
