"""Every benchmark in turn, then one table of their targets (`make bench`).

Run from the project root:  .venv/bin/python bench/run_all.py [--only NAME,...] [--with-history]

Each script runs as its own process with its own throw-away database (bench/common.py), one
after the other, so none measures while another loads the machine; its output is shown as it
comes and kept in var/bench/<name>.log. The table at the end picks each script's figures from
its output. reports_history generates five years of history (about 25 minutes and 24 GB), so it
runs only with --with-history (its arguments after --history-args, e.g. "--scale 0.1").
Compare figures only from one machine, and note its load average (printed before each script).
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import load_average  # noqa: E402

NUMBER = r"([-+0-9.]+|nan)"
CARD_RATIO = rf"card p99 / target = .* = {NUMBER}"


@dataclass(frozen=True)
class Figure:
    """One figure of a script's output: `pattern`'s first group, checked by `met`."""

    label: str
    pattern: str
    target: str
    met: object = None  # (value: str) -> bool, or None for a figure without a target


@dataclass(frozen=True)
class Bench:
    name: str
    args: list[str]
    figures: list[Figure] = field(default_factory=list)


def below(limit: float):
    return lambda value: float(value) < limit


def at_least(limit: float):
    return lambda value: float(value) >= limit


def equals(expected: str):
    return lambda value: value.strip() == expected


def cpu_figure(kind: str, target: float) -> Figure:
    return Figure(
        f"{kind} CPU / calibration request",
        rf"RATIO {kind.replace(' ', '_')}/calibration = {NUMBER}",
        f"<= {target}",
        lambda value: float(value) <= target,
    )


def room_figure(kind: str) -> Figure:
    return Figure(
        f"{kind.replace('_', ' ')} p99 / 100 ms", rf"RATIO {kind}_p99/100ms = {NUMBER}", "< 1", below(1)
    )


BENCHES = [
    Bench(
        "player_search",
        ["bench/player_search.py"],
        [Figure("card search p99 / 50 ms (PostgreSQL)", CARD_RATIO, "< 1", below(1))],
    ),
    Bench(
        "player_search_sqlite",
        ["bench/player_search.py", "--sqlite"],
        [Figure("card search p99 / 50 ms (SQLite)", CARD_RATIO, "< 1", below(1))],
    ),
    Bench(
        "cashier_buyins",
        ["bench/cashier_buyins.py"],
        [
            Figure("API buy-ins per second", rf"api_per_second\s*= {NUMBER}", "-"),
            Figure("bare view buy-ins per second", rf"bare_per_second\s*= {NUMBER}", "-"),
            Figure("ratio API / bare view", rf"ratio api/bare\s*= {NUMBER}", ">= 0.5", at_least(0.5)),
            Figure("errors", rf"errors\s*= {NUMBER}", "0", equals("0")),
        ],
    ),
    Bench(
        "cashgame_hands",
        ["bench/cashgame_hands.py"],
        [
            Figure("hands per second, flat out", rf"hands_per_second\s+{NUMBER}", "- (withdrawn)"),
            Figure("errors", rf"errors\s+{NUMBER}", "0", equals("0")),
        ],
    ),
    Bench(
        "room_load",
        ["bench/room_load.py"],
        [
            room_figure("dealer_tap"),
            room_figure("buy-in"),
            room_figure("TV_poll"),
            Figure("errors", rf"errors = {NUMBER}", "0", equals("0")),
            Figure("books problems", r"books_problems = (\[.*?\])", "[]", equals("[]")),
        ],
    ),
    Bench(
        "cpu_per_request",
        ["bench/cpu_per_request.py"],
        [cpu_figure("cage buy-in", 4), cpu_figure("dealer tap", 2), cpu_figure("shared poll", 0.5)],
    ),
    Bench(
        "headroom",
        ["bench/headroom.py"],
        [Figure("room load's multiple, every p99 under 100 ms", r"headroom: (\d+)x", ">= 20", at_least(20))],
    ),
    Bench(
        "queries_vs_history",
        ["bench/queries_vs_history.py"],
        [
            Figure(
                "queries per request constant in the history",
                r"RESULT queries constant in the history: (.*)",
                "yes",
                equals("yes"),
            )
        ],
    ),
    Bench(
        "tournament_clock",
        ["bench/tournament_clock.py"],
        [
            Figure("clock rise lateness p99 / 250 ms", rf"ratio_p99_to_target={NUMBER}", "< 1", below(1)),
            Figure("repeated rises", rf"repeated_rises={NUMBER}", "0", equals("0")),
        ],
    ),
    Bench(
        "wait_estimate",
        ["bench/wait_estimate.py"],
        [
            Figure(
                "wait estimate: worst inside share",
                rf"RATIO worst inside share = {NUMBER}",
                ">= 0.8",
                at_least(0.8),
            ),
            Figure(
                "wait estimate: worst above share",
                rf"RATIO worst above share = {NUMBER}",
                "<= 0.1",
                below(0.1001),
            ),
            Figure(
                "wait estimate: month's median abs error / median wait",
                rf"RATIO wait_mae/median_wait = {NUMBER}",
                "< 0.5",
                below(0.5),
            ),
        ],
    ),
    Bench(
        "tournament_seating",
        ["bench/tournament_seating.py"],
        [Figure("draw + balancing p99 / 100 ms", rf"ratio_p99_to_target={NUMBER}", "< 1", below(1))],
    ),
    Bench(
        "dealer_rotation",
        ["bench/dealer_rotation.py"],
        [
            Figure(
                "dealer rotation recompute p99 / 100 ms", rf"ratio_p99_to_target={NUMBER}", "< 1", below(1)
            ),
            Figure(
                "table-minutes without a dealer", rf"table_minutes_without_dealer={NUMBER}", "0", equals("0")
            ),
        ],
    ),
    Bench(
        "screens_bytes",
        ["bench/screens_bytes.py"],
        [
            Figure("floor view idle, bytes/s / 1 KB", rf"RATIO floor_idle/1KB = {NUMBER}", "< 1", below(1)),
            Figure(
                "floor view busy, largest answer / 20 KB",
                rf"RATIO floor_busy_answer/20KB = {NUMBER}",
                "< 1",
                below(1),
            ),
        ],
    ),
]

HISTORY = Bench(
    "reports_history",
    ["bench/reports_history.py"],
    [
        Figure(
            "slowest monthly/yearly page on five years / 1 s",
            rf"slowest monthly/yearly page on five years / 1 s = {NUMBER}",
            "< 1",
            below(1),
        ),
        Figure(
            "largest ratio five years / one month",
            rf"largest ratio five years / one month = {NUMBER}",
            "< 2",
            below(2),
        ),
    ],
)


def run(bench: Bench, logs: Path) -> tuple[int, str, float]:
    """Run one script, echoing its output; (exit code, output, seconds)."""
    print(f"\n=== {bench.name}: {' '.join(bench.args)} (load average {load_average()})", flush=True)
    started = time.monotonic()
    lines = []
    with subprocess.Popen(
        [sys.executable, *bench.args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    ) as process:
        for line in process.stdout:
            print(line, end="", flush=True)
            lines.append(line)
    output = "".join(lines)
    (logs / f"{bench.name}.log").write_text(output)
    return process.returncode, output, time.monotonic() - started


def summarise(results: list[tuple[Bench, int, str, float]]) -> tuple[bool, bool]:
    """Print the table; (every script ran, every target was met)."""
    rows = [("script", "figure", "value", "target", "met")]
    all_ran = all_met = True
    for bench, code, output, seconds in results:
        if code != 0:
            rows.append((bench.name, f"FAILED (exit {code}) after {seconds:.0f} s", "", "", "no"))
            all_ran = False
            continue
        for figure in bench.figures:
            found = re.findall(figure.pattern, output)
            value = found[-1] if found else ""
            if figure.met is None:
                met = "-"
            elif not found:
                met, all_met = "not printed", False
            elif figure.met(value):
                met = "yes"
            else:
                met, all_met = "NO", False
            rows.append((bench.name, figure.label, value or "?", figure.target, met))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    print()
    for i, row in enumerate(rows):
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
        if i == 0:
            print("  ".join("-" * width for width in widths))
    return all_ran, all_met


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="", help="comma-separated script names")
    parser.add_argument("--with-history", action="store_true", help="also reports_history (long)")
    parser.add_argument("--history-args", default="", help='e.g. "--scale 0.1"')
    args = parser.parse_args()
    benches = list(BENCHES)
    if args.with_history:
        benches.append(Bench(HISTORY.name, [*HISTORY.args, *shlex.split(args.history_args)], HISTORY.figures))
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {b.name for b in [*BENCHES, HISTORY]}
        if unknown:
            raise SystemExit(f"unknown benchmarks: {', '.join(sorted(unknown))}")
        benches = [b for b in [*BENCHES, HISTORY] if b.name in wanted]
    logs = ROOT / "var" / "bench"
    logs.mkdir(parents=True, exist_ok=True)
    print(f"{len(benches)} benchmarks, {os.cpu_count()} CPUs, load average {load_average()}")
    results = [(bench, *run(bench, logs)) for bench in benches]
    all_ran, all_met = summarise(results)
    print(f"\nlogs in {logs}; load average {load_average()}")
    print("every target met" if all_met else "some targets not met (see the table)")
    # A target not met is a finding, not a failure of the run; a script that crashed is.
    sys.exit(0 if all_ran else 1)


if __name__ == "__main__":
    main()
