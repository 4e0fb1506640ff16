"""A disk cache of compact image products, so a fresh process or a second worker does not redraw
what an earlier one drew.

On by default, in ``<cache root>/images`` where the cache root is ``$MMTSB_CACHE_DIR`` (default
``~/.cache/mmtsb_env``, the base world's and tool schemas' cache). ``$MMTSB_IMAGE_CACHE_DIR`` names
another folder; ``""`` in either variable turns it off, as does :func:`use` with ``None``. It holds
the values :data:`~mmtsb_env.vision.assets.PRODUCTS` holds -- the image fitted to the model's
resolution (raw ``uint8``), its PNG data URL and its size -- for images whose content key is a render
spec or derived from one (a crop of a drawn receipt); tool-made and file images stay in memory.

* **Keyed by content and code**: an entry's name is a hash of its product key (the render
  spec's canonical JSON, the operation and its pixel arguments, the resolution), inside a folder
  named by a hash of everything that shapes pixels: the source of the renderers and visual
  tools, and the Python, numpy, Pillow and OpenCV versions. A change of any of them reads
  another folder, so a stale entry is never read.
* **Verified on read**: each file starts with the length and the CRC-32 of the rest (a
  checksum made for accidental damage, ~6x cheaper than a cryptographic digest); a file that is
  truncated, corrupt or of another format is ignored, and the product is made and written again.
* **Written atomically** (a temporary file renamed), so concurrent processes never read a
  partial file.
* **Bounded**: ``$MMTSB_IMAGE_CACHE_MB`` (default 512) caps the whole cache, every code version's
  folder included. A process's first write, and every further eighth of the cap it writes,
  prunes the least recently used entries (a read refreshes an entry's time; a stale version's
  entries are never read, so they go first) until the cache holds at most three quarters of the cap.
  Pruning touches only what this module writes (code-version folders, buckets and entries by their
  hex names), never other files in a folder a user named.

Loading a fitted 336x336 image (~245 kB) takes ~0.15 ms (one read and the checksum, no decode;
a PNG decode of it would be ~4 ms), against 20-50 ms to draw it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import struct
import sys
import threading
import time
import zlib
from pathlib import Path
from typing import Any, Hashable

import numpy as np

DIR_ENV = "MMTSB_IMAGE_CACHE_DIR"  # the folder ("" turns the cache off); unset: <cache root>/images
ROOT_ENV = "MMTSB_CACHE_DIR"  # the cache root shared with the base world and tool schemas ("" : off)
SIZE_ENV = "MMTSB_IMAGE_CACHE_MB"  # the cap in MiB (default 512)
DEFAULT_MB = 512
_HEADER = struct.Struct("<QI")  # payload length, CRC-32 of the payload
_VERSION = re.compile(r"[0-9a-f]{20}")  # a code_version() folder
_BUCKET = re.compile(r"[0-9a-f]{2}")
_ENTRY = re.compile(r"[0-9a-f]{32}(\.\d+\.\d+\.tmp)?")  # an entry, or one being written (see store)
_lock = threading.Lock()
_folder: Path | None = None
_configured = False
_written = 0  # bytes this process wrote since its last prune
_pruned = False


def use(root: str | os.PathLike[str] | None) -> None:
    """Turn the disk cache on (products kept under ``root``) or off (``None``)."""
    global _folder, _configured, _written, _pruned
    with _lock:
        _folder = Path(root) / code_version() if root else None
        _configured, _written, _pruned = True, 0, False


def default_root() -> Path | None:
    """Where the cache lives when no :func:`use` chose: from the environment (None: off)."""
    own = os.environ.get(DIR_ENV)
    if own is not None:
        return Path(own) if own else None
    shared = os.environ.get(ROOT_ENV)
    if shared == "":
        return None
    return (Path(shared) if shared else Path.home() / ".cache" / "mmtsb_env") / "images"


def folder() -> Path | None:
    """The folder entries are read from and written to (None: off)."""
    if not _configured:
        use(default_root())
    return _folder


def cap_bytes() -> int:
    """The most the cache folder may hold (``$MMTSB_IMAGE_CACHE_MB``; a bad value: the default)."""
    try:
        mb = float(os.environ.get(SIZE_ENV, DEFAULT_MB))
    except ValueError:
        mb = DEFAULT_MB
    return int(max(mb, 0) * 2**20)


def prune(limit: int | None = None) -> int:
    """Remove the least recently used entries, over every code version's folder (stale versions are
    never read again, so they age out first), until the cache holds at most ``limit`` bytes
    (default: three quarters of the cap), and temporary files left by a crashed writer. Returns the
    bytes removed. Errors (a file another process removed) are skipped."""
    current = folder()
    if current is None:
        return 0
    limit = int(0.75 * cap_bytes()) if limit is None else limit
    removed = 0
    abandoned = time.time() - 3600
    entries: list[tuple[float, int, Path]] = []
    # only what this module writes is touched: the folder may be one a user named and share it with other files
    versions = [v for v in _scan(current.parent) if _VERSION.fullmatch(v.name) and v.is_dir(follow_symlinks=False)]
    for version in versions:
        for bucket in _scan(Path(version.path)):
            if not _BUCKET.fullmatch(bucket.name):
                continue
            for entry in _scan(Path(bucket.path)):
                kind = _ENTRY.fullmatch(entry.name)
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if kind is None or not stat.S_ISREG(st.st_mode):
                    continue
                if kind.group(1):  # a temporary file
                    if st.st_mtime < abandoned:
                        removed += _unlink(Path(entry.path), st.st_size)
                    continue
                entries.append((st.st_mtime, st.st_size, Path(entry.path)))
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries, key=lambda e: e[0]):
        if total <= limit:
            break
        gone = _unlink(path, size)
        removed += gone
        total -= gone
    for version in versions:
        if version.name != current.name:
            _rmdirs(Path(version.path))  # only what pruning emptied
    return removed


def _scan(path: Path) -> list[os.DirEntry]:
    try:
        with os.scandir(path) as it:
            return list(it)
    except OSError:
        return []


def _unlink(path: Path, size: int) -> int:
    try:
        path.unlink()
        return size
    except OSError:
        return 0


def _rmdirs(path: Path) -> None:
    for bucket in _scan(path):
        try:
            os.rmdir(bucket.path)
        except OSError:
            pass
    try:
        os.rmdir(path)
    except OSError:
        pass


def code_version() -> str:
    """A hash of what shapes the pixels: renderer and visual-tool sources and library versions
    (Pillow's and OpenCV's read from their version files, so a cache hit never imports them)."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted([*here.glob("render/*.py"), here / "store.py", here / "tools.py", here / "fonts.py"]):
        digest.update(path.name.encode() + path.read_bytes())
    digest.update(f"{sys.version_info[:2]} numpy {np.__version__}".encode())
    for package, version_file in (("PIL", "_version.py"), ("cv2", "version.py")):
        digest.update(package.encode() + _package_file(package, version_file))
    return digest.hexdigest()[:20]


def _package_file(package: str, name: str) -> bytes:
    """The bytes of file ``name`` in an installed package, without importing it (b"?" if absent)."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return b"?"
    for location in spec.submodule_search_locations:
        try:
            return (Path(location) / name).read_bytes()
        except OSError:
            continue
    return b"?"


def has(key: Hashable) -> bool:
    """Whether an entry for ``key`` is on disk (not checked for damage: :func:`load` does that)."""
    path = _path(key)
    return path is not None and path.is_file()


def persistent(key: Hashable) -> bool:
    """Whether a product key names content that is the same in every process: a render spec, or
    an image derived from one."""
    content = key[0] if isinstance(key, tuple) and key else None
    while isinstance(content, tuple) and content and content[0] == "derived":
        content = content[1]
    return isinstance(content, tuple) and len(content) == 2 and content[0] == "render"


def _path(key: Hashable) -> Path | None:
    root = folder()
    if root is None or not persistent(key):
        return None
    name = hashlib.sha256(repr(key).encode()).hexdigest()[:32]
    return root / name[:2] / name


def _encode(value: Any) -> bytes | None:
    if isinstance(value, np.ndarray) and value.dtype == np.uint8 and value.ndim == 3:
        return b"A" + struct.pack("<3I", *value.shape) + np.ascontiguousarray(value).tobytes()
    if isinstance(value, bytes):
        return b"B" + value
    if isinstance(value, str):
        return b"S" + value.encode("utf-8")
    if isinstance(value, tuple) and all(isinstance(v, int) for v in value):
        return b"T" + json.dumps(list(value)).encode()
    return None


def _decode(payload: memoryview) -> Any:
    kind, body = bytes(payload[:1]), payload[1:]
    if kind == b"A":
        shape = struct.unpack_from("<3I", body)
        return np.frombuffer(body, np.uint8, offset=12).reshape(shape)  # read-only, like a made product
    if kind == b"B":
        return bytes(body)
    if kind == b"S":
        return str(body, "utf-8")
    if kind == b"T":
        return tuple(int(v) for v in json.loads(bytes(body)))
    raise ValueError(f"unknown entry kind {kind!r}")


def load(key: Hashable) -> Any:
    """The stored value of ``key``, or None (off, not stored, or not readable intact)."""
    path = _path(key)
    if path is None:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) <= _HEADER.size:
        return None
    length, crc = _HEADER.unpack_from(data)
    payload = memoryview(data)[_HEADER.size:]
    if length != len(payload) or zlib.crc32(payload) != crc:
        return None  # truncated or corrupt: made again and rewritten
    try:
        os.utime(path)  # recently used: the last to be pruned
    except OSError:
        pass
    try:
        return _decode(payload)
    except (ValueError, struct.error, json.JSONDecodeError, TypeError):
        return None


def store(key: Hashable, value: Any) -> None:
    """Write ``value`` for ``key`` (atomically; failures are ignored: the cache is an optimisation)."""
    path = _path(key)
    payload = _encode(value) if path is not None else None
    if payload is None:
        return
    global _written, _pruned
    with _lock:
        due = not _pruned or _written >= cap_bytes() // 8
        if due:
            _pruned, _written = True, 0
        _written += len(payload)
    if due:
        prune()
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(_HEADER.pack(len(payload), zlib.crc32(payload)) + payload)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
