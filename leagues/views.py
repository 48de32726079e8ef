"""The leagues' staff pages (SER-4): the list, a league's standings with its tournaments, the
editor of its settings and points, and the standings as CSV. Managers edit; the floor and the
cashiers read. Each page parses, calls one service or selector, and renders."""

import csv
from datetime import date

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.money import parse_chips
from cardroom.refusals import refuse
from cardroom.roles import MANAGER_ROLES, PLAYER_DESK_ROLES, RoleRequiredMixin, has_role
from cardroom.services import audit_record
from cardroom.spreadsheet import XLSX_CONTENT_TYPE, spreadsheet_row, spreadsheet_xlsx
from leagues import services
from leagues.models import PointsKind
from leagues.selectors import (
    league_candidate_tournaments,
    league_csv_rows,
    league_get,
    league_list,
    league_standings_named,
    league_table_rows,
    tournament_scores,
)
from poker.leagues import TableRow

MAX_ROWS = 200
ROW_KEYS = ("place", "low", "high", "points")


def _league_or_404(pk: int):
    league = league_get(pk=pk)
    if league is None:
        raise Http404
    return league


class LeagueListView(RoleRequiredMixin, TemplateView):
    allowed_roles = PLAYER_DESK_ROLES
    template_name = "leagues/league_list.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            leagues=league_list(), can_edit=has_role(self.request.user, *MANAGER_ROLES), **kwargs
        )


class LeagueDetailView(RoleRequiredMixin, TemplateView):
    """A league's standings (full names: staff), its tournaments, and for a manager the
    tournaments he may pick."""

    allowed_roles = PLAYER_DESK_ROLES
    template_name = "leagues/league_detail.html"

    def get_context_data(self, **kwargs):
        league = _league_or_404(kwargs["pk"])
        answer = league_standings_named(league, public=False)
        picked = {t.pk for t in answer["tournaments"]}
        return super().get_context_data(
            league=league,
            standings=answer,
            candidates=[
                {"tournament": t, "picked": t.pk in picked, "scores": tournament_scores(t)}
                for t in league_candidate_tournaments(league).select_related("rules")
            ],
            table=league_table_rows(league) if league.kind == PointsKind.TABLE else [],
            can_edit=has_role(self.request.user, *MANAGER_ROLES),
            **kwargs,
        )


class LeagueTournamentsView(RoleRequiredMixin, View):
    """A manager picks the tournaments that count (audited)."""

    allowed_roles = MANAGER_ROLES

    def post(self, request, pk: int):
        league = _league_or_404(pk)
        wanted = request.POST.getlist("tournament")[:1000]
        try:
            ids = [int(value) for value in wanted if value.isdigit() and len(value) < 12]
            services.league_tournaments_set(actor=request.user, league=league, tournament_ids=ids)
        except DomainError as error:
            refuse(request, error)
        else:
            messages.success(request, _("The league's tournaments are saved."))
        return redirect("leagues:detail", pk=pk)


def _row_op(rows: list, op: str) -> list:
    verb, _dash, index = op.partition("-")
    if verb == "add" and len(rows) < MAX_ROWS:
        return [*rows, None]
    if verb == "remove" and index.isdigit() and int(index) < len(rows):
        return rows[: int(index)] + rows[int(index) + 1 :]
    return rows


def _posted_rows(data) -> list[dict]:
    count = data.get("rows", "0")
    count = min(int(count), MAX_ROWS) if count.isdigit() else 0
    return [{key: data.get(f"{key}_{i}", "").strip()[:20] for key in ROW_KEYS} for i in range(count)]


def _whole(value: str, *, field: str, default: int | None = None) -> int | None:
    if not value and default is not None:
        return default
    if not value:
        return None
    return parse_chips(value, field=field)


def _table(rows: list[dict]) -> list[TableRow]:
    """The posted rows as the service takes them; a number that cannot be read is refused
    naming its row."""
    table = []
    for number, row in enumerate(rows, start=1):
        label = _("Row %(row)d %(what)s")
        table.append(
            TableRow(
                place=_whole(row["place"], field=label % {"row": number, "what": _("place")}, default=0),
                min_entrants=_whole(
                    row["low"], field=label % {"row": number, "what": _("from entries")}, default=1
                ),
                max_entrants=_whole(row["high"], field=label % {"row": number, "what": _("to entries")}),
                points=_whole(row["points"], field=label % {"row": number, "what": _("points")}, default=0),
            )
        )
    return table


