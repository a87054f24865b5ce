# Set-up and everyday commands. `make test` works on a fresh machine: it creates .venv,
# installs the CPU build of torch first (a bare `torch` would pull CUDA wheels), then the
# project with its test extras, Ray/RLlib (their tests start a local Ray) and android-env (the
# AndroidWorld/AndroidEnv adapters), and runs the suite.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup run test test-quick bench bench-memory clean

# The editable install hides setuptools' 10-line notice that every editable install prints
# ("Editable installation": beware of folders named as the package); pip >= 26 shows it.
$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip setuptools wheel
	$(PY) -m pip install --quiet torch==2.13.0
	PYTHONWARNINGS='ignore:Editable installation:UserWarning' $(PY) -m pip install --quiet -e '.[test,rllib,androidworld]'
	touch $(STAMP)

setup: $(STAMP)

# The main job on the simulated phone: the oracle and the random agent on every simulator
# task, 2 workers; each run writes episodes.jsonl, episodes.csv, summary.json, the charts
# and report.html, and keeps its traces with the observed (270x600) screenshots: enough
# for the report and light (LlamaTouch's own evaluator needs --trace-screenshots device).
RUN := runs/$(shell date +%Y%m%d-%H%M%S)
RUN_FLAGS := --seeds 2 --workers 2 --save-traces --trace-screenshots observation
run: $(STAMP)
	$(PY) -m mobile_gym run --agent oracle $(RUN_FLAGS) --out $(RUN)/oracle
	$(PY) -m mobile_gym run --agent random $(RUN_FLAGS) --out $(RUN)/random

# One pytest worker per core (at most four), each taking whole test files, so a module's
# fixtures (a loaded model, a built dataset) are made once.
XDIST := --numprocesses=auto --maxprocesses=4 --dist=loadfile

test: $(STAMP)
	$(PY) -m pytest $(XDIST)

test-quick: $(STAMP)
	$(PY) -m pytest $(XDIST) -m "not slow"

bench: $(STAMP)
	$(PY) benchmarks/bench_evaluator.py
	$(PY) benchmarks/bench_rejudge.py
	$(PY) benchmarks/bench_simulator.py
	$(PY) benchmarks/bench_runner.py
	$(PY) benchmarks/bench_env_resources.py
	$(PY) benchmarks/bench_policy_envs.py
	$(PY) benchmarks/bench_device_step.py
	$(PY) benchmarks/bench_agents.py
	$(PY) benchmarks/bench_memory.py --steps 50000 --every 5000

# RSS over a million env steps (about half an hour): the curve as CSV and PNG under runs/.
bench-memory: $(STAMP)
	mkdir -p runs
	$(PY) benchmarks/bench_memory.py --steps 1000000 --every 10000 --csv $(RUN)-memory.csv --plot $(RUN)-memory.png

clean:
	rm -rf $(VENV) build dist *.egg-info
