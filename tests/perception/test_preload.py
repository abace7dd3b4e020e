"""`preload.start` loads the default RapidOCR models in the background, for the engine built next."""

from __future__ import annotations

import sys

from droidpilot.perception import onnx_sessions, preload
from droidpilot.perception.ocr import make_ocr_engine
from droidpilot.perception.rapid import DET_MODEL, REC_MODEL, shipped_model_dir


def test_engines_without_models_start_nothing() -> None:
    assert preload.start("tesseract") is False
    assert preload.start("none") is False


def test_the_next_rapidocr_engine_reads_with_the_preloaded_models(monkeypatch, text_image) -> None:
    monkeypatch.setattr(onnx_sessions, "_PROMISED", {})  # this test's promises only
    assert preload.start(" RapidOCR ") is True
    assert preload.start("rapidocr") is False  # already coming
    promised = dict(onnx_sessions._PROMISED)
    det = promised[onnx_sessions._key(shipped_model_dir() / DET_MODEL, 2, False)].result(timeout=60)
    rec = promised[onnx_sessions._key(shipped_model_dir() / REC_MODEL, 2, False)].result(timeout=60)
    engine = make_ocr_engine("rapidocr")
    lines = engine.recognize(text_image(["Preloaded models"]))
    assert engine._direct().det is det and engine._direct()._recognizer()[0] is rec
    assert [line.text for line in lines] == ["Preloaded models"]


def test_the_module_asks_for_nothing_heavy_when_imported() -> None:
    import subprocess

    code = ("import sys; import droidpilot.perception.preload, droidpilot.perception.onnx_sessions, "
            "droidpilot.perception.rapid_config, droidpilot.verify.prefetch; "
            "print(sorted(m for m in ('numpy', 'onnxruntime', 'cv2', 'PIL') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_start_imports_onnxruntime_in_the_calling_thread() -> None:
    """A loading thread that imported onnxruntime while the main thread imported numpy failed once with
    numpy "partially initialized"; start imports it before the thread exists."""
    import subprocess

    code = ("import sys, threading; from droidpilot.perception import preload; seen = []; "
            "real = threading.Thread.start; "
            "threading.Thread.start = lambda self: (seen.append('onnxruntime' in sys.modules), real(self)); "
            "print(preload.start('rapidocr'), seen)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         timeout=120)
    assert out.stdout.strip() == "True [True]"  # one thread started, onnxruntime already imported


def test_a_process_that_ends_while_its_models_load_ends_cleanly() -> None:
    """Ending the interpreter while onnxruntime built a session in the loading thread aborted the process
    ("terminate called without an active exception", status -6); the exit now waits for the load."""
    import subprocess

    code = "from droidpilot.perception import preload; print(preload.start('rapidocr'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (out.returncode, out.stdout.strip(), out.stderr) == (0, "True", "")


def test_a_process_ending_with_os_exit_does_not_wait(monkeypatch) -> None:
    import threading

    release = threading.Event()
    stuck = threading.Thread(target=release.wait, daemon=True)
    stuck.start()
    monkeypatch.setattr(preload, "_LOADERS", [stuck])
    monkeypatch.setattr(preload, "_ABANDONED", [])
    monkeypatch.setattr(preload, "SETTLE_SECONDS", 0.01)
    preload._settle()  # waits (briefly, here) for a load still running...
    preload.abandon()
    monkeypatch.setattr(preload, "SETTLE_SECONDS", 3600.0)
    preload._settle()  # ...but not once the process is to end with os._exit
    assert stuck.is_alive()
    release.set()
    stuck.join()
