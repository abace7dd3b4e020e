"""`droidpilot sim serve`: SimPhones as adb devices on a loopback port, for `adb -P PORT` and adbutils."""

from __future__ import annotations

import logging
import signal

import typer

from droidpilot.cli._common import err_console, guard
from droidpilot.cli.sim import sim_app


@sim_app.command("serve")
def serve(
    port: int = typer.Option(5037, "--port", "-p", help="TCP port of the adb server (0 = any free port)."),
    devices: int = typer.Option(1, "--devices", "-n", min=1, max=64, help="How many SimPhones to serve."),
    host: str = typer.Option("127.0.0.1", "--host", help="Loopback address to listen on (127.0.0.1 or ::1)."),
    size: str = typer.Option("1080x2400", "--size", help="Screen size WIDTHxHEIGHT of every phone."),
    theme: str = typer.Option("light", "--theme", help="light or dark."),
    seed: int = typer.Option(0, "--seed", help="Seed of the phones' state (phone i gets seed+i-1)."),
    allow_kill: bool = typer.Option(True, "--allow-kill/--refuse-kill",
                                    help="Whether `adb kill-server` (host:kill) may stop this server."),
    realtime: bool = typer.Option(False, "--realtime/--virtual-time",
                                  help="Let the phones' clocks follow the wall clock between requests "
                                       "(default: virtual time, one second per input event, deterministic)."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Print every request clients send."),
) -> None:
    """Serve N SimPhones (serials simphone-1..N) over the adb server protocol, on loopback only.

    Then: `adb -P PORT devices -l`, `adb -P PORT -s simphone-1 shell input tap 540 1200`,
    `adb -P PORT exec-out screencap -p > shot.png`, or AdbDevice("simphone-1", port=PORT); uiautomator2
    clients connect unchanged with ANDROID_ADB_SERVER_PORT=PORT and u2.connect("simphone-1").
    Stop with Ctrl-C (or `adb -P PORT kill-server`).
    """
    from droidpilot.device.adbd.server import AdbServer, check_loopback
    from droidpilot.device.sim.phone import SimDevice

    if verbose:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        adbd_log = logging.getLogger("droidpilot.device.adbd")
        adbd_log.addHandler(handler)
        adbd_log.setLevel(logging.DEBUG)
    with guard():
        from droidpilot import limits

        limits.check("--seed", seed, limits.SEED)
        if not 0 <= port <= limits.PORT.high:
            raise limits.LimitError(f"--port must be from 0 (any free port) to {limits.PORT.high}, "
                                    f"got {port}")
        check_loopback(host)
        sims = [SimDevice(serial=f"simphone-{i}", size=size, theme=theme, seed=seed + i - 1)
                for i in range(1, devices + 1)]
        server = AdbServer(sims, host=host, port=port, allow_kill=allow_kill, realtime=realtime).start()
        err_console.print(f"SimPhone adb server on {server.host}:{server.port} with {devices} device(s): "
                          f"{', '.join(p.serial for p in server.phones)}", highlight=False)
        err_console.print(f"try: adb -P {server.port} devices -l", highlight=False)
        err_console.print(f"uiautomator2: ANDROID_ADB_SERVER_PORT={server.port} python -c "
                          f"\"import uiautomator2 as u2; d = u2.connect('{server.phones[0].serial}'); "
                          f"print(d.info)\"", highlight=False, soft_wrap=True)
        signal.signal(signal.SIGTERM, lambda *_: server.stop())
        try:
            server.wait()
        finally:
            server.stop()
    err_console.print("SimPhone adb server stopped")


def register(app: typer.Typer) -> None:
    """The `serve` command lives on the `sim` sub-app, which cli/sim.py registers."""
