# Mnemo. Two commands do everything on a fresh machine: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: run test install system-deps services lint typecheck clean-data help bench

help:
	@echo "make run    - install, start the embedded database, migrate, demo data, serve on http://$(HOST):$(PORT)"
	@echo "make test   - install (Python and Debian packages), start the brokers if needed, run the whole suite"

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test,dev]"
	touch $(STAMP)

install: $(STAMP)

system-deps:
	bash scripts/system-deps.sh

services:
	bash scripts/ensure-services.sh

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py ensure_admin
	$(PY) manage.py load_demo
	@echo "Mnemo on http://$(HOST):$(PORT)/  admin: /admin/  API docs: /api/docs/  (Ctrl-C stops it)"
	$(PY) manage.py runserver $(HOST):$(PORT)

test: install system-deps services
	$(PY) -m pytest $(PYTEST_ARGS)

# Benchmarks (not part of the tests): BENCH_ARGS=--quick for a small run.
BENCH_ARGS ?=
bench: install system-deps
	$(PY) bench/run.py $(BENCH_ARGS)
	$(PY) bench/report.py

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install
	$(VENV)/bin/mypy

clean-data:
	rm -rf var
