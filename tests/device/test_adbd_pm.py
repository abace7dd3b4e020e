"""`pm install` of APKs built here (their binary manifests written by tests/device/apk_builder), the
AXML reader's near misses, `dumpsys package`, `pm grant`, and the installed keyboard's `ime` entries."""

from __future__ import annotations

import glob
import struct
import sysconfig
from pathlib import Path

import pytest
from tests.device.adbd_support import adb_client_params, run_adb, running_front
from tests.device.apk_builder import El, apk, axml, manifest

from droidpilot.device.adbd import axml as ax
from droidpilot.device.adbd.apk import InstallError, read_apk
from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.shell import run
from droidpilot.device.sim.phone import SimDevice

CAMERA, INTERNET = "android.permission.CAMERA", "android.permission.INTERNET"


@pytest.fixture
def phone() -> Phone:
    return Phone("simphone-1", 1, SimDevice(serial="simphone-1"))


def put(phone: Phone, data: bytes, path: str = "/data/local/tmp/app.apk") -> str:
    phone.fs.write(path, data)
    return path


def sh(phone: Phone, line: str) -> tuple[str, str, int]:
    r = run(phone, line)
    return r.out.decode(), r.err.decode(), r.code


def demo(**kw: object) -> bytes:
    return apk(axml(manifest("com.example.demo", **kw)))  # type: ignore[arg-type]


@pytest.mark.parametrize("utf8", [False, True], ids=["utf16-pool", "utf8-pool"])
@pytest.mark.parametrize("strip", [False, True], ids=["named", "names-stripped"])
def test_manifest_facts_read_from_either_pool_and_by_resource_id(utf8: bool, strip: bool) -> None:
    data = apk(axml(manifest("com.example.demo", 7, "2.1", "Démo café", (CAMERA, INTERNET), ime=".Kbd"),
                    utf8=utf8, strip_names=strip))
    info = read_apk(data, "/x.apk")
    assert (info.package, info.version_code, info.version_name, info.label) == \
        ("com.example.demo", 7, "2.1", "Démo café")
    assert info.permissions == (CAMERA, INTERNET)
    assert (info.activities, info.input_methods, info.min_sdk, info.target_sdk) == \
        ((".MainActivity",), (".Kbd",), 21, 33)


def test_the_real_uiautomator2_apk_is_read() -> None:
    found = glob.glob(str(Path(sysconfig.get_paths()["purelib"]) / "uiautomator2/assets/app-uiautomator.apk"))
    if not found:
        pytest.skip("the installed uiautomator2 ships no app-uiautomator.apk")
    info = read_apk(Path(found[0]).read_bytes(), found[0])
    assert info.package == "com.github.uiautomator"
    assert info.input_methods == (".AdbKeyboard",)
    assert info.version_code > 0 and info.version_name
    assert INTERNET in info.permissions


def test_install_lists_the_package_with_its_manifest_version(phone: Phone) -> None:
    path = put(phone, demo(version_code=3, version_name="3.0", permissions=(CAMERA, INTERNET)))
    out, _, code = sh(phone, f"pm install -r -t {path}")
    assert (out, code) == ("Performing Streamed Install\nSuccess\n", 0)
    assert "package:com.example.demo\n" in sh(phone, "pm list packages")[0]
    assert sh(phone, "pm list packages -3")[0] == "package:com.example.demo\n"
    dump = sh(phone, "dumpsys package com.example.demo")[0]
    assert "versionCode=3 minSdk=21 targetSdk=33" in dump and "versionName=3.0\n" in dump
    assert f"requested permissions:\n      {CAMERA}\n      {INTERNET}\n" in dump
    assert "android.permission.INTERNET: granted=true" in dump
    assert "android.permission.CAMERA: granted=false" in dump
    system = phone.device.state()["system"]  # type: ignore[attr-defined]
    date, clock = system["date"], system["clock"]
    assert f"firstInstallTime={date} {clock}:00" in dump
    assert sh(phone, "pm path com.example.demo")[0].startswith("package:/data/app/~~")


def test_grant_takes_runtime_permissions_only(phone: Phone) -> None:
    sh(phone, f"pm install {put(phone, demo(permissions=(CAMERA, INTERNET)))}")
    assert sh(phone, f"pm grant com.example.demo {CAMERA}")[2] == 0
    assert f"{CAMERA}: granted=true" in sh(phone, "dumpsys package com.example.demo")[0]
    _, err, code = sh(phone, f"pm grant com.example.demo {INTERNET}")
    assert code == 255 and "is not a changeable permission type" in err
    _, err, code = sh(phone, "pm grant com.example.demo android.permission.RECORD_AUDIO")
    assert code == 255 and "has not requested permission android.permission.RECORD_AUDIO" in err
    _, err, _ = sh(phone, f"pm grant com.example.nope {CAMERA}")
    assert "Unknown package: com.example.nope" in err


