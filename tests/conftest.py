"""Shared test set-up: hypothesis profiles.

The ``ci`` profile is loaded by default: derandomized, so a run is repeatable and a failure
seen in CI is seen again locally, with no per-example deadline (the machine running the
tests is often shared and slow).  ``HYPOTHESIS_PROFILE=dev`` explores fresh random examples;
``HYPOTHESIS_PROFILE=thorough`` runs many more.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_RELAXED = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=100,
    deadline=None,
    suppress_health_check=_RELAXED,
    print_blob=True,
)
settings.register_profile("dev", max_examples=100, deadline=None, suppress_health_check=_RELAXED)
settings.register_profile(
    "thorough", max_examples=2000, deadline=None, suppress_health_check=_RELAXED
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
