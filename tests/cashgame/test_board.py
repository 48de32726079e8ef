"""The public waiting board on the room's TV (CSH-7): public names only, told apart (WTL-3),
games in columns, the language of its address."""

import re
from datetime import timedelta

import pytest

from cashgame.selectors import waiting_board
from cashgame.services.waiting import waiting_add, waiting_call_next
from players.selectors import public_names
from tests.cashgame.conftest import make_game, make_table
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def person(first, last, nickname="", card=None):
    return PlayerFactory(
        first_name=first, last_name=last, nickname=nickname, **({"card_number": card} if card else {})
    )


def test_public_names_tell_alike_players_apart_and_never_show_full_names__WTL_3():
    players = [
        person("Peter", "Kováč", "Nits"),
        person("Marek", "Mráz", "nits"),  # the same nickname, another case
        person("Peter", "Kováčik"),
        person("Peter", "Krajč"),
        person("Peter", "Mak"),
        person("Eva", "Kollárová"),
        person("Ivana", "Šimková", "Ivana Šimková"),  # a nickname that is the full name
        person("Jana", "Ko"),
        person("Jana", "Ko"),
    ]
    names = public_names(players)
    assert [names[p.pk] for p in players] == [
        "Nits K.",
        "nits M.",
        "Peter Ko.",
        "Peter Kr.",
        "Peter M.",
        "Eva K.",
        "Ivana Š.",
        "Jana K.",
        "Jana K. 2",  # two letters of a two-letter last name would be all of it: numbered
    ]
    assert len({name.casefold() for name in names.values()}) == len(players)
    for player in players:
        assert f"{player.first_name} {player.last_name}" not in names[player.pk]
        assert player.last_name not in names[player.pk]


def test_one_player_alone_keeps_a_plain_nickname__WTL_3():
    nits = person("Peter", "Kováč", "Nits")
    assert public_names([nits, nits]) == {nits.pk: "Nits"}  # the same player twice is one name


def test_board_tells_two_nits_apart_across_games_and_shows_no_full_name__WTL_3(client, floor):
    game12, game25 = make_game(), make_game(name="NLHE 2/5", small=200, big=500, min_buy_in=20_000)
    table = make_table(game12, 1)
    kovac = person("Peter", "Kováč", "Nits", card="900001")
    mraz = person("Marek", "Mráz", "Nits", card="900002")
    eva = person("Eva", "Kollárová", card="900003")
    for game, player in ((game12, kovac), (game12, mraz), (game12, eva), (game25, kovac)):
        waiting_add(actor=floor, game=game, player=player)
    called = waiting_call_next(actor=floor, game=game12, table=table)
    board = waiting_board(now=called.hold_until - timedelta(seconds=135))
    assert [[row["name"] for row in block["entries"]] for block in board] == [
        ["Nits K.", "Nits M.", "Eva K."],
        ["Nits K."],  # the same player in two games: the same name
    ]
    assert board[0]["entries"][0]["hold_text"] == "2:15"
    page = client.get("/board/").content.decode()
    for secret in ("Kováč", "Mráz", "Kollárová", "Peter", "Marek", "900001", "900002", "900003"):
        assert secret not in page
    assert page.count("Nits K.") == 2 and page.count("Nits M.") == 1
    assert re.search(
        r'<li class="called">.*?Nits K\.</span><span class="board-call">Table 1 · '
        r'<time data-countdown="1\d\d">[23]:\d\d</time><',
        page,
    )
    assert "--games: 2" in page
    rows = client.get("/board/rows/")
    assert rows["Cache-Control"] == "no-cache" and "Nits M." in rows.content.decode()
    # Rows as the board holds them: the browser asks with their ETag and gets a 304, no body.
    again = client.get("/board/rows/", HTTP_IF_NONE_MATCH=rows["ETag"])
    assert (again.status_code, again.content) == (304, b"")


def test_board_in_slovak_and_its_polls_too(client, floor):
    game = make_game()
    waiting_add(actor=floor, game=game, player=person("Eva", "Kollárová"))
    page = client.get("/board/?lang=sk", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="sk">' in page
    assert 'hx-get="/board/rows/?lang=sk"' in page
    rows = client.get("/board/rows/?lang=sk", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Waiting lists" not in rows
    english = client.get("/board/rows/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Waiting lists" in english and "1 waiting" in english


def test_board_refuses_an_unknown_language_and_names_it(client):
    response = client.get("/board/?lang=xx")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_language"
    assert "'xx'" in response.json()["detail"] and "en, sk" in response.json()["detail"]
