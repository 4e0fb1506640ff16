"""The user judge: did the user seat (scripted, LLM or trained) play its script faithfully?

Four criteria, as in the paper:

* request_fidelity -- every scripted round's query was delivered, in order, once the previous
  round was done; clarification answers came from the script.
* conversational_naturalness -- the user spoke as the user: no role swap (claiming to have done
  the assistant's work, offering help, writing tool-call syntax), no empty or repeated messages,
  no more unscripted messages than ``max_unscripted``.
* grounded_consistency -- the user never stated a value that only the images (or the expected
  answers) contain: image render facts and scenario facts absent from the script must not
  appear in user messages.
* tool_channel_correctness -- images went through ``send_message_with_image`` exactly in the
  rounds that provide them, user tool calls did not fail, and ``end_conversation`` closed the
  episode after the last round.

:class:`UserJudge` checks these deterministically; :class:`LLMUserJudge` asks a model through a
chat backend with the same evidence (cached and repaired like :class:`~.llm_judge.LLMJudge`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from .evidence import field_of, rounds_reached
from .judge import Criterion, Verdict, normalise, numbers_in
from .llm_judge import LLMRubricJudge, _clip, _conversation_lines, newest_images
from .similarity import as_number, rouge_l

USER_CRITERIA = ("request_fidelity", "conversational_naturalness", "grounded_consistency", "tool_channel_correctness")
USER_PROMPT_VERSION = "mmtsb-user-judge-1"
_SKIP_FACT_KEYS = frozenset({"kind", "currency", "distractors", "payment", "item_count", "tax_rate"})
_COMMON_WORDS = frozenset({"free", "cash", "card", "none", "total", "note", "notes", "today", "rain", "shine", "more"})
_ROLE_SWAP = re.compile(
    r"\b(i(?:'ve| have)\s+(?:now\s+)?(?:created|updated|deleted|added|saved|sent|scheduled|booked|removed|set up)\b"
    r"|how (?:can|may) i (?:help|assist)|is there anything else i can|as an ai\b|let me (?:check|look|search|call)\b"
    r"|i will now call|calling the tool)",
    re.IGNORECASE,
)
_TOOL_SYNTAX = re.compile(r'(\{\s*"name"\s*:|<tool_call>|"tool_calls"\s*:|```)')


@dataclass
class UserEvidence:
    """What the user judge needs: the script, what the user said and did, and image-only values."""

    scenario_id: str
    rounds: list[dict[str, Any]]  # {"query", "image_ids", "instructions", "kind", "clarifications": [answer, ...]}
    conversation: list[dict[str, Any]]  # log entries (Entry.to_json())
    calls: list[dict[str, Any]]  # the user seat's tool calls (CallRecord.to_json())
    terminated: bool
    truncated: bool
    hidden_values: list[str] = field(default_factory=list)  # values only the images / answers contain
    description: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    image_ids: list[int] = field(default_factory=list)
    image_sources: list[str] = field(default_factory=list)
    image_url: Callable[[int], str] | None = field(default=None, repr=False, compare=False)

    def user_messages(self) -> list[dict[str, Any]]:
        return [e for e in self.conversation if e.get("sender") == "user" and e.get("kind") == "message"]

    def script_text(self) -> str:
        parts = [self.description]
        for r in self.rounds:
            parts += [r.get("query", ""), r.get("instructions", ""), *r.get("clarifications", [])]
        return "\n".join(p for p in parts if p)


# ---------------------------------------------------------------------------------------------
# Building the evidence
# ---------------------------------------------------------------------------------------------


def _flatten(value: Any, key: str = "") -> Iterable[tuple[str, Any]]:
    if isinstance(value, Mapping):
        for k, v in value.items():
            if k not in _SKIP_FACT_KEYS:
                yield from _flatten(v, str(k))
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _flatten(v, key)
    elif value is not None and not isinstance(value, bool):
        yield key, value


def _distinctive(value: Any) -> str | None:
    """The value as text if it is specific enough to count as image content, else ``None``."""
    if isinstance(value, (int, float)):
        text = f"{value:g}" if isinstance(value, float) else str(value)
        digits = sum(c.isdigit() for c in text)
        return text if digits >= 3 or (isinstance(value, float) and not float(value).is_integer() and digits >= 2) else None
    text = str(value).strip()
    if as_number(text) is not None:
        return text if sum(c.isdigit() for c in text) >= 3 else None
    if len(text) < 4 or normalise(text) in _COMMON_WORDS:
        return None
    return text


def hidden_values(scenario: Any) -> list[str]:
    """Distinctive values shown in the scenario's images (render facts, declared facts) and the
    facts the assistant must report, minus those the user's script itself contains."""
    raw: list[Any] = list(getattr(scenario, "facts", ()))
    for spec in getattr(scenario, "images", ()):
        raw += [v for _, v in _flatten(dict(spec.facts))]
        if spec.render is not None:
            try:
                from ..vision.render import render

                raw += [v for _, v in _flatten(render(spec.render).facts)]
            except (ValueError, KeyError):  # an unrenderable spec is reported by the loader, not here
                pass
    script = normalise("\n".join([scenario.description] + [
        "\n".join([r.query, r.instructions, *(c.answer for c in r.clarifications)]) for r in scenario.rounds]))
    script_numbers = {as_number(n) for n in numbers_in(script)}
    out: list[str] = []
    for value in raw:
        text = _distinctive(value)
        if text is None:
            continue
        num = as_number(text)
        if (num is not None and num in script_numbers) or (num is None and normalise(text) in script):
            continue
        if text not in out:
            out.append(text)
    return out


