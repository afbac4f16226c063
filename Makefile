# Two commands on a fresh clone: `make run` and `make test` (see README.md).
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test test-fast lint bench bench-scale ladder lighthouse selfplay clean

install: $(STAMP)

$(STAMP): requirements.txt requirements-dev.txt
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed ($(PYTHON) not found); set PYTHON=/path/to/python3.11"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

# The site, a worker and beat under a supervisor that restarts what exits and stops everything once
# (dizzysite/supervise.py): RUN_ARGS="--bind 127.0.0.1:8001" and so on.
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo_accounts
	@echo "Stop everything with Ctrl-C. Another address: make run RUN_ARGS=\"--bind 127.0.0.1:8001\""
	exec $(PY) -m dizzysite.supervise $(RUN_ARGS)

test: install
	$(PY) -m pytest $(PYTEST_ARGS)

# The suite without what is long (the audit is `slow` too) or needs real parts (markers in pyproject.toml),
# on two processes (pytest-xdist): under 5 minutes on a 2-core machine. `make test` (CI) runs everything.
FAST := not slow and not browser and not integration

test-fast: install
	$(PY) -m pytest -n 2 -m "$(FAST)" $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports  # the layering of the apps (pyproject.toml [tool.importlinter])

bench: install
	$(PY) bench/run.py $(BENCH_ARGS)

# A million matches built by COPY beside a small database, both measured (bench/scale.py);
# SCALE_ARGS="--scale 0.01" and so on. Not part of `make bench`: it takes most of 20 minutes.
bench-scale: install
	$(PY) bench/scale.py $(SCALE_ARGS)

# Lighthouse's accessibility score of every rules and tutorial page, English and Dutch (bench/lighthouse.py):
# installs the pinned Lighthouse into var/lighthouse/ and needs Node 20+ and chromium. Not part of `make test`.
lighthouse: install
	$(PY) bench/lighthouse.py $(LIGHTHOUSE_ARGS)

# The bots' round robin: LADDER_ARGS="--games 40 --budget 0.2 --jobs 2" and so on.
ladder: install
	$(PY) bench/ladder.py $(LADDER_ARGS)

selfplay: install
	$(PY) manage.py selfplay solitaire-chess --matches 20 --seed 1

clean:
	rm -rf var db.sqlite3 staticfiles
