"""The behaviour zoo: scripted agents derived from the oracle, each with a known right verdict.

Every reward and judge decision must hold for agents that are not the oracle. Each zoo agent plays
a scenario's reference solution with one deliberate difference and declares what a correct judge
must say about it: ``should_pass``, and for a failing agent the primary failure class of the
paper's taxonomy (``expected_category``; see :mod:`mmtsb_env.evaluation.taxonomy`).

Correct but different (should pass): :class:`Terse`, :class:`Reformatted`, :class:`Polite`,
:class:`ExtraReads`, :class:`ConfirmsFirst`. Wrong the way models are wrong (should fail):
:class:`Misreads`, :class:`WrongEntity`, :class:`SkipsRound`, :class:`ClaimsWithoutDoing`,
:class:`Hedges`, :class:`NumberCarpet`, :class:`CollateralWrite`, :class:`WrongDetail`,
:class:`GivesUp`.

The agents do not depend on how the user advances rounds: when the user moves on before a round's
work is done (a question the user does not answer), the remaining steps are still played, before
the next round's; a round's work never waits for the user's approval. ``applies(scenario)`` says
whether a behaviour can be shown on a scenario (a misreading needs a number read from an image).

>>> import mmtsb_env
>>> from mmtsb_env.runner import run_episode
>>> demo = {s.id: s for s in mmtsb_env.load_suite("demo")}
>>> rec = run_episode(demo["demo/compare_receipts"], Hedges(list(demo.values())))
>>> rec.passed, rec.entity_f1, Hedges.expected_category(demo["demo/compare_receipts"])
(False, 1.0, 'factual_error')
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable

from ..evaluation.similarity import as_number, is_text_column, text_contains
from ..scenario.model import Scenario
from ..tools.catalog import get_tool
from ..scenario.suites import load_suite
from ..users.reading import expectation
from .oracle import _last_result, _resolve

Step = dict[str, Any]

_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b(?!T|:)")
_MONEY = re.compile(r"\$(\d{1,3}(?:,\d{3})+|\d+)\.(\d{2})\b")
_DECIMAL = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)\.(\d+)(?![\d])")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_TEXT_KEYS = ("content", "added_content", "body", "message", "description", "note", "text", "comment", "summary")


def _writes(step: Step) -> bool:
    if "name" not in step:
        return False
    try:
        return bool(get_tool(step["name"]).writes)
    except KeyError:
        return False


def round_facts(scenario: Scenario, index: int) -> list[str]:
    """The facts round ``index``'s reply states: its ``report``; for a scenario without any
    report, the legacy scenario ``facts`` in the last round."""
    if any(r.report for r in scenario.rounds):
        return list(scenario.rounds[index].report)
    return list(scenario.facts) if index == len(scenario.rounds) - 1 else []


def claimable(scenario: Scenario, index: int) -> list[str]:
    """What round ``index``'s reply can make claims about: its facts (:func:`round_facts`), else
    the decimal numbers it writes (amounts read from images or computed)."""
    facts = round_facts(scenario, index)
    if facts:
        return facts
    said = _user_words(scenario)
    found = [m.group(0) for step in scenario.rounds[index].solution if _writes(step)
             for m in _DECIMAL.finditer(json.dumps(step.get("arguments", {}), ensure_ascii=False))]
    expected = _expected_text(scenario)
    return [n for n in dict.fromkeys(found) if not text_contains(n, said) and n in expected]


def _expected_text(scenario: Scenario) -> str:
    return json.dumps([c.row or c.fields for c in scenario.expected_changes], ensure_ascii=False)


def _user_words(scenario: Scenario) -> str:
    parts = [scenario.description] + [r.query for r in scenario.rounds] + [c.answer for r in scenario.rounds for c in r.clarifications]
    return "\n".join(parts)


def _map_strings(value: Any, fn) -> Any:
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, list):
        return [_map_strings(v, fn) for v in value]
    if isinstance(value, dict) and set(value) != {"$ref"}:
        return {k: _map_strings(v, fn) for k, v in value.items()}
    return value


class ZooAgent:
    """Plays the oracle's solution through :meth:`steps` and :meth:`closing` (hooks subclasses change).

    Args:
        scenarios: where to look up ``info["scenario_id"]`` (default: every built-in suite).
        mode: ``"tool"`` or ``"code"``.
    """

    name = "zoo"
    should_pass = True
    category: str | None = None

    def __init__(self, scenarios: Iterable[Scenario] | None = None, mode: str = "tool") -> None:
        if scenarios is None:
            scenarios = [s for name in ("demo", "nominal", "ui") for s in load_suite(name)]
        self.scenarios = {s.id: s for s in scenarios}
        self.mode = mode
        self._key: Any = None

    # -- what a behaviour changes ------------------------------------------------------------------
    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return not scenario.ui

    @classmethod
    def expected_category(cls, scenario: Scenario) -> str | None:
        return cls.category

    def steps(self, scenario: Scenario, index: int) -> list[Step]:
        return list(scenario.rounds[index].solution)

    def closing(self, scenario: Scenario, index: int) -> str:
        return scenario.rounds[index].answer or "Done."

    # -- playing ---------------------------------------------------------------------------------------
    def reset(self) -> None:
        self._key = None

    def act(self, obs: Any, info: dict[str, Any]) -> str:
        scenario = self.scenarios[info["scenario_id"]]
        if scenario.id != self._key or info.get("step", 0) == 0:  # a new episode
            self._key, self._planned, self._queue, self._closings = scenario.id, -1, [], []
            self._saved: dict[str, Any] = {}
            self._pending: str | None = None
        if self._pending is not None:
            self._saved[self._pending] = _last_result(info)
            self._pending = None
        current = max(0, min(info.get("round_index", 0), len(scenario.rounds) - 1))
        while self._planned < current:  # a new round: its work joins whatever is left of earlier ones
            self._planned += 1
            self._queue += self.steps(scenario, self._planned)
            self._closings.append(self.closing(scenario, self._planned))
        if self._queue:
            step = self._queue.pop(0)
            if "say" in step:
                return step["say"]
            try:
                arguments = _resolve(step.get("arguments", {}), self._saved)
            except (KeyError, IndexError, TypeError):  # an earlier step of the plan failed: the plan cannot go on
                self._queue = [s for s in self._queue if not _has_ref(s.get("arguments"))]
                return self.act(obs, info)
            self._pending = step.get("save_as")
            return self._format_call(step["name"], arguments)
        if self._closings:
            text = " ".join(self._closings)
            self._closings = []
            return text
        return self.idle(scenario, current)

    def idle(self, scenario: Scenario, index: int) -> str:
        """What the agent says when asked again after it has finished a round."""
        return self.closing(scenario, index)

    def _format_call(self, name: str, arguments: dict[str, Any]) -> str:
        if self.mode == "code":
            args = json.dumps(arguments, ensure_ascii=False)
            return f"```python\nimport json\nresult = {name}(**json.loads({args!r}))\nprint(json.dumps(result))\n```"
        return json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)


# ---------------------------------------------------------------------------------------------
# Correct but different: should pass
# ---------------------------------------------------------------------------------------------


class Terse(ZooAgent):
    """"Done." after an action-only round; the bare facts after a round that asks for information."""

    name = "terse"

    def closing(self, scenario: Scenario, index: int) -> str:
        facts = round_facts(scenario, index)
        if not facts and expectation(scenario.rounds[index]) != ("done",):
            facts = claimable(scenario, index)  # asked to list what it writes: the values, bare
        return (", ".join(facts) + ".") if facts else "Done."


def reformat_text(text: str, *, reorder: bool = False) -> str:
    """ISO dates as "May 9, 2026", "$1,234.50" as "1234.50 USD"; with ``reorder``, the lines of a
    multi-line text in reverse order.

    >>> reformat_text("Sunrise Diner $18.53\\nParking $1,009.00 on 2026-05-09", reorder=True)
    'Parking 1009.00 USD on May 9, 2026\\nSunrise Diner 18.53 USD'
    """
    out = _ISO_DATE.sub(lambda m: f"{_MONTHS[int(m.group(2)) - 1]} {int(m.group(3))}, {m.group(1)}"
                        if 1 <= int(m.group(2)) <= 12 else m.group(0), text)
    out = _MONEY.sub(lambda m: f"{m.group(1).replace(',', '')}.{m.group(2)} USD", out)
    lines = out.split("\n")
    if reorder and len(lines) > 1 and all(line.strip() for line in lines):
        out = "\n".join(reversed(lines))
    return out


class Reformatted(ZooAgent):
    """Writes and says the same values in other formats: dates spelled out, amounts with a currency
    code and no separators, titles in lower case, list lines in another order (a text put back as
    it was stored is written as stored)."""

    name = "reformatted"

    def steps(self, scenario: Scenario, index: int) -> list[Step]:
        stored = {v for rows in scenario.initial_entities.values() for row in rows for v in row.values() if isinstance(v, str)}
        out = []
        for step in super().steps(scenario, index):
            if _writes(step):
                args = dict(step.get("arguments", {}))
                for key, value in args.items():
                    if not isinstance(value, str) or value in stored:  # putting back what was stored is kept exact
                        continue
                    if key in _TEXT_KEYS:
                        args[key] = reformat_text(value, reorder=True)
                    elif key == "title":
                        args[key] = reformat_text(value).lower()
                step = {**step, "arguments": args}
            out.append(step)
        return out

    def closing(self, scenario: Scenario, index: int) -> str:
        return reformat_text(super().closing(scenario, index))


class Polite(ZooAgent):
    """The oracle's replies wrapped in courtesy."""

    name = "polite"

    def closing(self, scenario: Scenario, index: int) -> str:
        return f"Of course, happy to help! {super().closing(scenario, index)} Thank you for your patience, and have a lovely day."


