from django.urls import path

from printing import views

app_name = "printing"

urlpatterns = [
    path("", views.PrinterListView.as_view(), name="printers"),
    path("desk/", views.DeskPrinterView.as_view(), name="desk-printer"),
    path("jobs/<number:pk>/print-again/", views.JobRetryView.as_view(), name="job-retry"),
]
