"""The room page's QR code (segno, drawn on the server): the TV clock and the waiting board show
it; it encodes PUBLIC_BASE_URL's address of the room page, or the one the screen was opened by."""

import pytest

from screens.views.public import qr_svg
from tests.tournaments.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def test_qr_code_is_an_svg_of_the_room_page_address(client):
    response = client.get("/room/qr.svg")
    assert response["Content-Type"] == "image/svg+xml"
    assert response["Cache-Control"] == "public, max-age=3600"
    svg = response.content.decode()
    assert svg == qr_svg("http://testserver/room/")
    # Version 2 (25 modules) and a quiet zone of 4 on each side, drawn at any size (no width).
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 33 33"')


def test_qr_code_uses_the_public_address_when_set(client, settings):
    settings.PUBLIC_BASE_URL = "https://room.example.com"
    assert client.get("/room/qr.svg").content.decode() == qr_svg("https://room.example.com/room/")


def test_tv_clock_and_waiting_board_show_the_qr_code(client):
    tournament = TournamentFactory(levels=[(25, 50, 600)])
    for address in (f"/tv/{tournament.pk}/", "/board/", "/board/rows/"):
        assert (
            '<img src="/room/qr.svg" alt="QR code of the room page for phones">'
            in client.get(address).content.decode()
        )
