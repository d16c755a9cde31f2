"""Solver formulations: the CP-SAT model of a component (:mod:`analyzer.models.cpsat`)."""
