"""The package manager's records of APKs installed with `pm install`, and `dumpsys package` for them.

SimPhone's own apps are part of its system image; these records are what a client added. Each keeps the
manifest facts, install/update times (the phone's own clock) and which runtime permissions are granted.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from droidpilot.device.adbd.apk import ApkInfo

# runtime ("dangerous") permissions of Android 14: granted with `pm grant`, listed granted=false until then
RUNTIME_PERMISSIONS = frozenset("android.permission." + p for p in (
    "ACCESS_BACKGROUND_LOCATION", "ACCESS_COARSE_LOCATION", "ACCESS_FINE_LOCATION", "ACCESS_MEDIA_LOCATION",
    "ACTIVITY_RECOGNITION", "ANSWER_PHONE_CALLS", "BLUETOOTH_ADVERTISE", "BLUETOOTH_CONNECT",
    "BLUETOOTH_SCAN",
    "BODY_SENSORS", "CALL_PHONE", "CAMERA", "GET_ACCOUNTS", "NEARBY_WIFI_DEVICES", "POST_NOTIFICATIONS",
    "READ_CALENDAR", "READ_CALL_LOG", "READ_CONTACTS", "READ_EXTERNAL_STORAGE", "READ_MEDIA_AUDIO",
    "READ_MEDIA_IMAGES", "READ_MEDIA_VIDEO", "READ_PHONE_NUMBERS", "READ_PHONE_STATE", "READ_SMS",
    "RECEIVE_MMS", "RECEIVE_SMS", "RECORD_AUDIO", "SEND_SMS", "USE_SIP", "WRITE_CALENDAR", "WRITE_CALL_LOG",
    "WRITE_CONTACTS", "WRITE_EXTERNAL_STORAGE"))
SYSTEM_IMAGE_TIME = "2009-01-01 00:00:00"  # what Android shows for apps of the system image


@dataclass
class Installed:
    """One package installed from an APK."""

    info: ApkInfo
    first_install: str  # "YYYY-MM-DD HH:MM:SS", as dumpsys prints it
    last_update: str
    uid: int
    granted: set[str] = field(default_factory=set)

    @property
    def code_path(self) -> str:
        """Where Android keeps the APK (a hash of the package names the folder, as on Android 11+)."""
        tag = hashlib.sha256(self.info.package.encode()).hexdigest()[:22]
        return f"/data/app/~~{tag}==/{self.info.package}-1"

    def runtime(self) -> list[str]:
        """The requested permissions the user (or `pm grant`) must grant."""
        return [p for p in self.info.permissions if p in RUNTIME_PERMISSIONS]


def shown(text: str) -> str:
    """Manifest text as one line of dumpsys output: line breaks and control characters escaped."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text[:200])


def dump_package(pkg: Installed) -> str:
    """The `dumpsys package PKG` section clients parse (adbutils' app_info, uiautomator2's auto-grant)."""
    i = pkg.info
    sig = hashlib.sha256(i.package.encode()).hexdigest()
    runtime = pkg.runtime()
    lines = [
        "Packages:", f"  Package [{i.package}] ({sig[:7]}):", f"    userId={pkg.uid}",
        f"    pkg=Package{{{sig[7:14]} {i.package}}}", f"    codePath={pkg.code_path}",
        f"    resourcePath={pkg.code_path}", "    primaryCpuAbi=null",
        f"    versionCode={i.version_code} minSdk={i.min_sdk} targetSdk={i.target_sdk}",
        f"    versionName={shown(i.version_name) if i.version_name is not None else 'null'}",
        "    apkSigningVersion=2", "    flags=[ HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]",
        f"    timeStamp={pkg.last_update}", f"    firstInstallTime={pkg.first_install}",
        f"    lastUpdateTime={pkg.last_update}", "    installerPackageName=null",
        f"    signatures=PackageSignatures{{{sig[14:21]} version:2, signatures:[{sig[21:29]}], "
        "past signatures:[]}",
        "    pkgFlags=[ HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]",
    ]
    if i.permissions:
        lines.append("    requested permissions:")
        lines += [f"      {p}" for p in i.permissions]
    install = [p for p in i.permissions if p not in RUNTIME_PERMISSIONS]
    if install:
        lines.append("    install permissions:")
        lines += [f"      {p}: granted=true" for p in install]
    lines.append(f"    User 0: ceDataInode={pkg.uid * 7 + 1} installed=true hidden=false suspended=false "
                 "distractionFlags=0 stopped=false notLaunched=false enabled=0 instant=false virtual=false")
    if runtime:
        lines.append("      runtime permissions:")
        lines += [f"        {p}: granted={str(p in pkg.granted).lower()}, flags=[ ]" for p in runtime]
    return "\n".join(lines) + "\n"


def dump_system_package(package: str, label: str) -> str:
    """The `dumpsys package` section of an app of SimPhone's system image."""
    return (f"Packages:\n  Package [{package}] ({hashlib.sha256(package.encode()).hexdigest()[:7]}):\n"
            f"    codePath=/system/app/{label.replace(' ', '')}\n"
            f"    versionCode=1 minSdk=34 targetSdk=34\n    versionName=1.0\n"
            f"    flags=[ SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA ]\n"
            f"    timeStamp={SYSTEM_IMAGE_TIME}\n    firstInstallTime={SYSTEM_IMAGE_TIME}\n"
            f"    lastUpdateTime={SYSTEM_IMAGE_TIME}\n"
            f"    pkgFlags=[ SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA ]\n"
            f"    User 0: installed=true hidden=false suspended=false stopped=false enabled=0\n")
