"""Write the bundled demo example: a small shopping-app trace in MobiFlow's runner format.

Run once (the output is committed): ``.venv/bin/python benchmarks/make_demo_example.py``. It draws five
540x960 screens with Pillow, writes the matching uiautomator dumps (same elements, same device-pixel
bounds), ``actions.json`` and ``react.json`` into ``src/droidpilot/verify/examples/shop_search/trace``.
The rule next to it (``rule.yaml``) is written by hand.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import quoteattr

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 540, 960
OUT = Path(__file__).resolve().parents[1] / "src/droidpilot/verify/examples/shop_search/trace"
TASK = "Search for wireless earbuds and add the Budget Buds to the cart"
PACKAGE = "com.example.shoplite"
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@dataclass(frozen=True)
class El:
    """One on-screen element: its label, bounds (x1, y1, x2, y2) and how it looks."""

    text: str
    bounds: tuple[int, int, int, int]
    clickable: bool = False
    cls: str = "android.widget.TextView"
    rid: str = ""
    fill: str | None = None
    size: int = 22
    color: str = "#212121"


def _bar(title: str) -> list[El]:
    return [El("", (0, 0, WIDTH, 90), cls="android.widget.FrameLayout", fill="#ff6f00"),
            El(title, (24, 24, 400, 70), size=30, rid="title", color="white")]


def _nav() -> list[El]:
    return [El("Home", (0, 880, 180, 960), True, rid="nav_home"),
            El("Cart", (180, 880, 360, 960), True, rid="nav_cart"),
            El("Me", (360, 880, 540, 960), True, rid="nav_me")]


SCREENS: list[list[El]] = [
    [*_bar("ShopLite"),
     El("Search products", (24, 110, 516, 170), True, "android.widget.EditText", "search_box", "#eeeeee"),
     El("Deals of the day", (24, 200, 516, 250), size=26),
     El("Phones", (24, 270, 264, 420), True, fill="#ffe0b2"),
     El("Audio", (276, 270, 516, 420), True, fill="#ffe0b2"), *_nav()],
    [*_bar("Search"),
     El("wireless earbuds", (24, 110, 516, 170), True, "android.widget.EditText", "search_box", "#eeeeee"),
     El("Recent searches", (24, 200, 516, 240)),
     El("phone case", (24, 250, 516, 300), True), El("usb cable", (24, 310, 516, 360), True)],
    [*_bar("Results"),
     El("Results for wireless earbuds", (24, 110, 516, 160)),
     El("Sort: Price", (24, 170, 200, 220), True, rid="sort_price", fill="#eeeeee"),
     El("Budget Buds  $19.99", (24, 240, 516, 360), True, rid="item_0", fill="#f5f5f5"),
     El("Pro Pods  $149.00", (24, 380, 516, 500), True, rid="item_1", fill="#f5f5f5"), *_nav()],
    [*_bar("Budget Buds"),
     El("Budget Buds", (24, 110, 516, 170), size=30),
     El("$19.99", (24, 180, 200, 230), size=28),
     El("Bluetooth 5.3, 20 h battery", (24, 240, 516, 290)),
     El("Add to cart", (24, 780, 516, 860), True, "android.widget.Button", "add_to_cart", "#ff6f00")],
    [*_bar("Budget Buds"),
     El("Budget Buds", (24, 110, 516, 170), size=30),
     El("$19.99", (24, 180, 200, 230), size=28),
     El("Added to cart", (120, 600, 420, 660), cls="android.widget.Toast", fill="#424242"),
     El("Add to cart", (24, 780, 516, 860), True, "android.widget.Button", "add_to_cart", "#ff6f00")],
]

# (type, target element index on that screen or None, typed text, reasoning)
STEPS = [
    ("click", 2, "", "The home page has a search box; tap it to start searching."),
    ("input", 2, "wireless earbuds", "The search page is open; type the product name."),
    ("click", 4, "", "Results are listed; Budget Buds is the item the task asks for, open it."),
    ("click", 5, "", "This is the Budget Buds detail page; tap Add to cart."),
    ("done", None, "", "The toast says Added to cart, so the task is complete."),
]


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    if FONT.exists():
        return ImageFont.truetype(str(FONT), size)
    return ImageFont.load_default(size)


def draw(screen: list[El]) -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    pen = ImageDraw.Draw(image)
    for el in screen:
        if el.fill:
            pen.rectangle(el.bounds, fill=el.fill)
        if el.text:
            dark = el.fill in ("#ff6f00", "#424242")
            pen.text((el.bounds[0] + 12, el.bounds[1] + 10), el.text, font=_font(el.size),
                     fill="white" if dark else el.color)
    return image


def dump(screen: list[El]) -> str:
    nodes = []
    for i, el in enumerate(screen):
        b = el.bounds
        nodes.append(
            f'    <node index="{i}" text={quoteattr(el.text)} '
            f'resource-id="{PACKAGE}:id/{el.rid or "v" + str(i)}" '
            f'class="{el.cls}" package="{PACKAGE}" content-desc="" checkable="false" checked="false" '
            f'clickable="{str(el.clickable).lower()}" enabled="true" '
            f'focusable="{str(el.clickable).lower()}" '
            f'focused="false" scrollable="false" long-clickable="false" password="false" selected="false" '
            f'bounds="[{b[0]},{b[1]}][{b[2]},{b[3]}]" />')
    return ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy rotation=\"0\">\n"
            f'  <node index="0" text="" resource-id="" class="android.widget.FrameLayout" '
            f'package="{PACKAGE}" '
            f'content-desc="" clickable="false" focused="false" checked="false" '
            f'bounds="[0,0][{WIDTH},{HEIGHT}]">\n' + "\n".join(nodes) + "\n  </node>\n</hierarchy>\n")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    actions, react = [], []
    for n, (screen, (kind, target, typed, why)) in enumerate(zip(SCREENS, STEPS, strict=True), start=1):
        draw(screen).save(OUT / f"{n}.png", optimize=True)
        (OUT / f"{n}.xml").write_text(dump(screen), encoding="utf-8")
        action: dict[str, object] = {"type": kind, "action_index": n, "status": "success"}
        params: dict[str, object] = {}
        if target is not None:
            el = screen[target]
            x1, y1, x2, y2 = el.bounds
            action.update(position_x=(x1 + x2) // 2, position_y=(y1 + y2) // 2, bounds=[x1, y1, x2, y2])
            if kind == "click":
                params["target_element"] = el.text.split("  ")[0]
        if typed:
            action["text"] = typed
            params["text"] = typed
        actions.append(action)
        react.append({"reasoning": why, "function": {"name": kind, "parameters": params}, "action_index": n})
    meta = {"app_name": "ShopLite", "task_description": TASK, "old_task_description": TASK,
            "action_count": len(actions), "actions": actions}
    (OUT / "actions.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    (OUT / "react.json").write_text(json.dumps(react, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {len(SCREENS)} frames to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
