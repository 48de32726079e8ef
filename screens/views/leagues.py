"""The leagues' standings on the room's screens (SER-4): the TV page (big, paged) and the
players' pages (the room page's leagues and a league's full standings). Public and read-only, in
the language of `?lang=`."""

from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.utils.decorators import method_decorator
from django.utils.translation import get_language
from django.views import View
from django.views.decorators.http import condition
from django.views.generic import TemplateView

from cardroom.screen_language import ScreenLanguageMixin
from leagues.selectors import league_get
from screens.leagues import league_screen_get, leagues_room_get
from screens.readings import Tagged, shared_reading

# The standings change when a tournament's player busts: a reading per 5 s serves every screen.
READING_SECONDS = 5
# Each TV page shows this long; after a round of the pages the TV loads the standings afresh.
TV_PAGE_SECONDS = 10
ROOM_LEAGUES_TEMPLATE = "screens/room/_leagues.html"


def league_or_404(pk: int):
    league = league_get(pk=pk)
    if league is None or not league.active:
        raise Http404
    return league


def _screen(pk: int) -> dict:
    return shared_reading(
        f"league:{pk}:{get_language()}",
        lambda: league_screen_get(league=league_or_404(pk)),
        every=READING_SECONDS,
    )


class TvLeagueView(ScreenLanguageMixin, TemplateView):
    """The league's standings on the room's TV: one page of rows at a time, turning every
    TV_PAGE_SECONDS (static/js/tv-pages.js); the page reloads itself after each round."""

    template_name = "screens/tv_league.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(screen=_screen(kwargs["pk"]), page_seconds=TV_PAGE_SECONDS, **kwargs)


class LeagueView(ScreenLanguageMixin, TemplateView):
    """A league's full standings on the players' phones."""

    template_name = "screens/room/league.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(screen=_screen(kwargs["pk"]), **kwargs)


def _room_leagues(request) -> Tagged:
    if not hasattr(request, "room_leagues"):
        request.room_leagues = shared_reading(
            f"lobby-leagues:{get_language()}",
            lambda: Tagged.of(
                render_to_string(ROOM_LEAGUES_TEMPLATE, {"leagues": leagues_room_get()}, request)
            ),
            every=READING_SECONDS,
        )
    return request.room_leagues


def _room_leagues_tag(request, *args, **kwargs) -> str:
    return _room_leagues(request).tag


class RoomLeaguesView(ScreenLanguageMixin, View):
    """The room page's leagues, fetched by the page once it is shown (the room page itself stays
    at its pinned queries): each league's leaders and a link to its full standings."""

    @method_decorator(condition(etag_func=_room_leagues_tag))
    def get(self, request, *args, **kwargs):
        response = HttpResponse(_room_leagues(request).text)
        response["Cache-Control"] = "no-cache"
        return response
