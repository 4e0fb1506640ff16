"""The user judge: did the user seat (scripted, LLM or trained) play its script faithfully?

Four criteria, as in the paper. The user is judged on what it controls: it is never blamed for
the agent's failures (nudging a stuck agent, giving up after the 5th failed try) or for an
episode the framework cut off (message limit), and the environment's own entries -- UI-state
notices (``<ui_state_server>`` records of screen taps) and tool-made images -- are not speech.

* request_fidelity -- every round reached was opened with its query; the user moved on from a
  round only after the assistant reported it (read from the conversation alone,
  :func:`mmtsb_env.users.reading.reported`: a report of the work, with each kind of information
  the round asked for) or gave up after the 5th failed try; it never volunteered a later round's
  request and never re-sent a round's request within the round. Rounds that share wording are
  fine: a message matching its own round's script is scripted.
* conversational_naturalness -- the user spoke as the user: no role swap (claiming to have done
  the assistant's work, offering help, tool-call syntax), no empty messages, unscripted replies
  short (at most ``max_reply_chars``).
* grounded_consistency -- the user never stated a value that only the images (or the expected
  answers) contain; it confirmed a scripted wrong claim's correction only after the assistant
  pointed the discrepancy out; and no turn depended on hidden values: once the assistant had
  reported a round (whatever values it reported), the user's next message moved on or ended --
  holding the round open (a nudge after a report) needs the answer key or the database, which
  the user does not have (answering a doubt the assistant raised about the user's own words is
  not holding it open). Independently of those reading rules, when the evidence carries the
  counterfactual replay (:mod:`mmtsb_env.users.counterfactual`: the assistant's actions replayed
  verbatim against the same user policy on a copy of the scenario with every hidden field
  changed), its first changed user turn is ``hidden_dependence``; a replay that could not compare
  every turn (the copy ended or waited on another seat, or could not be built) is
  ``replay_inconclusive``, not a pass. Where the changed world showed the user other entries
  (a notice quoting a world row), the copy's user is shown the recorded ones and the replay goes on.
* tool_channel_correctness -- each scenario image went out once, through
  ``send_message_with_image``, in a round that provides it; user tool calls (other than taps on
  the assistant's screens) did not fail; the conversation was closed with ``end_conversation``
  after the last round or on giving up, or was cut off by the environment.

:class:`UserJudge` checks these deterministically; :class:`LLMUserJudge` asks a model through a
chat backend with the same evidence (cached and repaired like :class:`~.llm_judge.LLMJudge`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..textcache import text_cache
from ..ui.choice import ALREADY_CHOSEN, CANNOT_CHOOSE, UNKNOWN_CHOICE
from ..users.reading import expectation, flags_claim, flags_own_words, read, reported
from .evidence import field_of, rounds_reached
from .judge import Criterion, Verdict, normalise, numbers_in
from .llm_judge import LLMRubricJudge, _clip, _conversation_lines, newest_images
from .similarity import as_number, rouge_l

USER_CRITERIA = ("request_fidelity", "conversational_naturalness", "grounded_consistency", "tool_channel_correctness")
USER_PROMPT_VERSION = "mmtsb-user-judge-4"
# A round's opening that carries the round's images is recognised by them; its text must still be a
# recognisable paraphrase of the request (ROUGE-L with the query), a looser bar than for text alone.
IMAGE_OPENING_MATCH = 0.4
GIVE_UP_TRIES = 5  # the user may end a round it cannot get done after this many assistant replies
UI_STATE_MARKER = "<ui_state_server>"
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
    # {"query", "image_ids", "instructions", "kind", "clarifications": [answer, ...], "report", "expects",
    #  "wrong_claim": {"text", "confirm", "keywords"} | None, "hold_images", "guidance", "ui", "templates"}
    rounds: list[dict[str, Any]]
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
    n_scenario_images: int | None = None  # ids below this are the scenario's (the user's to send)
    # The counterfactual replay (mmtsb_env.users.counterfactual.Replay.to_json()); None when not run
    # (a recorded episode: the user policy is not at hand).
    replay: dict[str, Any] | None = None

    def user_messages(self) -> list[dict[str, Any]]:
        return [e for e in self.conversation if e.get("sender") == "user" and e.get("kind") == "message"]

    def spoken(self) -> list[dict[str, Any]]:
        """The user's own words: its messages minus the environment's UI-state records of taps."""
        return [m for m in self.user_messages() if not is_ui_state(m)]

    def script_text(self) -> str:
        parts = [self.description]
        for r in self.rounds:
            parts += [r.get("query", ""), r.get("instructions", ""), *r.get("clarifications", [])]
            parts += [v for v in (r.get("guidance") or {}).values() if isinstance(v, str)]
            if r.get("wrong_claim"):
                parts.append(r["wrong_claim"]["confirm"])
        return "\n".join(p for p in parts if p)


def is_ui_state(entry: Mapping[str, Any]) -> bool:
    """A ``ui_user_interact`` record: the environment's account of a tap, not the user speaking."""
    return str(entry.get("content", "")).lstrip().startswith(UI_STATE_MARKER)


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
    facts the assistant must report, minus those the user's own lines contain (its script and its
    fixed lines, :func:`mmtsb_env.users.rules.own_lines`): saying its own line is never a leak."""
    raw: list[Any] = list(getattr(scenario, "facts", ()))
    for rnd in getattr(scenario, "rounds", ()):
        raw += list(getattr(rnd, "report", ()))
    for spec in getattr(scenario, "images", ()):
        raw += [v for _, v in _flatten(dict(spec.facts))]
        if spec.render is not None:
            try:
                from ..vision.render import render

                raw += [v for _, v in _flatten(render(spec.render).facts)]
            except (ValueError, KeyError):  # an unrenderable spec is reported by the loader, not here
                pass
    from ..users.rules import own_lines

    script = normalise("\n".join(own_lines(scenario)))
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
    from ..users.rules import scripted_texts

    out = []
    for k, r in enumerate(scenario.rounds):
        claim = r.wrong_claim
        out.append({
            "query": r.query, "image_ids": list(r.image_ids), "instructions": r.instructions, "kind": r.kind,
            "clarifications": [c.answer for c in r.clarifications], "report": list(r.report),
            "expects": list(expectation(r)), "hold_images": list(r.guidance.hold_images), "ui": r.ui is not None,
            "guidance": {"ask": r.guidance.ask, "on_question": r.guidance.on_question,
                         "permission": r.guidance.permission},
            "wrong_claim": {"text": claim.text, "confirm": claim.confirm, "keywords": list(claim.keywords)} if claim else None,
            "templates": scripted_texts(scenario, k),
            "ui_pick": (r.ui.pick or {}).get("label_contains") if r.ui is not None else None,
        })
    return out


def user_evidence_from_episode(episode: Any, user: Any = None) -> UserEvidence:
    """:class:`UserEvidence` of a live (or finished) :class:`~mmtsb_env.episode.engine.Episode`;
    with the ``user`` policy that played it, the counterfactual replay is run too
    (:func:`mmtsb_env.users.counterfactual.replay`)."""
    sc = episode.scenario
    replayed = None
    if user is not None:
        from ..users.counterfactual import replay

        replayed = replay(episode, user).to_json()
    return UserEvidence(
        scenario_id=sc.id, rounds=_rounds_of(sc), conversation=[e.to_json() for e in episode.log],
        calls=[c.to_json() for c in episode.calls if c.seat == "user"], terminated=episode.terminated,
        truncated=episode.truncated, hidden_values=hidden_values(sc), description=sc.description,
        metadata=dict(sc.metadata), image_ids=list(range(len(episode.images))),
        image_sources=[episode.images.source(i) for i in range(len(episode.images))], image_url=episode.image_url,
        n_scenario_images=len(sc.images), replay=replayed,
    )


def user_evidence_from_record(record: Any, scenario: Any, replay: bool = True) -> UserEvidence:
    """:class:`UserEvidence` of a recorded episode (needs its scenario for the script). With
    ``replay``, the counterfactual replay runs again from what the record stored
    (:func:`mmtsb_env.users.counterfactual.replay_record`); when it cannot, the verdict says why."""
    from .evidence import _url_loader

    replayed = None
    if replay:
        from ..users.counterfactual import replay_record

        replayed = replay_record(record, scenario).to_json()

    sources = list(field_of(record, "image_sources") or [])
    return UserEvidence(
        scenario_id=scenario.id, rounds=_rounds_of(scenario), conversation=list(field_of(record, "log") or []),
        calls=[c for c in field_of(record, "calls") or [] if c.get("seat") == "user"],
        terminated=bool(field_of(record, "terminated")), truncated=bool(field_of(record, "truncated")),
        hidden_values=hidden_values(scenario), description=scenario.description, metadata=dict(scenario.metadata),
        image_ids=list(range(len(sources))), image_sources=sources, image_url=_url_loader(record),
        n_scenario_images=len(scenario.images), replay=replayed,
    )


# ---------------------------------------------------------------------------------------------
# The deterministic judge
# ---------------------------------------------------------------------------------------------


def _matches(text: str, target: str, threshold: float) -> bool:
    return bool(target.strip()) and (text.strip() == target.strip() or rouge_l(target, text) >= threshold)


def _mentions(text: str, value: str) -> bool:
    num = as_number(value)
    if num is not None:
        return any(as_number(n) == num for n in numbers_in(text))
    return _whole_word(normalise(value)).search(normalise(text)) is not None


@text_cache(maxsize=8192)
def _whole_word(needle: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(needle) + r"(?!\w)")


class _Claim:
    """A wrong claim as :func:`~mmtsb_env.users.reading.flags_claim` reads it, from evidence data."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.text, self.keywords = data["text"], tuple(data.get("keywords", ()))


