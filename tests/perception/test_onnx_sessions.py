"""OCR model sessions promised ahead are shared by every engine that opens the same model, and a model
that cannot load is reported where it is used, as when nothing was promised."""

from __future__ import annotations

import shutil
import subprocess
import sys
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


# Recognition's first batch after a detection, in a process whose sessions share one arena or (as if
# onnxruntime could not register it) keep their own: the page faults that batch costs.
ARENA_PROBE = """import resource, sys
import numpy as np
from droidpilot.perception import onnx_sessions
from droidpilot.perception.rapid_config import DET_MODEL, REC_MODEL, shipped_model_dir
if sys.argv[1] == "own":
    onnx_sessions._ARENA.append(False)
det = onnx_sessions.new_session(shipped_model_dir() / DET_MODEL)
rec = onnx_sessions.new_session(shipped_model_dir() / REC_MODEL)
det.run(None, {det.get_inputs()[0].name: np.zeros((1, 3, 960, 448), np.float32)})
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
rec.run(None, {rec.get_inputs()[0].name: np.zeros((8, 3, 48, 160), np.float32)})
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def test_recognition_reuses_the_memory_detection_freed() -> None:
    faults = {}
    for mode in ("own", "shared"):
        proc = subprocess.run([sys.executable, "-c", ARENA_PROBE, mode], capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 0, proc.stderr
        faults[mode] = int(proc.stdout)
    assert faults["own"] > 2000  # a fresh arena of its own: every page of its activations is new
    assert faults["shared"] * 10 < faults["own"]


OWN_ARENA_RUN = """import sys
import numpy as np
from droidpilot.perception import onnx_sessions
onnx_sessions._ARENA.append(False)  # as if onnxruntime could not register the shared arena
det = onnx_sessions.new_session(sys.argv[1])
x = np.load(sys.argv[2])
np.save(sys.argv[3], det.run(None, {det.get_inputs()[0].name: x})[0])
"""


def test_shared_sessions_read_as_sessions_of_their_own_do(models, tmp_path) -> None:
    """The shared arena changes where activations live, not what the models compute."""
    import numpy as np

    det = models / DET_MODEL
    x = (np.random.default_rng(0).standard_normal((1, 3, 320, 256)) * 0.5).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    proc = subprocess.run([sys.executable, "-c", OWN_ARENA_RUN, str(det), str(tmp_path / "x.npy"),
                           str(tmp_path / "own.npy")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    shared = onnx_sessions.new_session(det)
    assert onnx_sessions._ARENA == [True]
    out = shared.run(None, {shared.get_inputs()[0].name: x})[0]
    assert np.array_equal(out, np.load(tmp_path / "own.npy"))
