"""An APK whose label is ``@string/...`` shows its text: `pm install` reads resources.arsc (own reader) for
the phone's locale (en-US: then en, then the default configuration) and falls back to the package name,
saying why, when the table has no text for it; a malformed table is a Failure, never a traceback."""

from __future__ import annotations

import glob
import sysconfig
from pathlib import Path

import pytest
from tests.device.apk_builder import apk, axml, manifest
from tests.device.arsc_builder import res_id, table

from droidpilot.device.adbd import arsc
from droidpilot.device.adbd.apk import InstallError, read_apk

PKG = "com.example.notes"
LABEL = ("ref", res_id(0))


def _apk(label: object = LABEL, resources: bytes | None = None) -> bytes:
    extra = {"resources.arsc": resources} if resources is not None else {}
    return apk(axml(manifest(PKG, label=label)), extra)


@pytest.mark.parametrize("layout", ["dense", "offset16", "sparse"])
@pytest.mark.parametrize("compact", [False, True], ids=["entries", "compact-entries"])
@pytest.mark.parametrize("utf8", [True, False], ids=["utf8-pool", "utf16-pool"])
def test_a_string_resource_label_is_read_in_every_layout(layout: str, compact: bool, utf8: bool) -> None:
    res = table([{"": "Other"}, {"": "Notes Pro", "fr": "Notes Pro (FR)"}], layout, compact, utf8)
    info = read_apk(_apk(("ref", res_id(1)), res), "/x.apk")
    assert info.label == "Notes Pro"
    assert info.label_from == f"resources.arsc @0x{res_id(1):08x} (the default configuration)"


@pytest.mark.parametrize(("values", "locale", "label", "found_in"), [
    ({"": "Default", "en": "English", "en-US": "American"}, "en-US", "American", "en-US"),
    ({"": "Default", "en": "English", "en-GB": "British"}, "en-US", "English", "en"),
    ({"fr": "Bloc-notes", "": "Notepad"}, "en-US", "Notepad", ""),  # the default comes after in the file
    ({"fr": "Bloc-notes", "": "Notepad"}, "fr-FR", "Bloc-notes", "fr"),
    ({"": "笔记本", "zh-CN": "记事本"}, "zh-CN", "记事本", "zh-CN"),
])
def test_the_phones_locale_then_its_language_then_the_default(values: dict[str, object], locale: str,
                                                               label: str, found_in: str) -> None:
    info = read_apk(_apk(resources=table([values])), "/x.apk", locale=locale)
    assert info.label == label
    assert info.label_from.endswith(f"(the {found_in} configuration)" if found_in
                                    else "(the default configuration)")


def test_a_reference_to_another_string_is_followed() -> None:
    res = table([{"": ("ref", res_id(1))}, {"": "Notes Pro"}])
    assert read_apk(_apk(resources=res), "/x.apk").label == "Notes Pro"


@pytest.mark.parametrize(("entries", "why"), [
    ([{"fr": "Bloc-notes", "de": "Notizblock"}],
     "has values only for de, fr: none for en-US, en or the default"),
    ([{"": ("ref", res_id(0))}], "more than 8 references in a row from the label (a cycle?)"),
    ([{"": ("int", 7)}], "is a value of type 0x10, not a string"),
    ([{}, {"": "Not the label"}], f"resources.arsc has no entry @0x{res_id(0):08x}"),
])
def test_no_text_for_the_label_falls_back_to_the_package_name_saying_why(entries: list[dict[str, object]],
                                                                          why: str) -> None:
    info = read_apk(_apk(resources=table(entries)), "/x.apk")
    assert info.label == PKG
    assert info.label_from.startswith(f"package name: the label is the resource @0x{res_id(0):08x}")
    assert why in info.label_from


def test_a_reference_label_without_a_table_and_a_plain_label_that_looks_like_one() -> None:
    info = read_apk(_apk(), "/x.apk")
    assert (info.label, info.label_from) == (
        PKG, f"package name: the label is the resource @0x{res_id(0):08x} but the APK has no resources.arsc")
    plain = read_apk(_apk("@0x7f020000", table([{"": "Notes Pro"}])), "/x.apk")  # text, not a reference
    assert (plain.label, plain.label_from) == ("@0x7f020000", "manifest")


def test_every_truncation_of_a_table_is_an_install_failure_naming_it() -> None:
    whole = table([{"": "Notes Pro", "fr": "Bloc-notes"}], "sparse")
    for cut in range(0, len(whole), 3):
        with pytest.raises(InstallError) as caught:
            read_apk(_apk(resources=whole[:cut]), "/x.apk")
        assert caught.value.reason == "INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION"
        assert caught.value.detail.startswith("Failed to parse /x.apk: resources.arsc: ")


@pytest.mark.parametrize(("offset", "value", "message"), [
    (0, b"\x03\x00", "does not start with a RES_TABLE_TYPE chunk"),
    (16, b"\xff\xff\xff\x7f", "does not fit"),  # the string pool claims 2 GiB
])
def test_lying_headers_are_named(offset: int, value: bytes, message: str) -> None:
    data = bytearray(table([{"": "Notes Pro"}]))
    data[offset:offset + len(value)] = value
    with pytest.raises(arsc.ArscError, match=message):
        arsc.parse(bytes(data))


def test_the_real_uiautomator2_apks_label_comes_from_its_table() -> None:
    """app-uiautomator.apk was built by aapt: its label is @string/app_name in a table of 85 locales."""
    found = glob.glob(str(Path(sysconfig.get_paths()["purelib"]) / "uiautomator2/assets/app-uiautomator.apk"))
    if not found:
        pytest.skip("the installed uiautomator2 ships no app-uiautomator.apk")
    info = read_apk(Path(found[0]).read_bytes(), found[0])
    assert info.label_res >> 24 == 0x7F
    assert (info.label, info.label_from) == ("ATX", f"resources.arsc @0x{info.label_res:08x} "
                                                    "(the default configuration)")
