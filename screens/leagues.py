"""What the room's screens show of the leagues (SER-4): the standings with public names only
(WTL-3), read through the leagues' selectors, split into pages for the TV.

The standings are computed from the tournaments' places at each reading (leagues.selectors), so
a corrected place shows on the next one; the screens read them at most once per
READING_SECONDS for all screens together (screens.readings.shared_reading, in the views).
"""

from leagues.selectors import league_active_list, league_standings_named

# Rows on one TV page: the type stays readable across the room (6 m) on a 1080-line screen.
TV_ROWS_PER_PAGE = 12
# The room page shows each league's leaders; the league's own page shows everyone.
ROOM_ROWS = 5


def _pages(rows: list, size: int) -> list[list]:
    return [rows[start : start + size] for start in range(0, len(rows), size)] or [[]]


def league_screen_get(*, league, rows_per_page: int = TV_ROWS_PER_PAGE) -> dict:
    """A league's standings for the TV and the players' page: rows of rank, public name, points,
    best finish and results, in pages."""
    answer = league_standings_named(league, public=True)
    return {
        "league": league,
        "scored": answer["scored"],
        "tournaments": len(answer["tournaments"]),
        "rows": answer["table"],
        "pages": _pages(answer["table"], rows_per_page),
    }


def leagues_room_get() -> list[dict]:
    """The room page's leagues: each league shown on the screens, with its leaders."""
    shown = []
    for league in league_active_list():
        screen = league_screen_get(league=league)
        shown.append(
            {**screen, "leaders": screen["rows"][:ROOM_ROWS], "more": max(0, len(screen["rows"]) - ROOM_ROWS)}
        )
    return shown
