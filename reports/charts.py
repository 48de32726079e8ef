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


def bar_chart(
    *, title: str, points: list[tuple[str, int]], width: int = 720, height: int = 200, money: bool = True
) -> BarChart:
    """Bars for (label, cents) points, scaled to the largest absolute value; negatives hang down.
    With money=False the values are counts (entries, hands)."""
    show = format_eur if money else str
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
                value=show(value),
            )
        )
    return BarChart(
        title=title,
        width=width,
        height=height,
        bars=bars,
        baseline=baseline,
        maximum=show(max((abs(v) for _, v in points), default=0)),
    )


@dataclass(frozen=True)
class LineChart:
    title: str
    width: int
    height: int
    points: str  # SVG polyline points "x,y x,y ..."
    area: str  # the same line closed down to the baseline
    baseline: float
    first_label: str
    last_label: str
    maximum: str
    minimum: str
    last_value: str


def line_chart(
    *, title: str, points: list[tuple[str, int]], width: int = 720, height: int = 200
) -> LineChart:
    """A line through (label, cents) points, scaled between the smallest and largest value (or
    zero, whichever is lower), for balances over time such as the jackpot fund."""
    top, bottom = 10.0, 24.0
    plot = height - top - bottom
    values = [v for _, v in points] or [0]
    low, high = min(0, *values), max(values)
    span = (high - low) or 1
    step = width / max(len(points) - 1, 1)
    coordinates = [
        (index * step, top + plot - (value - low) * plot / span)
        for index, (_label, value) in enumerate(points)
    ]
    baseline = top + plot - (0 - low) * plot / span
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in coordinates)
    area = f"0,{baseline:.1f} {line} {coordinates[-1][0]:.1f},{baseline:.1f}" if coordinates else ""
    return LineChart(
        title=title,
        width=width,
        height=height,
        points=line,
        area=area,
        baseline=baseline,
        first_label=points[0][0] if points else "",
        last_label=points[-1][0] if points else "",
        maximum=format_eur(high),
        minimum=format_eur(low),
        last_value=format_eur(values[-1]),
    )
