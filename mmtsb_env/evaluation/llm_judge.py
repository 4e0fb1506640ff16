"""Rubric judges that ask a model (any :class:`~mmtsb_env.llm.base.ChatBackend`) for a verdict.

:class:`LLMJudge` scores the five assistant criteria from the same :class:`~.judge.Evidence` as the
rubric judge. The model sees the task, the whole conversation, every tool call with its result,
the world changes (creates, updates with before/after, deletes), the expected changes, and the
episode's images (capped at ``max_images``, newest kept) as ``image_url`` parts.

The reply must be one JSON object; it is repaired if malformed (:mod:`.jsonrepair`), its shape
and ranges are checked, and the model is asked again (up to ``max_attempts``) when it is still
unusable; after that :class:`~mmtsb_env.llm.base.BackendError` is raised so the caller marks the
episode errored. Verdicts are cached by a hash of (evidence, images, prompt version, model): in
memory and, with ``cache_dir``, as JSON files -- re-scoring a run is free and deterministic.

>>> from mmtsb_env.llm.base import RecordedBackend
>>> reply = '{"criteria": {"task_completion": {"pass": true, "reason": "note saved"}, ' \\
...         '"instruction_following": {"pass": true, "reason": "ok"}, "tool_use_validity": {"pass": true, "reason": "ok"}, ' \\
...         '"no_side_effects": {"pass": true, "reason": "ok"}, "information_accuracy": {"pass": false, "reason": "wrong total"}}}'
>>> judge = LLMJudge(RecordedBackend([reply]), model="demo")
>>> v = judge.evaluate(example_evidence())
>>> v.passed, v.judge, v.criterion("information_accuracy").reason
(False, 'llm:demo', 'wrong total')
>>> judge.evaluate(example_evidence()).passed   # cached: the backend is not called again
False
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import threading
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..llm.base import BackendError
from .entity_diff import EntityScore, _key_column
from .judge import CRITERIA, Criterion, Evidence, Verdict
from .jsonrepair import JSONRepairError, parse_json_object

PROMPT_VERSION = "mmtsb-agent-judge-3"

AGENT_CRITERIA_TEXT = {
    "task_completion": "The actions the user asked for were attempted and their tool calls succeeded: each expected "
                       "change has a matching actual change (right table, right row), and every round that asks for a "
                       "change got one. Whether the values are right belongs to the next criteria.",
    "instruction_following": "The details the user stated themselves are right in the changes (the values listed as "
                             "'stated by the user'); no item was left out (one of several rows, list items or asked-for "
                             "facts missing, or a placeholder written instead of a value); every round was handled, "
                             "including goal changes, corrections and clarifications, with a reply each round, until "
                             "the user closed the conversation.",
    "tool_use_validity": "Tool calls were well-formed and appropriate; failed calls were understood and fixed, "
                         "not repeated blindly; no invented tools or ids; most calls that change data succeeded "
                         "(failed writes are not excused by many successful reads).",
    "no_side_effects": "Nothing was created, changed or deleted that the user did not ask for.",
    "information_accuracy": "The answer or the artifact is factually correct: values read from images, looked up or "
                            "computed are right in the changes (amounts to the cent), and each round that must report "
                            "facts states them in a reply of that round or later. Every number, date, time, name or "
                            "amount a reply or a written text states, asked for or not, must agree with the tool "
                            "results, the data and the images; a stated number may be the true one rounded (22 or 22.1 "
                            "for 22.13), never a different value as precise (22.14). A reply must commit to one "
                            "answer: hedging, naming every candidate alike, listing several readings, or repeating a "
                            "claim with different values does not state a fact; other values given as context are "
                            "fine. A round that asks only for an action needs no reply content: its changes answer it.",
}

_AGENT_SYSTEM = """You grade one episode of an assistant that operates a simulated phone for its owner (the user).
You get the task, the conversation, every tool call with its result, the changes to the phone's data, the
changes that were expected, and the images exchanged. Tool results, the data changes and the images are
ground truth; the assistant's own claims are not evidence of anything.

Decide each criterion independently, pass or fail:
{criteria}

