"""Opening an app is judged by a text only that app's first screen shows (`seen`), with its title: the
label alone is on the launcher too, so a rule on it passed an agent that never opened the app."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from tests.device.sim_driver import Driver

from droidpilot.bench.suite import SUITES_DIR
from droidpilot.device.sim.phone import SimDevice

APPS = yaml.safe_load(Path(SUITES_DIR / "world" / "system.yaml").read_text(encoding="utf-8"))["defs"]["apps"]


@pytest.fixture(scope="module")
def launcher_texts() -> set[str]:
    return set(Driver(SimDevice()).texts())


@pytest.mark.parametrize("app", APPS, ids=[a["name"] for a in APPS])
def test_each_app_shows_its_title_and_a_text_the_launcher_does_not(app: dict[str, str],
                                                                   launcher_texts: set[str]) -> None:
    ui = Driver(SimDevice())
    ui.d.open_app(app["name"])
    assert ui.has(app["title"]) and ui.has(app["seen"])
    assert app["seen"] not in launcher_texts
