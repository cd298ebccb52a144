"""A strategy bug is an error, never a silently corrected result."""
import numpy as np
import pytest

from cardsim.games.g500 import engine as E500


def test_five_hundred_illegal_moves_raise():
    res = np.zeros((3, E500.R_LEN), dtype=np.int64)
    E500.check_legal(res)  # nothing illegal: no error
    res[1, E500.R_ILLEGAL] = 2
    with pytest.raises(ValueError, match="2 illegal moves .* index 1"):
        E500.check_legal(res)
