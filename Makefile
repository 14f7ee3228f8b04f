# Showdown: the two set-up commands are `make run` and `make test`.
# Both install whatever is missing first (Python venv, npm packages, Chromium for e2e).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMPS := .stamps
HOST   ?= 127.0.0.1
PORT   ?= 8000
DATA   ?= .data

.PHONY: run test bench lint typecheck pytest frontend-test e2e install frontend-build clean

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

$(STAMPS)/frontend-build: $(STAMPS)/npm docs/protocol.schema.json $(shell find frontend/src frontend/scripts frontend/index.html -type f 2>/dev/null)
	if [ -f frontend/package.json ]; then cd frontend && npm run build; fi
	touch $@

# Debian's Chromium for the browser tests (browser-downloading installers do not work here).
$(STAMPS)/chromium: | $(STAMPS)
	command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core)
	touch $@

install: $(STAMPS)/python $(STAMPS)/frontend-build

run: install
	$(BIN)/showdown serve --host $(HOST) --port $(PORT) --data-dir $(DATA)

lint: $(STAMPS)/python
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMPS)/python
	$(BIN)/mypy

pytest: $(STAMPS)/python $(STAMPS)/frontend-build $(STAMPS)/chromium
	$(BIN)/pytest

# Frontend: strict type-check (app and e2e code), then Vitest once (components, protocol client).
frontend-test: $(STAMPS)/npm
	if [ -f frontend/package.json ]; then cd frontend && npm run typecheck && npm test; fi

# Browser end-to-end tests (frontend/e2e): Playwright drives Debian's Chromium against a
# `showdown serve` that the runner starts on a free port with a temporary data dir and
# stops afterwards. Screenshots land in frontend/test-results/screenshots.
e2e: $(STAMPS)/python $(STAMPS)/npm $(STAMPS)/chromium
	cd frontend && CHROMIUM_PATH=$$(command -v chromium) SHOWDOWN_BIN=$(CURDIR)/$(BIN)/showdown npm run e2e

test: lint typecheck pytest frontend-test e2e

bench: install
	$(BIN)/showdown bench all

clean:
	rm -rf $(STAMPS) $(VENV) frontend/node_modules frontend/dist
