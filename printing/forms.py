from django import forms
from django.utils.translation import gettext_lazy as _

from printing.models import Printer
from printing.services import PRINTER_FIELDS


class PrinterForm(forms.ModelForm):
    """A printer as a manager sets it up. USB ids are typed as printed on the device's label,
    in hexadecimal (04b8 for Epson)."""

    usb_vendor_id = forms.CharField(label=_("USB vendor id"), required=False, max_length=4)
    usb_product_id = forms.CharField(label=_("USB product id"), required=False, max_length=4)

    class Meta:
        model = Printer
        fields = PRINTER_FIELDS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("usb_vendor_id", "usb_product_id"):
            value = getattr(self.instance, name, None)
            if value is not None and not self.is_bound:
                self.initial[name] = f"{value:04x}"
            self.fields[name].widget.attrs.update({"placeholder": "04b8", "autocomplete": "off"})

    def _hex(self, name: str) -> int | None:
        value = self.cleaned_data.get(name, "").strip().lower().removeprefix("0x")
        if not value:
            return None
        try:
            number = int(value, 16)
        except ValueError:
            raise forms.ValidationError(_("Type the id in hexadecimal, as on the label: 04b8.")) from None
        return number

    def clean_usb_vendor_id(self):
        return self._hex("usb_vendor_id")

    def clean_usb_product_id(self):
        return self._hex("usb_product_id")

    def _post_clean(self):
        # The service checks the printer as a whole (and the database's constraints): the
        # model's own full_clean would refuse a half-filled USB printer before it could say why.
        pass


class DeskPrinterForm(forms.Form):
    printer = forms.ModelChoiceField(label=_("This desk prints on"), queryset=Printer.objects.none())

    def __init__(self, *args, printers, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["printer"].queryset = Printer.objects.filter(pk__in=[p.pk for p in printers])
