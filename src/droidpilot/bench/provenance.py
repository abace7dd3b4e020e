"""What a benchmark run needs to be reproduced, recorded in ``results.json`` and shown in the report header.

The model and the endpoint's host (never a key, user info or query string), every setting, the suite's
name, version and content hash, droidpilot's version and git revision, the SimPhone seed of every task,
the date, and the machine.
"""

from __future__ import annotations

import hashlib
import os
import platform
import subprocess
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import droidpilot
from droidpilot.bench.task import Suite
from droidpilot.bench.worker import RunConfig
from droidpilot.errors import InputError

# Settings a resumed run must share with the run it continues (the others may differ, e.g. --devices).
RESUME_KEYS = ("brain", "model", "base_url", "max_steps", "lang", "extended_actions", "coord_space",
               "temperature", "seed", "trials", "image_max_side", "check_completion", "ocr",
               "instances", "templates", "tier", "loop", "role_models", "memory", "evolve")


def suite_digest(suite: Suite) -> str:
    """SHA-256 over the suite's task files (names and bytes, in name order): changes when any task does."""
    digest = hashlib.sha256()
    for task in sorted(suite.tasks, key=lambda t: t.path.name):
        digest.update(task.path.name.encode("utf-8") + b"\0")
        digest.update(task.path.read_bytes() + b"\0")
    return digest.hexdigest()


def git_revision(folder: Path | None = None) -> dict[str, Any]:
    """``{"revision", "dirty"}`` of the checkout droidpilot runs from (Nones when it is not a checkout)."""
    where = folder or Path(droidpilot.__file__).resolve().parent
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=where, capture_output=True, text=True,
                             timeout=5, check=False)
        if rev.returncode != 0:
            return {"revision": None, "dirty": None}
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=where,
                                capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return {"revision": None, "dirty": None}
    return {"revision": rev.stdout.strip(), "dirty": bool(status.stdout.strip())}


def endpoint_host(base_url: str | None) -> str | None:
    """``host[:port]`` of an endpoint URL, without user info, path or query (None when there is none)."""
    if not base_url:
        return None
    try:
        parts = urlsplit(base_url)
        host = parts.hostname or ""
        return f"{host}:{parts.port}" if parts.port else (host or None)
    except ValueError:
        return None


def _model_and_host(config: RunConfig) -> tuple[str | None, str | None]:
    if config.brain != "openai":
        return config.model, endpoint_host(config.base_url)
    from droidpilot.llm.endpoint import resolve_base_url, resolve_model

    try:
        model: str | None = resolve_model(config.model)
    except InputError:
        model = config.model
    try:
        url: str | None = resolve_base_url(config.base_url)
    except InputError:
        url = config.base_url
    return model, endpoint_host(url)


def settings(config: RunConfig) -> dict[str, Any]:
    """Every setting of the run that shapes its numbers (paths and the endpoint URL left out)."""
    skip = {"out", "suite", "base_url", "responses", "traces_dir", "adb_host", "adb_port"}
    out = {k: v for k, v in asdict(config).items() if k not in skip}
    out["responses"] = Path(config.responses).name if config.responses else None
    out["memory"] = Path(config.memory).name if config.memory else None
    return out


def machine() -> dict[str, Any]:
    """The machine the run ran on: host name, OS, CPU architecture and count, Python."""
    return {"hostname": platform.node(), "os": f"{platform.system()} {platform.release()}",
            "arch": platform.machine(), "cpus": os.cpu_count(), "python": platform.python_version()}


def run_metadata(config: RunConfig, devices: Sequence[str], suite: Suite, seeds: dict[str, int],
                 started: float | None = None) -> dict[str, Any]:
    """The provenance block of ``results.json`` (see the module docstring)."""
    model, host = _model_and_host(config)
    when = time.gmtime(started if started is not None else time.time())
    return {
        "model": model,
        "endpoint_host": host,
        "settings": settings(config),
        "suite_info": {"name": suite.name, "version": suite_version(suite), "sha256": suite_digest(suite),
                       "tasks": len(suite.tasks)},
        "droidpilot": {"version": droidpilot.__version__, **git_revision()},
        "agent_loop": agent_loop(config),
        "seeds": dict(seeds),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", when),
        "machine": machine(),
        "devices_used": list(devices),
    }


def agent_loop(config: RunConfig) -> dict[str, Any]:
    """The loop of the run, the roles with their own model, and (loop e) the memory version it starts from
    (each result row names the version its task used and left)."""
    out: dict[str, Any] = {"loop": config.loop, "role_models": list(config.role_models)}
    if config.memory is not None:
        from droidpilot.agent.memory.store import MemoryStore

        versions = MemoryStore(config.memory).versions()
        out["memory"] = {"folder": Path(config.memory).name,
                         "version_at_start": versions[-1] if versions else 0, "evolve": config.evolve}
    return out


def suite_version(suite: Suite) -> str:
    """The suite's declared version (``VERSION.txt`` in its folder; bump it when a task changes)."""
    path = Path(suite.folder) / "VERSION.txt"
    try:
        return path.read_text(encoding="utf-8").strip() or "unversioned"
    except OSError:
        return "unversioned"


def settings_changed(previous: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """The RESUME_KEYS whose values differ between an earlier run's settings and this run's."""
    if not previous:
        return []
    return [f"{k}: {previous.get(k)!r} -> {current.get(k)!r}" for k in RESUME_KEYS
            if k in previous and previous.get(k) != current.get(k)]
