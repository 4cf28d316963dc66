"""The ``payme`` command line: evaluate hands, check melds, going out, lay-offs, rule sets.

Every command prints a readable answer, or one JSON object with ``--json``.  A hand of ``-``
reads one hand per line from standard input and writes one JSON object per line (JSON Lines);
a bad line gives ``{"error": ...}`` and the others go on.  Bad input prints one line to
standard error and exits with status 2 — never a traceback.

>>> main(["evaluate", "7H 8H 9H JK 2C 5S 5D 5C", "--dealt", "7", "--json"])  # doctest: +ELLIPSIS
{"hand": "7H 8H 9H JK 2C 5S 5D 5C", "rules": "denexa", "dealt": 7, "melds": [...], ...}
0
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any, NoReturn

from payme.cards import Card, CardError, format_hand, parse_hand
from payme.rulesets import PRESETS, Ruleset, rules

if TYPE_CHECKING:  # pragma: no cover
    from payme.layoff import LayOffResult
    from payme.melds import Meld
    from payme.solver import GoOutCheck

EXIT_BAD_INPUT = 2
"""Exit status for bad input (a bad card, rule set, dealt, …), as argparse uses."""
MAX_LINE = 1000
"""The longest batch line read (characters): 30 cards, however spelt, fit many times over,
so a longer line is refused before it is parsed (and never held whole in memory)."""
EXCERPT = 40
"""The most characters of a bad input echoed back in a message."""
MAX_MESSAGE = 300
"""The most characters of one error message."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line and exit with status 2."""

    def error(self, message: str) -> NoReturn:
        text = _one_line(message)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {text} (see {self.prog} --help)\n")


# --- JSON shapes -----------------------------------------------------------------------


def _tokens(cards: Sequence[Card | None]) -> list[str | None]:
    return [None if c is None else str(c) for c in cards]


def meld_json(meld: Meld) -> dict[str, Any]:
    """A meld as JSON: kind, cards and, card by card, what each stands for."""
    return {
        "kind": meld.kind,
        "cards": _tokens(meld.cards),
        "stands_for": _tokens(meld.stands_for),
    }


def _meld_text(meld: Meld) -> str:
    shown = []
    for card, stands in zip(meld.cards, meld.stands_for, strict=True):
        shown.append(str(card) if stands is None or stands == card else f"{card}={stands}")
    return f"{meld.kind:<6} {' '.join(shown)}"


def _discards_json(out: GoOutCheck) -> list[str | None]:
    return _tokens(out.discards)


def _discards_text(out: GoOutCheck, ruleset: Ruleset) -> str:
    if not out.ok:
        return "no"
    # Rummy 3-Pack lists the one card left unmelded (NOMELD stays in the hand, unthrown).
    left_over = ruleset.going_out == "one_unmelded"
    cards = [str(d) for d in out.discards if d is not None]
    ways = []
    if None in out.discards:
        ways.append("with every card melded" if left_over else "without discarding")
    if cards:
        which = " or ".join(cards) if len(cards) < 3 else "any of " + " ".join(cards)
        ways.append(f"leaving {which} unmelded" if left_over else f"discarding {which}")
    return "yes, " + ", or ".join(ways)


def _go_out_for(hand: tuple[Card, ...], ruleset: Ruleset, dealt: int | None) -> GoOutCheck | None:
    """The going-out answer when the hand is one just after drawing, else ``None``."""
    from payme.solver import can_go_out

    after_draw = (dealt is not None and len(hand) == dealt + 1) or (
        dealt is None and ruleset.going_out == "one_unmelded"
    )
    return can_go_out(hand, ruleset, dealt) if after_draw else None


def evaluate_json(hand: tuple[Card, ...], ruleset: Ruleset, dealt: int | None) -> dict[str, Any]:
    """The ``evaluate --json`` object for one hand."""
    from payme.solver import evaluate

    ev = evaluate(hand, ruleset, dealt)
    out = _go_out_for(hand, ruleset, dealt)
    return {
        **_question_json("hand", hand, ruleset, dealt),
        "melds": [meld_json(m) for m in ev.melds],
        "deadwood": _tokens(ev.deadwood),
        "deadwood_points": ev.deadwood_points,
        "can_go_out": None if out is None else out.ok,
        "discards": None if out is None else _discards_json(out),
    }


