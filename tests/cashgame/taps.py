"""Every button a page offers, as a browser would post it: "no button that will be refused".

`page_taps(html)` reads a page's POST forms and returns, per enabled submit button, the form's
address and the data the button sends: hidden and prefilled fields as they are, a select's chosen
(or first) option. A form with a required field left empty is the staff's to fill in (bad input is
refused with a message, which is not a refused button) and is left out, as is a disabled button.
`each_tap` posts them one by one, each in a savepoint rolled back after, so every tap meets the
page's state as it was drawn.
"""

from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.db import transaction

TEXT_INPUTS = {"hidden", "text", "search", "number", "date", "tel", "email", ""}


@dataclass
class _Form:
    method: str
    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    buttons: list[dict] = field(default_factory=list)
    needs_input: bool = False


@dataclass
class Tap:
    action: str
    data: dict
    label: str


class _Forms(HTMLParser):
    def __init__(self):
        super().__init__()
        self.forms: list[_Form] = []
        self.form: _Form | None = None
        self.select: dict | None = None
        self.button: dict | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.form = _Form(method=(attrs.get("method") or "get").lower(), action=attrs.get("action", ""))
            self.forms.append(self.form)
        if self.form is None:
            return
        if tag == "input" and attrs.get("name") and attrs.get("type", "") in TEXT_INPUTS:
            value = attrs.get("value") or ""
            self.form.fields.append((attrs["name"], value))
            if "required" in attrs and not value:
                self.form.needs_input = True
        elif tag == "select" and attrs.get("name"):
            self.select = {"name": attrs["name"], "first": None, "chosen": None}
        elif tag == "option" and self.select is not None:
            if self.select["first"] is None:
                self.select["first"] = attrs.get("value", "")
            if "selected" in attrs:
                self.select["chosen"] = attrs.get("value", "")
        elif tag == "button" and attrs.get("type", "submit") == "submit" and "disabled" not in attrs:
            self.button = {"name": attrs.get("name"), "value": attrs.get("value", ""), "text": ""}

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "select" and self.select is not None and self.form is not None:
            value = self.select["chosen"] if self.select["chosen"] is not None else self.select["first"]
            if value is None:
                self.form.needs_input = True
            else:
                self.form.fields.append((self.select["name"], value))
            self.select = None
        elif tag == "button" and self.button is not None and self.form is not None:
            self.form.buttons.append(self.button)
            self.button = None

    def handle_data(self, data):
        if self.button is not None:
            self.button["text"] += data


def page_taps(html: str, *, under: str = "/cashgame/", per_form: int = 3) -> list[Tap]:
    """The enabled submit buttons of the page's POST forms to addresses `under` (not the page
    shell's language and log-out buttons) that need nothing typed (at most `per_form` buttons a
    form: a row of seat numbers is one choice)."""
    parser = _Forms()
    parser.feed(html)
    taps = []
    for form in parser.forms:
        if form.method != "post" or form.needs_input or not form.action.startswith(under):
            continue
        for button in form.buttons[:per_form]:
            data = dict(form.fields)
            if button["name"]:
                data[button["name"]] = button["value"]
            taps.append(Tap(action=form.action, data=data, label=" ".join(button["text"].split())))
    return taps


def each_tap(client, taps: list[Tap], outcome, **headers) -> set[str]:
    """The outcomes (`outcome(response)`, with the tap's label) of every tap, each posted in a
    savepoint rolled back after; {"success"} when every one was carried out."""
    outcomes = set()
    for tap in taps:
        with transaction.atomic():
            response = client.post(tap.action, tap.data, **headers)
            result = outcome(response)
            outcomes.add(result if result == "success" else f"{tap.label}: {result}")
            transaction.set_rollback(True)
    return outcomes
