"""Turning adb failures into DeviceErrors that say what failed, on which device, and the device's own words.

Also decides which failures are a dropped connection (worth one reconnect) and which are final.
"""

from __future__ import annotations

import socket

from adbutils.errors import AdbConnectionError, AdbError, AdbTimeout

from droidpilot.device.base import DeviceError

# a server or a device that went away: reconnecting once may help
DROPPED = (AdbConnectionError, AdbTimeout, ConnectionError, EOFError, socket.timeout, OSError)
_TRANSIENT_FAIL = ("not found", "offline", "closed", "no devices", "device still", "unauthorized",
                   "unknown data: b''")


class CommandFailed(DeviceError):
    """A command ran on the device and reported failure (not a connection problem: never retried)."""


def is_dropped(exc: BaseException) -> bool:
    """True when ``exc`` means the connection or the device went away (not that a command failed)."""
    if isinstance(exc, CommandFailed):
        return False
    if isinstance(exc, AdbError) and not isinstance(exc, (AdbConnectionError, AdbTimeout)):
        return any(t in str(exc).lower() for t in _TRANSIENT_FAIL)
    return isinstance(exc, DROPPED)


def describe(exc: BaseException) -> str:
    """The reason in the adb server's or the OS's words."""
    if isinstance(exc, AdbConnectionError | AdbTimeout):
        text = str(exc) or type(exc).__name__
        if "refused" in text.lower():
            text += (" (is an adb server running there? `adb start-server`, or `droidpilot sim serve` "
                     "for SimPhones)")
        return text
    if isinstance(exc, AdbError):
        text = str(exc.args[0]) if exc.args else "adb error"
        return "the adb server closed the connection" if text == "Unknown data: b''" else text
    if isinstance(exc, EOFError):
        return f"the adb server closed the connection ({exc})" if str(exc) else "the connection closed"
    if isinstance(exc, OSError):
        return exc.strerror or str(exc) or type(exc).__name__
    return str(exc) or type(exc).__name__


def device_error(serial: str, what: str, exc: BaseException, where: str,
                 retried: bool = False) -> DeviceError:
    """A DeviceError naming the device, the operation, the adb server, and the reason."""
    again = " after reconnecting once" if retried else ""
    return DeviceError(f"{serial}: {what} failed{again}: {describe(exc)} (adb server {where})")


def command_failed(serial: str, command: str, output: str, code: int | None = None) -> CommandFailed:
    """The device refused ``command``; ``output`` is what it printed."""
    text = output.strip() or "no output"
    status = f", exit status {code}" if code is not None else ""
    return CommandFailed(f"{serial}: `{command}` failed{status}: {text[:500]}")
