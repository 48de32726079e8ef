"""The cage's routes. They keep the paths and names the desk always had (`/cashier/`,
`cashier:desk`): cardroom/urls.py mounts them in the cashier's namespace."""

from django.urls import path, re_path

from cage import api, views
from cage.views import chips as chip_views

urlpatterns = [
    path("", views.DeskView.as_view(), name="desk"),
    path("receipts/<number:pk>/", views.ReceiptView.as_view(), name="receipt"),
    path("receipts/<number:pk>/pdf/", views.ReceiptPdfView.as_view(), name="receipt-pdf"),
    path("receipts/<number:pk>/reverse/", views.ReversalRequestView.as_view(), name="reversal-request"),
    path("reversals/", views.ReversalListView.as_view(), name="reversals"),
    re_path(
        r"^reversals/(?P<pk>[0-9]+)/(?P<decision>approve|reject)/$",
        views.ReversalDecisionView.as_view(),
        name="reversal-decide",
    ),
    path("chips/", chip_views.ChipInventoryView.as_view(), name="chips"),
    path("chips/<number:set_id>/slip/", chip_views.ChipSlipNewView.as_view(), name="chip-slip-new"),
    path("chips/<number:set_id>/move/", chip_views.ChipMoveView.as_view(), name="chip-move"),
    path("chips/<number:set_id>/count/", chip_views.ChipCountNewView.as_view(), name="chip-count-new"),
    path("chips/slips/<number:pk>/", chip_views.ChipSlipView.as_view(), name="chip-slip"),
    path("chips/slips/<number:pk>/pdf/", chip_views.ChipSlipPdfView.as_view(), name="chip-slip-pdf"),
    path("chips/counts/<number:pk>/", chip_views.ChipCountView.as_view(), name="chip-count"),
]

api_urlpatterns = [
    path("transactions/", api.TransactionListApi.as_view(), name="api-transaction-list"),
    path("reversals/", api.ReversalListApi.as_view(), name="api-reversal-list"),
    path("reversals/<number:pk>/approve/", api.ReversalApproveApi.as_view(), name="api-reversal-approve"),
    path("reversals/<number:pk>/reject/", api.ReversalRejectApi.as_view(), name="api-reversal-reject"),
]
