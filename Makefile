# The whole set-up is two commands: `make run` and `make test` (see README.md).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export DJANGO_DEBUG ?= 1

.PHONY: run test lint migrate demo messages bench clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Re-install only when a requirements file changed (stamp files).
$(VENV)/.runtime-installed: requirements.txt | $(VENV)/bin/python
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt | $(VENV)/bin/python
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.runtime-installed

migrate: $(VENV)/.runtime-installed
	mkdir -p var
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py demo

# Where `make run` serves: `make run PORT=8123` when 8000 is taken, `HOST=0.0.0.0` to open it from
# a tablet on the same network. Set here, not from the environment: a shell's own HOST is a
# machine name, not an address to listen on (the command line still wins).
HOST = 127.0.0.1
PORT = 8000

run: demo
	bin/run $(HOST) $(PORT)

lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

# One pytest-xdist worker per core; each has its own test database (and Redis database). An idle
# worker takes tests queued for a busy one (worksteal), so a few long tests do not end the run alone.
TEST_WORKERS ?= auto

test: lint
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal --durations=10

# Translators: regenerate the Slovak catalogue, then compile it (needs GNU gettext).
messages: $(VENV)/.dev-installed
	$(PY) manage.py makemessages -l sk --ignore=.venv --ignore=var --ignore=tests --ignore=test-artifacts
	$(PY) manage.py compilemessages -l sk

bench: $(VENV)/.dev-installed
	$(PY) bench/run_all.py

clean:
	rm -rf var .pytest_cache .ruff_cache .import_linter_cache
