"""Forced 50/50s: patterns, pseudo-50/50 cells, 50/50 influence (against brute force), the compiled scans."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations
from math import comb

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.board.topology import neighbour_table
from analyzer.play import fast
from analyzer.play.fast.probabilities import DEFAULT_MAX_NODES, _closure, probabilities
from analyzer.play.forced import (
    CHAIN_SIDE,
    LONGTERM_MISSING,
    Pattern,
    chain_patterns,
    fifty_fifty_patterns,
    fifty_influence,
    pseudo_fifty_fifties,
)
from analyzer.play.game import Game
from analyzer.play.players import make_player
from analyzer.solver.solve import solve
from tests.bruteforce import _checks, _mines_left, _satisfies, _unknown_cells
from tests.strategies import positions


def _layouts(board: Board) -> list[frozenset[int]]:
    """Every layout of ``board``'s unknown cells (flat indices of the mines), by brute force."""
    unknown = _unknown_cells(board, True)
    checks = _checks(board, unknown, True, None)
    w = board.width
    flat = [r * w + c for r, c in unknown]
    found = []
    for mined in combinations(range(len(unknown)), _mines_left(board, True)):
        if _satisfies(sum(1 << k for k in mined), checks):
            found.append(frozenset(flat[k] for k in mined))
    return found


def _brute_chains(board: Board, p) -> list[Pattern]:
    """The chain patterns by their definition (``p`` the brute-force probability of a set of mines):
    networkx's connected components and two-colouring of the links."""
    cells = board.cells
    table = board.neighbour_table
    links = nx.Graph()
    for y, shown in enumerate(cells):
        if shown < 0:
            continue
        doubt = [i for i in table[y] if cells[i] == HIDDEN and p({i}) not in (0, 1)]
        sure = sum(1 for i in table[y] if cells[i] == FLAG or (cells[i] == HIDDEN and p({i}) == 1))
        if len(doubt) == 2 and shown - sure == 1:
            links.add_edge(*doubt)
    found = []
    for part in nx.connected_components(links):
        chain = links.subgraph(part)
        if not nx.is_bipartite(chain):
            continue
        one, other = (tuple(sorted(side)) for side in nx.bipartite.sets(chain))
        if len(one) != len(other) or not 2 <= len(one) <= CHAIN_SIDE:
            continue
        first, second = sorted((one, other))
        around = {x for i in part for x in table[i]} - part
        ends = tuple(
            sorted(x for x in around if len(set(table[x]) & set(first)) != len(set(table[x]) & set(second)))
        )
        found.append((first, second, ends))
    return sorted(found)


def _brute_probability(board: Board):
    """``p(mines, safe)``: the share of ``board``'s layouts with ``mines`` mines and ``safe`` safe."""
    layouts = _layouts(board)
    flagged = {r * board.width + c for r, c in board.flagged_cells()}

    def p(cells_mine: set[int], cells_safe: set[int] = frozenset()) -> Fraction:  # type: ignore[assignment]
        hits = sum(1 for lay in layouts if cells_mine <= lay | flagged and not cells_safe & (lay | flagged))
        return Fraction(hits, len(layouts))

    return p


def _brute_pseudo(board: Board, *, chains: bool = False) -> list[int]:
    """The pseudo-50/50 cells by their definition, every probability counted over the layouts."""
    p = _brute_probability(board)
    found = set()
    patterns = fifty_fifty_patterns(board.neighbour_table)
    if chains:
        patterns += _brute_chains(board, p)
    for first, second, ends in patterns:
        inside = first + second
        if any(board.cells[i] != HIDDEN or p({i}) in (0, 1) for i in inside):
            continue
        if any(board.cells[j] >= 0 for j in ends):
            continue
        missing = [j for j in ends if board.cells[j] != FLAG and p({j}) != 1]
        if len(missing) > len(first):
            continue
        share = p(set(missing) | set(first), set(second))
        # the two sides swap: the 50/50 is as likely either way round
        assert share == p(set(missing) | set(second), set(first)), (board.to_text(), first, second)
        found.update(i for i in inside if p({i}) == share)
    return sorted(found)


