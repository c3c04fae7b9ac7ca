# The two README commands: `make serve` and `make test`. Each one creates the
# virtualenv and installs what it needs, so they work on a fresh clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install serve check chromium test clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[server,test]"
	touch $(STAMP)

install: $(STAMP)

serve: $(STAMP)
	$(BIN)/haki serve

# Static gates first: lint, formatting, mypy --strict over src/haki (settings in
# pyproject.toml) and the import-layer contract, so CI and a newcomer run the same thing.
check: $(STAMP)
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/unit/test_layers.py

# The console's browser tests drive Debian's chromium (Playwright never
# downloads a browser here): installed when missing if we are root.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else echo "chromium is missing: run 'sudo apt-get install -y chromium' (the console tests need it)" >&2; exit 1; fi; }

test: check chromium
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache
