"""onnxruntime sessions for the OCR models: opened with the options OCR needs, or promised ahead of time.

``promise`` registers a session that a background thread will open (``fulfil``); every later
``open_session`` for the same model file and threads shares it, waiting if it is still being built.
onnxruntime lets go of the GIL while it builds a session, so a model promised at a command's start loads
on a second core while the first imports the rest of the program. Only stdlib is imported at module level.

Every OCR session draws its working memory from one arena (``_shared_arena``): detection and recognition
run one after the other, so recognition reuses the blocks detection freed instead of growing an arena of
its own, and a cold verify touches (page-faults) about a quarter less memory.

Sessions open the optimised copy of their model kept on disk (``perception/onnx_cache.py``) when there
is one, and save it when there is not, so a cold process skips onnxruntime's graph optimisation.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from droidpilot.cachedir import default_cache_dir
from droidpilot.errors import DroidpilotError
from droidpilot.perception.onnx_cache import SUBDIR, ModelCache, runtime_identity

CACHE_SWITCH = "DROIDPILOT_ONNX_CACHE"  # a folder, or 0/off: open every model from its file, optimised anew

_Key = tuple[str, int, bool]
_PROMISED: dict[_Key, Future[Any]] = {}
_LOCK = threading.Lock()
_ARENA: list[bool] = []  # [True] once the shared arena is registered with onnxruntime's environment


def _key(path: Path, threads: int, spin: bool) -> _Key:
    return str(Path(path).resolve()), threads, spin


def runtime() -> Any:
    """onnxruntime, imported (with numpy) in the calling thread. A thread that opens sessions must start
    after this: a thread importing onnxruntime while another imports numpy can fail with numpy "partially
    initialized" (seen with a cold `droidpilot ocr` whose models loaded in the background)."""
    import onnxruntime

    return onnxruntime


def new_session(path: Path, threads: int = 2, spin: bool = False) -> Any:
    """A new CPU session for the model at ``path``, its optimised graph kept in the model cache
    (``perception/onnx_cache.py``, ``model_cache``); DroidpilotError (how to fix it) if the model cannot
    load."""
    import onnxruntime as ort

    def build(model: str, save_to: str | None) -> Any:
        opts = _options(ort, threads, spin)
        if save_to is not None:
            opts.optimized_model_filepath = save_to
        return ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])

    def load(optimised: str) -> Any:
        opts = _options(ort, threads, spin)
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL  # done when it was saved
        return ort.InferenceSession(optimised, opts, providers=["CPUExecutionProvider"])

    try:
        cache = model_cache(ort)
        return build(str(path), None) if cache is None else cache.open(Path(path), build, load)
    except Exception as exc:  # onnxruntime's own errors: InvalidProtobuf, NoSuchFile, Fail, ...
        raise DroidpilotError(f"the OCR model {path} cannot be loaded ({exc}); reinstall the "
                              "rapidocr wheel that ships it (`make venv`) or give another model_dir"
                              ) from None


def model_cache(ort: Any) -> ModelCache | None:
    """The optimised-model cache: ``$DROIDPILOT_ONNX_CACHE`` when it names a folder, none when it is 0,
    off, no or false, else ``onnx`` in droidpilot's cache folder. A folder of its own lets a benchmark
    empty the OCR cache for every run and still open the models as a user's second run does."""
    setting = os.environ.get(CACHE_SWITCH, "").strip()
    if setting.lower() in ("0", "off", "no", "false"):
        return None
    folder = Path(setting).expanduser() if setting else default_cache_dir() / SUBDIR
    return ModelCache(folder, runtime_identity(ort))


def _options(ort: Any, threads: int, spin: bool) -> Any:
    """Session options for OCR (a new object each: sessions may be built at the same time)."""
    opts = ort.SessionOptions()
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
    return opts


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
