"""Pay Me games: each rule of RULES.md's game, its edge cases, and seeded random games
checked after every action (no card created or lost, no illegal action accepted, scores,
money and replays)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from itertools import chain
from operator import attrgetter

import pytest
from pay_me_helpers import final_turn, rig, thin_stock

from payme.cards import Card, parse_card, parse_hand
from payme.game import new_game, play_game, replay
from payme.game.actions import Action, Discard, Draw, DropOut, GoOut, IllegalAction, LayOff
from payme.game.pay_me import PayMeGame
from payme.game.position import with_fields
from payme.rulesets import Ruleset, rules
from tests.presets import PAY_ME

C = parse_card


def full_pack(game: PayMeGame) -> Counter[Card]:
    return Counter(game.pack.cards())


def custom(name: str, **fields: object) -> object:
    return dataclasses.replace(rules(name), name=f"{name}-test", **fields)


# ------------------------------------------------------------------ packs and the deal


@pytest.mark.parametrize(
    ("name", "players", "packs"),
    [
        ("denexa", 2, 1), ("denexa", 3, 2), ("denexa", 4, 2), ("denexa", 5, 3), ("denexa", 8, 3),
        ("classic", 4, 1), ("classic", 5, 2), ("classic", 6, 2),
        ("family", 3, 1), ("family", 4, 2), ("family", 8, 2),
    ],
)  # fmt: skip
def test_packs_for_the_player_count(name: str, players: int, packs: int) -> None:
    g = new_game(name, players=players, seed=1)
    assert len(g.pack) == 54 * packs
    assert g.cards_in_play() == full_pack(g)


@pytest.mark.parametrize("name", PAY_ME)
def test_too_many_players_is_an_error_naming_the_range(name: str) -> None:
    top = rules(name).max_players
    with pytest.raises(ValueError, match=f"2-{top} players"):
        new_game(name, players=top + 1)


def test_the_deal_upcard_and_first_player() -> None:
    g = new_game("denexa", players=4, seed=11)
    assert g.hand_number == 1 and g.dealt == 3
    assert g.dealer == 3 and g.to_move == 0 and g.phase == "draw"
    assert [len(g.hand_of(s)) for s in range(4)] == [3, 3, 3, 3]
    assert len(g.discard_pile) == 1  # the upcard
    assert g.history[1].event == f"The upcard is {g.discard_pile[0]}."
    assert len(g.stock) == 108 - 12 - 1


def test_the_deal_passes_left_and_hands_grow() -> None:
    g = play_game("denexa", players=3, bots=("greedy",), seed=5)
    deals = [r for r in g.history if r.event.startswith("Hand ") and " deals " in r.event]
    assert len(deals) == 11
    dealers = [int(dict(r.details)["dealer"]) for r in deals]
    assert dealers == [(2 + h) % 3 for h in range(11)]
    assert [int(dict(r.details)["dealt"]) for r in deals] == list(range(3, 14))
    wild = {row["hand"]: row["wild_rank"] for row in g.results()}
    assert [wild[h] for h in range(1, 12)] == list(range(3, 14))
    # every hand's first turn is taken by the player left of that hand's dealer
    for h, dealer in enumerate(dealers, start=1):
        first = next(r.action for r in g.history if r.hand == h and isinstance(r.action, Draw))
        assert first.seat == (dealer + 1) % 3


def test_play_starts_left_of_the_dealer_each_hand() -> None:
    g = new_game("classic", players=3, seed=2, auto_advance=False)
    g._end_hand("test")  # finish hand 1 at once
    assert g.phase == "hand_over" and g.to_move is None
    g.advance()
    assert g.hand_number == 2 and g.dealer == 0 and g.to_move == 1


# ------------------------------------------------------------------ turns


def test_a_turn_is_draw_then_discard_with_reasons() -> None:
    g = new_game("denexa", players=2, seed=3)
    card = g.hand_of(0)[0]
    v = g.can_discard(card)
    assert not v and v.rule == "a turn: draw, then discard"
    assert "Draw a card first" in v.reason
    assert g.can(Draw(1, "stock")).rule == "turn order"
    g.draw("stock")
    again = g.can_draw("stock")
    assert not again and "now discard" in again.reason
    g.discard(card)
    assert g.to_move == 1 and g.phase == "draw"


def test_discarding_a_card_not_held_names_the_rule() -> None:
    g = rig(new_game("denexa", players=2, seed=3), ["4H 9C KD", "5S 6S 8D"], pile="QC")
    g.draw("stock")
    v = g.can_discard("AS")
    assert not v and v.rule == "discard a card you hold" and "AS" in v.reason


def test_illegal_action_leaves_the_state_unchanged() -> None:
    g = new_game("family", players=3, seed=9)
    before = g.snapshot()
    for bad in (Discard(0, g.hand_of(0)[0]), Draw(2, "stock"), GoOut(0), LayOff(0), DropOut(0),
                Draw(0, "stock", take=2), Draw(7, "stock")):  # fmt: skip
        with pytest.raises(IllegalAction) as err:
            g.apply(bad)
        assert err.value.rule
        assert g.snapshot() == before


def test_taking_the_discard_and_throwing_it_back_is_allowed() -> None:
    g = rig(new_game("classic", players=2, seed=3), ["4H 9C KD", "5S 6S 8D"], pile="QC")
    g.draw("discard")
    assert g.view(0).picked_up[0] == (C("QC"),)
    assert g.can_discard("QC")
    g.discard("QC")
    assert g.discard_pile[-1] == C("QC")


def test_drawing_from_an_empty_discard_pile_is_refused() -> None:
    g = rig(new_game("classic", players=2, seed=3), ["4H 9C KD", "5S 6S 8D"], pile="")
    v = g.can_draw("discard")
    assert not v and "discard pile is empty" in v.reason
    assert g.legal_actions() == [Draw(0, "stock")]


# ------------------------------------------------------------------ going out


def test_going_out_on_the_first_turn_without_a_discard() -> None:
    # denexa, 3 dealt: 3s and 2s and jokers are wild; 5H 6H 7H + drawn 8H all meld.
    g = rig(new_game("denexa", players=3, seed=1), ["5H 6H 7H", "KS QD 9C", "KD 9S 4C"],
            pile="JC", stock_top="8H")  # fmt: skip
    g.draw("stock")
    assert GoOut(0, None) in g.legal_actions()
    rec = g.go_out()
    assert "goes out without discarding" in rec.event
    assert g.declarer == 0 and g.phase == "final_draw" and g.to_move == 1
    assert [sorted(m) for m in g.table] == [sorted(parse_hand("5H 6H 7H 8H"))]
    assert g.hand_of(0) == ()


def test_going_out_with_a_discard_lists_every_way() -> None:
    g = rig(new_game("denexa", players=2, seed=1), ["5H 6H 7H", "KS QD 9C"],
            pile="JC", stock_top="KD")  # fmt: skip
    g.draw("stock")
    outs = [a for a in g.legal_actions() if isinstance(a, GoOut)]
    assert outs == [GoOut(0, C("KD"))]
    v = g.can_go_out(None)
    assert not v and v.rule == "going out" and "every card melded" in v.reason
    assert not g.can_go_out("5H")


def test_family_must_discard_to_go_out() -> None:
    g = rig(new_game("family", players=2, seed=1), ["5H 6H 7H", "KS QD 9C"],
            pile="JC", stock_top="8H")  # fmt: skip
    g.draw("stock")
    v = g.can_go_out(None)
    assert not v and v.rule == "going out: must discard"
    assert GoOut(0, None) not in g.legal_actions()
    # 5H 6H 7H stay melded after throwing 8H (or 8H-6H-7H after throwing 5H)
    assert g.can_go_out("8H") and g.can_go_out("5H")
    g.go_out("8H")
    assert g.declarer == 0


def test_a_final_turn_never_goes_out() -> None:
    g = rig(new_game("denexa", players=2, seed=1), ["5H 6H 7H", "9S 9D 9C"],
            pile="JC", stock_top="8H KD")  # fmt: skip
    g.draw("stock")
    g.go_out()
    g.draw("stock")
    v = g.can_go_out("KD")
    assert not v and v.rule == "final turns"
    assert all(isinstance(a, Discard) for a in g.legal_actions())


# ------------------------------------------------------------------ final turns and lay-offs


def test_final_turns_go_round_from_the_declarers_left() -> None:
    g = rig(new_game("classic", players=4, seed=1),
            ["KS QD 9C", "5H 6H 7H", "KD 9S 4C", "TD JS 8C"],
            pile="JC", stock_top="AD 8H")  # fmt: skip
    g.draw("stock")
    g.discard("AD")
    g.draw("stock")
    g.go_out("5H")  # 6H 7H 8H left
    order = []
    while g.phase in ("final_draw", "final_discard"):
        order.append(g.to_move)
        g.draw("stock")
        g.discard(g.view(g.to_move).drawn)
    assert order == [2, 3, 0]
    # classic: no lay-offs, the hand is scored at once
    assert g.hand_number == 2
    last = g.summaries[-1]
    assert last.declarer == 1 and last.points[1] == 0 and last.lay_offs == ((),) * 4
    assert last.points == last.deadwood


def test_final_turn_draws_from_the_stock_only_in_denexa() -> None:
    g = rig(new_game("denexa", players=2, seed=1), ["5H 6H 7H", "9S 9D KC"],
            pile="JC", stock_top="8H")  # fmt: skip
    g.draw("stock")
    g.go_out()
    v = g.can_draw("discard")
    assert not v and v.rule == "final turn draw"
    assert g.legal_actions() == [Draw(1, "stock")]


def test_family_final_turn_may_draw_from_the_discard_pile() -> None:
    g = rig(new_game("family", players=2, seed=1), ["5H 6H 7H", "9S 9D KC"],
            pile="JC", stock_top="8H")  # fmt: skip
    g.draw("stock")
    g.go_out("8H")
    assert g.legal_actions() == [Draw(1, "stock"), Draw(1, "discard")]
    g.draw("discard")  # takes the 8H just thrown
    assert C("8H") in g.hand_of(1)
    g.discard("8H")
    assert g.phase == "lay_off" and g.to_move == 1


def test_lay_offs_chain_and_are_validated() -> None:
    g = final_turn("denexa", ["5H 6H 7H", "8H 9H KC"], "TS QS")
    g.discard("QS")
    assert g.phase == "lay_off" and g.to_move == 1
    shown = g.view(0).shown
    assert shown[1] is not None and sorted(shown[1]) == sorted(parse_hand("8H 9H KC"))
    bad = g.can_lay_off([(0, "KC")])
    assert not bad and bad.rule == "lay-offs: the grown meld must be valid"
    assert not g.can_lay_off([(3, "8H")])
    assert not g.can_lay_off([(0, "9H")])  # 9H does not touch 5H-7H without 8H
    assert g.can_lay_off([(0, "8H 9H")])
    best = g.best_lay_off()
    assert sorted(c for _, cs in best.placements for c in cs) == sorted(parse_hand("8H 9H"))
    g.lay_off([(0, "8H 9H")])
    last = g.summaries[-1]
    assert last.deadwood[1] == 30  # 8H 9H KC, 10 points each in denexa
    assert last.points[1] == 10  # only the KC is left
    assert sorted(last.table[0]) == sorted(parse_hand("5H 6H 7H 8H 9H"))


def test_lay_offs_in_turn_order_onto_grown_melds() -> None:
    g = rig(new_game("family", players=3, seed=1),
            ["5H 6H 7H", "8H QC KC", "9H QD KD"], pile="JC", stock_top="AS TS JS")  # fmt: skip
    g.draw("stock")
    g.go_out("AS")
    for _ in range(2):
        g.draw("stock")
        g.discard(g.view(g.to_move).drawn)
    assert g.phase == "lay_off" and g.to_move == 1
    assert g.can(LayOff(1, ((0, (C("9H"),)),))).rule == "lay off cards you hold"
    g.lay_off([(0, "8H")])
    assert g.to_move == 2
    g.lay_off([(0, "9H")])  # only fits because seat 1 laid off 8H first
    last = g.summaries[-1]
    assert last.points == (0, 20, 20) and last.deadwood == (0, 28, 29)


def test_classic_has_no_lay_off_phase() -> None:
    g = final_turn("classic", ["5H 6H 7H", "8H 9H KC"], "TS QS")
    g.discard("QS")
    assert g.hand_number == 2
    assert g.summaries[-1].points[1] == g.summaries[-1].deadwood[1] == 30  # 8 to K: 10
    assert g.can(LayOff(g.to_move, ((0, (C("8H"),)),))).rule == "no lay-offs"


# ------------------------------------------------------------------ the stock and the no-card end


def test_the_stock_is_rebuilt_from_the_discard_pile_but_its_top() -> None:
    g = rig(new_game("classic", players=2, seed=4), ["4H 9C KD", "5S 6S 8D"], pile="QC")
    # Move all but one stock card under the discard pile: the stock is about to run out.
    g = thin_stock(g)
    under = Counter(g.discard_pile)
    assert g.cards_in_play() == full_pack(g)
    g.draw("stock")
    g.discard("KD")
    # Seat 1 is about to draw from an empty stock: the pile but its top (KD) is the stock.
    assert g.discard_pile == (C("KD"),)
    assert Counter(g.stock) == under and len(g.stock) == 54 - 6 - 1
    assert "stock ran out" in g.history[-1].event
    assert g.cards_in_play() == full_pack(g)
    assert g.can_draw("stock") and g.can_draw("discard")


def test_no_card_can_be_drawn_ends_the_hand_without_a_declarer() -> None:
    # One 52-card pack, four players, 13 cards each: nothing is left to draw at all.
    tight = custom("classic", jokers_per_pack=0, first_dealt=13, hands=1)
    g = new_game(tight, players=4, seed=8)
    assert g.over and g.discard_pile == () and g.stock == ()
    rows = g.results()
    assert [r["went_out"] for r in rows] == [False] * 4
    assert all(r["points"] == r["deadwood"] > 0 for r in rows)
    assert "no card could be drawn" in g.summaries[-1].how


def test_a_stock_that_is_not_rebuilt_gives_the_next_player_one_last_turn() -> None:
    ending = custom("classic", stock_out="end")
    g = rig(new_game(ending, players=3, seed=4), ["4H 9C KD", "5S 6S 8D", "QH QS 2C"],
            pile="QC")  # fmt: skip
    g = thin_stock(g)  # one card left in the stock
    g.draw("stock")
    g.discard("KD")
    # Seat 1 may still go out by taking the discard; the stock is not rebuilt.
    assert g.stock == () and g.legal_actions() == [Draw(1, "discard")]
    assert not g.can_draw("stock")
    g.draw("discard")
    g.discard("KD")
    last = g.summaries[-1]
    assert last.declarer is None and last.how == "the stock ran out"
    assert g.hand_number == 2


def test_custom_rules_without_an_upcard_or_final_turns() -> None:
    bare = custom("denexa", upcard=False, final_turn_draw=())
    g = new_game(bare, players=3, seed=2)
    assert g.discard_pile == () and g.legal_actions() == [Draw(0, "stock")]
    g = rig(g, ["5H 6H 7H", "KS QD 9C", "KD 9S 4C"], stock_top="TC")
    g.draw("stock")
    g.go_out("TC")
    assert g.phase == "lay_off" and g.to_move == 1  # no final turns: straight to lay-offs
    assert [len(g.hand_of(s)) for s in (1, 2)] == [3, 3]


def test_a_card_the_rules_never_let_go_cannot_be_discarded() -> None:
    sticky = custom("family", never_discarded=("JK",))
    g = rig(new_game(sticky, players=2, seed=4), ["4H 9C JK", "5S 6S 8D"], pile="QC",
            stock_top="KD")  # fmt: skip
    g.draw("stock")
    v = g.can_discard("JK")
    assert not v and v.rule == "cards never discarded"
    assert Discard(0, C("JK")) not in g.legal_actions()


def test_the_turn_limit_ends_a_hand_like_the_no_card_end() -> None:
    g = new_game("denexa", players=2, seed=8, turn_limit=1)
    g.draw("stock")
    g.discard(g.view(0).drawn)
    assert g.hand_number == 2 and g.summaries[0].declarer is None


def test_eight_players_in_family_on_two_packs() -> None:
    g = play_game("family", players=8, bots=("greedy",), seed=21)
    assert len(g.pack) == 108 and g.over
    assert len(g.results()) == 8 * 11
    rebuilt = [r for r in g.history if "stock ran out" in r.event]
    assert rebuilt  # 8 x 13 + 1 of 108 cards: the last hands rebuild the stock
    assert sum(g.money) == 0


# ------------------------------------------------------------------ scores, winners, money


def test_scores_totals_winners_and_money_add_up() -> None:
    g = play_game("family", players=4, bots=("greedy", "random", "greedy", "random"), seed=3)
    rows = g.results()
    for s in range(4):
        mine = [r for r in rows if r["seat"] == s]
        assert [r["hand"] for r in mine] == list(range(1, 12))
        assert mine[-1]["total"] == sum(r["points"] for r in mine) == g.totals[s]
    for h in range(1, 12):
        hand_rows = [r for r in rows if r["hand"] == h]
        assert sum(r["money"] for r in hand_rows) == 0
        someone_out = any(r["went_out"] for r in hand_rows)
        for r in hand_rows:
            expected = 30 if r["went_out"] else (-10 if someone_out else 0)
            if h == 11:  # the ante back out of pocket, and the pot to the winners
                won = g.winners()
                expected += -50 + (200 // len(won) + (1 if r["seat"] in won[: 200 % len(won)]
                                   else 0) if r["seat"] in won else 0)  # fmt: skip
            assert r["money"] == expected
            if r["went_out"]:
                assert r["points"] == 0
    best = min(g.totals)
    assert g.winners() == tuple(s for s in range(4) if g.totals[s] == best)


def test_pot_split_between_tied_winners_keeps_every_cent() -> None:
    g = new_game("family", players=7, seed=1)
    g = PayMeGame.from_position(with_fields(g.to_position(), totals="10 3 3 9 3 50 4"))
    shares = g.pot_shares()
    assert sum(shares) == 7 * 50
    assert shares[1] == shares[2] == 117 and shares[4] == 116  # 350 = 117 + 117 + 116
    assert [shares[s] for s in (0, 3, 5, 6)] == [0, 0, 0, 0]


def test_no_money_without_stakes() -> None:
    g = play_game("denexa", players=2, bots=("greedy",), seed=2)
    assert g.money is None and all(r["money"] is None for r in g.results())
    with pytest.raises(ValueError, match="no money"):
        g.pot_shares()


# ------------------------------------------------------------------ views and replay


def test_a_view_never_shows_hidden_cards() -> None:
    g = new_game("denexa", players=3, seed=6)
    v = g.view(1)
    assert v.hand == g.hand_of(1) and v.shown == (None, None, None)
    assert v.hand_counts == (3, 3, 3) and v.drawn is None
    text = repr(v)
    for s in (0, 2):
        for card in set(g.hand_of(s)) - set(g.hand_of(1)) - set(g.discard_pile):
            assert f"Card('{card}')" not in text
    with pytest.raises(ValueError, match="seat must be 0 to 2"):
        g.view(3)


def test_replay_rebuilds_the_game_exactly() -> None:
    g = play_game("denexa", players=3, bots=("strong", "greedy", "random"), seed=12)
    again = replay("denexa", 3, 12, g.actions, turn_limit=g.turn_limit)
    assert again.snapshot() == g.snapshot()
    assert again.results() == g.results()


def test_replay_refuses_a_changed_record() -> None:
    g = play_game("classic", players=2, bots=("greedy",), seed=12)
    actions = list(g.actions)
    i = next(k for k, a in enumerate(actions) if isinstance(a, Discard))
    before = replay("classic", 2, 12, actions[:i], turn_limit=g.turn_limit)
    seat = actions[i].seat
    missing = next(c for c in parse_hand("AS 2S 3S 4S 5S 6S") if c not in before.hand_of(seat))
    actions[i] = Discard(seat, missing)
    with pytest.raises(IllegalAction, match=f"holds no {missing}"):
        replay("classic", 2, 12, actions, turn_limit=g.turn_limit)


# ------------------------------------------------------------------ seeded random games
#
# Thousands of short seeded games, every invariant checked after every action.  The checks
# are kept cheap (card counts as sorted integer lists, one random illegal action per step
# with its verdict, a replay of every fifth game) so that the thousands fit a CI budget.


def _random_illegal(g: PayMeGame, rng: random.Random) -> Action:
    """A random action of a random seat: usually illegal, sometimes (by chance) legal."""
    seat = rng.randrange(g.players)
    card = Card.from_index(rng.randrange(53))
    kind = rng.randrange(4)
    if kind == 0:
        return Draw(seat, rng.choice(["stock", "discard"]))
    if kind == 1:
        return Discard(seat, card)
    if kind == 2:
        return GoOut(seat, rng.choice([None, card]))
    return LayOff(seat, ((rng.randrange(3), (card,)),))


_INDEX = attrgetter("index")


def _indices(g: PayMeGame) -> list[int]:
    """Every card in the stock, the pile, the hands and on the table, as sorted indices."""
    places = [g.stock, g.discard_pile, *(g.hand_of(s) for s in range(g.players)), *g.table]
    return sorted(map(_INDEX, chain.from_iterable(places)))


def _state(g: PayMeGame) -> tuple[object, ...]:
    """The parts of the state an illegal action might touch (cheaper than a snapshot)."""
    return (
        g.phase, g.to_move, len(g.history), len(g.actions), g.stock, g.discard_pile,
        tuple(g.hand_of(s) for s in range(g.players)), g.table, g.totals,
    )  # fmt: skip


def _check_invariants(g: PayMeGame, pack: list[int]) -> None:
    assert _indices(g) == pack  # no card created or lost
    if g.phase in ("draw", "final_draw"):
        assert all(len(g.hand_of(s)) == g.dealt for s in range(g.players) if s != g.declarer)


def _check_finished(g: PayMeGame) -> None:
    rows = g.results()
    assert len(rows) == g.rules.hands * g.players
    running = [0] * g.players
    for h in range(1, g.rules.hands + 1):
        hand_rows = [r for r in rows if r["hand"] == h]
        assert [r["dealt"] for r in hand_rows] == [g.rules.dealt_in_hand(h)] * g.players
        outs = [r for r in hand_rows if r["went_out"]]
        assert len(outs) <= 1
        for r in outs:
            assert r["points"] == 0  # the declarer scores 0
        for r in hand_rows:
            running[r["seat"]] += r["points"]
            assert r["total"] == running[r["seat"]]  # totals are the sums of the hands
            assert r["points"] >= 0  # (a bad lay-off may break a player's own meld)
            if not g.summaries[h - 1].lay_offs[r["seat"]]:  # laid nothing off
                assert r["points"] == r["deadwood"]
        if g.rules.money is not None:
            assert sum(r["money"] for r in hand_rows) == 0  # the money sums to zero
    assert tuple(running) == g.totals
    assert g.winners() and all(g.totals[s] == min(g.totals) for s in g.winners())
    if g.money is not None:
        assert sum(g.money) == 0


def _random_game(
    ruleset: Ruleset, players: int, seed: int, bots: tuple[str, ...], *, replayed: bool = True
) -> PayMeGame:
    from payme.game import make_bot
    from payme.game.bots import bot_seed

    g = new_game(ruleset, players=players, seed=seed, turn_limit=60)
    pack = sorted(map(_INDEX, g.pack.cards()))
    seated = [make_bot(bots[s % len(bots)], g.rules, bot_seed(seed, s)) for s in range(players)]
    rng = random.Random(seed)
    while not g.over:
        _check_invariants(g, pack)
        legal = g.legal_actions()
        assert legal
        assert g.can(rng.choice(legal)).ok  # every listed action is legal (one per step)
        # A random action is legal exactly when listed (the lay-off list is a sample), and
        # an illegal one is refused with a reason and changes nothing.
        bad = _random_illegal(g, rng)
        v = g.can(bad)
        if g.phase != "lay_off":
            assert v.ok == (bad in legal), (bad, v)
        if not v.ok:
            assert v.reason and v.rule
            before = _state(g)
            with pytest.raises(IllegalAction):
                g.apply(bad)
            assert _state(g) == before
        seat = g.to_move
        assert seat is not None
        g.apply(seated[seat].choose(g.view(seat), legal))  # apply checks the bot's choice too
    _check_invariants(g, pack)
    _check_finished(g)
    if replayed:
        again = replay(g.rules, players, seed, g.actions, turn_limit=60)
        assert again.snapshot() == g.snapshot()  # a replay reproduces the game exactly
    return g


def _short_rules(name: str, rng: random.Random) -> Ruleset:
    """The preset with one or two hands, starting at any deal size (small ones more often:
    they are quick, and going out, final turns and lay-offs happen in most of them)."""
    base = rules(name)
    hands = rng.choice((1, 1, 2))
    most = base.max_dealt - hands + 1
    first = base.min_dealt + int(rng.random() ** 2 * (most - base.min_dealt + 1))
    return dataclasses.replace(base, name=f"{name}-short", hands=hands, first_dealt=first)


GAMES = 1000  # per rule set
BLOCKS = 4
BOT_MIXES = (("random",), ("random", "greedy"), ("greedy", "random", "random"), ("random",))


@pytest.mark.slow  # a long sweep (most of the unit run): make test runs it, make check not
@pytest.mark.parametrize("name", PAY_ME)
@pytest.mark.parametrize("block", range(BLOCKS))
def test_seeded_random_games_keep_every_invariant(name: str, block: int) -> None:
    """1,000 short games per rule set: every player count from 2 to the most (8 players in
    ``family`` on two packs), one or two hands from any deal size, random and greedy bots
    (a strong one now and then), a replay of every fifth game."""
    top = rules(name).max_players
    seen: Counter[str] = Counter()
    per_block = GAMES // BLOCKS
    for seed in range(block * per_block, (block + 1) * per_block):
        rng = random.Random(seed)
        players = 2 + seed % (top - 1)
        bots = ("strong", "random") if seed % 50 == 7 else BOT_MIXES[seed % len(BOT_MIXES)]
        g = _random_game(_short_rules(name, rng), players, seed, bots, replayed=seed % 5 == 0)
        seen.update(_what_happened(g))
    # The games reach what the checks are about (a rebuilt stock is too rare in short games
    # to ask of every block: the full-length games and the unit tests have it).
    wanted = {"draw stock", "draw discard", "go out with a discard"}
    if rules(name).going_out != "discard_required":
        wanted.add("go out")
    if rules(name).lay_off:
        wanted.add("lay off")
    assert wanted <= set(seen), wanted - set(seen)


def _what_happened(g: PayMeGame) -> set[str]:
    out: set[str] = set()
    for a in g.actions:
        if isinstance(a, Draw):
            out.add(f"draw {a.source}")
        elif isinstance(a, GoOut):
            out.add("go out" if a.discard is None else "go out with a discard")
        elif isinstance(a, LayOff) and a.placements:
            out.add("lay off")
    if any(r.action is None and r.event.startswith("The stock ran out") for r in g.history):
        out.add("stock rebuilt")
    return out


@pytest.mark.parametrize("name", PAY_ME)
def test_full_length_games_keep_every_invariant(name: str) -> None:
    for seed in range(3):
        _random_game(rules(name), 2 + seed * 2, seed, ("greedy", "random"))