def _rounds_of(scenario: Any) -> list[dict[str, Any]]:
    return [{"query": r.query, "image_ids": list(r.image_ids), "instructions": r.instructions, "kind": r.kind,
             "clarifications": [c.answer for c in r.clarifications]} for r in scenario.rounds]


def user_evidence_from_episode(episode: Any) -> UserEvidence:
    """:class:`UserEvidence` of a live (or finished) :class:`~mmtsb_env.episode.engine.Episode`."""
    sc = episode.scenario
    return UserEvidence(
        scenario_id=sc.id, rounds=_rounds_of(sc), conversation=[e.to_json() for e in episode.log],
        calls=[c.to_json() for c in episode.calls if c.seat == "user"], terminated=episode.terminated,
        truncated=episode.truncated, hidden_values=hidden_values(sc), description=sc.description,
        metadata=dict(sc.metadata), image_ids=list(range(len(episode.images))),
        image_sources=[episode.images.source(i) for i in range(len(episode.images))], image_url=episode.image_url,
    )


def user_evidence_from_record(record: Any, scenario: Any) -> UserEvidence:
    """:class:`UserEvidence` of a recorded episode (needs its scenario for the script)."""
    from .evidence import _url_loader

    sources = list(field_of(record, "image_sources") or [])
    return UserEvidence(
        scenario_id=scenario.id, rounds=_rounds_of(scenario), conversation=list(field_of(record, "log") or []),
        calls=[c for c in field_of(record, "calls") or [] if c.get("seat") == "user"],
        terminated=bool(field_of(record, "terminated")), truncated=bool(field_of(record, "truncated")),
        hidden_values=hidden_values(scenario), description=scenario.description, metadata=dict(scenario.metadata),
        image_ids=list(range(len(sources))), image_sources=sources, image_url=_url_loader(record),
    )


# ---------------------------------------------------------------------------------------------
# The deterministic judge
# ---------------------------------------------------------------------------------------------


def _matches(text: str, target: str, threshold: float) -> bool:
    return text.strip() == target.strip() or rouge_l(target, text) >= threshold


def _mentions(text: str, value: str) -> bool:
    num = as_number(value)
    if num is not None:
        return any(as_number(n) == num for n in numbers_in(text))
    needle = normalise(value)
    hay = normalise(text)
    return re.search(r"(?<!\w)" + re.escape(needle) + r"(?!\w)", hay) is not None


