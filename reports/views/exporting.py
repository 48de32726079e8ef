"""The files of a report page: every table as CSV (`?export=<table>`) or XLSX
(`?export=<table>&format=xlsx`, one sheet), the whole report as one XLSX workbook with a sheet
per table (`?export=all&format=xlsx`), each file made from the same rows and recorded in the
audit trail with who asked, the query, the filters and the number of rows."""

import csv

from django.http import HttpResponse

from cardroom.selectors import venue_get
from cardroom.services import audit_record
from cardroom.spreadsheet import XLSX_CONTENT_TYPE, spreadsheet_row, spreadsheet_xlsx
from reports import exports

ALL_TABLES = "all"  # ?export=all&format=xlsx: the whole report, a sheet per table
FORMATS = ("csv", "xlsx")


def export_record(*, request, report: str, table: str, file_format: str, filters: dict, rows: int) -> None:
    """One download of a report's table (CSV, XLSX) or of its PDF, in the audit trail."""
    audit_record(
        actor=request.user,
        action="report.export",
        object_type="report",
        object_id=f"{report}:{table}",
        after={"query": request.GET.urlencode(), "filters": filters, "rows": rows, "format": file_format},
    )


class SpreadsheetExportMixin:
    """Answers `?export=...` with a file instead of the page. `csv_tables` (in the context) maps
    each table's name to a function giving (header, rows): only the tables asked for are built."""

    report_name = ""

    @staticmethod
    def filters(context) -> dict:
        """The period and filters the file was made for, defaults included, for the audit trail."""
        form = context.get("form")
        data = form.cleaned_data if form is not None and form.is_valid() else {}
        return {name: value if isinstance(value, str) else str(value) for name, value in data.items()}

    def render_to_response(self, context, **kwargs):
        asked = self.request.GET.get("export")
        file_format = self.request.GET.get("format", "csv")
        tables = context.get("csv_tables", {})
        if file_format == "xlsx" and asked == ALL_TABLES:
            names = list(tables)
        elif asked in tables and file_format in FORMATS:
            names = [asked]
        else:
            return super().render_to_response(context, **kwargs)
        built = [(name, *self.csv_table(tables[name]())) for name in names]
        export_record(
            request=self.request,
            report=self.report_name,
            table=asked,
            file_format=file_format,
            filters=self.filters(context),
            rows=sum(len(rows) for _name, _header, rows in built),
        )
        filename = f"{self.report_name}-{asked}.{file_format}"
        if file_format == "xlsx":
            response = HttpResponse(spreadsheet_xlsx(built), content_type=XLSX_CONTENT_TYPE)
        else:
            _name, header, rows = built[0]
            response = HttpResponse(content_type="text/csv; charset=utf-8")
            response.write("\ufeff")  # the byte-order mark, so spreadsheets read the names as UTF-8
            writer = csv.writer(response)
            writer.writerow(spreadsheet_row(header))
            writer.writerows(spreadsheet_row(row) for row in rows)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def csv_table(self, table: exports.Table) -> exports.Table:
        """Every row names the venue of its figures (VEN-1): the venue the page works for."""
        return exports.with_venue(venue_get().name, table)
