import os

from hypothesis import settings

# Property tests run a jitted engine per example: keep them few and without deadlines so that
# numba compilation on the first example does not count as a failure.
settings.register_profile("cardsim", max_examples=25, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "cardsim"))
