"""`droidpilot verify`, `verify-batch` and `demo`: output formats, exit statuses and error messages."""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from droidpilot.cli import _discover, app
from droidpilot.errors import InputError
from droidpilot.verify.examples import example_dir
from droidpilot.verify.setup import VerifierChoices, build_options, parse_escalation_order

JSON_KEYS = {"ok", "matched", "total_score", "max_score", "reason", "manual_review_needed", "checker_calls",
             "decisions"}
EXAMPLE = example_dir()
RULE = EXAMPLE / "rule.yaml"
TRACE = EXAMPLE / "trace"


@pytest.fixture(autouse=True)
def _restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.delenv("DROIDPILOT_LLM_MODEL", raising=False)
    _discover()
    return CliRunner()


@pytest.fixture
def failing_trace(tmp_path: Path) -> Path:
    """The example trace without its last step: the cart is never confirmed."""
    folder = tmp_path / "short"
    shutil.copytree(TRACE, folder)
    for name in ("5.png", "5.xml"):
        (folder / name).unlink()
    meta = json.loads((folder / "actions.json").read_text())
    meta["actions"] = meta["actions"][:4]
    (folder / "actions.json").write_text(json.dumps(meta))
    react = json.loads((folder / "react.json").read_text())[:4]
    (folder / "react.json").write_text(json.dumps(react))
    return folder


