"""A player's data rights on the player card (GDP-1), for managers: the export as JSON or CSV,
the erasure with its confirm step, and the reading of a sealed identity with its reason."""

import csv
import io
import json
import zipfile
from datetime import date, datetime

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views.generic import FormView, View

from cardroom.errors import DomainError
from cardroom.roles import MANAGER_ROLES, RoleRequiredMixin
from cardroom.spreadsheet import XLSX_CONTENT_TYPE, spreadsheet_row, spreadsheet_xlsx
from players.forms import ErasureForm, IdentityReadForm
from players.models import IdDocumentType, Player, PlayerErasure, pseudonym_of
from players.selectors.data_export import player_data_tables
from players.selectors.data_rights import erasure_outlook
from players.services.data_rights import (
    EXPORT_FORMATS,
    player_data_export,
    player_erase,
    player_identity_read,
)


def _csv(header: list[str], rows: list[list]) -> str:
    text = io.StringIO()
    text.write("\ufeff")  # the byte-order mark, so spreadsheets read the names as UTF-8
    writer = csv.writer(text)
    writer.writerow(spreadsheet_row(header))
    writer.writerows(spreadsheet_row(row) for row in rows)
    return text.getvalue()


def _timed(header: list[str], rows: list[list]) -> list[list]:
    """The rows with each time column's ISO text (`at`, `..._at`) as a time, so the XLSX has date
    cells."""
    timed = [i for i, name in enumerate(header) if name == "at" or name.endswith("_at")]
    return [
        [
            datetime.fromisoformat(value) if i in timed and isinstance(value, str) and value else value
            for i, value in enumerate(row)
        ]
        for row in rows
    ]


def _shown(identity: dict) -> dict:
    """The sealed identity with its dates as dates and the document type by its label."""
    person = dict(identity["identity"])
    person["date_of_birth"] = date.fromisoformat(person["date_of_birth"]) if person["date_of_birth"] else None
    if person["id_document_type"] in IdDocumentType.values:
        person["id_document_type"] = IdDocumentType(person["id_document_type"]).label
    moments = {
        name: datetime.fromisoformat(identity[name]) if identity.get(name) else None
        for name in ("id_verified_at", "last_transaction_at")
    }
    return {**identity, **moments, "identity": person}


class PlayerDataExportView(RoleRequiredMixin, View):
    """Everything held about the player as a download: one JSON file, a ZIP of CSV files (one
    per section) or one workbook (a sheet per section). Audited by the service."""

    allowed_roles = MANAGER_ROLES
    http_method_names = ["get"]

    def get(self, request, pk: int, data_format: str):
        if data_format not in EXPORT_FORMATS:
            raise Http404
        player = get_object_or_404(Player, pk=pk)
        document = player_data_export(actor=request.user, player=player, data_format=data_format)
        name = f"player-{player.pk}-data-{timezone.localdate():%Y-%m-%d}"
        if data_format == "json":
            response = HttpResponse(
                json.dumps(document, ensure_ascii=False, indent=2),
                content_type="application/json; charset=utf-8",
            )
            response["Content-Disposition"] = f'attachment; filename="{name}.json"'
        elif data_format == "xlsx":
            tables = player_data_tables(document).items()
            workbook = spreadsheet_xlsx(
                [(section, header, _timed(header, rows)) for section, (header, rows) in tables]
            )
            response = HttpResponse(workbook, content_type=XLSX_CONTENT_TYPE)
            response["Content-Disposition"] = f'attachment; filename="{name}.xlsx"'
        else:
            archive = io.BytesIO()
            with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as files:
                for section, (header, rows) in player_data_tables(document).items():
                    files.writestr(f"{name}/{section}.csv", _csv(header, rows).encode())
            response = HttpResponse(archive.getvalue(), content_type="application/zip")
            response["Content-Disposition"] = f'attachment; filename="{name}-csv.zip"'
        response["Cache-Control"] = "no-store"
        return response


class PlayerErasureView(RoleRequiredMixin, FormView):
    """The confirm step: what an erasure would do now, or why it is refused, and the request."""

    allowed_roles = MANAGER_ROLES
    template_name = "players/erase_confirm.html"
    form_class = ErasureForm

    @cached_property
    def player(self) -> Player:
        return get_object_or_404(Player, pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            player=self.player,
            outlook=erasure_outlook(player=self.player),
            pseudonym=pseudonym_of(self.player.pk),
            **kwargs,
        )

    def form_valid(self, form):
        try:
            erasure = player_erase(actor=self.request.user, player=self.player, **form.cleaned_data)
        except DomainError as error:
            if self._same_erasure(error, form.cleaned_data["request"]) is None:
                # The message in words; the rule is linked on the page, not pasted into it.
                form.add_error(None, error.message)
                return self.form_invalid(form)
            # The first tap's answer already carries the message.
            return redirect("players:detail", pk=self.player.pk)
        messages.success(
            self.request,
            _("Personal data erased: the card is now %(pseudonym)s.")
            % {"pseudonym": erasure.player.full_name},
        )
        return redirect("players:detail", pk=self.player.pk)

    def _same_erasure(self, error: DomainError, request: str) -> PlayerErasure | None:
        """A second tap on the same form finds the player erased by this very request: it is
        the same erasure, answered as the first was, not an error."""
        if error.code != "already_erased":
            return None
        return PlayerErasure.objects.filter(
            player=self.player, erased_by=self.request.user, request=request.strip()
        ).first()


class PlayerIdentityView(RoleRequiredMixin, FormView):
    """A sealed identity, shown once to a manager who gave the reason (audited by the service);
    never cached, never stored elsewhere."""

    allowed_roles = MANAGER_ROLES
    template_name = "players/identity_read.html"
    form_class = IdentityReadForm

    @cached_property
    def player(self) -> Player:
        return get_object_or_404(Player, pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        erasure = PlayerErasure.objects.filter(player=self.player).first()
        return super().get_context_data(player=self.player, erasure=erasure, **kwargs)

    def form_valid(self, form):
        try:
            identity = player_identity_read(actor=self.request.user, player=self.player, **form.cleaned_data)
        except DomainError as error:
            form.add_error(None, error.message)
            return self.form_invalid(form)
        page = self.render_to_response(
            self.get_context_data(form=self.form_class(), identity=_shown(identity))
        )
        page["Cache-Control"] = "no-store"
        return page
