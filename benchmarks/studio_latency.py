"""Studio frame latency and frame rate, measured in headless Chromium on a real studio server.

Figures: the latency from a SimPhone change to the frame shown in the browser (median, p95; the change
made directly on the phone), the same from a manual key press sent by HTTP (what a person clicking the
page waits for), a click on the page's Recents button with the element inspector open (to the new frame,
and to the inspector's tree of that screen), and the frames per second the browser shows during a
heuristic agent run, with that run's change-to-browser latency.

Run: ``.venv/bin/python benchmarks/studio_latency.py [--rounds N] [--instruction TEXT]``. Prints one figure
per line. Needs the distribution's chromium (/usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import urllib.request
from typing import Any

from playwright.sync_api import sync_playwright

from droidpilot.studio.server import create_studio, make_phones

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def _post(base: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _line(name: str, values: list[float]) -> None:
    print(f"{name}: median {statistics.median(values) * 1000:.1f} ms, p95 {_p95(values) * 1000:.1f} ms "
          f"(n={len(values)})")


def _next_frame(page: Any, count: int) -> dict[str, Any]:
    page.wait_for_function(f"window.__studio.frames.length > {count}", timeout=30_000)
    return page.evaluate("window.__studio.frames[window.__studio.frames.length - 1]")


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40, help="Changes per latency figure.")
    parser.add_argument("--instruction", default="Turn on the dark mode.", help="The agent run's task.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as out:
        studio = create_studio(make_phones(1), out_root=out).start()
        base = studio.url.rstrip("/")
        session = studio.sessions["phone1"]
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 1000})
                page.goto(base + "/phone/phone1")
                page.wait_for_function("window.__studio.frames.length > 0 && window.__studio.client")
                client = page.evaluate("window.__studio.client")
                _post(base, "/api/phones/phone1/control", {"client": client, "action": "take"})
                direct, manual = [], []
                for _ in range(args.rounds):  # the recents overlay toggles: every press changes the screen
                    count = page.evaluate("window.__studio.frames.length")
                    session.device.key("app_switch")
                    changed = time.time()
                    direct.append(_next_frame(page, count)["shown"] - changed)
                for _ in range(args.rounds):
                    count = page.evaluate("window.__studio.frames.length")
                    sent = time.time()
                    _post(base, "/api/phones/phone1/op", {"client": client, "op": "key", "key": "recents"})
                    manual.append(_next_frame(page, count)["shown"] - sent)
                page.check("#inspect-toggle")  # the inspector open: every frame also refreshes its tree
                page.wait_for_function("window.__studio.inspected > 0")
                inspect_frame, inspect_tree = [], []
                for _ in range(args.rounds):
                    count, trees = page.evaluate("[window.__studio.frames.length, window.__studio.inspected]")
                    clicked = page.evaluate("(() => { const t = Date.now() / 1000; document.querySelector("
                                            "'[data-key=recents]').click(); return t; })()")
                    inspect_frame.append(_next_frame(page, count)["shown"] - clicked)
                    page.wait_for_function(f"window.__studio.inspected > {trees} && "
                                           f"window.__studio.inspectedAt > {clicked}", timeout=30_000)
                    inspect_tree.append(page.evaluate("window.__studio.inspectedAt") - clicked)
                page.uncheck("#inspect-toggle")
                count = page.evaluate("window.__studio.frames.length")
                burst = time.time()
                for _ in range(args.rounds * 5):  # a change every 20 ms: what the pipe sustains
                    session.device.key("app_switch")
                    time.sleep(0.02)
                page.wait_for_timeout(500)
                sustained = page.evaluate(f"window.__studio.frames.slice({count})")
                session.device.key("home")
                count = page.evaluate("window.__studio.frames.length")
                start = time.time()
                _post(base, "/api/phones/phone1/agent/start",
                      {"client": client, "instruction": args.instruction, "max_steps": 10})
                page.wait_for_function("window.__studio.status.agent && "
                                       "window.__studio.status.agent.state === 'finished'", timeout=300_000)
                end = time.time()
                frames = page.evaluate(f"window.__studio.frames.slice({count})")
                agent = page.evaluate("window.__studio.status.agent")
                browser.close()
        finally:
            studio.stop()
    _line("frame latency, SimPhone change -> browser", direct)
    _line("manual key press (HTTP) -> frame in browser", manual)
    _line("click on the page, inspector open -> frame in browser", inspect_frame)
    _line("click on the page, inspector open -> inspector tree of the new screen", inspect_tree)
    last = max((f["shown"] for f in sustained), default=burst + 1)
    print(f"frames per second under continuous changes: {len(sustained) / (last - burst):.1f} "
          f"({len(sustained)} frames for {args.rounds * 5} changes)")
    shown = [f for f in frames if start <= f["shown"] <= end]
    print(f"agent run: {agent['result']['termination']} after {agent['steps']} steps in {end - start:.1f} s")
    print(f"agent run frames per second in the browser: {len(shown) / (end - start):.2f} "
          f"({len(shown)} frames)")
    if shown:
        _line("agent run frame latency, change -> browser", [f["shown"] - f["changed"] for f in shown])


if __name__ == "__main__":
    main()
