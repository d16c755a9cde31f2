"""``expert``: survival first, then the chance that a certainly safe cell follows; exact end game."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

import numpy as np

from analyzer.board.board import HIDDEN, Board, Cell
from analyzer.errors import PlayerError
from analyzer.play.forced import fifty_influence, pseudo_fifty_fifties
from analyzer.play.players.base import Action, Player, reveal_action
from analyzer.play.players.endgame import endgame_layouts, endgame_search, isolated_move, reveal_outcomes
from analyzer.play.players.probabilistic import certain_reveals, guess_order
from analyzer.solver.analysis import Analysis
from analyzer.solver.solve import solve

__all__ = ["ExpertPlayer", "GuessFigures", "ranked_guesses"]


SCORES = ("progress", "secondary", "tertiary", "blended", "living")
"""The ways :class:`ExpertPlayer` scores its candidates."""
DEAD = ("guess", "wait")
"""What :class:`ExpertPlayer` does with dead candidates (cells whose number is known already)."""
PSEUDO = ("ignore", "first", "chains")
"""What :class:`ExpertPlayer` does with pseudo-50/50 cells (mines only inside a forced 50/50)."""
ISOLATED = ("heuristic", "exact")
"""How :class:`ExpertPlayer` plays a closed-off part of the board whose mine count is fixed."""
ALIKE = ("all", "once")
"""How many of the far cells alike :class:`ExpertPlayer` takes among its candidates."""


@dataclass(eq=False, repr=False)
class ExpertPlayer(Player):
    """Safe cells first; guesses weigh survival and progress; the end game searched exactly.

    See :mod:`analyzer.play.players` for the heuristic.

    Parameters
    ----------
    margin : Fraction
        Candidates for a guess are cells whose mine probability is at most the
        lowest plus ``margin``.
    candidates : int
        At most this many candidates (in :func:`guess_order`) are scored.
    endgame_layouts : int
        Search the end game exactly when at most this many layouts remain
        (``0`` never).
    endgame_nodes : int
        Positions the end-game search may evaluate before falling back.
    score : str
        How candidates are scored: ``"progress"`` (the default), ``(1 - p) (1 +
        P(the number shown proves another cell safe | safe))``;
        ``"secondary"``, the secondary safety: the chance of surviving this
        guess and the next, ``(1 - p) E[1 if the number shown proves another
        cell safe, else the safety of the safest next guess | safe]``; or
        ``"tertiary"``, one click deeper: the chance of surviving this guess
        and the next two clicks, ``(1 - p) E[v | safe]`` where ``v`` is, when
        the number shown proves a cell safe, the outlook of the first such
        cell (1 if a safe cell follows it, else the safety of the safest cell
        after it), and else the best secondary safety among the next
        position's candidates (the candidates are taken by secondary safety,
        best first, while one can still beat the best found: the tertiary
        score is at most the secondary one); or ``"blended"``, David Hill's
        blended secondary safety: ``(1 - p) E[(4 s1 + s2) / 5 | safe]``, where
        ``s1`` and ``s2`` are the safeties of the safest and second-safest
        hidden cells after the number shown (a proved-safe cell's safety is 1;
        ``s2 = s1`` when one cell that can be safe is left, 1 when none is),
        so a number that proves two cells safe is worth more than one that
        proves one; or ``"living"``, secondary safety where a number counts as
        proving a cell safe only when some proved-safe cell has a neighbour
        still in doubt (revealing a cell whose neighbours are all settled
        shows nothing new), else the next guess is the safest cell in doubt
        (David Hill's solver counts only *living* safe cells so).
    dead : str
        ``"guess"`` (the default) scores every candidate; ``"wait"`` leaves
        out the *dead* ones, cells that could show one number only (revealing
        one tells nothing, so it can wait: nothing but the end game's mine
        count or a cell around it will change its odds), whenever a living
        candidate is left.
    pseudo : str
        ``"ignore"`` (the default) or ``"first"``: before scoring candidates,
        guess a living *pseudo-50/50* cell if there is one (a cell that is a
        mine only where it is in a forced 50/50: its risk has to be taken
        anyway; :mod:`analyzer.play.forced`), the least likely to be a mine,
        ties to the lowest index. ``"chains"``: the same, the 50/50s looked
        for among the position's chains of linked pairs too
        (:func:`analyzer.play.forced.chain_patterns`), as David Hill's solver
        looks for its extended pseudo-50/50s.
    isolated : str
        ``"heuristic"`` (the default) or ``"exact"``: before the pseudo-50/50s
        and the candidates, play a *closed-off part* of the board (cells that
        only numbers, certain mines and each other surround, sharing numbers)
        whose layouts all hold the same number of mines by the end game's
        search over its own layouts (at most ``endgame_layouts`` of them,
        ``endgame_nodes`` positions): such a part is a game of its own, so its
        best play is the same whatever is played elsewhere
        (:func:`~analyzer.play.players.endgame.isolated_move`).
    offedge : int
        ``0`` (the default): the candidates are the first ``candidates`` cells
        in :func:`guess_order` within the margin. Else they are the first
        ``candidates`` of those next to a revealed number and the first
        ``offedge`` of those next to none (cells off the front are equally
        likely), taken by how many of their neighbours are next to a revealed
        number, most first (what such a cell shows overlaps what is known;
        David Hill's solver takes the cells two steps straight out from a
        number), then fewest unrevealed neighbours, then row-major. In the
        guess order the front's cells come after every cell off it that is
        safer, however many, so without this a guess where the cells off the
        front are the safest weighs only corners and the first edge cells.
        Not with ``score="tertiary"``.
    progress : Fraction
        With a secondary score (``"secondary"``, ``"blended"`` or
        ``"living"``), add this many times ``P(safe and the number shown
        proves another cell safe)`` to it (``0``, the default: none). Secondary
        safety ties often (many cells leave the same next guess); this breaks
        the ties the way ``"progress"`` scoring ranks, and more.
    alike : str
        ``"all"`` (the default) or ``"once"``: far cells alike count once among
        the candidates. A cell is *far* when it and all its neighbours are
        unrevealed and next to no revealed number; far cells with as many
        neighbours are alike (revealing one shows the same numbers, with the
        same chances and the same consequences, as revealing another), so
        only the first in :func:`guess_order` is taken and the candidates go
        further down the order. Where the cells off the front are the safest
        (early in a game), the order takes every corner, then every edge
        cell, before the cells next to a number with more unrevealed
        neighbours, so without this the front is often not weighed at all.
        Not with ``offedge`` or ``score="tertiary"``.
    longterm : Fraction
        ``0`` (the default), or the weight of David Hill's *long-term safety*:
        each candidate's score is multiplied by ``1 + longterm I / (1 - p)``,
        where ``I`` is the chance that a 50/50 forms around it
        (:func:`~analyzer.play.forced.fifty_influence`): a risk that would
        have to be taken later anyway costs less when taken now, and a guess
        that stops a 50/50 forming saves it. Hill's solver weighs it ``9/10``.
        Not with ``score="tertiary"``.

    Examples
    --------
    >>> import numpy as np
    >>> board = Board.from_text("2x2x1\\nHH\\n11\\n")
    >>> ExpertPlayer().choose(board, np.random.default_rng(0))
    Action(kind='reveal', row=0, col=0, is_guess=True)
    """

    name: ClassVar[str] = "expert"
    margin: Fraction = Fraction(1, 50)
    candidates: int = 8
    endgame_layouts: int = 60
    endgame_nodes: int = 20_000
    score: str = "progress"
    dead: str = "guess"
    pseudo: str = "ignore"
    isolated: str = "heuristic"
    offedge: int = 0
    progress: Fraction = Fraction(0)
    alike: str = "all"
    longterm: Fraction = Fraction(0)
    _last_scores: dict[Cell, Fraction] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        margin = self.margin
        if isinstance(margin, bool) or not isinstance(margin, (int, Fraction)) or margin < 0:
            raise PlayerError(f"margin must be a Fraction >= 0, got {margin!r}")
        self.margin = Fraction(margin)
        progress = self.progress
        if isinstance(progress, bool) or not isinstance(progress, (int, Fraction)) or progress < 0:
            raise PlayerError(f"progress must be a Fraction >= 0, got {progress!r}")
        self.progress = Fraction(progress)
        longterm = self.longterm
        if isinstance(longterm, bool) or not isinstance(longterm, (int, Fraction)) or longterm < 0:
            raise PlayerError(f"longterm must be a Fraction >= 0, got {longterm!r}")
        self.longterm = Fraction(longterm)
        for option in ("candidates", "endgame_layouts", "endgame_nodes", "offedge"):
            value = getattr(self, option)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise PlayerError(f"{option} must be an integer >= 0, got {value!r}")
        if self.candidates < 1:
            raise PlayerError(f"candidates must be at least 1, got {self.candidates!r}")
        if self.score not in SCORES:
            raise PlayerError(f"score must be one of {', '.join(SCORES)}, got {self.score!r}")
        if self.dead not in DEAD:
            raise PlayerError(f"dead must be one of {', '.join(DEAD)}, got {self.dead!r}")
        if self.pseudo not in PSEUDO:
            raise PlayerError(f"pseudo must be one of {', '.join(PSEUDO)}, got {self.pseudo!r}")
        if self.isolated not in ISOLATED:
            raise PlayerError(f"isolated must be one of {', '.join(ISOLATED)}, got {self.isolated!r}")
        if self.alike not in ALIKE:
            raise PlayerError(f"alike must be one of {', '.join(ALIKE)}, got {self.alike!r}")
        if self.alike == "once" and (self.offedge or self.score == "tertiary"):
            # offedge takes its off-front cells its own way; the compiled third click takes every cell
            raise PlayerError("alike='once' does not apply with offedge or score='tertiary'")
        if self.longterm and self.score == "tertiary":
            # the compiled third click ranks its candidates by secondary safety alone
            raise PlayerError("longterm does not apply to score='tertiary'")
        if self.progress and self.score in ("progress", "tertiary"):
            raise PlayerError(f"progress weighs a secondary score, not score={self.score!r}")
        if self.offedge and self.score == "tertiary":
            # the compiled third click takes its candidates in the guess order
            raise PlayerError("offedge does not apply to score='tertiary'")

    def __repr__(self) -> str:
        # The default score is left out, so the setups (and results files) of before it stay the same.
        options = (
            f"margin={self.margin!r}, candidates={self.candidates!r}, "
            f"endgame_layouts={self.endgame_layouts!r}, endgame_nodes={self.endgame_nodes!r}"
        )
        if self.score != "progress":
            options += f", score={self.score!r}"
        if self.dead != "guess":
            options += f", dead={self.dead!r}"
        if self.pseudo != "ignore":
            options += f", pseudo={self.pseudo!r}"
        if self.isolated != "heuristic":
            options += f", isolated={self.isolated!r}"
        if self.offedge:
            options += f", offedge={self.offedge!r}"
        if self.progress:
            options += f", progress={self.progress!r}"
        if self.alike != "all":
            options += f", alike={self.alike!r}"
        if self.longterm:
            options += f", longterm={self.longterm!r}"
        return f"ExpertPlayer({options})"

    def _think(self, board: Board, rng: np.random.Generator) -> list[Action]:
        analysis = solve(board)
        certain = certain_reveals(board, analysis)
        if certain:
            return certain
        if analysis.total <= self.endgame_layouts:
            layouts = endgame_layouts(board, limit=self.endgame_layouts)
            if layouts is not None:
                found = endgame_search(board, layouts, max_nodes=self.endgame_nodes)
                if found is not None:
                    return [reveal_action(board, found[0], is_guess=True)]
        return [reveal_action(board, self.best_guess(board, analysis), is_guess=True)]

    def best_guess(self, board: Board, analysis: Analysis) -> int:
        """The heuristic's guess (flat index): the best-scored candidate within the margin.

        The scores are kept in ``last_scores`` (cell to score) for inspection.
        """
        probabilities = analysis.cell_probabilities
        if self.isolated == "exact" and self.endgame_layouts > 0:
            found = isolated_move(board, analysis, limit=self.endgame_layouts, max_nodes=self.endgame_nodes)
            if found is not None:
                self._last_scores = {}
                return found
        if self.pseudo != "ignore":
            living = [
                i
                for i in pseudo_fifty_fifties(board, analysis, chains=self.pseudo == "chains")
                if len(reveal_outcomes(board, analysis, *divmod(i, board.width))) > 1
            ]
            if living:
                self._last_scores = {}
                return min(living, key=lambda i: (probabilities[i], i))
        within = self._candidates(board, analysis)
        if len(within) == 1:
            self._last_scores = {}
            return within[0]
        w = board.width
        scores: dict[Cell, Fraction] = {}
        living = []
        for i in within:
            row, col = divmod(i, w)
            p = probabilities[i]
            assert p is not None
            progress = Fraction(0)
            secondary = Fraction(0)
            outcomes = reveal_outcomes(board, analysis, row, col)
            for outcome in outcomes.values():
                weight = Fraction(outcome.total, analysis.total)  # P(safe and shows this number)
                if outcome.safe:
                    progress += weight
                if self.score == "blended":
                    secondary += weight * _blended_next(outcome)
                elif self.score == "living":
                    secondary += weight * _living_next(outcome)
                elif outcome.safe:
                    secondary += weight
                else:
                    secondary += weight * _safest_next(outcome)
            scores[(row, col)] = (
                (1 - p) + progress if self.score == "progress" else secondary + self.progress * progress
            )
            if len(outcomes) > 1:
                living.append(i)
        if self.longterm:
            # a risk a 50/50 forming here would make us take later anyway counts as part safe
            for i, share in fifty_influence(board, analysis, within).items():
                p = probabilities[i]
                assert p is not None
                if share:  # never for a certain mine: its influence is at most its safety, 0
                    scores[divmod(i, w)] *= 1 + self.longterm * share / (1 - p)
        if self.dead == "wait" and living:
            within = living  # a dead cell's number is known already: it tells nothing, and can wait
        best, best_score = within[0], Fraction(-1)
        for i in within:
            if scores[divmod(i, w)] > best_score:
                best, best_score = i, scores[divmod(i, w)]
        if self.score == "tertiary":
            ranked = sorted(within, key=lambda i: -scores[divmod(i, w)])
            best, best_score = ranked[0], Fraction(-1)
            for i in ranked:
                if scores[divmod(i, w)] <= best_score:
                    break  # the tertiary score is at most the secondary one
                score = self._tertiary(board, analysis, i)
                scores[divmod(i, w)] = score
                if score > best_score:
                    best, best_score = i, score
        self._last_scores = scores
        return best

    def _tertiary(self, board: Board, analysis: Analysis, i: int) -> Fraction:
        """P(surviving the guess at ``i`` and the next two clicks): the tertiary score."""
        row, col = divmod(i, board.width)
        total = Fraction(0)
        for number, outcome in reveal_outcomes(board, analysis, row, col).items():
            weight = Fraction(outcome.total, analysis.total)
            if _safest_next(outcome) == 1 and not outcome.safe:
                total += weight  # only mines are left
                continue
            shown = board.replace({(row, col): number})
            nexts = self._candidates(shown, outcome)
            if outcome.safe:
                # a safe cell follows: it is clicked, then the safest cell after it
                total += weight * _secondary(shown, outcome, nexts[0])
                continue
            best = Fraction(0)
            for j in nexts:
                p = outcome.cell_probabilities[j]
                assert p is not None
                if 1 - p <= best:
                    break  # a cell's secondary safety is at most its safety
                best = max(best, _secondary(shown, outcome, j))
            total += weight * best
        return total

    def _candidates(self, board: Board, analysis: Analysis) -> list[int]:
        """The cells a guess considers: the first few in :func:`guess_order` within the margin.

        With ``offedge``, the first ``candidates`` of them next to a revealed
        number, then the first ``offedge`` of the others (all equally likely)
        by how many of their neighbours are next to a revealed number (most
        first), then fewest unrevealed neighbours, then row-major.
        """
        order = guess_order(board, analysis)
        probabilities = analysis.cell_probabilities
        lowest = probabilities[order[0]]
        assert lowest is not None
        limit = lowest + self.margin
        within = [i for i in order if (p := probabilities[i]) is not None and p <= limit]
        if self.alike == "once":
            sizes: set[int] = set()
            kept = []
            for i in within:
                size = _far_size(board, i)
                if size is None or size not in sizes:
                    kept.append(i)
                    if size is not None:
                        sizes.add(size)
            within = kept
        if not self.offedge:
            return within[: self.candidates]
        cells = board.cells
        table = board.neighbour_table
        edge = {j for i, v in enumerate(cells) if v >= 0 for j in table[i] if cells[j] == HIDDEN}
        off = sorted(
            (i for i in within if i not in edge),
            key=lambda i: (-sum(j in edge for j in table[i]), sum(cells[j] < 0 for j in table[i]), i),
        )
        return [i for i in within if i in edge][: self.candidates] + off[: self.offedge]

    @property
    def last_scores(self) -> dict[Cell, Fraction]:
        """The scores of the candidates of the last heuristic guess."""
        return dict(self._last_scores)


@dataclass(frozen=True)
class GuessFigures:
    """One candidate guess as :class:`ExpertPlayer` weighs it, with its figures exact.

    Attributes
    ----------
    cell : Cell
    safety : Fraction
        The chance the cell holds no mine, ``1 - p``.
    progress : Fraction
        The chance the cell is safe *and* the number it shows proves at least one
        other hidden cell safe (a certain next click): the sum, over the numbers
        it can show, of P(safe and shows that number) where the position after it
        has a certainly safe cell. At most ``safety``.
    secondary : Fraction
        The secondary safety: the chance of surviving this guess *and* the next
        click, when the next click is a certainly safe cell if the number shown
        proves one, else the safest guess then. At most ``safety``, at least
        ``progress``.
    score : Fraction
        The expert's default ranking score, ``safety + progress``.
    """

    cell: Cell
    safety: Fraction
    progress: Fraction
    secondary: Fraction
    score: Fraction


def ranked_guesses(
    board: Board, analysis: Analysis, *, player: ExpertPlayer | None = None
) -> list[GuessFigures]:
    """The candidates of :class:`ExpertPlayer`'s guess with their exact figures, best first.

    The candidates are the player's (``player``, by default ``ExpertPlayer()``:
    the first ``candidates`` cells of :func:`guess_order` whose mine probability is
    within ``margin`` of the lowest), ranked by its default score (safety plus
    progress; ties in the guess order), so the first is the cell the player's
    heuristic guesses (before its end-game search, which plays small end games
    exactly). Meant for a position that needs a guess: certainly safe cells are
    not looked for first.

    A 2 in the middle of a 3x3 board, two mines: a corner and an edge cell are
    as safe, but a corner shows a number that proves a cell safe more often.

    >>> from analyzer.solver.solve import solve
    >>> board = Board.from_text("3x3x2\\nHHH\\nH2H\\nHHH\\n")
    >>> guesses = ranked_guesses(board, solve(board))
    >>> [(g.cell, g.safety, g.progress, g.secondary) for g in guesses[:1]]
    [((0, 0), Fraction(3, 4), Fraction(11, 28), Fraction(19, 28))]
    >>> [(g.cell, g.safety, g.progress, g.secondary) for g in guesses[-1:]]
    [((2, 1), Fraction(3, 4), Fraction(9, 28), Fraction(9, 14))]
    """
    player = ExpertPlayer() if player is None else player
    probabilities = analysis.cell_probabilities
    w = board.width
    figures = []
    for i in player._candidates(board, analysis):
        row, col = divmod(i, w)
        p = probabilities[i]
        assert p is not None
        progress = secondary = Fraction(0)
        for outcome in reveal_outcomes(board, analysis, row, col).values():
            weight = Fraction(outcome.total, analysis.total)  # P(safe and shows this number)
            if outcome.safe:
                progress += weight
                secondary += weight
            else:
                secondary += weight * _safest_next(outcome)
        figures.append(GuessFigures((row, col), 1 - p, progress, secondary, (1 - p) + progress))
    figures.sort(key=lambda g: -g.score)  # stable: ties keep the guess order, as best_guess picks
    return figures


def _far_size(board: Board, i: int) -> int | None:
    """Cell ``i``'s number of neighbours if it is far (it and its neighbours unrevealed, next to no
    revealed cell), else ``None``."""
    cells = board.cells
    table = board.neighbour_table
    around = table[i]
    for j in (i, *around):
        if cells[j] != HIDDEN or any(cells[k] >= 0 for k in table[j]):
            return None
    return len(around)


def _secondary(board: Board, analysis: Analysis, i: int) -> Fraction:
    """The secondary safety of a guess at ``i``: P(it is safe, and so is the next guess)."""
    row, col = divmod(i, board.width)
    total = Fraction(0)
    for outcome in reveal_outcomes(board, analysis, row, col).values():
        weight = Fraction(outcome.total, analysis.total)
        total += weight if outcome.safe else weight * _safest_next(outcome)
    return total


def _blended_next(analysis: Analysis) -> Fraction:
    """``(4 s1 + s2) / 5``: the two highest safeties among the hidden cells that are not certain mines.

    A proved-safe cell's safety is 1; ``s2 = s1`` when one such cell is left; 1 when none is.
    """
    risks = sorted(p for p in analysis.cell_probabilities if p is not None and p < 1)
    if not risks:
        return Fraction(1)
    first = 1 - risks[0]
    second = 1 - risks[1] if len(risks) > 1 else first
    return (4 * first + second) / 5


def _safest_next(analysis: Analysis) -> Fraction:
    """The safety of the safest hidden cell that is not a certain mine (1 when only mines are left)."""
    lowest = min((p for p in analysis.cell_probabilities if p is not None and p < 1), default=None)
    return Fraction(1) if lowest is None else 1 - lowest


def _living_next(analysis: Analysis) -> Fraction:
    """1 when a proved-safe cell has a neighbour in doubt, else the safety of the safest cell in doubt.

    In doubt: probability strictly between 0 and 1 (1 when no cell is).
    """
    board = analysis.board
    p = analysis.cell_probabilities
    table = board.neighbour_table
    for j, q in enumerate(p):
        proved_safe = q == 0 and board.cells[j] == HIDDEN
        if proved_safe and any((r := p[m]) is not None and 0 < r < 1 for m in table[j]):
            return Fraction(1)
    lowest = min((q for q in p if q is not None and 0 < q < 1), default=None)
    return Fraction(1) if lowest is None else 1 - lowest
