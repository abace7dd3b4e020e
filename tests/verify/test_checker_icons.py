"""The icons_match checker on screenshots rendered by the test, and on MobiFlow's weixin rule."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from droidpilot.errors import InputError
from droidpilot.perception.icons.drawing import blank_screen, draw_icon
from droidpilot.perception.icons.imageio import read_image
from droidpilot.verify.checkers import Verdict, get_checker, registered_names
from droidpilot.verify.checkers.icons import FRAME_PYRAMID_KEY, preflight_icons
from droidpilot.verify.frame import Frame
from droidpilot.verify.options import VerifierOptions
from droidpilot.verify.rule import Condition, Node, Task

MOBIFLOW = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobiflow"


def _png(path: Path, img: np.ndarray) -> Path:
    ok, buf = cv2.imencode(".png", img)
    assert ok
    path.write_bytes(buf.tobytes())
    return path


def _tile(shape: str, colour: str, caption: str) -> np.ndarray:
    tile = np.full((80, 80, 3), 246, np.uint8)
    draw_icon(tile, shape, (40, 32), 46, colour)
    cv2.putText(tile, caption, (10, 74), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (50, 50, 50), 1, cv2.LINE_AA)
    return tile


@pytest.fixture(scope="module")
def rule_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rule folder with icons next to it: home and chat are on the screen, camera is not."""
    folder = tmp_path_factory.mktemp("rules")
    _png(folder / "home.png", _tile("rounded square", "blue", "Home"))
    (folder / "icons").mkdir()
    _png(folder / "icons" / "chat.png", _tile("heart", "green", "Chat"))
    _png(folder / "icons" / "camera.png", _tile("star", "purple", "Cam"))
    return folder


