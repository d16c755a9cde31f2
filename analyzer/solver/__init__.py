"""The exact solver: board -> constraints -> deductions -> components -> counts -> combination -> Analysis.

Each stage is a module of its own (``constraints``, ``deduction``, ``decomposition``,
``counting``, ``combination``, ``analysis``); ``solve`` runs them in order.
"""

from analyzer.solver.analysis import Analysis, ComponentSummary
from analyzer.solver.solve import count_layouts, solve

__all__ = ["solve", "count_layouts", "Analysis", "ComponentSummary"]
