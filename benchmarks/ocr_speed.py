"""How fast and how accurate droidpilot's OCR is next to bare RapidOCR, on rendered 1080x2400 phone screens.

Prints, in one run: the cold time (new engine: model loading plus the first screen), the median time per
screen once warm, and the recall of the rendered labels (share of labels read with their exact normalised
text by a line whose box holds the label's centre) for
  - bare RapidOCR as shipped (``RapidOCR()``: it caps the longest side at 2000 pixels),
  - bare RapidOCR at full resolution (the same with the cap lifted),
  - droidpilot's RapidOcrEngine with its defaults,
and, with ``--ablations``, each setting of droidpilot's engine varied alone. Runs of the engines are
interleaved screen by screen so that other load on the machine weighs on all of them alike.

    .venv/bin/python benchmarks/ocr_speed.py [--repeats 3] [--ablations] [--quick]
    .venv/bin/python benchmarks/ocr_speed.py --sizes [--repeats 3] [--only 1080x2400]

``--sizes`` prints one table row per phone size (540x1170, 720x1600, 1080x2400, 1440x3200), each with two
rendered screens saved as PNG files: a list screen and a status-bar-sized text screen (text at 0.6x). Cold:
a new bare RapidOCR process (``RapidOCR()`` with its defaults, reading the PNG with Pillow) and a new
``droidpilot ocr FILE --no-cache --json`` process on the same files, ``--repeats`` runs each, interleaved
screen by screen with the order swapped every run; the cold ratio is ours / bare of the sum over both
screens of each one's median wall time (the CPU ratio likewise with user+system time), and recall (all
labels, and the small-text screen's alone) is read from those processes' own output. Warm: the two
engines in this process, interleaved, median seconds per screen.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from droidpilot.perception.normalize import match_key
from droidpilot.perception.rapid import RapidOcrEngine, RapidSettings
from droidpilot.perception.synth import SynthScreen, render_list_screen
from droidpilot.perception.types import OcrLine, box_center


def screens(quick: bool) -> list[tuple[str, SynthScreen]]:
    """English and Chinese, light and dark, and one with text at 60% of the usual size (20-px captions)."""
    specs = [("en light", "en", "light", 0, 1.0), ("zh dark", "zh", "dark", 1, 1.0),
             ("en dark", "en", "dark", 2, 1.0), ("zh light", "zh", "light", 3, 1.0),
             ("en light small text (20-26 px)", "en", "light", 4, 0.6)]
    if quick:
        specs = specs[:2]
    return [(name, render_list_screen(size=(1080, 2400), lang=lang, theme=theme, seed=seed, scale=scale))
            for name, lang, theme, seed, scale in specs]


def recall(screen: SynthScreen, lines: list[OcrLine]) -> tuple[int, int]:
    """(labels read, labels drawn)."""
    hit = 0
    for label in screen.labels:
        cx, cy = box_center(label.box)
        hit += any(ln.box[0] - 2 <= cx <= ln.box[2] + 2 and ln.box[1] - 2 <= cy <= ln.box[3] + 2
                   and match_key(label.text) in match_key(ln.text) for ln in lines)
    return hit, len(screen.labels)


def bare_reader(params: dict[str, Any]) -> Callable[[], Callable[[SynthScreen], list[OcrLine]]]:
    """A factory of bare RapidOCR readers (``params`` on top of RapidOCR's own configuration)."""

    def make() -> Callable[[SynthScreen], list[OcrLine]]:
        from rapidocr import RapidOCR

        ocr = RapidOCR(params={"Global.log_level": "error", **params})

        def read(screen: SynthScreen) -> list[OcrLine]:
            out = ocr(np.ascontiguousarray(np.asarray(screen.image)[:, :, ::-1]))
            if getattr(out, "boxes", None) is None or out.txts is None:
                return []
            result = []
            for quad, text, score in zip(out.boxes, out.txts, out.scores, strict=False):
                pts = np.asarray(quad, dtype=float)
                box = (int(pts[:, 0].min()), int(pts[:, 1].min()), int(pts[:, 0].max()), int(pts[:, 1].max()))
                result.append(OcrLine(str(text), box, float(score)))
            return result

        return read

    return make


def ours(settings: RapidSettings) -> Callable[[], Callable[[SynthScreen], list[OcrLine]]]:
    def make() -> Callable[[SynthScreen], list[OcrLine]]:
        engine = RapidOcrEngine(settings)

        def read(screen: SynthScreen) -> list[OcrLine]:
            memo = getattr(engine._ocr, "memo", None)
            if memo is not None:  # warm runs repeat a screen: each must read its lines anew, not recall them
                memo.clear()
            return engine.recognize(screen.image)

        return read

    return make


@dataclass
class Entry:
    name: str
    factory: Callable[[], Callable[[SynthScreen], list[OcrLine]]]
    reader: Callable[[SynthScreen], list[OcrLine]] | None = None
    cold: float = 0.0
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    hits: int = 0
    total: int = 0

    def warm_median(self) -> float:
        """Median over screens of each screen's median wall-clock time."""
        return statistics.median(statistics.median(t) for t in self.times.values())

    def cpu_median(self) -> float:
        """The same for CPU time (all threads): the work done, less sensitive to other load."""
        return statistics.median(statistics.median(t) for t in self.cpu.values())


def run(entries: list[Entry], shots: list[tuple[str, SynthScreen]], repeats: int) -> None:
    for entry in entries:  # cold: a new engine (its models load) reading its first screen
        start = time.perf_counter()
        entry.reader = entry.factory()
        entry.reader(shots[0][1])
        entry.cold = time.perf_counter() - start
    for name, shot in shots:
        last: dict[str, list[OcrLine]] = {}
        for _ in range(repeats):
            for entry in entries:  # interleaved: load on the machine weighs on every engine alike
                assert entry.reader is not None
                start, start_cpu = time.perf_counter(), time.process_time()
                last[entry.name] = entry.reader(shot)
                entry.times.setdefault(name, []).append(time.perf_counter() - start)
                entry.cpu.setdefault(name, []).append(time.process_time() - start_cpu)
        for entry in entries:
            h, n = recall(shot, last[entry.name])
            entry.hits, entry.total = entry.hits + h, entry.total + n


def describe(s: RapidSettings) -> str:
    return (f"det short side >= {s.det_min_short}px, rec min width {s.rec_min_width} x{s.rec_width_growth}, "
            f"{s.threads} threads"
            f"{' spinning' if s.spin else ''}, cls {'on' if s.use_cls else 'off'}")


SIZES = ((540, 1170), (720, 1600), (1080, 2400), (1440, 3200))
BARE_PROCESS = """
import json, sys
import numpy as np
from PIL import Image
from rapidocr import RapidOCR
bgr = np.asarray(Image.open(sys.argv[1]).convert("RGB"))[:, :, ::-1].copy()
out = RapidOCR(params={"Global.log_level": "error"})(bgr)
lines = []
for quad, text in zip(out.boxes if out.boxes is not None else [], out.txts or []):
    pts = np.asarray(quad, dtype=float)
    lines.append({"text": str(text), "box": [int(pts[:, 0].min()), int(pts[:, 1].min()),
                                            int(pts[:, 0].max()), int(pts[:, 1].max())]})
print(json.dumps(lines, ensure_ascii=False))
"""


@dataclass
class Cold:
    """Cold processes of one reader on one size's screens: wall and CPU seconds per screen, lines read."""

    wall: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    lines: dict[str, list[OcrLine]] = field(default_factory=dict)

    def seconds(self, cpu: bool = False) -> float:
        """The sum over screens of each screen's median (wall or CPU) time."""
        return sum(statistics.median(t) for t in (self.cpu if cpu else self.wall).values())


def cold_processes(files: dict[str, str], runs: int) -> dict[str, Cold]:
    """Cold bare-RapidOCR processes and cold `droidpilot ocr --no-cache --json` ones on the same PNG files,
    ``runs`` times each, interleaved screen by screen with the order swapped every run (ABBA), so load on
    the machine and a warming file cache weigh on both alike. Recall comes from these processes' output."""
    import json
    import os
    import resource
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    droidpilot = str(Path(sys.executable).with_name("droidpilot"))
    out = {"bare": Cold(), "ours": Cold()}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "DROIDPILOT_CACHE_DIR": cache}
        for run_no in range(runs):
            for name, path in files.items():
                cmds = [("bare", [sys.executable, "-c", BARE_PROCESS, path]),
                        ("ours", [droidpilot, "ocr", path, "--no-cache", "--json"])]
                for who, cmd in cmds[::-1] if run_no % 2 else cmds:
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    start = time.perf_counter()
                    proc = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env)
                    wall = time.perf_counter() - start
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                    out[who].wall.setdefault(name, []).append(wall)
                    out[who].cpu.setdefault(name, []).append(cpu)
                    out[who].lines[name] = [OcrLine(d["text"], tuple(d["box"]), float(d.get("score", 1.0)))
                                            for d in json.loads(proc.stdout)]
    return out


