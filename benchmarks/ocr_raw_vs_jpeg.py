"""How differently RapidOCR reads a SimPhone screen as raw pixels and as the JPEG a trace records (q92).

Why it matters: the agent loop's OCR reads the recorded JPEG (``ScreenView(frame_quality=...)``), so the
verifier's reading of ``N.jpg`` is the agent's, from the OCR cache. Before, the agent read raw pixels and
the verifier the JPEG; this prints how far apart those two readings were: each template's home screen and
its app's first screen (seed 0), lines read and the texts only one of the two reads.

    .venv/bin/python benchmarks/ocr_raw_vs_jpeg.py bank-send contacts-add settings-switch
"""

from __future__ import annotations

import argparse

from droidpilot.agent.frame_jpeg import encode_frame
from droidpilot.bench.world.instance import instantiate
from droidpilot.bench.world.nearmiss import WORLD_FOLDER
from droidpilot.bench.world.template import load_templates
from droidpilot.device.sim.phone import SimDevice
from droidpilot.perception.ocr import make_ocr_engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("templates", nargs="+", help="world template ids")
    args = parser.parse_args()
    templates = {t.id: t for t in load_templates(WORLD_FOLDER)}
    unknown = [t for t in args.templates if t not in templates]
    if unknown:
        parser.error(f"unknown templates {unknown}; see `droidpilot suite list world`")
    engine, device = make_ocr_engine("rapidocr"), SimDevice()
    screens = same = raw_lines = jpeg_lines = 0
    for tid in args.templates:
        task = instantiate(templates[tid], 0)
        device.reset(task.seed)
        if task.setup:
            device.apply_setup(task.setup)
        for app in (None, task.apps[0]):
            if app:
                device.open_app(app)
            image = device.screenshot()
            raw = [line.text for line in engine.recognize(image)]
            jpeg = [line.text for line in engine.recognize(encode_frame(image))]
            screens, raw_lines, jpeg_lines = screens + 1, raw_lines + len(raw), jpeg_lines + len(jpeg)
            same += raw == jpeg
            if raw != jpeg:
                print(f"{tid} {app or 'home'}: raw only {sorted(set(raw) - set(jpeg))}, "
                      f"jpeg only {sorted(set(jpeg) - set(raw))}")
    print(f"screens {screens}: the same texts on {same}; lines raw {raw_lines}, jpeg {jpeg_lines}")


if __name__ == "__main__":
    main()
