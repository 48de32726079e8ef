"""A table's chip counts entered seat by seat (issue 27, item 3): the table drawn with its seats,
each with its player, his last count and one box to type the new one in, as the floor writes
numbers ("12,500", "12 500"). Floor staff and managers; cashiers post money, not counts."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import ngettext

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES
from tournaments import refusals
from tournaments.models import Table
from tournaments.selectors.counts import open_tables, table_counts_get
from tournaments.services.counts import chip_counts_record
from tournaments.views.common import TournamentPage

# A count as typed is at most this long ("1 234 567 890").
TYPED_LENGTH = 16


def counts_from_post(data, seats: int) -> tuple[dict[int, str], dict[int, int]]:
    """({seat: chips as typed}, {seat: entry id the page showed}) from `seat_<n>` and `entry_<n>`;
    blank boxes are left out. The service parses and checks the counts."""
    counts, entries = {}, {}
    for seat in range(1, seats + 1):
        typed = data.get(f"seat_{seat}", "").strip()[:TYPED_LENGTH]
        if not typed:
            continue
        counts[seat] = typed
        shown = data.get(f"entry_{seat}", "")
        if shown.isdigit() and len(shown) <= 9:
            entries[seat] = int(shown)
    return counts, entries


class TableCountsView(TournamentPage):
    """GET: the table's seats with their last counts and the boxes; POST: record what was typed
    (refused, the page comes back with what was typed and why, nothing written)."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/table_counts.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = context["tournament"]
        table = get_object_or_404(Table, pk=kwargs["table_id"], tournament=tournament)
        drawing = table_counts_get(tournament=tournament, table=table)
        posted = self.request.POST
        for seat in drawing["seats"]:
            seat["typed"] = posted.get(f"seat_{seat['seat']}", "")[:TYPED_LENGTH]
        others = [row for row in open_tables(tournament=tournament) if row.pk != table.pk]
        context.update(
            drawing=drawing,
            table=table,
            other_tables=others,
            refusal=refusals.chip_count_refusal(tournament),
            error=kwargs.get("error"),
            note=posted.get("note", "")[:200],
        )
        return context

    def post(self, request, pk: int, table_id: int):
        context = self.get_context_data(pk=pk, table_id=table_id)
        table = context["table"]
        counts, entries = counts_from_post(request.POST, table.seats)
        try:
            rows = chip_counts_record(
                tournament=context["tournament"],
                table=table,
                counts=counts,
                entries=entries,
                actor=request.user,
                note=request.POST.get("note", ""),
            )
        except DomainError as error:
            context["error"] = error
            return self.render_to_response(context, status=400)
        messages.success(
            request,
            ngettext("%(table)s: %(n)d count recorded.", "%(table)s: %(n)d counts recorded.", len(rows))
            % {"table": table, "n": len(rows)},
        )
        return redirect("tournaments:table-counts", pk=pk, table_id=table_id)
