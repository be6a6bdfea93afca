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

# axe-core (package.json), which the browser tests' accessibility audit runs in the page; without npm the
# rest installs and that test says what is missing (and fails under REQUIRE_BROWSER=1, as in CI).
node_modules/.package-lock.json: package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then npm ci --no-audit --no-fund; \
	else echo "npm not found: the accessibility test needs axe-core (install Node.js and npm, then make install)"; fi

# The JavaScript example bot's `ws` (examples/js/package.json), for its test against the real server.
examples/js/node_modules/.package-lock.json: examples/js/package.json examples/js/package-lock.json
	@if command -v npm >/dev/null 2>&1; then npm ci --prefix examples/js --no-audit --no-fund; \
	else echo "npm not found: the JavaScript example bot's test needs its ws package (install Node.js and npm)"; fi

# The rules engine compiled with mypyc (tools/compile_engine.py, about 30 s), again whenever one of its
# modules changed; if it cannot be compiled (no C compiler), it runs as the pure Python it is.
games/engine/.compiled: $(BIN)/.installed $(wildcard games/engine/*.py) games/compiled_engine.py tools/compile_engine.py
	@$(BIN)/python tools/compile_engine.py || { $(BIN)/python tools/compile_engine.py --clean; \
		echo "the engine could not be compiled: it runs as pure Python (slower, the same rules)"; }

install: $(BIN)/.installed node_modules/.package-lock.json examples/js/node_modules/.package-lock.json \
	games/engine/.compiled

# uvicorn's websocket options, for `run` and `prod` alike. --ws-max-size: uvicorn refuses a websocket
# frame larger than the app reads (games/socket_limits.py, CLOSE_MESSAGE_BYTES) itself, instead of reading up
# to 16 MiB first.
UVICORN_WS := --ws websockets-sansio --ws-per-message-deflate false --ws-max-size 65536

# The development site is served as production's is (uvicorn: a socket's close reason reaches the page,
# which Daphne's runserver drops), reloaded when the code changes; WhiteNoise serves static files (DEBUG).
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo --site http://$(HOST):$(PORT)
	$(BIN)/uvicorn config.asgi:application --host $(HOST) --port $(PORT) $(UVICORN_WS) \
		--reload --reload-dir config --reload-dir games --reload-dir tournament --reload-dir access_tokens

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
			$(UVICORN_WS) --proxy-headers --no-access-log'

test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy games/engine

bench-engine: install
	$(BIN)/python bench/engine.py

bench-live: install  # needs DATABASE_URL and REDIS_URL; see docs/performance.md
	$(BIN)/python bench/live.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache node_modules
