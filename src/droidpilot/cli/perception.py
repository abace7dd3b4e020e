"""`droidpilot ocr` and `droidpilot locate`: read a screenshot, and find where a text, app or icon is.

For people debugging an agent's taps: the same OCR (behind the same persistent cache) and localization
the agent uses, printed as a table or as JSON, optionally drawn on a copy of the screenshot.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from droidpilot.cli._common import fail, guard
from droidpilot.errors import InputError
from droidpilot.textsafe import printable

if TYPE_CHECKING:
    from rich.console import Console


@functools.cache
def _console() -> Console:
    """Stdout's Rich console, made on first use: `ocr --json` never imports Rich (a cold process's cost)."""
    from rich.console import Console

    return Console(highlight=False)


def escape(text: str) -> str:
    """``text`` with Rich markup escaped."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


def _engine(name: str, use_cache: bool) -> Any:
    from droidpilot.perception.ocr import make_ocr_engine

    engine = make_ocr_engine(name)
    if engine is not None and use_cache:
        from droidpilot.perception.cache import CachedOcr

        engine = CachedOcr(engine)
    return engine


def ocr(
    image: Path = typer.Argument(..., help="screenshot file (PNG or JPEG)"),
    as_json: bool = typer.Option(False, "--json", help='print a JSON list of {"text", "box", "score"}'),
    engine: str = typer.Option("rapidocr", "--engine", help="rapidocr or tesseract"),
    no_cache: bool = typer.Option(False, "--no-cache", help="recognise again even if cached"),
) -> None:
    """Print the text lines on a screenshot with their boxes (x1, y1, x2, y2 in its pixels)."""
    from droidpilot.perception.ocr import load_image

    with guard():
        img = load_image(image)  # a clear error for a missing or unreadable file, before any model loads
        if engine.strip().lower() == "none":
            raise InputError("--engine none reads nothing; choose rapidocr or tesseract")
        # The cache keys on the file's bytes; uncached, the image decoded above is read (decoded once).
        lines = _engine(engine, not no_cache).recognize(img if no_cache else image)
    if as_json:
        typer.echo(json.dumps([ln.to_dict() for ln in lines], ensure_ascii=False))
        return
    from droidpilot.cli._listing import Listing, emit

    listing = Listing(("#", "text", "box", "score"), title=f"{image}: {len(lines)} lines")
    for i, ln in enumerate(lines, start=1):
        listing.add(str(i), ln.text, str(list(ln.box)), f"{ln.score:.3f}")
    emit(_console(), listing)


LOCATE_COLUMNS = ("#", "tap point", "box", "text / description", "score")


def _notes(result: Any) -> list[tuple[str, str]]:
    """What a person reads besides the candidates, as (heading, text): the closest texts on screen, and how
    an icon query was read."""
    notes = []
    if result.closest:
        notes.append(("closest texts on screen", ", ".join(repr(printable(t)) for t in result.closest)))
    query = getattr(result, "query", None)
    if query:
        understood = " ".join(p for p in (query.get("colour"), query.get("shape")) if p) or "-"
        glyphs = ", ".join(query.get("glyphs", [])[:6]) or "-"
        notes.append(("understood", f"{understood}; glyphs: {glyphs}; position: {query.get('position')}"))
        if query.get("unknown"):
            notes.append(("not understood", ", ".join(query["unknown"])))
    return notes


def _print_result(result: Any, what: str) -> None:
    """On a terminal: the status, a table of candidates and notes, screen text escaped. Piped: the
    candidates as tab-separated rows with whole values on stdout, the status and notes on stderr."""
    from droidpilot.cli._listing import Listing, emit

    out = _console()
    listing = Listing(LOCATE_COLUMNS)
    for i, c in enumerate(result.candidates, start=1):
        label = c.text if c.text is not None else (c.description or "")
        if c.text is not None and c.description:
            label = f"{c.text} ({c.description})"
        listing.add(str(i), str(list(c.point)), str(list(c.box)), label, f"{c.score:.3f}")
    notes = _notes(result)
    if not out.is_terminal:
        listing.footer = "\n".join([f"{result.status}: {what}", *(f"{h}: {t}" for h, t in notes)])
        emit(out, listing)
        return
    colour = {"found": "green", "ambiguous": "yellow", "too_many": "yellow"}.get(result.status, "red")
    out.print(f"[bold {colour}]{result.status}[/]: {escape(printable(what))}")
    if listing.rows:
        emit(out, listing)
    for head, text in notes:
        style = "bold yellow" if head == "not understood" else "default"
        out.print(f"[{style}]{head}:[/] {escape(printable(text))}")


