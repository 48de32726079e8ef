"""The levels of a tournament edited on a page (TRN-7, TRN-8): duration, blinds and ante of every
level not finished yet; the clock follows a new length of the level being played."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.money import parse_chips
from cardroom.refusals import refuse
from cardroom.roles import FLOOR_ROLES
from tournaments.models import Tournament, TournamentStatus
from tournaments.selectors import level_numbers
from tournaments.services.levels import tournament_levels_edit
from tournaments.views.common import TournamentPage

CHIP_FIELDS = (("sb", "small_blind_chips"), ("bb", "big_blind_chips"), ("ante", "ante_chips"))


def _rows(tournament: Tournament, posted=None) -> list[dict]:
    levels = list(tournament.levels.order_by("order"))
    current = tournament.current_level_index if tournament.clock_started else -1
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        current = len(levels)  # nothing left to change
    rows = []
    for index, (level, number) in enumerate(zip(levels, level_numbers(levels), strict=True)):
        values = {
            "sb": level.small_blind_chips,
            "bb": level.big_blind_chips,
            "ante": level.ante_chips,
            "bba": level.big_blind_ante,
            "minutes": level.minutes,
        }
        if posted is not None and index >= current:
            values.update(
                {key: posted.get(f"{key}_{level.order}", "")[:14] for key in ("sb", "bb", "ante", "minutes")}
            )
            values["bba"] = f"bba_{level.order}" in posted
        rows.append(
            {
                "level": level,
                "number": number,
                "values": values,
                "done": index < current,
                "current": index == current,
            }
        )
    return rows


def _changes(tournament: Tournament, posted) -> dict[int, dict]:
    """What the form changed, level by level; a value that cannot be read is refused by name."""
    changes: dict[int, dict] = {}
    for row in _rows(tournament):
        level = row["level"]
        if row["done"]:
            continue
        change = {}
        minutes = posted.get(f"minutes_{level.order}", "").strip()
        if minutes and minutes != str(level.minutes):
            if not minutes.isdigit() or len(minutes) > 4:
                raise DomainError(
                    "invalid_level_minutes",
                    _("Row %(row)d: give the minutes as a whole number.") % {"row": level.order},
                    rule="TRN-7",
                )
            change["minutes"] = int(minutes)
        if not level.is_break:
            for key, field in CHIP_FIELDS:
                raw = posted.get(f"{key}_{level.order}", "").strip()
                label = _("Row %(row)d") % {"row": level.order}
                value = parse_chips(raw or "0", field=label)
                if value != getattr(level, field):
                    change[field] = value
            bba = f"bba_{level.order}" in posted
            if bba != level.big_blind_ante:
                change["big_blind_ante"] = bba
        if change:
            changes[level.order] = change
    return changes


class LevelsEditView(TournamentPage):
    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/levels.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["rows"] = _rows(context["tournament"], kwargs.get("posted"))
        return context

    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        try:
            changes = _changes(tournament, request.POST)
            if not changes:
                messages.info(request, _("Nothing was changed."))
                return redirect("tournaments:levels", pk=pk)
            changed = tournament_levels_edit(actor=request.user, tournament=tournament, changes=changes)
        except DomainError as error:
            refuse(request, error)
            return self.render_to_response(self.get_context_data(pk=pk, posted=request.POST), status=400)
        if changed:
            rows = ", ".join(str(level.order) for level in changed)
            messages.success(request, _("Saved: rows %s.") % rows)
        else:
            messages.info(request, _("Nothing was changed."))
        return redirect("tournaments:levels", pk=pk)
