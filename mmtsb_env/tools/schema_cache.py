"""On-disk cache of the built-in tools' OpenAI schemas (``Tool.schema``).

Building a schema parses its function's signature, type hints and docstring (~0.2 ms a tool; a
nominal reset offers ~190 tools). A process reads the schemas earlier processes built from one
file in ``$MMTSB_CACHE_DIR`` (default ``~/.cache/mmtsb_env``, ``""`` disables it, as for the base
world), keyed by everything a schema is derived from: the source of the modules that define or
derive tools and of the schema code, the docstring parser's source and the python version. Any
edit to those files gives a new key, so a stale schema is never read. Only tools whose function
lives in a module the catalogue lists (:data:`~.catalog.SOURCES`) and is the registered one are
served, each checked against the module and qualified name it was stored under; tools registered
by user code are always parsed. Schemas built in a process that the file lacks are merged into it
when the process exits (atomically replaced; a lost race only costs a later rebuild).
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import os
import pickle
import sys
import threading
from pathlib import Path
from typing import Any

CACHE_DIR_ENV = "MMTSB_CACHE_DIR"
_PACKAGE = Path(__file__).resolve().parent.parent
# the sources a schema depends on (tool functions, their annotations' types, variants' derivations)
_SOURCES = ("apps/**/*.py", "tools/*.py", "world/*.py", "ui/tools.py", "users/tools.py", "vision/tools.py")

_lock = threading.Lock()
_state: dict[str, Any] = {"path": None, "stored": None, "new": {}, "hooked": False}


def fingerprint() -> str:
    """The cache key: a digest of the schema sources, the docstring parser and the python version."""
    digest = hashlib.blake2b(digest_size=12)
    for path in sorted(p for pattern in _SOURCES for p in _PACKAGE.glob(pattern)):
        digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    spec = importlib.util.find_spec("docstring_parser")
    if spec is not None and spec.origin:
        for path in sorted(Path(spec.origin).parent.glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(f"{sys.version_info[:2]}".encode())
    return digest.hexdigest()


def cache_path() -> Path | None:
    root = os.environ.get(CACHE_DIR_ENV)
    if root == "":
        return None
    folder = Path(root) if root else Path.home() / ".cache" / "mmtsb_env"
    return folder / f"tool_schemas_{fingerprint()}.pickle"


def _stored() -> dict[str, tuple[str, str, dict[str, Any]]]:
    """name -> (module, qualname, schema) from the cache file (read once per process)."""
    if _state["stored"] is None:
        path = _state["path"] = cache_path()
        stored: Any = {}
        if path is not None:
            try:
                with open(path, "rb") as f:
                    stored = pickle.load(f)
            except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
                stored = {}
        _state["stored"] = stored if isinstance(stored, dict) else {}
    return _state["stored"]


def _identity(tool: Any) -> tuple[str, str]:
    return getattr(tool.fn, "__module__", "") or "", getattr(tool.fn, "__qualname__", "") or ""


def lookup(tool: Any) -> dict[str, Any] | None:
    """The stored schema of ``tool`` (a built-in, registered tool), or None."""
    with _lock:
        entry = _stored().get(tool.name)
    if isinstance(entry, tuple) and len(entry) == 3 and entry[:2] == _identity(tool):
        return entry[2]
    return None


def remember(tool: Any, schema: dict[str, Any]) -> None:
    """Note a schema built in this process; it is added to the cache file at exit."""
    with _lock:
        if _state["path"] is None:
            return
        _state["new"][tool.name] = (*_identity(tool), schema)
        if not _state["hooked"]:
            _state["hooked"] = True
            atexit.register(save)


def save() -> None:
    """Merge the schemas built in this process into the cache file (atomic replace)."""
    with _lock:
        path, new = _state["path"], dict(_state["new"])
        _state["new"].clear()
    if path is None or not new:
        return
    try:
        with open(path, "rb") as f:
            current = pickle.load(f)  # what other processes added meanwhile
        current = current if isinstance(current, dict) else {}
    except Exception:  # absent or unreadable: start over
        current = {}
    merged = {**current, **new}
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            pickle.dump(merged, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        try:  # a read-only home, or a schema that does not pickle: the cache is only an optimisation
            tmp.unlink()
        except OSError:
            pass
    with _lock:
        _state["stored"] = {**(_state["stored"] or {}), **new}


def reset() -> None:
    """Forget what this process read or built (tests; the next lookup reads the file again)."""
    with _lock:
        _state.update(path=None, stored=None, new={})
