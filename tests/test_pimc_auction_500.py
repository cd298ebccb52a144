"""Five Hundred's worlds that read the auction (``pimc:auction=1``, cardsim/games/g500/pimc_auction.py
over cardsim/strategies/pimc.py ``sample_auction_worlds``): each accepted world's dealt hands make
the calls exactly, the accepted worlds follow the exact conditional given the calls, the fallback
where none can, a seat never sees a hidden card, reproducible play whatever the chunks and jobs,
and the default (``auction=0``) plays as before."""
import dataclasses

import numpy as np
import pytest
from scipy import stats

import cardsim
from cardsim.games import get_game
from cardsim.games.g500 import engine as E
from cardsim.games.g500 import pimc as P
from cardsim.games.g500 import pimc_auction as A
from cardsim.games.g500.constants import DECK, MAX_CALLS, REMAP, TRUMP_MASK
from cardsim.games.g500.rules import card_suit
from cardsim.games.g500.strategies import heuristic_play
from cardsim.strategies import pimc as G

U64 = np.uint64
G500 = get_game("500")
SCORING, TARGET = 0, 500


def _setup(spec):
    strategy, row = G500.table.registry.resolve(spec)
    return np.full(4, strategy.id, dtype=np.int64), np.tile(row, (4, 1))


def _play(hands, kitties, dealers, keys, ids, params):
    """Deals from dealt physical ``hands`` (uint64[n, 4]), ``kitties`` (uint64[n]) and ``dealers``
    (int64[n]) played by the engine itself, the seats' streams from ``keys`` (uint64[n]): (result
    vectors int64[n, R_LEN], traces int64[n, TRACE_LEN])."""
    n = len(dealers)
    out = np.zeros((n, E.R_LEN), dtype=np.int64)
    traces = np.zeros((n, E.TRACE_LEN), dtype=np.int64)
    E.given_kernel(np.asarray(keys, dtype=np.uint64), np.int64(0), np.asarray(dealers, dtype=np.int64),
                   np.ascontiguousarray(hands, dtype=np.uint64), np.asarray(kitties, dtype=np.uint64), ids, params,
                   np.int64(SCORING), np.int64(TARGET), np.int64(0), np.int64(0), E.NO_FORCE.copy(), out, traces,
                   np.bool_(False), np.zeros((n, 2)))
    return out, traces


def _calls(res, trace) -> list[int]:
    return [int(c) for c in trace[E.T_CALLS:E.T_CALLS + res[E.R_NCALLS]]]


def _bits(cards) -> int:
    return sum(1 << int(c) for c in cards)


def _deal(rng):
    deck = rng.permutation(DECK)
    return np.array([_bits(deck[10 * s:10 * s + 10]) for s in range(4)], dtype=np.uint64), _bits(deck[40:])


def _short_deal(ids, params, seed, trumps=False):
    """A deal of ``ids``/``params`` (every seat bidding) whose auction has a bid by the declarer only,
    and whose first lead is not a no-trump joker (``trumps``: and whose contract has a trump suit):
    (hands, kitty, dealer, res, trace)."""
    rng = np.random.default_rng(seed)
    while True:
        hands, kitty = _deal(rng)
        dealer = int(rng.integers(4))
        res, trace = _play(hands[None], [kitty], [dealer], [1], ids, params)
        res, trace = res[0], trace[0]
        calls = _calls(res, trace)
        if (res[E.R_DECLARER] >= 0 and sum(c >= 0 for c in calls) == 1 and trace[E.T_NAMED] < 0
                and not (trumps and res[E.R_BID] % 5 == 4)):
            return hands, kitty, dealer, res, trace


