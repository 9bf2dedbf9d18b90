# menhir — every target creates .venv and installs the project when needed.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
JOBS    ?= 2

.PHONY: demo test bench lint format clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	rm -rf runs/demo
	$(BIN)/menhir run experiments/configs/demo.toml --out runs/demo
	$(BIN)/menhir report runs/demo
	@echo "report: runs/demo/report/report.html and runs/demo/report/summary.md"

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/menhir bench --out benchmarks/results.txt

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) runs .pytest_cache
