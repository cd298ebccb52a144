# cardsim: every target creates .venv and installs the project first, so any of them works
# as the first command typed on a fresh clone.  `make help` lists the targets.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
N ?= 1000000
SEED ?= 2026
JOBS ?= -1
# make bench measures the speed targets in this commit too (the before column); empty: none.
AGAINST ?= 4a44c71
# QUICK=1: a small report (every section, small n) in about two minutes.
QUICK ?=
# STRATEGY=SPEC: the players at every seat of the analyses that take it (STRATEGY_ANALYSES: the Vint charts; a
# strategy spec or rules:FILE; empty: each game's default); the others play the default players.
STRATEGY ?=
ifeq ($(QUICK),1)
N := 20000
QUICK_FLAG := --quick
endif

.PHONY: help install test mutation report stronger bench golden clean clean-cache

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install cardsim (editable) with the test tools

test: $(STAMP)  ## run the test suite (under 10 minutes on 2 cores)
	$(PY) tests/warm_cache.py
	$(PY) -m pytest

mutation: $(STAMP)  ## mutation-test the statistics and verdict rules (mutmut; survivors: docs/statistics.md)
	rm -rf mutants
	$(VENV)/bin/mutmut run --max-children 2
	$(VENV)/bin/mutmut results

bench: $(STAMP)  ## measure deals per second and every speed target, before (AGAINST=commit) and now; writes BENCHMARKS.md
	$(PY) -m cardsim.bench --out BENCHMARKS.md $(if $(AGAINST),--against $(AGAINST))

golden: $(STAMP)  ## rewrite tests/golden/*.json (the engine's digests); say why in the commit
	$(PY) tests/golden_digests.py

report: reports/report.md  ## simulate N deals per game (default 1,000,000; QUICK=1: small; STRATEGY=SPEC: the players) and build reports/

# The report is a graph of real files: each analysis writes its tables (reports/tables/GAME.json
# lists them) from resumable chunk aggregates under results/; report.md and index.html are
# assembled from the tables.  An interrupted run resumes: finished chunks are kept.
SOURCES := pyproject.toml $(shell find cardsim -name '*.py' -o -name 'profiles.toml') analyses/common.py
ANALYSE = $(PY) -m analyses $(1) --n $(N) --seed $(SEED) --jobs $(JOBS) --results results --out reports $(QUICK_FLAG) \
	$(if $(and $(STRATEGY),$(filter $(1),$(STRATEGY_ANALYSES))),--strategy '$(STRATEGY)')
# The analyses that measure against other players (--strategy); the rest keep each game's default players
# and say so in their captions, so that `make report STRATEGY=…` still builds the whole report.
STRATEGY_ANALYSES := vint_charts
# Changing N, SEED or STRATEGY names another stamp, so the tables are rebuilt for the new run (a spec by a hash
# of its text, since it holds ':' and '/', and of the files it names, so that an edit inside a rule file
# rebuilds the tables too).
STRATEGY_FILES := $(if $(STRATEGY),$(shell for t in $$(printf '%s' '$(STRATEGY)' | tr ':,=' '   '); do \
	[ -f "$$t" ] && printf '%s ' "$$t"; done))
STRATEGY_KEY := $(if $(STRATEGY),-strategy-$(shell { printf '%s' '$(STRATEGY)'; cat $(STRATEGY_FILES) /dev/null; } \
	| sha256sum | cut -c1-12))
RUN_STAMP := results/.run-n$(N)-seed$(SEED)$(if $(QUICK_FLAG),-quick)$(STRATEGY_KEY)

$(RUN_STAMP):
	mkdir -p results && rm -f results/.run-* && touch $@

# One rule per analysis, from the one list (analyses/analyses.txt, which also orders the report's
# sections): each table file depends on its script, the inputs the list names and cardsim's sources.
# An analysis whose line says target=NAME is made by `make NAME` only; the report includes its
# tables when they exist (made earlier), and the page says how to get them when they do not.
ANALYSES_LIST := analyses/analyses.txt
ALL_SCRIPTS := $(shell awk '{sub(/\#.*/, "")} NF {print $$1}' $(ANALYSES_LIST))
scripts_for = $(shell awk '{sub(/\#.*/, "")} NF {t = "report"; for (i = 3; i <= NF; i++) if ($$i ~ /^target=/) \
	t = substr($$i, 8); if (t == "$(1)") print $$1}' $(ANALYSES_LIST))
SCRIPTS := $(call scripts_for,report)
table_of = reports/tables/$(shell awk '{sub(/\#.*/, "")} $$1 == "$(1)" {print $$2}' $(ANALYSES_LIST)).json
inputs_of = $(shell awk '{sub(/\#.*/, "")} $$1 == "$(1)" {for (i = 3; i <= NF; i++) if ($$i !~ /^target=/) print $$i}' \
	$(ANALYSES_LIST))
TABLES := $(foreach s,$(SCRIPTS),$(call table_of,$(s)))

define ANALYSIS_RULE
$(call table_of,$(1)): $(STAMP) $(RUN_STAMP) $(SOURCES) analyses/$(1).py $(call inputs_of,$(1))
	$$(call ANALYSE,$(1))
endef
$(foreach s,$(ALL_SCRIPTS),$(eval $(call ANALYSIS_RULE,$(s))))

stronger: $(foreach s,$(call scripts_for,stronger),$(call table_of,$(s)))  ## replay chart cells with pimc on every seat until each verdict decides (after the charts; then make report shows it)
	@if [ -f reports/report.md ]; then $(PY) -m analyses report --out reports; fi

# A target=NAME analysis's tables are read when they exist but are not prerequisites: `make report` never
# remakes them (a stale one is marked so on the page), `make NAME` remakes them and the page.
reports/report.md: $(TABLES) analyses/report.py analyses/page.py $(wildcard analyses/*_page.py) $(ANALYSES_LIST)
	$(PY) -m analyses report --out reports

clean-cache:  ## drop numba's compiled kernels (kept per source version under ~/.cache/cardsim)
	find cardsim -name '__pycache__' -type d -prune -exec rm -rf {} +
	rm -rf $${NUMBA_CACHE_DIR:-$$HOME/.cache/cardsim}/numba-*

clean: clean-cache  ## remove the environment, results and generated report
	rm -rf $(VENV) results reports/tables reports/figures reports/report.md reports/index.html
