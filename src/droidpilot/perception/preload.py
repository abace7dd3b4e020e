"""Start loading an OCR engine's models before the program that will use them has finished importing.

``start("rapidocr")`` promises the default RapidOCR settings' detection and recognition sessions
(``onnx_sessions.promise``) and opens them, one after the other, in a background thread; the engine
``make_ocr_engine("rapidocr")`` builds later shares them instead of opening its own. A cold ``verify``
spends its first tenth of a second importing on one core; the models load on the other meanwhile (a
second loading thread, or detecting the first screen ahead as well, only slowed the imports down as much
as it saved: ``benchmarks/verify_vs_mobiflow.py``). Engines without models (tesseract, none) start
nothing. Only stdlib is imported here; ``start`` imports onnxruntime (and numpy) in the calling thread
before it starts the loading one, so the two threads never import at once.
"""

from __future__ import annotations

import atexit
import threading

PRELOADABLE = ("rapidocr",)
SETTLE_SECONDS = 120.0  # longest an ending process waits for a model still loading
_LOADERS: list[threading.Thread] = []
_ABANDONED: list[bool] = []  # [True] once the process is about to end with os._exit


def start(engine: str) -> bool:
    """Start loading ``engine``'s models with its default settings; whether anything was started. A
    failure (a missing or broken model file) is raised by the engine's first use, with its usual message."""
    if engine.strip().lower() not in PRELOADABLE:
        return False
    from droidpilot.errors import DroidpilotError
    from droidpilot.perception import onnx_sessions
    from droidpilot.perception.rapid_config import RapidSettings, model_paths, shipped_model_dir

    settings = RapidSettings()
    if not settings.direct:
        return False  # the rapidocr wrapper opens its own sessions
    try:
        paths = model_paths(shipped_model_dir(), settings.use_cls)
    except DroidpilotError:
        return False
    try:
        onnx_sessions.runtime()  # imported here: the loading thread imports nothing (see runtime)
    except ImportError:
        return False  # the engine reports it where it is used
    todo = [(path, found) for path in (paths["Det"], paths["Rec"])
            if (found := onnx_sessions.promise(path, settings.threads, settings.spin)) is not None]
    if not todo:
        return False

    def load() -> None:
        for path, found in todo:
            onnx_sessions.fulfil(found, path, settings.threads, settings.spin)

    loader = threading.Thread(target=load, name="ocr-preload", daemon=True)
    if not _LOADERS:
        atexit.register(_settle)
    _LOADERS.append(loader)
    loader.start()
    return True


def _settle() -> None:
    """At exit, wait for models still loading: onnxruntime aborts the process ("terminate called without
    an active exception") when the interpreter ends while a session is being built in another thread. A
    process that ends with os._exit runs no such teardown and need not wait (``abandon``)."""
    if _ABANDONED:
        return
    for loader in _LOADERS:
        loader.join(SETTLE_SECONDS)


def abandon() -> None:
    """The process ends with os._exit next (no interpreter teardown): exit handlers need not wait for
    loading models."""
    _ABANDONED.append(True)
