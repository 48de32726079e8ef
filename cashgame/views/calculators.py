"""The floor's calculators: side pots, showdown order, best hand, raises, the big blind ante."""

from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, Role, RoleRequiredMixin
from cashgame import calculator_forms as forms
from cashgame import calculators

CALCULATORS = {
    "pots": (forms.SidePotForm, lambda data: calculators.side_pots(**data)),
    "showdown": (forms.ShowdownForm, lambda data: {"order": calculators.showdown(**data)}),
    "hand": (forms.BestHandForm, lambda data: calculators.best_hand(**data)),
    "raise": (forms.RaiseForm, lambda data: calculators.raise_limits(**data)),
    "bba": (forms.BigBlindAnteForm, lambda data: calculators.big_blind_ante(**data)),
}


class CalculatorsView(RoleRequiredMixin, TemplateView):
    """Side pots (POT-1, POT-2), showdown order (POT-3), best hand (HND-1), raises (BET-2..4).
    Computing writes nothing, so it is a GET with the calculator's name in `calc`."""

    allowed_roles = (*FLOOR_ROLES, Role.CASHIER)
    template_name = "cashgame/calculators.html"

    def get_context_data(self, **kwargs):
        chosen = self.request.GET.get("calc", "")
        context = {}
        for name, (form_class, compute) in CALCULATORS.items():
            form = form_class(self.request.GET) if name == chosen else form_class()
            result = error = None
            if name == chosen and form.is_valid():
                try:
                    result = compute(form.cleaned_data)
                except DomainError as refused:
                    error = refused
            context[name] = {"form": form, "result": result, "error": error}
        return super().get_context_data(calc=context, chosen=chosen, **kwargs)