class ExtraReads(ZooAgent):
    """Looks around more than it needs to: checks every image of the round and repeats each of the
    oracle's reads before acting."""

    name = "extra_reads"

    def steps(self, scenario: Scenario, index: int) -> list[Step]:
        rnd = scenario.rounds[index]
        base = super().steps(scenario, index)
        extra = [{"name": "get_image_size", "arguments": {"image_id": i}} for i in rnd.image_ids]
        extra += [{"name": s["name"], "arguments": s.get("arguments", {})} for s in base
                  if "name" in s and not _writes(s) and not _has_ref(s.get("arguments"))]
        return extra + base


def _has_ref(value: Any) -> bool:
    if isinstance(value, dict):
        return set(value) == {"$ref"} or any(_has_ref(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_ref(v) for v in value)
    return False


def _confirm_round(scenario: Scenario) -> int | None:
    """A round that can take a confirmation question: not the last (the user may end on an unanswered
    question), without clarifications (the question must not consume one), before a round without
    state changes (the user must not change the world while the work is pending)."""
    for i, rnd in enumerate(scenario.rounds[:-1]):
        if not rnd.clarifications and rnd.ui is None and not scenario.rounds[i + 1].state_changes:
            return i
    return None


class ConfirmsFirst(ZooAgent):
    """Asks a harmless confirmation question before starting a round, then does the work whatever
    the user answers."""

    name = "confirms_first"
    QUESTION = "Before I start, just to confirm: you want me to go ahead with exactly this request?"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and _confirm_round(scenario) is not None

    def steps(self, scenario: Scenario, index: int) -> list[Step]:
        base = super().steps(scenario, index)
        return ([{"say": self.QUESTION}] + base) if index == _confirm_round(scenario) else base


# ---------------------------------------------------------------------------------------------
# Wrong the way models are wrong: should fail
# ---------------------------------------------------------------------------------------------


def _misread(number: str) -> str:
    """The same number with its leading digit misread by 4: "22.13" -> "62.13", "9.00" -> "5.00".

    >>> [_misread(n) for n in ("22.13", "59.44", "9.00", "0.50", "1,200.00")]
    ['62.13', '99.44', '5.00', '4.50', '5,200.00']
    """
    digit = int(number[0])
    return str(digit + 4 if digit <= 5 else digit - 4) + number[1:]


def misread_target(scenario: Scenario) -> str | None:
    """A decimal number the oracle writes or reports that comes from an image or the world (the user
    never says it), as written; ``None`` when there is none."""
    said = _user_words(scenario)
    texts = []
    for rnd in scenario.rounds:
        for step in rnd.solution:
            if _writes(step):
                texts.append(json.dumps(step.get("arguments", {}), ensure_ascii=False))
        texts += list(rnd.report)
    expected = _expected_text(scenario)
    for text in texts:
        for m in _DECIMAL.finditer(text):
            number = m.group(0)
            if not text_contains(number, said) and (number in expected or any(number in f for f in round_facts(scenario, len(scenario.rounds) - 1))):
                return number
    return None


class Misreads(ZooAgent):
    """Reads one number off an image wrongly and uses the wrong value everywhere (writes, replies)."""

    name = "misreads"
    should_pass = False
    category = "factual_error"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and misread_target(scenario) is not None

    def _swap(self, scenario: Scenario):
        number = misread_target(scenario)
        wrong = _misread(number)
        pattern = re.compile(r"(?<![\d.,])" + re.escape(number) + r"(?![\d])")
        value = float(number.replace(",", ""))
        wrong_value = float(wrong.replace(",", ""))

        def swap(v: Any) -> Any:
            if isinstance(v, str):
                return pattern.sub(wrong, v)
            if isinstance(v, float) and abs(v - value) < 1e-9:
                return wrong_value
            if isinstance(v, list):
                return [swap(x) for x in v]
            if isinstance(v, dict) and set(v) != {"$ref"}:
                return {k: swap(x) for k, x in v.items()}
            return v

        return swap

    def steps(self, scenario: Scenario, index: int) -> list[Step]:
        swap = self._swap(scenario)
        return [{**s, "arguments": swap(s.get("arguments", {}))} if _writes(s) else s for s in super().steps(scenario, index)]

    def closing(self, scenario: Scenario, index: int) -> str:
        return self._swap(scenario)(super().closing(scenario, index))


def wrong_entity_target(scenario: Scenario) -> tuple[int, int] | None:
    """(key the oracle updates or deletes, another row of the same table to act on instead)."""
    for change in scenario.expected_changes:
        if change.operation not in ("update", "delete") or not isinstance(change.key, int):
            continue
        rows = scenario.initial_entities.get(change.table, [])
        others = [r.get("id") for r in rows if isinstance(r.get("id"), int) and r.get("id") != change.key]
        used = any(change.key in _int_args(s) for r in scenario.rounds for s in r.solution if _writes(s))
        if others and used:
            return change.key, others[0]
    return None


def _int_args(step: Step) -> list[int]:
    return [v for k, v in step.get("arguments", {}).items() if isinstance(v, int) and not isinstance(v, bool)
            and (k == "id" or k.endswith("_id"))]


class WrongEntity(ZooAgent):
    """Updates or deletes a similar but wrong row (another note of the same kind)."""

    name = "wrong_entity"
    should_pass = False
    category = "task_failure"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and wrong_entity_target(scenario) is not None

    def steps(self, scenario: Scenario, index: int) -> list[Step]:
        right, wrong = wrong_entity_target(scenario)
        out = []
        for s in super().steps(scenario, index):
            if _writes(s):
                s = {**s, "arguments": {k: (wrong if v == right and not isinstance(v, bool) and (k == "id" or k.endswith("_id")) else v)
                                        for k, v in s.get("arguments", {}).items()}}
            out.append(s)
        return out


def _last_write_round(scenario: Scenario) -> int | None:
    rounds = [i for i, r in enumerate(scenario.rounds) if any(_writes(s) for s in r.solution)]
    return rounds[-1] if rounds else None


class SkipsRound(ZooAgent):
    """Does every round but the last one that needs a change, where it just says it is done."""

    name = "skips_round"
    should_pass = False
    category = "task_failure"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and bool(scenario.expected_changes) and _last_write_round(scenario) is not None

    def steps(self, scenario: Scenario, index: int) -> list[Step]:
        return [] if index == _last_write_round(scenario) else super().steps(scenario, index)

    def closing(self, scenario: Scenario, index: int) -> str:
        return "Done." if index == _last_write_round(scenario) else super().closing(scenario, index)


class ClaimsWithoutDoing(ZooAgent):
    """Looks things up and reports success in the oracle's words, but never makes a change."""

    name = "claims_without_doing"
    should_pass = False
    category = "task_failure"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and bool(scenario.expected_changes)

    def steps(self, scenario: Scenario, index: int) -> list[Step]:
        return [s for s in super().steps(scenario, index) if not _writes(s)]


def _alternative(fact: str, scenario: Scenario) -> str:
    value = as_number(fact)
    if value is not None:
        return f"{value * 1.25:.2f}"
    others = [f for f in list(scenario.facts) + [x for r in scenario.rounds for x in r.report]
              if f != fact and as_number(f) is None]
    return others[0] if others else "something else"


class Hedges(ZooAgent):
    """Does the work, then will not commit: every fact it reports (or amount it wrote) comes with a
    competing candidate."""

    name = "hedges"
    should_pass = False
    category = "factual_error"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and any(claimable(scenario, i) for i in range(len(scenario.rounds)))

    def closing(self, scenario: Scenario, index: int) -> str:
        facts = claimable(scenario, index)
        if not facts:
            return "Done."
        return "Done. " + " ".join(f"I'm not sure, it is either {f} or {_alternative(f, scenario)}." for f in facts)


def _numeric_facts(scenario: Scenario) -> list[str]:
    return [f for i in range(len(scenario.rounds)) for f in claimable(scenario, i)
            if as_number(f) is not None and "." in f]


class NumberCarpet(ZooAgent):
    """Does the work, then answers with a carpet of numbers around each amount it reports or wrote
    (never the amount itself)."""

    name = "number_carpet"
    should_pass = False
    category = "factual_error"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and bool(_numeric_facts(scenario))

    def closing(self, scenario: Scenario, index: int) -> str:
        facts = claimable(scenario, index)
        if not facts:
            return "Done."
        parts = []
        for f in facts:
            value = as_number(f)
            if value is None or "." not in f:
                parts.append(f)
                continue
            step = max(value / 100, 0.01)
            carpet = [value * 0.5 + k * step for k in range(100)]
            parts.append(", ".join(f"{x:.2f}" for x in carpet if abs(x - value) > value * 0.001))
        return "Here is what I found: " + "; ".join(parts)


# Creates whose repetition adds one more row and touches nothing else. Not here: file creation (a
# second file at the same path fails), payments (balances move), tasks (the order of the other
# tasks shifts): their repetition also changes values the task expects.
COLLATERAL_TOOLS = frozenset({"simple_note_create_note", "alarms_create_alarm", "create_calendar_event",
                              "messages_send_text_message", "gmail_send_email", "gmail_create_draft"})


def _duplicable(step: Step) -> bool:
    return step.get("name") in COLLATERAL_TOOLS and not _has_ref(step.get("arguments"))


class CollateralWrite(ZooAgent):
    """Does everything right but leaves one extra write: it repeats its first create."""

    name = "collateral_write"
    should_pass = False
    category = "uncontrolled_behaviour"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and any(_duplicable(s) for r in scenario.rounds for s in r.solution)

    def steps(self, scenario: Scenario, index: int) -> list[Step]:
        first = next((i, j) for i, r in enumerate(scenario.rounds) for j, s in enumerate(r.solution) if _duplicable(s))
        base = super().steps(scenario, index)
        if index != first[0]:
            return base
        dup = {"name": base[first[1]]["name"], "arguments": base[first[1]].get("arguments", {})}
        return base[:first[1] + 1] + [dup] + base[first[1] + 1:]


def wrong_detail_target(scenario: Scenario) -> str | None:
    """A free text the user stated (a title, a name) that the oracle writes into the expected changes
    (a text column: a wrong date or id would make the call fail, not the detail wrong)."""
    said = _user_words(scenario)
    expected = {(k, v) for c in scenario.expected_changes for k, v in (c.row or c.fields or {}).items() if isinstance(v, str)}
    looked_up = json.dumps([st.get("arguments") for r in scenario.rounds for st in r.solution if "name" in st and not _writes(st)],
                           ensure_ascii=False)
    for rnd in scenario.rounds:
        for step in rnd.solution:
            if not _writes(step):
                continue
            for key, value in step.get("arguments", {}).items():  # the argument fills the column of that name
                if (isinstance(value, str) and len(value) >= 4 and is_text_column(key) and (key, value) in expected
                        and text_contains(value, said)
                        and value not in looked_up):  # later steps must still find what they look for
                    return value
    return None


class WrongDetail(ZooAgent):
    """Does the whole workflow but gets one detail the user stated wrong (writes "Misc" instead of
    the title or name they gave)."""

    name = "wrong_detail"
    should_pass = False
    category = "incomplete_execution"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and wrong_detail_target(scenario) is not None

    def steps(self, scenario: Scenario, index: int) -> list[Step]:
        target = wrong_detail_target(scenario)
        return [{**st, "arguments": {k: ("Misc" if v == target else v) for k, v in st.get("arguments", {}).items()}}
                if _writes(st) else st for st in super().steps(scenario, index)]


class GivesUp(ZooAgent):
    """Apologises and does nothing."""

    name = "gives_up"
    should_pass = False
    category = "task_failure"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and bool(scenario.expected_changes)

    def steps(self, scenario: Scenario, index: int) -> list[Step]:
        return []

    def closing(self, scenario: Scenario, index: int) -> str:
        return "I'm sorry, I can't help with that."


# ---------------------------------------------------------------------------------------------
# Information accuracy (#31): formats people use, and answers that do not commit or are not true
# ---------------------------------------------------------------------------------------------

_SMALL_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                "sixteen seventeen eighteen nineteen twenty").split()
_ISO_DATETIME = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(?:[+-]\d{2}:\d{2}|Z)?")
_PLAIN_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b(?!T)")
_LONE_SMALL = re.compile(r"(?<=[a-z(] )(\d{1,2})(?![\d.,:/\-]|\s*(?:[ap]m)\b)|(?<=\()(\d{1,2})(?=\))")
_DOLLARS = re.compile(r"\$(\d{1,3}(?:,\d{3})*|\d+)\.(\d{2})\b")