Reply with one JSON object and nothing else:
{{"criteria": {{"<criterion>": {{"pass": true or false, "reason": "<one sentence citing the evidence>"}}, ...}}}}
with exactly these criterion keys: {names}."""


def _one_line(text: Any, limit: int = 300) -> str:
    line = " ".join(str(text or "").split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _clip(text: Any, limit: int) -> str:
    s = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False, default=str)
    return s if len(s) <= limit else s[: limit - 20] + f" … [{len(s) - limit + 20} more chars]"


# ---------------------------------------------------------------------------------------------
# Evidence as text
# ---------------------------------------------------------------------------------------------


def _conversation_lines(entries: Sequence[Mapping[str, Any]], item_chars: int) -> list[str]:
    lines = []
    for e in entries:
        imgs = "".join(f" [image {i}]" for i in e.get("image_ids", []))
        rnd = e.get("round_index")
        tag = f"(round {rnd + 1}) " if isinstance(rnd, int) else ""
        kind, sender, recipient = e.get("kind"), e.get("sender"), e.get("recipient")
        if kind == "message":
            lines.append(f"{tag}{str(sender).upper()} -> {str(recipient).upper()}: {_clip(e.get('content', ''), item_chars)}{imgs}")
        elif kind == "tool_calls":
            calls = "; ".join(f"{c.get('name')}({_clip(c.get('arguments'), item_chars // 2)})" for c in e.get("tool_calls", []))
            lines.append(f"{tag}{str(sender).upper()} calls {calls}")
        elif kind == "tool_result":
            status = "ok" if e.get("ok", True) else "ERROR"
            lines.append(f"{tag}RESULT {e.get('tool_name', '')} [{status}] to {recipient}: {_clip(e.get('content', ''), item_chars)}{imgs}")
        elif kind == "code":
            lines.append(f"{tag}{str(sender).upper()} runs code:\n{_clip(e.get('content', ''), item_chars)}")
        elif kind == "code_result":
            status = "ok" if e.get("ok", True) else "ERROR"
            lines.append(f"{tag}CODE OUTPUT [{status}]: {_clip(e.get('content', ''), item_chars)}{imgs}")
        elif kind == "error":
            lines.append(f"{tag}INVALID ACTION by {recipient}: {_clip(e.get('content', ''), item_chars)}")
        else:
            lines.append(f"{tag}NOTICE ({sender} -> {recipient}): {_clip(e.get('content', ''), item_chars)}{imgs}")
    return lines


def _changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, list[Any]]:
    return {c: [before.get(c), after.get(c)] for c in sorted(set(before) | set(after)) if before.get(c) != after.get(c)}


def diff_lines(diff: Mapping[str, Any], item_chars: int = 600) -> list[str]:
    """Readable lines for a world diff: creates, updates (column: before -> after) and deletes."""
    lines = []
    for table in sorted(diff):
        d = diff[table]
        for row in d.get("created", []):
            lines.append(f"CREATED in {table}: {_clip(row, item_chars)}")
        for u in d.get("updated", []):
            before, after = (u["before"], u["after"]) if isinstance(u, Mapping) else u
            changes = ", ".join(f"{c}: {_clip(json.dumps(b, ensure_ascii=False, default=str), 160)} -> "
                                f"{_clip(json.dumps(a, ensure_ascii=False, default=str), 160)}"
                                for c, (b, a) in _changed(before, after).items())
            key = after.get(_key_column(table)) if after else None
            lines.append(f"UPDATED in {table} (row {key!r}): {_clip(changes, item_chars)}")
        for row in d.get("deleted", []):
            lines.append(f"DELETED from {table}: {_clip(row, item_chars)}")
    return lines or ["(no changes)"]


def expected_lines(expected: Sequence[Mapping[str, Any]], item_chars: int = 600) -> list[str]:
    lines = []
    for c in expected:
        op, table = c.get("operation"), c.get("table")
        if op == "create":
            lines.append(f"CREATE in {table}: {_clip(c.get('row'), item_chars)}")
        elif op == "update":
            lines.append(f"UPDATE in {table} row {c.get('key')!r}: {_clip(c.get('fields'), item_chars)}")
        else:
            lines.append(f"DELETE from {table} row {c.get('key')!r}")
    return lines or ["(no changes expected)"]


def round_lines(ev: Evidence) -> list[str]:
    """What each round asks of the assistant: facts to report, a change to make, or both."""
    lines = []
    for r in range(ev.n_rounds):
        report = ev.reports[r] if r < len(ev.reports) else []
        action = ev.action_rounds[r] if r < len(ev.action_rounds) else None
        asks = []
        if action:
            asks.append("a change to the phone's data")
        if report:
            asks.append("a reply stating: " + "; ".join(map(str, report)))
        if asks:
            lines.append(f"Round {r + 1} asks for " + " and ".join(asks) + ".")
        elif action is not None:
            lines.append(f"Round {r + 1} asks for nothing beyond a reply.")
    return lines


def specified_lines(ev: Evidence) -> list[str]:
    """The expected values, split into those the user stated and those the assistant had to find."""
    from .judge import user_specified

    said = ev.user_text()
    stated, found = [], []
    for c in ev.expected_changes:
        values = (c.get("row") if c.get("operation") == "create" else c.get("fields")) or {}
        for col, value in values.items():
            (stated if user_specified(col, value, said) else found).append(f"{c.get('table')}.{col}")
    lines = []
    if stated:
        lines.append("Expected values stated by the user: " + ", ".join(dict.fromkeys(stated)) + ".")
    if found:
        lines.append("Expected values the assistant had to find (images, lookups, computation): "
                     + ", ".join(dict.fromkeys(found)) + ".")
    return lines


def evidence_text(ev: Evidence, *, item_chars: int = 800, image_ids: Sequence[int] = ()) -> str:
    """The evidence as the model reads it (images are attached separately)."""
    e: EntityScore = ev.entity
    parts = [f"# Scenario {ev.scenario_id}"]
    if ev.description:
        parts.append(f"Description: {ev.description}")
    if ev.completion_criteria:
        parts.append(f"Completion criteria: {ev.completion_criteria}")
    parts.extend(round_lines(ev))
    if ev.facts:
        parts.append("Values the answer or the changes must contain (either is enough): " + "; ".join(map(str, ev.facts)))
    parts.extend(specified_lines(ev))
    parts.append(f"Rounds: {ev.rounds_delivered}/{ev.n_rounds} reached; "
                 f"{'ended by the user' if ev.ended_by_user else 'not ended by the user'}"
                 f"{'; stopped at the message limit' if ev.truncated else ''}.")
    parts.append("\n# Conversation and tool calls")
    if ev.conversation:
        parts.extend(_conversation_lines(ev.conversation, item_chars))
    else:
        parts.extend(f"ASSISTANT: {_clip(m, item_chars)}" for m in ev.assistant_messages)
        for c in ev.assistant_calls():
            status = "ok" if c.get("ok", True) else f"ERROR {c.get('error')}"
            parts.append(f"CALL {c.get('name')}({_clip(c.get('arguments'), item_chars // 2)}) -> [{status}] "
                         f"{_clip(c.get('result'), item_chars)}")
    parts.append(f"\nTool calls by the assistant: {ev.n_tool_calls}, failed: {ev.n_failed_calls}, "
                 f"invalid actions: {ev.n_invalid_actions}.")
    parts.append("\n# Changes made to the phone's data")
    parts.extend(diff_lines(ev.diff, item_chars))
    parts.append("\n# Changes that were expected")
    parts.extend(expected_lines(ev.expected_changes, item_chars))
    parts.append(f"\nAutomatic comparison of the two: precision {e.precision:.2f}, recall {e.recall:.2f}, F1 {e.f1:.2f}.")
    if image_ids:
        shown = ", ".join(str(i) for i in image_ids)
        dropped = len(ev.image_ids) - len(image_ids)
        parts.append(f"\n# Images\nAttached below: image(s) {shown}" + (f" ({dropped} older image(s) not attached)." if dropped else "."))
    return "\n".join(parts)


# ---------------------------------------------------------------------------------------------
# Verdict parsing
# ---------------------------------------------------------------------------------------------

_TRUE = {"true", "pass", "passed", "yes", "y", "1", "ok"}
_FALSE = {"false", "fail", "failed", "no", "n", "0"}


def _as_pass(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise ValueError(f"{where}: 'pass' must be true or false, got {value!r}")


def _norm_name(name: Any) -> str:
    return re.sub(r"[^a-z0-9]+", "_", str(name).strip().lower()).strip("_")


def verdict_from_reply(data: Mapping[str, Any], criteria: Sequence[str], judge: str) -> Verdict:
    """Check a parsed reply's shape and ranges; ``ValueError`` says what is wrong."""
    raw = data.get("criteria", data.get("criteria_evaluation", data))
    entries: dict[str, Any] = {}
    if isinstance(raw, list):
        for i, item in enumerate(raw):
            if not isinstance(item, Mapping):
                raise ValueError(f"criteria[{i}] must be an object")
            entries[_norm_name(item.get("criterion", item.get("name", "")))] = item
    elif isinstance(raw, Mapping):
        entries = {_norm_name(k): v for k, v in raw.items()}
    else:
        raise ValueError("'criteria' must be an object or a list")
    out = []
    for name in criteria:
        if name not in entries:
            raise ValueError(f"criterion {name!r} is missing (give all of: {', '.join(criteria)})")
        item = entries[name]
        if isinstance(item, Mapping):
            if "pass" in item:
                passed = _as_pass(item["pass"], name)
            elif "passed" in item:
                passed = _as_pass(item["passed"], name)
            elif "result" in item:
                passed = _as_pass(item["result"], name)
            else:
                raise ValueError(f"{name}: no 'pass' field")
            conf = item.get("confidence")
            if conf is not None and (not isinstance(conf, (int, float)) or isinstance(conf, bool) or not 0 <= conf <= 1):
                raise ValueError(f"{name}: confidence must be a number in [0, 1], got {conf!r}")
            reason = item.get("reason", item.get("analysis", item.get("explanation", "")))
        else:
            passed, reason = _as_pass(item, name), ""
        out.append(Criterion(name, passed, _one_line(reason) or "(no reason given)"))
    return Verdict(all(c.passed for c in out), out, judge)