def test_reinstall_rules_as_pm_has_them(phone: Phone) -> None:
    path = put(phone, demo(version_code=5))
    assert sh(phone, f"pm install {path}")[0].endswith("Success\n")
    out, _, code = sh(phone, f"pm install {path}")
    assert code == 1 and out.startswith("Failure [INSTALL_FAILED_ALREADY_EXISTS: ")
    first = sh(phone, "dumpsys package com.example.demo")[0]
    phone.device.wait(3600)
    old = put(phone, demo(version_code=4), "/data/local/tmp/old.apk")
    assert sh(phone, f"pm install -r {old}")[0].startswith("Failure [INSTALL_FAILED_VERSION_DOWNGRADE: ")
    assert sh(phone, f"pm install -r -d {old}")[0].endswith("Success\n")
    again = sh(phone, "dumpsys package com.example.demo")[0]
    pick = [line for line in first.splitlines() if "firstInstallTime" in line]
    assert pick and pick[0] in again  # an update keeps the first install time
    assert "versionCode=4 " in again
    assert sh(phone, "pm uninstall com.example.demo") == ("Success\n", "", 0)
    assert sh(phone, "pm uninstall com.example.demo")[0] == "Failure [DELETE_FAILED_INTERNAL_ERROR]\n"
    assert sh(phone, "dumpsys package com.example.demo")[0] == "Unable to find package: com.example.demo\n"


def test_a_simphone_app_cannot_be_replaced_by_an_apk(phone: Phone) -> None:
    path = put(phone, apk(axml(manifest("com.simphone.browser"))))
    out, _, code = sh(phone, f"pm install -r {path}")
    assert code == 1 and out.startswith("Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: ")
    dump = sh(phone, "dumpsys package com.simphone.browser")[0]
    assert "versionName=1.0" in dump and "firstInstallTime=2009-01-01 00:00:00" in dump


def _manifest_bytes() -> bytes:
    return axml(manifest("com.example.demo"))


# near misses: each almost an APK, each refused with pm's reason and what is wrong
NEAR_MISSES = {
    "not-a-zip": (b"PK\x03\x04 not really a zip", "INSTALL_PARSE_FAILED_NOT_APK", "not a zip"),
    "no-manifest": (apk(None), "INSTALL_PARSE_FAILED_BAD_MANIFEST", "no AndroidManifest.xml"),
    "text-manifest": (apk(b'<manifest package="com.example.demo"/>'),
                      "INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", "not binary XML"),
    "truncated": (apk(_manifest_bytes()[:300]), "INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", "claims"),
    "pool-too-many-strings": (apk(struct.pack("<HHI", 0x0003, 8, 48)
                                  + struct.pack("<HHIIIIII", 0x0001, 28, 40, 1000, 0, 0, 40, 0) + b"\0" * 12),
                              "INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", "1000 strings cannot fit"),
    "no-package": (apk(axml(El("manifest", {"android:versionCode": 1}))),
                   "INSTALL_PARSE_FAILED_BAD_PACKAGE_NAME", "is not a package name"),
    "one-part-package": (apk(axml(manifest("demo"))), "INSTALL_PARSE_FAILED_BAD_PACKAGE_NAME", "'demo'"),
    "root-not-manifest": (apk(axml(El("application", {"package": "com.example.demo"}))),
                          "INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", "<application>, not <manifest>"),
    "version-code-text": (apk(axml(El("manifest", {"package": "com.example.demo",
                                                   "android:versionCode": "one"}))),
                          "INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", "android:versionCode is 'one'"),
}


@pytest.mark.parametrize("case", list(NEAR_MISSES))
def test_an_unreadable_apk_is_a_failure_pm_prints(phone: Phone, case: str) -> None:
    data, reason, detail = NEAR_MISSES[case]
    out, _, code = sh(phone, f"pm install -r -t {put(phone, data)}")
    assert code == 1 and out.startswith(f"Failure [{reason}: ") and out.endswith("]\n"), out
    assert detail in out and "/data/local/tmp/app.apk" in out
    assert "com.example.demo" not in sh(phone, "pm list packages")[0]


