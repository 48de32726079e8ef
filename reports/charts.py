"""Server-side bar charts as inline SVG: no JavaScript, prints as it shows."""

from dataclasses import dataclass

from cardroom.money import format_eur


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    value: str


@dataclass(frozen=True)
class BarChart:
    title: str
    width: int
    height: int
    bars: list[Bar]
    baseline: float
    maximum: str


def bar_chart(*, title: str, points: list[tuple[str, int]], width: int = 720, height: int = 200) -> BarChart:
    """Bars for (label, cents) points, scaled to the largest absolute value; negatives hang down."""
    top, bottom = 10.0, 24.0
    plot = height - top - bottom
    largest = max((abs(v) for _, v in points), default=0) or 1
    has_negative = any(v < 0 for _, v in points)
    baseline = top + (plot / 2 if has_negative else plot)
    scale = (plot / 2 if has_negative else plot) / largest
    step = width / max(len(points), 1)
    bars = []
    for index, (label, value) in enumerate(points):
        size = abs(value) * scale
        y = baseline - size if value >= 0 else baseline
        bars.append(
            Bar(
                x=index * step + step * 0.1,
                y=y,
                width=step * 0.8,
                height=size,
                label=label,
                value=format_eur(value),
            )
        )
    return BarChart(
        title=title,
        width=width,
        height=height,
        bars=bars,
        baseline=baseline,
        maximum=format_eur(largest if largest != 1 or points else 0),
    )
