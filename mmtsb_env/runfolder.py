"""A run folder written episode by episode, so an interrupted run can be resumed.

Layout (``mmtsb eval --out DIR``)::

    DIR/run.json          the run's metadata (:func:`mmtsb_env.provenance.run_metadata`)
    DIR/episodes.jsonl    one finished episode per line (``EpisodeRecord.to_json()`` + ``image_files``)
    DIR/images/<sha>.png  every captured image once, named by its content
    DIR/results.json      written at the end: metadata, summary, metrics and every episode
    DIR/trajectories.parquet, steps.parquet, report.md, report.json, plots/, viewer.html

A folder that already holds a run is never replaced silently: ``--resume`` continues it,
``--overwrite`` replaces it (only the files listed in :data:`RUN_FILES` / :data:`RUN_DIRS` are
removed), anything else is refused with one line naming both.

Each line of ``episodes.jsonl`` is final (judged) when written; :meth:`RunFolder.open` with
``resume=True`` reads them back so the runner skips those (scenario id, seed) pairs, after checking
that the run's settings are the same (:func:`mmtsb_env.provenance.comparable`).
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path
from typing import Any, Mapping

from .limits import json_line
from .provenance import comparable
from .runner import EpisodeRecord

METADATA_FILE = "run.json"
EPISODES_FILE = "episodes.jsonl"
IMAGES_DIR = "images"


class RunFolderError(ValueError):
    """The folder cannot be used as asked (settings differ from the run being resumed...)."""


class RunFolder:
    def __init__(self, path: Path, metadata: Mapping[str, Any]) -> None:
        self.path = Path(path)
        self.metadata = dict(metadata)
        self.records: list[EpisodeRecord] = []
        self._lock = threading.Lock()

    @classmethod
    def open(cls, path: str | Path, metadata: Mapping[str, Any], *, resume: bool = False,
             overwrite: bool = False) -> "RunFolder":
        """Start a run in ``path`` or, with ``resume``, continue the one there. A folder that holds
        a run (finished or partial) is refused unless ``resume`` or ``overwrite`` (which first
        removes that run's files); an unwritable folder is a :class:`RunFolderError` too."""
        folder = cls(Path(path), metadata)
        episodes = folder.path / EPISODES_FILE
        meta_path = folder.path / METADATA_FILE
        held = existing_run(folder.path)
        if held and not resume and not overwrite:
            raise RunFolderError(f"--out {path} already holds {held}; add --resume to continue it or --overwrite to replace it")
        try:
            if overwrite and held:
                _remove_run(folder.path)
            folder.path.mkdir(parents=True, exist_ok=True)
            probe = folder.path / f".write-test-{threading.get_ident()}"
            probe.write_text("", encoding="utf-8")
            probe.unlink()
        except OSError as exc:
            raise RunFolderError(f"--out {path}: cannot write there ({exc.strerror or type(exc).__name__}); "
                                 "choose a folder you can write to") from None
        if resume and meta_path.exists():
            old = json.loads(meta_path.read_text(encoding="utf-8"))
            differ = comparable(old, metadata)
            if differ:
                raise RunFolderError(f"--resume: {path} was run with other settings ({', '.join(differ)} differ); "
                                     "use the same options or another --out")
            folder.metadata = {**old, "seeds": sorted(set(old.get("seeds", [])) | set(metadata.get("seeds", []))),
                               "limit": metadata.get("limit"),
                               "resumed": [*old.get("resumed", []), metadata.get("timestamp")]}
            if episodes.exists():
                folder.records = [folder._load(line) for line in episodes.read_text(encoding="utf-8").splitlines() if line.strip()]
        else:
            episodes.write_text("", encoding="utf-8")
        meta_path.write_text(json.dumps(folder.metadata, indent=1, default=str), encoding="utf-8")
        return folder

    @property
    def finished(self) -> set[tuple[str, int]]:
        return {r.key for r in self.records}

    def add(self, record: EpisodeRecord) -> None:
        """Keep a finished episode: its images into ``images/``, its JSON as one line."""
        files = [self._store_image(png) for png in record.images]
        data = record.to_json()
        if files:
            data["image_files"] = files
        line = json_line(data)
        with self._lock:
            with (self.path / EPISODES_FILE).open("a", encoding="utf-8") as fh:
                fh.write(line + "\n")
            self.records.append(record)

    def image_files(self, record: EpisodeRecord) -> list[str]:
        """The ``images/...`` paths of a record's images (index = image id)."""
        return [f"{IMAGES_DIR}/{_digest(png)}.png" for png in record.images]

    def _store_image(self, png: bytes) -> str:
        name = f"{IMAGES_DIR}/{_digest(png)}.png"
        target = self.path / name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_suffix(f".{threading.get_ident()}.tmp")
            tmp.write_bytes(png)
            tmp.replace(target)
        return name

    def _load(self, line: str) -> EpisodeRecord:
        data = json.loads(line)
        record = EpisodeRecord.from_json(data)
        record.images = [(self.path / f).read_bytes() for f in data.get("image_files", [])]
        return record


RUN_FILES = (METADATA_FILE, EPISODES_FILE, "results.json", "trajectories.parquet", "steps.parquet", "report.md",
             "report.json", "viewer.html")
RUN_DIRS = (IMAGES_DIR, "plots")  # judge_cache/ stays: cached LLM verdicts are keyed by their evidence


def existing_run(path: Path) -> str | None:
    """What run ``path`` holds, in words (``"a finished run of 12 episodes"``), or None."""
    if not path.is_dir():
        return None
    episodes = path / EPISODES_FILE
    n = 0
    if episodes.exists():
        with episodes.open("rb") as fh:
            n = sum(1 for line in fh if line.strip())
    if (path / "results.json").exists():
        return f"a finished run ({n} episode(s) in {EPISODES_FILE})" if n else "a finished run (results.json)"
    if n or (path / METADATA_FILE).exists():
        return f"a partial run of {n} episode(s)"
    return None


def _remove_run(path: Path) -> None:
    """Delete the files a run writes (only those: anything else in the folder stays)."""
    import shutil

    for name in RUN_FILES:
        (path / name).unlink(missing_ok=True)
    for name in RUN_DIRS:
        if (path / name).is_dir():
            shutil.rmtree(path / name)


def _digest(png: bytes) -> str:
    return hashlib.sha256(png).hexdigest()[:20]