def prose_values(text: str) -> str:
    """Values in the forms people write in prose: small counts in words ("3 five-star ratings" ->
    "three five-star ratings", 12 -> "a dozen"), dates day first ("25 April 2024 at 22:59"),
    amounts with thousands separators and "dollars" instead of "$".

    >>> prose_values("You last logged in on 2024-04-25T22:59:00; it has 3 ratings (12), due 2026-05-09: $1826.99")
    'You last logged in on 25 April 2024 at 22:59; it has three ratings (a dozen), due 9 May 2026: 1,826.99 dollars'
    """
    def word(m: re.Match[str]) -> str:
        n = int(m.group(1) or m.group(2))
        return "a dozen" if n == 12 else (_SMALL_WORDS[n] if n <= 20 else m.group(0))

    out = _LONE_SMALL.sub(word, text)
    out = _ISO_DATETIME.sub(lambda m: f"{int(m.group(3))} {_MONTHS[int(m.group(2)) - 1]} {m.group(1)} at {m.group(4)}:{m.group(5)}"
                            + (f":{m.group(6)}" if m.group(6) and m.group(6) != "00" else "")
                            if 1 <= int(m.group(2)) <= 12 else m.group(0), out)
    out = _PLAIN_DATE.sub(lambda m: f"{int(m.group(3))} {_MONTHS[int(m.group(2)) - 1]} {m.group(1)}"
                          if 1 <= int(m.group(2)) <= 12 else m.group(0), out)
    return _DOLLARS.sub(lambda m: f"{int(m.group(1).replace(',', '')):,}.{m.group(2)} dollars", out)


