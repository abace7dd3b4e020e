"""The heuristic agent on SimPhone: success on Mobile-Eval-style instructions, and time per step.

    .venv/bin/python benchmarks/agent_steps.py [--tasks ID,...] [--cold] [--max-steps N] [--out DIR]

Each task is a Mobile-Eval instruction adapted to SimPhone's apps with an oracle over SimPhone's
``state()`` (this script's own check, never shown to the agent). Prints one line per task, then the
success rate and the mean time per step split into perception (OCR, icon search), model (the brain) and
device (SimPhone: screenshots, input). ``--cold`` uses an empty OCR cache (the default reuses it).
Tasks whose app SimPhone does not have are listed as skipped.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

State = dict[str, Any]


def _get(state: State, *path: str) -> Any:
    node: Any = state
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def _text_in(value: Any, *needles: str) -> bool:
    blob = repr(value).lower()
    return all(n.lower() in blob for n in needles)


def _sent_to(s: State, address: str, body: bool = False) -> bool:
    return any(_text_in(m, address) and (not body or str(m.get("body", "")).strip())
               for m in _get(s, "mail", "sent") or [])


def _new_note(s: State, *needles: str) -> bool:
    notes = _get(s, "notes", "notes") or []
    return len(notes) > 1 and all(_text_in(notes[1:], n) for n in needles)


def _installed(s: State, app: str) -> bool:
    system = _get(s, "system") or {}
    return _text_in(system.get("installed_apps"), app) or _text_in(system.get("installing"), app)


ADDRESS = "alex@example.com"
CURRY_COMMENT = "Oh, chef, your basketball spirit has always inspired me"

# Mobile-Eval (3 levels x 10 apps + multi-app) adapted to SimPhone: id, app, instruction, oracle
TASKS: list[tuple[str, str, str, Callable[[State], bool]]] = [
    ("shop-1", "shop", "Help me find caps in Shop.", lambda s: _text_in(_get(s, "shop", "queries"), "cap")),
    ("shop-2", "shop", 'Help me find caps in Shop. If "Add to cart" is available on the item page, add the '
     "item to my cart.", lambda s: _text_in(_get(s, "shop", "cart"), "cap")),
    ("shop-3", "shop", "I want to buy a cap. I've heard things are cheap on Shop. Maybe you can find it "
     "for me.",
     lambda s: _text_in(_get(s, "shop"), "cap")),
    ("music-1", "music", "Search singer Jay Chou in Music.",
     lambda s: _text_in(_get(s, "music", "queries"), "jay chou")),
    ("music-2", "music", 'Search a music about "agent" in Music and play it.',
     lambda s: _text_in(_get(s, "music", "queries"), "agent") and bool(_get(s, "music", "playing"))),
    ("music-3", "music", "I want to listen music to relax. Find an App to help me.",
     lambda s: bool(_get(s, "music", "playing"))),
    ("browser-1", "browser", "Search result for today's Lakers game.",
     lambda s: _text_in(_get(s, "browser", "queries"), "lakers")),
    ("browser-2", "browser", "Search the information about Taylor Swift.",
     lambda s: _text_in(_get(s, "browser", "queries"), "taylor swift")),
    ("browser-3", "browser", "I want to know the result for today's Lakers game. Find an App to help me.",
     lambda s: _text_in(_get(s, "browser", "queries"), "lakers")),
    ("mail-1", "mail", f"Send an empty email to {ADDRESS}.", lambda s: _sent_to(s, ADDRESS)),
    ("mail-2", "mail", f"Send an email to {ADDRESS} to tell my new work.",
     lambda s: _sent_to(s, ADDRESS, body=True)),
    ("mail-3", "mail", f"I want to let my friend know my new work, and his address is {ADDRESS}. Find an App "
     "to help me.", lambda s: _sent_to(s, ADDRESS, body=True)),
    ("maps-1", "maps", "Navigate to Hangzhou West Lake.",
     lambda s: _text_in(_get(s, "maps", "navigation"), "west lake")),
    ("maps-2", "maps", "Navigate to a nearby gas station.",
     lambda s: _text_in(_get(s, "maps", "navigation"), "gas")),
    ("maps-3", "maps", "I want to go to Hangzhou West Lake, but I don't know the way. Find an App to "
     "help me.",
     lambda s: _text_in([_get(s, "maps", "navigation"), _get(s, "maps", "directions")], "west lake")),
    ("store-1", "store", "Download WhatsApp in Store.", lambda s: _installed(s, "whatsapp")),
    ("store-2", "store", "Download Instagram in Store.", lambda s: _installed(s, "instagram")),
    ("store-3", "store", "I want WhatsApp on my phone. Find an App to help me.",
     lambda s: _installed(s, "whatsapp")),
    ("notes-1", "notes", "Create a new note in Notes.", lambda s: _new_note(s)),
    ("notes-2", "notes", 'Create a new note in Notes and write "Hello, this is a note", then save it.',
     lambda s: _new_note(s, "Hello, this is a note")),
    ("notes-3", "notes", "I suddenly have something to record, so help me find an App and write down the "
     "following content: meeting at 3pm.", lambda s: _new_note(s, "meeting at 3pm")),
    ("settings-1", "settings", "Turn on the dark mode.", lambda s: _get(s, "settings", "dark_mode") is True),
    ("settings-2", "settings", "Turn on the airplane mode.",
     lambda s: _get(s, "settings", "airplane_mode") is True),
    ("settings-3", "settings", "I want to see the real time internet speed at the battery level, please turn "
     "on this setting for me.", lambda s: _get(s, "settings", "show_network_speed") is True),
    ("clips-1", "clips", 'Swipe a video about pet cat and click a "like" for this video.',
     lambda s: _text_in([_get(s, "clips", "likes"), _get(s, "clips", "liked")], "cat")),
    ("clips-2", "clips", 'Swipe a video about pet cat and comment "Ohhhh, so cute cat!".',
     lambda s: _text_in(_get(s, "clips", "comments"), "so cute cat")),
    ("clips-3", "clips", 'Swipe videos. Click "like" for 3 pet cat videos.',
     lambda s: len(_get(s, "clips", "liked") or _get(s, "clips", "likes") or []) >= 3),
    ("tube-1", "tube", "Search for videos about Stephen Curry on Tube.",
     lambda s: _text_in(_get(s, "tube", "queries"), "stephen curry")),
    ("tube-2", "tube", 'Search for videos about Stephen Curry on Tube and open "Comments" to comment '
     f'"{CURRY_COMMENT}".', lambda s: _text_in(_get(s, "tube", "comments"), "basketball spirit")),
    ("tube-3", "tube", "I need you to help me show my love for Stephen Curry on Tube.",
     lambda s: any(_get(s, "tube", k) for k in ("likes", "comments", "subscriptions"))),
    ("multi-1", "calendar", "Open Calendar and look at today's date, then go to Notes and create a new note "
     'to write "Today is Nov 22".', lambda s: _new_note(s, "Today is")),
    ("multi-2", "weather", "Check the temperature in the next 5 days, then create a new note in Notes and "
     "write a temperature analysis.", lambda s: _new_note(s)),
    ("multi-3", "browser", "Search the result for today's Lakers game, then create a note in Notes to "
     "write a sport news for this result.",
     lambda s: _text_in(_get(s, "browser", "queries"), "lakers") and _new_note(s)),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default="", help="comma-separated task ids (default: all)")
    parser.add_argument("--cold", action="store_true", help="start from an empty OCR cache")
    parser.add_argument("--max-steps", type=int, default=12)
    parser.add_argument("--out", type=Path, default=None, help="keep the traces here")
    args = parser.parse_args()
    if args.cold:
        os.environ["DROIDPILOT_CACHE_DIR"] = tempfile.mkdtemp(prefix="dp-ocr-cold-")

    from droidpilot.agent.brains.heuristic import HeuristicBrain
    from droidpilot.agent.loop import Agent, Limits
    from droidpilot.device.sim.phone import SimDevice
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine

    wanted = {t for t in args.tasks.split(",") if t}
    engine = cached(make_ocr_engine("rapidocr"))
    out_root = args.out or Path(tempfile.mkdtemp(prefix="dp-agent-steps-"))
    totals = {"perception": 0.0, "model": 0.0, "device": 0.0}
    steps_total = ok_total = ran = 0
    for task_id, app, instruction, oracle in TASKS:
        if wanted and task_id not in wanted:
            continue
        sim = SimDevice()
        known = {a.name.lower() for a in sim.apps()} | {a.lower() for a in _get(sim.state(), "system",
                                                                              "installed_apps") or []}
        if app not in known:
            print(f"{task_id:12s} skipped: SimPhone has no {app} app")
            continue
        start = time.perf_counter()
        result = Agent(sim, HeuristicBrain(), ocr_engine=engine, out_dir=out_root / task_id,
                       limits=Limits(max_steps=args.max_steps)).run(instruction)
        wall = time.perf_counter() - start
        if result.error and result.termination == "device_error":
            print(f"{task_id:10s} device error: {result.error[:160]}")
        success = bool(oracle(sim.state()))
        ran += 1
        ok_total += success
        steps_total += result.steps
        for key in totals:
            totals[key] += result.timings[key]
        per = {k: v / max(1, result.steps) for k, v in result.timings.items()}
        print(f"{task_id:10s} success={int(success)} steps={result.steps:2d} "
              f"termination={result.termination:23s} s/step: perception {per['perception']:.2f} "
              f"model {per['model']:.3f} device {per['device']:.3f} (wall {wall:.1f}s)")
    if not ran:
        print("no task ran")
        return 1
    print(f"success_rate {ok_total}/{ran} = {ok_total / ran:.2f}")
    for key, value in totals.items():
        print(f"mean_{key}_s_per_step {value / max(1, steps_total):.3f}")
    print(f"steps_total {steps_total}")
    print(f"traces {out_root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
