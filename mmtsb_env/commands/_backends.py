"""Model backends checked before the first episode: each problem is one line saying what to do.

* ``--agent vllm`` on a model folder (in-process) where vLLM is not importable: vLLM pins its own torch and transformers, so it
  lives in the environment ``scripts/setup_vllm_env.sh`` builds. The command re-runs itself with
  that environment's python (``$MMTSB_VLLM_PYTHON``, else :data:`DEFAULT_VLLM_VENV`), this
  checkout first on its path; without one it says how to build it.
* ``--model`` that names a folder (``./m``, ``/models/x``, ``~/m``) which does not exist.
* ``--base-url`` of a server that does not answer (``GET {base_url}/models``, 5 s).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Optional

from ._common import fail

DEFAULT_VLLM_VENV = Path.home() / ".cache" / "mmtsb" / "venv-vllm"
_REEXEC_FLAG = "MMTSB_IN_VLLM_ENV"
_REPO = Path(__file__).resolve().parents[2]


def vllm_python() -> Optional[Path]:
    """The python of the vLLM environment, when there is one."""
    named = os.environ.get("MMTSB_VLLM_PYTHON")
    candidate = Path(named).expanduser() if named else DEFAULT_VLLM_VENV / "bin" / "python"
    return candidate if candidate.is_file() and os.access(candidate, os.X_OK) else None


def ensure_vllm() -> None:
    """Return when ``import vllm`` works here; else re-run this command in the vLLM environment, or fail."""
    if importlib.util.find_spec("vllm") is not None:
        return
    python = vllm_python()
    if python is None or os.environ.get(_REEXEC_FLAG):
        where = f"MMTSB_VLLM_PYTHON={os.environ['MMTSB_VLLM_PYTHON']}" if os.environ.get("MMTSB_VLLM_PYTHON") else str(DEFAULT_VLLM_VENV)
        fail(f"--agent vllm needs vLLM, which lives in its own environment and none was found at {where}: "
             f"build it with `bash scripts/setup_vllm_env.sh {DEFAULT_VLLM_VENV}` (or set MMTSB_VLLM_PYTHON to its python), "
             "or serve the model and use --agent openai --base-url URL")
    print(f"vLLM is not installed here; running this command with the vLLM environment's python ({python})", file=sys.stderr)
    env = {**os.environ, _REEXEC_FLAG: "1",
           "PYTHONPATH": os.pathsep.join(p for p in (str(_REPO), os.environ.get("PYTHONPATH", "")) if p)}
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(str(python), [str(python), "-m", "mmtsb_env.cli", *sys.argv[1:]], env)


def _path_like(model: str) -> bool:
    return model.startswith((".", "/", "~"))


def check_model_dir(flag: str, model: Optional[str]) -> None:
    """A ``--model`` that names a folder must exist (a bare hub-style ``org/name`` is left to the backend)."""
    if model and _path_like(model) and not Path(model).expanduser().exists():
        fail(f"{flag} {model}: no such folder; give the folder of a downloaded model")


def check_server(flag: str, base_url: Optional[str], timeout: float = 5.0) -> None:
    """The server at ``base_url`` answers ``GET /models`` (any HTTP status counts as an answer)."""
    if not base_url:
        return
    import urllib.error
    import urllib.request

    url = base_url.rstrip("/") + "/models"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="GET"), timeout=timeout):
            pass
    except urllib.error.HTTPError:
        return  # it answered
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        fail(f"{flag} {base_url}: cannot reach the model server ({reason}); start it (e.g. `vllm serve MODEL`) "
             "or fix the URL")
