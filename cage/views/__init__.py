from cage.views.corrections import ReversalDecisionView, ReversalListView, ReversalRequestView
from cage.views.desk import DeskView
from cage.views.receipt import ReceiptPdfView, ReceiptView

__all__ = [
    "DeskView",
    "ReceiptPdfView",
    "ReceiptView",
    "ReversalDecisionView",
    "ReversalListView",
    "ReversalRequestView",
]
