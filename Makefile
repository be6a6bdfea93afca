# Quick start: `make run` (site with a demo event on http://127.0.0.1:8000) and `make test`.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 2

.PHONY: run prod test lint install bench-engine bench-live clean

$(BIN)/.installed: requirements.txt requirements-dev.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	@touch $@

install: $(BIN)/.installed

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo --site http://$(HOST):$(PORT)
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# As in production, on one machine (docs/deploy.md): DEBUG=0 with SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL,
# REDIS_URL (and CHANNEL_LAYER_KEY) from the environment; migrations, static files collected and served
# by the site (whitenoise), the timer/bot sweeper as its own process, WORKERS uvicorn worker processes.
prod: install
	@test -n "$$SECRET_KEY" -a -n "$$ALLOWED_HOSTS" -a -n "$$DATABASE_URL" -a -n "$$REDIS_URL" || \
		{ echo "make prod needs SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and REDIS_URL (see docs/deploy.md)"; exit 1; }
	DEBUG=0 $(BIN)/python manage.py migrate --noinput
	DEBUG=0 $(BIN)/python manage.py collectstatic --noinput -v 0
	DEBUG=0 $(BIN)/python manage.py check --deploy --fail-level ERROR
	DEBUG=0 LIVE_SWEEPER_IN_PROCESS=0 sh -c '$(BIN)/python manage.py run_sweeper & sweeper=$$!; \
		trap "kill $$sweeper" EXIT INT TERM; \
		$(BIN)/uvicorn config.asgi:application --host $(HOST) --port $(PORT) --workers $(WORKERS) \
			--ws websockets-sansio --ws-per-message-deflate false --proxy-headers --no-access-log'

test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .

bench-engine: install
	$(BIN)/python bench/engine.py

bench-live: install  # needs DATABASE_URL and REDIS_URL; see docs/performance.md
	$(BIN)/python bench/live.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
