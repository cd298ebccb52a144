# cardsim: every target creates .venv and installs the project first, so any of them works
# as the first command typed on a fresh clone.  `make help` lists the targets.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
N ?= 1000000
SEED ?= 2026
JOBS ?= -1

.PHONY: help install test report bench clean clean-cache

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install cardsim (editable) with the test tools

test: $(STAMP)  ## run the test suite (under 10 minutes on 2 cores)
	$(PY) -m pytest

bench: $(STAMP)  ## measure deals per second; writes BENCHMARKS.md
	$(PY) -m cardsim.bench --out BENCHMARKS.md

report: reports/report.md  ## simulate N deals per game (default 1,000,000) and build reports/

reports/report.md: $(STAMP) $(wildcard cardsim/*.py cardsim/*/*.py cardsim/*/*/*.py analyses/*.py)
	$(PY) -m analyses.report --n $(N) --seed $(SEED) --jobs $(JOBS) --results results --out reports

clean-cache:  ## drop numba's compiled-code cache (it misses edits in other modules)
	find cardsim -name '__pycache__' -type d -prune -exec rm -rf {} +

clean: clean-cache  ## remove the environment, results and generated report
	rm -rf $(VENV) results reports/tables reports/figures reports/report.md reports/index.html
