"""What `pm install` reads from an APK: its binary AndroidManifest.xml's package, version, label,
requested permissions, activities and input-method services. A label that is a string resource is
looked up in the APK's resources.arsc for the phone's locale, as the launcher shows it.

An APK it cannot read is an ``InstallError`` carrying the reason code `pm` prints
(``INSTALL_PARSE_FAILED_NOT_APK``, ``..._BAD_MANIFEST``, ``..._MANIFEST_MALFORMED``) and what is wrong.
As Android 11+ does, an APK targeting SDK 30 or higher whose resources.arsc is compressed or not on a
4-byte boundary is refused (``INSTALL_PARSE_FAILED_RESOURCES_ARSC_COMPRESSED``, printed as -124).
"""

from __future__ import annotations

import io
import logging
import re
import struct
import zipfile
from dataclasses import dataclass, replace

from droidpilot.device.adbd import arsc, axml

# android:* attribute resource ids (android.R.attr), for manifests whose attribute names were stripped
LABEL, NAME, PERMISSION = 0x01010001, 0x01010003, 0x01010006
VERSION_CODE, VERSION_NAME = 0x0101021B, 0x0101021C
MIN_SDK, TARGET_SDK = 0x0101020C, 0x01010270
INPUT_METHOD_ACTION = "android.view.InputMethod"
MAX_MANIFEST = 8 * 1024 * 1024  # bytes; real manifests are kilobytes
MAX_RESOURCES = 64 * 1024 * 1024  # bytes of resources.arsc; big apps have a few megabytes
PHONE_LOCALE = "en-US"  # SimPhone's persist.sys.locale
ARSC_MAPPED_FROM_SDK = 30  # Android R: resources.arsc is mapped from the APK, so it must be stored aligned
ARSC_COMPRESSED = "INSTALL_PARSE_FAILED_RESOURCES_ARSC_COMPRESSED"  # PackageManager's -124
ARSC_COMPRESSED_DETAIL = ("Failed parse during installPackageLI: Targeting R+ (version 30 and above) "
                          "requires the resources.arsc of installed APKs to be stored uncompressed and "
                          "aligned on a 4-byte boundary")  # what pm prints after "Failure [-124: "