# ---------------------------------------------------------------------------------------------
# The cached, retrying judge
# ---------------------------------------------------------------------------------------------


class VerdictCache:
    """Verdicts by key: a dict, plus ``<key>.json`` files in ``directory`` when given."""

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.directory = Path(directory) if directory is not None else None
        self._memory: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            hit = self._memory.get(key)
        if hit is None and self.directory is not None:
            path = self.directory / f"{key}.json"
            if path.exists():
                try:
                    hit = json.loads(path.read_text(encoding="utf-8"))["verdict"]
                except (ValueError, KeyError):
                    return None
                with self._lock:
                    self._memory[key] = hit
        return hit

    def put(self, key: str, verdict: dict[str, Any], raw: str) -> None:
        with self._lock:
            self._memory[key] = verdict
        if self.directory is not None:
            fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"verdict": verdict, "raw": raw}, f, ensure_ascii=False, indent=1)
            os.replace(tmp, self.directory / f"{key}.json")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class LLMRubricJudge(ABC):
    """Shared machinery: prompt, images, cache, repair, validation, retries.

    Subclasses set ``criteria``, ``prompt_version`` and implement ``system_prompt()`` and
    ``render(evidence) -> (text, images)`` where images are ``(label, data URL)`` pairs.
    """

    criteria: tuple[str, ...] = ()
    prompt_version = ""
    kind = "judge"

    def __init__(self, backend: Any, *, model: str | None = None, max_images: int = 8, max_attempts: int = 3,
                 cache_dir: str | os.PathLike[str] | None = None, cache: VerdictCache | None = None,
                 item_chars: int = 800, sampling: Mapping[str, Any] | None = None) -> None:
        self.backend = backend
        self.model = model or getattr(backend, "model", None) or getattr(backend, "name", "model")
        self.max_images = max_images
        self.max_attempts = max(1, max_attempts)
        self.cache = cache or VerdictCache(cache_dir)
        self.item_chars = item_chars
        self.sampling = dict(sampling or {"temperature": 0.0})
        self.stats = {"calls": 0, "hits": 0, "misses": 0, "repairs_failed": 0}
        self.name = f"llm:{self.model}"

    # subclass hooks -------------------------------------------------------------------------
    @abstractmethod
    def system_prompt(self) -> str:
        """The judge's instructions."""

    @abstractmethod
    def render(self, evidence: Any) -> tuple[str, list[tuple[str, str]]]:
        """The evidence as prompt text and ``(label, data URL)`` images."""

    # ----------------------------------------------------------------------------------------
    def cache_key(self, text: str, images: Sequence[tuple[str, str]]) -> str:
        payload = {"kind": self.kind, "prompt": self.prompt_version, "system": _sha(self.system_prompt()), "model": self.model,
                   "text": text, "images": [[label, _sha(url)] for label, url in images]}
        return _sha(json.dumps(payload, sort_keys=True, ensure_ascii=False))

    def messages(self, text: str, images: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
        content: list[dict[str, Any]] = [{"type": "text", "text": text}]
        for label, url in images:
            content.append({"type": "text", "text": label})
            content.append({"type": "image_url", "image_url": {"url": url}})
        content.append({"type": "text", "text": "Grade the episode now. Reply with the JSON object only."})
        return [{"role": "system", "content": self.system_prompt()}, {"role": "user", "content": content}]

    def evaluate(self, evidence: Any) -> Verdict:
        text, images = self.render(evidence)
        key = self.cache_key(text, images)
        cached = self.cache.get(key)
        if cached is not None:
            self.stats["hits"] += 1
            return Verdict.from_json(cached)
        self.stats["misses"] += 1
        messages = self.messages(text, images)
        problem = ""
        for attempt in range(1, self.max_attempts + 1):
            self.stats["calls"] += 1
            reply = self.backend.complete(messages, None, **self.sampling)  # BackendError propagates
            raw = reply.text or ""
            try:
                verdict = verdict_from_reply(parse_json_object(raw), self.criteria, self.name)
            except (JSONRepairError, ValueError) as exc:
                problem = str(exc)
                self.stats["repairs_failed"] += 1
                messages = messages + [
                    {"role": "assistant", "content": raw},
                    {"role": "user", "content": f"That reply could not be used: {problem}. Answer again with only the "
                                                f"JSON object, giving all of: {', '.join(self.criteria)}."},
                ]
                continue
            verdict.details = {"prompt_version": self.prompt_version, "model": self.model, "cache_key": key}
            self.cache.put(key, verdict.to_json(), raw)
            return verdict
        raise BackendError(f"{self.name}: no usable verdict after {self.max_attempts} attempt(s): {problem}")


def newest_images(image_ids: Sequence[int], url: Callable[[int], str] | None, cap: int,
                  sources: Sequence[str] = ()) -> list[tuple[str, str]]:
    """``(label, data URL)`` for the newest ``cap`` images (all of them when fewer)."""
    if url is None or cap <= 0:
        return []
    chosen = sorted(image_ids)[-cap:]
    out = []
    for i in chosen:
        src = f" ({sources[i]})" if i < len(sources) and sources[i] else ""
        out.append((f"[image {i}]{src}", url(i)))
    return out


class LLMJudge(LLMRubricJudge):
    """The five assistant criteria judged by a model through ``backend`` (see the module docstring)."""

    criteria = CRITERIA
    prompt_version = PROMPT_VERSION
    kind = "agent"

    def system_prompt(self) -> str:
        lines = "\n".join(f"- {n}: {AGENT_CRITERIA_TEXT[n]}" for n in self.criteria)
        return _AGENT_SYSTEM.format(criteria=lines, names=", ".join(self.criteria))

    def render(self, evidence: Evidence) -> tuple[str, list[tuple[str, str]]]:
        images = newest_images(evidence.image_ids, evidence.image_url, self.max_images, evidence.image_sources)
        shown = sorted(evidence.image_ids)[-self.max_images:] if images else []
        return evidence_text(evidence, item_chars=self.item_chars, image_ids=shown), images


def example_evidence() -> Evidence:
    """A tiny evidence object (docs and tests)."""
    from .entity_diff import score_changes
    from ..scenario.model import ExpectedChange

    want = [ExpectedChange("create", "simple_note.notes", row={"title": "Lunch", "content": "Sunrise Diner $18.53"})]
    diff = {"simple_note.notes": {"created": [{"id": 7, "title": "Lunch", "content": "Sunrise Diner $18.53"}]}}
    return Evidence(
        scenario_id="example", entity=score_changes(want, diff), assistant_messages=["Saved. The total is $18.15."],
        facts=["18.53"], n_rounds=1, rounds_delivered=1, ended_by_user=True, truncated=False, n_tool_calls=1,
        n_failed_calls=0, n_invalid_actions=0,
        calls=[{"seat": "assistant", "name": "simple_note_create_note", "arguments": {"title": "Lunch"}, "ok": True, "result": {"id": 7}}],
        expected_changes=[{"operation": "create", "table": "simple_note.notes", "row": want[0].row}], diff=diff,
        grounds=["Make a note titled 'Lunch' with this receipt's total.", "Sunrise Diner", "18.53"],
        image_facts=[{"label": "Sunrise Diner", "amount": 18.53}],
    )
