"""Small SVG charts drawn by payme itself (no matplotlib): a bar chart with interval
whiskers and a line chart.  The static site's Analysis page draws its plots with them, since
matplotlib is not on the site.

>>> svg = bar_chart([("greedy", 61.0, 50.0, 72.0), ("random", 240.5, None, None)],
...                 title="Final total", unit="points")
>>> svg.startswith("<svg") and 'role="img"' in svg and "greedy" in svg
True
>>> "<polyline" in line_chart({"greedy": [(1, 2.0), (2, 3.5)]}, title="Penalty", x_label="hand")
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

__all__ = ["bar_chart", "line_chart"]

# The series' colours (colour-blind safe, Okabe-Ito), in order.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
WIDTH, HEIGHT = 640, 320
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 36, 48


def _nice_top(value: float) -> float:
    """A round number at or above ``value`` for an axis' top."""
    if value <= 0 or not math.isfinite(value):
        return 1.0
    step = 10.0 ** math.floor(math.log10(value))
    for factor in (1, 2, 2.5, 5, 10):
        if factor * step >= value:
            return factor * step
    return 10 * step


def _frame(title: str, top: float, unit: str) -> list[str]:
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" class="payme-chart" style="max-width:100%;height:auto">',
        f'<text x="{WIDTH / 2}" y="20" text-anchor="middle" font-size="15" '
        f'font-weight="bold">{escape(title)}</text>',
    ]
    plot_h = HEIGHT - TOP - BOTTOM
    for i in range(5):
        value = top * i / 4
        y = TOP + plot_h - plot_h * i / 4
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">'
            f"{value:,.4g}</text>"
        )
    parts.append(
        f'<text x="14" y="{TOP + plot_h / 2}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 14 {TOP + plot_h / 2})">{escape(unit)}</text>'
    )
    return parts


def bar_chart(
    bars: Sequence[tuple[str, float, float | None, float | None]], *, title: str, unit: str
) -> str:
    """Bars ``(label, value, low, high)``; ``low``/``high`` draw a 95% whisker when known."""
    finite = [v for _l, value, low, high in bars for v in (value, high) if v is not None]
    top = _nice_top(max((v for v in finite if math.isfinite(v)), default=1.0))
    parts = _frame(title, top, unit)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / max(len(bars), 1)

    def y_of(value: float) -> float:
        return TOP + plot_h - plot_h * max(0.0, value) / top

    for i, (label, value, low, high) in enumerate(bars):
        x = LEFT + slot * i + slot * 0.2
        y = y_of(value)
        parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{slot * 0.6:.1f}" '
            f'height="{TOP + plot_h - y:.1f}" fill="{COLOURS[i % len(COLOURS)]}">'
            f"<title>{escape(label)}: {value:,.3g}</title></rect>"
        )
        if low is not None and high is not None and math.isfinite(low) and math.isfinite(high):
            centre = x + slot * 0.3
            parts.append(
                f'<path d="M{centre:.1f} {y_of(low):.1f}V{y_of(high):.1f}'
                f'M{centre - 6:.1f} {y_of(low):.1f}h12M{centre - 6:.1f} {y_of(high):.1f}h12" '
                'stroke="#222" stroke-width="1.5" fill="none"/>'
            )
        parts.append(
            f'<text x="{x + slot * 0.3:.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle" '
            f'font-size="12">{escape(label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def line_chart(
    series: Mapping[str, Sequence[tuple[float, float]]],
    *,
    title: str,
    x_label: str,
    unit: str = "",
) -> str:
    """One line per series of ``(x, y)`` points, with a legend."""
    points = [p for line in series.values() for p in line]
    top = _nice_top(max((y for _x, y in points), default=1.0))
    xs = [x for x, _y in points] or [0.0, 1.0]
    low_x, high_x = min(xs), max(xs)
    span = (high_x - low_x) or 1.0
    parts = _frame(title, top, unit)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def xy(x: float, y: float) -> str:
        return f"{LEFT + plot_w * (x - low_x) / span:.1f},{TOP + plot_h - plot_h * y / top:.1f}"

    for x in sorted(set(xs)):
        parts.append(
            f'<text x="{LEFT + plot_w * (x - low_x) / span:.1f}" y="{HEIGHT - BOTTOM + 16}" '
            f'text-anchor="middle" font-size="11">{x:g}</text>'
        )
    parts.append(
        f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 8}" text-anchor="middle" '
        f'font-size="11">{escape(x_label)}</text>'
    )
    for i, (name, line) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
            f'points="{" ".join(xy(x, y) for x, y in line)}"><title>{escape(name)}</title>'
            "</polyline>"
        )
        parts.append(
            f'<rect x="{LEFT + 8}" y="{TOP + 6 + 16 * i}" width="12" height="4" '
            f'fill="{colour}"/><text x="{LEFT + 24}" y="{TOP + 11 + 16 * i}" '
            f'font-size="11">{escape(name)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