def _evaluate_text(hand: tuple[Card, ...], ruleset: Ruleset, dealt: int | None) -> str:
    from payme.solver import evaluate

    ev = evaluate(hand, ruleset, dealt)
    lines = [f"hand      {format_hand(hand)}  ({_setting(ruleset, dealt)})"]
    if not ev.melds:
        lines.append("melds     none")
    for i, meld in enumerate(ev.melds):
        lines.append(("melds     " if i == 0 else "          ") + _meld_text(meld))
    lines.append(f"deadwood  {format_hand(ev.deadwood) or 'none'}")
    lines.append(f"points    {ev.deadwood_points}")
    out = _go_out_for(hand, ruleset, dealt)
    if out is not None:
        lines.append(f"go out    {_discards_text(out, ruleset)}")
    return "\n".join(lines)


def _setting(ruleset: Ruleset, dealt: int | None) -> str:
    if dealt is None:
        return ruleset.name
    wild = ruleset.round_wild_rank(dealt)
    extra = f", round wild rank {_rank_name(wild)}" if wild is not None else ""
    return f"{ruleset.name}, {dealt} dealt{extra}"


def _rank_name(rank: int) -> str:
    from payme.rulesets import rank_token

    return rank_token(rank)


def _question_json(
    key: str, cards: tuple[Card, ...], ruleset: Ruleset, dealt: int | None
) -> dict[str, Any]:
    """What every JSON answer starts with: the cards asked about (under ``key``), the rule
    set and the cards dealt."""
    return {key: format_hand(cards), "rules": ruleset.name, "dealt": dealt}


def check_meld_json(cards: tuple[Card, ...], ruleset: Ruleset, dealt: int | None) -> dict[str, Any]:
    from payme.melds import check_meld

    chk = check_meld(cards, ruleset, dealt)
    return {
        **_question_json("cards", cards, ruleset, dealt),
        "ok": chk.ok,
        "reason": chk.reason,
    }


def go_out_json(hand: tuple[Card, ...], ruleset: Ruleset, dealt: int | None) -> dict[str, Any]:
    from payme.solver import can_go_out

    out = can_go_out(hand, ruleset, dealt)
    return {
        **_question_json("hand", hand, ruleset, dealt),
        "can_go_out": out.ok,
        "discards": _discards_json(out),
    }


def _declared(texts: Sequence[str], ruleset: Ruleset, dealt: int | None) -> list[Meld]:
    from payme.melds import parse_declared_meld

    return [parse_declared_meld(t, ruleset, dealt) for t in texts]


def lay_off_json(
    hand: tuple[Card, ...], declarer: Sequence[Meld], ruleset: Ruleset, dealt: int | None
) -> dict[str, Any]:
    from payme.layoff import lay_off

    lo = lay_off(hand, declarer, ruleset, dealt)
    return {
        **_question_json("hand", hand, ruleset, dealt),
        "declarer": [meld_json(m) for m in declarer],
        "melds": [meld_json(m) for m in lo.melds],
        "lay_offs": [{"meld": i, "cards": _tokens(cards)} for i, cards in lo.lay_offs],
        "deadwood": _tokens(lo.deadwood),
        "deadwood_points": lo.deadwood_points,
    }


def _lay_off_text(lo: LayOffResult, declarer: Sequence[Meld]) -> str:
    lines = []
    for i, meld in enumerate(declarer):
        lines.append(f"declarer  [{i}] {_meld_text(meld)}")
    for i, meld in enumerate(lo.melds):
        lines.append(("melds     " if i == 0 else "          ") + _meld_text(meld))
    if not lo.melds:
        lines.append("melds     none")
    for i, cards in lo.lay_offs:
        lines.append(f"lay off   {format_hand(cards)} onto [{i}]")
    lines.append(f"deadwood  {format_hand(lo.deadwood) or 'none'}")
    lines.append(f"points    {lo.deadwood_points}")
    return "\n".join(lines)


