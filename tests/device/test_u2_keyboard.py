"""uiautomator2's own keyboard and package calls, made exactly as its users make them: the client installs
its bundled app-uiautomator.apk with `pm install`, selects com.github.uiautomator/.AdbKeyboard and drives it
with broadcasts; app_install/app_info/app_auto_grant_permissions go through pm and dumpsys package."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
import uiautomator2 as u2
from tests.device.adbd_support import Front
from tests.device.apk_builder import apk, axml, manifest
from tests.device.u2_support import front_fixtures

pytestmark = pytest.mark.slow
U2_IME = "com.github.uiautomator/.AdbKeyboard"
SEARCH_BOX = "com.simphone.browser:id/search_box"


front, d, fresh = front_fixtures(1)


def test_set_input_ime_installs_and_selects_the_clients_keyboard(front: Front, d: u2.Device) -> None:
    phone = front.server.phones[0]
    phone.installed.pop("com.github.uiautomator", None)
    assert U2_IME not in d.shell(["ime", "list", "-s", "-a"]).output
    d.set_input_ime()
    assert "com.github.uiautomator" in phone.installed  # through adbutils' push + `pm install -r -t`
    assert U2_IME in d.shell(["ime", "list", "-s", "-a"]).output.splitlines()
    assert d.current_ime() == U2_IME
    d.shell(["ime", "set", "com.android.adbkeyboard/.AdbIME"])
    with pytest.deprecated_call():
        d.set_fastinput_ime(True)  # the deprecated name does the same
    assert d.current_ime() == U2_IME
    assert d.app_info("com.github.uiautomator")["versionName"] == phone.installed[
        "com.github.uiautomator"].info.version_name


def test_send_keys_clear_text_and_send_action_go_through_the_keyboard(front: Front, d: u2.Device) -> None:
    sim, phone = front.sims[0], front.server.phones[0]
    d.set_input_ime(True)
    d.app_start("com.simphone.browser", stop=True)
    d(resourceId=SEARCH_BOX).click()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the set_text fallback warns: it must not be taken
        d.send_keys("湖人 game")
    assert sim.state()["foreground"]["fields"]["q"] == "湖人 game"
    assert phone.clipboard == ""  # nor the clipboard path of a client without the keyboard
    assert d.current_ime() == U2_IME
    d(resourceId=SEARCH_BOX).click()
    d.clear_text()
    assert sim.state()["foreground"]["fields"]["q"] == ""
    d(resourceId=SEARCH_BOX).click()
    d.send_keys("old text")
    d(resourceId=SEARCH_BOX).click()
    d.send_keys("lakers", clear=True)  # as upstream's mobile_tests/test_simple.py calls it
    assert sim.state()["foreground"]["fields"]["q"] == "lakers"
    d(resourceId=SEARCH_BOX).click()
    d.send_action("search")
    assert sim.state()["foreground"]["screen"] == "results"
    assert sim.state()["browser"]["queries"][-1] == "lakers"


def test_smart_enter_and_hide_keyboard(front: Front, d: u2.Device) -> None:
    sim = front.sims[0]
    d.set_input_ime(True)
    d.app_start("com.simphone.browser", stop=True)
    d(resourceId=SEARCH_BOX).click()
    assert 'focused="true"' in d.dump_hierarchy()
    d.hide_keyboard()
    assert not d(focused=True, className="android.widget.EditText").exists
    assert sim.state()["foreground"]["screen"] == "start"  # hiding is not going back
    d(resourceId=SEARCH_BOX).click()
    d.send_keys("nba")
    d(resourceId=SEARCH_BOX).click()
    d.send_action()  # no code: ADB_KEYBOARD_SMART_ENTER
    assert sim.state()["foreground"]["screen"] == "results"


def test_broadcasts_reach_the_keyboard_only_while_it_is_selected(front: Front, d: u2.Device) -> None:
    d.set_input_ime()
    ok = d.shell(["am", "broadcast", "-a", "ADB_KEYBOARD_HIDE"]).output
    assert 'result=-1, data="success"' in ok
    bad = d.shell(["am", "broadcast", "-a", "ADB_KEYBOARD_EDITOR_CODE", "--es", "code", "99"]).output
    assert "result=0" in bad and "IME_ACTION" in bad
    d.shell(["ime", "set", "com.android.adbkeyboard/.AdbIME"])
    off = d.shell(["am", "broadcast", "-a", "ADB_KEYBOARD_HIDE"]).output
    assert "result=0" in off and "success" not in off


def test_app_install_app_info_and_auto_grant(front: Front, d: u2.Device, tmp_path: Path) -> None:
    phone = front.server.phones[0]
    phone.installed.pop("com.example.notes2", None)
    path = tmp_path / "notes2.apk"
    path.write_bytes(apk(axml(manifest("com.example.notes2", 42, "4.2.0", "Notes Two",
                                       ("android.permission.CAMERA", "android.permission.READ_CONTACTS",
                                        "android.permission.INTERNET")))))
    d.app_install(str(path))
    assert "com.example.notes2" in d.app_list()
    assert d.app_info("com.example.notes2") == {"versionName": "4.2.0", "versionCode": 42}
    dump = d.shell(["dumpsys", "package", "com.example.notes2"]).output
    assert "android.permission.CAMERA: granted=false" in dump
    d.app_auto_grant_permissions("com.example.notes2")
    dump = d.shell(["dumpsys", "package", "com.example.notes2"]).output
    assert "android.permission.CAMERA: granted=true" in dump
    assert "android.permission.READ_CONTACTS: granted=true" in dump
    info = d.adb_device.app_info("com.example.notes2")
    assert info is not None and info.first_install_time is not None
    with pytest.raises(u2.AppNotFoundError):
        d.app_info("com.example.absent")
    assert d.app_info("com.simphone.browser")["versionName"] == "1.0"


def test_app_install_of_a_broken_apk_raises_the_clients_install_error(d: u2.Device, tmp_path: Path) -> None:
    import adbutils

    path = tmp_path / "broken.apk"
    path.write_bytes(apk(b"<manifest/>"))
    with pytest.raises(adbutils.AdbInstallError, match="INSTALL_PARSE_FAILED_MANIFEST_MALFORMED"):
        d.app_install(str(path))
