"""The Parquet schema of exported trajectories (version :data:`SCHEMA_VERSION`).

Two tables:

* the **episode table** (:func:`episode_schema`): one row per episode *and* seat;
* the optional **step table** (:func:`step_schema`): one row per action of either seat.

Every file carries the version twice: a ``schema_version`` column and the Parquet key-value
metadata key ``mmtsb.schema_version`` (plus ``mmtsb.table`` = ``"episodes"`` or ``"steps"``).
Images use the Hugging Face ``Image`` encoding (``struct<bytes: binary, path: string>``, the
bytes are PNG) and the file's ``huggingface`` metadata says so, which makes
``datasets.load_dataset("parquet", ...)`` decode them to PIL images while pyarrow readers see
plain PNG bytes. Fields whose nesting varies from row to row (tool-call arguments, tool schemas,
logs, diffs) are JSON strings.

>>> episode_schema().field("messages").type.value_type.field("role").type
DataType(string)
>>> SCHEMA_VERSION
1
"""

from __future__ import annotations

import json

import pyarrow as pa

SCHEMA_VERSION = 1
META_VERSION = b"mmtsb.schema_version"
META_TABLE = b"mmtsb.table"

CONTENT_PART = pa.struct([
    ("type", pa.string()),       # "text" | "image"
    ("text", pa.string()),       # null for images
    ("image_id", pa.int32()),    # the episode's image id for images (the "[image N]" label), else null
])
TOOL_CALL = pa.struct([
    ("id", pa.string()),
    ("type", pa.string()),
    ("function", pa.struct([("name", pa.string()), ("arguments", pa.string())])),  # arguments: JSON string
])
MESSAGE = pa.struct([
    ("role", pa.string()),
    ("content", pa.list_(CONTENT_PART)),
    ("tool_calls", pa.list_(TOOL_CALL)),
    ("tool_call_id", pa.string()),
    ("name", pa.string()),
])
IMAGE = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
REWARD_STEP = pa.struct([
    ("step", pa.int32()),        # the episode-wide action counter at this seat step
    ("reward", pa.float64()),
    ("entity_f1", pa.float64()),
    ("delta_f1", pa.float64()),
    ("judge", pa.float64()),
])
ACT_REWARD = pa.struct([
    ("step", pa.int32()),
    ("seat", pa.string()),       # null unless the engine recorded it
    ("reward", pa.float64()),
    ("entity_f1", pa.float64()),
    ("delta_f1", pa.float64()),
    ("judge", pa.float64()),
])
CRITERION = pa.struct([("criterion", pa.string()), ("pass", pa.bool_()), ("reason", pa.string())])
TOKEN_STEP = pa.struct([
    ("prompt_ids", pa.list_(pa.int32())),
    ("completion_ids", pa.list_(pa.int32())),
    ("logprobs", pa.list_(pa.float32())),
])

