# Two commands for a fresh clone: `make demo` and `make test`. Both create .venv when missing.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TORCH ?= torch==2.13.0
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu

.PHONY: demo test test-offline check-docs mutate mutate-survivors mutation-selection setup lint clean

setup: $(STAMP)

# torch first, a CPU build: from a local wheel when pip's find-links holds one (this machine's
# /opt/wheels), else from PyTorch's CPU index (TORCH_INDEX), never PyPI's default Linux wheel, which
# pulls several GB of CUDA libraries for a CPU test run. `make setup TORCH=torch==2.5.1` picks another
# release; torch's own dependencies come with the project's install below.
# trankit 1.1.2 pins torch<=2.0.1, so it goes in with --no-deps (its real needs are in the
# `build` extra). The editable install is setuptools' default mode; pyproject.toml's package-dir
# makes it a path entry for the repository (not an import hook, which a dataset folder named
# auto_challenge_sets in the working folder would shadow: see the comment there).
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --no-index --no-deps $(TORCH) 2>/dev/null \
	  || $(PY) -m pip install --quiet $(TORCH) --index-url $(TORCH_INDEX) --extra-index-url https://pypi.org/simple
	$(PY) -m pip install --quiet -e ".[build,dev,ray]"
	$(PY) -m pip install --quiet --no-deps trankit==1.1.2
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/acs demo

# lint-imports first: the floors (.importlinter) hold, or nothing else is worth running. Two
# pytest-xdist workers (JOBS), each taking whole files (--dist loadfile: a module's fixtures are
# built once), the session's shared builds made once for both (tests/conftest.py, built_once).
JOBS ?= 2
test: $(STAMP)
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -q -n $(JOBS) --dist loadfile

# the suite as a fresh clone runs it: ACS_SHARED_DIR points to an empty folder, so every test
# marked `shared` skips (tests/conftest.py) and the tiny trankit model learns the demo sample
test-offline: $(STAMP)
	$(VENV)/bin/lint-imports
	empty=$$(mktemp -d) && ACS_SHARED_DIR=$$empty $(PY) -m pytest -q -n $(JOBS) --dist loadfile; status=$$?; rmdir $$empty; exit $$status

# CI's slow tier: every measured table of docs/method.md and of the dataset cards regenerated and
# compared with the committed text (studies/check_docs.py; skips, saying so, without ../shared).
# WORK=DIR keeps the WMT21 builds it makes, for a second run or a --write.
WORK ?=
check-docs: $(STAMP)
	$(PY) studies/check_docs.py --shared $(abspath ../shared) $(if $(WORK),--work $(WORK))

# mutation testing with mutmut (mutation/README.md): not in CI, it takes long. A fresh run each
# time; MODULES="formats.conllu scoring.metrics.ribes" mutates those modules only, each against the tests that
# execute it (mutation/test_selection.json; `make mutation-selection` derives it again after the
# tests or only_mutate change). Tests run in mutants/, so the shared data is passed by absolute path.
# `make mutate-survivors MODULES=...` runs again only what the last run left alive (after new tests).
MODULES ?=
SHARED_DIR ?= $(abspath ../shared)
mutate: $(STAMP)
	rm -rf mutants
	ACS_SHARED_DIR=$(SHARED_DIR) $(PY) mutation/mutate.py $(MODULES)
	$(PY) mutation/score.py $(MODULES)

mutate-survivors: $(STAMP)
	ACS_SHARED_DIR=$(SHARED_DIR) $(PY) mutation/mutate.py --survivors $(MODULES)
	$(PY) mutation/score.py $(MODULES)

mutation-selection: $(STAMP)
	$(PY) mutation/select_tests.py

lint: $(STAMP)
	$(VENV)/bin/ruff check auto_challenge_sets builder tests benchmarks studies examples mutation

clean:
	rm -rf $(VENV) build dist *.egg-info mutants
