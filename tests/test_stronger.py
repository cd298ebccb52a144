"""The stronger player of the report's check (cardsim.analysis.stronger): its spec and bounds.
The check itself is tested in tests/test_stronger_check.py."""
from __future__ import annotations

import pytest

from cardsim.analysis import stronger as S


def test_the_games_with_pimc_have_it():
    assert S.available("vint") and S.available("500") and S.available("501")


def test_pimc_spec_bounds():
    assert S.pimc_spec(4) == "pimc:worlds=4"
    for bad in (0, 257, 2.5, True):
        with pytest.raises(S.StrongerError, match="worlds must be"):
            S.pimc_spec(bad)