@pytest.fixture(scope="module")
def screenshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    screen = blank_screen(1080, 2400, "light")
    for tile, (x, y), scale in ((_tile("rounded square", "blue", "Home"), (120, 2240), 1.3),
                                (_tile("heart", "green", "Chat"), (520, 2240), 1.3)):
        scaled = cv2.resize(tile, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        screen[y:y + scaled.shape[0], x:x + scaled.shape[1]] = scaled
    draw_icon(screen, "circle", (540, 800), 160, "orange")
    return _png(tmp_path_factory.mktemp("trace") / "0.png", screen)


@pytest.fixture
def options(rule_dir: Path) -> VerifierOptions:
    return VerifierOptions(rule_dir=rule_dir)


def _run(params: dict, frame: Frame, options: VerifierOptions | None):
    return get_checker("icons").run(frame, params, options)


def test_registered_reads_the_screen_and_costs_between_xml_and_ocr() -> None:
    checker = get_checker("icons")
    assert checker.name == "icons_match" and "icons_match" in registered_names()
    assert checker.reads == "screen"
    if "xml_text_match" in registered_names() and "ocr_match" in registered_names():
        assert get_checker("xml").cost < checker.cost < get_checker("ocr").cost


def test_all_present_is_yes_with_where(screenshot: Path, options: VerifierOptions) -> None:
    result = _run({"all": ["home", "chat"]}, Frame(0, image_path=screenshot), options)
    assert result.verdict is Verdict.YES, result.to_dict()
    home = result.details["matched"]["home"]
    assert abs(home["box"][0] - 120) <= 4 and abs(home["box"][1] - 2240) <= 4
    assert home["scale"] == pytest.approx(1.3, rel=0.08) and home["score"] >= 0.8
    assert home["file"].endswith("home.png")
    assert result.details["matched"]["chat"]["file"].endswith(str(Path("icons") / "chat.png"))


def test_all_with_one_missing_is_no_naming_it(screenshot: Path, options: VerifierOptions) -> None:
    result = _run({"all": ["home", "camera"]}, Frame(0, image_path=screenshot), options)
    assert result.verdict is Verdict.NO
    assert "camera" in result.reason
    assert "camera" in result.details["missing"] and "home" in result.details["matched"]


def test_any_and_both_constraints(screenshot: Path, options: VerifierOptions) -> None:
    frame = Frame(0, image_path=screenshot)
    assert _run({"any": ["camera", "chat"]}, frame, options).yes
    assert _run({"any": "camera"}, frame, options).no
    assert _run({"any": ["chat"], "all": ["home"]}, frame, options).yes
    assert _run({"any": ["camera"], "all": ["home"]}, frame, options).no


def test_threshold_from_node_then_options(screenshot: Path, rule_dir: Path) -> None:
    frame = Frame(0, image_path=screenshot)
    assert _run({"any": ["camera"], "threshold": 0.05}, frame, VerifierOptions(rule_dir=rule_dir)).yes
    lenient = VerifierOptions(rule_dir=rule_dir, icons_threshold=0.05)
    assert _run({"any": ["camera"]}, frame, lenient).yes
    assert _run({"any": ["camera"], "threshold": 0.9}, frame, lenient).no
    assert _run({"any": ["camera"], "threshold": 0.9}, frame, lenient).details["threshold"] == 0.9


def test_screenshot_decoded_once_and_results_kept(screenshot: Path, options: VerifierOptions) -> None:
    frame = Frame(0, image_path=screenshot)
    _run({"any": ["home"]}, frame, options)
    pyramid = frame.extra[FRAME_PYRAMID_KEY]
    assert pyramid.full.shape == (2400, 1080)
    again = _run({"all": ["home", "chat"]}, frame, options)
    assert frame.extra[FRAME_PYRAMID_KEY] is pyramid
    assert again.yes


def test_frame_without_screenshot_is_undecided(options: VerifierOptions) -> None:
    result = _run({"any": ["home"]}, Frame(3), options)
    assert result.verdict is Verdict.UNDECIDED
    assert "no screenshot" in result.reason


def test_unreadable_screenshot_is_undecided(tmp_path: Path, options: VerifierOptions) -> None:
    bad = tmp_path / "0.png"
    bad.write_bytes(b"truncated")
    result = _run({"any": ["home"]}, Frame(0, image_path=bad), options)
    assert result.undecided and "not a readable image" in result.reason


def test_unknown_icon_is_an_error_naming_the_places(screenshot: Path, options: VerifierOptions,
                                                     rule_dir: Path) -> None:
    frame = Frame(0, image_path=screenshot)
    with pytest.raises(InputError) as err:
        _run({"any": ["home", "icon_404"]}, frame, options)
    assert "icon_404" in str(err.value) and str(rule_dir / "icons") in str(err.value)
    with pytest.raises(InputError):
        get_checker("icons").evaluate(frame, {"all": ["icon_404"]}, options, "screen")


def test_validation_problems() -> None:
    checker = get_checker("icons")
    assert checker.validate({"any": ["a"], "threshold": 0.7}) == []
    assert any("'any' or 'all'" in p for p in checker.validate({}))
    assert any("threshold" in p for p in checker.validate({"any": "a", "threshold": 1.5}))
    assert any("threshold" in p for p in checker.validate({"any": "a", "threshold": "high"}))
    assert any("non-empty" in p for p in checker.validate({"all": ["a", ""]}))


def test_preflight_finds_bad_names_inside_combinators(rule_dir: Path) -> None:
    task = Task(task_id="t", nodes=[
        Node(id="ok", condition=Condition(type="icons", params={"any": ["home"]})),
        Node(id="bad", condition=Condition(type="escalate", params={
            "icons": {"all": ["chat", "nope"]}, "ocr": {"any": ["Chat"]}})),
    ])
    with pytest.raises(InputError, match=r"node 'bad'.*'nope' not found"):
        preflight_icons(task, VerifierOptions(rule_dir=rule_dir))
    preflight_icons(Task(task_id="t", nodes=task.nodes[:1]), VerifierOptions(rule_dir=rule_dir))


@pytest.mark.skipif(not MOBIFLOW.is_dir(), reason=f"MobiFlow reference data absent ({MOBIFLOW})")
def test_weixin_rule_icons_with_the_mobiflow_icons_dir(tmp_path: Path) -> None:
    """weixin-type1's icon names resolve through --icons-dir as MobiFlow lays them out."""
    icons = MOBIFLOW / "icons"
    screen = blank_screen(1080, 2400, "light")
    for i, name in enumerate(["icon_002_微信", "icon_001_通讯录", "icon_000_我"]):
        tile = read_image(icons / "weixin" / f"{name}.jpg")
        x, y = 60 + i * 360, 2260
        screen[y:y + tile.shape[0], x:x + tile.shape[1]] = tile
    frame = Frame(0, image_path=_png(tmp_path / "wx.png", screen))
    opts = VerifierOptions(rule_dir=MOBIFLOW / "task_rules" / "weixin", icons_dirs=[icons],
                           app_id="com.tencent.mm")
    main = _run({"all": ["icon_001_通讯录", "icon_002_微信", "icon_000_我"]}, frame, opts)
    assert main.yes, main.to_dict()
    sent = _run({"any": ["icon_001_回车", "icon_002_发送"]}, frame, opts)
    assert sent.no


def test_verify_stops_on_an_icon_no_folder_holds(screenshot: Path, rule_dir: Path) -> None:
    from droidpilot.verify.engine import verify

    task = Task(task_id="t", nodes=[
        Node(id="home", condition=Condition(type="juxtaposition", params={"icons": {"all": ["home"]}})),
        Node(id="gone", condition=Condition(type="icons", params={"any": ["icon_404"]})),
    ])
    frames = [Frame(0, image_path=screenshot)]
    with pytest.raises(InputError, match=r"node 'gone'.*icon_404"):
        verify(task, frames, VerifierOptions(rule_dir=rule_dir))
    ok = verify(Task(task_id="t", nodes=task.nodes[:1]), frames, VerifierOptions(rule_dir=rule_dir))
    assert ok.ok
