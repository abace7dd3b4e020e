"""`droidpilot suite list|show|validate`: browse a template suite, print one instance, check a folder.

Exit status 0 on success, 2 on bad input (unknown suite or template, a template file with problems).
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console

from droidpilot import limits
from droidpilot.cli._common import guard
from droidpilot.cli._listing import Listing, emit
from droidpilot.cli._progress import progress
from droidpilot.errors import InputError
from droidpilot.textsafe import json_safe, printable

console = Console()
suite_app = typer.Typer(
    help="Browse and validate benchmark suites (templates and instances).", no_args_is_help=True
)


def _templates(suite: str):
    from droidpilot.bench.suite import suite_folder
    from droidpilot.bench.world.template import is_template_suite, load_templates

    folder = suite_folder(suite)
    if not is_template_suite(folder):
        raise InputError(
            f"{folder} is not a template suite (no _suite.yaml with 'type: templates'); "
            f"task-file suites are listed by 'droidpilot bench --suite {suite} --tasks ...'"
        )
    with progress("loading templates", None) as advance:
        return folder, load_templates(folder, on_file=advance)


@suite_app.command("list")
def list_cmd(
    suite: str = typer.Option("world", "--suite", help="A template suite name or folder."),
    templates: str | None = typer.Option(None, "--templates", help="Comma-separated id globs."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON list of {template, apps, kind, tier, "
                                                       "instruction}."),
) -> None:
    """List the templates of a suite: id, apps, kind, tier (for seed 0) and instruction. On a terminal a
    table; piped, one tab-separated line per template (a header first), values whole."""
    with guard():
        from droidpilot.bench.world import instantiate, select_templates

        folder, all_templates = _templates(suite)
        chosen = select_templates(all_templates, templates)
        listing = Listing(("template", "apps", "kind", "tier", "instruction (seed 0)"),
                          title=f"{folder.name}: templates",
                          keys=("template", "apps", "kind", "tier", "instruction"))
        with progress("instantiating", len(chosen)) as advance:
            for t in chosen:
                task = instantiate(t, 0, 0, folder.name)
                listing.add(t.id, list(t.apps), t.kind, task.tier, task.instruction)
                advance(1)
        listing.footer = f"{len(chosen)} templates over {len({a for t in chosen for a in t.apps})} apps"
        emit(console, listing, as_json=as_json)


@suite_app.command("show")
def show_cmd(
    template: str = typer.Argument(..., help="A template id."),
    suite: str = typer.Option("world", "--suite", help="A template suite name or folder."),
    seed: int = typer.Option(0, "--seed", help="The seed to draw the instance from."),
    instance: int = typer.Option(0, "--instance", help="Which instance of the seed."),
    as_json: bool = typer.Option(False, "--json", help="Print exactly one JSON object (the rule as its "
                                                       "'rule' field)."),
) -> None:
    """Print one instance as JSON: parameters, setup (start state, distractors), reference, oracle, rule."""
    with guard():
        from droidpilot.bench.world import instantiate

        limits.check("--seed", seed, limits.SEED)
        limits.check("--instance", instance, limits.Limit(0, limits.INSTANCES.high - 1, ""))
        folder, all_templates = _templates(suite)
        matches = [t for t in all_templates if t.id == template]
        if not matches:
            raise InputError(f"no template {template!r} in {folder.name}; see 'droidpilot suite list'")
        task = instantiate(matches[0], seed, instance, folder.name)
        doc = {
            "id": task.id,
            "template": task.template,
            "kind": task.kind,
            "tier": task.tier,
            "apps": task.apps,
            "lang": task.lang,
            "instruction": task.instruction,
            "params": task.params,
            "distractors": task.distractors,
            "setup": task.setup,
            "reference": [op.to_dict() for op in task.reference],
            "oracle": task.oracle,
            "effects": task.effects,
        }
        if as_json:
            typer.echo(json_safe(json.dumps({**doc, "rule": task.rule_text}, ensure_ascii=False)))
            return
        typer.echo(json_safe(json.dumps(doc, ensure_ascii=False, indent=1)))
        typer.echo(printable(task.rule_text))


@suite_app.command("validate")
def validate_cmd(
    folder: Path = typer.Argument(..., help="A template suite folder (or a shipped name)."),
    seeds: int = typer.Option(3, "--seeds", help=f"Instantiate every template for N seeds (N at most "
                                                 f"{limits.SEEDS.high})."),
    first_seed: int = typer.Option(0, "--first-seed", help="The first of the seeds: FIRST..FIRST+N-1 (more "
                                                           "seeds: call again with the next FIRST)."),
) -> None:
    """Check every template of a folder: files, parameters, references, oracles, generated rules; that
    no instance is already solved at its start state; and that each gives 5+ distinct instructions and
    answers over 50 seeds unless marked static. Exit 2 with every problem listed."""
    with guard():
        from droidpilot.bench.suite import suite_folder
        from droidpilot.bench.world.check import check_suite
        from droidpilot.bench.world.depth import DEPTH_SEEDS
        from droidpilot.bench.world.template import load_templates

        if seeds < 1:
            raise InputError(f"--seeds must be at least 1, got {seeds}")
        limits.check("--seeds", seeds, limits.SEEDS)
        limits.check("--first-seed", first_seed, limits.SEED)
        limits.check("--first-seed + --seeds", first_seed + seeds - 1, limits.SEED)
        where = suite_folder(str(folder))
        loaded = load_templates(where)
        with progress(f"checking {seeds} seed(s)", len(loaded)) as advance:
            report = check_suite(where, range(first_seed, first_seed + seeds), on_template=advance,
                                 templates=loaded)
        console.print(
            f"{report.templates} templates, {report.instances} instances, "
            f"{len(report.apps)} apps; kinds {dict(report.kinds)}; tiers {dict(report.tiers)}",
            highlight=False,
            soft_wrap=True,
        )
        depth = report.to_dict()["depth"]
        if depth:  # how much the templates vary: distinct instructions and answers over the seeds
            console.print(
                f"depth over {DEPTH_SEEDS} seeds: instructions min {depth['instructions_min']}, median "
                f"{depth['instructions_median']}; answers min {depth['answers_min']}, median "
                f"{depth['answers_median']}; {depth['static']} templates marked static",
                highlight=False,
                soft_wrap=True,
            )
        if report.satisfied_at_start:
            report.problems.append(
                "already satisfied at the start state (a do-nothing agent would pass): "
                + ", ".join(report.satisfied_at_start)
            )
        if report.problems:
            raise InputError("\n".join(report.problems))
        console.print(
            "ok: every template instantiates, none is solved at start, each varies or is static",
            soft_wrap=True,
        )


def register(app: typer.Typer) -> None:
    """Add ``droidpilot suite`` to the command-line app."""
    app.add_typer(suite_app, name="suite")
