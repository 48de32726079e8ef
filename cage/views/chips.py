"""The cage's chip pages (CHP-2): the inventory of each chip set, fills and credits with their
slip (printed, signed by the dealer and the floor), movements between the vault, the cage and
the players, and the count at a shift's end with each difference. Cashiers post; managers read;
the floor reads the slips it signs."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.views import View
from django.views.generic import FormView, TemplateView

from cage import services
from cage.forms.chips import MOVES, CountForm, MoveForm, SlipForm
from cage.selectors import chip_table_names, chip_tables_list
from cardroom.forms import DomainFormMixin
from cardroom.pdf import pdf_response
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, MANAGER_ROLES, RoleRequiredMixin
from chips import services as chip_services
from chips.models import ChipAccount, ChipAccountKind, ChipCount, ChipPosting, ChipSet
from chips.selectors import (
    chip_count_get,
    chip_counts_list,
    chip_inventory_get,
    chip_posting_get,
    chip_sets_list,
    chip_slips_list,
)

CAGE_READERS = (*CASHIER_ROLES, *MANAGER_ROLES)
SLIP_READERS = (*CASHIER_ROLES, *FLOOR_ROLES)


def name_accounts(accounts, postings=()) -> None:
    """Give each account (and posting) its `name` in the active language: a tray is named by
    its table (the chip ledger keeps only the table's key), the others by their kind."""
    accounts, postings = list(accounts), list(postings)
    names = chip_table_names(keys={a.table_key for a in accounts} | {p.table_key for p in postings})
    for account in accounts:
        account.name = names.get(account.table_key, account.label) if account.table_key else str(account)
    for posting in postings:
        posting.table_name = names.get(posting.table_key, posting.table_label)


class ChipInventoryView(RoleRequiredMixin, TemplateView):
    allowed_roles = CAGE_READERS
    template_name = "cashier/chips.html"

    def get_context_data(self, **kwargs):
        sets = [
            {
                "inventory": chip_inventory_get(chip_set=chip_set),
                "slips": chip_slips_list(chip_set=chip_set, limit=8),
                "counts": chip_counts_list(chip_set=chip_set, limit=5),
            }
            for chip_set in chip_sets_list()
        ]
        name_accounts(
            [row["account"] for one in sets for row in one["inventory"]["rows"]]
            + [count.account for one in sets for count in one["counts"]],
            [posting for one in sets for posting in one["slips"]],
        )
        return super().get_context_data(sets=sets, **kwargs)


class _ChipSetForm(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = CASHIER_ROLES

    @cached_property
    def chip_set(self) -> ChipSet:
        # Read after the role check (RoleRequiredMixin.dispatch): a stranger learns nothing.
        return get_object_or_404(ChipSet, pk=self.kwargs["set_id"])

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "chip_set": self.chip_set}

    def get_context_data(self, **kwargs):
        return super().get_context_data(chip_set=self.chip_set, **kwargs)


class ChipSlipNewView(_ChipSetForm):
    template_name = "cashier/chip_slip_form.html"

    def get_form_kwargs(self):
        tables = chip_tables_list(chip_set=self.chip_set)
        kwargs = {**super().get_form_kwargs(), "tables": tables}
        wanted = self.request.GET.get("table")
        if wanted and any(row["key"] == wanted for row in tables):
            kwargs["initial"] = {"table": wanted}
        return kwargs

    def get_form_class(self):
        return SlipForm

    def perform(self, form):
        data = form.cleaned_data
        return services.table_chips_move(
            actor=self.request.user,
            chip_set=self.chip_set,
            table_key=data["table"],
            kind=data["kind"],
            chips=form.counts(),
            dealer_name=data["dealer_name"],
            floor_name=data["floor_name"],
            request_key=data["request_key"],
        )

    def get_success_url(self):
        return reverse("cashier:chip-slip", args=[self.result.pk])


class ChipMoveView(_ChipSetForm):
    template_name = "cashier/chip_move_form.html"
    form_class = MoveForm

    def perform(self, form):
        source, target = MOVES[form.cleaned_data["move"]]
        common = {
            "actor": self.request.user,
            "chip_set": self.chip_set,
            "chips": form.counts(),
            "now": timezone.now(),
            "request_key": form.cleaned_data["request_key"],
        }
        if source == ChipAccountKind.IN_SERVICE:
            return chip_services.chips_receive(**common)
        return chip_services.chips_transfer(source=source, target=target, **common)

    def get_success_url(self):
        return reverse("cashier:chips")


class ChipCountNewView(_ChipSetForm):
    template_name = "cashier/chip_count_form.html"
    form_class = CountForm

    def get_form_kwargs(self):
        trays = list(
            ChipAccount.objects.filter(chip_set=self.chip_set, kind=ChipAccountKind.TRAY).order_by("pk")
        )
        name_accounts(trays)
        return {**super().get_form_kwargs(), "trays": trays}

    def perform(self, form):
        choice = form.cleaned_data["account"]
        if choice in (ChipAccountKind.CAGE, ChipAccountKind.VAULT):
            account = chip_services.chip_account_for(chip_set=self.chip_set, kind=choice)
        else:
            account = get_object_or_404(
                ChipAccount,
                pk=int(choice.removeprefix("tray:")),
                chip_set=self.chip_set,
                kind=ChipAccountKind.TRAY,
            )
        return chip_services.chip_count_record(
            actor=self.request.user,
            account=account,
            counted=form.counts(),
            now=timezone.now(),
            request_key=form.cleaned_data["request_key"],
        )

    def get_success_url(self):
        return reverse("cashier:chip-count", args=[self.result.pk])


class ChipSlipView(RoleRequiredMixin, TemplateView):
    allowed_roles = SLIP_READERS
    template_name = "cashier/chip_slip.html"

    def get_context_data(self, **kwargs):
        get_object_or_404(ChipPosting, pk=kwargs["pk"])
        slip = chip_posting_get(pk=kwargs["pk"])
        name_accounts(slip["sources"] + slip["targets"], [slip["posting"]])
        return super().get_context_data(slip=slip, **kwargs)


class ChipSlipPdfView(RoleRequiredMixin, View):
    """A fill or credit slip as a PDF, the same facts as its page (CHP-2)."""

    allowed_roles = SLIP_READERS

    def get(self, request, pk: int):
        get_object_or_404(ChipPosting, pk=pk)
        slip = chip_posting_get(pk=pk)
        name_accounts(slip["sources"] + slip["targets"], [slip["posting"]])
        return pdf_response(
            request, "cashier/chip_slip_pdf.html", {"slip": slip}, filename=f"chip-slip-{pk}.pdf"
        )


class ChipCountView(RoleRequiredMixin, TemplateView):
    allowed_roles = CAGE_READERS
    template_name = "cashier/chip_count.html"

    def get_context_data(self, **kwargs):
        get_object_or_404(ChipCount, pk=kwargs["pk"])
        report = chip_count_get(pk=kwargs["pk"])
        name_accounts([report["count"].account])
        return super().get_context_data(report=report, **kwargs)