log = logging.getLogger(__name__)
_PACKAGE = re.compile(r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+")
_NAME = re.compile(r"[A-Za-z0-9_.$]+")  # permission and class names: printed one per line by pm/ime


class InstallError(Exception):
    """`pm install` refuses the APK: ``reason`` is the code in ``Failure [REASON: detail]``."""

    def __init__(self, reason: str, detail: str, printed: str | None = None, hint: str = "") -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
        self.printed = printed or reason  # how `pm` names it: the reason, or a number for newer codes
        self.hint = hint  # what exactly is wrong and how to fix it, beyond Android's own words


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
    label_from: str = "manifest"  # where the label came from: the manifest, resources.arsc, or why neither
    label_res: int = 0  # the string resource the manifest names as the label (0: the label is plain text)


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


def read_apk(data: bytes, path: str, locale: str = PHONE_LOCALE) -> ApkInfo:
    """The manifest facts of the APK ``data`` (found at ``path`` on the phone, named in errors), its label
    as a phone in ``locale`` shows it."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            manifest = _member(z, "AndroidManifest.xml", MAX_MANIFEST, path)
            if manifest is None:
                raise InstallError("INSTALL_PARSE_FAILED_BAD_MANIFEST",
                                   f"Failed to parse {path}: no AndroidManifest.xml in the APK")
            try:
                root = axml.parse(manifest)
            except axml.AxmlError as exc:
                raise InstallError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED",
                                   f"Failed to parse {path}: AndroidManifest.xml: {exc}") from None
            info = _manifest(root, path)
            if info.target_sdk >= ARSC_MAPPED_FROM_SDK:
                _check_arsc_stored(z, data, path, info.target_sdk)
            if info.label_res:
                info = _resource_label(info, _member(z, "resources.arsc", MAX_RESOURCES, path), path, locale)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError, OSError) as exc:
        raise InstallError("INSTALL_PARSE_FAILED_NOT_APK",
                           f"Failed to parse {path}: not a zip archive an APK is ({exc})") from None
    return info


def _check_arsc_stored(z: zipfile.ZipFile, data: bytes, path: str, target_sdk: int) -> None:
    """Refuse a resources.arsc that is compressed or whose data does not start on a 4-byte boundary (an
    APK without one passes), as PackageManager does for targetSdkVersion 30 and up."""
    try:
        entry = z.getinfo("resources.arsc")
    except KeyError:
        return
    at = entry.header_offset
    if data[at:at + 4] != b"PK\x03\x04" or len(data) < at + 30:
        raise zipfile.BadZipFile(f"no local header for resources.arsc at offset {at}")
    name_len, extra_len = struct.unpack_from("<HH", data, at + 26)
    start = at + 30 + name_len + extra_len
    if entry.compress_type != zipfile.ZIP_STORED:
        wrong = f"it is compressed (zip method {entry.compress_type})"
    elif start % 4:
        wrong = f"its data starts at byte {start}, not a multiple of 4"
    else:
        return
    raise InstallError(ARSC_COMPRESSED, ARSC_COMPRESSED_DETAIL, printed="-124",
                       hint=f"{path} targets SDK {target_sdk} and its resources.arsc cannot be mapped: "
                            f"{wrong}. Store it uncompressed and align the APK (zipalign -p -f 4), or target "
                            "SDK 29 or lower.")


def _member(z: zipfile.ZipFile, name: str, limit: int, path: str) -> bytes | None:
    """The bytes of ``name`` in the APK (None when absent); a member over ``limit`` bytes is refused."""
    try:
        entry = z.getinfo(name)
    except KeyError:
        return None
    if entry.file_size > limit:
        raise InstallError("INSTALL_PARSE_FAILED_BAD_MANIFEST",
                           f"Failed to parse {path}: {name} is {entry.file_size} bytes (at most {limit})")
    return z.read(entry)


def _resource_label(info: ApkInfo, table: bytes | None, path: str, locale: str) -> ApkInfo:
    """``info`` with its ``@0x...`` label replaced by the string resource's text, or by the package name
    (as Android's PackageItemInfo.loadLabel falls back) with the reason in ``label_from``."""
    ref = info.label
    if table is None:
        why = f"the label is the resource {ref} but the APK has no resources.arsc"
    else:
        try:
            text, found_in = arsc.parse(table).resolve(info.label_res, locale)
        except arsc.ArscError as exc:
            raise InstallError("INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION",
                               f"Failed to parse {path}: resources.arsc: {exc}") from None
        except arsc.Unresolved as exc:
            why = f"the label is the resource {ref}, which has no text here: {exc}"
        else:
            where = f"the {found_in} configuration" if found_in else "the default configuration"
            return replace(info, label=text, label_from=f"resources.arsc {ref} ({where})")
    log.warning("%s: %s; the package name %s stands for it, as on Android", path, why, info.package)
    return replace(info, label=info.package, label_from=f"package name: {why}")


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
    label_attr = app.attr("label", LABEL) if app else None
    label_res = label_attr.data if label_attr and label_attr.kind == axml.TYPE_REFERENCE else 0
    label = (str(label_attr.value) if label_attr else "") or package
    activities = tuple(short_class(package, _name(n, "activity", path)) for el in root.iter("activity")
                       if (n := _text(el, "name", NAME)))
    imes = []
    for svc in root.iter("service"):
        actions = {_text(a, "name", NAME) for a in svc.iter("action")}
        svc_name = _text(svc, "name", NAME)
        if svc_name and INPUT_METHOD_ACTION in actions:
            imes.append(short_class(package, _name(svc_name, "service", path)))
    return ApkInfo(package, code, name, label, perms, activities, tuple(imes), min_sdk, target,
                   label_res=label_res)
