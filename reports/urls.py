from django.urls import path

from reports import views
from reports.views import pdf

app_name = "reports"

urlpatterns = [
    path("", views.DailyReportView.as_view(), name="daily"),
    path("pdf/", pdf.DailyReportPdfView.as_view(), name="daily-pdf"),
    path("shifts/<number:pk>/pdf/", pdf.ShiftClosePdfView.as_view(), name="shift-pdf"),
    path("range/", views.RangeReportView.as_view(), name="range"),
    path("players/", views.PlayerActivityView.as_view(), name="players"),
    path("aml/", views.AmlReportView.as_view(), name="aml"),
    path("operator/", views.OperatorReportView.as_view(), name="operator"),
    path("operator/range/", views.OperatorRangeReportView.as_view(), name="operator-range"),
]