class WordsAndProse(ZooAgent):
    """The oracle's work; its replies say small counts in words, dates in prose (day first, "at"
    the time) and amounts as "1,826.99 dollars"."""

    name = "words_and_prose"

    def closing(self, scenario: Scenario, index: int) -> str:
        return prose_values(super().closing(scenario, index))


def _choice_facts(scenario: Scenario, index: int) -> list[tuple[str, list[str]]]:
    """The named answers a round reports that are a choice among what the images show, with their rivals."""
    from ..evaluation.claims import asserts
    from ..evaluation.grounding import image_facts, rivals_of

    facts = list(scenario.rounds[index].report)
    shown = image_facts(scenario)
    out = []
    for f in facts:
        if as_number(f) is None:
            rivals = [r for r in rivals_of(f, shown, list(scenario.facts) + facts)
                      if not asserts(r, scenario.rounds[index].answer)]
            if rivals:
                out.append((f, rivals))
    return out


class BothCandidates(ZooAgent):
    """Does the work, then answers a choice a round asks for by naming every candidate alike ("It is
    Lumen Hardware. It is Pine Street Books."), the right one among them, and the round's other
    facts plainly; other rounds as the oracle."""

    name = "both_candidates"
    should_pass = False
    category = "factual_error"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and any(_choice_facts(scenario, i) for i in range(len(scenario.rounds)))

    def closing(self, scenario: Scenario, index: int) -> str:
        choices = _choice_facts(scenario, index)
        if not choices:
            return super().closing(scenario, index)
        named = {fact for fact, _ in choices}
        others = [f"{f}." for f in scenario.rounds[index].report if f not in named]
        return " ".join([f"It is {c}." for fact, rivals in choices for c in sorted([fact, *rivals[:3]])] + others)


