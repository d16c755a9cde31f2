"""Whole batches of games in one compiled call: numpy's seeding and draws replayed in numba.

A game of :func:`analyzer.simulate` draws its layout from one generator and its
tie-breaks (``pseq``) from another, each ``numpy.random.default_rng`` of a
:class:`numpy.random.SeedSequence` with spawn key ``(index, 0)`` or ``(index,
1)`` (:func:`analyzer.play.simulation.game_streams`). Building them in Python
costs more than a beginner game's whole play, so :func:`play_batch` builds
them here: the seed sequence's hash, PCG64's seeding and 128-bit steps, its
32-bit words and numpy's bounded draws (Lemire's method), the same
arithmetic on the same words. The games are therefore the same games, drawn
the same way; :func:`streams_match` checks the words and a layout against
numpy itself before a process plays a batch so (a numpy that drew otherwise
would make the caller play game by game, as before).
"""

from __future__ import annotations

import functools

import numpy as np

from analyzer.jit import njit
from analyzer.play.fast.layout import positions_to_mask, select_block
from analyzer.play.fast.loop import PSEQ, play_policy
from analyzer.play.fast.probabilities import HIDDEN

__all__ = ["play_batch", "seed_words", "stream_words", "batch_layout", "streams_match"]

_M32 = np.uint64(0xFFFFFFFF)
_S16 = np.uint64(16)
_S32 = np.uint64(32)
_S58 = np.uint64(58)
_S63 = np.uint64(63)
_S64 = np.uint64(64)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
# numpy.random.SeedSequence's hash constants
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_L = np.uint64(0xCA01F9DD)
_MIX_R = np.uint64(0x4973F715)
# PCG64's 128-bit multiplier, high and low words
_PCG_HI = np.uint64(2549297995355413924)
_PCG_LO = np.uint64(4865540595714422341)
_POOL = 4
_BLOCK = 1 << 14  # as analyzer.play.placement draws them


def seed_words(seed: int) -> np.ndarray:
    """The root ``seed`` as numpy's seed sequence reads it: 32-bit words, least significant first.

    >>> seed_words(0).tolist(), seed_words(2**32 + 5).tolist()
    ([0], [5, 1])
    """
    if seed < 0:
        raise ValueError(f"seed must be at least 0, not {seed}")
    words = []
    while True:
        words.append(seed & 0xFFFFFFFF)
        seed >>= 32
        if not seed:
            break
    return np.array(words, dtype=np.uint64)


@njit(cache=True)
def _hashmix(value: np.uint64, const: np.ndarray) -> np.uint64:  # pragma: no cover - compiled
    value = value ^ const[0]
    const[0] = (const[0] * _MULT_A) & _M32
    value = (value * const[0]) & _M32
    return value ^ (value >> _S16)


