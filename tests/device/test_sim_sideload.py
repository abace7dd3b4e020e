"""An APK installed with uiautomator2's ``app_install`` (adbutils' push + `pm install`) shows on SimPhone's
launcher under its label, resolved from resources.arsc when it is ``@string/...``, opens to an empty screen
and leaves with `pm uninstall`."""

from __future__ import annotations

from pathlib import Path

import pytest
import uiautomator2 as u2
from tests.device.adbd_support import Front
from tests.device.apk_builder import apk, axml, manifest
from tests.device.arsc_builder import res_id, table
from tests.device.u2_support import front_fixtures

from droidpilot.device.base import DeviceError
from droidpilot.device.sim.phone import SimDevice
from droidpilot.device.sim.sideload import EMPTY_TEXT

pytestmark = pytest.mark.slow
PKG = "com.example.notespro"

front, d, fresh = front_fixtures(1)


def _install(d: u2.Device, tmp_path: Path, label: object, resources: bytes | None) -> None:
    path = tmp_path / "notes.apk"
    path.write_bytes(apk(axml(manifest(PKG, label=label)),
                         {"resources.arsc": resources} if resources is not None else {}))
    d.app_install(str(path))


def _launcher_finds(d: u2.Device, query: str) -> list[str]:
    """The labels the launcher's search lists for ``query``."""
    d.press("home")
    d(text="Search apps").click()
    d.shell(["input", "text", query.replace(" ", "%s")])
    found = [el.text for el in d.xpath("//android.widget.TextView").all() if query.lower() in el.text.lower()]
    d.press("back")
    return found


def test_a_string_resource_label_is_the_launchers_label(front: Front, d: u2.Device, tmp_path: Path) -> None:
    _install(d, tmp_path, ("ref", res_id(0)), table([{"": "Notes Pro", "fr": "Bloc-notes Pro"}]))
    assert PKG in d.app_list()
    assert front.server.phones[0].installed[PKG].info.label == "Notes Pro"
    assert _launcher_finds(d, "Notes Pro") == ["Notes Pro"]
    assert _launcher_finds(d, PKG) == []  # not the package name
    d.app_start(PKG)
    assert d.app_current()["package"] == PKG
    assert d(text="Notes Pro").exists and d(text=EMPTY_TEXT).exists
    d.app_uninstall(PKG)
    assert PKG not in d.app_list()
    assert d.app_current()["package"] != PKG
    assert _launcher_finds(d, "Notes Pro") == []


def test_an_unresolvable_label_shows_the_package_name(front: Front, d: u2.Device, tmp_path: Path) -> None:
    _install(d, tmp_path, ("ref", res_id(0)), table([{"fr": "Bloc-notes Pro"}]))  # no en or default
    info = front.server.phones[0].installed[PKG].info
    assert info.label == PKG and "has values only for fr" in info.label_from
    assert _launcher_finds(d, "notespro") == [PKG]
    _install(d, tmp_path, "Notes Pro 2", None)  # an update with a plain label renames the icon
    assert _launcher_finds(d, "Notes Pro") == ["Notes Pro 2"]
    d.app_uninstall(PKG)


def test_a_system_app_is_not_sideloaded_over_and_the_catalog_is_not_shared() -> None:
    sim, other = SimDevice(), SimDevice()
    with pytest.raises(DeviceError, match="system image"):
        sim.install_apk("com.android.settings", "Fake Settings")
    sim.install_apk(PKG, "Notes {state.x}")  # braces stay text: the title leaves them out
    assert sim.sideloaded(PKG) and not other.sideloaded(PKG)
    assert PKG not in [a.package for a in other.apps()]
    sim.open_app(PKG)
    assert "Notes {state.x}" not in sim.ui_xml()
    sim.reset()
    assert sim.sideloaded(PKG)  # a reset keeps what the package manager holds
    with pytest.raises(DeviceError, match="not installed with adb"):
        sim.uninstall_apk("com.android.settings")
