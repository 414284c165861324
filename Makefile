# Mnemo. Two commands do everything on a fresh machine: `make run` and `make test`.
SHELL := /bin/bash
# The newest supported Python found (3.13, 3.12, 3.11: scripts/find-python.sh), or PYTHON=...
PYTHON ?= $(shell bash scripts/find-python.sh)
PYVER := $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
VENV := .venv
PY := $(VENV)/bin/python
# One stamp per Python version: switching PYTHON rebuilds the virtualenv.
STAMP := $(VENV)/.installed-$(PYVER)
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# The fast tests, run on the other supported Pythons in CI: no browser, no worker, no broker, no
# real server stack, no docs (their samples run against a live server; those run once, on the
# main Python).
FAST_TESTS ?= -m "not worker and not broker and not typecheck and not complexity" --ignore=tests/browser --ignore=tests/serving --ignore=tests/bench --ignore=tests/docs -p no:cacheprovider

.PHONY: run dev test install system-deps services lint typecheck clean-data help bench bench-peers test-other-pythons docs docs-serve

help:
	@echo "make run    - install, start the embedded database, migrate, demo data, serve on http://$(HOST):$(PORT)"
	@echo "make dev    - the same with Django's development server (autoreload, DEBUG on)"
	@echo "make test   - install (Python and Debian packages), start the brokers if needed, run the whole suite"
	@echo "make docs   - build the documentation site (docs/, mkdocs.yml) into site/; make docs-serve serves it"

$(STAMP): pyproject.toml clients/python/pyproject.toml
	@test -n "$(PYVER)" || { echo "PYTHON=$(PYTHON) does not run" >&2; exit 1; }
	@if [ -x $(PY) ] && [ "$$($(PY) -c 'import sys; print("%d.%d" % sys.version_info[:2])')" != "$(PYVER)" ]; then \
		echo "$(VENV) was made with another Python; making it again with $(PYTHON)"; rm -rf $(VENV); fi
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test,dev]"
	$(PY) -m pip install --quiet -e ./clients/python
	touch $(STAMP)

install: $(STAMP)

system-deps:
	bash scripts/system-deps.sh

services:
	bash scripts/ensure-services.sh

# gunicorn (uvicorn workers) + a Celery worker with beat, on the embedded PostgreSQL, which also
# carries the queue: scripts/serve.py. Ctrl-C or SIGTERM stops everything, the database last.
run: install
	exec $(PY) scripts/serve.py --host $(HOST) --port $(PORT)

dev: install
	exec $(PY) scripts/serve.py --dev --host $(HOST) --port $(PORT)

test: install system-deps services
	$(PY) -m pytest $(PYTEST_ARGS)
	@if [ "$${CI:-}" = "true" ]; then $(MAKE) --no-print-directory test-other-pythons; fi

# The fast tests on every other supported Python found (CI runs this after the whole suite).
test-other-pythons:
	@for other in $$(bash scripts/find-python.sh --all); do \
		ver=$$($$other -c 'import sys; print("%d.%d" % sys.version_info[:2])'); \
		[ "$$ver" = "$(PYVER)" ] && continue; \
		echo "== fast tests on Python $$ver ($$other)"; \
		venv=.venv-$$ver; \
		test -x $$venv/bin/python || $$other -m venv $$venv || exit 1; \
		$$venv/bin/python -m pip install --quiet --upgrade pip || exit 1; \
		$$venv/bin/python -m pip install --quiet ".[test]" -e ./clients/python || exit 1; \
		$$venv/bin/python -m pytest $(FAST_TESTS) || exit 1; \
	done

# Benchmarks (not part of the tests): BENCH_ARGS=--quick for a small run.
BENCH_ARGS ?=
bench: install system-deps
	$(PY) bench/run.py $(BENCH_ARGS)
	$(PY) bench/report.py

# The documentation site (MkDocs + Material): built strictly, as tests/docs/ build it in make test.
DOCS_PORT ?= 8001
docs: install
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

docs-serve: install
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs serve --strict --dev-addr $(HOST):$(DOCS_PORT)

# Mem0 2.2.1 in process beside Mnemo over HTTP (bench/peers/run.py), in a virtualenv of its own:
# Mem0's embedder needs torch, which Mnemo does not. Python 3.11: the CPU build of torch 2.13.0
# lies on this machine's disk for it. PEERS_ARGS=--conversations 2 for a small run.
PEERS_PYTHON ?= $(shell command -v python3.11)
PEERS_VENV := .venv-peers
PEERS_ARGS ?=
$(PEERS_VENV)/.installed: bench/peers/requirements.txt
	@test -n "$(PEERS_PYTHON)" || { echo "bench-peers needs Python 3.11 (PEERS_PYTHON=...)" >&2; exit 1; }
	test -x $(PEERS_VENV)/bin/python || $(PEERS_PYTHON) -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(PEERS_VENV)/bin/python -m pip install --quiet -r bench/peers/requirements.txt
	touch $@

bench-peers: install $(PEERS_VENV)/.installed
	$(PEERS_VENV)/bin/python bench/peers/run.py --mnemo-python $(abspath $(PY)) $(PEERS_ARGS)
	$(PY) bench/report.py

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install
	$(VENV)/bin/mypy

clean-data:
	rm -rf var
