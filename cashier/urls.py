from django.urls import path, re_path

from cashier import api, views

app_name = "cashier"

urlpatterns = [
    path("", views.DeskView.as_view(), name="desk"),
    path("player-pick/", views.PlayerPickView.as_view(), name="player-pick"),
    path("shifts/", views.ShiftListView.as_view(), name="shifts"),
    path("shifts/open/", views.ShiftOpenView.as_view(), name="shift-open"),
    path("shifts/<int:pk>/", views.ShiftDetailView.as_view(), name="shift-detail"),
    path("shifts/<int:pk>/close/", views.ShiftCloseView.as_view(), name="shift-close"),
    path("receipts/<int:pk>/", views.ReceiptView.as_view(), name="receipt"),
    path("receipts/<int:pk>/reverse/", views.ReversalRequestView.as_view(), name="reversal-request"),
    path("reversals/", views.ReversalListView.as_view(), name="reversals"),
    re_path(
        r"^reversals/(?P<pk>[0-9]+)/(?P<decision>approve|reject)/$",
        views.ReversalDecisionView.as_view(),
        name="reversal-decide",
    ),
]

api_urlpatterns = [
    path("balances/", api.BalancesApi.as_view(), name="api-balances"),
    path("shifts/", api.ShiftListApi.as_view(), name="api-shift-list"),
    path("shifts/<int:pk>/", api.ShiftDetailApi.as_view(), name="api-shift-detail"),
    path("shifts/<int:pk>/close/", api.ShiftCloseApi.as_view(), name="api-shift-close"),
    path("shifts/<int:pk>/handover/", api.ShiftHandoverApi.as_view(), name="api-shift-handover"),
    path("transactions/", api.TransactionListApi.as_view(), name="api-transaction-list"),
    path("transactions/<int:pk>/", api.TransactionDetailApi.as_view(), name="api-transaction-detail"),
    path("reversals/", api.ReversalListApi.as_view(), name="api-reversal-list"),
    path("reversals/<int:pk>/approve/", api.ReversalApproveApi.as_view(), name="api-reversal-approve"),
    path("reversals/<int:pk>/reject/", api.ReversalRejectApi.as_view(), name="api-reversal-reject"),
]
