"""The Hypothesis settings profiles: ``ci`` (the default) replays the same examples on every run, ``fuzz``
(``make fuzz``) explores fresh random examples with a larger budget.

CI must not pass or fail by chance, so ``ci`` is derandomized (a seed fixed per test) and keeps no example
database between runs; a failure ``fuzz`` finds is copied into the test as an ``@example(...)``, so CI
then replays it for good. Tests state their budget through ``examples(n)``, which scales with the profile.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Verbosity, settings

CI_EXAMPLES = 100  # the ci profile's budget; examples(n) is n under ci
FUZZ_FACTOR = 20  # how many times more examples fuzz tries
PROFILE_VARIABLE = "HYPOTHESIS_PROFILE"


def register() -> None:
    """Register ``ci`` and ``fuzz`` and load the one ``$HYPOTHESIS_PROFILE`` names (``ci`` when unset)."""
    slow = [HealthCheck.too_slow, HealthCheck.data_too_large]
    settings.register_profile("ci", max_examples=CI_EXAMPLES, derandomize=True, database=None,
                              deadline=None, print_blob=True, suppress_health_check=slow)
    settings.register_profile("fuzz", max_examples=CI_EXAMPLES * FUZZ_FACTOR, derandomize=False,
                              deadline=None, print_blob=True, suppress_health_check=slow,
                              verbosity=Verbosity.normal)
    name = os.environ.get(PROFILE_VARIABLE, "ci")
    if name not in ("ci", "fuzz"):
        raise SystemExit(f"{PROFILE_VARIABLE}={name!r}: use 'ci' (fixed examples) or 'fuzz' (fresh ones)")
    settings.load_profile(name)


def examples(n: int) -> int:
    """``n`` examples under ``ci``, proportionally more under ``fuzz`` (the loaded profile's budget)."""
    return max(1, n * settings.default.max_examples // CI_EXAMPLES)
