"""Minesweeper Clone's old recordings (MVF), the versions ms-toollib does not read: our own reader.

Minesweeper Clone (Rodrigo Camargo, 2004-2007) wrote several layouts under the one
``.mvf`` extension. ms-toollib reads 0.97 beta; the others come here:

- **2006 and 2007 releases**: a header (``0x11 'M'``, "Minesweeper Clone", the years,
  the author, at offset 53 the version's text), then from offset 71 the date, level,
  mode, the time in milliseconds (3 bytes), the question-mark option, the board (width,
  height, mine count, each mine's 1-based column and row), the player's name, a 2-byte
  key and the number of mouse events (3 bytes). Each event is 6 bytes whose 48 bits are
  shuffled by a permutation derived from the key (digits of ``|cos|`` and ``|sin|`` of
  square roots of it, in the order of the digits): buttons (right, middle, left), row
  and column pixels (11 bits each, offset by 32) and the time in milliseconds (22 bits).
- **0.8 to 0.96 beta**: no header: the board first (0-based mines), the question-mark
  option, a spare byte, then 8-byte events (seconds, hundredths, buttons as bits
  left 1, middle 2, right 4, column and row pixels as 2 bytes each, a spare byte);
  the file ends with the time (2 bytes of seconds, 1 of hundredths), the player's
  name in 100 bytes and a 22-byte checksum between two zero bytes.
- 0.97 beta is read by ms-toollib; :func:`read_clone` reads it too (the tests compare
  the two). 0.76 beta and 0.75 beta or earlier are recognised and named, not read (no
  public recording of them to test a reader against).

The layout is public: Damien Moore's description of the versions (2020, the "Clone
(MVF) RAW version 6" converter, as published with flop-player), read to write this.
The mouse events become actions as Clone plays them: a left release on a hidden cell
reveals it, a right press marks it (flag, then question mark when the option is on,
then nothing), and both buttons (or the middle one) chord on their first release.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.board.board import FLAG, HIDDEN, Cell
from analyzer.errors import GameError, ReplayError
from analyzer.replays.record import Replay, ReplayAction

if TYPE_CHECKING:
    from analyzer.play.game import Game

__all__ = ["CloneVersion", "clone_version", "read_clone"]

PIXELS = 16
"""Pixels a cell in Clone's recordings."""

_LEVELS = {(8, 8, 10): "beginner", (16, 16, 40): "intermediate", (30, 16, 99): "expert"}


@dataclass(frozen=True, slots=True)
class CloneVersion:
    """Which Minesweeper Clone wrote an MVF file.

    ``ours``: read by :func:`read_clone` rather than ms-toollib; ``readable``: read at all.
    """

    name: str
    ours: bool
    readable: bool = True


@dataclass(frozen=True, slots=True)
class _Event:
    time: float
    x: int
    y: int
    left: bool
    right: bool
    middle: bool


def clone_version(path: str | Path) -> CloneVersion | None:
    """The Clone version of an MVF file from its first and last bytes; ``None`` when it is none of them.

    Examples
    --------
    >>> from analyzer.replays import example_path
    >>> clone_version(example_path("expert_30x16_99.mvf"))
    CloneVersion(name='0.97 beta', ours=False, readable=True)
    """
    data = Path(path).read_bytes()
    return _version(data)


def _version(data: bytes) -> CloneVersion | None:
    if len(data) < 80:
        return None
    if data[:2] == b"\x11M":
        year = data[27:28]
        if year == b"5":
            return CloneVersion("0.97 beta", ours=False)
        if year in (b"6", b"7"):
            size = data[53]
            text = data[54 : 54 + size].decode("latin-1").strip()
            return CloneVersion(text or f"200{year.decode()}", ours=True)
        if year == b"8":
            return CloneVersion("0.97 beta (Funny Mode hack)", ours=False)
        return None
    if data[:2] == b"\x00\x00":
        return CloneVersion("0.97 beta (unknown hack)", ours=False)
    if (data[0], data[1]) not in ((8, 8), (16, 16), (30, 16)):
        return None
    if not chr(data[-1]).isdigit() and not chr(data[-22]).isdigit():
        return CloneVersion("0.96 beta or earlier (0.8 to 0.96)", ours=True)
    if data[-13:-10] == b"   ":
        return CloneVersion("0.76 beta", ours=True, readable=False)
    return CloneVersion("0.75 beta or earlier", ours=True, readable=False)


