"""Test configuration: hypothesis runs the same examples every time (a red CI must mean a real
regression, not an unlucky draw). `HYPOTHESIS_PROFILE=explore` draws new examples each run."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False, max_examples=500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
