"""A cold `droidpilot verify` loads the OCR engine and the icon matcher only when a check needs them (and
neither Rich nor pydantic at all for --json)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "src" / "droidpilot" / "verify" / "examples" / "shop_search"
HEAVY = ("onnxruntime", "cv2", "droidpilot.perception.onnx_ocr", "droidpilot.perception.icons",
         "rich.console", "pydantic",  # a --json run prints nothing through Rich; the rule is dataclasses
         "droidpilot.typed")  # light, but read only for rules with a typed `value`

PROBE = f"""import json, sys
from droidpilot.cli import main
sys.argv = ["droidpilot", "verify", *sys.argv[1:], "--json"]
try:
    main()
except SystemExit as exc:
    heavy = sorted(m for m in sys.modules if m in {HEAVY!r} or m.startswith("droidpilot.perception.icons"))
    print(json.dumps({{"code": exc.code, "loaded": heavy}}), file=sys.stderr)
"""


def _verify(rule_text: str, tmp_path: Path) -> tuple[dict[str, object], list[str]]:
    """Verify the bundled example trace against ``rule_text`` in a new process: (verdict, heavy modules)."""
    rule = tmp_path / "rule.yaml"
    rule.write_text(rule_text, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-c", PROBE, str(rule), str(EXAMPLE / "trace")],
                          capture_output=True, text=True, timeout=180,
                          env={"DROIDPILOT_CACHE_DIR": str(tmp_path / "cache"), "PATH": "",
                               # the sources under test (a worktree's), not whatever the venv installed
                               "PYTHONPATH": os.environ.get("PYTHONPATH", "")})
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    assert report["code"] in (0, 1), proc.stderr
    return json.loads(proc.stdout), list(report["loaded"])


def test_a_rule_without_screen_checks_loads_no_ocr_and_no_icon_matcher(tmp_path) -> None:
    verdict, loaded = _verify((EXAMPLE / "rule.yaml").read_text(encoding="utf-8"), tmp_path)
    assert verdict["ok"] is True
    assert loaded == []


def test_an_escalation_the_ui_dump_decides_never_starts_ocr(tmp_path) -> None:
    rule = ("task_id: t\nnodes:\n  - id: home\n    condition:\n      type: escalate\n      params:\n"
            "        xml: {all: [ShopLite]}\n        ocr: {all: [ShopLite]}\n")
    verdict, loaded = _verify(rule, tmp_path)
    assert verdict["ok"] is True
    assert loaded == []


def test_a_typed_value_loads_the_typed_readers_and_nothing_heavy(tmp_path) -> None:
    rule = ("task_id: t\nnodes:\n  - id: home\n    condition:\n      type: escalate\n      params:\n"
            "        xml: {all: [ShopLite], whole_numbers: true, value: {type: text, equals: ShopLite}}\n"
            "        ocr: {all: [ShopLite]}\n")
    verdict, loaded = _verify(rule, tmp_path)
    assert verdict["ok"] is True
    assert loaded == ["droidpilot.typed"]


@pytest.mark.slow
def test_an_ocr_check_does_load_the_ocr_engine(tmp_path) -> None:
    """The probe's positive control: the same run with an OCR-only rule does import onnxruntime."""
    rule = "task_id: t\nnodes:\n  - id: home\n    condition: {type: ocr_match, params: {all: [ShopLite]}}\n"
    verdict, loaded = _verify(rule, tmp_path)
    assert verdict["ok"] is True
    assert "onnxruntime" in loaded and "droidpilot.perception.icons" not in loaded
