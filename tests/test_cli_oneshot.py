"""One-shot screen-reading commands keep freed memory for reuse instead of returning it to the kernel (a
buffer the size of a decoded screenshot is faulted in once per process, not once per screen), and start
numpy's OpenBLAS without the worker thread that would spin on the second core."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# Each "screen" allocates and frees three 12 MB buffers (a decoded screenshot and detection inputs are
# that size); the probe prints how many page faults five more screens cost after the first.
PROBE = """import resource, sys
import numpy as np
if sys.argv[1] == "keep":
    from droidpilot.cli._oneshot import keep_freed_memory
    assert keep_freed_memory()
def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
def screen():
    buffers = [np.ones(3 << 20, np.float32) for _ in range(3)]
    return sum(float(b[::4096].sum()) for b in buffers)
screen()
before = faults()
for _ in range(5):
    screen()
print(faults() - before)
"""


def _faults(mode: str) -> int:
    proc = subprocess.run([sys.executable, "-c", PROBE, mode], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return int(proc.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator only")
def test_freed_screen_buffers_are_reused_without_new_page_faults() -> None:
    plain, kept = _faults("plain"), _faults("keep")
    assert plain > 1000  # glibc's default: the buffers go back to the kernel and come back zeroed
    assert kept * 20 < plain


def test_quick_commands_set_up_their_process_and_others_do_not() -> None:
    from droidpilot.cli import QUICK_EXIT

    code = ("import sys; import droidpilot.cli as cli; "
            "from droidpilot.cli import _oneshot; "
            "calls = []; _oneshot.prepare = lambda: calls.append(1); "
            "cli.main = lambda: None; sys.argv = ['droidpilot', sys.argv[1]]; cli.console(); "
            "print(len(calls))")
    for command, expected in ((sorted(QUICK_EXIT)[0], "1"), ("bench", "0")):
        proc = subprocess.run([sys.executable, "-c", code, command], capture_output=True, text=True,
                              timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == expected, command


BLAS_PROBE = """import os, sys
from droidpilot.cli import _oneshot
asked = _oneshot.one_blas_thread()
import numpy
from droidpilot.perception.blas import _openblas
threads = len(os.listdir("/proc/self/task"))
found = _openblas()
print(asked, os.environ.get("OPENBLAS_NUM_THREADS"), threads, found[0]() if found else None)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts threads in /proc")
def test_numpy_starts_no_blas_thread_unless_the_user_set_a_count() -> None:
    from droidpilot.cli._oneshot import BLAS_THREAD_VARIABLES

    env = {k: v for k, v in os.environ.items() if k not in BLAS_THREAD_VARIABLES}
    proc = subprocess.run([sys.executable, "-c", BLAS_PROBE], capture_output=True, text=True, timeout=60,
                          env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "1", "1", "1"]  # asked; one thread in all, the main one
    proc = subprocess.run([sys.executable, "-c", BLAS_PROBE], capture_output=True, text=True, timeout=60,
                          env={**env, "OPENBLAS_NUM_THREADS": "2"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[:2] == ["False", "2"]  # the user's count stands
    proc = subprocess.run([sys.executable, "-c", BLAS_PROBE], capture_output=True, text=True, timeout=60,
                          env={**env, "OMP_NUM_THREADS": "2"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[:2] == ["False", "None"]  # set through OpenMP's variable: left alone too


@pytest.mark.parametrize(("args", "engine"), [
    (["ocr", "shot.png"], "rapidocr"),
    (["ocr", "shot.png", "--json", "--no-cache"], "rapidocr"),
    (["locate", "shot.png", "--icon", "gear", "--engine", "tesseract"], "tesseract"),
    (["locate", "shot.png", "--engine=none", "--icon", "gear"], "none"),
    (["ocr", "--engine"], "rapidocr"),  # no value: Typer reports it; the default is loaded meanwhile
    (["ocr", "--", "--engine", "tesseract"], "rapidocr"),  # after --: a file name, not an option
    (["ocr", "shot.png", "--help"], None),
    (["locate", "-h"], None),
    (["verify", "rule.yaml", "trace"], None),  # verify decides for itself (verify/prefetch.py)
    (["OCR", "shot.png"], None),  # not a command name Typer accepts
    (["--version"], None),
    ([], None),
])
def test_the_engine_a_screen_reading_command_asks_for(args, engine) -> None:
    from droidpilot.cli._oneshot import engine_asked

    assert engine_asked(args) == engine


# What start_models started, for one command line, in a fresh process: whether the default models were
# promised, and whether Typer (imported by the command line itself) was already there when they were.
START_PROBE = """import sys
from droidpilot.cli import _oneshot
from droidpilot.perception import onnx_sessions
started = _oneshot.start_models(sys.argv[1:])
print(started, len(onnx_sessions._PROMISED), "typer" in sys.modules, "onnxruntime" in sys.modules)
"""


def test_ocr_starts_loading_its_models_before_typer_imports() -> None:
    def probe(*args: str) -> list[str]:
        proc = subprocess.run([sys.executable, "-c", START_PROBE, *args], capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split()

    # onnxruntime is imported by the caller, before the loading thread starts (onnx_sessions.runtime)
    assert probe("ocr", "shot.png", "--json") == ["True", "2", "False", "True"]
    assert probe("locate", "shot.png", "--engine", "tesseract") == ["False", "0", "False", "False"]
    assert probe("bench", "--suite", "world") == ["False", "0", "False", "False"]


def test_console_starts_models_for_quick_commands_only() -> None:
    code = ("import sys; import droidpilot.cli as cli; "
            "from droidpilot.cli import _oneshot; "
            "calls = []; _oneshot.start_models = lambda args: calls.append(args); "
            "cli.main = lambda: None; sys.argv = ['droidpilot', *sys.argv[1:]]; cli.console(); "
            "print(calls)")
    for args, expected in ((["ocr", "x.png"], "[['ocr', 'x.png']]"), (["bench"], "[]")):
        proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == expected, args
