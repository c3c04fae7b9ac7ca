"""Charts as plain geometry: the template draws them as inline SVG, on the server.

Pure functions of the figures, so they are tested without a browser and the
page needs no chart library and no script.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 560
HEIGHT = 160
AXIS = 24  # room under the bars for the labels


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    value: int | float


@dataclass(frozen=True, slots=True)
class BarChart:
    title: str
    bars: tuple[Bar, ...]
    peak: int | float
    width: int = WIDTH
    height: int = HEIGHT


def bar_chart(title: str, points: Sequence[tuple[str, int | float]]) -> BarChart:
    """One bar per point, scaled to the highest value (an all-zero series draws flat)."""
    peak = max((v for _, v in points), default=0)
    if not points:
        return BarChart(title, (), peak)
    slot = WIDTH / len(points)
    room = HEIGHT - AXIS
    bars = []
    for i, (label, value) in enumerate(points):
        h = (value / peak) * room if peak > 0 else 0.0
        bars.append(
            Bar(
                x=round(i * slot + slot * 0.15, 2),
                y=round(room - h, 2),
                width=round(slot * 0.7, 2),
                height=round(h, 2),
                label=label,
                value=value,
            )
        )
    return BarChart(title, tuple(bars), peak)


def share_width(share: float | None, width: int = WIDTH) -> float:
    """Length of a filled gauge for a share in [0, 1] (None: empty)."""
    if share is None:
        return 0.0
    return round(max(0.0, min(1.0, share)) * width, 2)