def _said(message: str) -> None:
    """A note about files written: stdout on a terminal, stderr when stdout is piped (it holds rows)."""
    from droidpilot.cli._common import err_console

    (_console() if _console().is_terminal else err_console).print(escape(printable(message)))


def _write_crops(result: Any, folder: Path) -> list[Path]:
    """Save each candidate's crop (ambiguous outcomes have them) as candidate-N.png in ``folder``."""
    written = []
    for i, cand in enumerate(result.candidates, start=1):
        if cand.crop is None:
            continue
        path = folder / f"candidate-{i}.png"
        try:
            cand.crop.save(path)
        except OSError as exc:
            raise InputError(f"--crops: cannot write {path}: {exc}") from None
        written.append(path)
    return written


def locate(
    image: Path = typer.Argument(..., help="screenshot file (PNG or JPEG)"),
    text: str | None = typer.Option(None, "--text", help="the text to tap (Mobile-Agent's click text)"),
    app: str | None = typer.Option(None, "--app", help="an app name on a launcher (open App): its icon"),
    icon: str | None = typer.Option(None, "--icon", help='an icon description, e.g. "red heart"'),
    position: str | None = typer.Option(None, "--position", help="with --icon: top, bottom, left, right, "
                                        "center, or two of them"),
    as_json: bool = typer.Option(False, "--json", help='print {"status", "candidates": [...]}'),
    annotate: Path | None = typer.Option(None, "--annotate", help="write a copy with candidates drawn"),
    crops: Path | None = typer.Option(None, "--crops", help="write the crops an ambiguous outcome shows "
                                      "the model (candidate-1.png, ...) into this folder"),
    engine: str = typer.Option("rapidocr", "--engine", help="OCR engine: rapidocr, tesseract (none: "
                               "--icon only, no text masking)"),
) -> None:
    """Find where to tap: a text (--text), an app's icon (--app) or an icon by description (--icon)."""
    from droidpilot.perception.ocr import load_image

    given = [name for name, value in (("--text", text), ("--app", app), ("--icon", icon)) if value]
    if len(given) != 1:
        got = f" (got {', '.join(given)})" if given else ""
        raise fail(f"give exactly one of --text, --app or --icon{got}")
    if position and not icon:
        raise fail("--position goes with --icon")
    with guard():
        img = load_image(image)
        if annotate is not None and not annotate.parent.is_dir():
            raise InputError(f"--annotate: folder {annotate.parent} does not exist")
        if crops is not None and not crops.is_dir():
            raise InputError(f"--crops: folder {crops} does not exist")
        ocr_engine = _engine(engine, True)
        if ocr_engine is None and not icon:
            raise InputError("--engine none cannot read text; use rapidocr or tesseract")
        lines = ocr_engine.recognize(image) if ocr_engine is not None else None
        if text:
            from droidpilot.perception.text import locate_text

            result, what = locate_text(lines or [], text, img.size, img), f"text {text!r}"
        elif app:
            from droidpilot.perception.text import locate_app

            result, what = locate_app(lines or [], app, img), f"app {app!r}"
        else:
            from droidpilot.perception.icons import locate_icon

            result = locate_icon(img, icon or "", position=position, ocr_lines=lines)
            what = f"icon {icon!r}" + (f" at {position}" if position else "")
        if annotate is not None:
            from droidpilot.perception.annotate import annotate as draw

            try:
                draw(img, result).save(annotate)
            except (OSError, ValueError) as exc:
                raise InputError(f"--annotate: cannot write {annotate}: {exc}") from None
        written = _write_crops(result, crops) if crops is not None else []
    if as_json:
        typer.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        _print_result(result, what)
        for path in written:
            _said(f"crop written to {path}")
    if annotate is not None and not as_json:
        _said(f"annotated copy written to {annotate}")


def register(app: typer.Typer) -> None:
    app.command("ocr")(ocr)
    app.command("locate")(locate)
