"""Editors as pages: a blind structure's levels (TRN-7) and a tournament's payout table (TRN-10),
row by row. Adding, removing and moving rows only redraws the form; Save writes through the
service, which refuses the whole table naming the row at fault and writes nothing."""

import contextlib
from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.money import parse_chips
from cardroom.refusals import refuse
from cardroom.roles import FLOOR_ROLES, MANAGER_ROLES, RoleRequiredMixin
from chips.models import ChipSet, ChipSetKind
from poker.payouts import BASIS_POINTS
from tournaments.models import BlindStructure, LevelKind, Tournament
from tournaments.selectors import tournament_rules_get
from tournaments.services import payouts, structures
from tournaments.services.payouts.table import payout_percentages_for
from tournaments.views.common import TournamentPage

MAX_ROWS = 100
LEVEL_KEYS = ("kind", "sb", "bb", "ante", "bba", "minutes", "note")


def _row_op(rows: list, op: str) -> list:
    """Add, remove or move a row of the form; anything else leaves the rows as they are."""
    verb, _dash, index = op.partition("-")
    if verb == "add" and len(rows) < MAX_ROWS:
        return [*rows, None]
    if not index.isdigit() or int(index) >= len(rows):
        return rows
    i = int(index)
    rows = list(rows)
    if verb == "remove":
        del rows[i]
    elif verb == "up" and i > 0:
        rows[i - 1], rows[i] = rows[i], rows[i - 1]
    elif verb == "down" and i + 1 < len(rows):
        rows[i + 1], rows[i] = rows[i], rows[i + 1]
    return rows


def _posted_levels(data) -> list[dict]:
    count = data.get("rows", "0")
    count = min(int(count), MAX_ROWS) if count.isdigit() else 0
    return [{key: data.get(f"{key}_{i}", "").strip()[:200] for key in LEVEL_KEYS} for i in range(count)]


def _level_input(row: dict, position: int) -> dict:
    """A posted row as the structure service takes it; a number that cannot be read is refused
    naming its row."""
    kind = row["kind"] or LevelKind.LEVEL
    level = {"kind": kind, "big_blind_ante": bool(row["bba"]), "note": row["note"]}
    for key, field, label in (
        ("sb", "small_blind_chips", _("small blind")),
        ("bb", "big_blind_chips", _("big blind")),
        ("ante", "ante_chips", _("ante")),
    ):
        level[field] = parse_chips(
            row[key] or "0", field=_("Row %(row)d %(what)s") % {"row": position, "what": label}
        )
    minutes = row["minutes"]
    if not minutes.isdigit() or len(minutes) > 4:
        raise DomainError(
            "invalid_level_minutes",
            _("Row %(row)d: give the minutes as a whole number.") % {"row": position},
            rule="TRN-7",
        )
    level["minutes"] = int(minutes)
    return level


