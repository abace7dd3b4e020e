"""`droidpilot icons list|match`: what icon perception sees on a screenshot, for debugging taps and rules.

``list`` prints every icon candidate with its colour and shape (the words ``click icon`` descriptions
are matched against); ``match`` runs the ``icons`` checker's template matching for named icons and
prints where each was found, at what scale and score (or its best score when missed), so a rule's
threshold can be set.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from droidpilot.cli._common import guard
from droidpilot.cli._listing import Listing, emit

console = Console(highlight=False)
icons_app = typer.Typer(help="Icon perception on a screenshot: candidates and template matching.",
                        no_args_is_help=True)


@icons_app.command("list")
def list_icons(
    image: Path = typer.Argument(..., help="screenshot file (PNG or JPEG)"),
    as_json: bool = typer.Option(False, "--json",
                                 help='print a JSON list of {"box", "point", "description", ...}'),
    min_confidence: float = typer.Option(0.3, "--min-confidence", help="hide shapes classified below this"),
) -> None:
    """Print the icon candidates on a screenshot with colour and shape (no OCR: text may be listed)."""
    from droidpilot.perception.icons import describe_icons
    from droidpilot.perception.icons.rank import where_on_screen
    from droidpilot.perception.ocr import load_image
    from droidpilot.perception.types import box_center

    with guard():
        img = load_image(image)  # a PIL image: no doubt about its channel order
        found = [(r, d) for r, d in describe_icons(img) if d.shape_confidence >= min_confidence]
    size = img.size
    rows = [{"box": list(r.box), "point": list(box_center(r.box)), "description": d.text,
             "confidence": round(d.shape_confidence, 3), "where": where_on_screen(box_center(r.box), size)}
            for r, d in found]
    listing = Listing(("#", "description", "confidence", "where", "tap point", "box"),
                      title=f"{image}: {len(rows)} icon candidates")
    for i, row in enumerate(rows, start=1):
        listing.add(str(i), row["description"], f"{row['confidence']:.2f}", row["where"], str(row["point"]),
                    str(row["box"]))
    emit(console, listing, as_json=as_json, document=rows)


@icons_app.command("match")
def match_icons(
    image: Path = typer.Argument(..., help="screenshot file (PNG or JPEG)"),
    names: list[str] = typer.Argument(..., help="icon names as a rule writes them (or template files)"),
    icons_dir: list[Path] | None = typer.Option(None, "--icons-dir", help="folder of icon templates, "
                                                "searched recursively (repeatable)"),
    rule_dir: Path | None = typer.Option(None, "--rule-dir", help="the rule's folder (icons next to it)"),
    app_id: str = typer.Option("", "--app-id", help="the rule's app_id, to prefer the app's icon folder"),
    threshold: float = typer.Option(0.8, "--threshold", help="correlation a match needs"),
    as_json: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """Find icon templates on a screenshot as the `icons` checker does (0.5x-2.0x, TM_CCOEFF_NORMED)."""
    from droidpilot.perception.icons.imageio import read_image
    from droidpilot.perception.icons.resolve import resolve_icon
    from droidpilot.perception.icons.templates import ScreenPyramid, search_template

    with guard():
        files = {n: resolve_icon(n, rule_dir, icons_dir or [], app_id) for n in dict.fromkeys(names)}
        import cv2

        pyramid = ScreenPyramid(cv2.cvtColor(read_image(image), cv2.COLOR_BGR2GRAY))
        results = {n: search_template(pyramid, path, threshold) for n, path in files.items()}
    out = {n: {"file": str(files[n]), "matches": [m.to_dict() for m in hits],
               "best": best.to_dict() if best else None} for n, (hits, best) in results.items()}
    listing = Listing(("icon", "found", "score", "scale", "box", "file"),
                      title=f"{image}: threshold {threshold}")
    for name, info in out.items():
        top = info["matches"][0] if info["matches"] else info["best"]
        found = f"yes ({len(info['matches'])})" if info["matches"] else "no"
        cells = [f"{top['score']:.3f}", f"{top['scale']:.2f}", str(top["box"])] if top else ["-", "-", "-"]
        listing.add(name, found, *cells, info["file"])
    emit(console, listing, as_json=as_json, document=out)


def register(app: typer.Typer) -> None:
    """Add the ``icons`` sub-app to the root command."""
    app.add_typer(icons_app, name="icons")
