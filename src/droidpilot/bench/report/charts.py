"""Small inline SVG bar charts for the report (no scripts, no external files)."""

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
    left, bottom, height = 44, 56, 220
    plot_h = height - bottom - 24
    slot = max(24.0, (width - left - 10) / max(1, len(groups)))
    bar_w = max(4.0, (slot - 12) / max(1, len(series)))
    parts = [f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" '
             f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>',
             f'<text x="{left}" y="14" class="ct">{escape(title)}</text>']
    for i in range(5):
        y = 24 + plot_h - plot_h * i / 4
        label = f"{top * i / 4 * (100 if percent else 1):.0f}{'%' if percent else ''}"
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
            parts.append(f'<rect x="{x:.1f}" y="{24 + plot_h - h:.1f}" width="{bar_w - 2:.1f}" '
                         f'height="{h:.1f}" '
                         f'fill="{PALETTE[s % len(PALETTE)]}"><title>{escape(group)} · {escape(name)}: '
                         f'{escape(shown)}</title></rect>')
        parts.append(f'<text x="{x0 + slot / 2 - 6:.1f}" y="{24 + plot_h + 14}" class="ax" '
                     f'text-anchor="middle">{escape(group)}</text>')
    lx = left
    for s, (name, _) in enumerate(series):
        parts.append(f'<rect x="{lx}" y="{height - 16}" width="10" height="10" '
                     f'fill="{PALETTE[s % len(PALETTE)]}"/><text x="{lx + 14}" y="{height - 7}" '
                     f'class="ax">{escape(name)}</text>')
        lx += 14 + 8 * len(name) + 16
    parts.append("</svg>")
    return "".join(parts)
