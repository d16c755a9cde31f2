"""CP-SAT formulations of variant rules: certain cells, infeasible cores, solution counts.

The problem is given as plain data (:class:`VariantSpec`), built from the rules by
:mod:`analyzer.variants`: one Boolean ``x_i`` a cell (1: a mine), some fixed
(revealed cells are safe, flags are mines), and *members* that each hold only when
their literal is on, so that an explanation can switch them off one by one:

* a clue: ``sum(coef * x) in allowed`` (a Liar clue allows two values, a
  Negation clue a value and its opposite); the clues that are not counts: W, one of
  its ring patterns (*cubes*: cells with their values; a table constraint), P, the
  number of run starts around the ring (a mine after a cell that is not; one Boolean
  a start) in ``allowed``, E, one plus the cells of each line of sight with no mine
  before them (one Boolean a cell) in ``allowed``;
* a board rule: sums within bounds (Q, T, A), sums within bounds when a cell is a
  mine (D, H), sums that are all equal (B: one more integer variable), and
  connectivity (C, O), added lazily: a layout CP-SAT finds that breaks it adds the
  cuts it violates (a group of members and another member, or a group away from the
  border: some cell around the group is a member), and the model is solved again;
  from round 8 (:data:`FLOW_AFTER`) a copy with connectivity as a flow (:func:`add_flow`) is asked
  briefly, for a layout or its proof that there is none, and again, longer, as the rounds
  double (cuts alone took thousands of rounds on open O boards);
  a path (S): a circuit (CP-SAT's ``add_circuit``) through every mine and a node of its
  own, two mines side by side always neighbours on it (:func:`_add_path_circuit`); where
  the circuit is left out (the enumeration, the generator), the mine contacts along the
  edges, one Boolean each, number one less than the mines (with connectivity and at most
  two contacts a mine, the mines form a single path);
  with each board rule, its local consequences (the same layouts, refuted at once
  instead of cut by cut): forbidden patterns (O: no 2x2 checkerboard) and, for each
  connected set, a member off the border has a member beside it;
* the mine total.

Counting enumerates the layouts of the model without connectivity and keeps those
that :func:`is_connected` accepts.

The modules, from the bottom up: ``spec`` (the problem as data), ``building`` (the deadline
while it is built), ``symmetry`` (its symmetries), ``connectivity`` (connectivity and the path
on a layout, and as a flow), ``encoding`` (the members as CP-SAT constraints), ``checks`` (a
layout checked in Python; many proved at once), ``layouts`` (the enumeration and the counts)
and ``model`` (:class:`VariantModel`). Every name is imported from here.
"""

from __future__ import annotations

import sys
from types import ModuleType

from analyzer.models.variants import (
    building,
    checks,
    connectivity,
    encoding,
    layouts,
    model,
    spec,
    symmetry,
)
from analyzer.models.variants.building import BUILDING, check_building
from analyzer.models.variants.checks import clue_holds, free_cells, layout_checks
from analyzer.models.variants.connectivity import add_flow, connectivity_cuts, is_connected, path_cycles
from analyzer.models.variants.layouts import count_cubes, count_groups, enumerate_layouts
from analyzer.models.variants.model import (
    ASSUMPTION_EFFORT,
    CUT_EFFORT,
    DEFER_AFTER,
    FLOW_AFTER,
    FLOW_EFFORT,
    FLOW_SOON,
    JOINT_EFFORT,
    VariantModel,
)
from analyzer.models.variants.model import (
    _Deferred as _Deferred,  # solve.py's own solves defer as certain()'s do
)
from analyzer.models.variants.spec import (
    KNOWN_MINE,
    KNOWN_SAFE,
    BoardRuleSpec,
    ClueSpec,
    Connectivity,
    VariantSpec,
)
from analyzer.models.variants.symmetry import symmetries

__all__ = [
    "ClueSpec",
    "Connectivity",
    "BoardRuleSpec",
    "VariantSpec",
    "VariantModel",
    "symmetries",
    "is_connected",
    "enumerate_layouts",
    "count_groups",
    "count_cubes",
    "KNOWN_SAFE",
    "KNOWN_MINE",
    "add_flow",
    "path_cycles",
    "FLOW_AFTER",
    "FLOW_EFFORT",
    "FLOW_SOON",
    "CUT_EFFORT",
    "ASSUMPTION_EFFORT",
    "DEFER_AFTER",
    "JOINT_EFFORT",
    "BUILDING",
    "check_building",
    "connectivity_cuts",
    "clue_holds",
    "free_cells",
    "layout_checks",
]

_MODULES = (building, spec, symmetry, connectivity, encoding, checks, layouts, model)
_UNSET = object()


class _Package(ModuleType):
    """This package, whose names are set where they are used too.

    Each module reads the names it imports from its own globals, so a name set on the
    package alone (a tuning such as ``FLOW_AFTER``, or a test's stand-in for
    ``check_building``) would change nothing; set here, it is set in every module that holds
    the same object under that name, and setting it back restores them all. (A module's
    class set so is Python's own way to customise setting a module's attributes.)
    """

    def __setattr__(self, name: str, value: object) -> None:
        old = self.__dict__.get(name, _UNSET)
        for module in _MODULES if old is not _UNSET else ():
            if module.__dict__.get(name, _UNSET) is old:
                setattr(module, name, value)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
