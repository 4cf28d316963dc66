"""Bots for Rummy 3-Pack: ``random``, ``greedy`` and ``strong``.

A bot sees only what its seat may see (``game.view(seat)``) and the legal actions, and
returns one of them.  Each bot owns a seeded random source, so a game with bots is as
repeatable as its seed.

>>> from payme.game.three_pack import new_three_pack_game
>>> g = new_three_pack_game(players=3, seed=3)
>>> bot = make_three_pack_bot("greedy", g.rules, seed=1)
>>> action = bot.choose(g.view(g.first), g.legal_actions())
>>> g.can(action).ok
True
>>> make_three_pack_bot("clever", g.rules, seed=1)
Traceback (most recent call last):
...
ValueError: unknown Rummy 3-Pack bot 'clever': choose random, greedy or strong
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol

from payme.cards import CARDS, Card, parse_card
from payme.game.actions import Action, Discard, Draw, DropOut, GoOut, LayDownRummy
from payme.game.three_pack import go_out_options, unmelded_count
from payme.rulesets import Ruleset, RulesLike
from payme.rulesets import rules as get_rules

BOT_NAMES = ("random", "greedy", "strong")


class ThreePackBot(Protocol):
    name: str

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action: ...


def _winning_move(legal: Sequence[Action]) -> Action | None:
    """Laying down both RUMMY cards, else going out (with nothing or the first leftover)."""
    for a in legal:
        if isinstance(a, LayDownRummy):
            return a
    outs = [a for a in legal if isinstance(a, GoOut)]
    if outs:
        # Meld everything if possible; else keep a NOMELD-type leftover in hand over
        # giving a card to the pile (it makes no difference to the result).
        return next((a for a in outs if a.discard is None), outs[0])
    return None


class RandomBot:
    """Any legal move, chosen uniformly — except dropping out, which it never does."""

    name = "random"

    def __init__(self, rules: Ruleset, seed: int) -> None:
        self.rules = rules
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        stay = [a for a in legal if not isinstance(a, DropOut)]
        return self.rng.choice(stay or list(legal))


class GreedyBot:
    """Fewest unmelded cards now: takes the top discard when that lowers its unmelded count,
    discards to the lowest count, goes out or lays down both RUMMY cards when it can."""

    name = "greedy"

    def __init__(self, rules: Ruleset, seed: int) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.never = frozenset(rules.never_discarded)

    def unmelded(self, hand: Sequence[Card]) -> int:
        return unmelded_count(self.rules, hand)

    def best_discard(self, hand: Sequence[Card]) -> tuple[int, Card | None]:
        best: tuple[int, Card | None] = (len(hand) + 1, None)
        for c in sorted(set(hand), reverse=True):  # ties: the higher card goes
            if c.token in self.never:
                continue
            rest = list(hand)
            rest.remove(c)
            n = self.unmelded(rest)
            if n < best[0]:
                best = (n, c)
        return best

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        win = _winning_move(legal)
        if win is not None:
            return win
        hand = list(view["hand"])
        draws = [a for a in legal if isinstance(a, Draw)]
        if draws:
            if view["phase"] == "final_draw":
                return draws[0]  # only draws that let it go out are offered
            top = next((a for a in draws if a.source == "discard" and a.take == 1), None)
            stock = next((a for a in draws if a.source == "stock"), None)
            if top is not None:
                after, _ = self.best_discard([*hand, view["top_discard"]])
                if stock is None or after < self.unmelded(hand):
                    return top
            return stock if stock is not None else draws[0]
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            _, card = self.best_discard(hand)
            return next((a for a in discards if a.card == card), discards[0])
        return legal[0]


class StrongBot(GreedyBot):
    """Weighs draws by the unseen cards, keeps wild cards, watches the table.

    * A draw from the stock is valued as the average, over the cards it has not seen
      (the pack less its hand, the discards it saw and the cards shown), of the best count
      after discarding; the top discard is taken when it beats that by enough.
    * Among discards leaving the same count it prefers the hand with the most *outs* (unseen
      cards that would let it go out next turn) and keeps wild cards and RUMMY cards.
    * It never gives away a RUMMY card, always takes one it can, and avoids discarding
      cards the next player has shown interest in (same rank, or same suit nearby, as cards
      that player took from the pile).
    """

    name = "strong"

    def __init__(self, rules: Ruleset, seed: int) -> None:
        super().__init__(rules, seed)
        self.wild_tokens = frozenset(t for t, _ in rules.special_wilds)
        self.keep_tokens = self.wild_tokens | (
            {rules.holder_wins} if rules.holder_wins else set()
        ) | ({rules.instant_win_pair} if rules.instant_win_pair else set())
        self.prize = parse_card(rules.holder_wins) if rules.holder_wins else None

    # --- what it knows --------------------------------------------------------------

    def unseen(self, view: dict[str, Any]) -> Counter[Card]:
        """Cards it has not seen anywhere: candidates for the next stock card."""
        left: Counter[Card] = Counter(
            {CARDS[i]: n for i, n in enumerate(view["pack_counts"]) if n}
        )
        left.subtract(view["hand"])
        # The remembered pile is out of the stock; so are the cards others took from it
        # (they were seen) and every card laid down.
        for _seat, kind, cards in view["public_log"]:
            if kind == "discard":
                left.subtract(cards)
        for melds in view["shown"]:
            for m in melds:
                left.subtract(m)
        return +left

    def interest(self, view: dict[str, Any], seat: int) -> list[Card]:
        """Cards ``seat`` took from the discard pile (and may still hold)."""
        return [c for s, kind, cards in view["public_log"] if s == seat and kind == "take"
                for c in cards]

    # --- valuation ------------------------------------------------------------------

    def outs(self, hand: Sequence[Card], unseen: Counter[Card]) -> int:
        """Unseen cards that would let ``hand`` go out when drawn."""
        return sum(n for c, n in unseen.items() if go_out_options(self.rules, [*hand, c]))

    def danger(self, card: Card, wanted: Sequence[Card]) -> int:
        if card.rank is None:
            return 0
        score = 0
        for w in wanted:
            if w.rank is None:
                continue
            if w.rank == card.rank or (w.suit == card.suit and abs(w.rank - card.rank) <= 2):
                score += 1
        return score

    def discard_value(
        self, hand: Sequence[Card], unseen: Counter[Card], wanted: Sequence[Card]
    ) -> tuple[tuple[int, int, int, int], Card | None]:
        """The best card to discard from ``hand`` and the value left (lower is better)."""
        best: tuple[tuple[int, int, int, int], Card | None] = ((99, 0, 0, 0), None)
        for c in sorted(set(hand), reverse=True):
            if c.token in self.never:
                continue
            rest = list(hand)
            rest.remove(c)
            n = self.unmelded(rest)
            keep = 1 if c.token in self.keep_tokens else 0
            score = (n + 2 * keep, 0, self.danger(c, wanted), -(c.rank or 0))
            if score[0] <= best[0][0] + 0:
                outs = -self.outs(rest, unseen) if n <= 2 else 0
                score = (score[0], outs, score[2], score[3])
                if score < best[0]:
                    best = (score, c)
        return best

    def stock_value(self, hand: Sequence[Card], unseen: Counter[Card]) -> float:
        """Expected unmelded count after a stock draw and the best discard."""
        total = sum(unseen.values())
        if not total:
            return float(self.unmelded(hand))
        acc = 0.0
        for c, n in unseen.items():
            after, _ = self.best_discard([*hand, c])
            acc += n * after
        return acc / total

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        win = _winning_move(legal)
        if win is not None:
            return win
        hand = list(view["hand"])
        unseen = self.unseen(view)
        seat, players = view["seat"], view["players"]
        nxt = next(
            (seat + i) % players for i in range(1, players + 1)
            if view["active"][(seat + i) % players]
        )
        wanted = self.interest(view, nxt)
        draws = [a for a in legal if isinstance(a, Draw)]
        if draws:
            if view["phase"] == "final_draw":
                return draws[0]
            return self.choose_draw(view, hand, unseen, draws)
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            _, card = self.discard_value(hand, unseen, wanted)
            return next((a for a in discards if a.card == card), discards[0])
        return legal[0]

    def choose_draw(
        self,
        view: dict[str, Any],
        hand: list[Card],
        unseen: Counter[Card],
        draws: Sequence[Draw],
    ) -> Action:
        stock = next((a for a in draws if a.source == "stock"), None)
        pile = list(view["discard_pile"])
        # Each discard-pile option: the cards it brings (the stock card of a Three-Card Draw
        # is valued as an average unseen card, i.e. ignored here).
        options: list[tuple[float, int, Draw]] = []
        for a in draws:
            if a.source != "discard":
                continue
            if a.take == 1:
                taken = [view["top_discard"]]
            elif self.rules.variation_three_card_draw:
                if len(pile) < 2:
                    continue
                taken = pile[-2:]
            else:
                if a.take > len(pile) or a.take > 4:
                    continue  # deep takes swell the hand: not worth the look
                taken = pile[-a.take :]
            if self.prize is not None and self.prize in taken:
                return a  # a RUMMY card makes it a winner
            grown = [*hand, *taken]
            after, _ = self.best_discard(grown)
            # Extra cards kept in hand cost what they leave unmelded.
            options.append((float(after), -a.take, a))
        if stock is None:
            return min(options)[2] if options else draws[0]
        expected = self.stock_value(hand, unseen)
        if options:
            value, _, best = min(options)
            if value < expected - 0.25:
                return best
        return stock


_BOTS: dict[str, type[GreedyBot] | type[RandomBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "strong": StrongBot,
}


def make_three_pack_bot(name: str, rules: RulesLike, seed: int) -> ThreePackBot:
    """A Rummy 3-Pack bot by name (``random``, ``greedy``, ``strong``) with its own rng."""
    cls = _BOTS.get(name)
    if cls is None:
        raise ValueError(
            f"unknown Rummy 3-Pack bot {name!r}: choose random, greedy or strong"
        )
    return cls(get_rules(rules), seed)


__all__ = [
    "BOT_NAMES",
    "GreedyBot",
    "RandomBot",
    "StrongBot",
    "ThreePackBot",
    "make_three_pack_bot",
]
