"""The verifier evaluation's parts: cutting a trace before its last milestone, and the scores."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from droidpilot.bench.judge_eval import scores, truncate_trace
from droidpilot.verify.trace import load_trace


def _trace(folder: Path, frames: int) -> None:
    folder.mkdir(parents=True)
    for n in range(1, frames + 1):
        Image.new("RGB", (60, 120), (n * 20, 0, 0)).save(folder / f"{n}.jpg")
        (folder / f"{n}.xml").write_text("<hierarchy_dump_failed/>")
    actions = [{"type": "click", "position_x": 1, "position_y": 2, "action_index": n}
               for n in range(1, frames)]
    actions.append({"type": "done", "action_index": frames})
    (folder / "actions.json").write_text(json.dumps({"task_description": "t", "action_count": frames,
                                                     "actions": actions}))
    (folder / "react.json").write_text(json.dumps([{"reasoning": f"r{n}", "function": {"name": "click"},
                                                    "action_index": n} for n in range(1, frames + 1)]))
    (folder / "rule.yaml").write_text("task_id: t\n")


def test_truncate_keeps_the_first_frames(tmp_path: Path) -> None:
    _trace(tmp_path / "src", 5)
    truncate_trace(tmp_path / "src", tmp_path / "cut", 3)
    names = sorted(p.name for p in (tmp_path / "cut").iterdir())
    assert names == ["1.jpg", "1.xml", "2.jpg", "2.xml", "3.jpg", "3.xml", "actions.json", "react.json",
                     "rule.yaml"]
    trace = load_trace(tmp_path / "cut")
    assert len(trace.frames) == 3 and trace.frames[-1].reasoning == "r3"
    assert json.loads((tmp_path / "cut" / "actions.json").read_text())["action_count"] == 3
    truncate_trace(tmp_path / "src", tmp_path / "cut", 1)  # an existing copy is replaced
    assert len(load_trace(tmp_path / "cut").frames) == 1


def test_scores() -> None:
    items = [{"label": True, "verdicts": {"m": True}, "manual": {}},
             {"label": True, "verdicts": {"m": False}, "manual": {"m": True}},
             {"label": False, "verdicts": {"m": False}, "manual": {}},
             {"label": False, "verdicts": {"m": False}, "manual": {}},
             {"label": False, "verdicts": {"m": True}, "manual": {}}]
    s = scores(items, "m")
    assert (s["tp"], s["fn"], s["tn"], s["fp"], s["n"]) == (1, 1, 2, 1, 5)
    assert s["accuracy"] == 0.6 and s["precision"] == 0.5 and s["recall"] == 0.5 and s["manual_review"] == 1
    assert scores([], "m")["accuracy"] is None


@pytest.mark.slow
def test_judge_eval_end_to_end(tmp_path: Path) -> None:
    from rich.console import Console

    from droidpilot.bench.judge_eval import load_labels, run_judge_eval
    from droidpilot.bench.report import write_report
    from droidpilot.bench.runner import run_suite
    from droidpilot.bench.worker import RunConfig

    config = RunConfig(suite="mobile-eval", brain="reference", out=tmp_path)
    run_suite(config, ["sim"], task_ids=["music-3"])
    exported = tmp_path / "labels.json"  # as droidpilot studio's review page exports them
    exported.write_text(json.dumps({"labels": [
        {"task": "music-3", "trace": str(tmp_path / "traces" / "music-3"), "label": "pass", "note": ""},
        {"task": None, "trace": str(tmp_path), "label": "unsure", "note": "left out"}]}))
    human = load_labels(exported, {"music-3"})
    result = run_judge_eval(config, ["sim"], task_ids=["music-3"], jobs=1,
                            console=Console(file=io.StringIO()), labels=human)
    assert result["counts"] == {"reference": 1, "truncated": 1, "wrong_final": 1, "human": 1}
    labels = {i["source"]: i["label"] for i in result["items"]}
    assert labels == {"reference": True, "truncated": False, "wrong_final": False, "human": True}
    for mode in ("ocr_only", "with_xml"):
        assert result["modes"][mode]["accuracy"] == 1.0, result["items"]
    saved = json.loads((tmp_path / "judge_eval.json").read_text())
    assert saved["modes"] == result["modes"]
    html = write_report(tmp_path).read_text()
    assert "how good is the verifier?" in html and "disagreements (0)" in html


def test_bad_labels_files_name_the_item(tmp_path: Path) -> None:
    from droidpilot.bench.judge_eval import load_labels
    from droidpilot.errors import InputError

    path = tmp_path / "labels.json"
    with pytest.raises(InputError, match="labels file not found"):
        load_labels(path)
    path.write_text('{"labels": [{"trace": "x", "label": "maybe"}]}')
    with pytest.raises(InputError, match=r"labels\[0\] needs 'trace'"):
        load_labels(path)
    path.write_text(json.dumps({"labels": [{"trace": str(tmp_path), "label": "fail", "task": "nope"}]}))
    with pytest.raises(InputError, match="task 'nope' is not a task of this suite"):
        load_labels(path, {"music-3"})
