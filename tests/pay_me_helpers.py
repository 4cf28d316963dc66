"""Helpers for the Pay Me game tests: positions set up in the position notation."""

from __future__ import annotations

from payme.cards import format_hand, parse_hand
from payme.game import new_game
from payme.game.pay_me import PayMeGame
from payme.game.position import with_fields


def rig(
    game: PayMeGame,
    hands: list[str],
    pile: str = "",
    stock_top: str = "",
) -> PayMeGame:
    """``game`` at the same point with the hand arranged: each seat's cards, the discard pile
    (bottom to top) and the next stock cards (the first is drawn first), the rest of the
    pack under them.  Every card still comes from the game's pack."""
    top = format_hand(reversed(parse_hand(stock_top)))
    text = with_fields(
        game.to_position(),
        hands=" / ".join(h or "-" for h in hands),
        pile=pile or "-",
        stock=f"* {top}".strip(),
    )
    return PayMeGame.from_position(text, game.rules)


def final_turn(rules: str, hands: list[str], stock_top: str) -> PayMeGame:
    """A two-player hand where seat 0 draws the first of ``stock_top`` and goes out throwing
    it, and seat 1 draws the second: seat 1's final turn, its discard still to make."""
    g = rig(new_game(rules, players=2, seed=1), hands, pile="JC", stock_top=stock_top)
    g.draw("stock")
    g.go_out(stock_top.split()[0])
    g.draw("stock")
    return g


def joker_lay_off_turn() -> PayMeGame:
    """Your lay-off turn in family rules: West went out with the run 5♥ 6♥ 7♥ and you
    (seat 0) hold a joker, which may stand for 4♥ or 8♥."""
    game = rig(new_game("family", players=2, seed=1), ["JK 9C KC", "5H 6H 7H"],
               pile="JC", stock_top="TS QS")  # fmt: skip
    game.draw("stock")
    game.discard("TS")
    game.draw("stock")
    game.go_out("QS")
    game.draw("stock")
    drawn = game.view(0).drawn
    assert drawn is not None
    game.discard(drawn)
    assert game.phase == "lay_off" and game.to_move == 0
    return game


def thin_stock(game: PayMeGame) -> PayMeGame:
    """``game`` with every stock card but the top one moved under the discard pile."""
    text = with_fields(
        game.to_position(),
        pile=format_hand([*game.stock[:-1], *game.discard_pile]),
        stock=str(game.stock[-1]),
    )
    return PayMeGame.from_position(text, game.rules)