class StructureEditView(RoleRequiredMixin, TemplateView):
    """A structure's name and its levels and breaks, row by row (managers, ROL-1)."""

    allowed_roles = MANAGER_ROLES
    template_name = "tournaments/structure_edit.html"

    def get_context_data(self, **kwargs):
        structure = get_object_or_404(BlindStructure, pk=kwargs["pk"]) if kwargs.get("pk") else None
        rows = kwargs.pop("rows", None)
        name, description = kwargs.pop("name", None), kwargs.pop("description", None)
        if rows is None and structure is not None:
            rows = [
                {
                    "kind": level.kind,
                    "sb": level.small_blind_chips or "",
                    "bb": level.big_blind_chips or "",
                    "ante": level.ante_chips or "",
                    "bba": level.big_blind_ante,
                    "minutes": level.minutes,
                    "note": level.note,
                }
                for level in structure.levels.order_by("order")
            ]
        rows = rows if rows is not None else [None]
        blank = dict.fromkeys(LEVEL_KEYS, "") | {"kind": LevelKind.LEVEL}
        return super().get_context_data(
            structure=structure,
            name=name if name is not None else (structure.name if structure else ""),
            description=description
            if description is not None
            else (structure.description if structure else ""),
            rows=[row or blank for row in rows],
            kinds=LevelKind.choices,
            chip_sets=ChipSet.objects.filter(kind=ChipSetKind.TOURNAMENT).order_by("pk"),
            chip_set_id=kwargs.pop("chip_set_id", None) or (structure.chip_set_id if structure else None),
            **kwargs,
        )

    def post(self, request, pk: int | None = None):
        structure = get_object_or_404(BlindStructure, pk=pk) if pk else None
        rows = _posted_levels(request.POST)
        name, description = request.POST.get("name", "")[:200], request.POST.get("description", "")[:2000]
        op = request.POST.get("op", "save")
        if op != "save":
            return self.render_to_response(
                self.get_context_data(pk=pk, rows=_row_op(rows, op), name=name, description=description)
            )
        wanted = request.POST.get("chip_set", "")
        chip_set = (
            ChipSet.objects.filter(pk=int(wanted)).first() if wanted.isdigit() and len(wanted) < 10 else None
        )
        try:
            levels = [_level_input(row, position) for position, row in enumerate(rows, start=1)]
            if structure is None:
                structure = structures.structure_create(
                    actor=request.user, name=name, description=description, levels=levels, chip_set=chip_set
                )
            else:
                structures.structure_update(
                    actor=request.user,
                    structure=structure,
                    name=name,
                    description=description,
                    levels=levels,
                    chip_set=chip_set,
                )
        except DomainError as error:
            refuse(request, error)
            context = self.get_context_data(
                pk=pk, rows=rows, name=name, description=description, chip_set_id=chip_set and chip_set.pk
            )
            return self.render_to_response(context, status=400)
        messages.success(request, _("Structure %s saved.") % structure.name)
        return redirect("tournaments:structure-detail", pk=structure.pk)


def _percent_text(basis_points: int) -> str:
    """Basis points as the per cent the page shows, in the active locale ("12.50", "12,50")."""
    return number_format(Decimal(basis_points) / 100, 2)


class PayoutTableEditView(TournamentPage):
    """The tournament's payout table, one row per place (TRN-10); empty goes back to the default."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/payout_table.html"

    def get_context_data(self, **kwargs):
        rows = kwargs.pop("rows", None)
        context = super().get_context_data(**kwargs)
        tournament = context["tournament"]
        if rows is None:
            rules = tournament_rules_get(tournament=tournament)
            rows = [_percent_text(bp) for bp in payout_percentages_for(tournament, rules)]
        rows = [value or "" for value in rows]
        total = Decimal(0)
        for value in rows:
            with contextlib.suppress(InvalidOperation):
                total += Decimal(value.replace(",", ".")) if value else 0
        full = _percent_text(BASIS_POINTS)
        shown = number_format(total, 2) if total.is_finite() else "—"
        context.update(rows=rows, total=shown, full=full)
        return context

    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        rows = [value.strip()[:12] for value in request.POST.getlist("place")[: MAX_ROWS * 10]]
        op = request.POST.get("op", "save")
        if op not in ("save", "default"):
            return self.render_to_response(self.get_context_data(pk=pk, rows=_row_op(rows, op)))
        try:
            points = (
                []
                if op == "default"
                else [_basis_points(value, place) for place, value in enumerate(rows, 1)]
            )
            payouts.payout_table_set(actor=request.user, tournament=tournament, percentages=points)
        except DomainError as error:
            refuse(request, error)
            return self.render_to_response(self.get_context_data(pk=pk, rows=rows), status=400)
        messages.success(request, _("Payout table saved."))
        return redirect("tournaments:payout-table", pk=pk)


def _basis_points(value: str, place: int) -> int:
    """ "12.5" (per cent, at most two decimals) -> 1250 basis points; refused naming the place."""
    try:
        percent = Decimal(value.replace(",", "."))
    except InvalidOperation:
        percent = None
    if percent is None or not percent.is_finite() or percent < 0 or (percent * 100) % 1:
        raise DomainError(
            "bad_percentages",
            _("Place %(place)d: “%(value)s” is not a percentage with at most two decimals.")
            % {"place": place, "value": value},
            rule="TRN-10",
        )
    return int(percent * 100)
