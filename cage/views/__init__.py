from cage.views.corrections import ReversalDecisionView, ReversalListView, ReversalRequestView
from cage.views.desk import DeskView
from cage.views.receipt import ReceiptView

__all__ = ["DeskView", "ReceiptView", "ReversalDecisionView", "ReversalListView", "ReversalRequestView"]
