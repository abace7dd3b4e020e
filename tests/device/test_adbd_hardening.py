"""The ADB front against hostile requests: bad sync modes, huge FAIL texts, deep ``$( )`` nesting."""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Iterator

import pytest
from tests.device.adbd_support import Front, read_exact, running_front

from droidpilot.device.adbd import protocol
from droidpilot.device.adbd.protocol import MAX_BLOCK, fit_block
from droidpilot.device.adbd.sh import MAX_SUBST_DEPTH


@pytest.fixture(scope="module")
def front() -> Iterator[Front]:
    with running_front(1) as f:
        yield f


def _send(s: socket.socket, request: str) -> None:
    data = request.encode()
    s.sendall(b"%04x" % len(data) + data)


def _open(front: Front, service: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", front.port), timeout=10)
    _send(s, "host:transport:simphone-1")
    assert read_exact(s, 4) == b"OKAY"
    _send(s, service)
    assert read_exact(s, 4) == b"OKAY"
    return s


def _push(s: socket.socket, spec: bytes) -> tuple[bytes, str]:
    """SEND ``spec`` with two bytes of data; (OKAY or FAIL, the FAIL message)."""
    s.sendall(b"SEND" + struct.pack("<I", len(spec)) + spec)
    s.sendall(b"DATA" + struct.pack("<I", 2) + b"hi" + b"DONE" + struct.pack("<I", 0))
    kind, length = read_exact(s, 4), struct.unpack("<I", read_exact(s, 4))[0]
    return kind, read_exact(s, length).decode() if kind == b"FAIL" else ""


@pytest.mark.parametrize("mode", ["99999999999999999999", "-10", "abc", "", "0x", "0o644", "0999", "1e3",
                                  " 420", "+420", "420 ", "200000", "0x10000", "\u0664\u0662\u0660"])
def test_sync_send_with_a_bad_mode_fails_and_keeps_the_session(front: Front, mode: str) -> None:
    with _open(front, "sync:") as s:
        kind, message = _push(s, f"/sdcard/Download/m.txt,{mode}".encode())
        assert kind == b"FAIL" and "bad file mode" in message and repr(mode) in message
        assert "decimal, 0-prefixed octal or 0x hex" in message
        s.sendall(b"STAT" + struct.pack("<I", 7) + b"/sdcard")  # the session still answers
        assert read_exact(s, 4) == b"STAT"
        s.sendall(b"QUIT" + bytes(4))


@pytest.mark.parametrize(("mode", "perms"), [("33188", 0o644), ("0100644", 0o644), ("0x81ed", 0o755),
                                             ("420", 0o644), ("0600", 0o600), ("0", 0)])
def test_sync_send_reads_modes_as_strtoul_does(front: Front, mode: str, perms: int) -> None:
    with _open(front, "sync:") as s:
        assert _push(s, f"/sdcard/Download/m-{mode}.txt,{mode}".encode()) == (b"OKAY", "")
        s.sendall(b"QUIT" + bytes(4))
    node = front.server.phones[0].fs.stat(f"/sdcard/Download/m-{mode}.txt")
    assert node.mode & 0o777 == perms


def test_sync_send_without_a_mode_fails_as_adbd_does(front: Front) -> None:
    with _open(front, "sync:") as s:
        kind, message = _push(s, b"/sdcard/Download/nomode.txt")
        assert kind == b"FAIL" and message.startswith("missing , in ID_SEND")
        s.sendall(b"QUIT" + bytes(4))


def test_a_fail_reply_longer_than_the_framing_allows_is_cut_to_fit(front: Front) -> None:
    serial = "x" * (0xFFFF - len("host:transport:"))  # the longest request a client can frame
    with socket.create_connection(("127.0.0.1", front.port), timeout=10) as s:
        _send(s, f"host:transport:{serial}")
        assert read_exact(s, 4) == b"FAIL"
        length = int(read_exact(s, 4), 16)  # exactly four hex digits
        message = read_exact(s, length)
        assert length == MAX_BLOCK and message.endswith(b"...") and message.startswith(b"device 'xxx")


def test_fit_block_cuts_on_a_character_boundary() -> None:
    assert fit_block("short") == b"short"
    cut = fit_block("\u00e9" * 40000)
    assert len(cut) <= MAX_BLOCK and cut.decode("utf-8").endswith("...")


def test_deeply_nested_command_substitution_is_refused_with_a_message(front: Front) -> None:
    line = "$(echo " * 2000 + "hi" + ")" * 2000
    with _open(front, f"shell:echo start; echo {line}") as s:
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    assert out.startswith(b"start\n")
    assert f"nested deeper than {MAX_SUBST_DEPTH} levels".encode() in out


def test_nesting_within_the_limit_still_works(front: Front) -> None:
    line = "$(echo " * 20 + "hi" + ")" * 20
    with _open(front, f"shell:echo {line}") as s:
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    assert out == b"hi\n"


def test_a_request_shorter_than_its_length_prefix_fails_after_the_stall(
        front: Front, monkeypatch: pytest.MonkeyPatch) -> None:
    """A prefix promising 0x20 bytes followed by 8 is a FAIL saying it stalled (not a 120 s wait); a
    client that idles before its next request, and one whose request comes in pieces, are served."""
    monkeypatch.setattr(protocol, "REQUEST_STALL", 1.0)
    with socket.create_connection(("127.0.0.1", front.port), timeout=20) as s:
        s.sendall(b"0020host:ver")
        assert read_exact(s, 4) == b"FAIL"
        message = read_exact(s, int(read_exact(s, 4), 16)).decode()
        assert "protocol fault: the request stalled: nothing more arrived for 1 s" in message
    with socket.create_connection(("127.0.0.1", front.port), timeout=20) as s:
        time.sleep(1.5)  # idle before the request: no stall
        for piece in (b"00", b"0chost:", b"version"):
            s.sendall(piece)
            time.sleep(0.1)
        assert read_exact(s, 4) == b"OKAY"
