# Quick start: `make run` (site with a demo event on http://127.0.0.1:8000) and `make test`.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint install bench-engine clean

$(BIN)/.installed: requirements.txt requirements-dev.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	@touch $@

install: $(BIN)/.installed

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .

bench-engine: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
