"""The agent options ``droidpilot run`` and ``droidpilot bench`` share: one definition of each flag, its
help and its checks, so both commands take the same settings the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from droidpilot import limits
from droidpilot.errors import InputError

LANGUAGES = ("en", "zh")

ModelOpt = Annotated[str | None, typer.Option("--model", help="Model name (openai brain; default "
                                                               "DROIDPILOT_LLM_MODEL).")]
BaseUrlOpt = Annotated[str | None, typer.Option(
    "--base-url", help="OpenAI-compatible endpoint URL (openai brain; default DROIDPILOT_LLM_BASE_URL).")]
TemperatureOpt = Annotated[float | None, typer.Option(
    "--temperature", help="Sampling temperature for the model (openai brain; default 0).")]
MaxStepsOpt = Annotated[int | None, typer.Option("--max-steps", help="Most steps before a run ends (bench: "
                                                                      "default each task's own limit).")]
LangOpt = Annotated[str | None, typer.Option("--lang", help="Prompt language: en | zh (bench: default each "
                                                            "task's own).")]
CoordSpaceOpt = Annotated[str | None, typer.Option("--coord-space", help="How the brain's coordinates read: "
                                                                         "device | normalized | thousand | "
                                                                         "image.")]
ExtendedOpt = Annotated[bool, typer.Option("--extended-actions", help="Offer tap/swipe/... to models.")]
ImageMaxSideOpt = Annotated[int, typer.Option("--image-max-side", help="Longest image side sent to models.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="SimPhone's seed: the phone's initial state "
                                                            "(bench: default each task's own; a template "
                                                            "suite such as world draws its instances from "
                                                            "it, default 0).")]


def check_agent_options(*, max_steps: int | None = None, lang: str | None = None,
                        coord_space: str | None = None, temperature: float | None = None,
                        image_max_side: int | None = None, seed: int | None = None) -> None:
    """InputError naming the flag when one of the shared options has a value no run can use."""
    if max_steps is not None and max_steps <= 0:
        raise InputError(f"--max-steps must be positive, got {max_steps}")
    limits.check("--max-steps", max_steps, limits.MAX_STEPS)
    limits.check("--seed", seed, limits.SEED)
    if lang is not None and lang not in LANGUAGES:
        raise InputError(f"--lang: unknown prompt language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    if coord_space is not None:
        from droidpilot.agent.coords import check_space

        check_space(coord_space)
    if temperature is not None and not 0.0 <= temperature <= 2.0:
        raise InputError(f"--temperature must be between 0 and 2, got {temperature}")
    if image_max_side is not None and image_max_side < 64:
        raise InputError(f"--image-max-side must be at least 64 pixels, got {image_max_side}")
    limits.check("--image-max-side", image_max_side, limits.IMAGE_MAX_SIDE, what="pixels")


LoopOpt = Annotated[str, typer.Option(
    "--loop", help="Agent loop: v1 (Mobile-Agent: one call decides) | v2 (Mobile-Agent-v2: planner, decider "
                   "over a numbered element list, reflector, memory) | e (Mobile-Agent-E: manager, operator "
                   "with shortcuts, reflector, notetaker, learnt tips and shortcuts).")]
RoleModelOpt = Annotated[list[str] | None, typer.Option(
    "--role-model", help="ROLE=MODEL: give one role of the v2/e loop its own model (openai brain; "
                         "repeatable), e.g. --role-model reflector=small-vl. Default: one model for all.")]
MemoryOpt = Annotated[Path | None, typer.Option(
    "--memory", help="Loop e: folder of learnt tips and shortcuts (YAML, one version per update).")]
EvolveOpt = Annotated[bool, typer.Option(
    "--evolve", help="Loop e: after each task, learn tips and shortcuts into a new version of --memory.")]


def check_loop_options(loop: str, brain: str, role_models: list[str] | None, memory: Path | None,
                       evolve: bool) -> dict[str, str]:
    """The parsed ``--role-model`` table; InputError naming the flag when the loop options do not fit."""
    from droidpilot.agent.loops.roles import check_loop, parse_role_models

    check_loop(loop)
    if memory is not None and loop != "e":
        raise InputError(f"--memory is the e loop's long-term memory; add --loop e (not {loop})")
    if evolve and memory is None:
        raise InputError("--evolve writes learnt tips and shortcuts into a memory folder; add --memory DIR")
    if memory is not None and memory.exists() and not memory.is_dir():
        raise InputError(f"--memory {memory}: exists and is not a folder")
    table = parse_role_models(role_models or [], loop)
    if table and brain != "openai":
        raise InputError(f"--role-model gives a role its own model, which needs --brain openai (not {brain})")
    return table
