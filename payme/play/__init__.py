"""The play model: a game against bots as the Play page shows it, with no widgets in it.

:mod:`payme.play.session` holds the game (your seat, the bots, your moves as the URL's
tokens, everything in a player's words); :mod:`payme.play.view` turns it into what the card
table draws.  The widgets (``payme.widgets.play``) only draw these and pass clicks back.
"""

from __future__ import annotations

from payme.play.session import (
    BOT_WORDS,
    NEXT_HAND,
    YOU,
    PlaySession,
    bot_word,
    move_token,
    parse_move,
)

__all__ = ["BOT_WORDS", "NEXT_HAND", "YOU", "PlaySession", "bot_word", "move_token", "parse_move"]