SIZE_HEAD = ("size", "cold bare s", "cold ours s", "cold ratio", "cpu ratio", "warm ratio", "recall bare",
             "recall ours", "small bare", "small ours", "det side")


def measure_sizes(repeats: int, sizes: tuple[tuple[int, int], ...] = SIZES,
                  progress: bool = True) -> list[tuple[str, ...]]:
    """Bare RapidOCR (as shipped) against ours at each phone size, on a list screen and a status-bar-sized
    text screen: cold processes (the ratio the issue sets a goal for) and warm engines in one process. One
    row per size, columns as ``SIZE_HEAD``."""
    import os
    import tempfile

    rows = []
    for w, h in sizes:
        k = w / 1080
        shots = {"list": render_list_screen(size=(w, h), lang="en", theme="light", seed=11, scale=k),
                 "small": render_list_screen(size=(w, h), lang="en", theme="dark", seed=12, scale=0.6 * k)}
        with tempfile.TemporaryDirectory() as folder:
            files = {}
            for name, shot in shots.items():
                files[name] = os.path.join(folder, f"{w}x{h}-{name}.png")
                shot.image.save(files[name])
            cold = cold_processes(files, repeats)
        entries = [Entry("bare", bare_reader({})), Entry("ours", ours(RapidSettings()))]
        run(entries, list(shots.items()), repeats)
        bare, mine = entries
        hits = {who: [recall(shots[n], cold[who].lines[n]) for n in shots] for who in cold}
        read = {who: f"{sum(a for a, _ in v)}/{sum(b for _, b in v)}" for who, v in hits.items()}
        small = {who: "{}/{}".format(*v[1]) for who, v in hits.items()}
        rows.append((f"{w}x{h}", f"{cold['bare'].seconds():.2f}", f"{cold['ours'].seconds():.2f}",
                     f"{cold['ours'].seconds() / cold['bare'].seconds():.2f}",
                     f"{cold['ours'].seconds(cpu=True) / cold['bare'].seconds(cpu=True):.2f}",
                     f"{mine.warm_median() / bare.warm_median():.2f}", read["bare"], read["ours"],
                     small["bare"], small["ours"], str(RapidOcrEngine().det_side(w, h))))
        if progress:
            print(f"{rows[-1][0]}: cold ratio {rows[-1][3]}", flush=True)
    return rows


