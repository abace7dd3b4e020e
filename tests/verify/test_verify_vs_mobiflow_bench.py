"""benchmarks/verify_vs_mobiflow.py without a MobiFlow checkout: how it finds one, the corpus both verifiers
read, the OCR stand-ins it puts on MobiFlow's path, and its table's ratios."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.support.benchmarks import load_benchmark


@pytest.fixture(scope="module")
def bench() -> Any:
    return load_benchmark("verify_vs_mobiflow")


def _trace(folder: Path, frames: int) -> Path:
    folder.mkdir(parents=True)
    for i in range(1, frames + 1):
        (folder / f"{i}.jpg").write_bytes(b"jpg")
        (folder / f"{i}.xml").write_text("<hierarchy/>", encoding="utf-8")
    for name in ("actions.json", "react.json", "rule.yaml", "oracle.json", "steps.jsonl"):
        (folder / name).write_text("{}", encoding="utf-8")
    return folder


def test_a_checkout_is_the_mobiflow_folder_or_the_repository_above_it(bench: Any, tmp_path: Path) -> None:
    repo = tmp_path / "MobiAgent"
    (repo / "MobiFlow" / "avdag").mkdir(parents=True)
    (repo / "MobiFlow" / "universal_test_runner.py").write_text("", encoding="utf-8")
    assert bench.mobiflow_dir(repo) is None  # the runner alone is not a checkout
    (repo / "MobiFlow" / "avdag" / "verifier.py").write_text("", encoding="utf-8")
    assert bench.mobiflow_dir(repo) == repo / "MobiFlow"
    assert bench.mobiflow_dir(repo / "MobiFlow") == repo / "MobiFlow"


def test_without_a_checkout_it_says_how_to_get_one(bench: Any, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--mobiflow", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path} holds no MobiFlow checkout" in err and "--mobiflow PATH" in err


def test_the_corpus_keeps_screens_and_steps_drops_dumps_renames_numbers(bench: Any, tmp_path: Path) -> None:
    _trace(tmp_path / "src" / "7", 3)
    _trace(tmp_path / "src" / "notes-add-0-0", 2)
    (tmp_path / "src" / "no-rule").mkdir()
    pairs = bench.build_corpus([tmp_path / "src"], tmp_path / "out", keep_xml=False, cross=True)
    assert [(p.name, p.frames) for p in pairs] == [
        ("t7", 3), ("notes-add-0-0", 2), ("t7 x notes-add-0-0", 3), ("notes-add-0-0 x t7", 2)]
    kept = sorted(f.name for f in pairs[0].trace.iterdir())
    assert kept == ["1.jpg", "2.jpg", "3.jpg", "actions.json", "react.json"]
    assert pairs[2].trace == pairs[0].trace and pairs[2].rule == pairs[1].rule  # a negative pair
    with_xml = bench.build_corpus([tmp_path / "src"], tmp_path / "xml", keep_xml=True, cross=False, every=2)
    assert [p.name for p in with_xml] == ["t7"]
    assert (with_xml[0].trace / "1.xml").is_file()


@pytest.mark.parametrize(("ocr", "hybrid", "off"), [
    ("rapidocr", False, {"pytesseract"}), ("rapidocr", True, set()), ("tesseract", False, {"paddleocr"})])
def test_the_stand_ins_switch_off_exactly_the_other_engine(bench: Any, tmp_path: Path, ocr: str,
                                                           hybrid: bool, off: set[str]) -> None:
    shims = bench.write_shims(tmp_path / "shims", ocr, hybrid)
    written = {p.parent.name: p.read_text(encoding="utf-8") for p in shims.glob("*/__init__.py")}
    assert {name for name, text in written.items() if "raise ImportError" in text} == off
    assert "paddle" in written  # MobiFlow's OCR engine imports paddle beside paddleocr
    if ocr == "rapidocr":
        assert "RapidOCR" in written["paddleocr"]


def test_the_ratio_is_mobiflows_median_over_droidpilots(bench: Any) -> None:
    pairs = [bench.Pair("a", Path("r"), Path("t"), 3, ours_s=1.0, theirs_s=12.0),
             bench.Pair("b", Path("r"), Path("t"), 3, ours_s=2.0, theirs_s=18.0),
             bench.Pair("c", Path("r"), Path("t"), 3, ours_s=4.0, theirs_s=20.0)]
    assert bench.speedup(pairs) == pytest.approx(18.0 / 2.0)
