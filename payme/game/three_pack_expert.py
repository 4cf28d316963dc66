"""The expert bot for Rummy 3-Pack: every choice weighed by the exact chance of going out.

Rummy 3-Pack is a race: the first player to go out wins, whatever the others hold.  So the
expert values a hand of the cards dealt by what the next draw may do to it, over every kind
of card it has not seen (the pack less its hand, the discards it watched, the cards it saw
others take and keep, the melds laid down — never another player's hidden cards):

* the **chance of going out** on that draw (exact: each kind of unseen card is tried), and
* otherwise the **unmelded cards** left after it throws its worst card.

A hand's value is the expected unmelded count after the next draw, where going out counts
as ``-OUT_BONUS``; lower is better.  Discards keep the hand of lowest value (among those
with the fewest unmelded cards now or one more); the top discard is taken when the hand it
leaves beats the expected hand after a stock card.  It always takes a RUMMY card, lays down
both RUMMY cards and goes out whenever it can, as the strong bot does.

>>> from payme.game.three_pack import new_three_pack_game
>>> g = new_three_pack_game(players=3, seed=3)
>>> bot = ThreePackExpert(g.rules, seed=1)
>>> g.can(bot.choose(g.view(g.first), g.legal_actions())).ok
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from payme.cards import Card
from payme.codes import NO_CARD, hand_code
from payme.game.actions import Action, Discard, Draw, GoOut, LayDownRummy
from payme.game.bots import Recommendation
from payme.game.generations import BOT_GENERATION
from payme.game.three_pack import go_out_options, lonely_cards
from payme.game.three_pack_bots import ThreePackStrongBot, _winning_move
from payme.game.view import SeatView, ThreePackView, narrow
from payme.memo import RecentMemo
from payme.rulesets import Ruleset
from payme.words import counts_cards, short_label


class ThreePackExpert(ThreePackStrongBot):
    """Rummy 3-Pack's strongest bot: draws and discards weighed by the next draw's chances."""

    name = "expert"

    OUT_BONUS = 2.0
    """What going out on the next draw is worth, in unmelded cards below zero."""
    TAKE_MARGIN = 0.05
    """How much better than the stock a taken discard must be (taking shows the table)."""

    def __init__(self, rules: Ruleset, seed: int, generation: int = BOT_GENERATION) -> None:
        super().__init__(rules, seed, generation)
        # Keyed by bytes (the hand's cards, NO_CARD, then each unseen kind and its copies):
        # up to 50,000 entries a game, which tuples of cards would put in every full
        # garbage collection's way (20-31 ms inside a decision, see payme.codes).  A turn
        # asks some 4,000 (its unseen cards are in every key), and the memo keeps the last
        # 16,384-32,768, never pausing long to drop or grow a table (payme.memo).
        self._values: RecentMemo[float] = RecentMemo(1 << 14)
        self.count_cards = counts_cards(rules)

    # --- weighing -------------------------------------------------------------------

    def goes_out(self, hand: Sequence[Card]) -> bool:
        """Whether a hand of ``dealt + 1`` cards can go out now (exact)."""
        return bool(go_out_options(self.rules, hand))

    def _after_draw(self, grown: list[Card]) -> int | None:
        """``None`` when ``grown`` (a hand and the card drawn) can go out, else its fewest
        unmelded cards.  Where every card counts 1, a hand with two or more unmelded cards
        cannot go out, and that settles most draws without the go-out question."""
        if self.count_cards:
            count = self.unmelded(grown)
            if count > 1:
                return count
            return None if self.goes_out(grown) else count
        return None if self.goes_out(grown) else self.unmelded(grown)

    def may_meld(self, hand: Sequence[Card]) -> Callable[[Card], bool]:
        """A quick test of whether a card could meld with ``hand`` (never a false no)."""
        if any(c.token in self.wild_tokens for c in hand):
            return lambda card: True  # a wild card (WILD, GROUP, SEQ) can pair with it
        return lambda card: card.rank is None or any(self._near(card, c) for c in hand)

    def value(self, hand: Sequence[Card], unseen: Counter[Card], total: int) -> float:
        """Expected unmelded cards after the next draw and a discard (going out counts as
        ``-OUT_BONUS``) for a hand of the cards dealt; lower is better."""
        key = hand_code(sorted(hand)) + bytes(
            [NO_CARD, *(x for card, n in sorted(unseen.items()) for x in (card.index, n))]
        )
        known = self._values.get(key)
        if known is not None:
            return known
        base = self.unmelded(hand)
        if not total:
            return float(base)
        may_meld = self.may_meld(hand)
        # A card that melds with nothing leaves one more unmelded card: thrown back, the
        # hand is as it was (and cannot go out unless every card was melded before).
        lonely = lonely_cards(self.rules, hand) if base and self.count_cards else 0
        expect = 0.0
        for card, n in unseen.items():
            if lonely >> card.index & 1 or not may_meld(card):
                expect += n * base  # it is thrown back
                continue
            after = self._after_draw([*hand, card])
            if after is None:
                expect -= n * self.OUT_BONUS
            else:
                expect += n * max(0, after - 1)
        known = expect / total
        self._values.put(key, known)
        return known

    def out_chance(self, hand: Sequence[Card], unseen: Counter[Card]) -> float:
        """The exact chance that the next draw lets ``hand`` go out."""
        total = sum(unseen.values())
        if not total:
            return 0.0
        may_meld = self.may_meld(hand)
        outs = sum(n for c, n in unseen.items() if may_meld(c) and self.goes_out([*hand, c]))
        return outs / total

    def best_keep(
        self, hand: Sequence[Card], unseen: Counter[Card], wanted: Sequence[Card]
    ) -> tuple[float, Card | None, int]:
        """The card to discard from ``hand``, the value of the hand kept and its count."""
        total = sum(unseen.values())
        options = [(self.unmelded(rest), c, rest) for c, rest in self.discards(hand)]
        if not options:
            return float(self.unmelded(hand)), None, self.unmelded(hand)
        low = min(o[0] for o in options)
        best: tuple[tuple[float, int], float, Card | None, int] = ((float("inf"), 0), 0.0, None, 0)
        for n, c, rest in options:
            if n > low + 1:
                continue
            v = self.value(rest, unseen, total)
            if c.token in self.keep_tokens:
                v += 0.5  # a wild or RUMMY card helps later too
            score = (v + self.caution * self.danger(c, wanted), -(c.rank or 0))
            if score < best[0]:
                best = (score, v, c, n)
        return best[1], best[2], best[3]

    def choose_draw(
        self,
        view: ThreePackView,
        hand: list[Card],
        unseen: Counter[Card],
        wanted: Sequence[Card],
        draws: Sequence[Draw],
    ) -> Action:
        if any(a.take > 1 for a in draws):
            # Deeper takes (the variations) are weighed by the strong bot's rule.
            return super().choose_draw(view, hand, unseen, wanted, draws)
        stock = next((a for a in draws if a.source == "stock"), None)
        top_draw = next((a for a in draws if a.source == "discard"), None)
        top = view.top_discard
        if top_draw is None or top is None:
            return stock if stock is not None else draws[0]
        if stock is None:
            return top_draw
        if self.prize is not None and top == self.prize:
            return top_draw  # a RUMMY card makes it a winner
        grown = [*hand, top]
        if self.goes_out(grown):
            return top_draw
        if not self.may_meld(hand)(top):
            return stock
        take, _, _ = self.best_keep(grown, unseen, ())
        if take <= self.stock_value(hand, unseen) - self.TAKE_MARGIN:
            return top_draw
        return stock

    def stock_value(self, hand: Sequence[Card], unseen: Counter[Card]) -> float:
        """The expected value of the hand kept after a stock card and a good discard.

        A card that melds with nothing is thrown back (the hand's value stays); a card that
        lets the hand go out is worth ``-OUT_BONUS``; after any other card the hand keeps
        one card fewer unmelded than it then holds, less the gain one more draw is expected
        to bring (taken to be this hand's own).
        """
        total = sum(unseen.values())
        if not total:
            return float(self.unmelded(hand))
        base = self.unmelded(hand)
        here = self.value(hand, unseen, total)
        gain = max(0.0, base - here)
        may_meld = self.may_meld(hand)
        lonely = lonely_cards(self.rules, hand) if base and self.count_cards else 0
        expect = 0.0
        for card, n in unseen.items():
            if not may_meld(card):
                expect += n * here
                continue
            if lonely >> card.index & 1:
                # One more unmelded card, so no going out (see value).
                expect += n * min(here, base - gain)
                continue
            after = self._after_draw([*hand, card])
            if after is None:
                expect -= n * self.OUT_BONUS
            else:
                expect += n * min(here, max(0, after - 1) - gain)
        return expect / total

    # --- advice ---------------------------------------------------------------------

    def advise(self, view: SeatView, legal: Sequence[Action]) -> Recommendation:
        """The action to take and why."""
        if not legal:
            raise ValueError("no legal action to advise on")
        view = narrow(view, ThreePackView)
        action = self.choose(view, legal)
        hand = list(view.hand)
        if isinstance(action, LayDownRummy):
            return Recommendation(action, "Lay down both RUMMY cards: that wins at once.")
        if isinstance(action, GoOut):
            return Recommendation(action, "Go out: the first player out wins.")
        unseen = self.unseen(view)
        if isinstance(action, Draw):
            top = view.top_discard
            if action.source == "discard" and top is not None:
                if self.goes_out([*hand, top]):
                    return Recommendation(
                        action, f"Take {short_label(top)}: with it you can go out at once."
                    )
                return Recommendation(
                    action,
                    f"Take {short_label(top)}: it melds with your cards and leaves a better hand "
                    "than a card from the stock is expected to.",
                )
            return Recommendation(
                action, "Draw from the stock: the top discard does not help enough."
            )
        if isinstance(action, Discard):
            rest = list(hand)
            rest.remove(action.card)
            chance = self.out_chance(rest, unseen)
            words = (
                f"Discard {short_label(action.card)}: you keep {self.unmelded(rest)} unmelded "
                f"card{'s' if self.unmelded(rest) != 1 else ''}"
            )
            if chance:
                words += f" and a {chance:.0%} chance of going out on the next draw"
            return Recommendation(action, words + ".")
        return Recommendation(action, "Nothing better to do.")

    def _choose(self, view: ThreePackView, legal: Sequence[Action]) -> Action:
        win = _winning_move(legal)
        if win is not None:
            return win
        return super()._choose(view, legal)


__all__ = ["ThreePackExpert"]