def _second_hand(hands, dealer, ids, params, res, trace, calls=None):
    """The view and record of the declarer's left-hand opponent following to the opening lead (the
    public record of the auction as the engine passes it), and the seat."""
    declarer, bid = int(res[E.R_DECLARER]), int(res[E.R_BID])
    denom = bid % 5
    seat = (declarer + 1) % 4
    lead = int(REMAP[denom, trace[E.T_PLAY]])
    led = int(card_suit(lead, denom))
    hand = 0
    for c in range(64):
        if int(hands[seat]) >> c & 1:
            hand |= 1 << int(REMAP[denom, c])
    trick = np.array([lead, 0, 0, 0], dtype=np.int64)
    calls = _calls(res, trace) if calls is None else calls
    padded = np.zeros(MAX_CALLS, dtype=np.int64)
    padded[:len(calls)] = calls
    by_seat = np.zeros(4, dtype=np.uint64)
    by_seat[declarer] = U64(1 << lead)
    contract = 6 + bid // 5
    view = (seat, U64(hand), denom, declarer, declarer, trick, 1, led, U64(1 << lead), U64(0), 0, contract,
            np.int64(0))
    fallback = int(heuristic_play(*view[:12]))
    record = (np.int64(1), np.int64(dealer), ids, params, np.int64(0), np.int64(0), np.int64(SCORING),
              np.int64(TARGET), padded, np.int64(len(calls)), by_seat, U64(hands[seat]))
    return (*view, fallback, record), seat


def _full_deal(position, world, key):
    """The dealt physical hands and kitty of one accepted world (the hook's own reconstruction)."""
    out = np.zeros((1, 4), dtype=np.uint64)
    _, _, _, _, _, _, _, _, given, own, seat, declarer, denom = position.auction
    A.dealt_hands(world[None].astype(np.uint64), np.array([key], dtype=np.uint64), given, U64(own), np.int64(seat),
                  np.int64(declarer), np.int64(denom), out)
    everything = 0
    for c in DECK:
        everything |= 1 << int(c)
    kitty = everything & ~int(np.bitwise_or.reduce(out[0]))
    return out[0], kitty


# ------------------------------------------------------------------ the calls, exactly
def test_each_accepted_world_deals_hands_that_make_the_calls():
    ids, params = _setup("heuristic")  # pimc bids as heuristic; heuristic plays the checking deals fast
    hands, kitty, dealer, res, trace = _short_deal(ids, params, 11)
    view, seat = _second_hand(hands, dealer, ids, params, res, trace)
    pos = P.position(view)
    assert pos.auction is not None and pos.counts.tolist() == [10, 10, 9, 6]
    n = 60
    seen = []

    def made(position, worlds, keys):
        ok = A.auction_made(position, worlds, keys)
        seen.extend((w, k) for w, k, o in zip(worlds, keys, ok) if o)
        return ok

    worlds, tried, accepted, fell_back = G.sample_auction_worlds(31, pos, n, made, budget=400)
    assert not fell_back and accepted >= n and len(seen) == accepted
    calls = _calls(res, trace)
    declarer = int(res[E.R_DECLARER])
    # Every accepted world, dealt as the hook deals it and played by the engine with the world's
    # own key: the same calls, the seat's own hand, and the declarer holding the card he led.
    dealt = np.array([_full_deal(pos, w, k)[0] for w, k in seen])
    kitties = [_full_deal(pos, w, k)[1] for w, k in seen]
    assert all(bin(k).count("1") == 6 for k in kitties)
    assert (dealt[:, seat] == hands[seat]).all()
    lead = int(trace[E.T_PLAY])
    assert all((int(d[declarer]) | k) >> lead & 1 for d, k in zip(dealt, kitties))
    rows, traces = _play(dealt, kitties, [dealer] * len(seen), [k for _, k in seen], ids, params)
    assert [_calls(r, t) for r, t in zip(rows, traces)] == [calls] * len(seen)
    # ... and the rejected candidates do not: a sample of them, dealt the same way
    rejected = 0
    for b in range(1, 4):
        bkey = U64(G.batch_key(U64(31), np.int64(b)))
        cands, _ = G.sample_worlds(bkey, U64(pos.unseen), pos.counts, pos.allowed, np.int64(64))
        keys = G.world_keys(bkey, np.int64(64))
        ok = A.auction_made(pos, cands, keys)
        dealt = np.array([_full_deal(pos, w, k)[0] for w, k in zip(cands, keys)])
        kitties = [_full_deal(pos, w, k)[1] for w, k in zip(cands, keys)]
        rows, traces = _play(dealt, kitties, [dealer] * 64, keys, ids, params)
        assert [_calls(r, t) == calls for r, t in zip(rows, traces)] == ok.tolist()
        rejected += int((~ok).sum())
    assert rejected > 0


