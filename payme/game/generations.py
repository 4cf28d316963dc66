"""Bot generations: which version of the bots' choices a game was played with.

A shared Play link keeps only your moves; the bots replay theirs from the seed.  When a bot
learns to choose differently, an old link would replay a different game, so each change to
a bot's choices makes a new generation, and a game names the generation it was played
with (the Play page's ``gen`` in its address; a link without one is generation 1).  The
bots of every generation stay playable: ``make_bot(name, rules, seed, generation=1)``.

* **1**: the bots of the first release (every link made before 2026-12-05).
* **2**: the expert bot (Pay Me) weighs what its discard gives the next player: going out,
  a discard the next player can use counts as 3 more lay-off spots
  (:attr:`~payme.game.expert.ExpertBot.GIFT_SPOTS`), and a last discard they can use counts
  8 points shared among the others
  (:attr:`~payme.game.expert.ExpertBot.FINAL_GIFT_POINTS`).  This changes the expert's
  games only where a final turn may take the top discard (``family``).

>>> check_generation("1"), check_generation(BOT_GENERATION) == BOT_GENERATION
(1, True)
>>> check_generation("new")
Traceback (most recent call last):
...
ValueError: gen must be a bot generation, 1 or 2, not 'new'
"""

from __future__ import annotations

BOT_GENERATION = 2
"""The generation of today's bots: new games are played with it."""

BOT_GENERATIONS = (1, 2)
"""Every generation the bots can still play."""

FIRST_GENERATION = 1
"""The generation of a game that names none (every Play link made before generations)."""


def check_generation(value: object, name: str = "gen") -> int:
    """``value`` (a whole number, or its text) as a bot generation; anything else is a
    ``ValueError`` naming ``name`` and the generations there are."""
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().isdigit():
        number = int(value.strip())
    if number not in BOT_GENERATIONS:
        allowed = " or ".join(str(g) for g in BOT_GENERATIONS)
        raise ValueError(f"{name} must be a bot generation, {allowed}, not {value!r}")
    return number


__all__ = ["BOT_GENERATION", "BOT_GENERATIONS", "FIRST_GENERATION", "check_generation"]
