"""The variant rules of "14 Minesweeper Variants" (1 and 2), over the square grid.

>>> from analyzer.variants import solve_variant, hint
>>> analysis = solve_variant("3x3x2\\nHHH\\nH4H\\nHHH\\n", "M")
>>> analysis.probability(0, 1), analysis.probability(0, 0)
(Fraction(1, 2), Fraction(0, 1))
>>> print(hint("3x3x2\\nHHH\\n?2?\\nHHH\\n", "X'"))
(0, 1) is a mine: clues (1, 1)

Rules are letters (:data:`RULES`); a position is a :class:`~analyzer.board.board.Board`,
a :class:`Position` (clues above 8, cells revealed without a clue) or its text.
"""

from analyzer.variants.position import NO_CLUE, Position
from analyzer.variants.rules import RULES, Rule, RuleSet, parse_rules
from analyzer.variants.solve import (
    VariantAnalysis,
    VariantExplanation,
    explain_variant,
    hint,
    solve_variant,
)

__all__ = [
    "NO_CLUE",
    "Position",
    "RULES",
    "Rule",
    "RuleSet",
    "parse_rules",
    "VariantAnalysis",
    "VariantExplanation",
    "explain_variant",
    "hint",
    "solve_variant",
]
