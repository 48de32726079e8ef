"""Mounted at /notices/ by cardroom/urls.py."""

from django.urls import path

from notices import views

app_name = "notices"

urlpatterns = [
    path("sw.js", views.service_worker, name="service-worker"),
    path("<slug:where>/<str:token>/consent/", views.ConsentView.as_view(), name="consent"),
    path("<slug:where>/<str:token>/subscription/", views.SubscriptionView.as_view(), name="subscription"),
    path("<slug:where>/<str:token>/withdraw/", views.WithdrawView.as_view(), name="withdraw"),
]