@njit(cache=True)
def _mix(x: np.uint64, y: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    result = (_MIX_L * x - _MIX_R * y) & _M32
    return result ^ (result >> _S16)


@njit(cache=True)
def _mulhi(a: np.uint64, b: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """The high 64 bits of the 128-bit product ``a * b``."""
    a0 = a & _M32
    a1 = a >> _S32
    b0 = b & _M32
    b1 = b >> _S32
    p00 = a0 * b0
    p01 = a0 * b1
    p10 = a1 * b0
    mid = (p00 >> _S32) + (p01 & _M32) + (p10 & _M32)
    return a1 * b1 + (p01 >> _S32) + (p10 >> _S32) + (mid >> _S32)


@njit(cache=True)
def _step(pcg: np.ndarray) -> None:  # pragma: no cover - compiled
    """One step of PCG64's 128-bit LCG: ``pcg`` = (state high, state low, increment high, low, ...)."""
    hi = pcg[0]
    lo = pcg[1]
    new_hi = _mulhi(lo, _PCG_LO) + lo * _PCG_HI + hi * _PCG_LO
    new_lo = lo * _PCG_LO
    sum_lo = new_lo + pcg[3]
    carry = _ONE if sum_lo < new_lo else _ZERO
    pcg[0] = new_hi + pcg[2] + carry
    pcg[1] = sum_lo


@njit(cache=True)
def _add(pcg: np.ndarray, hi: np.uint64, lo: np.uint64) -> None:  # pragma: no cover - compiled
    sum_lo = pcg[1] + lo
    carry = _ONE if sum_lo < lo else _ZERO
    pcg[0] = pcg[0] + hi + carry
    pcg[1] = sum_lo


@njit(cache=True)
def _seed_stream(root: np.ndarray, index: int, which: int, pcg: np.ndarray) -> None:  # pragma: no cover
    """PCG64 of ``SeedSequence(root, spawn_key=(index, which))``, as numpy seeds it, into ``pcg``.

    ``pcg`` holds (state high, state low, increment high, increment low, has a
    buffered 32-bit word, the word); ``index`` and ``which`` are below 2**32.
    """
    entropy = np.zeros(max(root.shape[0], _POOL) + 2, np.uint64)
    for t in range(root.shape[0]):
        entropy[t] = root[t]
    size = max(root.shape[0], _POOL)  # a spawn key pads the run entropy to the pool size
    entropy[size] = np.uint64(index)
    entropy[size + 1] = np.uint64(which)
    const = np.empty(1, np.uint64)
    const[0] = _INIT_A
    pool = np.empty(_POOL, np.uint64)
    for i in range(_POOL):
        pool[i] = _hashmix(entropy[i], const)
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = _mix(pool[dst], _hashmix(pool[src], const))
    for src in range(_POOL, entropy.shape[0]):
        for dst in range(_POOL):
            pool[dst] = _mix(pool[dst], _hashmix(entropy[src], const))
    # generate_state(4, uint64): eight 32-bit words, paired little-endian
    words = np.empty(8, np.uint64)
    hash_const = _INIT_B
    for i in range(8):
        value = pool[i % _POOL] ^ hash_const
        hash_const = (hash_const * _MULT_B) & _M32
        value = (value * hash_const) & _M32
        words[i] = value ^ (value >> _S16)
    state_hi = words[0] | (words[1] << _S32)
    state_lo = words[2] | (words[3] << _S32)
    seq_hi = words[4] | (words[5] << _S32)
    seq_lo = words[6] | (words[7] << _S32)
    # pcg64_set_seed: state 0, increment (seq << 1) | 1, a step, add the state, a step
    pcg[0] = _ZERO
    pcg[1] = _ZERO
    pcg[2] = (seq_hi << _ONE) | (seq_lo >> _S63)
    pcg[3] = (seq_lo << _ONE) | _ONE
    _step(pcg)
    _add(pcg, state_hi, state_lo)
    _step(pcg)
    pcg[4] = _ZERO
    pcg[5] = _ZERO


@njit(cache=True)
def _next64(pcg: np.ndarray) -> np.uint64:  # pragma: no cover - compiled
    _step(pcg)
    x = pcg[0] ^ pcg[1]
    rot = pcg[0] >> _S58
    return (x >> rot) | (x << ((_S64 - rot) & _S63))


@njit(cache=True)
def _next32(pcg: np.ndarray) -> np.uint64:  # pragma: no cover - compiled
    """The generator's next 32-bit word: the low half of a 64-bit output, then its high half."""
    if pcg[4] != _ZERO:
        pcg[4] = _ZERO
        return pcg[5]
    value = _next64(pcg)
    pcg[4] = _ONE
    pcg[5] = value >> _S32
    return value & _M32


@njit(cache=True)
def _bounded(pcg: np.ndarray, high: int) -> int:  # pragma: no cover - compiled
    """``Generator.integers(high)`` element by element (0 < high <= 2**32): Lemire's method."""
    if high == 1:
        return 0
    product = np.int64(_next32(pcg)) * high
    low = product & 0xFFFFFFFF
    if low < high:
        threshold = (4294967296 - high) % high
        while low < threshold:
            product = np.int64(_next32(pcg)) * high
            low = product & 0xFFFFFFFF
    return int(product >> 32)


@njit(cache=True)
def stream_words(root: np.ndarray, index: int, which: int, out: np.ndarray) -> None:
    """``out`` receives the first 32-bit words of game ``index``'s stream ``which`` (0 board, 1 player).

    The words ``default_rng(SeedSequence(seed, spawn_key=(index, which))).integers(2**32,
    dtype=np.uint32, size=...)`` draws, ``root`` being :func:`seed_words` of ``seed``.
    """  # pragma: no cover - compiled
    pcg = np.empty(6, np.uint64)
    _seed_stream(root, index, which, pcg)
    for t in range(out.shape[0]):
        out[t] = np.int64(_next32(pcg))


@njit(cache=True)
def batch_layout(
    pcg: np.ndarray, cells: int, mines: int, excluded: np.ndarray, chosen: np.ndarray, mask: np.ndarray
) -> None:  # pragma: no cover - compiled
    """:func:`analyzer.play.fast.layout_mask` on the generator ``pcg``: the same draws, the same layout.

    Selection sampling over the allowed cells, a block of positions at a time as
    :func:`~analyzer.play.fast.layout_mask` draws them: position ``t``'s draw is
    ``integers(p - t)``, and :func:`~analyzer.play.fast.layout.select_block` gives
    it a mine when the draw is below the mines left. As numpy does, a block's draws are
    all drawn, those after its last mine too (nothing reads them).
    """
    p = cells - excluded.shape[0]
    draws = np.empty(min(p, _BLOCK), np.int64)
    position = np.int64(0)
    left = mines
    count = np.int64(0)
    while left:
        size = min(p - position, _BLOCK)
        for t in range(size):
            draws[t] = _bounded(pcg, p - position - t)
        position, left, count = select_block(draws[:size], position, left, chosen, count)
    positions_to_mask(chosen, count, excluded, mask)


@njit(cache=True)
def play_batch(
    policy: int,
    nbr: np.ndarray,
    mines: int,
    first: int,
    excluded: np.ndarray,
    first_is_guess: bool,
    root: np.ndarray,
    start: int,
    max_nodes: int,
    params: np.ndarray,
    patterns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    out: np.ndarray,
) -> None:
    """Games ``start`` to ``start + len(out) - 1`` of a setup, each as the game loop plays it.

    The game loop is :func:`~analyzer.play.fast.loop.play_policy`.

    Game ``index`` draws its layout from the stream ``(index, 0)`` of the root
    seed ``root`` (:func:`seed_words`) with cell ``first`` and the sorted
    cells ``excluded`` kept free, and, for ``PSEQ``, its tie-breaks from the
    stream ``(index, 1)``, as :func:`analyzer.play.simulation.play_indexed_fast`
    draws them. Row ``t`` of ``out`` receives ``(won, guesses, reveals)`` of
    game ``start + t``; ``won`` is -1 for a game too hard to enumerate within
    ``max_nodes`` (the caller plays it otherwise).
    """  # pragma: no cover - compiled
    n = nbr.shape[0]
    pcg = np.empty(6, np.uint64)
    chosen = np.empty(max(mines, 1), np.int64)
    mask = np.empty(n, np.bool_)
    trace = np.empty(n + 1, np.int64)
    begin = np.full(n, HIDDEN, np.int8)
    record = np.empty((0, n), np.int8)
    # play_game draws 2 n + 64 words for PSEQ's ties (none for the others)
    rands = np.zeros(2 * n + 64 if policy == PSEQ else 1, np.int64)
    board_stream = np.int64(0)  # typed int64, not as literals (one signature of _seed_stream)
    player_stream = np.int64(1)
    for t in range(out.shape[0]):
        index = start + t
        _seed_stream(root, index, board_stream, pcg)
        batch_layout(pcg, n, mines, excluded, chosen, mask)
        if policy == PSEQ:
            _seed_stream(root, index, player_stream, pcg)
            for w in range(rands.shape[0]):
                rands[w] = np.int64(_next32(pcg))
        won, guesses, reveals, _traced = play_policy(
            policy,
            mask,
            nbr,
            mines,
            first,
            first_is_guess,
            trace,
            max_nodes,
            rands,
            params,
            patterns,
            begin,
            record,
        )
        out[t, 0] = -1 if won < 0 else won
        out[t, 1] = guesses
        out[t, 2] = reveals


@functools.lru_cache(maxsize=1)
def streams_match() -> bool:
    """Whether this numpy draws the words and layouts :func:`play_batch` replays (checked once a process).

    >>> streams_match()
    True
    """
    from analyzer.play.fast import layout_mask

    for seed in (0, 7, 2**40 + 3):
        root = seed_words(seed)
        for index in (0, 5, 70_000):
            for which in (0, 1):
                rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index, which)))
                expected = rng.integers(2**32, dtype=np.uint32, size=9).astype(np.int64)
                words = np.empty(9, np.int64)
                stream_words(root, np.int64(index), np.int64(which), words)
                if not np.array_equal(words, expected):
                    return False
            excluded = np.array([0, 1, 9, 10], dtype=np.int64)
            board = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index, 0)))
            expected_mask = layout_mask(9, 9, 10, excluded, board)
            pcg = np.empty(6, np.uint64)
            _seed_stream(root, np.int64(index), np.int64(0), pcg)
            mask = np.empty(81, np.bool_)
            batch_layout(pcg, np.int64(81), np.int64(10), excluded, np.empty(10, np.int64), mask)
            if not np.array_equal(mask, expected_mask):
                return False
    return True
