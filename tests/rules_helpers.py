"""Checks shared by the tests of the rules of thumb (issue 28): a rule's numbers are those of the
table row it names, its verdict is that row's robustness column, at most six per game, in the order of
rules_of_thumb.RULE (what they settle, then worth)."""
import math

import pytest

from cardsim.analysis import rules_of_thumb as T


def expected_holds(row, prefix: str = "") -> str:
    """The verdict a rule made from ``row`` must carry, from the row's robustness columns (under
    ``prefix``: the rule's ``holds_prefix``)."""
    holds = row.get(prefix + "holds", None)
    if row.get("robust_deals", 1) != 0 and row.get(prefix + "robust_verdict", None) == "not decidable at this size":
        return T.UNDECIDED
    if holds is None or holds != holds or row.get("robust_deals", 1) == 0:
        return T.UNTESTED
    if isinstance(holds, str):  # read back from a CSV
        holds = holds.strip().lower() == "true"
    return T.HOLDS if bool(holds) else T.DEPENDS


def check_rules(rules: list[dict], tables: dict, game: str) -> None:
    """``rules`` of ``game`` against ``tables`` (name -> DataFrame, as written)."""
    assert len(rules) <= T.MAX_RULES
    assert all(r["game"] == game for r in rules)
    keys = [T.rank_key(r) for r in rules]  # what they settle, then worth (T.RULE)
    assert keys == sorted(keys) and all(math.isfinite(r["worth"]) for r in rules)
    assert all(r["settles"] == T.settles(r) for r in rules)
    for r in rules:
        row = tables[r["table"]].reset_index(drop=True).iloc[r["row"]]
        v, lo, hi = (float(row[c]) for c in r["columns"])
        if r["sign"] < 0:
            v, lo, hi = -v, -hi, -lo
        assert (r["value"], r["lo"], r["hi"]) == pytest.approx((v, lo, hi), rel=1e-12, abs=1e-12)
        assert r["lo"] > 0 and r["lo"] <= r["value"] <= r["hi"]  # a rule is a clear gain
        robust = tables[r["holds_table"]].reset_index(drop=True).iloc[r["holds_row"]]
        assert r["holds"] == expected_holds(robust, r.get("holds_prefix", ""))
        assert (r["holds"] == T.DEPENDS) == bool(r["flips_under"])
        text = T.holds_text(r)
        assert text.startswith(T.RB.DEPENDS) == (r["holds"] == T.DEPENDS)
