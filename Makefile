# Two commands: `make run` and `make test`. Each creates .venv and installs what it needs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TESTSTAMP := $(VENV)/.installed-test

.PHONY: run test install lint clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(TESTSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	-sh .ci/install-chromium
	touch $@

install: $(STAMP)

run: $(STAMP)
	$(BIN)/boardtrack demo

test: $(TESTSTAMP)
	$(BIN)/python -m pytest -q --doctest-modules -p no:cacheprovider

lint: $(TESTSTAMP)
	$(BIN)/ruff check tracker calibration rules service fixtures tests
	$(BIN)/mypy --strict tracker calibration rules

clean:
	rm -rf $(VENV) build *.egg-info
