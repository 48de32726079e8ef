"""Server-side SVG charts: bars scaled to the largest value, a line for balances over time."""

from reports.charts import bar_chart, line_chart
from reports.templatetags.reports import hours, percent_bp, signed_amount


def test_bar_chart_scales_to_the_largest_value_and_hangs_negatives():
    chart = bar_chart(title="Rake", points=[("a", 1_000), ("b", -500), ("c", 0)], width=300, height=134)
    # 100 px of plot (134 - 10 top - 24 bottom), halved around the baseline for negatives.
    assert chart.baseline == 60.0
    assert [(round(b.y, 1), round(b.height, 1), b.value) for b in chart.bars] == [
        (10.0, 50.0, "10.00 EUR"),
        (60.0, 25.0, "-5.00 EUR"),
        (60.0, 0.0, "0.00 EUR"),
    ]
    assert chart.maximum == "10.00 EUR"
    counts = bar_chart(title="Entries", points=[("x", 12)], money=False)
    assert (counts.bars[0].value, counts.maximum) == ("12", "12")


def test_line_chart_runs_from_zero_to_the_highest_balance():
    chart = line_chart(title="Fund", points=[("d1", 0), ("d2", 5_000), ("d3", 2_500)], width=200, height=134)
    assert chart.points == "0.0,110.0 100.0,10.0 200.0,60.0"
    assert chart.area == "0,110.0 0.0,110.0 100.0,10.0 200.0,60.0 200.0,110.0"
    assert (chart.maximum, chart.minimum, chart.last_value) == ("50.00 EUR", "0.00 EUR", "25.00 EUR")


def test_report_filters():
    assert (hours(570), hours(3_490_005)) == ("9 h 30 min", "58,166 h 45 min")
    assert (percent_bp(1_250), percent_bp(-9_756), percent_bp(None)) == ("+12.5 %", "-97.5 %", "—")
    assert (signed_amount(1_050), signed_amount(-50), signed_amount(0)) == ("+10.50", "-0.50", "0.00")
