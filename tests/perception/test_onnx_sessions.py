"""OCR model sessions promised ahead are shared by every engine that opens the same model, and a model
that cannot load is reported where it is used, as when nothing was promised."""

from __future__ import annotations

import shutil
import threading

import pytest

from droidpilot.errors import DroidpilotError
from droidpilot.perception import onnx_sessions
from droidpilot.perception.rapid import DET_MODEL, REC_MODEL, RapidOcrEngine, shipped_model_dir


@pytest.fixture
def models(tmp_path):
    """A private copy of the shipped models, so promises made here touch no other test's sessions."""
    folder = tmp_path / "models"
    folder.mkdir()
    for name in (DET_MODEL, REC_MODEL):
        shutil.copy(shipped_model_dir() / name, folder / name)
    return folder


def test_a_promised_session_is_the_one_every_engine_opens(models) -> None:
    det = models / DET_MODEL
    found = onnx_sessions.promise(det, 2, False)
    assert found is not None
    assert onnx_sessions.promise(det, 2, False) is None  # promised once
    threading.Thread(target=onnx_sessions.fulfil, args=(found, det, 2, False)).start()
    first = onnx_sessions.open_session(det, 2, False)  # waits for the thread
    assert first is found.result()
    engine = RapidOcrEngine(model_dir=models)
    assert engine._direct().det is first
    assert onnx_sessions.open_session(det, 1, False) is not first  # other threads: a session of its own


def test_an_unpromised_model_opens_a_new_session_each_time(models) -> None:
    rec = models / REC_MODEL
    assert onnx_sessions.open_session(rec) is not onnx_sessions.open_session(rec)


def test_a_broken_promised_model_fails_where_it_is_used_with_the_usual_message(tmp_path) -> None:
    broken = tmp_path / DET_MODEL
    broken.write_bytes(b"not a model")
    found = onnx_sessions.promise(broken)
    assert found is not None
    onnx_sessions.fulfil(found, broken)  # the background thread's failure is kept, not raised there
    for _ in range(2):
        with pytest.raises(DroidpilotError, match=r"cannot be loaded .*reinstall the rapidocr wheel"):
            onnx_sessions.open_session(broken)
