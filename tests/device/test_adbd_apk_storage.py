"""`pm install` refuses, as Android 11+ does, an APK targeting SDK 30 or higher whose resources.arsc is
compressed or off a 4-byte boundary (Failure [-124: ...], the line pm and adb install print), and keeps
installing older targets and properly stored tables; the near misses on each side of both rules."""

from __future__ import annotations

import glob
import io
import struct
import sysconfig
import zipfile
from pathlib import Path

import pytest
from tests.device.adbd_support import adb_client_params, run_adb, running_front
from tests.device.apk_builder import apk, axml, manifest
from tests.device.arsc_builder import res_id, table

from droidpilot.device.adbd.apk import ARSC_COMPRESSED, InstallError, read_apk
from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.shell import run
from droidpilot.device.sim.phone import SimDevice

PKG = "com.example.notes"
REFUSED = ("Failure [-124: Failed parse during installPackageLI: Targeting R+ (version 30 and above) "
           "requires the resources.arsc of installed APKs to be stored uncompressed and aligned on a 4-byte "
           "boundary]\n")


def _apk(target: int, arsc: str, resources: bool = True) -> bytes:
    extra = {"resources.arsc": table([{"": "Notes Pro"}])} if resources else {}
    return apk(axml(manifest(PKG, label=("ref", res_id(0)), target_sdk=target)), extra, arsc=arsc)


def _arsc_start(data: bytes) -> tuple[int, int]:
    """(zip method, offset of the data) of the built APK's resources.arsc, to show what was built."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        entry = z.getinfo("resources.arsc")
    name_len, extra_len = struct.unpack_from("<HH", data, entry.header_offset + 26)
    return entry.compress_type, entry.header_offset + 30 + name_len + extra_len


def test_the_builder_stores_the_table_as_asked() -> None:
    method, start = _arsc_start(_apk(30, "aligned"))
    assert method == zipfile.ZIP_STORED and start % 4 == 0
    method, start = _arsc_start(_apk(30, "unaligned"))
    assert method == zipfile.ZIP_STORED and start % 4 == 2
    assert _arsc_start(_apk(30, "deflated"))[0] == zipfile.ZIP_DEFLATED


@pytest.mark.parametrize(("target", "arsc"), [
    (30, "aligned"), (34, "aligned"),  # targeting R+ and stored as Android wants it
    (29, "deflated"), (29, "unaligned"), (21, "deflated"),  # before R the table may be compressed
])
def test_a_table_android_accepts_is_read(target: int, arsc: str) -> None:
    info = read_apk(_apk(target, arsc), "/x.apk")
    assert (info.target_sdk, info.label) == (target, "Notes Pro")


@pytest.mark.parametrize("target", [30, 34])
def test_an_r_plus_apk_without_a_table_installs(target: int) -> None:
    assert read_apk(_apk(target, "deflated", resources=False), "/x.apk").target_sdk == target


@pytest.mark.parametrize(("target", "arsc", "wrong"), [
    (30, "deflated", "it is compressed (zip method 8)"), (34, "deflated", "it is compressed"),
    (30, "unaligned", "not a multiple of 4"),
])
def test_a_compressed_or_unaligned_table_at_target_30_is_refused(target: int, arsc: str, wrong: str) -> None:
    with pytest.raises(InstallError) as caught:
        read_apk(_apk(target, arsc), "/data/local/tmp/x.apk")
    exc = caught.value
    assert exc.reason == ARSC_COMPRESSED and exc.printed == "-124"
    assert f"Failure [{exc.printed}: {exc.detail}]\n" == REFUSED
    assert f"targets SDK {target}" in exc.hint and wrong in exc.hint and "zipalign" in exc.hint


def test_pm_install_prints_androids_failure_line_and_installs_nothing() -> None:
    phone = Phone("simphone-1", 1, SimDevice(serial="simphone-1"))
    phone.fs.write("/data/local/tmp/app.apk", _apk(30, "deflated"))
    res = run(phone, "pm install -r -t /data/local/tmp/app.apk")
    assert (res.out.decode(), res.code) == (REFUSED, 1)
    assert "it is compressed" in res.err.decode() and "target SDK 29 or lower" in res.err.decode()
    assert PKG not in run(phone, "pm list packages").out.decode() and PKG not in phone.installed
    phone.fs.write("/data/local/tmp/app.apk", _apk(29, "deflated"))  # near miss: an older target installs
    res = run(phone, "pm install -r -t /data/local/tmp/app.apk")
    assert (res.out.decode().splitlines()[-1], res.err, res.code) == ("Success", b"", 0)
    assert phone.installed[PKG].info.label == "Notes Pro"


def test_the_real_uiautomator2_apk_is_stored_as_android_wants_and_installs() -> None:
    found = glob.glob(str(Path(sysconfig.get_paths()["purelib"]) / "uiautomator2/assets/app-uiautomator.apk"))
    if not found:
        pytest.skip("the installed uiautomator2 ships no app-uiautomator.apk")
    data = Path(found[0]).read_bytes()
    method, start = _arsc_start(data)
    assert method == zipfile.ZIP_STORED and start % 4 == 0
    assert read_apk(data, found[0]).target_sdk >= 30


@pytest.mark.slow
@pytest.mark.parametrize("adb", adb_client_params())
def test_stock_adb_install_prints_the_failure(adb: Path, tmp_path: Path) -> None:
    path = tmp_path / "notes.apk"
    path.write_bytes(_apk(33, "deflated"))
    with running_front(1) as front:
        done = run_adb(adb, front.port, "-s", "simphone-1", "install", str(path), check=False, timeout=60)
        assert done.returncode != 0
        assert REFUSED.strip() in (done.stdout + done.stderr).decode(), done
        assert PKG not in front.server.phones[0].installed
