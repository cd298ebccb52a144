"""`cardsim evaluate --until-clear` (cardsim.sequential, cardsim.questions.run_until_clear): stop when the
best option is clear, with the stated error rate whatever the round the run stops at."""
import csv
import io
import json

import numpy as np
import pytest
from scipy.stats import norm

from cardsim import questions as E
from cardsim import sequential as S
from cardsim.cli import main
from cardsim.games.base import OptionError
from cardsim.question_table import COLUMNS

HAND = "S:AKT86 H:KQ42 C:K832"
WEAK = "S:5432 H:5432 D:432 C:32"  # no points: the seat's strategy passes, so P and strategy are one play


def _run(stream, k, max_deals, first, error=0.05):
    """until_clear on the rows of ``stream`` (n, k): each round sums its rows."""
    return S.until_clear(lambda a, b: [S.sums_of(stream[a:b])], k, max_deals, error, first)


def _wrong_share(make, k, reps, max_deals, first, error=0.05):
    """Share of ``reps`` runs on equal options (``make(rng, n, k)``, equal means) that call one clear,
    and the mean deals used."""
    wrong, deals = 0, 0
    for r in range(reps):
        _, res = _run(make(np.random.default_rng(r), max_deals, k), k, max_deals, first, error)
        wrong += res.clear
        deals += res.deals
    return wrong / reps, deals / reps


def test_schedule_doubles_from_the_first_look_to_the_maximum():
    assert S.schedule(1_000_000) == (2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 512000, 1_000_000)
    assert S.schedule(16000, 2000) == (2000, 4000, 8000, 16000)
    assert S.schedule(1500) == (1500,)
    assert S.comparison_error(0.05, 10, 3) == pytest.approx(0.0025)
    for bad in (0, -5, 2.5, True):
        with pytest.raises(OptionError, match="must be a whole number from 1"):
            S.schedule(bad)
    for bad in (0, -0.1, 0.51, float("nan"), "0.05", True, 1e-300, 5e-324):
        with pytest.raises(OptionError, match="from 1e-06 to 0.5"):
            S.check_error(bad)
    assert S.check_error(1e-6) == 1e-6 and S.check_error(0.5) == 0.5
    with pytest.raises(OptionError, match="at least two options"):
        S.until_clear(lambda a, b: [], 1, 100, 0.05, 10)


def test_sums_of_match_the_per_pair_definitions():
    rng = np.random.default_rng(1)
    x, ok = rng.normal(size=(50, 3)), rng.random((50, 3)) < 0.8
    s = S.sums_of(x, ok)
    both = ok[:, 0] & ok[:, 2]
    d = x[both, 0] - x[both, 2]
    assert s["pair_n"][0, 2] == both.sum() and s["pair_s1"][0, 2] == pytest.approx(d.sum())
    assert s["pair_s2"][0, 2] == pytest.approx((d ** 2).sum()) and s["s1"][1] == pytest.approx(x[ok[:, 1], 1].sum())


def test_equal_options_are_wrongly_called_clear_at_most_at_the_stated_rate():
    # Two options with equal means and random (correlated) differences, 1,500 runs of 6 looks.
    def make(rng, n, k):
        return rng.normal(0, 1, (n, 1)) + rng.normal(0, 1, (n, k))

    share, deals = _wrong_share(make, 2, 1500, 3200, 100)
    assert share <= 0.05
    assert deals > 3000  # nearly every run goes on to the maximum
    # The same looks each at a plain 95% interval (no correction for looking six times): wrong far more often.
    naive = 0
    for r in range(500):
        x = make(np.random.default_rng(r), 3200, 2)
        naive += any(S.judge(S.sums_of(x[:n]), 0.05).clear for n in S.schedule(3200, 100))
    assert naive / 500 > 0.1


def test_equal_best_options_among_several_with_skewed_scores():
    # Four options, the first two equal and best, with rare large bonuses (skewed scores, like a slam
    # bonus); calling either of the two clear is wrong.  The others are clearly worse.
    def make(rng, n, k):
        bonus = (rng.random((n, k)) < 0.02) * 2000.0
        return rng.normal(0, 300, (n, 1)) + bonus + rng.normal(0, 100, (n, k)) - np.array([0, 0, 60, 90])

    share, _ = _wrong_share(make, 4, 600, 8000, 1000)
    assert share <= 0.05


def _per_deal(q, n):
    """(n, k) scores of the question's options on deals 0..n-1 (all legal here)."""
    dealt = q.deal(0, n)
    cols = []
    for forced in q.forced:
        rows, ok = q.spec.forcing.play_given(q.run.seed, 0, dealt, q.run.setup, forced, q.before)
        assert ok.all()
        cols.append(q.spec.forcing.outcome(rows, q.seat, q.before)[2].astype(np.float64))
    return np.stack(cols, axis=1)


