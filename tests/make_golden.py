"""Regenerate ``tests/golden/answers.json`` from the ``.mine`` files beside it.

Every answer is computed by the brute force of ``tests/bruteforce.py`` (every
set of unknown cells of the right size, checked against every number), never
by the solver, so that ``tests/test_golden.py`` checks the solver against an
independent truth.

Usage, from the project root::

    .venv/bin/python tests/make_golden.py            # rewrite answers.json
    .venv/bin/python tests/make_golden.py --check    # exit 1 if answers.json is stale

To add a board, drop ``NAME.mine`` into ``tests/golden/`` (at most 22 unknown
cells, 22 hidden and flagged ones if it has flags) and run the script.

The file maps each board's name (its file name without ``.mine``) to the shape
of :meth:`analyzer.Analysis.to_dict`: ``width``, ``height``, ``mines``, ``total``
(the number of layouts, as a string) and ``probabilities`` (rows of ``"p/q"``,
``null`` for a revealed number, ``"1/1"`` for a trusted flag). Boards with flags
also have ``untrusted``: the ``total`` and ``probabilities`` when flags are not
trusted (``trust_flags=False``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bruteforce import brute_force

GOLDEN = Path(__file__).resolve().parent / "golden"
ANSWERS = GOLDEN / "answers.json"


def compute_answers(folder: Path = GOLDEN) -> dict[str, dict]:
    """The answers of every ``.mine`` board in ``folder``, by brute force."""
    answers = {}
    for path in sorted(folder.glob("*.mine")):
        oracle = brute_force(path.read_text())
        if oracle.total == 0:
            raise ValueError(f"{path.name}: no layout satisfies the board")
        answer = oracle.to_dict()
        if oracle.board.flagged_cells():
            untrusted = brute_force(oracle.board, trust_flags=False).to_dict()
            answer["untrusted"] = {key: untrusted[key] for key in ("total", "probabilities")}
        answers[path.stem] = answer
    return answers


def _dump(value: object, indent: str) -> str:
    """JSON with one line per row of probabilities, so that a person can read the grid."""
    if isinstance(value, dict):
        inner = indent + "  "
        items = [f"{inner}{json.dumps(k)}: {_dump(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and value and isinstance(value[0], list):
        inner = indent + "  "
        return "[\n" + ",\n".join(inner + json.dumps(row) for row in value) + "\n" + indent + "]"
    return json.dumps(value)


def to_json(answers: dict[str, dict]) -> str:
    return _dump(answers, "") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that answers.json is up to date")
    args = parser.parse_args(argv)
    text = to_json(compute_answers())
    if args.check:
        if not ANSWERS.exists() or ANSWERS.read_text() != text:
            print(f"{ANSWERS} is stale: run {Path(__file__).name} to regenerate it", file=sys.stderr)
            return 1
        print(f"{ANSWERS} is up to date")
        return 0
    ANSWERS.write_text(text)
    print(f"wrote {ANSWERS} ({text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