# name -> (type, description). The order is the column order of the file.
EPISODE_COLUMNS: dict[str, tuple[pa.DataType, str]] = {
    "schema_version": (pa.int32(), "schema version of this row (also in the file metadata)"),
    "episode_id": (pa.string(), "deterministic id from scenario, seed, agent, mode and repeat index"),
    "scenario_id": (pa.string(), "scenario id, e.g. demo/note_from_receipt"),
    "seed": (pa.int64(), "reset seed"),
    "seat": (pa.string(), "whose view this row is: assistant or user"),
    "trainable": (pa.bool_(), "whether this seat was played by the policy being trained/evaluated"),
    "mode": (pa.string(), "action interface: tool or code"),
    "agent": (pa.string(), "name of the assistant-seat policy (model)"),
    "user": (pa.string(), "name of the user-seat policy (scripted, an LLM, external)"),
    "judge": (pa.string(), "name of the judge that gave the verdict"),
    "model": (pa.string(), "name of the policy that played this row's seat"),
    "flow_type": (pa.string(), "scenario metadata: flow type"),
    "challenge_type": (pa.string(), "scenario metadata: challenge type"),
    "image_arrival": (pa.string(), "scenario metadata: when images arrive"),
    "image_categories": (pa.list_(pa.string()), "scenario metadata: image categories"),
    "num_images": (pa.int32(), "scenario metadata: number of scenario images"),
    "num_rounds": (pa.int32(), "scenario metadata: number of user rounds"),
    "domains": (pa.list_(pa.string()), "scenario metadata: app domains"),
    "metadata": (pa.string(), "all scenario metadata as JSON"),
    "messages": (pa.list_(MESSAGE), "this seat's OpenAI-format chat; images are {type: image} parts"),
    "images": (pa.list_(IMAGE), "PNG of every image part of messages, in message order"),
    "image_ids": (pa.list_(pa.int32()), "episode image id of each element of images"),
    "tools": (pa.string(), "JSON list of the tool schemas offered to this seat (OpenAI format)"),
    "steps": (pa.int32(), "the paper's steps: messages of both seats that count toward the step cap"),
    "assistant_steps": (pa.int32(), "the assistant's actions (steps of the driving loop)"),
    "seat_steps": (pa.int32(), "number of this seat's steps (length of rewards)"),
    "rewards": (pa.list_(pa.float64()), "reward of each of this seat's steps, as its Gymnasium view reports it"),
    "act_rewards": (pa.list_(ACT_REWARD), "every action's reward entry (both seats) as the engine recorded it"),
    "reward_components": (pa.list_(REWARD_STEP), "components of each of this seat's steps"),
    "seat_return": (pa.float64(), "sum of rewards"),
    "total_reward": (pa.float64(), "episode return collected by the driving loop"),
    "entity_f1": (pa.float64(), "final entity-diff F1"),
    "entity_precision": (pa.float64(), "final entity-diff precision"),
    "entity_recall": (pa.float64(), "final entity-diff recall"),
    "passed": (pa.bool_(), "judge passed and no error"),
    "judge_pass": (pa.bool_(), "judge verdict (null when the episode has no verdict)"),
    "judge_criteria": (pa.list_(CRITERION), "per-criterion verdicts"),
    "user_judge_pass": (pa.bool_(), "the user-simulator judge's verdict (null when there is none)"),
    "user_verdict": (pa.string(), "JSON: the user-simulator judge's full verdict"),
    "terminated": (pa.bool_(), "episode ended normally"),
    "truncated": (pa.bool_(), "episode was cut (message or step limit)"),
    "error": (pa.string(), "why a model/backend call failed, else null (an error is not a task failure)"),
    "has_error": (pa.bool_(), "error is not null"),
    "token_ids": (pa.list_(pa.int32()), "whole token sequence of this seat (prompt deltas + completions), when the policy reported tokens"),
    "logprobs": (pa.list_(pa.float32()), "log-probability of each token (0 where loss_mask is 0)"),
    "loss_mask": (pa.list_(pa.int8()), "1 for tokens the policy generated, 0 for prompt, user-simulator and environment tokens"),
    "token_steps": (pa.list_(TOKEN_STEP), "per-step prompt and completion token ids as reported by the policy"),
    "entity": (pa.string(), "JSON: entity score with per-table groups"),
    "log": (pa.string(), "JSON: the episode's message log (both seats)"),
    "calls": (pa.string(), "JSON: every tool call with its outcome"),
    "diff": (pa.string(), "JSON: final world diff per table"),
    "image_sources": (pa.list_(pa.string()), "source of every episode image, by image id"),
    "agent_steps": (pa.string(), "JSON: per-step extras this seat's policy reported (token arrays moved to token_steps)"),
    "duration_s": (pa.float64(), "wall-clock seconds of the episode"),
    "extra": (pa.string(), "JSON: any further EpisodeRecord fields, kept for a lossless round trip"),
}

STEP_COLUMNS: dict[str, tuple[pa.DataType, str]] = {
    "schema_version": (pa.int32(), "schema version"),
    "episode_id": (pa.string(), "joins with the episode table"),
    "scenario_id": (pa.string(), "scenario id"),
    "seed": (pa.int64(), "reset seed"),
    "agent": (pa.string(), "assistant-seat policy name"),
    "step": (pa.int32(), "1-based index of the action in the episode (both seats)"),
    "seat": (pa.string(), "seat that acted"),
    "seat_step": (pa.int32(), "0-based index of the action among this seat's actions"),
    "action": (pa.string(), "what the seat did: message text, code, or JSON tool calls"),
    "kinds": (pa.list_(pa.string()), "kinds of the log entries the action produced"),
    "entries": (pa.string(), "JSON: the log entries the action produced"),
    "action_error": (pa.string(), "error the environment reported for the action, else null"),
    "reward": (pa.float64(), "reward of this action (before grouping into seat steps)"),
    "entity_f1": (pa.float64(), "entity F1 after the action"),
    "delta_f1": (pa.float64(), "change of entity F1"),
    "judge": (pa.float64(), "terminal verdict score if the episode ended here, else 0"),
    "prompt_ids": (pa.list_(pa.int32()), "prompt token ids the policy reported for this action"),
    "completion_ids": (pa.list_(pa.int32()), "generated token ids"),
    "logprobs": (pa.list_(pa.float32()), "log-probabilities of completion_ids"),
}


def _schema(columns: dict[str, tuple[pa.DataType, str]], table: str, images: bool) -> pa.Schema:
    meta = {META_VERSION: str(SCHEMA_VERSION).encode(), META_TABLE: table.encode()}
    if images:
        # Only the image column needs a hint; datasets derives the rest from the Arrow types.
        features = {"images": {"feature": {"_type": "Image"}, "_type": "Sequence"}}
        meta[b"huggingface"] = json.dumps({"info": {"features": features}}).encode()
    return pa.schema([pa.field(name, typ) for name, (typ, _) in columns.items()], metadata=meta)


def episode_schema() -> pa.Schema:
    """Arrow schema of the episode table (with its key-value metadata)."""
    return _schema(EPISODE_COLUMNS, "episodes", images=True)


def step_schema() -> pa.Schema:
    """Arrow schema of the step table."""
    return _schema(STEP_COLUMNS, "steps", images=False)


def file_version(schema: pa.Schema) -> int | None:
    """The ``mmtsb.schema_version`` of a file's schema, or ``None`` if it has none."""
    raw = (schema.metadata or {}).get(META_VERSION)
    return int(raw) if raw is not None else None