def rules_json(ruleset: Ruleset) -> dict[str, Any]:
    """Every field of a rule set, as JSON-ready data."""
    data: dict[str, Any] = _plain(dataclasses.asdict(ruleset))
    return data


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


# --- commands --------------------------------------------------------------------------


def _emit(obj: dict[str, Any], stream: IO[str]) -> None:
    stream.write(json.dumps(obj, ensure_ascii=False) + "\n")


def excerpt(text: str, most: int = EXCERPT) -> str:
    """``text`` cut to ``most`` characters, saying how long it was.

    >>> excerpt("7H 8H"), excerpt("X" * 100, 10)
    ('7H 8H', 'XXXXXXXXXX… (100 characters)')
    """
    return text if len(text) <= most else f"{text[:most]}… ({len(text)} characters)"


def _lines(stdin: IO[str]) -> Iterator[tuple[str | None, str]]:
    """Each input line as ``(text, "")``, or ``(None, problem)`` for a line that is too long
    or not UTF-8.  Reads bytes when it can, at most :data:`MAX_LINE` + 1 of a line at a time,
    so an endless line never sits whole in memory."""
    raw: IO[bytes] | None = getattr(stdin, "buffer", None)
    read: Callable[[int], str | bytes] = raw.readline if raw is not None else stdin.readline
    while True:
        chunk = read(MAX_LINE + 2)  # room for the line end
        if not chunk:
            return
        end = "\n" if isinstance(chunk, str) else b"\n"
        if not chunk.endswith(end) and len(chunk) > MAX_LINE:  # type: ignore[arg-type]
            while chunk and not chunk.endswith(end):  # type: ignore[arg-type]
                chunk = read(1 << 16)  # skip the rest of the line
            yield None, f"line longer than {MAX_LINE} characters: not read"
            continue
        if isinstance(chunk, bytes):
            try:
                chunk = chunk.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield None, f"line is not UTF-8 text (byte {exc.start + 1})"
                continue
        text = chunk.rstrip("\r\n")
        if len(text) > MAX_LINE:
            yield None, f"line longer than {MAX_LINE} characters: not read"
        else:
            yield text, ""


def _batch(answer: Callable[[str], dict[str, Any]], stdin: IO[str], stdout: IO[str]) -> int:
    """One JSON object per input line; a bad line becomes ``{"error": ...}``."""
    for number, (text, problem) in enumerate(_lines(stdin), start=1):
        if text is None:
            obj: dict[str, Any] = {"error": problem, "line": number}
        else:
            try:
                obj = answer(text)
            except (CardError, ValueError) as exc:
                obj = {"error": _one_line(exc), "line": number, "input": excerpt(text)}
        _emit(obj, stdout)
        stdout.flush()
    return 0


def _one_line(exc: BaseException | str) -> str:
    """A message on one line (whitespace runs become single spaces), cut to a sensible size."""
    return excerpt(" ".join(str(exc).split()), MAX_MESSAGE) or type(exc).__name__


def _ruleset(args: argparse.Namespace) -> Ruleset:
    """The rule set asked for, with ``--dealt`` checked where it is needed."""
    from payme.melds import needs_dealt

    ruleset = rules(args.rules)
    if args.dealt is None and needs_dealt(ruleset):
        raise ValueError(
            f"--dealt is required for {ruleset.name}: the cards dealt this hand "
            f"({ruleset.min_dealt}-{ruleset.max_dealt}), which fix the round wild rank"
        )
    return ruleset


def _hand_command(
    args: argparse.Namespace,
    as_json: Callable[[tuple[Card, ...], Ruleset, int | None], dict[str, Any]],
    as_text: Callable[[tuple[Card, ...], Ruleset, int | None], str] | None,
    stdin: IO[str],
    stdout: IO[str],
) -> int:
    ruleset = _ruleset(args)
    if args.hand == "-":
        return _batch(lambda text: as_json(parse_hand(text), ruleset, args.dealt), stdin, stdout)
    if len(args.hand) > MAX_LINE:
        raise ValueError(
            f"the hand is {len(args.hand)} characters long: at most {MAX_LINE} are read"
        )
    hand = parse_hand(args.hand)
    if args.json or as_text is None:
        _emit(as_json(hand, ruleset, args.dealt), stdout)
    else:
        stdout.write(as_text(hand, ruleset, args.dealt) + "\n")
    return 0


