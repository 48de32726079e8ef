"""What the cash-game pages share: the POST-only action view that calls one service."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views import View

from cardroom.errors import DomainError
from cardroom.refusals import refuse
from cardroom.roles import FLOOR_ROLES, RoleRequiredMixin


def form_errors(form) -> str:
    return " ".join(f"{error}" for errors in form.errors.values() for error in errors)


def confirm_amounts(request, form, *, back: str):
    """CAG-5's second tap for an action posted from another page: the amounts shown back in
    figures and words, and the same request (its key too) sent again with them confirmed."""
    posted = [
        (name, value)
        for name, values in request.POST.lists()
        if name != "csrfmiddlewaretoken" and not name.startswith("confirm_")
        for value in values
    ]
    context = {"action": request.path, "posted": posted, "large_amounts": form.large_amounts, "back": back}
    return render(request, "cardroom/confirm_amount.html", context)


class ActionView(RoleRequiredMixin, View):
    """POST-only: bind `form_class`, call `perform`, flash the outcome, go back."""

    http_method_names = ["post"]
    allowed_roles = FLOOR_ROLES
    form_class = None
    done = ""

    def form(self):
        return self.form_class(self.request.POST) if self.form_class else None

    def perform(self, form, **kwargs):  # pragma: no cover - every view defines it
        raise NotImplementedError

    def back(self, **kwargs) -> str:  # pragma: no cover - every view defines it
        raise NotImplementedError

    def post(self, request, **kwargs):
        form = self.form()
        if form is not None and not form.is_valid():
            if getattr(form, "large_amounts", None):
                return confirm_amounts(request, form, back=self.back(**kwargs))
            messages.error(request, form_errors(form))
            return redirect(self.back(**kwargs))
        try:
            result = self.perform(form, **kwargs)
        except DomainError as error:
            refuse(request, error)
        else:
            messages.success(request, self.message(result, **kwargs))
        return redirect(self.back(**kwargs))

    def message(self, result, **kwargs) -> str:
        return str(self.done)
