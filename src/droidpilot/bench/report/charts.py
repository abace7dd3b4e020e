"""Small inline SVG bar charts for the report (no scripts, no external files); every bar carries its value."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

PALETTE = ("#1a73e8", "#34a853", "#fbbc04", "#ea4335", "#9334e6")


def grouped_bars(title: str, groups: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]],
                 *, maximum: float | None = None, percent: bool = True, width: int = 640) -> str:
    """A grouped bar chart: one cluster per group, one bar per series; values None are drawn as gaps."""
    values = [v for _, vals in series for v in vals if v is not None]
    top = maximum if maximum is not None else max([*values, 1e-9])
    top = top or 1.0
    left, bottom, height, pad = 44, 56, 236, 40  # pad: room for the title and the tallest bar's label
    plot_h = height - bottom - pad
    slot = max(24.0, (width - left - 10) / max(1, len(groups)))
    bar_w = max(4.0, (slot - 12) / max(1, len(series)))
    parts = [f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" '
             f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>',
             f'<text x="{left}" y="14" class="ct">{escape(title)}</text>']
    for i in range(5):
        y = pad + plot_h - plot_h * i / 4
        tick = top * i / 4
        label = f"{tick * 100:.0f}%" if percent else (f"{tick:.0f}" if top >= 8 else f"{tick:.1f}")
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - 6}" y2="{y:.1f}" class="grid"/>'
                     f'<text x="{left - 4}" y="{y + 4:.1f}" class="ax" text-anchor="end">{label}</text>')
    for g, group in enumerate(groups):
        x0 = left + 6 + g * slot
        for s, (name, vals) in enumerate(series):
            v = vals[g] if g < len(vals) else None
            if v is None:
                continue
            h = plot_h * min(1.0, max(0.0, float(v) / top))
            x = x0 + s * bar_w
            shown = f"{float(v) * 100:.0f}%" if percent else f"{float(v):.2f}"
            parts.append(f'<rect x="{x:.1f}" y="{pad + plot_h - h:.1f}" width="{bar_w - 2:.1f}" '
                         f'height="{h:.1f}" '
                         f'fill="{PALETTE[s % len(PALETTE)]}"><title>{escape(group)} · {escape(name)}: '
                         f'{escape(shown)}</title></rect>'
                         f'<text x="{x + (bar_w - 2) / 2:.1f}" y="{pad + plot_h - h - 3:.1f}" class="val" '
                         f'text-anchor="middle">{escape(shown)}</text>')
        parts.append(f'<text x="{x0 + slot / 2 - 6:.1f}" y="{pad + plot_h + 14}" class="ax" '
                     f'text-anchor="middle">{escape(group)}</text>')
    lx = left
    for s, (name, _) in enumerate(series):
        parts.append(f'<rect x="{lx}" y="{height - 16}" width="10" height="10" '
                     f'fill="{PALETTE[s % len(PALETTE)]}"/><text x="{lx + 14}" y="{height - 7}" '
                     f'class="ax">{escape(name)}</text>')
        lx += 14 + 8 * len(name) + 16
    parts.append("</svg>")
    return "".join(parts)


def horizontal_bars(title: str, items: Sequence[tuple[str, int]], *, width: int = 640) -> str:
    """One labelled horizontal bar per item (a count), the count written at the bar's end."""
    left, row_h = 220, 24
    height = 30 + row_h * max(1, len(items))
    top = max([n for _, n in items] + [1])
    span = width - left - 60
    parts = [f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>'
             f'<text x="8" y="14" class="ct">{escape(title)}</text>']
    for i, (name, count) in enumerate(items):
        y = 24 + i * row_h
        w = span * count / top
        parts.append(f'<text x="{left - 6}" y="{y + 15}" class="ax" text-anchor="end">{escape(name)}</text>'
                     f'<rect x="{left}" y="{y + 3}" width="{w:.1f}" height="{row_h - 8}" fill="{PALETTE[3]}">'
                     f'<title>{escape(name)}: {count}</title></rect>'
                     f'<text x="{left + w + 5:.1f}" y="{y + 15}" class="val">{count}</text>')
    parts.append("</svg>")
    return "".join(parts)
