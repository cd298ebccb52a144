"""Five Hundred analysis: partial sums merge exactly; tables carry n and intervals."""
import numpy as np
import pandas as pd

from cardsim import frames
from cardsim.analysis import g500 as A
from cardsim.games import get_game

SPEC = get_game("500")


def test_partials_merge_and_tables(tmp_path):
    # the previous default (heuristic_v4): its contracts spread so that 1,200 deals reach none 200 times
    setup = SPEC.setup("heuristic_v4")
    rows = [frames.deals("500", SPEC.play.simulate_chunk(6, i * 400, 400, setup)) for i in range(3)]
    parts = [A.summarize(r) for r in rows]
    merged = pd.concat(parts).groupby(level=list(range(parts[0].index.nlevels))).sum()
    whole = A.summarize(pd.concat(rows, ignore_index=True))
    pd.testing.assert_frame_equal(merged.sort_index(), whole.sort_index(), check_dtype=False)
    tabs = A.tables(merged)
    t = tabs["g500_contracts"]
    assert t["n"].sum() == 1200
    assert np.isclose(t["reached"].sum(), 1.0)
    played = t[t.contract != "thrown in"]
    assert ((played.made_lo <= played.made + 1e-9) & (played.made <= played.made_hi + 1e-9)).all()
    # quebec: the net score of a contract is +value when made and -value when failed
    all_rows = pd.concat(rows, ignore_index=True)
    r = all_rows[all_rows.contract.notna()]
    sign = np.where(r.made.to_numpy(bool), 1, -1)
    expect = (sign * r.value.astype(int)).mean()
    total_net = (played.quebec_net * played.n).sum() / played.n.sum()
    assert np.isclose(total_net, expect)
    d = tabs["g500_denominations"]
    assert d["n"].sum() == 1200 and set(d.contract) <= {"thrown in", "S", "C", "D", "H", "NT"}
    # a figure needs contracts reached at least 200 times: more deals than the tables above
    big = A.tables(A.summarize(frames.deals("500", SPEC.play.simulate_chunk(6, 0, 6000, setup))))
    assert (big["g500_contracts"].n >= 200).sum() >= 2
    paths = A.figures(big, tmp_path)
    assert paths == [tmp_path / "g500_contracts.png"] and paths[0].stat().st_size > 10_000
    assert A.figures(tabs, tmp_path / "few") == []  # 1,200 deals: no contract reached 200 times
