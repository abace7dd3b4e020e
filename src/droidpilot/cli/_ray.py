"""The ``--ray [ADDRESS]`` option shared by ``bench`` and ``verify-batch``."""

from __future__ import annotations

from collections.abc import Sequence

import typer

LOCAL = "local"

RAY_HELP = ("Run on Ray: --ray alone starts a local Ray for the run (127.0.0.1 only); --ray auto joins the "
            "cluster this machine belongs to; --ray ray://HEAD:10001 or HEAD:6379 connects to one, which "
            "must answer within DROIDPILOT_RAY_TIMEOUT seconds (default 30). Needs the 'ray' extra.")


def ray_option(extra: str = "") -> object:
    """The ``--ray`` option (a bare ``--ray`` arrives as "local", see :func:`bare_ray_flag`)."""
    return typer.Option(None, "--ray", metavar="[ADDRESS]", help=RAY_HELP + (" " + extra if extra else ""))


def bare_ray_flag(argv: Sequence[str]) -> list[str]:
    """``argv`` with a bare ``--ray`` (last, or followed by another option) spelt ``--ray=local``: Typer
    has no option whose value may be left out."""
    out = list(argv)
    for i, arg in enumerate(out):
        if arg == "--":
            break
        if arg == "--ray" and (i + 1 == len(out) or out[i + 1].startswith("-")):
            out[i] = f"--ray={LOCAL}"
    return out


def ray_address(value: str | None) -> str | None:
    """What ``ray_env.connect`` takes for an option value (None: a local Ray); InputError when malformed."""
    from droidpilot.ray_env import check_address

    return None if value in (None, LOCAL) else check_address(value)