def _trumps(cards, denom) -> int:
    return (int(cards) & int(TRUMP_MASK[denom])).bit_count()


def test_accepted_worlds_follow_the_exact_conditional_given_the_calls():
    # The default players' bidding; the declarer's left-hand opponent following to the opening
    # lead.  The exact conditional computed another way: the 36 cards he does not hold dealt
    # uniformly (numpy) to the three others and the kitty, kept where the declarer holds the card
    # he led among his sixteen and the engine's own auction (the whole deal, given_kernel) makes
    # the same calls.  Compared: the trumps of the declarer's sixteen and of his partner's ten.
    ids, params = _setup("heuristic")
    hands, kitty, dealer, res, trace = _short_deal(ids, params, 11, trumps=True)
    view, seat = _second_hand(hands, dealer, ids, params, res, trace)
    pos = P.position(view)
    declarer, denom = int(res[E.R_DECLARER]), int(res[E.R_BID]) % 5
    partner = (declarer + 2) % 4
    d, p = [(seat + 1 + k) % 4 for k in range(3)].index(declarer), [(seat + 1 + k) % 4 for k in range(3)].index(partner)
    lead = int(REMAP[denom, trace[E.T_PLAY]])
    n = 1200
    worlds, tried, accepted, fell_back = G.sample_auction_worlds(99, pos, n, A.auction_made, budget=400)
    assert not fell_back and worlds.shape == (n, 4)
    got_decl = np.array([_trumps(int(w[d]) | int(w[3]) | 1 << lead, denom) for w in worlds])
    got_part = np.array([_trumps(w[p], denom) for w in worlds])

    rng = np.random.default_rng(5)
    rest = np.array([c for c in DECK if not int(hands[seat]) >> int(c) & 1])
    phys_lead = int(trace[E.T_PLAY])
    others = [s for s in range(4) if s != seat]
    ref_decl, ref_part, drawn, kept = [], [], 0, 0
    while len(ref_decl) < n:
        m = 20000
        dealt = np.tile(hands, (m, 1))
        perm = np.argsort(rng.random((m, len(rest))), axis=1)
        cards = rest[perm]
        for i, s in enumerate(others):
            dealt[:, s] = np.array([_bits(row) for row in cards[:, 10 * i:10 * i + 10]], dtype=np.uint64)
        kitties = np.array([_bits(row) for row in cards[:, 30:]], dtype=np.uint64)
        sixteen = dealt[:, declarer] | kitties
        keep = ((sixteen >> U64(phys_lead)) & U64(1)).astype(bool)
        drawn += int(keep.sum())
        rows, traces = _play(dealt[keep], kitties[keep], [dealer] * int(keep.sum()),
                             np.arange(1, int(keep.sum()) + 1, dtype=np.uint64), ids, params)
        ok = np.array([_calls(r, t) == _calls(res, trace) for r, t in zip(rows, traces)])
        kept += int(ok.sum())
        for h, k in zip(dealt[keep][ok], kitties[keep][ok]):
            eff16 = int(_eff(int(h[declarer]) | int(k), denom))
            ref_decl.append(_trumps(eff16, denom))
            ref_part.append(_trumps(_eff(int(h[partner]), denom), denom))
    ref_decl, ref_part = np.array(ref_decl[:n]), np.array(ref_part[:n])
    for got, ref in ((got_decl, ref_decl), (got_part, ref_part)):
        se = np.sqrt(got.var() / n + ref.var() / n)
        assert abs(got.mean() - ref.mean()) < 4 * se
        values = sorted(set(got) | set(ref))
        table = np.array([[np.sum(x == v) for v in values] for x in (got, ref)])
        table = table[:, table.sum(axis=0) >= 5]
        assert table.shape[1] < 2 or stats.chi2_contingency(table)[1] > 0.001
    # the acceptance is the calls' probability given the play, the same both ways (4.5 standard errors)
    p = kept / drawn
    assert abs(accepted / tried - p) < 4.5 * np.sqrt(p * (1 - p) / drawn + p * (1 - p) / tried)
    # and far from the play-only worlds: the bid says the declarer has trumps
    plain, _ = G.sample_worlds(U64(99), U64(pos.unseen), pos.counts, pos.allowed, np.int64(n))
    plain_decl = np.array([_trumps(int(w[d]) | int(w[3]) | 1 << lead, denom) for w in plain])
    assert got_decl.mean() - plain_decl.mean() > 0.5