def read_clone(path: str | Path, *, shown: str | None = None) -> Replay:
    """Read a Minesweeper Clone recording of 2006, 2007 or 0.8 to 0.97 beta into a :class:`Replay`.

    Raises
    ------
    ReplayError
        Not a Clone recording, a version not read (named), or a file cut short or
        contradicting itself (one line naming the file).

    Examples
    --------
    >>> from analyzer.replays import example_path
    >>> replay = read_clone(example_path("expert_30x16_99.mvf"))
    >>> replay.width, replay.height, replay.mines, replay.is_completed, replay.fields["software"]
    (30, 16, 99, True, 'Minesweeper Clone 0.97 beta')
    """
    name = str(path) if shown is None else shown
    data = Path(path).read_bytes()
    version = _version(data)
    if version is None:
        raise ReplayError(f"cannot read {name!r}: not a Minesweeper Clone recording")
    if not version.readable:
        raise ReplayError(
            f"cannot read {name!r}: a Minesweeper Clone {version.name} recording; that version is not"
            " supported (only 2006, 2007 and 0.8 to 0.97 beta are)"
        )
    reader = _Bytes(data, name)
    try:
        if data[:2] == b"\x11M" and version.ours:
            fields = _read_2007(reader)
        elif data[:2] == b"\x11M" or data[:2] == b"\x00\x00":
            reader.at = 74 if data[:2] == b"\x11M" else 7
            fields = _read_097(reader)
        else:
            fields = _read_096(reader)
    except IndexError:
        raise ReplayError(
            f"cannot read {name!r}: the Minesweeper Clone {version.name} file is cut short"
        ) from None
    width, height, mines, layout, player, seconds, marks, events = fields
    if not (width >= 1 and height >= 1 and 0 < mines < width * height):
        raise ReplayError(f"cannot read {name!r}: a {width}x{height} board with {mines} mines")
    if len(layout) != mines:
        raise ReplayError(f"cannot read {name!r}: {mines} mines, {len(layout)} of them in distinct cells")
    return _replay(name, version.name, width, height, layout, player, seconds, marks, events)


class _Bytes:
    def __init__(self, data: bytes, name: str) -> None:
        self.data, self.name, self.at = data, name, 0

    def take(self, count: int) -> bytes:
        if self.at + count > len(self.data):
            raise IndexError
        chunk = self.data[self.at : self.at + count]
        self.at += count
        return chunk

    def number(self, count: int = 1) -> int:
        return int.from_bytes(self.take(count), "big")


def _board(reader: _Bytes, base: int) -> tuple[int, int, int, list[Cell]]:
    width, height, mines = reader.number(), reader.number(), reader.number(2)
    layout = []
    for _ in range(mines):
        col, row = reader.number() - base, reader.number() - base
        if not (0 <= row < height and 0 <= col < width):
            raise ReplayError(f"cannot read {reader.name!r}: a mine at {(row, col)!r}, off the board")
        layout.append((row, col))
    return width, height, mines, sorted(set(layout))


def _permutation(key: int, digits: int) -> list[int]:
    """Bit positions in the order Clone stores an event's fields (from the file's 2-byte key)."""
    a = math.sqrt(key)
    b = math.sqrt(key + 1000.0)
    c = math.sqrt(a + 1000.0)
    values = [
        math.cos(c + 1000.0),
        math.sin(math.sqrt(b)),
        math.cos(c),
        math.sin(math.sqrt(a) + 1000.0),
    ]
    if digits == 40:
        values.append(math.cos(math.sqrt(b + 1000.0)))
    else:
        d = math.sqrt(b + 1000.0)
        values += [math.cos(d), math.sin(d)]
    text = "".join(f"{round(abs(v) * 100_000_000):08d}" for v in values)
    return sorted(range(digits), key=lambda j: (text[j], j))


