"""Reference demonstrations: every seed of a template suite played by the reference policy, recorded as
trace folders and exported as training data, the same bytes whichever way the seeds were spread.

``OUT/traces/<seed>-<task id>/`` holds each episode as a bench run records it; ``OUT/demos.<format>.jsonl``
the exported records of the episodes that won (in seed order); ``OUT/demos.json`` what was asked and what
came of it. Seeds are recorded in chunks: in this process, in ``workers`` local processes, or as Ray tasks
spread over a cluster's nodes (each returning its trace folders as bytes, so ``OUT`` need not be shared).
"""

from __future__ import annotations

import multiprocessing
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from droidpilot.atomicio import atomic_write_json
from droidpilot.errors import InputError
from droidpilot.export.formats import FORMATS
from droidpilot.export.writer import export
from droidpilot.tarpack import pack_folder, unpack_folder

MAX_SEEDS = 1_000_000
CHUNK = 25  # seeds per unit of work handed to a process or a Ray task


@dataclass(frozen=True)
class Demo:
    """One recorded episode: its folder name under ``traces/``, its task and whether it won."""

    name: str
    task_id: str
    seed: int
    success: bool
    steps: int


@dataclass
class DemoSummary:
    """What a demonstration run asked for and produced (``demos.json``)."""

    suite: str
    templates: str | None
    seeds: str
    format: str
    episodes: int = 0
    succeeded: int = 0
    failed: list[str] = field(default_factory=list)  # task ids the reference policy did not win
    records: int = 0
    export: str = ""


def parse_seeds(text: str) -> list[int]:
    """``0-999``, ``3`` or ``0-9,20,30-39`` as a sorted list of distinct seeds; InputError otherwise."""
    seeds: set[int] = set()
    for part in (p.strip() for p in str(text).split(",")):
        match = re.fullmatch(r"(\d{1,7})(?:\s*-\s*(\d{1,7}))?", part)
        if not match:
            raise InputError(f"--seeds {text!r}: {part!r} is not a seed or a range such as 0-999")
        low, high = int(match.group(1)), int(match.group(2) or match.group(1))
        if high < low:
            raise InputError(f"--seeds {text!r}: the range {part} runs backwards; write {high}-{low}")
        if high - low + 1 + len(seeds) > MAX_SEEDS:
            raise InputError(f"--seeds {text!r}: more than {MAX_SEEDS} seeds")
        seeds.update(range(low, high + 1))
    return sorted(seeds)


def record_seeds(seeds: Sequence[int], traces: Path, suite: str = "world", templates: str | None = None
                 ) -> list[Demo]:
    """Play and record each seed's task with the reference policy into ``traces/<seed>-<task id>/``."""
    from droidpilot.gym.factories import world_env
    from droidpilot.gym.recording import RecordTraces
    from droidpilot.gym.reference import ReferencePolicy

    env = RecordTraces(world_env(templates, suite=suite), traces,
                       name=lambda info: f"{info['task_seed']:07d}-{info['task_id']}", durable=False)
    phone = env.unwrapped
    done: list[Demo] = []
    for seed in seeds:
        _, info = env.reset(seed=seed)
        policy, steps, over, success = ReferencePolicy(phone.task), 0, False, False
        while not over:
            _, _, terminated, truncated, step_info = env.step(policy(phone))
            steps, over = steps + 1, terminated or truncated
            success = bool(step_info.get("success"))
        done.append(Demo(env.folders[-1].name, info["task_id"], seed, success, steps))
    env.close()
    return done


def _packed_seeds(seeds: Sequence[int], suite: str, templates: str | None) -> list[tuple[Demo, bytes]]:
    """``record_seeds`` into a temporary folder, each trace folder returned as tar bytes (a Ray task)."""
    with tempfile.TemporaryDirectory(prefix="droidpilot-demos-") as tmp:
        demos = record_seeds(seeds, Path(tmp), suite, templates)
        return [(demo, pack_folder(Path(tmp) / demo.name)) for demo in demos]