def _eff(phys, denom) -> int:
    out = 0
    for c in range(64):
        if phys >> c & 1:
            out |= 1 << int(REMAP[denom, c])
    return out


# ------------------------------------------------------------------ the fallback
def test_calls_no_world_can_make_fall_back_to_the_play_only_worlds():
    # The seat's own call made a bid its strategy would not make with its own (known) hand: no
    # world passes, and the decision's worlds are the play-only worlds, counted as a fallback.
    ids, params = _setup("heuristic")
    hands, kitty, dealer, res, trace = _short_deal(ids, params, 11)
    calls = _calls(res, trace)
    declarer = int(res[E.R_DECLARER])
    seat = (declarer + 1) % 4
    mine = (seat - dealer - 1) % 4  # the seat's first call: it passed (only the declarer bid)
    assert calls[mine] == -1
    bad = list(calls)
    bad[mine] = 24  # 10 no-trump: its hand and the calls before it make it pass in every world
    view, seat = _second_hand(hands, dealer, ids, params, res, trace, calls=bad)
    pos = P.position(view)
    cands, _ = G.sample_worlds(U64(5), U64(pos.unseen), pos.counts, pos.allowed, np.int64(64))
    assert not A.auction_made(pos, cands, G.world_keys(U64(5), np.int64(64))).any()
    worlds, tried, accepted, fell_back = G.sample_auction_worlds(5, pos, 4, A.auction_made, budget=16)
    plain, _ = G.sample_worlds(U64(5), U64(pos.unseen), pos.counts, pos.allowed, np.int64(4))
    assert fell_back and accepted == 0 and tried == 64 and (worlds == plain).all()
    # the decision's worlds (cardsim.strategies.pimc.decision_worlds, what decide uses) and the counters
    row = G500.table.registry.resolve("pimc:worlds=4,auction=1")[1]
    before = dataclasses.replace(G.COUNTERS)
    got = G.decision_worlds(P.HOOKS, pos, row, 5, pos.counts, 4)
    assert (got == plain).all()
    assert G.COUNTERS.read - before.read == 1 and G.COUNTERS.fell_back - before.fell_back == 1
    assert G.COUNTERS.tried - before.tried == 256 * 4 and G.COUNTERS.accepted == before.accepted
    # the true calls are read: no fallback, other worlds
    good = P.position(_second_hand(hands, dealer, ids, params, res, trace)[0])
    before = dataclasses.replace(G.COUNTERS)
    got = G.decision_worlds(P.HOOKS, good, row, 5, good.counts, 4)
    assert G.COUNTERS.read - before.read == 1 and G.COUNTERS.fell_back == before.fell_back
    assert (got != plain).any()


# ------------------------------------------------------------------ the seat's view only
def _first_search(monkeypatch, hands, kitty, dealer, spec):
    """(seat, worlds) of the first searched decision of the deal, every seat ``spec``."""
    ids, params = _setup(spec)
    seen = []

    def solve(position, worlds, *rest, **options):
        seen.append((position.context[1], worlds.copy()))
        return P.solve(position, worlds, *rest, **options)

    def common(position, worlds, *rest, **options):  # the first look: a decision it settles is never solved
        seen.append((position.context[1], worlds.copy()))
        return P.common(position, worlds, *rest, **options)

    monkeypatch.setattr(P, "HOOKS", dataclasses.replace(P.HOOKS, solve=solve, common=common))
    _play(hands[None], [kitty], [dealer], [3], ids, params)
    return seen[0]


