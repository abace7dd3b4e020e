"""The direct onnxruntime backend reads what the rapidocr wrapper reads, with the same boxes."""

from __future__ import annotations

from droidpilot.perception.normalize import match_key
from droidpilot.perception.rapid import RapidOcrEngine, RapidSettings
from droidpilot.perception.synth import render_list_screen


def test_direct_backend_matches_the_wrapper_on_a_small_screen() -> None:
    screen = render_list_screen(size=(540, 1170), lang="en", theme="dark", seed=5, scale=0.5)
    direct = RapidOcrEngine(RapidSettings(backend="onnx")).recognize(screen.image)
    wrapper = RapidOcrEngine(RapidSettings(backend="rapidocr")).recognize(screen.image)
    assert [ln.text for ln in direct] == [ln.text for ln in wrapper]
    for a, b in zip(direct, wrapper, strict=True):
        assert max(abs(p - q) for p, q in zip(a.box, b.box, strict=True)) <= 4, (a, b)

    def read(lines: list) -> int:
        return sum(any(match_key(lb.text) in match_key(ln.text) for ln in lines) for lb in screen.labels)

    assert read(direct) >= read(wrapper) >= 0.9 * len(screen.labels)
