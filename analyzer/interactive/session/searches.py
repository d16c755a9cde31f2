"""What a session computes from the position shown, each search within its budget.

The exact solve (within the session's ``time_limit``, then CP-SAT's certain cells), the best
move (scored so that a later action can stop it), the analyst's marks (dead cells, forced
50/50s), the exact chance to win with best play, the ranked candidate guesses, and auto-play.
Each is found once per version of the position (``Searches._search``) and spends at most
its budget (:class:`~analyzer.interactive.session.position.Budgets`). The searches themselves are
functions of a board and its analysis (:func:`find_marks`, :func:`dead_cells`, :func:`find_win`,
:func:`find_candidates`); the class holds what depends on the session (its mode, its game).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.errors import (
    AnalyzerError,
    BoardParseError,
    GameError,
    InconsistentBoardError,
    OptionError,
    SolverTimeoutError,
)
from analyzer.interactive.session.fields import message
from analyzer.interactive.session.position import Budgets, Position
from analyzer.limits import fraction_text, percent, plural
from analyzer.render import exact_or_rounded, percent_text

if TYPE_CHECKING:
    from analyzer.solver.analysis import Analysis
    from analyzer.solver.moves import Move

__all__ = ["find_marks", "dead_cells", "find_win", "find_candidates", "scored_move"]


class Searches(Position):
    """The position's analysis and the searches on it (see the module)."""

    # ------------------------------------------------------------ the exact solve
    def _refresh(self) -> None:
        """Solve the position shown, once per change."""
        if self._fresh:
            return
        from analyzer.solver.solve import solve

        self._fresh = True
        self._analysis = None
        self._certain = None
        self._error = None
        self._flag_text = ""
        if self.mode == "play" and self._game is not None and self._game.is_finished:
            return
        if self.mode == "replay" and self._step >= len(self._replay_boards):
            return
        try:
            board = self.board
        except BoardParseError as error:
            self._error = {"message": str(error), "clues": []}
            return
        trust = self._trusts_flags()
        try:
            self._analysis = solve(board, time_limit=self.time_limit, trust_flags=trust)
        except InconsistentBoardError as error:
            self._error = {"message": str(error), "clues": [list(c) for c in error.clues]}
        except SolverTimeoutError:
            self._fall_back(board)
        except AnalyzerError as error:
            self._error = {"message": message(error), "clues": []}
        if not trust and FLAG in board.cells:
            self._flag_text = self._wrong_flags(board)

    def _wrong_flags(self, board: Board) -> str:
        """The player's flags that are not certain mines, in one line (``""``: every flag is one)."""
        from analyzer.solver.solve import solve

        analysis = self._analysis
        named = self._budgets().flags_named  # how many of the doubtful flags are named
        flags = [divmod(i, board.width) for i, v in enumerate(board.cells) if v == FLAG]
        if analysis is None:
            return ""
        doubt = [(cell, analysis.probability(*cell)) for cell in flags]
        doubt = sorted(((cell, p) for cell, p in doubt if p != 1), key=lambda found: found[1] != 0)
        if not doubt:
            return ""
        more = f" and {len(doubt) - named} more" if len(doubt) > named else ""
        if len(flags) >= 2 and (len(doubt) >= 2 or doubt[0][1] == 0):
            # Each may be a mine and all of them not: the solve with the flags as mines says.
            try:
                solve(board, time_limit=self.time_limit, trust_flags=True)
            except InconsistentBoardError as error:
                which = ", ".join(repr(cell) for cell, _ in doubt[:named])
                return f"flags at {which}{more} cannot all be mines: {message(error)}"
            except AnalyzerError:
                pass  # past the time limit: each flag's probability is still worth saying

        def said(p: Fraction) -> str:
            return "0 (certainly safe)" if p == 0 else f"{exact_or_rounded(p)} ≈ {percent(p)}"

        if len(doubt) == 1:
            ((cell, p),) = doubt
            return f"flag at {cell!r} is not a certain mine: P = {said(p)}"
        listed = "; ".join(f"{cell!r}: P = {said(p)}" for cell, p in doubt[:named])
        return f"flags that are not certain mines: {listed}{more}"

    def _fall_back(self, board: Board) -> None:
        """Past the time limit: the certain cells by CP-SAT feasibility, without counting."""
        from analyzer.solver.certain import certain_cells

        limit = f"the exact count took longer than {self.time_limit:g} s"
        try:
            seconds = max(self.time_limit, self._budgets().certain_seconds)
            found = certain_cells(board, trust_flags=self._trusts_flags(), time_limit=seconds)
        except (SolverTimeoutError, AnalyzerError) as error:
            self._error = {
                "message": f"{limit}, and so did the certain cells ({message(error)})",
                "clues": [],
            }
            return
        self._certain = (frozenset(found.safe), frozenset(found.mines))
        self._error = {
            "message": f"{limit}: showing the certain cells (CP-SAT) without probabilities",
            "clues": [],
        }

    @property
    def analysis(self) -> Analysis | None:
        """The exact analysis of :attr:`board`; ``None`` when it has none (an error, a finished game)."""
        with self.lock:
            self._refresh()
            return self._analysis

    @property
    def error(self) -> dict[str, Any] | None:
        """Why there are no probabilities: ``{"message", "clues"}`` (the clues in conflict, if any)."""
        with self.lock:
            self._refresh()
            return self._error

    # ------------------------------------------------------------ the best move
    def best_move(self) -> Move | None:
        """The first of :meth:`Analysis.best_moves`, or ``None`` with no analysis or no move.

        Before the first click of a game whose rule keeps it safe, no cell is a risk:
        the move is a corner under ``safe`` (the fewest neighbours, so the likeliest
        0) and the middle under ``opening`` and wider zones (every cell opens), unscored.
        """
        with self.lock:
            self._refresh()
            if not self._best_scored:
                first = self._first_click()
                analysis = self._analysis
                self._best = first or (scored_move(analysis) if analysis is not None else None)
                self._best_scored = True
            return self._best

    def _first_click(self) -> Move | None:
        """The first move of a game whose first click is safe (a corner or the middle), else ``None``."""
        from analyzer.solver.moves import Move

        game = self._game
        if self.mode != "play" or game is None or game.revealed_count or game.first_click.radius is None:
            return None
        cell = (0, 0) if game.first_click.radius == 0 else (game.height // 2, game.width // 2)
        return Move(cell, Fraction(0), None, None)

    # ------------------------------------------------------------ the analyst's searches
    def _search(self, name: str, find: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """What the search ``name`` found on the position shown: ``find()``, called once per version."""
        with self.lock:
            self._refresh()
            found = self._found.get(name)
            if found is None:
                found = self._found[name] = find()
            return found

    def marks(self) -> dict[str, Any]:
        """Dead cells and forced 50/50s of the position shown, as flat indices.

        A *dead* cell is a hidden cell in doubt that can show one number only:
        revealing it tells nothing (JSMinesweeper's dead cells; the ``expert``
        player's ``dead="wait"``). The 50/50 cells are
        :func:`~analyzer.play.forced.pseudo_fifty_fifties` with chains: cells that
        are mines only where a forced 50/50 holds them, formed or still to form.
        Returns ``{"dead", "fifty", "text"}``; the dead cells are looked for for at
        most :data:`MARK_SECONDS`, the 50/50s on boards of at most :data:`MARK_CELLS`
        cells (``text`` says when either search stopped short).

        >>> from analyzer.interactive.session import Session
        >>> session = Session("2x3x1\\nHH\\n11\\n00\\n")
        >>> session.marks()["fifty"], session.marks()["dead"]
        ([0, 1], [0, 1])
        """
        return self._search("marks", lambda: find_marks(self._analysis, self._budgets()))

    def win_chance(self) -> dict[str, Any]:
        """The exact chance to win from the position shown with best play, when the end game is small.

        The end game's exact search (:func:`~analyzer.play.players.endgame.endgame_search`)
        over every remaining layout (equally likely), when at most :data:`WIN_LAYOUTS`
        remain and the search ends within :data:`WIN_NODES` positions; else ``p`` is
        ``None`` and ``text`` says why. The flags are taken as the analysis shown
        takes them: in play mode not as facts unless ``trust_flags``; in edit
        mode as facts. ``cell`` is the first move of best play; ``line`` the winning
        line (:func:`~analyzer.play.players.endgame.endgame_line`, :data:`WIN_DEPTH`
        moves deep: ``{"cell", "p", "replies": [{"shown": [[r, c, n], ...], "chance",
        "line"}]}``, chances as exact text, ``p`` the chance to win from there) and
        ``line_text`` the same as indented text; ``None`` and ``""`` when one layout is left.

        >>> from analyzer.interactive.session import Session
        >>> Session("3x1x1\\nHHH\\n").win_chance()["p"]
        '2/3'
        """
        return self._search("win", self._find_win)

    def _find_win(self) -> dict[str, Any]:
        """:func:`find_win` on the board the analysis shown counts (a game's untrusted flags lifted)."""
        if self.mode == "play" and self._game is not None:
            if self._game.is_finished:
                return _NO_WIN | {"text": f"the game is {self._game.status}"}
            board = self._game.board
            if all(v < 0 for v in board.cells):
                return _NO_WIN | {
                    "text": "before the first click the first-click rule decides: reveal a cell first"
                }
            if self._analysis is None:
                return _NO_WIN | {
                    "text": "no chance to win: " + (self._error or {}).get("message", "no analysis")
                }
            analysis = self._analysis
            if not analysis.trust_flags:
                # The player's flags are marks, not facts: the layouts are counted without them.
                board = board.replace(
                    {divmod(i, board.width): HIDDEN for i, v in enumerate(board.cells) if v == FLAG}
                )
        else:
            if self._analysis is None:
                return _NO_WIN | {"text": "no chance to win without an exact analysis"}
            analysis = self._analysis
            board = analysis.board
        return find_win(board, analysis, self._budgets())

    def candidates(self) -> dict[str, Any]:
        """The ranked candidate guesses of the position shown, as JSMinesweeper lists them.

        The ``expert`` player's candidates with their exact figures
        (:func:`~analyzer.play.players.expert.ranked_guesses`: ``safety``, ``progress``
        the chance the guess is safe and the number it shows proves another cell
        safe, ``secondary`` the chance it and the next click are both safe), best
        first by the player's score (safety + progress), so the first is the
        player's guess; then, ranked the same way, the cells the same player would
        weigh with a margin of :data:`CANDIDATE_MARGIN` instead of its own; at most
        :data:`CANDIDATE_ROWS` in all. Returns ``{"rows", "text"}``; each row is
        ``{"cell", "expert", "safety", "progress", "secondary"}`` (``expert``: one of
        the player's own candidates; exact fractions as text) and the same as floats
        under ``"percent"``. No rows when a cell is certainly safe (no
        guess is needed), without an exact analysis, or on boards of more than
        :data:`CANDIDATE_CELLS` cells (``text`` says which).

        >>> from analyzer.interactive.session import Session
        >>> rows = Session("3x3x2\\nHHH\\nH2H\\nHHH\\n").candidates()["rows"]
        >>> rows[0]["cell"], rows[0]["safety"], rows[0]["progress"], rows[0]["secondary"]
        ([0, 0], '3/4', '11/28', '19/28')
        """
        return self._search("candidates", self._find_candidates)

    def _find_candidates(self) -> dict[str, Any]:
        if self._analysis is not None and self._first_click() is not None:
            return {"rows": [], "text": "the first click is safe under this game's rule: no guess to rank"}
        return find_candidates(self._analysis, self._budgets())

    # ------------------------------------------------------------ auto-play
    def _autoplay(self, until: str) -> None:
        """Reveal the certainly safe cells, again and again; at a guess stop, or play the best move."""
        if until not in ("guess", "end"):
            raise OptionError(f"auto-play goes until 'guess' or 'end', got {until!r}")
        self._need("play")
        game = self._game
        assert game is not None
        if game.is_finished:
            raise GameError(f"the game is {game.status}: start a new one")
        seconds = self._budgets().autoplay_seconds
        stop = time.monotonic() + seconds
        safe_clicks = guesses = 0
        while not game.is_finished:
            if time.monotonic() > stop:
                self.note = f"auto-play stopped after {seconds:g} s"
                break
            board = game.board
            self._refresh()  # the analysis shown: flags as mines only under trust_flags
            analysis = self._analysis
            if analysis is None:
                self.note = "auto-play stopped: " + (self._error or {}).get("message", "no analysis")
                break
            shown = board.cells
            width = game.width
            certain = [i for i, p in enumerate(analysis.cell_probabilities) if p == 0 and shown[i] == HIDDEN]
            if certain:
                for index in certain:
                    if game.is_finished:
                        break
                    if game.board.cells[index] != HIDDEN:
                        continue  # opened by an earlier one's flood fill (or flagged: left alone)
                    game.reveal(*divmod(index, width))
                    safe_clicks += 1
                self._changed()
                continue
            move = self.best_move()
            if until == "guess":
                best = f"; best guess {move.describe()}" if move is not None else ""
                self.note = f"auto-play stopped at a guess{best}"
                break
            if move is None:
                self.note = "auto-play stopped: no move to play"
                break
            if game.board[move.cell] == FLAG:
                game.toggle_flag(*move.cell)  # the best guess is under a flag of the player's
            game.reveal(*move.cell)
            guesses += 1
            self._changed()
        clicks = f"{plural(safe_clicks, 'safe click')}, {plural(guesses, 'guess')}"
        if game.is_finished:
            self.note = f"auto-play: game {game.status} after {clicks}"
        else:
            self.note = f"{self.note} (after {clicks})"


_NO_WIN: dict[str, Any] = {"p": None, "percent": None, "cell": None, "line": None, "line_text": ""}


def _too_many(budgets: Budgets) -> dict[str, Any]:
    """:func:`find_win`'s answer when more layouts remain than it searches."""
    many = f"more than {budgets.win_layouts:,} layouts remain"
    return _NO_WIN | {"text": f"{many}: too many for the exact search"}


def find_marks(analysis: Analysis | None, budgets: Budgets) -> dict[str, Any]:
    """:meth:`Session.marks` of ``analysis``: the dead cells and the forced 50/50s, within ``budgets``."""
    from analyzer.play.forced import pseudo_fifty_fifties

    if analysis is None:
        return {"dead": [], "fifty": [], "text": "no marks without an analysis"}
    board = analysis.board
    cells = board.width * board.height
    fifty = pseudo_fifty_fifties(board, analysis, chains=True) if cells <= budgets.mark_cells else []
    dead, looked, doubt = dead_cells(board, analysis, deadline=time.monotonic() + budgets.mark_seconds)
    text = f"{plural(len(dead), 'dead cell')}, {plural(len(fifty), 'cell')} in forced 50/50s"
    if cells > budgets.mark_cells:
        text += f" (50/50s are looked for on boards of at most {budgets.mark_cells:,} cells)"
    if looked < doubt:
        text += f" (dead cells looked for in {looked:,} of {doubt:,} cells in {budgets.mark_seconds:g} s)"
    return {"dead": dead, "fifty": fifty, "text": text}


def dead_cells(
    board: Board, analysis: Analysis, *, deadline: float | None = None
) -> tuple[list[int], int, int]:
    """The hidden cells in doubt that can show one number only (revealing one tells nothing).

    A cell's number, when it is safe, is its certain mines plus the mines among
    its neighbours in doubt; the cell is dead when only one such number fits a
    layout (exact, by :attr:`Analysis.layout_counter`, the way
    :meth:`Analysis.number_distribution` counts; it stops at the second number
    that fits). Returns the dead cells (flat indices, ascending), how many cells in
    doubt were looked at (all of them unless ``deadline``, a ``time.monotonic()``
    instant, passed: the cells next to a revealed number first) and how many there are.

    >>> from analyzer import solve
    >>> board = Board.from_text("4x1x1\\nH1HH\\n")  # (0, 3) is safe: nothing around (0, 0) or (0, 2) in doubt
    >>> dead_cells(board, solve(board))
    ([0, 2], 2, 2)
    >>> board = Board.from_text("2x3x1\\nHH\\n11\\n00\\n")  # a 50/50: each would show 1
    >>> dead_cells(board, solve(board))
    ([0, 1], 2, 2)
    """
    probabilities = analysis.cell_probabilities
    cells = board.cells
    table = board.neighbour_table
    trust = analysis.trust_flags

    def is_mine(j: int) -> bool:
        return probabilities[j] == 1 or (cells[j] == FLAG and bool(trust))

    def in_doubt(j: int) -> bool:
        p = probabilities[j]
        return cells[j] < 0 and not is_mine(j) and p is not None and 0 < p < 1

    doubt = [i for i, v in enumerate(cells) if v == HIDDEN and in_doubt(i)]
    # The cells next to a number first: where dead cells are found, before the deadline.
    doubt.sort(key=lambda i: not any(cells[j] >= 0 for j in table[i]))
    dead: list[int] = []
    looked = 0
    counter = analysis.layout_counter
    for i in doubt:
        if deadline is not None and time.monotonic() > deadline:
            break
        looked += 1
        around = table[i]
        certain = sum(1 for j in around if is_mine(j))
        open_ = [j for j in around if in_doubt(j)]
        if not open_:
            dead.append(i)
            continue
        if counter is None:
            continue
        cell = divmod(i, board.width)
        fits = 0
        for k in range(certain, certain + len(open_) + 1):
            try:
                shown = board.replace({cell: k})
            except BoardParseError:  # the mines no longer fit in the hidden cells
                break
            if counter(shown):
                fits += 1
                if fits > 1:
                    break
        if fits == 1:
            dead.append(i)
    return sorted(dead), looked, len(doubt)


def find_win(board: Board, analysis: Analysis, budgets: Budgets) -> dict[str, Any]:
    """:meth:`Session.win_chance` on ``board`` (its flags as mines), whose layouts ``analysis`` counts."""
    from analyzer.play.players.endgame import endgame_layouts, endgame_line

    if analysis.total > budgets.win_layouts:  # the count is exact: no need to look for them
        return _too_many(budgets)
    # Certain mines are mines in every layout: flagged, the search neither branches on them nor
    # reveals them (it never would), and the chance is the same.
    probabilities = analysis.cell_probabilities
    board = board.replace(
        {
            divmod(i, board.width): FLAG
            for i, v in enumerate(board.cells)
            if v == HIDDEN and probabilities[i] == 1
        }
    )
    hidden = board.cells.count(HIDDEN)
    if hidden > budgets.win_hidden:
        limit = f"the exact search takes at most {budgets.win_hidden:,}"
        return _NO_WIN | {"text": f"{plural(hidden, 'hidden cell')} besides the certain mines: {limit}"}
    layouts = endgame_layouts(board, limit=budgets.win_layouts)
    if layouts is None:
        return _too_many(budgets)
    if not layouts:
        return _NO_WIN | {"text": "no layout fits the position"}
    found = endgame_line(board, layouts, max_nodes=budgets.win_nodes, depth=budgets.win_depth)
    if found is None:
        return _NO_WIN | {"text": f"the exact search passed {budgets.win_nodes:,} positions: too large"}
    cell, wins = found["cell"], found["wins"]
    if len(layouts) == 1:  # every hidden cell is known: reveal the safe ones
        wins = 1
        safe = [i for i, v in enumerate(board.cells) if v == HIDDEN and i not in layouts[0]]
        cell_value = list(divmod(safe[0], board.width)) if safe else None
    else:
        cell_value = list(divmod(cell, board.width))
    p = Fraction(wins, len(layouts))
    text = (
        f"chance to win with best play: {percent_text(p) if 0 < p < 1 else int(p) * 100}%"
        f" ({exact_or_rounded(p)}, over {plural(len(layouts), 'layout')})"
    )
    line = line_view(board.width, found) if len(layouts) > 1 else None
    return {
        "p": fraction_text(p),
        "percent": float(p) * 100,
        "cell": cell_value,
        "text": text,
        "line": line,
        "line_text": line_text(line) if line is not None else "",
    }


def find_candidates(analysis: Analysis | None, budgets: Budgets) -> dict[str, Any]:
    """:meth:`Session.candidates` of ``analysis``, within ``budgets``."""
    from analyzer.play.players.expert import ExpertPlayer, ranked_guesses

    if analysis is None:
        return {"rows": [], "text": "no candidate guesses without an exact analysis"}
    board = analysis.board
    cells = board.width * board.height
    if cells > budgets.candidate_cells:
        return {
            "rows": [],
            "text": f"candidate guesses are ranked on boards of at most {budgets.candidate_cells:,} cells",
        }
    safe = analysis.safe
    if safe:
        return {"rows": [], "text": f"{plural(len(safe), 'certainly safe cell')}: no guess needed"}
    if HIDDEN not in board.cells:
        return {"rows": [], "text": "no hidden cell to guess"}
    expert = ExpertPlayer()
    ranked = ranked_guesses(board, analysis, player=ExpertPlayer(margin=budgets.candidate_margin))
    lowest = 1 - max(g.safety for g in ranked)  # the safest cell leads the guess order
    # The expert's own candidates (within its margin: a prefix of the wider guess order) first.
    within = [g for g in ranked if 1 - g.safety <= lowest + expert.margin]
    ranked = (within + [g for g in ranked if 1 - g.safety > lowest + expert.margin])[: budgets.candidate_rows]
    rows = [
        {
            "cell": list(g.cell),
            "expert": 1 - g.safety <= lowest + expert.margin,
            "safety": fraction_text(g.safety),
            "progress": fraction_text(g.progress),
            "secondary": fraction_text(g.secondary),
            "percent": {
                "safety": float(g.safety) * 100,
                "progress": float(g.progress) * 100,
                "secondary": float(g.secondary) * 100,
            },
        }
        for g in ranked
    ]
    text = (
        f"{plural(len(rows), 'candidate guess')}: the expert player's first (within"
        f" {float(expert.margin) * 100:g} percentage points of the safest), then the rest within"
        f" {float(budgets.candidate_margin) * 100:g}, each by safety + progress"
    )
    return {"rows": rows, "text": text}


class Superseded(Exception):
    """The best move being scored is for a position a later action replaced."""


def scored_move(analysis: Analysis, progress: Callable[[int, int], None] | None = None) -> Move | None:
    """``analysis.best_moves(1)[0]`` (or ``None``), with ``progress(done, of)`` after each cell scored.

    The same move: the certainly safe cell with the smallest explanation (the first
    in row-major order among ties), else the best guess. Certain cells are explained
    one at a time here, so that a later action can stop the scoring between two
    (a 1000x1000 board has hundreds of them; ``best_moves`` reports progress on guesses only).
    """
    from analyzer.solver.moves import Move

    safe = analysis.safe
    if safe:
        sized = []
        for done, cell in enumerate(safe, 1):
            sized.append((analysis.explain(*cell).size, cell))
            if progress is not None:
                progress(done, len(safe))
        size, cell = min(sized)
        return Move(cell, Fraction(0), size)
    moves = analysis.best_moves(1, on_progress=progress)
    return moves[0] if moves else None


def line_view(width: int, line: dict[str, Any]) -> dict[str, Any]:
    """:func:`~analyzer.play.players.endgame.endgame_line`'s tree, cells as ``[r, c]``, chances as text."""
    return {
        "cell": list(divmod(line["cell"], width)),
        "p": fraction_text(Fraction(line["wins"], line["layouts"])),
        "replies": [
            {
                "shown": [[*divmod(i, width), n] for i, n in reply["shown"]],
                "chance": fraction_text(Fraction(reply["layouts"], line["layouts"])),
                "line": None if reply["line"] is None else line_view(width, reply["line"]),
            }
            for reply in line["replies"]
        ],
    }


def line_text(line: dict[str, Any], depth: int = 0) -> str:
    """The winning line as indented text: a move, then what it can show and the reply to each."""
    pad = "  " * depth
    row, col = line["cell"]
    p = Fraction(line["p"])
    lost = 1 - sum((Fraction(reply["chance"]) for reply in line["replies"]), Fraction(0))
    mine = f" (a mine {exact_or_rounded(lost)} of the time)" if line["replies"] and lost else ""
    text = f"{pad}reveal ({row}, {col}){mine}: wins {'for sure' if p == 1 else exact_or_rounded(p)}\n"
    for reply in line["replies"]:
        opened = reply["shown"]
        first = opened[0]
        shows = f"({first[0]}, {first[1]}) shows {first[2]}"
        if len(opened) > 1:
            shows += f" and opens {plural(len(opened) - 1, 'more cell')}"
        chance = Fraction(reply["chance"])
        text += f"{pad}  if {shows} ({'always' if chance == 1 else exact_or_rounded(chance)}): "
        if reply["line"] is None:
            text += "every cell is known: won\n"
        else:
            text += "\n" + line_text(reply["line"], depth + 2)
    return text
