"""Fuzzing the inputs: any text, any ``dealt``, any rule set name.

The promise (RULES.md, API.md): a card string either parses into cards whose canonical
printing parses back to the same cards, or raises ``CardError`` naming the bad token.  Every
public function raises only ``CardError``/``ValueError`` with a message saying what is wrong,
and the command line answers bad input with one line on stderr and exit status 2.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from payme.cards import CARDS, CardError, format_hand, parse_card, parse_hand
from payme.cli import main
from payme.layoff import lay_off
from payme.melds import check_meld
from payme.pack import MAX_HAND
from payme.rulesets import PRESETS
from payme.solver import can_go_out, evaluate

# Characters that card notation is made of, plus some that it is not, so random text often
# comes close to valid and exercises the parser's edges.
NOTATION = "A23456789TJQK10SHDCshdcjk♠♥♦♣\ufe0e\ufe0f ,\t\nRUMMYWILDGROUPSEQNOMELDNOGOxX!-_.;/é0"
TOKENS = [str(c) for c in CARDS] + ["10h", "♠q", "q♠", "Jk", "nogo", "1X", "11H", "T", "", "HH"]

card_text = st.one_of(
    st.text(alphabet=NOTATION, max_size=40),
    st.text(max_size=30),
    st.lists(st.sampled_from(TOKENS), max_size=12).map(" ".join),
    st.lists(st.sampled_from(TOKENS), max_size=12).map(",".join),
)


def _check_card_error(exc: CardError, text: str) -> None:
    message = str(exc)
    assert message.strip(), "a CardError must say what is wrong"
    if exc.token is not None:
        # The token is named, and it is part of what the user wrote.
        assert exc.token in message or repr(exc.token) in message
        assert exc.token.strip() in text or exc.token in text


@given(card_text)
def test_parse_hand_round_trips_or_names_the_token(text: str) -> None:
    try:
        cards = parse_hand(text)
    except CardError as exc:
        _check_card_error(exc, text)
        assert exc.token is not None, f"no token named for {text!r}: {exc}"
        return
    printed = format_hand(cards)
    assert parse_hand(printed) == cards
    assert format_hand(parse_hand(printed)) == printed
    # Every whitespace/comma separated piece became exactly one card.
    pieces = [p for p in text.replace(",", " ").split() if p]
    assert len(cards) == len(pieces)


@given(
    st.lists(
        st.one_of(
            st.sampled_from(CARDS),
            st.sampled_from(TOKENS),
            st.integers(),
            st.none(),
            st.floats(allow_nan=False),
        ),
        max_size=8,
    )
)
def test_parse_hand_of_items_takes_cards_and_tokens_only(items: list[Any]) -> None:
    try:
        cards = parse_hand(items)
    except CardError as exc:
        assert str(exc).strip()
        return
    assert all(c in CARDS for c in cards)
    assert parse_hand(format_hand(cards)) == cards


# --- the public functions on arbitrary input -----------------------------------------------

rule_names = st.one_of(st.sampled_from(sorted(PRESETS)), st.text(max_size=12))
dealts = st.one_of(
    st.none(),
    st.integers(-3, 20),
    st.sampled_from([7, 10, 13, 3]),
    st.booleans(),
    st.text(max_size=3),
)
# Mostly valid-looking hands of modest size (an exact search on a huge wild-heavy hand is
# legitimately slow), sometimes too many copies or too many cards.
hand_text = st.one_of(
    card_text,
    st.lists(st.sampled_from(TOKENS[:53]), min_size=0, max_size=10).map(" ".join),
    st.integers(1, 12).map(lambda n: " ".join(["JK"] * n)),
    st.just(" ".join(["AS"] * (MAX_HAND + 1))),
)


def _call_or_error(fn: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return fn(*args, **kwargs)
    except CardError as exc:
        assert str(exc).strip()
        return exc
    except ValueError as exc:
        message = str(exc)
        assert message.strip()
        assert "\n" not in message.strip(), f"a multi-line message: {message!r}"
        return exc


@given(hand_text, rule_names, dealts)
def test_evaluate_fails_only_with_clear_errors(text: str, name: str, dealt: Any) -> None:
    result = _call_or_error(evaluate, text, rules=name, dealt=dealt)
    if not isinstance(result, Exception):
        assert sorted(parse_hand(text)) == sorted(
            [*result.deadwood, *(c for m in result.melds for c in m.cards)]
        )


@given(hand_text, rule_names, dealts)
def test_check_meld_and_can_go_out_fail_only_with_clear_errors(
    text: str, name: str, dealt: Any
) -> None:
    chk = _call_or_error(check_meld, text, rules=name, dealt=dealt)
    if not isinstance(chk, Exception):
        assert isinstance(chk.ok, bool) and chk.reason.strip()
    _call_or_error(can_go_out, text, rules=name, dealt=dealt)


@given(hand_text, st.lists(hand_text, max_size=3), rule_names, dealts)
def test_lay_off_fails_only_with_clear_errors(
    text: str, declared: list[str], name: str, dealt: Any
) -> None:
    _call_or_error(lay_off, text, declared, rules=name, dealt=dealt)


def test_a_card_the_pack_lacks_is_named() -> None:
    with pytest.raises(CardError, match="JK"):
        evaluate("JK 7H 8H", rules="three_pack")
    with pytest.raises(CardError, match="AS"):
        evaluate("AS AS AS AS", rules="denexa", dealt=7)  # three packs hold 3
    with pytest.raises(CardError, match="too large"):
        evaluate(format_hand(CARDS[:11] * 3), rules="denexa", dealt=7)  # 33 cards


# --- the command line ----------------------------------------------------------------------

commands = st.sampled_from(["evaluate", "check-meld", "go-out", "lay-off", "rules", "nope", ""])
argument = st.one_of(
    hand_text,
    st.sampled_from(
        [
            "--rules",
            "--dealt",
            "--json",
            "--declarer",
            "-",
            "--help",
            "denexa",
            "7",
            "99",
            "family",
            "three_pack",
        ]
    ),
)


@given(commands, st.lists(argument, max_size=6), st.text(max_size=60))
def test_cli_exits_0_or_2_with_one_line_errors(command: str, args: list[str], stdin: str) -> None:
    assume("--help" not in args or command)
    err = io.StringIO()
    out = io.StringIO()
    with redirect_stderr(err):
        try:
            status = main([command, *args], stdin=io.StringIO(stdin), stdout=out)
        except SystemExit as exc:  # argparse's --help
            status = int(exc.code or 0)
    assert status in (0, 2), (status, err.getvalue())
    if status == 2:
        lines = err.getvalue().strip().splitlines()
        assert len(lines) == 1 and "error" in lines[0], err.getvalue()
        assert "Traceback" not in err.getvalue()


@given(card_text)
def test_whole_string_lookup_agrees_with_token_by_token_parsing(text: str) -> None:
    # parse_hand reads a text hand with one dictionary lookup per token; parse_card reads
    # one token the long way (strip, variation selectors, upper case).  They must agree.
    tokens = [t for t in text.replace(",", " ").split() if t]
    try:
        expected: tuple[object, ...] | type[CardError] = tuple(parse_card(t) for t in tokens)
    except CardError:
        expected = CardError
    try:
        got: tuple[object, ...] | type[CardError] = parse_hand(text)
    except CardError:
        got = CardError
    assert got == expected


def test_every_spelling_of_every_card_parses_in_any_case() -> None:
    for card in CARDS:
        token = str(card)
        for spelled in {token, token.lower(), token.capitalize(), token.swapcase()}:
            assert parse_hand(f"{spelled},{spelled} {spelled}") == (card, card, card)