def _date(value: str, *, field: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError as error:
        raise DomainError(
            "league_date", _("%(field)s: give a date (year-month-day).") % {"field": field}, rule="SER-4"
        ) from error


class LeagueEditView(RoleRequiredMixin, TemplateView):
    """A league's name, season, best N, and its points: the formula's two numbers or the table,
    row by row (managers)."""

    allowed_roles = MANAGER_ROLES
    template_name = "leagues/league_edit.html"

    def get_context_data(self, **kwargs):
        league = _league_or_404(kwargs["pk"]) if kwargs.get("pk") else None
        form = kwargs.pop("form", None)
        rows = kwargs.pop("rows", None)
        if form is None:
            form = {
                "name": league.name if league else "",
                "season_start": league.season_start.isoformat() if league else "",
                "season_end": league.season_end.isoformat() if league else "",
                "best_n": str(league.best_n) if league else "10",
                "kind": league.kind if league else PointsKind.FORMULA,
                "scale": str(league.formula_scale) if league else "10",
                "base": str(league.formula_base) if league else "0",
                "active": league.active if league else True,
            }
        if rows is None:
            rows = [
                {"place": r.place, "low": r.min_entrants, "high": r.max_entrants or "", "points": r.points}
                for r in (league_table_rows(league) if league else [])
            ] or [None]
        blank = dict.fromkeys(ROW_KEYS, "")
        return super().get_context_data(
            league=league, form=form, rows=[row or blank for row in rows], kinds=PointsKind.choices, **kwargs
        )

    def post(self, request, pk: int | None = None):
        league = _league_or_404(pk) if pk else None
        data = request.POST
        form = {
            key: data.get(key, "").strip()[:200] for key in ("name", "season_start", "season_end", "best_n")
        }
        form |= {key: data.get(key, "").strip()[:20] for key in ("kind", "scale", "base")}
        form["active"] = bool(data.get("active"))
        rows = _posted_rows(data)
        op = data.get("op", "save")
        if op != "save":
            return self.render_to_response(self.get_context_data(pk=pk, form=form, rows=_row_op(rows, op)))
        # Empty rows are dropped before the rows are numbered, so a refusal's row is the one shown.
        rows = [row for row in rows if any(row.values())]
        try:
            values = {
                "name": form["name"],
                "season_start": _date(form["season_start"], field=_("Season starts")),
                "season_end": _date(form["season_end"], field=_("Season ends")),
                "best_n": _whole(form["best_n"], field=_("Results counted per player"), default=0),
                "kind": form["kind"],
                "formula_scale": _whole(form["scale"], field=_("Formula scale"), default=0),
                "formula_base": _whole(form["base"], field=_("Points for every finish"), default=0),
                "table": _table(rows),
                "active": form["active"],
            }
            if league is None:
                league = services.league_create(actor=request.user, **values)
            else:
                services.league_update(actor=request.user, league=league, **values)
        except DomainError as error:
            refuse(request, error)
            return self.render_to_response(self.get_context_data(pk=pk, form=form, rows=rows), status=400)
        messages.success(request, _("League %s saved.") % league.name)
        return redirect("leagues:detail", pk=league.pk)


class LeagueCsvView(RoleRequiredMixin, View):
    """The standings as CSV or XLSX (`file_format`, from the URL), each cell made safe and typed
    for a spreadsheet (cardroom.spreadsheet), each download recorded in the audit trail."""

    allowed_roles = PLAYER_DESK_ROLES
    file_format = "csv"

    def get(self, request, pk: int):
        league = _league_or_404(pk)
        header, rows = league_csv_rows(league)
        audit_record(
            actor=request.user,
            action="report.export",
            object_type="league",
            object_id=str(league.pk),
            after={"rows": len(rows), "format": self.file_format},
        )
        filename = f"{slugify(league.name) or 'league'}-standings.{self.file_format}"
        if self.file_format == "xlsx":
            body = spreadsheet_xlsx([("standings", header, rows)])
            response = HttpResponse(body, content_type=XLSX_CONTENT_TYPE)
        else:
            response = HttpResponse(content_type="text/csv; charset=utf-8")
            writer = csv.writer(response)
            writer.writerow(spreadsheet_row(header))
            writer.writerows(spreadsheet_row(row) for row in rows)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
