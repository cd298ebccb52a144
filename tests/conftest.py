import os

from hypothesis import settings

# Property tests run a jitted engine per example: keep them few and without deadlines so that
# numba compilation on the first example does not count as a failure.
settings.register_profile("cardsim", max_examples=25, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "cardsim"))


SLOWEST_FIRST = ("test_report.py", "test_quality.py", "test_dd.py", "test_vint_dispatch.py")
"""Files whose module fixtures take minutes on a cold numba cache.  pytest-xdist hands files to
the workers in collection order, so these start first instead of running alone at the end."""


def pytest_collection_modifyitems(items):
    rank = {name: k for k, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
