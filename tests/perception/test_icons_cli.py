"""`droidpilot icons list|match`: JSON output, tables, and clear errors for unknown icons."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
from typer.testing import CliRunner

from droidpilot.cli import _discover, app
from droidpilot.perception.icons.drawing import blank_screen, draw_icon

runner = CliRunner()


def invoke(*args: object):
    _discover()
    return runner.invoke(app, [str(a) for a in args])


def _png(path: Path, img: np.ndarray) -> Path:
    ok, buf = cv2.imencode(".png", img)
    assert ok
    path.write_bytes(buf.tobytes())
    return path


def test_list_prints_candidates_with_descriptions(tmp_path: Path) -> None:
    img = blank_screen(720, 1600, "dark")
    draw_icon(img, "heart", (100, 1500), 60, "red")
    draw_icon(img, "magnifier", (650, 90), 50, "white")
    shot = _png(tmp_path / "s.png", img)
    result = invoke("icons", "list", shot, "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    by_text = {r["description"]: r for r in rows}
    assert by_text["red heart"]["where"] == "bottom left"
    assert by_text["white magnifier"]["where"] == "top right"
    table = invoke("icons", "list", shot)
    assert table.exit_code == 0 and "red heart" in table.output


def test_match_finds_a_template_and_reports_a_miss(tmp_path: Path) -> None:
    tile = np.full((64, 64, 3), 240, np.uint8)
    draw_icon(tile, "star", (32, 28), 40, "orange")
    cv2.putText(tile, "Fav", (16, 60), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (30, 30, 30), 1, cv2.LINE_AA)
    icons = tmp_path / "icons" / "demo"
    icons.mkdir(parents=True)
    _png(icons / "fav.png", tile)
    other = np.full((64, 64, 3), 240, np.uint8)
    draw_icon(other, "heart", (32, 30), 44, "blue")
    _png(icons / "like.png", other)
    screen = blank_screen(720, 1600, "light")
    screen[1400:1464, 300:364] = tile
    shot = _png(tmp_path / "s.png", screen)
    result = invoke("icons", "match", shot, "fav", "like", "--icons-dir", tmp_path / "icons", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["fav"]["matches"][0]["box"][:2] == [300, 1400]
    assert out["like"]["matches"] == []
    table = invoke("icons", "match", shot, "fav", "--icons-dir", tmp_path / "icons")
    assert table.exit_code == 0 and "yes" in table.output


def test_match_unknown_icon_exits_2_naming_where_it_looked(tmp_path: Path) -> None:
    shot = _png(tmp_path / "s.png", blank_screen(360, 640, "light"))
    result = invoke("icons", "match", shot, "icon_404", "--icons-dir", tmp_path)
    assert result.exit_code == 2
    assert "icon_404" in result.output and str(tmp_path) in result.output.replace("\n", "")
    assert "Traceback" not in result.output