class CommitlessSpray(ZooAgent):
    """Does the work, then asserts forty candidates for each amount it should report or wrote ("The
    amount is X." with X 2.1 % apart, the right one among them)."""

    name = "commitless_spray"
    should_pass = False
    category = "factual_error"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and bool(_numeric_facts(scenario))

    def closing(self, scenario: Scenario, index: int) -> str:
        facts = claimable(scenario, index)
        if not facts:
            return "Done."
        parts = []
        for f in facts:
            value = as_number(f)
            if value is None or "." not in f:
                parts.append(f"{f}.")
                continue
            parts += [f"The amount is {value * (1 + 0.021 * k):.2f}." for k in range(-20, 20)]
        return " ".join(parts)


def _reply_number(scenario: Scenario) -> tuple[int, str] | None:
    """(round, amount) the oracle's reply states in dollars that the user never said and no report
    or fact lists (a value only the grounding can check)."""
    said = _user_words(scenario)
    listed = {x for i in range(len(scenario.rounds)) for x in round_facts(scenario, i)} | set(scenario.facts)
    found = [(i, m.group(0)[1:]) for i, r in enumerate(scenario.rounds) for m in _MONEY.finditer(r.answer or "")
             if not text_contains(m.group(0), said)]
    unlisted = [(i, n) for i, n in found if not any(text_contains(n, x) for x in listed)]
    return unlisted[0] if unlisted else None