def table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    """Right-aligned columns."""
    widths = [max(len(c) for c in column) for column in zip(head, *rows, strict=True)]
    return "\n".join("  ".join(f"{c:>{n}}" for c, n in zip(row, widths, strict=True))
                     for row in (head, *rows))


def by_size(repeats: int, sizes: tuple[tuple[int, int], ...] = SIZES) -> None:
    """Print ``measure_sizes``' table with the machine's load before and after."""
    import os

    print(f"cold: median of {repeats} runs of each process on each screen, ABBA-interleaved; ratio = "
          f"ours / bare of the per-size sum over both screens. load average {os.getloadavg()[0]:.1f}")
    print(table(SIZE_HEAD, measure_sizes(repeats, sizes)))
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


def parse_sizes(text: str) -> tuple[tuple[int, int], ...]:
    """"1080x2400,540x1170" -> ((1080, 2400), (540, 1170)); argparse's error for anything else."""
    try:
        return tuple((int(w), int(h)) for w, h in (part.lower().split("x") for part in text.split(",")))
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes are WxH[,WxH...], e.g. 1080x2400; got {text!r}") from None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="warm runs per screen and engine")
    parser.add_argument("--ablations", action="store_true", help="also vary each setting of ours alone")
    parser.add_argument("--quick", action="store_true", help="two screens only")
    parser.add_argument("--sizes", action="store_true",
                        help="only compare with bare RapidOCR at 540x1170, 720x1600, 1080x2400, 1440x3200")
    parser.add_argument("--only", type=parse_sizes, default=SIZES,
                        help="with --sizes: these sizes only, e.g. 1080x2400")
    args = parser.parse_args()
    if args.sizes:
        by_size(args.repeats, args.only)
        return

    shots = screens(args.quick)
    default = RapidSettings()
    entries = [
        Entry("bare RapidOCR, as shipped (longest side capped at 2000)", bare_reader({})),
        Entry("bare RapidOCR, full resolution", bare_reader({"Global.max_side_len": 100_000})),
        Entry(f"droidpilot rapidocr ({describe(default)})", ours(default)),
    ]
    if args.ablations:
        variants = [dataclasses.replace(default, det_min_short=v) for v in (432, 720, 1080)]
        variants += [dataclasses.replace(default, rec_min_width=v) for v in (96, 320)]
        variants += [dataclasses.replace(default, rec_width_growth=v) for v in (1.1, 1.35)]
        variants += [dataclasses.replace(default, threads=1), dataclasses.replace(default, spin=True),
                     dataclasses.replace(default, use_cls=True)]
        entries += [Entry(f"  variant: {describe(v)}", ours(v)) for v in variants]

    print(f"screens: {len(shots)} rendered at 1080x2400 ({', '.join(n for n, _ in shots)}); "
          f"{args.repeats} warm runs each; {sum(len(s.labels) for _, s in shots)} labels")
    run(entries, shots, args.repeats)
    for e in entries:
        print(f"{e.name}: cold {e.cold:.2f} s, warm {e.warm_median():.2f} s/screen "
              f"(cpu {e.cpu_median():.2f} s), recall {100 * e.hits / e.total:.1f}% ({e.hits}/{e.total})")
    mine = entries[2]
    for base in entries[:2]:
        print(f"ours / {base.name}: warm {mine.warm_median() / base.warm_median():.2f} "
              f"({base.warm_median() / mine.warm_median():.1f}x faster), cpu "
              f"{mine.cpu_median() / base.cpu_median():.2f}, cold {mine.cold / base.cold:.2f}")


if __name__ == "__main__":
    main()