def test_real_vint_scores_made_equal_are_wrongly_called_clear_at_most_at_the_stated_rate():
    # Real per-deal scores of three first calls (their heavy tails: games, slams, penalties), each
    # option's mean moved to the same value; runs resample the deals with replacement, so the options
    # are equal by construction while their differences keep the real shape.
    q = E.question("vint", seat=0, dealer=0, where="hcp=11-13", options=["P", "1S", "1NT"], n=6000, seed=7)
    x = _per_deal(q, 6000)
    x -= x.mean(axis=0)
    wrong = 0
    for r in range(600):
        rows = np.random.default_rng(r).integers(0, len(x), 16000)
        wrong += _run(x[rows], 3, 16000, 2000)[1].clear
    assert wrong / 600 <= 0.05


def test_a_planted_difference_is_found_with_fewer_deals_than_a_fixed_run_of_the_same_resolution():
    # Option 1 better by 0.1 (the differences' sd is 1.41): found in every run, and the right one.  A
    # fixed run that must be sized before any deal (the gap unknown) and resolve, at the same error, the
    # smallest gap this procedure resolves at its maximum needs max·(z_95 / z_look)² deals.
    gap, max_deals, first = 0.1, 64000, 2000
    used = []
    for r in range(200):
        rng = np.random.default_rng(r)
        x = rng.normal(0, 1, (max_deals, 2)) + np.array([0.0, gap])
        _, res = _run(x, 2, max_deals, first)
        assert res.clear and res.best == 1
        used.append(res.deals)
    z_look = norm.isf(S.comparison_error(0.05, len(S.schedule(max_deals, first)), 2) / 2)
    fixed = max_deals * (norm.isf(0.025) / z_look) ** 2
    assert np.mean(used) < fixed / 4 and max(used) <= 8000


def test_until_clear_stopping_at_n_deals_has_the_sums_of_a_fixed_run_of_n():
    kw = dict(seat=0, dealer=0, hand=HAND, options=["P", "1S", "1NT"], seed=11, chunk_size=70)
    q = E.question("vint", n=2000, **kw)
    sums, res = E.run_until_clear(q, first=30, n_jobs=1)
    assert res.clear and res.deals > 30 and len(res.looks) >= 2  # more than one round
    fixed = E.run_question(E.question("vint", n=res.deals, **kw), n_jobs=1)
    assert set(sums) == set(fixed)
    for key in fixed:
        assert np.array_equal(sums[key], fixed[key]), key  # integer points: exactly the same sums
    a = E.until_clear_table(q, sums, res)
    b = E.table(E.question("vint", n=res.deals, **kw), fixed)
    assert a[COLUMNS].equals(b[COLUMNS]) and a.attrs["until_clear"]["best"] == a.option[0]
    assert (a.clear_hi.iloc[1:] < 0).all() and np.isnan(a.clear_lo.iloc[0])


def test_equal_plays_run_to_the_maximum_and_say_none_is_clear(tmp_path):
    df = E.evaluate_until_clear("vint", seat=0, dealer=0, hand=WEAK, options=["P", "strategy"], max_deals=300,
                                first=100, n_jobs=1, store=tmp_path / "runs")
    v = df.attrs["until_clear"]
    assert v["deals"] == 300 and not v["clear"] and v["best"] is None and v["looks_taken"] == [100, 200, 300]
    assert (df.n == 300).all() and not (tmp_path / "runs").exists()  # the rounds' store is removed at the end