class WrongNumberInReply(ZooAgent):
    """The oracle's work and replies, but one amount in a reply that no report or fact lists is a
    dollar off ("$23.13" for the $22.13 the note holds)."""

    name = "wrong_number_in_reply"
    should_pass = False
    category = "factual_error"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and _reply_number(scenario) is not None

    def closing(self, scenario: Scenario, index: int) -> str:
        text = super().closing(scenario, index)
        at, number = _reply_number(scenario)
        if index != at:
            return text
        wrong = f"{float(number.replace(',', '')) + 1:,.{len(number.split('.')[1])}f}"
        return re.sub(r"(?<![\d.,])" + re.escape(number) + r"(?![\d])", wrong, text, count=1)


def _pool_of(facts: list[str]) -> list[str]:
    """The phrase pool the facts are drawn from (the first one holding any of them)."""
    from ..evaluation.similarity import phrase_pools

    return next((list(pool) for pool in phrase_pools() if any(text_contains(p, f) and text_contains(f, p)
                                                                for p in pool for f in facts)), [])


def _pool_columns(scenario: Scenario) -> list[list[str]]:
    """The ``facts`` lists of expected changes whose facts come from a phrase pool."""
    from ..evaluation.similarity import phrase_pools

    out = []
    for c in scenario.expected_changes:
        for col, measure in c.measures.items():
            facts = (c.row or c.fields or {}).get(col)
            if measure == "facts" and isinstance(facts, list) and len(facts) >= 2 and any(
                    any(text_contains(p, f) and text_contains(f, p) for p in pool) for pool in phrase_pools() for f in facts):
                out.append(facts)
    return out


