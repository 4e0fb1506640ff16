"""Read exported trajectories back: as an Arrow table, as row batches, or as EpisodeRecords."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, Sequence

import pyarrow as pa
import pyarrow.parquet as pq

from .rows import ASSISTANT, USER
from .schema import SCHEMA_VERSION, file_version


class SchemaVersionError(ValueError):
    """The file was written by a newer (or unknown) schema version than this build reads."""


def _check(schema: pa.Schema, path: Any) -> None:
    version = file_version(schema)
    if version is None:
        raise SchemaVersionError(f"{path}: not an mmtsb_env trajectory file (no mmtsb.schema_version metadata)")
    if version > SCHEMA_VERSION:
        raise SchemaVersionError(f"{path}: schema version {version} is newer than this build reads ({SCHEMA_VERSION}); upgrade mmtsb_env")


def read_table(path: str | Path, *, columns: Sequence[str] | None = None) -> pa.Table:
    """The whole episode (or step) table of a file, or of every ``*.parquet`` in a folder."""
    path = Path(path)
    files = sorted(path.glob("*.parquet")) if path.is_dir() else [path]
    if not files:
        raise FileNotFoundError(f"{path}: no .parquet files")
    tables = []
    for f in files:
        _check(pq.read_schema(f), f)
        tables.append(pq.read_table(f, columns=list(columns) if columns else None))
    return pa.concat_tables(tables) if len(tables) > 1 else tables[0]


def iter_batches(path: str | Path, *, batch_size: int = 16, columns: Sequence[str] | None = None) -> Iterator[list[dict[str, Any]]]:
    """Stream a file as lists of row dicts, ``batch_size`` rows at a time (constant memory)."""
    f = pq.ParquetFile(path)
    _check(f.schema_arrow, path)
    for batch in f.iter_batches(batch_size=batch_size, columns=list(columns) if columns else None):
        yield batch.to_pylist()


def import_messages(messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Schema messages -> the record's OpenAI form (image parts as ``{"type": "image", "image_id": N}``)."""
    out = []
    for m in messages or []:
        parts = m.get("content") or []
        content: Any
        if not parts:
            content = None if m.get("tool_calls") else ""
        elif len(parts) == 1 and parts[0]["type"] == "text":
            content = parts[0]["text"]
        else:
            content = [{"type": "text", "text": p["text"]} if p["type"] == "text" else {"type": "image", "image_id": p["image_id"]}
                       for p in parts]
        msg: dict[str, Any] = {"role": m["role"], "content": content}
        if m.get("tool_calls"):
            msg["tool_calls"] = [dict(c, function=dict(c["function"])) for c in m["tool_calls"]]
        if m.get("tool_call_id") is not None:
            msg["tool_call_id"] = m["tool_call_id"]
        if m.get("name") is not None:
            msg["name"] = m["name"]
        out.append(msg)
    return out


def _steps_back(row: dict[str, Any]) -> list[dict[str, Any]]:
    extras = json.loads(row["agent_steps"] or "[]")
    tokens = row.get("token_steps") or []
    for extra, tok in zip(extras, tokens):
        if tok.get("prompt_ids") is not None:
            extra["prompt_token_ids"] = tok["prompt_ids"]
        extra["token_ids"] = tok["completion_ids"]
        if tok.get("logprobs") is not None:
            extra["logprobs"] = tok["logprobs"]
    return extras


