# Quick start: `make demo` (set up, solve a bundled board) and `make test` (set up, run the tests).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup demo test test-all lint docs dist smoke bench bench-placement bench-games notebooks notebooks-run clean

# The venv's own pip installs the package editable (PEP 660: any pip of Python 3.11); upgrading it
# first cost every fresh clone about 10 s of network. Every extra: `all` (what a user may want),
# then the notebooks', the developer's, the browser tests', the benchmarks' and the manual's.
# A venv from before 0.2.0 has the package under its old distribution name: that goes first.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip uninstall --quiet --yes analyzer 2>/dev/null || true
	$(BIN)/python -m pip install --quiet -e ".[all,notebooks,dev,browser-tests,bench,docs]"
	$(BIN)/analyzer warmup
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/analyzer solve analyzer/examples/cs70_figure2_4x4_6.mine

# The tests on every core (pytest-xdist: a worker a core and one more, to fill the browser tests'
# waits, each with one headless browser; the JupyterLab tests on one worker, so that one
# JupyterLab starts: --dist loadgroup; see conftest.py).
# Python's bytecode cache stays on for the tests even where the environment turns it off
# (PYTHONDONTWRITEBYTECODE): each worker would otherwise rewrite every test module's asserts anew,
# about 10 s of collection a worker.
test: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n auto --dist loadgroup

# Everything: the slow tests too, and every property test's full count of examples (the default
# run draws half: tests/strategies.py's `examples`).
test-all: $(STAMP)
	PYTHONDONTWRITEBYTECODE= ANALYZER_TEST_ALL=1 $(BIN)/python -m pytest -q -n auto --dist loadgroup -m "slow or not slow"

lint: $(STAMP)
	$(BIN)/ruff check analyzer tests
	$(BIN)/mypy analyzer

# The manual: Sphinx into build/docs, offline, warnings as errors, every cross reference checked.
docs: $(STAMP)
	$(BIN)/python -m sphinx -b html -n -W --keep-going -q docs build/docs
	@echo "The manual is built: open $(CURDIR)/build/docs/index.html"

# The release: sdist and wheel into dist/, checked as the index will (twine check --strict).
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	$(BIN)/twine check --strict dist/*

# The wheel as a user gets it: installed apart from the tree, read-only, run as another user.
smoke: $(STAMP)
	BUILD_PYTHON=$(abspath $(BIN))/python bash scripts/smoke_wheel.sh

bench: $(STAMP)
	$(BIN)/python -m benchmarks.solve solve

bench-placement: $(STAMP)
	$(BIN)/python -m benchmarks.placement --output docs/placement_timing.png --json docs/placement_timing.json

bench-games: $(STAMP)
	$(BIN)/python -m benchmarks.games speed

# JupyterLab refuses to run as root unless told to (a container's shell is often root).
notebooks: $(STAMP)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/

# Run every notebook in place (an unchanged one is written back byte for byte), then export its figures.
notebooks-run: $(STAMP)
	$(BIN)/python scripts/run_notebooks.py
	$(BIN)/python scripts/export_figures.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist *.egg-info docs/reference/generated docs/notebooks/*.ipynb
