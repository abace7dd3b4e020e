"""A benchmark run plays a task and then verifies its trace: a screen the agent's OCR read during play must
not be recognised again when the verifier reads the trace's frame (issue 37: every screen was read twice,
once as raw pixels by the agent, once as the recorded JPEG by the verifier, under different cache keys)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from droidpilot.agent.frame_jpeg import encode_frame
from droidpilot.perception.cache import CachedOcr, OcrCache
from droidpilot.perception.ocr import ImageInput, image_key_bytes, make_ocr_engine
from droidpilot.perception.reading import OcrReading, start_reading
from droidpilot.perception.types import OcrLine

pytestmark = pytest.mark.slow


class CountingEngine:
    """The real RapidOCR engine, noting every screen it is asked to recognise by the hash of the frame a trace
    records for it (an image given as pixels is encoded as the recorder encodes it), so a screen read as
    pixels during play and as its JPEG file when verified counts as the same screen."""

    def __init__(self, engine: Any) -> None:
        self.engine, self.name = engine, engine.name
        self.calls: list[str] = []

    def settings_key(self) -> str:
        return str(self.engine.settings_key())

    def _note(self, image: ImageInput) -> None:
        data = encode_frame(image) if isinstance(image, Image.Image) else image_key_bytes(image)
        self.calls.append(hashlib.sha256(data).hexdigest())

    def recognize(self, image: ImageInput) -> list[OcrLine]:
        self._note(image)
        return list(self.engine.recognize(image))

    def start_reading(self, image: ImageInput) -> OcrReading:
        self._note(image)
        return start_reading(self.engine, image)


def test_a_screen_read_during_play_is_not_recognised_again_when_verified(tmp_path: Path) -> None:
    """Play a task and verify it as ``droidpilot bench`` does (UI dumps, escalating to OCR), then again from
    the screenshots alone: no screen the agent's OCR read is recognised by the verifier's engine."""
    from droidpilot.bench.execute import run_task, verify_trace
    from droidpilot.bench.reference import ReferenceBrain
    from droidpilot.bench.world.instance import instantiate
    from droidpilot.bench.world.nearmiss import WORLD_FOLDER
    from droidpilot.bench.world.template import load_templates
    from droidpilot.device.sim.phone import SimDevice
    from droidpilot.verify.setup import VerifierChoices, build_options

    template = next(t for t in load_templates(WORLD_FOLDER) if t.id == "music-artist")
    task = instantiate(template, 0)
    real = make_ocr_engine("rapidocr")
    agent, judge = CountingEngine(real), CountingEngine(real)
    cache_dir = tmp_path / "cache"  # empty: nothing is known before the run
    options = build_options(VerifierChoices(ocr="none"))
    # the agent's and the verifier's engines share only the persistent cache, as in `droidpilot bench`
    options.ocr_engine = verifier = CachedOcr(judge, OcrCache(cache_dir))
    folder = tmp_path / "trace"
    row = run_task(task, SimDevice(), ReferenceBrain(list(task.reference)), folder,
                   ocr_engine=CachedOcr(agent, OcrCache(cache_dir)), options=options)
    assert row["termination"] == "completed" and row["su_oracle"] and row["su"], row
    result = verify_trace(task, folder, options, use_xml=False)  # screenshots alone: every check reads OCR
    assert result.ok, result.reason

    played = set(agent.calls)
    frames = {hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.glob("*.jpg")}
    assert played, "the agent read no screen by OCR: the run tests nothing"
    assert played <= frames, "the agent's OCR read screens the trace does not record"
    assert verifier.hits, "the verifier took no reading from the cache: it consulted no frame read in play"
    again = [h for h in judge.calls if h in played]
    assert not again, (f"{len(again)} of the {len(played)} screen(s) read during play were recognised again "
                       f"when verified ({len(judge.calls)} recognitions by the verifier)")
