"""`droidpilot ocr` and `droidpilot locate`: JSON and human output (escaped), annotation, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw
from typer.testing import CliRunner

from droidpilot.cli import _discover, app
from droidpilot.perception.cache import OcrCache
from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.synth import SynthScreen
from droidpilot.perception.types import OcrLine

runner = CliRunner()


def invoke(*args: str):
    _discover()
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def cached_shot(cache_dir: Path, tmp_path: Path, read_lines: Callable, rapid_engine: RapidOcrEngine
                ) -> Callable[..., Path]:
    """Save a screen as PNG and store the session engine's lines for it in the private cache, as a
    previous `droidpilot ocr` of the same file would have (the commands then answer from the cache)."""

    def make(image: Image.Image, name: str = "shot.png", lines: list[OcrLine] | None = None) -> Path:
        path = tmp_path / name
        image.save(path)
        key = OcrCache.key(path.read_bytes(), rapid_engine.name, rapid_engine.settings_key())
        OcrCache().put(key, lines if lines is not None else read_lines(image))
        return path

    return make


def test_ocr_json_lists_text_box_and_score(cache_dir: Path, text_image: Callable, tmp_path: Path) -> None:
    path = tmp_path / "saver.png"
    text_image(["Battery saver"], size=28, width=320).save(path)
    result = invoke("ocr", path, "--json")
    assert result.exit_code == 0, result.output
    (line,) = json.loads(result.output)
    assert line["text"] == "Battery saver" and set(line) == {"text", "box", "score"}
    x1, y1, x2, y2 = line["box"]
    assert 0 <= x1 < x2 <= 320 and 0 <= y1 < y2 and 0.5 < line["score"] <= 1
    assert json.loads(invoke("ocr", path, "--json").output) == [line]  # again, from the cache


def test_human_output_escapes_screen_text(cached_shot: Callable) -> None:
    hostile = [OcrLine("[bold red]boom[/]", (10, 10, 200, 40), 0.9),
               OcrLine("[link=http://x]y", (10, 60, 200, 90), 0.8)]
    path = cached_shot(Image.new("RGB", (240, 120), "white"), lines=hostile)
    result = invoke("ocr", path)
    assert result.exit_code == 0, result.output
    assert "[bold red]boom[/]" in result.output and "[link=http://x]y" in result.output
    located = invoke("locate", path, "--text", "[bold red]boom[/]")
    assert "[bold red]boom[/]" in located.output


def test_locate_text_json_and_annotation(cached_shot: Callable, list_screen: Callable,
                                         tmp_path: Path) -> None:
    screen: SynthScreen = list_screen()
    path = cached_shot(screen.image)
    out = tmp_path / "annotated.png"
    result = invoke("locate", path, "--text", "Privacy", "--json", "--annotate", out)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["status"] == "found"
    (cand,) = data["candidates"]
    label = screen.label("Privacy").box
    assert label[0] <= cand["point"][0] <= label[2] and label[1] <= cand["point"][1] <= label[3]
    assert cand["text"] == "Privacy" and len(cand["box"]) == 4
    drawn = Image.open(out)
    assert drawn.size == screen.image.size
    assert not np.array_equal(np.asarray(drawn.convert("RGB")), np.asarray(screen.image))

    missing = json.loads(invoke("locate", path, "--text", "Airplane mode", "--json").output)
    assert missing["status"] == "not_found" and missing["candidates"] == [] and missing["closest"]
    human = invoke("locate", path, "--text", "Airplane mode")
    assert "not_found" in human.output and "closest texts" in human.output


def test_ambiguous_crops_are_written_for_inspection(cached_shot: Callable, tmp_path: Path) -> None:
    lines = [OcrLine("OK", (20, 20, 80, 50), 0.9), OcrLine("OK", (20, 200, 80, 230), 0.9)]
    path = cached_shot(Image.new("RGB", (300, 300), "white"), "two.png", lines=lines)
    folder = tmp_path / "crops"
    folder.mkdir()
    result = invoke("locate", path, "--text", "ok", "--crops", folder)
    assert result.exit_code == 0 and "ambiguous" in result.output
    assert sorted(p.name for p in folder.iterdir()) == ["candidate-1.png", "candidate-2.png"]


def test_locate_app_on_a_launcher(cached_shot: Callable, launcher_screen: Callable) -> None:
    screen: SynthScreen = launcher_screen()
    path = cached_shot(screen.image, "home.png")
    data = json.loads(invoke("locate", path, "--app", "Chrome", "--json").output)
    icon = screen.icons["Chrome"]
    x, y = data["candidates"][0]["point"]
    assert data["status"] == "found" and icon[0] <= x <= icon[2] and icon[1] <= y <= icon[3]


def test_locate_icon_uses_the_icon_locator(tmp_path: Path) -> None:
    img = Image.new("RGB", (360, 640), (250, 250, 250))
    ImageDraw.Draw(img).ellipse((150, 520, 230, 600), fill=(220, 30, 30))
    path = tmp_path / "icon.png"
    img.save(path)
    result = invoke("locate", path, "--icon", "red circle", "--position", "bottom", "--engine", "none",
                    "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["status"] in ("found", "ambiguous")
    x, y = data["candidates"][0]["point"]
    assert 150 <= x <= 230 and 520 <= y <= 600
    assert "description" in data["candidates"][0]


@pytest.mark.parametrize(("args", "message"), [
    (["ocr", "{missing}"], "does not exist"),
    (["ocr", "{garbage}"], "not a readable image"),
    (["ocr", "{image}", "--engine", "easyocr"], "unknown OCR engine"),
    (["locate", "{image}"], "exactly one of --text, --app or --icon"),
    (["locate", "{image}", "--text", "a", "--icon", "red heart"], "exactly one"),
    (["locate", "{image}", "--text", "a", "--position", "top"], "--position goes with --icon"),
    (["locate", "{image}", "--text", "a", "--annotate", "{nodir}"], "does not exist"),
    (["locate", "{missing}", "--text", "Settings"], "does not exist"),
])
def test_bad_input_is_a_clear_error_with_status_2(tmp_path: Path, args: list[str], message: str) -> None:
    garbage = tmp_path / "garbage.png"
    garbage.write_bytes(b"not a png")
    image = tmp_path / "blank.png"
    Image.new("RGB", (50, 50), "white").save(image)
    values = {"missing": tmp_path / "missing.png", "garbage": garbage, "image": image,
              "nodir": tmp_path / "no" / "such" / "out.png"}
    result = invoke(*[a.format(**values) for a in args])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_the_installed_command_reports_a_missing_file_without_a_traceback(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "droidpilot", "ocr", str(tmp_path / "nope.png")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert "does not exist" in out.stderr and "Traceback" not in out.stderr


def test_locate_icon_json_shows_the_parsed_query_and_how_candidates_were_read(tmp_path: Path) -> None:
    img = Image.new("RGB", (360, 640), (250, 250, 250))
    ImageDraw.Draw(img).ellipse((150, 520, 230, 600), fill=(220, 30, 30))
    path = tmp_path / "icon.png"
    img.save(path)
    result = invoke("locate", path, "--icon", "red frobnicator circle", "--engine", "none", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["query"]["colour"] == "red" and data["query"]["shape"] == "circle"
    assert data["query"]["unknown"] == ["frobnicator"]
    assert {"reading", "parts"} <= set(data["candidates"][0]["details"])
    human = invoke("locate", path, "--icon", "red frobnicator circle", "--engine", "none")
    assert human.exit_code == 0 and "not understood: frobnicator" in human.output
