"""onnxruntime sessions for the OCR models: opened with the options OCR needs, or promised ahead of time.

``promise`` registers a session that a background thread will open (``fulfil``); every later
``open_session`` for the same model file and threads shares it, waiting if it is still being built.
onnxruntime lets go of the GIL while it builds a session, so a model promised at a command's start loads
on a second core while the first imports the rest of the program. Only stdlib is imported at module level.

Every OCR session draws its working memory from one arena (``_shared_arena``): detection and recognition
run one after the other, so recognition reuses the blocks detection freed instead of growing an arena of
its own, and a cold verify touches (page-faults) about a quarter less memory.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from droidpilot.errors import DroidpilotError

_Key = tuple[str, int, bool]
_PROMISED: dict[_Key, Future[Any]] = {}
_LOCK = threading.Lock()
_ARENA: list[bool] = []  # [True] once the shared arena is registered with onnxruntime's environment


def _key(path: Path, threads: int, spin: bool) -> _Key:
    return str(Path(path).resolve()), threads, spin


def new_session(path: Path, threads: int = 2, spin: bool = False) -> Any:
    """A new CPU session for the model at ``path``; DroidpilotError (how to fix it) if it cannot load."""
    import onnxruntime as ort

    opts = ort.SessionOptions()  # one each: sessions may be built at the same time
    if _shared_arena(ort):
        opts.add_session_config_entry("session.use_env_allocators", "1")
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    # onnxruntime's worker threads busy-wait between operators by default: on a machine whose cores
    # other processes share (an agent beside its phone, verifier workers) the spinning thread takes
    # the core the working one needs, and a 2-thread run becomes twice as slow as a 1-thread one.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if spin else "0")
    # No per-shape memory plan: recognition meets a new input shape (lines x width) at almost every
    # batch, and planning and touching a fresh block each time cost a cold 7-frame verify about 3%
    # (benchmarks/verify_vs_mobiflow.py); the arena's freed chunks serve instead. Same outputs.
    opts.enable_mem_pattern = False
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime's own errors: InvalidProtobuf, NoSuchFile, Fail, ...
        raise DroidpilotError(f"the OCR model {path} cannot be loaded ({exc}); reinstall the "
                              "rapidocr wheel that ships it (`make venv`) or give another model_dir"
                              ) from None


def _shared_arena(ort: Any) -> bool:
    """Register, once per process, the CPU arena every OCR session shares; whether it is there. Without it,
    a cold verify's first recognition batch faulted in some 70 MB its own arena had not yet touched. An
    onnxruntime that cannot register one leaves each session an arena of its own, as before."""
    with _LOCK:
        if not _ARENA:
            try:
                kind, where = ort.OrtAllocatorType.ORT_ARENA_ALLOCATOR, ort.OrtMemType.DEFAULT
                info = ort.OrtMemoryInfo("Cpu", kind, 0, where)
                ort.create_and_register_allocator(info, ort.OrtArenaCfg(0, -1, -1, -1))  # the default arena
            except Exception:  # an onnxruntime without the call, or one that refuses: sessions keep their own
                _ARENA.append(False)
            else:
                _ARENA.append(True)
        return _ARENA[0]


def promise(path: Path, threads: int = 2, spin: bool = False) -> Future[Any] | None:
    """Register the session for ``path`` as coming; the Future to ``fulfil``, or None if it already is."""
    key = _key(path, threads, spin)
    with _LOCK:
        if key in _PROMISED:
            return None
        found: Future[Any] = Future()
        _PROMISED[key] = found
        return found


def fulfil(found: Future[Any], path: Path, threads: int = 2, spin: bool = False) -> None:
    """Open the promised session (in the calling thread); a failure is kept for ``open_session`` to raise."""
    try:
        found.set_result(new_session(path, threads, spin))
    except BaseException as exc:  # raised where the session is used, with its usual message
        found.set_exception(exc)


def open_session(path: Path, threads: int = 2, spin: bool = False) -> Any:
    """The promised session for this model and threads (shared; onnxruntime sessions are safe to run from
    several threads), else a new one of the caller's own."""
    with _LOCK:
        found = _PROMISED.get(_key(path, threads, spin))
    return found.result() if found is not None else new_session(path, threads, spin)
