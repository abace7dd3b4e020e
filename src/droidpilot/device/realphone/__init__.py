"""The real-phone backend: AdbDevice drives a phone, an emulator or a served SimPhone through an adb server.

Not SimPhone's ADB front (``device.adbd``), which plays the phone's side of the protocol. ``device``
holds AdbDevice; ``apps``, ``errors``, ``input`` and ``server`` are its helpers.
"""

from droidpilot.device.realphone.device import (
    DUMP_PATH,
    KEYCODES,
    AdbDevice,
    ShellResult,
    list_serials,
    parse_size,
)

__all__ = ["DUMP_PATH", "KEYCODES", "AdbDevice", "ShellResult", "list_serials", "parse_size"]
