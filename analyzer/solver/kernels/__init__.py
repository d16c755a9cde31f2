"""The compiled core (numba) that the exact solve and the players share: integer arrays in, arrays out.

They do the per-cell work that does not need Python's exact numbers, so that a
small board's solve is not spent in Python loops over its cells: the caller
turns the arrays into the stage's objects. Every count stays a Python ``int``
outside them. The players' float probabilities
(:func:`analyzer.play.fast.probabilities.probabilities`) are built from the same
kernels: :func:`~analyzer.solver.kernels.constraints.constraint_arrays` for the clues and groups,
:func:`~analyzer.solver.kernels.components.split_components` for the components and
:func:`~analyzer.solver.kernels.enumerate.search_component`, the
one enumerator, which counts in exact 64-bit integers for the solve and in
float64 (with exact feasibility flags) for play; and the join of the components
(:func:`~analyzer.solver.kernels.join.products_of_others`,
:func:`~analyzer.solver.kernels.join.mine_count_weights`), in exact 64-bit
integers where the solve's numbers fit (:func:`~analyzer.solver.kernels.board.board_solution`) and
in scaled floats for play. A change to any of them moves both.

One module a stage of the solve, each the compiled twin of the Python stage of the same name
where there is one:

- :mod:`~analyzer.solver.kernels.constraints`: the clues (revealed numbers with unknown
  neighbours, in cell order), their unknown neighbours (in the neighbour table's order), and the
  groups (unknown cells with the same clues, in the order of their first cell, each ascending)
  with the clues they sit in: :func:`analyzer.solver.constraints.build_constraints` on arrays;
- :mod:`~analyzer.solver.kernels.deduction`: the single-clue and subset rules, to their closure;
- :mod:`~analyzer.solver.kernels.components`: the components of the free groups and their
  equations;
- :mod:`~analyzer.solver.kernels.enumerate`: the enumerator of a component's layouts, and the
  limits and binomial tables the counting kernels share;
- :mod:`~analyzer.solver.kernels.frontier`: the frontier programme (a sweep over the groups);
- :mod:`~analyzer.solver.kernels.join`: the components' counts joined by mine count;
- :mod:`~analyzer.solver.kernels.board`: a small board's whole solve in one call, every stage
  above up to the join.

The stages a solve runs one after another (constraints, closure, transpose, components,
the board's arrays, the count arrays, and the join's
:func:`~analyzer.solver.kernels.join.products_of_others`, :func:`~analyzer.solver.kernels.join.mul_counts`
and :func:`~analyzer.solver.kernels.join.mine_count_weights`) are kernels of their own, called by
their callers, not inlined into them: inlining them saved the atomic reference counts of the arrays they
pass (about 0.3 us a tiny board inside numba, nothing a whole ``solve`` call shows:
``python -m benchmarks.solve solve --quick``) and cost about 4 s of every warm-up's
compiling (``analyzer warmup``), since numba then compiled each one again in every caller.
A new kernel goes into the module of its stage; the warm-up's ``solver`` stage compiles them all
(:mod:`analyzer.warmup`).
"""
