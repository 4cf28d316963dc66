"""Moved: the play session is :mod:`payme.play.session` (it draws nothing).  The old names
still work for one release, with a ``DeprecationWarning``."""

from __future__ import annotations

from payme.deprecation import renamed

__getattr__ = renamed(
    "payme.widgets.play_session",
    {
        "BOT_WORDS": "payme.play.session:BOT_WORDS",
        "YOU": "payme.play.session:YOU",
        "PlaySession": "payme.play.session:PlaySession",
        "bot_word": "payme.play.session:bot_word",
        "encode_move": "payme.play.session:move_token",
        "decode_move": "payme.play.session:parse_move",
        "go_out_with": "payme.game.actions:go_out_with",
        "label": "payme.words:label",
        "plain_words": "payme.words:plain_words",
        "seat_names": "payme.words:seat_names",
    },
)
