"""The widget layer: ipywidgets views and inputs over the engine (never imported by it).

>>> from payme.widgets import HandInput
>>> box = HandInput("family")
>>> box.text = "7H JK"; box.value
(Card('7H'), Card('JK'))
"""

from __future__ import annotations

from payme.widgets.hand_views import HandView, LayoutView
from payme.widgets.messages import MessageBox, call_back, guarded
from payme.widgets.pickers import CardPicker, HandInput, RulesPicker

__all__ = [
    "CardPicker",
    "HandInput",
    "HandView",
    "LayoutView",
    "MessageBox",
    "RulesPicker",
    "call_back",
    "guarded",
]