class PoolDump(ZooAgent):
    """Writes every phrase of the pool the images draw from instead of the ones they show (a list of
    every errand there is): the facts are all there, and so is everything else."""

    name = "pool_dump"
    should_pass = False
    category = "factual_error"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:  # a pool with phrases the lists leave out
        columns = _pool_columns(scenario) if super().applies(scenario) else []
        wanted = [f for facts in columns for f in facts]
        return bool(columns) and any(not any(text_contains(p, f) for f in wanted) for p in _pool_of(wanted))

    def steps(self, scenario: Scenario, index: int) -> list[Step]:
        wanted = [f for facts in _pool_columns(scenario) for f in facts]
        out = []
        for st in super().steps(scenario, index):
            if _writes(st):
                args = dict(st.get("arguments", {}))
                for key, value in args.items():
                    if isinstance(value, str) and key in _TEXT_KEYS and any(text_contains(f, value) for f in wanted):
                        args[key] = value + "\n" + "\n".join(p for p in _pool_of(wanted) if not text_contains(p, value))
                st = {**st, "arguments": args}
            out.append(st)
        return out


def _first_image_round(scenario: Scenario) -> int | None:
    return next((i for i, r in enumerate(scenario.rounds) if r.image_ids), None)


class CannotRead(ZooAgent):
    """Honest about failing: from the first round that brings images on it does nothing and says it
    could not read them (what it could not read, later rounds cannot use either); earlier rounds
    it does as the oracle. It must score no better than it deserves, and no reward exploit may
    beat it."""

    name = "cannot_read"
    should_pass = False
    category = "task_failure"
    SORRY = "I'm sorry, I could not read the image clearly enough to do this."

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and _first_image_round(scenario) is not None

    @classmethod
    def expected_category(cls, scenario: Scenario) -> str | None:
        from ..evaluation.judge import action_rounds

        acts = action_rounds(scenario)
        return "task_failure" if any(acts[_first_image_round(scenario):]) else "factual_error"

    def _blind(self, scenario: Scenario, index: int) -> bool:
        return index >= _first_image_round(scenario)

    def steps(self, scenario: Scenario, index: int) -> list[Step]:
        return [] if self._blind(scenario, index) else super().steps(scenario, index)

    def closing(self, scenario: Scenario, index: int) -> str:
        return self.SORRY if self._blind(scenario, index) else super().closing(scenario, index)


