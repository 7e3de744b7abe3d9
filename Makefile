# Developer commands; CONTRIBUTING.md says what each is for. Run inside the venv
# (python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[dev]').

.PHONY: check format lint types contracts test test-quick

check:  ## everything CI runs: format check, lint, types, import contracts, the whole suite
	bash .ci/check

format:  ## rewrite the tree with ruff format and apply ruff's safe fixes
	ruff format .
	ruff check --fix .

lint:
	ruff format --check .
	ruff check .

types:
	bash .ci/typecheck

contracts:
	lint-imports --no-cache

test:  ## the README's test command: the whole suite in parallel
	python -m pytest -q -n 4

test-quick:  ## everything but the tests marked slow
	python -m pytest -q -n 4 -m "not slow"
