# menhir — every target creates .venv and installs the project when needed.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
JOBS    ?= 2

.PHONY: demo test bench lint format golden clean

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
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/menhir bench --out benchmarks/results.txt
	$(BIN)/python -m experiments.bench --out benchmarks/results.txt
	test ! -f benchmarks/bench_report.py || $(BIN)/python benchmarks/bench_report.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

golden: $(STAMP)
	$(BIN)/python -m tests.games.celtica.golden

clean:
	rm -rf $(VENV) runs .pytest_cache
