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