def test_verify_json_prints_one_object_and_exits_zero_on_success() -> None:
    proc = subprocess.run([sys.executable, "-m", "droidpilot", "verify", str(RULE), str(TRACE), "--json",
                           "--ocr", "none"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert set(data) == JSON_KEYS and data["ok"] is True
    assert data["matched"][0] == {"node": "home", "frame": 0}
    assert data["matched"][-1] == {"node": "finished", "frame": 4}


def test_verify_exits_one_with_the_reason_when_no_path_exists(runner: CliRunner, failing_trace: Path) -> None:
    result = runner.invoke(app, ["verify", str(RULE), str(failing_trace), "--json", "--ocr", "none"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["ok"] is False and "never met: cart_confirmed" in data["reason"]
    assert data["total_score"] == 60


def test_human_output_has_paths_witness_and_decisions(runner: CliRunner) -> None:
    result = runner.invoke(app, ["verify", str(RULE), str(TRACE), "--ocr", "none"])
    assert result.exit_code == 0
    out = result.stdout
    assert out.index("PASS") < out.index("Success paths") < out.index("Witness") < out.index("Per-node")


def test_undecided_checks_are_flagged_for_manual_review_with_exit_one(runner: CliRunner,
                                                                      tmp_path: Path) -> None:
    rule = tmp_path / "rule.yaml"
    rule.write_text("task_id: llm-only\nnodes:\n  - id: confirmed\n    condition:\n      type: llm\n"
                    "      params: {prompt: 'Is {task_description} done?'}\n", encoding="utf-8")
    result = runner.invoke(app, ["verify", str(rule), str(TRACE), "--json", "--ocr", "none"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["ok"] is False and data["manual_review_needed"] is True
    assert data["decisions"][0]["result"] == "undecided"


@pytest.mark.parametrize(("args", "needle"), [
    (["missing.yaml", str(TRACE)], "missing.yaml"),
    ([str(RULE), "no/such/trace"], "no/such/trace"),
    ([str(RULE), str(TRACE), "--escalation-order", "text,ocrr"], "did you mean 'ocr'"),
    ([str(RULE), str(TRACE), "--ocr", "paddle"], "unknown engine 'paddle'"),
    ([str(RULE), str(TRACE), "--log-level", "loud"], "unknown level 'loud'"),
])
def test_bad_input_exits_two_with_a_message_on_stderr(runner: CliRunner, args: list[str],
                                                      needle: str) -> None:
    result = runner.invoke(app, ["verify", *args, "--json"] + ([] if "--ocr" in args else ["--ocr", "none"]))
    assert result.exit_code == 2
    assert needle in result.stderr
    assert result.stdout == ""


def test_debug_log_goes_to_stderr_and_json_stays_one_object(runner: CliRunner) -> None:
    result = runner.invoke(app, ["verify", str(RULE), str(TRACE), "--json", "--ocr", "none",
                                 "--log-level", "debug"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["ok"] is True
    assert "[Juxtaposition]" in result.stderr or "juxtaposition" in result.stderr.lower()


def test_demo_verifies_the_bundled_example(runner: CliRunner) -> None:
    result = runner.invoke(app, ["demo", "--example"])
    assert result.exit_code == 0, result.stderr
    assert "PASS shoplite-search-add-cart" in result.stdout and "Success paths (2" in result.stdout


def _batch_dir(tmp_path: Path, failing_trace: Path) -> Path:
    folder = tmp_path / "runs"
    folder.mkdir()
    shutil.copytree(TRACE, folder / "a_good")
    shutil.move(str(failing_trace), folder / "b_short")
    (folder / "c_broken.json").write_text("[{", encoding="utf-8")
    return folder


def test_verify_batch_runs_in_parallel_and_reports_a_bad_trace_without_stopping(
        runner: CliRunner, tmp_path: Path, failing_trace: Path) -> None:
    folder = _batch_dir(tmp_path, failing_trace)
    out = tmp_path / "lines.jsonl"
    result = runner.invoke(app, ["verify-batch", str(RULE), str(folder), "--jobs", "2",
                                 "--json-out", str(out), "--ocr", "none"])
    assert result.exit_code == 1
    lines = {Path(d["trace"]).name: d for d in map(json.loads, out.read_text().splitlines())}
    assert set(lines) == {"a_good", "b_short", "c_broken.json"}
    assert lines["a_good"]["ok"] is True and "decisions" not in lines["a_good"]
    assert lines["b_short"]["ok"] is False and "never met" in lines["b_short"]["reason"]
    assert "not valid JSON" in lines["c_broken.json"]["error"]
    assert "3 traces: 1 passed, 1 failed" in result.stderr


def test_verify_batch_in_process_writes_lines_to_stdout(runner: CliRunner, tmp_path: Path,
                                                        failing_trace: Path) -> None:
    folder = _batch_dir(tmp_path, failing_trace)
    result = runner.invoke(app, ["verify-batch", str(RULE), str(folder), "-j", "1", "--ocr", "none",
                                 "--with-decisions"])
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 3 and "decisions" in lines[0]
    bad_rule = runner.invoke(app, ["verify-batch", str(tmp_path / "none.yaml"), str(folder)])
    assert bad_rule.exit_code == 2
    single = runner.invoke(app, ["verify-batch", str(RULE), str(TRACE), "-j", "1", "--ocr", "none"])
    assert single.exit_code == 0 and json.loads(single.stdout.splitlines()[0])["ok"] is True


def test_choices_become_verifier_options(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DROIDPILOT_LLM_MODEL", raising=False)
    assert parse_escalation_order(" text, ocr ,llm ") == ("text", "ocr", "llm")
    assert parse_escalation_order("") is None
    bare = build_options(VerifierChoices(ocr="none"))
    assert bare.ocr_engine is None and bare.llm_judge is None
    options = build_options(VerifierChoices(ocr="rapidocr", llm_base_url="http://127.0.0.1:9/v1",
                                            llm_model="judge", icons_dirs=(tmp_path,),
                                            escalation_order=("xml", "llm")))
    assert options.ocr_engine.name == "rapidocr"  # models load only on first use
    assert type(options.llm_judge).__name__ == "LlmJudge"
    assert options.escalation_order == ["xml", "llm"] and options.icons_dirs == [tmp_path]


@pytest.mark.parametrize(("call", "needle"), [
    (lambda: parse_escalation_order("text,text"), "listed twice"),
    (lambda: parse_escalation_order("txt"), "did you mean 'text'"),
    (lambda: build_options(VerifierChoices(ocr="none", icons_dirs=(Path("/no/such/icons"),))),
     "is not a folder"),
])
def test_bad_choices_are_input_errors(call: Callable[[], object], needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        call()
