from django.urls import path, re_path

from devices import views

app_name = "devices"

urlpatterns = [
    # The managers' page: pair a tablet to a table, see and unpair the tablets.
    path("tablets/", views.DeviceListView.as_view(), name="list"),
    path("tablets/<number:pk>/unpair/", views.DeviceUnpairView.as_view(), name="unpair"),
    # The tablet's own pages: the only paths a paired tablet reaches (devices.middleware).
    path("tablet/", views.TabletView.as_view(), name="tablet"),
    path("tablet/seats/", views.TabletSeatsView.as_view(), name="tablet-seats"),
    path("tablet/pair/", views.PairView.as_view(), name="pair"),
    re_path(
        r"^tablet/(?P<action>start|flop|end|void)/$", views.TabletActionView.as_view(), name="tablet-action"
    ),
]
