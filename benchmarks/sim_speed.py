"""SimPhone speed, direct (no ADB): screenshots per second with and without the frame cache, the cost
of each stage (compose, render, PNG encode), and input events per second.

Run: ``.venv/bin/python benchmarks/sim_speed.py [--rounds N] [--size 1080x2400]``. Prints one figure per
line, then the same device driven through the ADB front (``benchmarks/adb_speed.py``; ``--no-adb`` skips it).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from droidpilot.device.sim.draw.png import encode_png, forget_bands
from droidpilot.device.sim.draw.render import draw_ops
from droidpilot.device.sim.phone import SimDevice
from droidpilot.device.sim.validate import parse_size

# A screenful of people (a row and a picture each), for the cost of their avatars.
_FIRST = ("Ava", "Noah", "Mia", "Liam", "Zoe", "Omar", "Ivy", "Leo", "Ada", "Max", "Eva", "Kai")
_LAST = ("Smith", "Brown", "Chen", "Park", "Diaz", "Haddad", "Kim", "Rossi", "Nagy", "Berg", "Lund", "Sato")
PEOPLE = [{"name": f"{a} {b}", "phone": f"555-0{i:02d}-1234", "email": ""}
          for i, (a, b) in enumerate(zip(_FIRST, _LAST, strict=True))]
SCREENS: list[tuple[str, Callable[[SimDevice], None]]] = [
    ("launcher", lambda d: None),
    ("settings", lambda d: d.open_app("settings")),
    ("clips", lambda d: d.open_app("clips")),
    ("chat", lambda d: d.open_app("微聊")),
    ("contacts", lambda d: (d.apply_setup({"state": {"contacts.contacts": PEOPLE}}), d.open_app("contacts"))),
]


def _timed(fn: Callable[[], object], rounds: int) -> float:
    """Median seconds of ``fn`` over ``rounds`` runs."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--size", default="1080x2400")
    parser.add_argument("--no-adb", action="store_true", help="skip the figures through the ADB front")
    parser.add_argument("--adb-seconds", type=float, default=2.0, help="time per ADB measurement")
    args = parser.parse_args()
    size = parse_size(args.size)
    print(f"size: {size[0]}x{size[1]}")
    for name, setup in SCREENS:
        dev = SimDevice(size=size)
        setup(dev)
        dev.screenshot_png()

        def fresh_png(dev: SimDevice = dev) -> bytes:
            dev.drop_frame_cache()
            forget_bands()
            return dev.screenshot_png()

        def fresh_image(dev: SimDevice = dev) -> object:
            dev.drop_frame_cache()
            return dev.screenshot()

        compose = _timed(lambda dev=dev: (dev.drop_frame_cache(), dev.view()), args.rounds)
        ops = dev.view().ops
        render = _timed(lambda ops=ops: draw_ops(ops, size), args.rounds)
        image = dev.screenshot()
        png = _timed(lambda image=image: (forget_bands(), encode_png(image)), args.rounds)
        png_same = _timed(lambda image=image: encode_png(image), args.rounds)
        full_png = _timed(fresh_png, args.rounds)
        full_img = _timed(fresh_image, args.rounds)
        cached = _timed(dev.screenshot_png, args.rounds)
        print(f"{name}: compose {compose * 1e3:.1f} ms, render {render * 1e3:.1f} ms, "
              f"png encode {png * 1e3:.1f} ms (bands unchanged from the last frame: {png_same * 1e3:.1f} ms)")
        print(f"{name}: screenshot() uncached {full_img * 1e3:.1f} ms ({1 / full_img:.1f}/s)")
        print(f"{name}: screenshots/s uncached (compose + render + full PNG) {1 / full_png:.1f}")
        print(f"{name}: screenshots/s cached frame (PNG) {1 / cached:.0f}")

    dev = SimDevice(size=size)
    dev.open_app("settings")
    scale = size[0] / 1080
    row = (int(540 * scale), int(980 * scale))  # "Connected devices"; Navigate up at the top left

    def tap_in_and_out() -> None:
        dev.tap(*row)
        dev.tap(int(80 * scale), int(188 * scale))

    pair = _timed(tap_in_and_out, args.rounds)
    print(f"taps/s (each opens or closes a screen, state updated, frame composed) {2 / pair:.1f}")
    dev.open_app("notes")
    dev.tap(int(900 * scale), int(2100 * scale))  # New note: focuses the body field
    step = _timed(lambda: (dev.type_text("b"), dev.screenshot_png()), args.rounds)
    print(f"agent step (type one char + PNG screenshot of the changed frame) {step * 1e3:.1f} ms")
    if not args.no_adb:
        from adb_speed import measure  # this folder is on sys.path when run as a script

        for name, (per_second, ms) in measure(args.adb_seconds):
            print(f"through the ADB front: {name}: {per_second:.1f}/s ({ms:.1f} ms each)")


if __name__ == "__main__":
    main()