class UserJudge:
    """Deterministic checks of the user seat (see the module docstring)."""

    name = "user-rubric"

    def __init__(self, *, match_threshold: float = 0.7, max_unscripted: int = 2) -> None:
        self.match_threshold = match_threshold
        self.max_unscripted = max_unscripted

    def evaluate(self, ev: UserEvidence) -> Verdict:
        crit = [self.request_fidelity(ev), self.conversational_naturalness(ev), self.grounded_consistency(ev),
                self.tool_channel_correctness(ev)]
        return Verdict(all(c.passed for c in crit), crit, self.name)

    def _by_round(self, ev: UserEvidence) -> dict[int, list[dict[str, Any]]]:
        out: dict[int, list[dict[str, Any]]] = {}
        for m in ev.user_messages():
            r = m.get("round_index")
            out.setdefault(r if isinstance(r, int) else -1, []).append(m)
        return out

    def _scripted(self, ev: UserEvidence, r: int, text: str) -> bool:
        if not 0 <= r < len(ev.rounds):
            return False
        rnd = ev.rounds[r]
        return any(_matches(text, t, self.match_threshold) for t in [rnd["query"], *rnd.get("clarifications", [])])

    def request_fidelity(self, ev: UserEvidence) -> Criterion:
        by_round = self._by_round(ev)
        problems = []
        if -1 in by_round:
            problems.append(f"{len(by_round[-1])} message(s) before the first scripted query")
        for r, rnd in enumerate(ev.rounds):
            msgs = by_round.get(r, [])
            if not msgs:
                problems.append(f"round {r + 1} query never delivered")
            elif not _matches(msgs[0].get("content", ""), rnd["query"], self.match_threshold):
                problems.append(f"round {r + 1} opened with text that is not its query")
        if problems:
            return Criterion("request_fidelity", False, "; ".join(problems[:4]), "script_deviation")
        return Criterion("request_fidelity", True, f"all {len(ev.rounds)} scripted queries delivered in order")

    def conversational_naturalness(self, ev: UserEvidence) -> Criterion:
        msgs = ev.user_messages()
        problems, kind = [], ""
        for m in msgs:
            text = m.get("content", "")
            r = m.get("round_index")
            scripted = isinstance(r, int) and self._scripted(ev, r, text)
            if not scripted and (_ROLE_SWAP.search(text) or _TOOL_SYNTAX.search(text)):
                problems.append(f"speaks as the assistant: {_clip(text, 80)!r}")
                kind = kind or "role_swap"
            if not text.strip():
                problems.append("an empty message")
                kind = kind or "empty_message"
        for a, b in zip(msgs, msgs[1:]):
            if a.get("content", "").strip() and a.get("content", "").strip() == b.get("content", "").strip():
                problems.append(f"repeated itself: {_clip(a.get('content', ''), 60)!r}")
                kind = kind or "repetition"
                break
        unscripted = [m for m in msgs if not (isinstance(m.get("round_index"), int)
                                              and self._scripted(ev, m["round_index"], m.get("content", "")))]
        if len(unscripted) > self.max_unscripted:
            problems.append(f"{len(unscripted)} unscripted messages (at most {self.max_unscripted})")
            kind = kind or "chatter"
        if problems:
            return Criterion("conversational_naturalness", False, "; ".join(problems[:3]), kind)
        return Criterion("conversational_naturalness", True, f"{len(msgs)} message(s), all in the user's role")

    def grounded_consistency(self, ev: UserEvidence) -> Criterion:
        leaked = []
        for m in ev.user_messages():
            text = m.get("content", "")
            leaked += [v for v in ev.hidden_values if v not in leaked and _mentions(text, v)]
        if leaked:
            return Criterion("grounded_consistency", False,
                             f"stated values only the images/answers contain: {', '.join(repr(v) for v in leaked[:4])}", "leak")
        return Criterion("grounded_consistency", True, "no image-only value was stated by the user")

    def tool_channel_correctness(self, ev: UserEvidence) -> Criterion:
        problems, kind = [], ""
        by_round = self._by_round(ev)
        for r, rnd in enumerate(ev.rounds):
            want = set(rnd.get("image_ids", []))
            sent = {i for m in by_round.get(r, []) for i in m.get("image_ids", [])}
            if want - sent and r in by_round:
                problems.append(f"round {r + 1}: image(s) {sorted(want - sent)} not sent")
                kind = kind or "images_missing"
            if sent - want:
                problems.append(f"round {r + 1}: image(s) {sorted(sent - want)} sent but scripted elsewhere")
                kind = kind or "images_misplaced"
        early = {i for m in by_round.get(-1, []) for i in m.get("image_ids", [])}
        if early:
            problems.append(f"image(s) {sorted(early)} sent before the first round")
            kind = kind or "images_misplaced"
        failed = [c for c in ev.calls if not c.get("ok", True)]
        if failed:
            problems.append(f"{len(failed)} user tool call(s) failed ({failed[0].get('name')})")
            kind = kind or "failed_calls"
        reached = rounds_reached(ev.conversation)
        if ev.truncated or not ev.terminated:
            problems.append("the conversation was not closed with end_conversation")
            kind = kind or "not_closed"
        elif reached < len(ev.rounds):
            problems.append(f"ended after {reached}/{len(ev.rounds)} rounds")
            kind = kind or "ended_early"
        if problems:
            return Criterion("tool_channel_correctness", False, "; ".join(problems[:4]), kind)
        n_img = sum(len(r.get("image_ids", [])) for r in ev.rounds)
        return Criterion("tool_channel_correctness", True, f"{n_img} image(s) sent in their rounds; closed with end_conversation")