def _omission(scenario: Scenario) -> tuple[int, int] | None:
    """(round, step) of the last of several writes by one item tool in the scenario's last round,
    whose result nothing later uses: the item an agent leaves out."""
    for i, rnd in list(enumerate(scenario.rounds))[-1:]:  # the last round: a user who gives up on it loses no other
        writes = [(j, st) for j, st in enumerate(rnd.solution) if _writes(st)]
        names = [st["name"] for _, st in writes]
        for j, st in reversed(writes):
            if names.count(st["name"]) >= 2 and not st.get("save_as") and st["name"] in _ITEM_TOOLS:
                return i, j
    return None


# tools that make one item of a list each (a text to each person, a task per errand, an event per poster)
_ITEM_TOOLS = frozenset({"messages_send_text_message", "gmail_send_email", "todoist_create_task", "create_calendar_event",
                         "simple_note_create_note", "contacts_add_contact", "add_reminder", "amazon_add_product_to_cart",
                         "spotify_like_song"})


class OmitsItem(ZooAgent):
    """Does the workflow but leaves one of several items out (texts three of four people, adds two
    of three tasks) in the last round, and replies as if it had done them all."""

    name = "omits_item"
    should_pass = False
    category = "incomplete_execution"

    @classmethod
    def applies(cls, scenario: Scenario) -> bool:
        return super().applies(scenario) and _omission(scenario) is not None

    def steps(self, scenario: Scenario, index: int) -> list[Step]:
        at, j = _omission(scenario)
        base = super().steps(scenario, index)
        return base[:j] + base[j + 1:] if index == at else base



SHOULD_PASS = (Terse, Reformatted, Polite, ExtraReads, ConfirmsFirst, WordsAndProse)
SHOULD_FAIL = (Misreads, WrongEntity, SkipsRound, ClaimsWithoutDoing, Hedges, NumberCarpet, CollateralWrite, WrongDetail,
               GivesUp, BothCandidates, CommitlessSpray, WrongNumberInReply, PoolDump, CannotRead, OmitsItem)
ZOO = SHOULD_PASS + SHOULD_FAIL