def test_a_missing_apk_file_is_named(phone: Phone) -> None:
    _, err, code = sh(phone, "pm install /data/local/tmp/none.apk")
    assert code == 1 and "Can't open file: /data/local/tmp/none.apk" in err


def test_a_label_that_is_a_resource_falls_back_to_the_package_name() -> None:
    info = read_apk(apk(axml(manifest("com.example.demo", label=("ref", 0x7F0F0001)))), "/x.apk")
    assert info.label == "com.example.demo"


def test_axml_errors_are_typed() -> None:
    with pytest.raises(ax.AxmlError, match="RES_XML_TYPE"):
        ax.parse(b"\x00\x00")
    with pytest.raises(InstallError) as caught:
        read_apk(b"", "/x.apk")
    assert caught.value.reason == "INSTALL_PARSE_FAILED_NOT_APK"


def test_an_installed_keyboard_is_listed_selectable_and_falls_back_when_removed(phone: Phone) -> None:
    sh(phone, f"pm install {put(phone, apk(axml(manifest('com.example.kbd', ime='.Keys'))))}")
    assert "com.example.kbd/.Keys" in sh(phone, "ime list -s -a")[0].splitlines()
    assert sh(phone, "ime enable com.example.kbd/.Keys")[2] == 0
    assert sh(phone, "ime set com.example.kbd/.Keys")[0] == \
        "Input method com.example.kbd/.Keys selected for user #0\n"
    assert sh(phone, "settings get secure default_input_method")[0] == "com.example.kbd/.Keys\n"
    sh(phone, "pm uninstall com.example.kbd")
    assert "com.example.kbd/.Keys" not in sh(phone, "ime list -s -a")[0]
    assert sh(phone, "settings get secure default_input_method")[0] != "com.example.kbd/.Keys\n"
    assert sh(phone, "ime set com.example.kbd/.Keys")[2] == 255


def test_manifest_text_cannot_forge_lines_of_pm_or_dumpsys(phone: Phone) -> None:
    forged = apk(axml(manifest("com.example.demo",
                               version_name="1.0\n    firstInstallTime=1999-01-01 00:00:00")))
    assert sh(phone, f"pm install {put(phone, forged)}")[0].endswith("Success\n")
    dump = sh(phone, "dumpsys package com.example.demo")[0]
    assert "versionName=1.0\\n    firstInstallTime=1999" in dump
    assert "\n    firstInstallTime=1999" not in dump
    bad_perm = apk(axml(manifest("com.example.demo2", permissions=("android.permission.CAMERA\nfake",))))
    out = sh(phone, f"pm install {put(phone, bad_perm, '/data/local/tmp/p.apk')}")[0]
    assert out.startswith("Failure [INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: ") and "<uses-permission>" in out
    bad_ime = apk(axml(manifest("com.example.demo3", ime=".Keys\ncom.evil/.Fake")))
    out = sh(phone, f"pm install {put(phone, bad_ime, '/data/local/tmp/i.apk')}")[0]
    assert out.startswith("Failure [INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: ") and "<service>" in out


def test_pm_install_reading_dev_null_as_adb_install_runs_it(phone: Phone) -> None:
    """Stock `adb install` runs `pm install ... < /dev/null`: the shell could not open /dev/null."""
    out, err, code = sh(phone, f"pm install -r {put(phone, demo())} < /dev/null")
    assert (out.splitlines()[-1], err, code) == ("Success", "", 0)


@pytest.mark.slow
@pytest.mark.parametrize("adb", adb_client_params())
def test_stock_adb_install_and_uninstall(adb: Path, tmp_path: Path) -> None:
    path = tmp_path / "demo.apk"
    path.write_bytes(demo(version_code=9, version_name="9.0"))
    with running_front(1) as front:
        done = run_adb(adb, front.port, "-s", "simphone-1", "install", "-r", str(path), timeout=60)
        assert b"Success" in done.stdout and b"can't open" not in done.stderr, done
        assert front.server.phones[0].installed["com.example.demo"].info.version_name == "9.0"
        gone = run_adb(adb, front.port, "-s", "simphone-1", "uninstall", "com.example.demo", timeout=60)
        assert b"Success" in gone.stdout, gone
        assert "com.example.demo" not in front.server.phones[0].installed


def test_dumpsys_package_without_a_name_dumps_every_package(phone: Phone) -> None:
    sh(phone, f"pm install {put(phone, demo(version_name='7.7'))}")
    dump = sh(phone, "dumpsys package")[0]
    assert "Package [com.example.demo]" in dump and "versionName=7.7" in dump
    assert "Package [com.simphone.browser]" in dump