def _cmd_evaluate(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    return _hand_command(args, evaluate_json, _evaluate_text, stdin, stdout)


def _cmd_check_meld(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    def text(cards: tuple[Card, ...], ruleset: Ruleset, dealt: int | None) -> str:
        obj = check_meld_json(cards, ruleset, dealt)
        return f"{'meld' if obj['ok'] else 'not a meld'}: {obj['reason']}"

    return _hand_command(args, check_meld_json, text, stdin, stdout)


def _cmd_go_out(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    def text(hand: tuple[Card, ...], ruleset: Ruleset, dealt: int | None) -> str:
        from payme.solver import can_go_out

        return f"go out    {_discards_text(can_go_out(hand, ruleset, dealt), ruleset)}"

    return _hand_command(args, go_out_json, text, stdin, stdout)


def _cmd_lay_off(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    ruleset = _ruleset(args)
    declarer = _declared(args.declarer or [], ruleset, args.dealt)

    def as_json(hand: tuple[Card, ...], rs: Ruleset, dealt: int | None) -> dict[str, Any]:
        return lay_off_json(hand, declarer, rs, dealt)

    def as_text(hand: tuple[Card, ...], rs: Ruleset, dealt: int | None) -> str:
        from payme.layoff import lay_off

        return _lay_off_text(lay_off(hand, declarer, rs, dealt), declarer)

    return _hand_command(args, as_json, as_text, stdin, stdout)


def _cmd_rules(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    if args.name is None:
        if args.json:
            _emit({name: r.title for name, r in PRESETS.items()}, stdout)
        else:
            for name, r in PRESETS.items():
                stdout.write(f"{name:<11} {r.title}\n")
        return 0
    ruleset = rules(args.name)
    data = rules_json(ruleset)
    if args.json:
        _emit(data, stdout)
        return 0
    width = max(len(k) for k in data)
    for key, value in data.items():
        shown = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
        stdout.write(f"{key:<{width}}  {shown}\n")
    return 0


def _cmd_simulate(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    try:
        from payme.analysis.cli import run_simulate
    except ImportError as exc:
        raise ValueError(
            f"simulation is not available: {exc} (install payme with the 'app' extra)"
        ) from None
    return int(run_simulate(args, stdout=stdout))


def _cmd_review(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    from payme.analysis.cli import run_review

    return int(run_review(args, stdout))


def _cmd_app(voila_args: list[str]) -> int:
    """``payme app [VOILA OPTIONS]``: serve the web app (Voilà options passed on as they are)."""
    try:
        import voila  # noqa: F401
    except ImportError:
        sys.stderr.write('payme: error: the web app needs its extra: pip install "payme[app]"\n')
        return EXIT_BAD_INPUT
    from payme.app.server import main as serve

    serve(voila_args)
    return 0


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, not {value}")
    return value


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    """The ``payme`` argument parser (its subcommands and options)."""
    parser = _Parser(
        prog="payme",
        description="Exact hand evaluation for the rummy game Pay Me (and Rummy 3-Pack).",
        epilog="Cards: 7H TD AS KC JK (10 for T, suit symbols too); commas or spaces between.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def hand_options(p: argparse.ArgumentParser, what: str) -> None:
        p.add_argument(
            "hand",
            metavar=what.upper(),
            help=f"the {what}, or - to read one per line (answers as JSON Lines)",
        )
        p.add_argument("--rules", default="denexa", help="rule set (default denexa)")
        p.add_argument(
            "--dealt",
            type=_whole,
            default=None,
            help="cards dealt this hand: fixes the round wild rank (Pay Me: 3-13)",
        )
        p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser("evaluate", help="the best layout of a hand: melds, deadwood, points")
    hand_options(p, "hand")
    p.set_defaults(run=_cmd_evaluate)

    p = sub.add_parser("check-meld", help="whether cards form a valid meld, and why")
    hand_options(p, "cards")
    p.set_defaults(run=_cmd_check_meld)

    p = sub.add_parser("go-out", help="whether a hand just after drawing can go out")
    hand_options(p, "hand")
    p.set_defaults(run=_cmd_go_out)

    p = sub.add_parser("lay-off", help="the best lay-off onto the declarer's melds")
    hand_options(p, "hand")
    p.add_argument(
        "--declarer",
        action="append",
        metavar="MELD",
        help="one of the declarer's melds as laid (repeat for each)",
    )
    p.set_defaults(run=_cmd_lay_off)

    p = sub.add_parser("rules", help="list the rule sets, or show one's fields")
    p.add_argument("name", nargs="?", help="a preset name")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=_cmd_rules)

    p = sub.add_parser("simulate", help="simulate games with bots into a table (CSV/Parquet)")
    p.add_argument("--games", type=_positive, default=100, help="games to play (default 100)")
    p.add_argument("--rules", default="denexa", help="rule set (default denexa)")
    p.add_argument("--players", type=_positive, default=4, help="players (default 4)")
    p.add_argument(
        "--bots",
        nargs="+",
        default=None,
        metavar="BOT",
        help="one bot per seat: random, greedy, strong or expert (default: all greedy)",
    )
    p.add_argument("--seed", type=_whole, default=0, help="random seed (default 0)")
    p.add_argument(
        "--dealt",
        type=_positive,
        default=None,
        help="Rummy 3-Pack: cards dealt to each player (2-10; default 7)",
    )
    p.add_argument("--out", default=None, metavar="FILE", help="write .csv or .parquet here")
    p.add_argument("--workers", type=_positive, default=None, help="processes (default: cores)")
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDR",
        help="run on a Dask cluster, e.g. tcp://HOST:8786",
    )
    p.set_defaults(run=_cmd_simulate)

    p = sub.add_parser(
        "review",
        help="review a Play game: each of your decisions beside the strongest bot's",
    )
    p.add_argument(
        "game",
        metavar="GAME",
        help="the game's Play URL (or its query), or your moves alone (s.d7H.n...)",
    )
    p.add_argument("--rules", default=None, help="rule set (default: the URL's, or denexa)")
    p.add_argument("--players", type=_positive, default=None, help="players (default 3)")
    p.add_argument("--bots", default=None, help="the bots, comma-separated (default greedy)")
    p.add_argument("--seed", type=_whole, default=None, help="the game's seed")
    p.add_argument("--position", default=None, help="the position the game started at")
    p.add_argument(
        "--gen",
        default=None,
        help="the bots' generation the game was played with (default: the URL's gen, or 1)",
    )
    p.add_argument(
        "--deals",
        type=_positive,
        default=None,
        help="deals sampled at most per decision (default 8192: enough for ±0.5 point)",
    )
    p.add_argument(
        "--workers",
        type=_positive,
        default=None,
        help="processes to spread the deals over (default: every core; the review is the "
        "same with any number)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=_cmd_review)

    # Dispatched by main() before parsing: every option after `app` belongs to Voilà.
    sub.add_parser(
        "app",
        help="serve the web app on http://127.0.0.1:8866 (needs payme[app]); "
        "Voilà options follow, e.g. --port=9000",
        add_help=False,
    )
    return parser


def main(
    argv: Sequence[str] | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None
) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input)."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["app"]:
        return _cmd_app(argv[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_BAD_INPUT
    try:
        return int(args.run(args, stdin, stdout))
    except (CardError, ValueError) as exc:
        sys.stderr.write(f"payme: error: {_one_line(exc)}\n")
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. `payme evaluate - ... | head`
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug: still no traceback unless asked for
        if os.environ.get("PAYME_DEBUG"):
            raise
        sys.stderr.write(
            f"payme: internal error: {type(exc).__name__}: {_one_line(exc)} "
            "(set PAYME_DEBUG=1 for the traceback)\n"
        )
        return 1