def _round_of(m: Mapping[str, Any]) -> int:
    r = m.get("round_index")
    return r if isinstance(r, int) else -1


class UserJudge:
    """Deterministic checks of the user seat (see the module docstring)."""

    name = "user-rubric"

    def __init__(self, *, match_threshold: float = 0.7, max_reply_chars: int = 400, give_up_tries: int = GIVE_UP_TRIES) -> None:
        self.match_threshold = match_threshold
        self.max_reply_chars = max_reply_chars
        self.give_up_tries = give_up_tries

    def evaluate(self, ev: UserEvidence) -> Verdict:
        crit = [self.request_fidelity(ev), self.conversational_naturalness(ev), self.grounded_consistency(ev),
                self.tool_channel_correctness(ev)]
        details = {"counterfactual_replay": ev.replay} if ev.replay is not None else {}
        return Verdict(all(c.passed for c in crit), crit, self.name, details)

    # -- shared readings ---------------------------------------------------------------------
    def _by_round(self, ev: UserEvidence) -> dict[int, list[dict[str, Any]]]:
        out: dict[int, list[dict[str, Any]]] = {}
        for m in ev.spoken():
            out.setdefault(_round_of(m), []).append(m)
        return out

    def _scripted(self, ev: UserEvidence, r: int, text: str) -> bool:
        if not 0 <= r < len(ev.rounds):
            return False
        rnd = ev.rounds[r]
        claim = rnd.get("wrong_claim")
        texts = [rnd["query"], *rnd.get("clarifications", []), *rnd.get("templates", []), *([claim["confirm"]] if claim else [])]
        return any(_matches(text, t, self.match_threshold) for t in texts)

    def _assistant_replies(self, ev: UserEvidence, r: int) -> int:
        return sum(1 for e in ev.conversation if e.get("sender") == "assistant" and e.get("kind") == "message"
                   and e.get("recipient") == "user" and e.get("round_index") == r)

    def _gave_up_fairly(self, ev: UserEvidence) -> bool:
        """The user ended in a round the assistant had replied to at least ``give_up_tries`` times."""
        reached = rounds_reached(ev.conversation)
        return ev.terminated and reached > 0 and self._assistant_replies(ev, reached - 1) >= self.give_up_tries

    # -- criteria ------------------------------------------------------------------------------
    def request_fidelity(self, ev: UserEvidence) -> Criterion:
        by_round = self._by_round(ev)
        problems: list[str] = []
        kind = ""
        if -1 in by_round:
            problems.append(f"{len(by_round[-1])} message(s) before the first scripted query")
            kind = "script_deviation"
        reached = rounds_reached(ev.conversation)
        fair_end = self._gave_up_fairly(ev)
        for r, rnd in enumerate(ev.rounds):
            msgs = by_round.get(r, [])
            if not msgs:
                if r < reached or not (ev.truncated or fair_end):
                    problems.append(f"round {r + 1} query never delivered")
                    kind = kind or "round_missing"
                continue
            carried = bool(rnd.get("image_ids")) and set(rnd["image_ids"]) & set(msgs[0].get("image_ids", []))
            bar = IMAGE_OPENING_MATCH if carried else self.match_threshold
            if not _matches(msgs[0].get("content", ""), rnd["query"], bar):
                problems.append(f"round {r + 1} opened with text that is not its query")
                kind = kind or "script_deviation"
            for m in msgs[1:]:
                text = m.get("content", "")
                if _matches(text, rnd["query"], self.match_threshold):
                    problems.append(f"round {r + 1}: its request was sent again")
                    kind = kind or "redundant_resend"
                elif not self._scripted(ev, r, text):
                    later = [j for j in range(r + 1, len(ev.rounds)) if _matches(text, ev.rounds[j]["query"], 0.5)]
                    if later:
                        problems.append(f"round {r + 1}: volunteered round {later[0] + 1}'s request early")
                        kind = kind or "skipped_ahead"
        for r in range(min(reached, len(ev.rounds))):
            left = r < reached - 1 or (ev.terminated and not ev.truncated)
            if left and not ev.rounds[r].get("ui") and not self._reported_when_left(ev, r) \
                    and not (r == reached - 1 and fair_end):
                problems.append(f"moved on from round {r + 1} before the assistant reported it")
                kind = kind or "skipped_round"
        if problems:
            return Criterion("request_fidelity", False, "; ".join(problems[:4]), kind)
        return Criterion("request_fidelity", True, f"{reached}/{len(ev.rounds)} scripted round(s) delivered in order, each after the previous was reported")

    def conversational_naturalness(self, ev: UserEvidence) -> Criterion:
        msgs = ev.spoken()
        problems, kind = [], ""
        for m in msgs:
            text = m.get("content", "")
            scripted = self._scripted(ev, _round_of(m), text)
            if not text.strip():
                problems.append("an empty message")
                kind = kind or "empty_message"
            elif not scripted and (_ROLE_SWAP.search(text) or _TOOL_SYNTAX.search(text)):
                problems.append(f"speaks as the assistant: {_clip(text, 80)!r}")
                kind = kind or "role_swap"
            elif not scripted and len(text) > self.max_reply_chars:
                problems.append(f"an unscripted message of {len(text)} characters (at most {self.max_reply_chars})")
                kind = kind or "rambling"
        if problems:
            return Criterion("conversational_naturalness", False, "; ".join(problems[:3]), kind)
        return Criterion("conversational_naturalness", True, f"{len(msgs)} message(s), all in the user's role")

    def grounded_consistency(self, ev: UserEvidence) -> Criterion:
        leaked: list[str] = []
        for m in ev.spoken():
            text = m.get("content", "")
            leaked += [v for v in ev.hidden_values if v not in leaked and _mentions(text, v)]
        if leaked:
            return Criterion("grounded_consistency", False,
                             f"stated values only the images/answers contain: {', '.join(repr(v) for v in leaked[:4])}", "leak")
        problems, kind = [], ""
        for r, prev, m in self._turns(ev):
            rnd = ev.rounds[r]
            text = m.get("content", "")
            claim = rnd.get("wrong_claim")
            flagged = claim is not None and flags_claim(prev, _Claim(claim))
            doubted = flags_own_words(prev, rnd["query"], _Claim(claim) if claim is not None else None)
            if claim is not None and _matches(text, claim["confirm"], self.match_threshold) and not flagged:
                problems.append(f"round {r + 1}: confirmed the correction before the assistant pointed it out")
                kind = kind or "unprompted_correction"
            elif rnd.get("ui") and self._answers_screen(ev, m):
                pick = rnd.get("ui_pick")
                said = " ".join(f"{q['query']} {q.get('instructions', '')} {' '.join(q.get('clarifications', []))}"
                                for q in ev.rounds[: r + 1]).lower()
                if text.strip() == CANNOT_CHOOSE and pick and str(pick).lower() not in said \
                        and self._screen_options(ev, m) >= 2:
                    problems.append(f"round {r + 1}: refused a screen for lacking {pick!r}, a name the user was never told "
                                    "(a check only the images explain)")
                    kind = kind or "hidden_dependence"
            elif not doubted and not self._carries_held(ev, r, m) and self._reported_before(ev, r, m):
                problems.append(f"round {r + 1}: kept the round open after the assistant reported it "
                                f"(a decision only hidden values explain): {_clip(text, 60)!r}")
                kind = kind or "hidden_dependence"
        changed = (ev.replay or {}).get("difference")
        if changed:
            problems.insert(0, f"round {changed['round']}: user turn {changed['turn']} changed when the hidden fields "
                               f"did ({changed['why']}): {_clip(changed['recorded'], 80)!r} became "
                               f"{_clip(changed['replayed'], 80)!r}")
            kind = "hidden_dependence"
        unfinished = (ev.replay or {}).get("diverged") or (ev.replay or {}).get("error")
        if unfinished and not problems:  # a replay that could not compare every turn proves nothing: not a pass
            problems.append(f"the counterfactual replay is inconclusive after {ev.replay.get('turns', 0)} turn(s): "
                            f"{unfinished}")
            kind = "replay_inconclusive"
        if problems:
            return Criterion("grounded_consistency", False, "; ".join(problems[:3]), kind)
        replayed = ""
        if ev.replay is not None and ev.replay.get("skipped"):
            replayed = f"; not replayed: {ev.replay['skipped']}"
        elif ev.replay is not None:
            fed = ev.replay.get("fed_recorded", 0)
            replayed = f"; {ev.replay.get('turns', 0)} turn(s) the same with the hidden fields changed" + (
                f" ({fed} shown the recorded entries where the changed world showed others)" if fed else "")
        return Criterion("grounded_consistency", True,
                         "no image-only value stated; every move follows from the conversation and the script" + replayed)

    # -- the conversation, read blind ----------------------------------------------------------
    def _turns(self, ev: UserEvidence) -> list[tuple[int, str, dict[str, Any]]]:
        """``(round, the assistant's last message before it, message)`` for each user message that
        answers the assistant within a round (not a round's opening)."""
        out, last, opened = [], "", set()
        for e in ev.conversation:
            if e.get("sender") == "assistant" and e.get("kind") == "message" and e.get("recipient") == "user":
                last = e.get("content", "")
            elif e.get("sender") == "user" and e.get("kind") == "message" and not is_ui_state(e):
                r = _round_of(e)
                if 0 <= r < len(ev.rounds):
                    if r in opened:
                        out.append((r, last, e))
                    opened.add(r)
        return out

    @staticmethod
    def _screen_before(ev: UserEvidence, m: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The screen ``m`` answers: the last UI-state notice to the user before it in its round."""
        screen = None
        for e in ev.conversation:
            if e is m:
                break
            if is_ui_state(e) and e.get("round_index") == m.get("round_index"):
                screen = e
        return screen

    @staticmethod
    def _last_to_user(ev: UserEvidence, m: Mapping[str, Any]) -> Mapping[str, Any] | None:
        last = None
        for e in ev.conversation:
            if e is m:
                break
            if e.get("recipient") == "user":
                last = e
        return last

    def _answers_screen(self, ev: UserEvidence, m: Mapping[str, Any]) -> bool:
        """``m`` answers a screen: the last entry to the user is a screen or a failed tap's error, or
        ``m`` is one of the user's fixed answers to a screen shown before it (the assistant may have
        spoken since)."""
        last = self._last_to_user(ev, m)
        if last is not None and (is_ui_state(last) or last.get("kind") == "error"):
            return True
        return str(m.get("content", "")).strip() in (CANNOT_CHOOSE, UNKNOWN_CHOICE, ALREADY_CHOSEN) \
            and self._screen_before(ev, m) is not None

    def _screen_options(self, ev: UserEvidence, m: Mapping[str, Any]) -> int:
        """How many options the screen ``m`` answers offered (its buttons and choice options)."""
        screen = self._screen_before(ev, m)
        text = str(screen.get("content", "")) if screen is not None else ""
        buttons = len(re.findall(r"^- Button\b", text, re.M))
        return buttons + sum(opts.count('"=') for opts in re.findall(r"^- MultipleChoice\b.*?options: (.*?); choose up to",
                                                                    text, re.M))

    def _replies_before(self, ev: UserEvidence, r: int, stop: Mapping[str, Any] | None) -> list[str]:
        out = []
        for e in ev.conversation:
            if stop is not None and e is stop:
                break
            if e.get("sender") == "assistant" and e.get("kind") == "message" and e.get("recipient") == "user" \
                    and e.get("round_index") == r:
                out.append(e.get("content", ""))
        return out

    def _reported_before(self, ev: UserEvidence, r: int, m: Mapping[str, Any]) -> bool:
        return reported([read(t) for t in self._replies_before(ev, r, m)], ev.rounds[r].get("expects", ()),
                        ev.rounds[r].get("query", ""))

    def _reported_when_left(self, ev: UserEvidence, r: int) -> bool:
        return reported([read(t) for t in self._replies_before(ev, r, None)], ev.rounds[r].get("expects", ()),
                        ev.rounds[r].get("query", ""))

    def _carries_held(self, ev: UserEvidence, r: int, m: Mapping[str, Any]) -> bool:
        held = set(ev.rounds[r].get("hold_images", []))
        return bool(held & set(m.get("image_ids", [])))

    def tool_channel_correctness(self, ev: UserEvidence) -> Criterion:
        problems, kind = [], ""
        limit = ev.n_scenario_images if ev.n_scenario_images is not None else max(ev.image_ids, default=-1) + 1
        by_round = self._by_round(ev)
        scripted_in: dict[int, set[int]] = {}
        for r, rnd in enumerate(ev.rounds):
            for i in rnd.get("image_ids", []):
                scripted_in.setdefault(i, set()).add(r)
        seen: dict[int, int] = {}
        for m in ev.spoken():
            for i in m.get("image_ids", []):
                if i < limit:
                    seen[i] = seen.get(i, 0) + 1
        twice = sorted(i for i, n in seen.items() if n > 1)
        if twice:
            problems.append(f"image(s) {twice} sent more than once")
            kind = "images_resent"
        reached = rounds_reached(ev.conversation)
        sent_before: set[int] = set()
        for r, rnd in enumerate(ev.rounds):
            sent = {i for m in by_round.get(r, []) for i in m.get("image_ids", []) if i < limit}
            want = set(rnd.get("image_ids", [])) - sent_before
            if r < reached and want - sent:
                problems.append(f"round {r + 1}: image(s) {sorted(want - sent)} not sent")
                kind = kind or "images_missing"
            misplaced = sorted(i for i in sent if r not in scripted_in.get(i, set()))
            if misplaced:
                problems.append(f"round {r + 1}: image(s) {misplaced} sent but scripted elsewhere")
                kind = kind or "images_misplaced"
            sent_before |= sent
        early = {i for m in by_round.get(-1, []) for i in m.get("image_ids", []) if i < limit}
        if early:
            problems.append(f"image(s) {sorted(early)} sent before the first round")
            kind = kind or "images_misplaced"
        failed = [c for c in ev.calls if not c.get("ok", True) and not str(c.get("name", "")).startswith("ui_")]
        if failed:
            problems.append(f"{len(failed)} user tool call(s) failed ({failed[0].get('name')})")
            kind = kind or "failed_calls"
        if not ev.truncated:
            if not ev.terminated:
                problems.append("the conversation was not closed with end_conversation")
                kind = kind or "not_closed"
            elif reached < len(ev.rounds) and not self._gave_up_fairly(ev):
                problems.append(f"ended after {reached}/{len(ev.rounds)} rounds")
                kind = kind or "ended_early"
        if problems:
            return Criterion("tool_channel_correctness", False, "; ".join(problems[:4]), kind)
        n_img = len(seen)
        how = "cut off by the environment" if ev.truncated else "closed with end_conversation"
        return Criterion("tool_channel_correctness", True, f"{n_img} image(s) sent once in their rounds; {how}")


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
                            "see them or the phone's data) and never contradicts the script; it acts only on what "
                            "the conversation shows: once the assistant reports a round it moves on whatever values "
                            "were reported, and it confirms a scripted wrong claim's correction only after the "
                            "assistant points the discrepancy out.",
    "tool_channel_correctness": "Images were sent with send_message_with_image exactly in the rounds that provide "
                                "them, and the conversation was ended with end_conversation after the last round.",
}

_USER_SYSTEM = """You audit the USER side of a conversation between a phone's owner (the user, played by a simulator
following a script) and an assistant. You get the script (rounds with the request, the images the user must
send, private instructions and clarification answers), the full conversation, the user's tool calls, values that
only the images show (the user cannot see images), the images themselves, and, when it was run, a counterfactual
replay: the assistant's turns replayed against the same user with every hidden value changed (a user turn that
changed depended on something the user cannot know).

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
        if (rnd.get("guidance") or {}).get("ask"):
            parts.append(f"  guidance: {rnd['guidance']['ask']}")
        if rnd.get("wrong_claim"):
            parts.append(f"  scripted wrong claim: {rnd['wrong_claim']['text']!r}; confirms the correction with: "
                         f"{rnd['wrong_claim']['confirm']}")
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
    if ev.replay is not None:
        changed = ev.replay.get("difference")
        outcome = (f"user turn {changed['turn']} (round {changed['round']}) changed: {changed['recorded']!r} became "
                   f"{changed['replayed']!r}" if changed else f"{ev.replay.get('turns', 0)} user turn(s), all the same")
        parts.append("Counterfactual replay (the assistant's turns replayed verbatim against the same user with every "
                     f"hidden value changed): {outcome}.")
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