def test_a_hidden_card_that_changes_nothing_public_does_not_change_the_worlds(monkeypatch):
    spec = "pimc:worlds=8,auction=1,search=2,side=2,early=0"  # the defence's follows: the second hand first
    ids, params = _setup("heuristic")
    for seed in range(11, 40):
        hands, kitty, dealer, res, trace = _short_deal(ids, params, seed)
        declarer = int(res[E.R_DECLARER])
        seat, worlds = _first_search(monkeypatch, hands, kitty, dealer, spec)
        if seat == (declarer + 1) % 4:
            break
    else:
        pytest.fail("no deal whose second hand searches first")
    # Exchange one card between the declarer's partner and the other defender where the calls stay
    # the same (the declarer's discard and lead do not change: his cards do not): the second
    # hand's worlds must not change.
    a, b = (declarer + 2) % 4, (declarer + 3) % 4
    calls = _calls(res, trace)
    swapped = None
    for x in range(64):
        for y in range(64):
            if int(hands[a]) >> x & 1 and int(hands[b]) >> y & 1:
                other = hands.copy()
                other[a] ^= U64((1 << x) | (1 << y))
                other[b] ^= U64((1 << x) | (1 << y))
                r2, t2 = _play(other[None], [kitty], [dealer], [1], ids, params)
                if _calls(r2[0], t2[0]) == calls:
                    swapped = other
                    break
        if swapped is not None:
            break
    assert swapped is not None
    seat2, worlds2 = _first_search(monkeypatch, swapped, kitty, dealer, spec)
    assert seat2 == seat and (worlds2 == worlds).all()
    # the worlds do read the auction: not those of auction=0
    _, plain = _first_search(monkeypatch, hands, kitty, dealer, spec.replace("auction=1", "auction=0"))
    assert (plain != worlds).any()


# ------------------------------------------------------------------ in play, and the default
def test_auction_reading_plays_legal_reproducible_deals_and_counts():
    spec = "pimc:worlds=2,auction=1,side=2"
    before = dataclasses.replace(G.COUNTERS)
    a = cardsim.simulate("500", 6, seed=5, strategies=spec, n_jobs=1)
    read = G.COUNTERS.read - before.read
    fell = G.COUNTERS.fell_back - before.fell_back
    assert read > 0 and G.COUNTERS.accepted - before.accepted >= 2 * (read - fell)
    b = cardsim.simulate("500", 6, seed=5, strategies=spec, chunk_size=3, n_jobs=2)
    assert a.equals(b)
    for record in cardsim.records("500", range(6), seed=5, strategies=spec):
        assert cardsim.replay(record) == record["result"]  # the slow twin re-checks every card


def test_auction_off_is_the_default_and_plays_as_before():
    assert G500.table.registry["pimc"].params["auction"] == 0
    before = G.COUNTERS.read
    spec = "pimc:worlds=2,side=2"
    a = cardsim.simulate("500", 4, seed=8, strategies=spec, n_jobs=1)
    b = cardsim.simulate("500", 4, seed=8, strategies=spec + ",auction=0", n_jobs=1)
    assert a.equals(b) and G.COUNTERS.read == before


def test_a_forced_contract_is_not_read():
    # =8H skips the auction: the calls are not the strategies', the worlds match the play only
    before_read, before_searched = G.COUNTERS.read, G.COUNTERS.searched
    cardsim.evaluate("500", seat=0, options=["=8H"], n=2, seed=2, n_jobs=1,
                     strategies=["pimc:worlds=2,auction=1,side=2"] * 4)
    assert G.COUNTERS.read == before_read and G.COUNTERS.searched > before_searched