# ---------------------------------------------------------------------------------------------
# The LLM variant
# ---------------------------------------------------------------------------------------------

USER_CRITERIA_TEXT = {
    "request_fidelity": "The user delivered each scripted round's request, in order, without inventing new "
                        "requests or dropping parts; answers to the assistant's questions come from the script.",
    "conversational_naturalness": "The user sounds like the phone's owner talking to an assistant: no role swap "
                                  "(never claims to have done the work, never offers help, no tool syntax), no "
                                  "needless repetition or chatter.",
    "grounded_consistency": "The user never states information that only the images contain (the user cannot "
                            "see them) and never contradicts the script.",
    "tool_channel_correctness": "Images were sent with send_message_with_image exactly in the rounds that provide "
                                "them, and the conversation was ended with end_conversation after the last round.",
}

_USER_SYSTEM = """You audit the USER side of a conversation between a phone's owner (the user, played by a simulator
following a script) and an assistant. You get the script (rounds with the request, the images the user must
send, private instructions and clarification answers), the full conversation, the user's tool calls, values that
only the images show (the user cannot see images), and the images themselves.

Decide each criterion independently, pass or fail:
{criteria}

Reply with one JSON object and nothing else:
{{"criteria": {{"<criterion>": {{"pass": true or false, "reason": "<one sentence citing the evidence>"}}, ...}}}}
with exactly these criterion keys: {names}."""


def user_evidence_text(ev: UserEvidence, *, item_chars: int = 600, image_ids: Sequence[int] = ()) -> str:
    parts = [f"# Scenario {ev.scenario_id}"]
    if ev.description:
        parts.append(f"Description given to the user: {ev.description}")
    parts.append("\n# Script")
    for r, rnd in enumerate(ev.rounds):
        imgs = f" [send images {', '.join(map(str, rnd['image_ids']))}]" if rnd.get("image_ids") else ""
        parts.append(f"ROUND {r + 1} ({rnd.get('kind', 'task')}){imgs}: {rnd['query']}")
        if rnd.get("instructions"):
            parts.append(f"  instructions: {rnd['instructions']}")
        for a in rnd.get("clarifications", []):
            parts.append(f"  clarification answer: {a}")
    parts.append("\n# Conversation")
    parts.extend(_conversation_lines(ev.conversation, item_chars))
    parts.append("\n# User tool calls")
    parts.extend(f"{c.get('name')}({_clip(c.get('arguments'), 200)}) -> {'ok' if c.get('ok', True) else 'ERROR ' + str(c.get('error'))}"
                 for c in ev.calls)
    parts.append(f"\nEnded with end_conversation: {'yes' if ev.terminated else 'no'}"
                 f"{'; stopped at the message limit' if ev.truncated else ''}.")
    if ev.hidden_values:
        parts.append("Values only the images/expected answers contain: " + "; ".join(ev.hidden_values))
    if image_ids:
        parts.append(f"\n# Images\nAttached below: image(s) {', '.join(map(str, image_ids))}.")
    return "\n".join(parts)


class LLMUserJudge(LLMRubricJudge):
    """The four user criteria judged by a model through a chat backend (cached, repaired, retried)."""

    criteria = USER_CRITERIA
    prompt_version = USER_PROMPT_VERSION
    kind = "user"

    def system_prompt(self) -> str:
        lines = "\n".join(f"- {n}: {USER_CRITERIA_TEXT[n]}" for n in self.criteria)
        return _USER_SYSTEM.format(criteria=lines, names=", ".join(self.criteria))

    def render(self, ev: UserEvidence) -> tuple[str, list[tuple[str, str]]]:
        images = newest_images(ev.image_ids, ev.image_url, self.max_images, ev.image_sources)
        shown = sorted(ev.image_ids)[-self.max_images:] if images else []
        return user_evidence_text(ev, item_chars=self.item_chars, image_ids=shown), images
