import os

from hypothesis import settings

# Property tests run a jitted engine per example: keep them few and without deadlines so that
# numba compilation on the first example does not count as a failure.
settings.register_profile("cardsim", max_examples=25, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "cardsim"))


def pytest_configure(config):
    """Each test process keeps the chunks of unfinished runs (``evaluate``, ``quality``, match
    stores) in a folder of its own, not the user's ``~/.cache/cardsim/runs``: two xdist workers
    asking the same question at once would otherwise share a store, and the second would be
    refused (a store is written by one run at a time, cardsim.runner.files.claim_folder)."""
    import tempfile

    if "CARDSIM_RUNS" not in os.environ or os.environ.get("PYTEST_XDIST_WORKER"):
        config._cardsim_runs = os.environ["CARDSIM_RUNS"] = tempfile.mkdtemp(prefix="cardsim-runs-")


def pytest_unconfigure(config):
    import shutil

    folder = getattr(config, "_cardsim_runs", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
