# Showdown: the two set-up commands are `make run` and `make test`.
# Both install whatever is missing first (Python venv, npm packages, Chromium for e2e).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMPS := .stamps
HOST   ?= 127.0.0.1
PORT   ?= 8000
DATA   ?= .data

# pytest over both cores (pytest-xdist); an idle worker takes tests queued for the other,
# so a file of slow tests does not keep one worker busy alone. The slowest tests are listed.
PYTEST_ARGS ?= -n 2 --dist worksteal --durations=25

.PHONY: run test test-unit test-integration test-e2e test-full bench lint typecheck pytest \
	frontend-test e2e install frontend-build clean rest-types checks

$(STAMPS):
	mkdir -p $(STAMPS)

# Python environment: one venv with every extra (server, ai, embedded db, the gauntlet's
# external agents, dev tools).
$(STAMPS)/python: pyproject.toml | $(STAMPS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[server,embedded-db,ai,gauntlet,dev]'
	touch $@

# Frontend packages and build (skipped while frontend/ has no package.json).
$(STAMPS)/npm: $(wildcard frontend/package.json frontend/package-lock.json) | $(STAMPS)
	if [ -f frontend/package.json ]; then cd frontend && npm ci --no-audit --no-fund; fi
	touch $@

$(STAMPS)/frontend-build: $(STAMPS)/npm docs/protocol.schema.json docs/openapi.json $(shell find frontend/src frontend/scripts frontend/index.html -type f 2>/dev/null)
	if [ -f frontend/package.json ]; then cd frontend && npm run build; fi
	touch $@

# Debian's Chromium for the browser tests (browser-downloading installers do not work here).
$(STAMPS)/chromium: | $(STAMPS)
	command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core)
	touch $@

install: $(STAMPS)/python $(STAMPS)/frontend-build

run: install
	$(BIN)/showdown serve --host $(HOST) --port $(PORT) --data-dir $(DATA)

# Python (ruff) and the web client (ESLint with React's hooks rules).
lint: $(STAMPS)/python $(STAMPS)/npm
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	if [ -f frontend/package.json ]; then cd frontend && npm run lint; fi

typecheck: $(STAMPS)/python
	$(BIN)/mypy

# Every Python test, both tiers (conftest.py gives each test its tier).
pytest: $(STAMPS)/python $(STAMPS)/frontend-build $(STAMPS)/chromium
	$(BIN)/pytest $(PYTEST_ARGS)

# Pure code in one process: the quick loop while working (under a minute).
test-unit: $(STAMPS)/python
	$(BIN)/pytest -m unit $(PYTEST_ARGS)

# The embedded database, real servers and sockets, subprocesses, and the slow tests.
test-integration: $(STAMPS)/python $(STAMPS)/frontend-build $(STAMPS)/chromium
	$(BIN)/pytest -m integration $(PYTEST_ARGS)

# Frontend: strict type-check (app and e2e code), then Vitest once (components, protocol client).
frontend-test: $(STAMPS)/npm
	if [ -f frontend/package.json ]; then cd frontend && npm run typecheck && npm test; fi

# Browser end-to-end tests (frontend/e2e): Playwright drives Debian's Chromium against a
# `showdown serve` that the runner starts on a free port with a temporary data dir and
# stops afterwards. Screenshots land in frontend/test-results/screenshots. The layout
# matrix (every seat count at both sizes) is sampled; LAYOUT_FULL=1 measures all of it.
LAYOUT_FULL ?= 0
e2e test-e2e: $(STAMPS)/python $(STAMPS)/frontend-build $(STAMPS)/chromium
	cd frontend && CHROMIUM_PATH=$$(command -v chromium) SHOWDOWN_BIN=$(CURDIR)/$(BIN)/showdown \
		LAYOUT_FULL=$(LAYOUT_FULL) npx playwright test

# Every tier: lint, types, Python (unit and integration), frontend, browser; pytest on both
# cores. Each part's output is shown whole once it ends.
# TEST_JOBS=2 runs the browser tests beside the checks: quicker on a quiet machine, but a
# fresh clone's AI worker then compiles its kernels for minutes beside mypy and two
# browsers; by default they run one after the other.
TEST_JOBS ?= 1
test: $(STAMPS)/python $(STAMPS)/npm $(STAMPS)/frontend-build $(STAMPS)/chromium
	$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=recurse e2e checks
	$(MAKE) --no-print-directory pytest

# The one-core checks, one after the other.
checks:
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory typecheck
	$(MAKE) --no-print-directory frontend-test

# `make test` with the whole browser layout matrix.
test-full:
	$(MAKE) test LAYOUT_FULL=1

# The REST API's OpenAPI document, from which the web client's REST types are generated.
rest-types: $(STAMPS)/python
	$(BIN)/python -m backend.openapi_doc --write docs/openapi.json

bench: install
	$(BIN)/showdown bench all

clean:
	rm -rf $(STAMPS) $(VENV) frontend/node_modules frontend/dist