def rows_to_records(rows: Sequence[dict[str, Any]]) -> list[Any]:
    """Group episode-table rows by ``episode_id`` and rebuild one EpisodeRecord per episode (file order)."""
    from dataclasses import fields

    from ..runner import EpisodeRecord

    known = {f.name for f in fields(EpisodeRecord)}
    groups: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(row["episode_id"], {})[row["seat"]] = row
    records = []
    for seats in groups.values():
        main = seats.get(ASSISTANT) or next(iter(seats.values()))
        n_images = len(main["image_sources"] or [])
        by_id: dict[int, bytes] = {}
        for row in seats.values():
            for image_id, image in zip(row["image_ids"] or [], row["images"] or []):
                if image_id is not None and image_id >= 0:
                    by_id.setdefault(image_id, image["bytes"] if isinstance(image, dict) else image)
        verdict = {}
        if main["judge_pass"] is not None:
            verdict = {"pass": main["judge_pass"], "judge": main["judge"],
                       "criteria": [dict(c) for c in main["judge_criteria"] or []]}
        rewards = []
        for r in main["act_rewards"] or []:
            entry = {"step": r["step"], "reward": r["reward"], "entity_f1": r["entity_f1"], "delta_f1": r["delta_f1"], "judge": r["judge"]}
            if r.get("seat") is not None:
                entry["seat"] = r["seat"]
            rewards.append(entry)
        extra = json.loads(main.get("extra") or "{}")
        optional: dict[str, Any] = {k: v for k, v in extra.items() if k in known}
        if "user_verdict" in known:
            optional["user_verdict"] = json.loads(main.get("user_verdict") or "{}")
        record = EpisodeRecord(
            **optional,
            scenario_id=main["scenario_id"], seed=main["seed"], mode=main["mode"], agent=main["agent"],
            metadata=json.loads(main["metadata"] or "{}"), steps=main["steps"],
            assistant_steps=main.get("assistant_steps", main["steps"]), total_reward=main["total_reward"],
            entity_f1=main["entity_f1"], passed=main["passed"], terminated=main["terminated"],
            truncated=main["truncated"], error=main["error"], verdict=verdict,
            entity=json.loads(main["entity"] or "{}"), rewards=rewards,
            messages=import_messages(seats[ASSISTANT]["messages"]) if ASSISTANT in seats else [],
            user_messages=import_messages(seats[USER]["messages"]) if USER in seats else [],
            tools=json.loads(seats[ASSISTANT]["tools"]) if ASSISTANT in seats else [],
            log=json.loads(main["log"] or "[]"), calls=json.loads(main["calls"] or "[]"),
            diff=json.loads(main["diff"] or "{}"),
            images=[by_id.get(i, b"") for i in range(n_images)] if by_id else [],
            image_sources=list(main["image_sources"] or []),
            agent_steps=_steps_back(seats[ASSISTANT]) if ASSISTANT in seats else [],
            duration_s=main["duration_s"],
        )
        for k, v in extra.items():
            if k not in known:  # written by a build whose EpisodeRecord had this field
                setattr(record, k, v)
        if main.get("assistant_steps") is None:  # written before "steps" meant both seats: it counted the assistant's
            from ..evaluation.metrics import paper_steps

            record.steps = paper_steps({"log": record.log, "steps": record.assistant_steps})
        record.user = main["user"]
        record.trainable_seats = [s for s, row in seats.items() if row["trainable"]]
        if USER in seats:
            user_steps = _steps_back(seats[USER])
            if user_steps:
                record.user_steps = user_steps
        records.append(record)
    return records


def read_parquet(path: str | Path) -> list[Any]:
    """EpisodeRecords from an episode-table file (or folder of them), in file order.

    Images come back by id (``b""`` for an id no exported message showed); ``user``,
    ``trainable_seats`` and, when present, ``user_steps`` are set as attributes.
    """
    return rows_to_records(read_table(path).to_pylist())


def load_run(run_dir: str | Path) -> list[Any]:
    """EpisodeRecords of a saved run, with every image the run stored.

    ``run_dir`` may be the run folder of ``mmtsb eval --out`` (its ``results.json``, or
    ``episodes.jsonl`` when the run did not finish, else ``trajectories.parquet``) or name one of
    those files. Records read from JSON get their images back from the folder's ``images/`` (the
    ``image_files`` of each episode), so a folder and its ``results.json`` give the same records;
    images a run did not store are restored by the exporter (``missing_images="restore"``).
    """
    from dataclasses import fields

    from ..runner import EpisodeRecord
    from .writer import TRAJECTORIES_FILE

    path = Path(run_dir)
    if path.is_dir():
        for name in ("results.json", "episodes.jsonl", TRAJECTORIES_FILE):
            if (path / name).exists():
                path = path / name
                break
        else:
            raise FileNotFoundError(f"{run_dir}: no results.json, episodes.jsonl or {TRAJECTORIES_FILE} "
                                    "(write one with `mmtsb eval --out DIR`)")
    if path.suffix == ".parquet":
        return read_parquet(path)
    if not path.exists():
        raise FileNotFoundError(f"{run_dir}: no {TRAJECTORIES_FILE} or results.json (write one with `mmtsb eval --out DIR`)")
    if path.suffix == ".jsonl":
        episodes = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    else:
        data = json.loads(path.read_text(encoding="utf-8"))
        episodes = data.get("episodes") if isinstance(data, dict) else None
    if not isinstance(episodes, list):
        raise ValueError(f"{path}: expected an object with an 'episodes' list (the results.json of `mmtsb eval --out`)")
    known = {f.name for f in fields(EpisodeRecord)}
    records = []
    for ep in episodes:
        record = EpisodeRecord(**{k: v for k, v in ep.items() if k in known and k != "images"})
        files = [path.parent / f for f in ep.get("image_files") or []]
        if files and all(f.exists() for f in files):
            record.images = [f.read_bytes() for f in files]
        records.append(record)
    return records