def make_demos(out: str | Path, seeds: Sequence[int], *, suite: str = "world", templates: str | None = None,
               fmt: str = "qwen-mobile-use", workers: int = 1, ray_address: str | None = None,
               use_ray: bool = False, seeds_text: str = "", chunk: int = CHUNK,
               on_done: Callable[[Demo], None] | None = None) -> DemoSummary:
    """Record the reference demonstrations of ``seeds`` under ``out`` and export the winning ones as
    ``fmt``; in ``workers`` processes, or on Ray (``use_ray``; ``ray_address`` as ``ray_env.connect``
    takes it), ``chunk`` seeds at a time. ``out/traces`` is replaced; ``on_done`` hears of each episode
    as it is recorded."""
    if fmt not in FORMATS:
        raise InputError(f"--format {fmt!r} is not one of: {', '.join(FORMATS)}")
    if workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    if not seeds:
        raise InputError("no seeds to record; give --seeds such as 0-999")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: exists and is not a folder; give --out a folder")
    _check_suite(suite, templates)
    traces = out / "traces"
    shutil.rmtree(traces, ignore_errors=True)
    traces.mkdir(parents=True)
    chunks = [list(seeds[i:i + chunk]) for i in range(0, len(seeds), max(chunk, 1))]
    if use_ray:
        done = _on_ray(chunks, traces, suite, templates, ray_address, on_done)
    elif workers == 1:
        done = [d for part in chunks for d in _report(record_seeds(part, traces, suite, templates), on_done)]
    else:
        spawn = multiprocessing.get_context("spawn")  # not fork: the parent may hold threads' locks
        with ProcessPoolExecutor(min(workers, len(chunks)), mp_context=spawn) as pool:
            jobs = [pool.submit(record_seeds, part, traces, suite, templates) for part in chunks]
            done = [d for job in jobs for d in _report(job.result(), on_done)]
    done.sort(key=lambda d: d.seed)
    summary = DemoSummary(suite, templates, seeds_text or _seeds_text(seeds), fmt, episodes=len(done),
                          succeeded=sum(d.success for d in done),
                          failed=[d.task_id for d in done if not d.success])
    target = out / f"demos.{fmt}.jsonl"
    summary.records = export([traces], fmt, target).records
    summary.export = target.name
    atomic_write_json(out / "demos.json", {**asdict(summary), "episodes_list": [asdict(d) for d in done]})
    return summary


def _check_suite(suite: str, templates: str | None) -> None:
    """InputError for a suite that is not a template suite or globs that match no template, before any
    process starts (each would fail alike)."""
    from droidpilot.bench.suite import SuiteError
    from droidpilot.gym.tasks import WorldTasks

    try:
        WorldTasks(templates, suite)
    except SuiteError as exc:
        raise InputError(str(exc)) from None


def _report(demos: Iterable[Demo], on_done: Callable[[Demo], None] | None) -> list[Demo]:
    demos = list(demos)
    if on_done is not None:
        for demo in demos:
            on_done(demo)
    return demos


def _on_ray(chunks: list[list[int]], traces: Path, suite: str, templates: str | None, address: str | None,
            on_done: Callable[[Demo], None] | None) -> list[Demo]:
    """Each chunk a Ray task (spread over the nodes, one CPU each); traces unpacked here as they come."""
    from droidpilot.ray_env import connect

    done: list[Demo] = []
    with connect(address) as ray:
        task = ray.remote(num_cpus=1, scheduling_strategy="SPREAD")(_packed_seeds)
        pending = [task.remote(chunk, suite, templates) for chunk in chunks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for demo, data in ray.get(ready[0]):
                unpack_folder(data, traces / demo.name)
                done.extend(_report([demo], on_done))
    return done


def _seeds_text(seeds: Sequence[int]) -> str:
    """``seeds`` written as ranges (0-999,1200)."""
    parts: list[str] = []
    ordered = sorted(seeds)
    start = prev = ordered[0]
    for seed in [*ordered[1:], None]:
        if seed is not None and seed == prev + 1:
            prev = seed
            continue
        parts.append(f"{start}-{prev}" if prev > start else str(start))
        if seed is not None:
            start = prev = seed
    return ",".join(parts)
