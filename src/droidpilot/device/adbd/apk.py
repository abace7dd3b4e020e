"""What `pm install` reads from an APK: its binary AndroidManifest.xml's package, version, label,
requested permissions, activities and input-method services.

An APK it cannot read is an ``InstallError`` carrying the reason code `pm` prints
(``INSTALL_PARSE_FAILED_NOT_APK``, ``..._BAD_MANIFEST``, ``..._MANIFEST_MALFORMED``) and what is wrong.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass

from droidpilot.device.adbd import axml

# android:* attribute resource ids (android.R.attr), for manifests whose attribute names were stripped
LABEL, NAME, PERMISSION = 0x01010001, 0x01010003, 0x01010006
VERSION_CODE, VERSION_NAME = 0x0101021B, 0x0101021C
MIN_SDK, TARGET_SDK = 0x0101020C, 0x01010270
INPUT_METHOD_ACTION = "android.view.InputMethod"
MAX_MANIFEST = 8 * 1024 * 1024  # bytes; real manifests are kilobytes
_PACKAGE = re.compile(r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+")
_NAME = re.compile(r"[A-Za-z0-9_.$]+")  # permission and class names: printed one per line by pm/ime


class InstallError(Exception):
    """`pm install` refuses the APK: ``reason`` is the code in ``Failure [REASON: detail]``."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class ApkInfo:
    """The manifest facts Android's package manager keeps for an installed package."""

    package: str
    version_code: int
    version_name: str | None
    label: str
    permissions: tuple[str, ...]
    activities: tuple[str, ...]  # component class names, short form (".Main") where in the package
    input_methods: tuple[str, ...]  # services that are input methods, short form
    min_sdk: int
    target_sdk: int


def short_class(package: str, name: str) -> str:
    """A component class as Android prints it: ``.Cls`` for a class inside the package."""
    full = package + name if name.startswith(".") else name if "." in name else f"{package}.{name}"
    return full[len(package):] if full.startswith(package + ".") else full


def _text(el: axml.Element, name: str, res_id: int) -> str | None:
    attr = el.attr(name, res_id)
    return None if attr is None else str(attr.value)


def _int(el: axml.Element, name: str, res_id: int, default: int, where: str) -> int:
    attr = el.attr(name, res_id)
    if attr is None:
        return default
    value = attr.value
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.isdigit():
            return int(value)
        raise InstallError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
                           f"{where} android:{name} is {value!r}, not a whole number")
    return value


def read_apk(data: bytes, path: str) -> ApkInfo:
    """The manifest facts of the APK ``data`` (found at ``path`` on the phone, named in errors)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            try:
                entry = z.getinfo("AndroidManifest.xml")
            except KeyError:
                raise InstallError("INSTALL_PARSE_FAILED_BAD_MANIFEST",
                                   f"Failed to parse {path}: no AndroidManifest.xml in the APK") from None
            if entry.file_size > MAX_MANIFEST:
                raise InstallError("INSTALL_PARSE_FAILED_BAD_MANIFEST", f"Failed to parse {path}: "
                                   f"AndroidManifest.xml is {entry.file_size} bytes (at most {MAX_MANIFEST})")
            manifest = z.read(entry)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError, OSError) as exc:
        raise InstallError("INSTALL_PARSE_FAILED_NOT_APK",
                           f"Failed to parse {path}: not a zip archive an APK is ({exc})") from None
    try:
        root = axml.parse(manifest)
    except axml.AxmlError as exc:
        raise InstallError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
                           f"Failed to parse {path}: AndroidManifest.xml: {exc}") from None
    return _manifest(root, path)


def _name(value: str, tag: str, path: str) -> str:
    """A permission or class name, which `pm` and `ime` print one per line: letters, digits, ``_.$``."""
    if not _NAME.fullmatch(value):
        raise InstallError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
                           f"Failed to parse {path}: <{tag}> android:name {value[:100]!r} is not a valid "
                           "name (letters, digits, '_', '.' and '$' only)")
    return value


def _manifest(root: axml.Element, path: str) -> ApkInfo:
    if root.tag != "manifest":
        raise InstallError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
                           f"Failed to parse {path}: the root element is <{root.tag}>, not <manifest>")
    package = _text(root, "package", 0) or ""
    if not _PACKAGE.fullmatch(package):
        raise InstallError("INSTALL_PARSE_FAILED_BAD_PACKAGE_NAME",
                           f"Failed to parse {path}: <manifest> package {package[:100]!r} is not a package "
                           f"name (two or more dot-separated parts, like com.example.app)")
    where = f"<manifest> of {path}:"
    code = _int(root, "versionCode", VERSION_CODE, 0, where)
    name = _text(root, "versionName", VERSION_NAME)
    sdk = next(iter(root.iter("uses-sdk")), None)
    min_sdk = _int(sdk, "minSdkVersion", MIN_SDK, 1, where) if sdk else 1
    target = _int(sdk, "targetSdkVersion", TARGET_SDK, min_sdk, where) if sdk else min_sdk
    perms = tuple(dict.fromkeys(_name(p, "uses-permission", path) for el in root.iter("uses-permission")
                                if (p := _text(el, "name", NAME))))
    app = next(iter(root.iter("application")), None)
    label = (_text(app, "label", LABEL) if app else None) or ""
    if not label or label.startswith("@0x"):  # a string resource: its text is in resources.arsc
        label = package
    activities = tuple(short_class(package, _name(n, "activity", path)) for el in root.iter("activity")
                       if (n := _text(el, "name", NAME)))
    imes = []
    for svc in root.iter("service"):
        actions = {_text(a, "name", NAME) for a in svc.iter("action")}
        svc_name = _text(svc, "name", NAME)
        if svc_name and INPUT_METHOD_ACTION in actions:
            imes.append(short_class(package, _name(svc_name, "service", path)))
    return ApkInfo(package, code, name, label, perms, activities, tuple(imes), min_sdk, target)