def _bits(event: bytes, order: list[int], first: int, count: int) -> int:
    value = 0
    for k in range(count):
        j = order[first + k]
        if event[j // 8] & (1 << (j % 8)):
            value |= 1 << k
    return value


def _name(raw: bytes) -> str:
    return raw.decode("latin-1").replace("\x00", " ").strip()


def _scrambled_events(
    reader: _Bytes,
    order: list[int],
    size: int,
    time: Callable[[bytes], float],
    position: tuple[int, int, int],
    shift: int,
) -> list[_Event]:
    """The events of a version that scrambles each event's bits by ``order``: their count (3 bytes),
    then ``size`` bytes an event; ``time`` reads an event's time, ``position`` is where x and y
    start and their width in bits, ``shift`` what is taken off both; the buttons are bits 2, 0, 1."""
    x_first, y_first, bits = position
    events = []
    for _ in range(reader.number(3)):
        raw = reader.take(size)
        events.append(
            _Event(
                time=time(raw),
                x=_bits(raw, order, x_first, bits) - shift,
                y=_bits(raw, order, y_first, bits) - shift,
                left=bool(_bits(raw, order, 2, 1)),
                right=bool(_bits(raw, order, 0, 1)),
                middle=bool(_bits(raw, order, 1, 1)),
            )
        )
    return events


_Fields = tuple[int, int, int, list[Cell], str, float, bool, list[_Event]]


def _read_2007(reader: _Bytes) -> _Fields:
    reader.at = 71
    reader.take(7 + 2)  # date (month, day, year, hour, minute, second), level, mode
    seconds = reader.number(3) / 1000
    marks = reader.number() != 0
    width, height, mines, layout = _board(reader, 1)
    player = _name(reader.take(reader.number()))
    order = _permutation(reader.number(2), 48)
    events = _scrambled_events(
        reader, order, 6, lambda raw: _bits(raw, order, 25, 22) / 1000, (14, 3, 11), 32
    )
    return width, height, mines, layout, player, seconds, marks, events


def _read_097(reader: _Bytes) -> _Fields:
    reader.take(7 + 2)  # date, level, mode
    seconds = reader.number(2) + reader.number() / 100
    reader.take(10)  # 3BV, solved 3BV, left, double and right clicks
    marks = reader.number() != 0
    width, height, mines, layout = _board(reader, 1)
    player = _name(reader.take(reader.number()))
    order = _permutation(reader.number(2), 40)
    events = _scrambled_events(
        reader,
        order,
        5,
        lambda raw: _bits(raw, order, 28, 10) + _bits(raw, order, 21, 7) / 100,
        (12, 3, 9),
        0,
    )
    return width, height, mines, layout, player, seconds, marks, events


def _read_096(reader: _Bytes) -> _Fields:
    width, height, mines, layout = _board(reader, 0)
    marks = reader.number() != 0
    reader.take(1)  # a spare byte
    end = len(reader.data) - 125  # the time, then 100 bytes of name and the 22-byte checksum
    if end < reader.at:
        raise IndexError
    time_at = _Bytes(reader.data, reader.name)
    time_at.at = end
    seconds = time_at.number(2) + time_at.number() / 100
    player = _name(reader.data[end + 3 : end + 103])
    events: list[_Event] = []
    while reader.at + 8 <= end:
        raw = reader.take(8)
        moment = raw[0] + raw[1] / 100
        if (events and moment < events[-1].time) or moment > seconds:
            break  # past the events: what follows is not one
        events.append(
            _Event(
                time=moment,
                x=raw[3] * 256 + raw[4],
                y=raw[5] * 256 + raw[6],
                left=bool(raw[2] & 1),
                right=bool(raw[2] & 4),
                middle=bool(raw[2] & 2),
            )
        )
    return width, height, mines, layout, player, seconds, marks, events


def _replay(
    name: str,
    version: str,
    width: int,
    height: int,
    layout: list[Cell],
    player: str,
    seconds: float,
    marks_on: bool,
    events: list[_Event],
) -> Replay:
    """Play the mouse events on the layout as Clone does; the actions that changed the board."""
    from analyzer.play.game import Game
    from analyzer.play.metrics import layout_metrics

    try:
        game = Game.from_layout(width, height, layout)
    except GameError as error:
        raise ReplayError(f"cannot read {name!r}: the layout is not a board ({error})") from None
    actions = _clone_actions(name, game, events, marks_on)
    won = game.status == "won"
    bbbv = layout_metrics(width, height, layout).bbbv
    stats = {"bbbv": float(bbbv), "rtime": seconds}
    if won and seconds > 0:
        stats["bbbv_s"] = bbbv / seconds
    fields = {"software": f"Minesweeper Clone {version}"}
    if player:
        fields["player"] = player
    return Replay(
        path=name,
        format="mvf",
        width=width,
        height=height,
        mines=len(layout),
        layout=frozenset(layout),
        actions=tuple(actions),
        is_completed=won,
        stats=stats,
        fields=fields,
        events=len(events),
    )


def _clone_actions(name: str, game: Game, events: list[_Event], marks_on: bool) -> list[ReplayAction]:
    """The mouse ``events`` played on ``game`` as Clone does: the actions that changed the board."""
    width, height = game.board.width, game.board.height
    questions: set[Cell] = set()  # question marks (the option): hidden cells to our game
    actions: list[ReplayAction] = []
    left = right = middle = chording = chorded = False

    def cell_at(event: _Event) -> Cell | None:
        if event.x < 0 or event.y < 0:
            return None
        row, col = event.y // PIXELS, event.x // PIXELS
        return (row, col) if row < height and col < width else None

    def act(kind: str, cell: Cell, moment: float) -> None:
        opens = kind in ("reveal", "chord")
        before = tuple(game.board.to_text().splitlines()[1:]) if opens else None
        try:
            getattr(game, kind)(*cell)
        except GameError as error:
            raise ReplayError(f"cannot read {name!r}: at {moment:.2f} s: {error}") from None
        questions.difference_update(c for c in list(questions) if game.board[c] >= 0)
        actions.append(ReplayAction(kind, cell, moment, before, game.revealed_count, math.nan, ""))

    for event in events:
        if game.status != "playing":
            break
        cell = cell_at(event)
        pressed_left = event.left and not left
        pressed_right = event.right and not right
        pressed_middle = event.middle and not middle
        released_left = left and not event.left
        released = released_left or (right and not event.right) or (middle and not event.middle)
        if pressed_right and not left and not chording and cell is not None:
            value = game.board[cell]
            if value == HIDDEN and cell in questions:
                questions.discard(cell)
            elif value == HIDDEN:
                act("flag", cell, event.time)
            elif value == FLAG:
                act("unflag", cell, event.time)
                if marks_on:
                    questions.add(cell)
        if (pressed_right and left) or (pressed_left and right) or pressed_middle:
            chording, chorded = True, False  # both buttons down: the next release chords
        left, right, middle = event.left, event.right, event.middle
        if released and cell is not None:
            value = game.board[cell]
            if chording and not chorded:
                chorded = True
                around = game.board.neighbours(*cell)
                flags = sum(1 for n in around if game.board[n] == FLAG)
                if value >= 0 and flags == value and any(game.board[n] == HIDDEN for n in around):
                    act("chord", cell, event.time)
            elif not chording and released_left and value == HIDDEN:
                act("reveal", cell, event.time)
        if not (left or right or middle):
            chording = chorded = False
    return actions