def test_cli_until_clear_prints_the_deals_used_the_verdict_and_the_guarantee(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("CARDSIM_RUNS", str(tmp_path))
    base = ["evaluate", "vint", "--seat", "0", "--hand", "S:AKQJT98765432", "--option", "=7S", "--option", "=7NT",
            "--jobs", "1", "--until-clear"]
    assert main(base) == 0
    out = capsys.readouterr().out
    assert "until clear: 2,000 deals used (look 1 of 10 planned" in out
    assert "clearly best: =7S" in out and "at most 5%, whatever the round it stops at" in out
    assert main([*base, "--format", "json", "--error", "0.01", "--max-deals", "4000"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["until_clear"]["best"] == "=7S" and data["until_clear"]["looks_planned"] == [2000, 4000]
    assert data["until_clear"]["error"] == 0.01 and data["options"][0]["n"] == 2000
    # a CSV reader gets the verdict in columns, and the table's empty cells stay empty as text
    assert main([*base, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["option"], r["clearly_best"], r["deals_used"]) for r in rows] == [("=7S", "True", "2000"),
                                                                                ("=7NT", "False", "2000")]
    assert main(base) == 0 and "NaN" not in capsys.readouterr().out
    weak = ["evaluate", "vint", "--seat", "0", "--dealer", "0", "--hand", WEAK, "--option", "P", "--option",
            "strategy", "--jobs", "1", "--until-clear", "--max-deals", "200"]
    assert main(weak) == 0
    assert "no option is clearly best after 200 deals, the maximum" in capsys.readouterr().out


@pytest.mark.parametrize("extra, message", [
    (["--until-clear", "--max-deals", "0"], "must be a whole number from 1"),
    (["--until-clear", "--error", "0"], "from 1e-06 to 0.5"),
    (["--until-clear", "--error", "0.6"], "from 1e-06 to 0.5"),
    (["--until-clear", "--error", "nan"], "from 1e-06 to 0.5"),
    (["--until-clear", "--error", "x"], "is not a number"),
    (["--until-clear", "--error", "1e-300"], "from 1e-06 to 0.5"),
    (["--until-clear", "-n", "1000"], "give the most deals with --max-deals"),
    (["--max-deals", "1000"], "go with --until-clear"),
    (["--error", "0.1"], "go with --until-clear"),
    (["--until-clear", "--robust"], "do not go together"),
])
def test_bad_until_clear_input_is_one_line(capsys, extra, message):
    try:
        code = main(["evaluate", "vint", "--option", "P", "--option", "1S", "--jobs", "1", *extra])
    except SystemExit as exc:  # the parser's own errors
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_until_clear_with_one_option_is_one_line(capsys):
    assert main(["evaluate", "vint", "--option", "P", "--until-clear", "--jobs", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "at least two --option" in err[0]
    with pytest.raises(OptionError, match="at least two options"):
        E.evaluate_until_clear("vint", options=["P"], max_deals=100)


def test_an_interrupted_run_resumes_from_its_finished_rounds(monkeypatch, tmp_path):
    q = E.question("vint", seat=0, dealer=0, hand=WEAK, options=["P", "strategy"], n=300, seed=2)
    played, real = [], E.chunk_sums

    def interrupted(q, start, count):
        if start >= 100:
            raise KeyboardInterrupt
        played.append(start)
        return real(q, start, count)

    monkeypatch.setattr(E, "chunk_sums", interrupted)
    with pytest.raises(KeyboardInterrupt):
        E.run_until_clear(q, first=100, n_jobs=1, store=tmp_path / "s")
    assert played == [0] and (tmp_path / "s" / "deals-0-100").is_dir()

    def recorded(q, start, count):
        played.append(start)
        return real(q, start, count)

    monkeypatch.setattr(E, "chunk_sums", recorded)
    sums, res = E.run_until_clear(q, first=100, n_jobs=1, store=tmp_path / "s")
    assert played == [0, 100, 200] and res.deals == 300  # the first round was not played again
    fresh, _ = E.run_until_clear(q, first=100, n_jobs=1)
    assert all(np.array_equal(sums[key], fresh[key]) for key in fresh) and not (tmp_path / "s").exists()


def test_the_clear_option_is_found_when_means_and_paired_differences_disagree():
    """Options legal on different deals (``--option auto``): A is legal on half the deals and has
    the higher mean there, but B beats it on every deal they share.  B is the clear one (the
    split of the error holds whichever option is tried), and A is not called clear."""
    n = 1000
    pair_s1 = np.array([[0.0, -5.0 * n], [5.0 * n, 0.0]])  # pair_s1[a, b]: a's score minus b's
    pair_s2 = np.array([[0.0, 26.0 * n], [26.0 * n, 0.0]])  # differences of mean 5, sd 1
    pair_n = np.array([[n, n], [n, 2 * n]], dtype=float)
    sums = {"deals": 2 * n, "legal": np.array([n, 2 * n], dtype=float), "s1": np.array([30.0 * n, 20.0 * 2 * n]),
            "pair_s1": pair_s1, "pair_s2": pair_s2, "pair_n": pair_n}
    look = S.judge(sums, 0.001)
    assert look.clear and look.best == 1
    assert look.lower[0] > 4.5 and np.isnan(look.lower[1])
    # the same numbers with B only a little better on the shared deals: nothing is clear, and the
    # reported best is B, which beats A where both are legal (the table's first row: cardsim.ranking),
    # not A, whose mean over its own deals is higher
    weak = dict(sums, pair_s1=pair_s1 / 100, pair_s2=np.array([[0.0, 1.0025 * n], [1.0025 * n, 0.0]]))
    look = S.judge(weak, 0.001)
    assert not look.clear and look.best == 1