def _compiled_position(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The compiled form of ``board``: its neighbour table, the position after the single-number
    rules, its probabilities and (in an array) the log of its layouts."""
    nbr = fast.neighbours_of(board.topology, board.width, board.height)
    known = np.array(board.cells, dtype=np.int8)
    prob = np.empty(len(known))
    info = np.zeros(1)
    assert probabilities(known, nbr, board.mines, prob, DEFAULT_MAX_NODES, info) == 1
    _closure(known, nbr)
    return nbr, known, prob, info


def _compiled_pseudo(board: Board, *, chains: bool = False) -> list[int]:
    nbr, known, prob, info = _compiled_position(board)
    out = np.empty(len(known), dtype=np.int64)
    patterns = fast.patterns.fifty_fifty_patterns(nbr)
    solved = (known, nbr, board.mines, prob, info[0], DEFAULT_MAX_NODES)
    count = fast.patterns.pseudo_fifty_fifties(solved, patterns, out)
    assert count >= 0
    if chains:
        more = np.empty(len(known), dtype=np.int64)
        extra = fast.patterns.pseudo_fifty_fifties(
            solved, fast.patterns.chain_patterns(known, nbr, prob), more
        )
        assert extra >= 0
        count = fast.patterns._union(out, count, more, extra)
    return out[:count].tolist()


def _compiled_chains(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    nbr, known, prob, _ = _compiled_position(board)
    return fast.patterns.chain_patterns(known, nbr, prob)


def _listed(patterns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]) -> list[Pattern]:
    """Compiled patterns as :func:`analyzer.play.forced.fifty_fifty_patterns` lists them."""
    sides, sizes, ends, counts = patterns
    return [
        (
            tuple(sides[q, : sizes[q]].tolist()),
            tuple(sides[q, sizes[q] : 2 * sizes[q]].tolist()),
            tuple(ends[q, : counts[q]].tolist()),
        )
        for q in range(len(sizes))
    ]


def _brute_influence(board: Board) -> dict[int, Fraction]:
    """The 50/50 influence of every cell in doubt by its definition, every share counted over the layouts."""
    layouts = _layouts(board)
    flagged = {r * board.width + c for r, c in board.flagged_cells()}

    def p(cells_mine: set[int], cells_safe: set[int] = frozenset()) -> Fraction:  # type: ignore[assignment]
        hits = sum(1 for lay in layouts if cells_mine <= lay | flagged and not cells_safe & (lay | flagged))
        return Fraction(hits, len(layouts))

    doubt = [i for i, v in enumerate(board.cells) if v == HIDDEN and p({i}) not in (0, 1)]
    influence = dict.fromkeys(doubt, Fraction(0))
    for first, second, ends in fifty_fifty_patterns(board.neighbour_table):
        if any(i not in influence for i in first + second):
            continue
        if any(board.cells[j] >= 0 or p({j}) == 0 for j in ends):
            continue
        missing = [j for j in ends if board.cells[j] != FLAG and p({j}) != 1]
        if len(missing) > LONGTERM_MISSING:
            continue
        share = p(set(missing) | set(first), set(second))
        for i in first + second:
            influence[i] += share
        if len(missing) == 1 and missing[0] in influence:
            influence[missing[0]] += share  # a guess at its one unknown end cell stops it forming
    return {i: min(value, p({i}), 1 - p({i})) for i, value in influence.items()}


def _compiled_influence(board: Board, cells: list[int]) -> dict[int, float]:
    nbr, known, prob, info = _compiled_position(board)
    out = np.full(len(known), -1.0)
    cands = np.array(cells, dtype=np.int64)
    patterns = fast.patterns.fifty_fifty_patterns(nbr)
    solved = (known, nbr, board.mines, prob, info[0], DEFAULT_MAX_NODES)
    status = fast.patterns.fifty_influence(solved, patterns, cands, len(cells), out)
    assert status == 1
    return {i: float(out[i]) for i in cells}


@pytest.mark.parametrize(
    ("topology", "width", "height"),
    [("square", 5, 4), ("square", 1, 5), ("square", 2, 2), ("square", 30, 16), ("torus", 4, 4)],
)
def test_compiled_patterns_are_the_listed_ones(topology: str, width: int, height: int) -> None:
    python = fifty_fifty_patterns(neighbour_table(topology, width, height))
    assert _listed(fast.patterns.fifty_fifty_patterns(fast.neighbours_of(topology, width, height))) == python


def test_square_patterns_are_pairs_and_blocks() -> None:
    # On the square grid: each cell's pairs with its right, lower-left, lower and lower-right
    # neighbours, and each 2x2 block split three ways; an across pair has the six end cells beside it.
    width, height = 5, 4
    patterns = fifty_fifty_patterns(neighbour_table("square", width, height))
    pairs = [p for p in patterns if len(p[0]) == 1]
    blocks = [p for p in patterns if len(p[0]) == 2]
    assert len(pairs) == (width - 1) * height + width * (height - 1) + 2 * (width - 1) * (height - 1)
    assert len(blocks) == 3 * (width - 1) * (height - 1)
    across = {(p[0], p[1]): p[2] for p in pairs}
    assert across[((6,), (7,))] == (0, 3, 5, 8, 10, 13)  # (1, 1)-(1, 2): columns 0 and 3 of rows 0-2
    diagonal = {(p[0], p[1]): p[2] for p in blocks}
    assert diagonal[((6, 12), (7, 11))] == (0, 3, 15, 18)  # the 2x2 block at (1, 1): its corners' corners


@settings(max_examples=examples(120), deadline=None)
@given(positions(max_side=5, flags=True))
def test_pseudo_fifty_fifties_are_what_their_definition_says(position) -> None:
    board = position.board
    analysis = solve(board)
    expected = _brute_pseudo(board)
    assert pseudo_fifty_fifties(board, analysis) == expected
    assert _compiled_pseudo(board) == expected


def _wall_chain(rng: random.Random, pairs: int, offset: int, more: int, height: int) -> Board:
    """A board with ``pairs`` pairs along its top wall from column ``offset``, a revealed cell
    between each two (one colour of the chain mines), its end cells mines (flagged or not), ``more``
    columns after it, more mines and hidden cells below; now and then a cell under the chain is
    left hidden, which breaks its links."""
    width = offset + 3 * pairs + more
    size = width * height
    layout: set[int] = set()
    hidden: set[int] = set()
    colour = rng.randrange(2)
    for j in range(3 * pairs - 1):
        if j % 3 < 2:
            hidden.add(offset + j)
            if j % 3 == colour:
                layout.add(offset + j)
    for column in (offset - 1, offset + 3 * pairs - 1):
        if 0 <= column < width:
            layout.update(r * width + column for r in range(2))
    if rng.random() < 0.3:
        hidden.add(width + rng.randrange(width))
    for i in range(2 * width, size):
        if rng.random() < 0.15:
            layout.add(i)
        elif rng.random() < 0.1:
            hidden.add(i)
    flagged = {i for i in layout - hidden if rng.random() < 0.6}
    table = neighbour_table("square", width, height)
    shown = [
        "F" if i in flagged else "H" if i in layout | hidden else str(len(layout.intersection(table[i])))
        for i in range(size)
    ]
    rows = ("".join(shown[r * width : (r + 1) * width]) for r in range(height))
    return Board.from_text(f"{width}x{height}x{len(layout)}\n" + "\n".join(rows) + "\n")


BRUTE_FORCE_LAYOUTS = 200_000
"""The most layouts a wall-chain board may ask the brute force of this module to try (C(unknown,
mines left)): a wide board with many hidden cells below its chain could ask for millions."""


def _brute_forceable(board: Board) -> bool:
    return comb(len(board.hidden_cells()), _mines_left(board, True)) <= BRUTE_FORCE_LAYOUTS


_WALL_CHAINS = st.builds(
    _wall_chain,
    st.randoms(use_true_random=False),
    st.integers(1, 4),
    st.integers(0, 1),
    st.integers(0, 2),
    st.integers(2, 5),
).filter(_brute_forceable)
_BOARDS = st.one_of(positions(max_side=6, flags=True).map(lambda position: position.board), _WALL_CHAINS)


@settings(max_examples=examples(150), deadline=None)
@given(_BOARDS)
def test_chain_patterns_are_what_their_definition_says(board: Board) -> None:
    expected = _brute_chains(board, _brute_probability(board))
    assert chain_patterns(board, solve(board)) == expected
    assert _listed(_compiled_chains(board)) == expected


def _check_pseudo_with_chains(board: Board) -> None:
    expected = _brute_pseudo(board, chains=True)
    assert pseudo_fifty_fifties(board, solve(board), chains=True) == expected
    assert _compiled_pseudo(board, chains=True) == expected


# 60 boards by default (150 took 5 s of CPU with the kernels cached); 300 with -m slow. The fixed boards of
# test_wall_chains_hold_chains_of_every_length and the chain tests below run by default too.
@settings(max_examples=examples(60), deadline=None)
@given(_BOARDS)
def test_pseudo_fifty_fifties_with_chains_are_what_their_definition_says(board: Board) -> None:
    _check_pseudo_with_chains(board)


@pytest.mark.slow
@settings(max_examples=examples(300), deadline=None)
@given(_BOARDS)
def test_pseudo_fifty_fifties_with_chains_are_what_their_definition_says_on_more_boards(board: Board) -> None:
    _check_pseudo_with_chains(board)


def test_wall_chains_hold_chains_of_every_length() -> None:
    # The boards above reach what they are for: chains of two to four cells a side, 50/50s that
    # no pair or block holds, and chains broken by a hidden cell (fixed seeds).
    lengths: set[int] = set()
    only_chains = broken = 0
    rng = random.Random(5)
    for pairs in (2, 3, 4):
        for trial in range(20):
            board = _wall_chain(rng, pairs, trial % 2, trial % 3, 2 + trial % 4)
            found = chain_patterns(board, solve(board))
            lengths.update(len(first) for first, _, _ in found)
            broken += not found
            only_chains += bool(set(_brute_pseudo(board, chains=True)) - set(_brute_pseudo(board)))
    assert lengths == {2, 3, 4}
    assert only_chains >= 20
    assert broken >= 5


CHAIN = "6x3x4\nHH1HHF\n11113F\n000011\n"
"""Two pairs along the top wall with a revealed 1 between them: (0, 0) or (0, 1), (0, 3) or (0, 4)."""


def test_a_chain_along_a_wall_is_a_fifty_fifty_no_pair_or_block_holds() -> None:
    board = Board.from_text(CHAIN)
    analysis = solve(board)
    assert chain_patterns(board, analysis) == [((0, 3), (1, 4), (5, 11))] == _listed(_compiled_chains(board))
    assert pseudo_fifty_fifties(board, analysis) == [] == _brute_pseudo(board) == _compiled_pseudo(board)
    assert (
        pseudo_fifty_fifties(board, analysis, chains=True)
        == [0, 1, 3, 4]
        == _brute_pseudo(board, chains=True)
        == _compiled_pseudo(board, chains=True)
    )
    # Swapping the two sides changes no number outside them: the two layouts show the same board.
    layouts = _layouts(board)
    assert sorted(layouts) == sorted([frozenset({0, 3}), frozenset({1, 4})])


def test_a_pseudo_fifty_fifty_in_a_corner() -> None:
    # (4, 4) and (4, 5), the corner pair, are each a mine with probability 1/4, and only where
    # (3, 4) and (3, 5) above them are mines too: then nothing can tell the two apart.
    board = Board.from_text("6x5x7\n1H11H1\n2H22H1\nH22H32\n12H3HH\n01HHHH\n")
    analysis = solve(board)
    assert (
        pseudo_fifty_fifties(board, analysis) == [28, 29] == _brute_pseudo(board) == _compiled_pseudo(board)
    )
    assert analysis.probability(4, 4) == analysis.probability(4, 5) == Fraction(1, 4)


def _game_positions(count: int, seed: int):
    """Positions of real expert games where a guess is needed."""
    rng = np.random.default_rng(seed)
    player = make_player("probabilistic")
    found = 0
    while found < count:
        game = Game.new(30, 16, 99, first_click="safe", rng=rng)
        while not game.is_finished and found < count:
            analysis = solve(game.board)
            if not analysis.safe:
                found += 1
                yield game.board, analysis
            action = player.choose(game.board, rng)
            game.reveal(action.row, action.col)


@pytest.mark.slow  # 60 expert positions; the compiled scan meets brute force on small boards by default
def test_compiled_scan_finds_the_exact_ones_in_real_games() -> None:
    with_pseudo = 0
    for board, analysis in _game_positions(60, seed=3):
        exact = pseudo_fifty_fifties(board, analysis)
        assert _compiled_pseudo(board) == exact, board.to_text()
        with_pseudo += bool(exact)
        for i in exact:
            assert analysis.cell_probabilities[i] not in (None, 0, 1)
    assert with_pseudo >= 3


@settings(max_examples=examples(120), deadline=None)
@given(positions(max_side=5, flags=True))
def test_fifty_influence_is_what_its_definition_says(position) -> None:
    board = position.board
    expected = _brute_influence(board)
    cells = sorted(expected)
    assert fifty_influence(board, solve(board), cells) == expected
    compiled = _compiled_influence(board, cells)
    assert all(abs(compiled[i] - float(expected[i])) <= 1e-9 * max(1.0, float(expected[i])) for i in cells)


def test_compiled_influence_looks_at_as_many_unknown_end_cells() -> None:
    assert fast.patterns._LONGTERM_MISSING == LONGTERM_MISSING


def test_compiled_chains_are_as_long() -> None:
    assert fast.patterns._CHAIN_SIDE == CHAIN_SIDE


def test_fifty_influence_weighs_corners_most_on_an_open_board() -> None:
    # Nothing revealed: a corner's pair and block need fewer mines around them than an edge's.
    board = Board.from_text("4x4x3\nHHHH\nHHHH\nHHHH\nHHHH\n")
    influence = fifty_influence(board, solve(board), list(range(16)))
    assert influence == _brute_influence(board)
    assert {influence[i] for i in (0, 3, 12, 15)} == {Fraction(3, 560)}
    assert {influence[i] for i in range(16) if i not in (0, 3, 12, 15)} == {Fraction(1, 280)}


@pytest.mark.slow  # 40 expert positions; test_fifty_influence_is_what_its_definition_says runs by default
def test_compiled_influence_is_the_exact_one_in_real_games() -> None:
    influenced = 0
    for board, analysis in _game_positions(40, seed=5):
        p = analysis.cell_probabilities
        cells = [i for i, v in enumerate(board.cells) if v == HIDDEN and p[i] not in (None, 0, 1)]
        exact = fifty_influence(board, analysis, cells)
        compiled = _compiled_influence(board, cells)
        for i in cells:
            assert abs(compiled[i] - float(exact[i])) <= 1e-9 * max(1e-12, float(exact[i])), (
                board.to_text(),
                i,
            )
        influenced += sum(1 for i in cells if exact[i] > 0)
    assert influenced >= 40


_CHAIN_GAMES = (  # positions of compiled expert games (seed 21, games 10, 55 and 78) where it matters
    "30x16x99\n"
    "00112H12H20011101111H101HH2HHH\n"
    "012H2124H3002H422H111102343H3H\n"
    "02H3101HH2114HHH21111112H2H3HH\n"
    "02H20012222H3H421001H22H222H21\n"
    "0112110002H43321000112H2101232\n"
    "0001H11112H3H2H1001122210123HH\n"
    "1101111H11121211012H2H1001HH54\n"
    "H21000112111110012H332111223HH\n"
    "3H1000112H11H2111H33H101H21222\n"
    "H431001H212222H223H3331112H100\n"
    "3HH31011101H1234H212HH11132311\n"
    "H5HH2111112322HH21013433H4H3H1\n"
    "H323H11H11H2H44310002HH3H4H311\n"
    "2201111111134HH200003H54354310\n"
    "H31001110112HHH323212HH2HHHH10\n"
    "HH1001H101H22322HHH112223HH310\n",
    "30x16x99\n"
    "02HHH11H4H20012HH12H201H2H12H2\n"
    "03H52112HH2002HHH23H32222112H2\n"
    "02H31001221002H32H22H2H2100222\n"
    "013H3211111012222222222H1001H1\n"
    "125HH2H11H211H11H11H1012210111\n"
    "1HHH421113H4322221112111H32111\n"
    "125H411235HHH22H10001H112HH11H\n"
    "124HH11HHHHH4H3220113220233122\n"
    "H2HH31124HH3323H211H2H213H201H\n"
    "1233200012212H43H111212H4H2011\n"
    "001H210111003HH211001122H22221\n"
    "0012H102H2002H3111112H11112HH1\n"
    "00022202H21121101H11H321002H42\n"
    "1112H201222H1000111112H10023HH\n"
    "1H13H3012H22210012210223111HHH\n"
    "1112H201H211H1001HH101H2H112HH\n",
    "30x16x99\n"
    "1H11H102H2001HHHHHHHHHHHHHHHHH\n"
    "22111102H2123HHHHHHHHHHHHHHHHH\n"
    "H1000112111HH22HHHHHHHHHHHHHHH\n"
    "221001H21112211HHHHHHHHHHHHHHH\n"
    "1H112323H421012HHHHHHHHHHHHHHH\n"
    "2222HH22HHH102HHHHHHHHHHHHHHHH\n"
    "HH1HHH42233212H4HHHHHHHHHHHHHH\n"
    "H3213HH1113H212H4HHHHHHHHHHHHH\n"
    "HH2224322H4H20113HHHHHHHHHHHHH\n"
    "H4H5H3H23H31100012HHHHHHHHHHHH\n"
    "HHHHH423H210000001HHHHHHHHHHHH\n"
    "HHHH43H21100000012HHHHHHHHHHHH\n"
    "HHHHHH32111000002HHHHHHHHHHHHH\n"
    "HHHHHHH22H2100003HHHHHHHHHHHHH\n"
    "HHHHHH5H22H111213HHHHHHHHHHHHH\n"
    "HHHHHHH211111H2H23HHHHHHHHHHHH\n",
)


def test_players_guess_the_pseudo_fifty_fifties_of_chains_first() -> None:
    # pseudo="chains" in real positions: the compiled guess is the exact player's, and differs from
    # pseudo="first": the least likely living pseudo-50/50 cell, one that only a chain holds.
    from analyzer.play.fast import expert_params
    from analyzer.play.players.endgame import reveal_outcomes

    options = {"score": "secondary", "dead": "wait", "endgame_layouts": 0}
    chains = make_player("expert", pseudo="chains", **options)
    first = make_player("expert", pseudo="first", **options)
    for text in _CHAIN_GAMES:
        board = Board.from_text(text)
        analysis = solve(board)
        guess = chains.best_guess(board, analysis)  # type: ignore[attr-defined]
        nbr = fast.neighbours_of(board.topology, board.width, board.height)
        state = np.array(board.cells, dtype=np.int8)
        assert fast.guess_in("expert", state, nbr, board.mines, params=expert_params(chains)) == guess
        assert guess != first.best_guess(board, analysis)  # type: ignore[attr-defined]
        p = analysis.cell_probabilities
        living = [
            i
            for i in pseudo_fifty_fifties(board, analysis, chains=True)
            if len(reveal_outcomes(board, analysis, *divmod(i, board.width))) > 1
        ]
        assert guess == min(living, key=lambda i: (p[i], i))
        assert guess not in pseudo_fifty_fifties(board, analysis)
