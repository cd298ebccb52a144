"""The forced vector: what a question (``cardsim evaluate``) forces on a deal, the same layout
in every game.

An int64 vector of length ``F_PREFIX + max prefix`` (each engine sets its ``F_LEN``):
``forced[F_KIND]`` is ``FORCE_NONE`` (all zeros: nothing forced), ``FORCE_FIRST_CALL`` (seat
``forced[F_SEAT]``'s first call after the given calls is ``forced[F_CALL]``) or
``FORCE_CONTRACT`` (the auction is skipped: that seat declares ``forced[F_CALL]``); the first
``forced[F_NPREFIX]`` calls of the auction are ``forced[F_PREFIX:]``.  Games with more to force
(501's blind bids, trump and target) add entries after their prefix.  Calls are in each game's
own call numbering.  (Plain constants: the engines import them; :mod:`cardsim.games.options`
builds the vectors from option text.)
"""
from __future__ import annotations

F_KIND, F_SEAT, F_CALL, F_NPREFIX, F_PREFIX = 0, 1, 2, 3, 4
FORCE_NONE, FORCE_FIRST_CALL, FORCE_CONTRACT = 0, 1, 2
