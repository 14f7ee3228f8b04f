# Showdown: the two set-up commands are `make run` and `make test`.
# Both install whatever is missing first (Python venv, npm packages, Chromium for e2e).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMPS := .stamps
HOST   ?= 127.0.0.1
PORT   ?= 8000
DATA   ?= .data

# pytest over both cores (pytest-xdist); an idle worker takes tests queued for the others,
# so a file of slow tests does not keep one worker busy alone. The slowest tests are listed.
# PYTEST_WORKERS=3 was tried for the whole suite (its slow tests wait on the processes
# they start): in the same period on the loaded machine pytest took over 25 min against
# 20.8 with two (each worker loads the AI's priors, about 16 s of CPU), so two it is.
PYTEST_WORKERS ?= 2
PYTEST_ARGS ?= --dist worksteal --durations=25

# Python keeps our modules' bytecode (__pycache__, git-ignored): the tests start hundreds
# of Python processes (servers, workers, the embedded database, the CLI), and an
# environment with PYTHONDONTWRITEBYTECODE set would have each compile our code again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test test-unit test-integration test-e2e test-full bench lint typecheck pytest \
	frontend-test e2e install frontend-build clean rest-types checks test-deps checks-niced

$(STAMPS):
	mkdir -p $(STAMPS)

# Python environment: one venv with every extra (server, ai, embedded db, the gauntlet's
# external agents, dev tools). Not byte-compiled at install (--no-compile): pip compiled
# every module of every package (torch's thousands), half the install's time (66 s against
# 31 s in a fresh clone); Python compiles the modules we import the first time, and keeps
# them (PYTHONDONTWRITEBYTECODE is unexported above).
$(STAMPS)/python: pyproject.toml | $(STAMPS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e '.[server,embedded-db,ai,gauntlet,dev]'
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

# The AI's numba kernels compiled once into numba's disk cache (next to their sources),
# before the processes that use them start: a fresh clone's e2e server runs two worker
# processes and pytest two workers, and each would compile the same kernels at once (about
# 30 s of CPU each); they load them instead. Redone when the AI's code changes.
$(STAMPS)/kernels: $(STAMPS)/python $(shell find ai -name '*.py' 2>/dev/null)
	$(BIN)/python -m ai.worker.kernels
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
pytest: $(STAMPS)/python $(STAMPS)/frontend-build $(STAMPS)/chromium $(STAMPS)/kernels
	$(BIN)/pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

# Pure code in one process: the quick loop while working (under a minute).
test-unit: $(STAMPS)/python
	$(BIN)/pytest -m unit -n 2 $(PYTEST_ARGS)

# The embedded database, real servers and sockets, subprocesses, and the slow tests.
test-integration: $(STAMPS)/python $(STAMPS)/frontend-build $(STAMPS)/chromium $(STAMPS)/kernels
	$(BIN)/pytest -m integration -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

# Frontend: strict type-check (app and e2e code), then Vitest once (components, protocol client).
frontend-test: $(STAMPS)/npm
	if [ -f frontend/package.json ]; then cd frontend && npm run typecheck && npm test; fi

# Browser end-to-end tests (frontend/e2e): Playwright drives Debian's Chromium against a
# `showdown serve` that the runner starts on a free port with a temporary data dir and
# stops afterwards. Screenshots land in frontend/test-results/screenshots. The layout
# matrix (every seat count at both sizes) is sampled; LAYOUT_FULL=1 measures all of it.
LAYOUT_FULL ?= 0
e2e test-e2e: $(STAMPS)/python $(STAMPS)/frontend-build $(STAMPS)/chromium $(STAMPS)/kernels
	cd frontend && CHROMIUM_PATH=$$(command -v chromium) SHOWDOWN_BIN=$(CURDIR)/$(BIN)/showdown \
		LAYOUT_FULL=$(LAYOUT_FULL) npx playwright test

# Every tier: lint, types, Python (unit and integration), frontend, browser. Each part's
# output is shown whole once it ends.
# First everything is installed at once (the venv beside npm's packages and the build).
# Then the browser tests run beside the checks (ruff, mypy, ESLint, tsc, Vitest, at a
# lower priority, nice): the browser tests mostly wait on their server (two spec files at
# a time, about half a core of 2), the checks keep one core busy, and both leave the CPU to
# pytest, which comes last (pytest beside the browser tests doubled its slow tests in
# fresh clones and was no quicker). The AI's kernels are compiled once before the
# browser tests start (beside the checks). Compiled beside npm and the build instead,
# the checks ran beside the whole browser run: 14:15 against 12:52 in fresh clones
# (Playwright 5.0 against 4.2 min; 2026-11-29).
TEST_NICE ?= 10
test:
	$(MAKE) --no-print-directory -j3 --output-sync=target test-deps
	$(MAKE) --no-print-directory -j2 --output-sync=recurse e2e checks-niced
	$(MAKE) --no-print-directory pytest

test-deps: $(STAMPS)/python $(STAMPS)/npm $(STAMPS)/frontend-build $(STAMPS)/chromium

checks-niced:
	nice -n $(TEST_NICE) $(MAKE) --no-print-directory checks

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
