# The two README commands: `make serve` and `make test`. Each one creates the
# virtualenv and installs what it needs, so they work on a fresh clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

NODE_SDK   := sdk/typescript
NODE_STAMP := $(NODE_SDK)/node_modules/.installed

.PHONY: install serve check chromium node test slow faults hosts clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[server,test,otel,langgraph,openai-agents]"
	# Engram's static embedding table, distilled once per machine from the bundled model.
	$(BIN)/engram distil
	touch $(STAMP)

# The TypeScript SDK's dev dependencies (typescript, nothing at run time),
# exactly as package-lock.json pins them.
$(NODE_STAMP): $(NODE_SDK)/package.json $(NODE_SDK)/package-lock.json
	cd $(NODE_SDK) && npm ci --no-audit --no-fund --silent
	touch $(NODE_STAMP)

node: $(NODE_STAMP)

install: $(STAMP) $(NODE_STAMP)

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

# The test stages, each a target that .ci/run calls in turn; every test belongs
# to exactly one of them (tests/unit/test_stages.py checks this Makefile and
# .ci/run):
# - `make test`: the suite, minus the three stages below. The TypeScript SDK's
#   `npm test` runs inside it (tests/integration/frameworks/test_typescript_sdk.py),
#   against a live server.
# - `make slow`: the tests marked `slow` (@pytest.mark.slow), whole installs and
#   fuzzing that cost minutes each: the fresh-venv installs (tests/install) and
#   schemathesis, auth off then on (tests/integration/api/test_schemathesis.py).
#   Same paths as `make test`, the other half of the marker, so a test is in
#   one or the other.
# - `make faults`: tests/faults (kill -9 of the postmaster under --workers, a
#   full disk).
# - `make hosts`: tests/hosts (Engram and the MCP installs inside Claude Code,
#   Codex and Gemini CLI from npm).
# --durations: each run's log names its slowest tests, where the next cut starts.
STAGE_ARGS := --ignore=tests/faults --ignore=tests/hosts --durations=25

test: check chromium node
	$(BIN)/python -m pytest -q -m "not slow" $(STAGE_ARGS) $(PYTEST_ARGS)

slow: $(STAMP) chromium node
	$(BIN)/python -m pytest -q -m slow $(STAGE_ARGS) $(PYTEST_ARGS)

faults: $(STAMP)
	$(BIN)/python -m pytest -q tests/faults

hosts: $(STAMP)
	$(BIN)/python -m pytest -q tests/hosts

clean:
	rm -rf $(VENV) .pytest_cache $(NODE_SDK)/node_modules $(NODE_SDK)/dist
