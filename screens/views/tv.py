"""The room's TV clock (TRN-8): public and read-only (no log-in), full screen, in the language
its address asks for (`?lang=sk`), which its polls carry too."""

from django.http import Http404, JsonResponse
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.http import condition
from django.views.generic import TemplateView

from cardroom.screen_language import ScreenLanguageMixin
from screens.readings import shared_reading
from screens.tv import TvReading, tv_reading, tv_state_get
from tournaments.selectors.events import day_two_seats_page, event_by_pk
from tournaments.selectors.screens import clock_labels, tournament_get


def tv_labels() -> dict[str, str]:
    """The words the TV's scripts write, translated (the scripts hold no text)."""
    return {
        **clock_labels(),
        "closed": _("Closed"),
        "open": _("Open"),
        "dealTotal": _("%(players)s players shared %(amount)s"),
        "countedAt": _("counted at %(time)s"),
    }


def tournament_or_404(pk: int):
    tournament = tournament_get(pk=pk)
    if tournament is None:
        raise Http404
    return tournament


class TvClockView(ScreenLanguageMixin, TemplateView):
    template_name = "screens/tv.html"

    def get_context_data(self, **kwargs):
        tournament = tournament_or_404(kwargs["pk"])
        return super().get_context_data(
            tournament=tournament, state=tv_state_get(tournament=tournament), clock_labels=tv_labels()
        )


def _state(request, pk: int) -> TvReading:
    """This half second's reading of the TV state, kept on the request (its tag is asked first)."""
    if not hasattr(request, "tv_reading"):
        request.tv_reading = shared_reading(
            f"tv-state:{pk}:{get_language()}",
            lambda: tv_reading(tournament_or_404(pk)),
            every=TvStateView.READING_SECONDS,
        )
    return request.tv_reading


def _state_tag(request, pk: int) -> str:
    return _state(request, pk).tag


class TvStateView(ScreenLanguageMixin, View):
    """The state the TV pages, the players' phones and the floor's dashboard poll each second.

    A room's screens mostly show the same tournament, and each of them polls: one reading each
    half second serves them all (Django's cache), so forty screens cost what one does. The
    clock stays exact: a counting clock is drawn from the level's end, an instant, against the
    server's time, which every answer gives afresh (`server_now`, and the `Server-Now` header).
    A bust-out or a pause shows within half a second of it, plus the wait for the next poll.

    The ETag is the state's tag, which leaves out what only moves with time (see
    screens.tv.tv_reading): a screen that sends it back (If-None-Match) while nothing changed
    gets a 304 with the server's time alone. The script keeps the state itself, so browsers
    keep no answer (no-store).
    """

    READING_SECONDS = 0.5

    def get(self, request, pk: int):
        response = self.state(request, pk=pk)
        response["Server-Now"] = timezone.now().isoformat()
        return response

    @method_decorator(condition(etag_func=_state_tag))
    def state(self, request, pk: int):
        response = JsonResponse({**_state(request, pk).state, "server_now": timezone.now().isoformat()})
        response["Cache-Control"] = "no-store"
        return response


class DayTwoSeatsTvView(ScreenLanguageMixin, TemplateView):
    """The Day 2 seat list on the room's TV (SER-2): alphabetical, table, seat and the bag's
    count, big enough to read across the room; a long list turns its pages by itself (the page
    reloads on the next one every PAGE_SECONDS, so a lost connection only freezes one page)."""

    template_name = "screens/day_two_seats.html"
    PER_PAGE = 12
    PAGE_SECONDS = 12

    def get_context_data(self, **kwargs):
        event = event_by_pk(pk=kwargs["pk"])
        if event is None or event.day_two_id is None:
            raise Http404
        page = self.request.GET.get("page", "1")
        page = int(page) if page.isdigit() and len(page) <= 4 else 1
        lang = self.request.GET.get("lang", "")
        return super().get_context_data(
            event=event,
            seats=day_two_seats_page(event=event, page=page, per_page=self.PER_PAGE),
            page_seconds=self.PAGE_SECONDS,
            lang=lang if lang.isalpha() and len(lang) <= 5 else "",
            **kwargs,
        )
