"""The preset rule sets as the tests parametrize over them, derived from
:data:`payme.rulesets.PRESETS` (a new preset is tested without editing a list)."""

from __future__ import annotations

from payme.rulesets import PRESETS

ALL: tuple[str, ...] = tuple(PRESETS)
"""Every preset: ``denexa``, ``classic``, ``family``, ``three_pack``."""
PAY_ME: tuple[str, ...] = tuple(name for name, r in PRESETS.items() if r.game == "pay_me")
"""The presets of Pay Me."""
THREE_PACK: tuple[str, ...] = tuple(n for n, r in PRESETS.items() if r.game == "rummy_3_pack")
"""The presets of Rummy 3-Pack."""
