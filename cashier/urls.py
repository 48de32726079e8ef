from django.urls import path

from cashier import api, views

urlpatterns = [
    path("player-pick/", views.PlayerPickView.as_view(), name="player-pick"),
    path("shifts/", views.ShiftListView.as_view(), name="shifts"),
    path("shifts/open/", views.ShiftOpenView.as_view(), name="shift-open"),
    path("shifts/<number:pk>/", views.ShiftDetailView.as_view(), name="shift-detail"),
    path("shifts/<number:pk>/close/", views.ShiftCloseView.as_view(), name="shift-close"),
]

api_urlpatterns = [
    path("balances/", api.BalancesApi.as_view(), name="api-balances"),
    path("shifts/", api.ShiftListApi.as_view(), name="api-shift-list"),
    path("shifts/<number:pk>/", api.ShiftDetailApi.as_view(), name="api-shift-detail"),
    path("shifts/<number:pk>/close/", api.ShiftCloseApi.as_view(), name="api-shift-close"),
    path("shifts/<number:pk>/handover/", api.ShiftHandoverApi.as_view(), name="api-shift-handover"),
    path("transactions/<number:pk>/", api.TransactionDetailApi.as_view(), name="api-transaction-detail"),
]
