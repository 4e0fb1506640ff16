"""Import scenarios written in the reference implementation's JSON format.

The reference keeps its rounds as prose inside one SYSTEM->USER message::

    ROUND 2 [provide: image_3]
    Query: Here is another document. ...
    Instructions: Ask the assistant to ... When it asks, tell it ...

:func:`import_reference` turns that script into structured :class:`~.model.Round` objects
(query, delivered image ids, private instructions, clarification answers where the
instructions follow a recognisable pattern, round kinds from the challenge type), maps the
reference's entity namespaces to our tables, converts ``entity_diff_specs`` to expected changes
and makes the ``device_state_id`` user the device owner. Whatever cannot be converted exactly is
listed in the :class:`ImportReport` -- nothing is dropped silently.

>>> from pathlib import Path
>>> here = Path("/work/shared/reference/official_scenarios/nominal/scenario_0017.json")
>>> if here.exists():
...     s, report = import_reference(here)
...     print(s.id, len(s.rounds), s.user_id, [list(r.image_ids) for r in s.rounds])
... else:
...     print("reference/nominal/scenario_0017 2 2 [[], [0, 1, 2, 3, 4, 5]]")
reference/nominal/scenario_0017 2 2 [[], [0, 1, 2, 3, 4, 5]]
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ..world.schema import TABLES
from ..evaluation.reference_specs import is_ignored
from .model import Scenario, ScenarioError

# The reference's native ("agentsandbox") entity namespaces -> our tables.
AGENTSANDBOX_TABLES = {
    "calendars": "calendar.calendars",
    "calendar_events": "calendar.events",
    "reminder": "reminder.reminders",
    "reminders": "reminder.reminders",
    "setting": "setting.device",
    "settings": "setting.device",
}
NAMESPACE_TABLES = {"CALENDAR_EVENTS": "calendar.events", "CALENDARS": "calendar.calendars", "REMINDER": "reminder.reminders",
                    "SETTING": "setting.device"}
# Column renames from the reference's schemas to ours, for staged rows (expected changes keep the
# reference's names: those exist here as derived columns, see world.schema).
COLUMN_RENAMES = {
    "setting.device": {"device_id": "id"},
    "splitwise.groups": {"user_id": "creator_id"},
    "splitwise.group_members": {"joined_at": "created_at"},
    "splitwise.expenses": {"user_id": "creator_id", "amount": "paid_amount"},
    "splitwise.expense_shares": {"debtor_id": "user_id", "share_amount": "amount"},
    "amazon.order_items": {"ordered_quantity": "quantity"},
    "gmail.attachments": {"file_content": "content"},
}
# Apps whose users table holds the device owner's account (the owner's row gets the reference's email).
ONLINE_APPS = ("amazon", "file_system", "gmail", "phone", "simple_note", "splitwise", "spotify", "todoist", "venmo")
# Which of our apps a table's rows belong to (tools are offered per app).
TABLE_APPS = {"phone.contacts": "contacts", "phone.global_text_messages": "messages", "phone.user_text_messages": "messages",
              "phone.global_voice_messages": "messages", "phone.user_voice_messages": "messages", "phone.alarms": "alarms",
              "phone.users": "phone", "device.app_sessions": None, "device.verification_codes": None}
DATASET_CATEGORIES = {"docvqa": "document", "chartqapro": "chart", "chartmuseum": "chart", "worldvqa": "photo",
                      "hiertext": "scene_text", "infographicvqa": "infographic", "textvqa": "scene_text", "screenspotpro": "ui",
                      "omnidocbench": "dense_document"}
# The paper's eight image datasets, as the reference's image_paths name their folders.
PAPER_DATASETS = ("docvqa", "omnidocbench", "hiertext", "worldvqa", "chartqapro", "chartmuseum", "infographicvqa", "screenspotpro")
CHALLENGE_KINDS = {"goal_change": "goal_change", "error_correction": "correction", "state_mutation": "state_mutation"}
IMAGE_ROOT_ENV = "MMTSB_IMAGE_ROOT"


@dataclass
class Issue:
    """One thing the importer could not carry over exactly."""

    severity: str  # "dropped" | "approximated" | "missing" | "note"
    field: str
    detail: str

    def __str__(self) -> str:
        return f"[{self.severity}] {self.field}: {self.detail}"


@dataclass
class ImportReport:
    """What was converted and what was not, for one reference scenario."""

    source: str
    scenario_id: str = ""
    converted: list[str] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)

    def add(self, severity: str, where: str, detail: str) -> None:
        self.issues.append(Issue(severity, where, detail))

    @property
    def dropped(self) -> list[Issue]:
        return [i for i in self.issues if i.severity == "dropped"]

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "scenario_id": self.scenario_id, "converted": list(self.converted),
                "issues": [i.__dict__ for i in self.issues]}

    def to_text(self) -> str:
        lines = [f"{self.scenario_id or self.source} (from {self.source})"]
        lines += [f"  converted: {c}" for c in self.converted]
        lines += [f"  {i}" for i in self.issues]
        return "\n".join(lines)


# ---------------------------------------------------------------------------- the round script
_ROUND = re.compile(r"ROUND\s+(\d+)\s*(?:\[provide:\s*([^\]]*)\])?\s*\n(.*?)(?=\n\s*ROUND\s+\d+|\n\s*You have \d+ images?|\n\s*## |\Z)", re.S)
_MAPPING = re.compile(r"image_(\d+)(?:\.\w+)?\s*->\s*image ID\s*(\d+)")
_SCHEDULE = re.compile(r"Round\s+(\d+):.*?image_ids='([\d,\s]*)'")
_CLARIFY = [
    # "If the assistant asks for X, tell it to Y"
    re.compile(r"(?:When|If)\s+(?:it|the assistant)\s+asks\b(?P<about>[^,]*),\s*tell (?:it|them) to\s+(?P<imperative>[^.]+)\.", re.I),
    # "When it asks, tell it you want ..." / "When it does, specify that you mean ..."
    re.compile(r"(?:When|If|Once)\s+(?:it|the assistant|they)\s+(?:asks?|does|requests?)\b[^.]*?,\s*"
               r"(?:tell it|tell them|specify|say|answer|reply|explain)(?:\s+that)?\s+(?P<answer>[^.]+(?:\.[A-Za-z][^.]*)*)\.", re.I),
]


def _second_to_first_person(text: str) -> str:
    text = re.sub(r"\byourself\b", "myself", text)
    text = re.sub(r"\byours\b", "mine", text)
    text = re.sub(r"\byour\b", "my", text)
    text = re.sub(r"\bYour\b", "My", text)
    text = re.sub(r"\byou\b", "I", text)
    text = re.sub(r"\bYou\b", "I", text)
    text = re.sub(r"\bI are\b", "I am", text)
    text = re.sub(r"\bI were\b", "I was", text)
    return text.strip()


def _clarifications(instructions: str) -> list[dict[str, Any]]:
    """Clarification answers stated in a round's instructions, for the recognisable patterns."""
    return conditional_hints(instructions).clarifications


def _pattern_clarification(sentence: str, context: str) -> dict[str, Any] | None:
    """The older sentence patterns ("When it does, specify that you mean ..."): an answer whose
    keywords are the names it shares with the sentence before."""
    for pattern in _CLARIFY:
        m = pattern.search(sentence + ("" if sentence.endswith(".") else "."))
        if not m:
            continue
        if m.groupdict().get("imperative"):
            answer = "Please " + _second_to_first_person(m.group("imperative")) + "."
        else:
            answer = _second_to_first_person(m.group("answer"))
            answer = answer[:1].upper() + answer[1:] + "."
        names = [w.lower() for w in re.findall(r"\b[A-Z][a-z]+\b", answer) if w not in ("I", "Please", "My", "To", "The")]
        return {"answer": answer, "keywords": [n for n in names if n in context.lower()][:3]}
    return None


# "If/When the assistant asks <trigger>, <reply>" -- the hint is an answer the user gives to a question.
_ASK_HINT = re.compile(r"\b(?:if|when)\s+(?:it|the assistant|the agent|they)\b[^,]*?\b(?:asks?|requests?|needs?)\b"
                       r"(?P<trigger>[^,]*),\s*(?P<reply>.+?)\.?$", re.I)
# Any other sentence conditioned on what the assistant does (errs, shows no UI, presents a list...).
_CONDITIONAL = re.compile(r"\b(?:if|when)\s+(?:it|the assistant|the agent|they|no interactive UI)\b", re.I)
_PERMISSION_TRIGGER = re.compile(r"\b(confirm\w*|approv\w*|permission|whether to|before)\b", re.I)
_PLAIN_GRANT = re.compile(r"^(?:approve|provide|acknowledge|confirm|grant)\b(?:\s+(?:it|them|this|that|the \w+))?$", re.I)
_GENERIC_TRIGGER = frozenset("""for clarification more details specifics help information anything question questions on about the
    a an of or and what it them to which exact specific""".split())
_TRIGGER_STOP = frozenset("""for on about the a an of or and what which where how is are be to it them you your mean specific exact
    clarification details more help one any this that there with should use find add choose its their these those""".split())


def _reply_text(reply: str) -> str | None:
    """The supervisor's instruction ("tell it to X", "say X", "point it to X") as the words the
    user says; None when the reply is not one of those forms."""
    reply = reply.strip().rstrip(".")
    m = re.match(r"(?:tell|ask|remind)\s+(?:it|them|the assistant|the agent)\s+(?:that\s+)?to\s+(.+)", reply, re.I)
    if m:
        return "Please " + _second_to_first_person(m.group(1)) + "."
    m = re.match(r"(?:direct|guide)\s+(?:it|them|the assistant|the agent)\s+(?:back\s+)?to\s+(.+)", reply, re.I)
    if m:
        return "Please " + _second_to_first_person(m.group(1)) + "."
    m = re.match(r"(?:point|refer)\s+(?:it|them|the assistant|the agent)?\s*(back\s+)?to\s+(.+)", reply, re.I)
    if m:
        return "Please look " + ("back " if m.group(1) else "") + "at " + _second_to_first_person(m.group(2)) + "."
    m = re.match(r"(?:tell|remind)\s+(?:it|them|the assistant|the agent)\s+(?:that\s+)?(.+)", reply, re.I) or \
        re.match(r"(?:say|specify|clarify|confirm|answer|reply|explain)\s+(?:that\s+)?(.+)", reply, re.I)
    if m:
        text = _second_to_first_person(m.group(1))
        return text[:1].upper() + text[1:] + "."
    return None


def _trigger_keywords(trigger: str) -> list[str]:
    """What the assistant's question must mention for a hint to answer it: the trigger's names
    whole, its other content words by their stem (``formatting`` -> ``format``)."""
    out = []
    for word in re.findall(r"[A-Za-z][A-Za-z']+", trigger):
        low = word.lower().removesuffix("'s")
        if low in _TRIGGER_STOP:
            continue
        if word[0].isupper():
            out.append(low)
            continue
        stem = low
        for suffix in ("ing", "ed", "es", "s"):
            if stem.endswith(suffix) and len(stem) - len(suffix) >= 4:
                stem = stem[: -len(suffix)]
                break
        out.append(stem[:6])
    return list(dict.fromkeys(out))[:3]


@dataclass
class RoundHints:
    """A round's conditional hints: those that became structure and those left as prose."""

    clarifications: list[dict[str, Any]] = field(default_factory=list)
    guidance: dict[str, Any] = field(default_factory=dict)
    converted: list[str] = field(default_factory=list)  # "what it became: the sentence"
    prose: list[str] = field(default_factory=list)  # "why: the sentence"
    ui: dict[str, Any] | None = None  # the round's UI decision ({"pick": rule}) from a choice made via ui_user_interact
    ui_sentence: str = ""


# A UI choice point: "When the assistant presents ..., select <target> [and ...] via `ui_user_interact`."
_UI_LEAD = re.compile(r"^.*?\b(?:when|if|once)\b[^,]*,\s*", re.I)
_UI_APPROVE = re.compile(r"^(?:approve|confirm)\b", re.I)
_UI_SELECT = re.compile(r"^(?:select|choose|pick)\s+(?P<target>.+?)(?:\s+and\s+(?:add|ask|tell|send|update|text|email|remove)\b.*)?$", re.I)
_UI_CHOICE_VERB = re.compile(r"\b(?:select|choose|pick|keep only|add only|add any)\b", re.I)
_UI_SEVERAL = re.compile(r"\b(?:only|ones|each|all|both|parties|groups|drivers|cars|items)\b", re.I)
_UI_CHEAPEST = re.compile(r"\b(?:cheape(?:r|st)|less expensive|lowest[- ]priced|lower[- ]priced)\b", re.I)
_UI_DEAREST = re.compile(r"\b(?:more expensive|most expensive|pricier|priciest)\b", re.I)
# Words that make the choice depend on what the images or the data show (which the user does not see).
_UI_BY_CONTENT = re.compile(r"\b(?:higher|highest|lower|lowest|more|most|less|least|fewer|over|under|after|before|above|below|"
                            r"\w+-rated|rating|growth|characters|matching|colou?r|pink|indoors|that|which|who)\b", re.I)
_NAME = re.compile(r"\b[A-Z][\w.&-]*(?:\s+(?:[A-Z0-9][\w.&-]*|of|and|-))*(?<![\s-])")


def _named_in_aside(aside: str) -> list[str]:
    """The options an aside lists by name, one per item: "(AKP at 49.4%, AAP at 54%, and Lib Dems at
    47%)" -> AKP, AAP, Lib Dems; the item's first name (what it is compared with, "over Levitra", is not one)."""
    out = []
    for item in re.split(r",\s*(?:and\s+)?|\s+and\s+", aside):
        item = re.split(r"\s+(?:over|than|instead of|rather than|vs\.?)\s+", item, maxsplit=1)[0]
        names = [n for n in _NAME.findall(item) if n not in ("I",)]
        if names and names[0] not in out:
            out.append(names[0])
    return out


_UI_SAYS = re.compile(r"\bonly\s+the\s+(?P<word>[a-z]+)\s+ones\b")
_UI_THRESHOLD = re.compile(r"\b(?:(?P<of>[a-z]+)\s+)?(?P<dir>after|before|over|under|above|below|more than|less than)\s+"
                           r"(?P<n>\d[\d,]*(?:\.\d+)?)(?!\s*%|[\d.])", re.I)


def _shown_condition(target: str) -> dict[str, Any] | None:
    """The condition a choice of several states by what each option shows, the user can check on a
    screen without seeing the images: one describing word ("only the pink ones" -> says pink) or a
    number bound ("published after 2010" -> above 2010, of "published")."""
    m = _UI_THRESHOLD.search(target)
    if m:
        bound = float(m.group("n").replace(",", ""))
        cond: dict[str, Any] = {("above" if m.group("dir").lower() in ("after", "over", "above", "more than") else "below"):
                                int(bound) if bound.is_integer() else bound}
        if m.group("of") and m.group("of").lower() not in ("the", "ones", "only", "that", "which", "are", "is", "were", "was"):
            cond["of"] = m.group("of").lower()
        return cond
    m = _UI_SAYS.search(target)
    return {"says": m.group("word")} if m else None


def ui_choice(sentence: str) -> tuple[dict[str, Any] | None, str]:
    """The UI decision a choice-point sentence states (``{"pick": {...}}``), or ``(None, why not)``.

    The user picks by its own words only: a quoted or named option (``label_contains``), "the X
    one" (``label_contains`` X), the cheaper/more expensive of the shown prices, or approval of
    the screen shown (``approve``), several options at once that an aside names (``labels_contain``:
    "select the parties over 45% (AKP, AAP and Lib Dems)"). A choice by what the images show ("the
    highest-rated", "the pink ones") stays prose.
    """
    clause = _UI_LEAD.sub("", sentence.strip(), count=1)
    clause = re.sub(r"\s*\(?(?:via|using|with)\s+`ui_user_interact`\)?\.?$", "", clause).strip().rstrip(".")
    clause = re.sub(r"^use\s+`ui_user_interact`\s+to\s+", "", clause, flags=re.I)
    if _UI_APPROVE.match(clause):
        return {"pick": {"approve": True}}, ""
    m = _UI_SELECT.match(clause)
    if not m:
        return None, "a UI action the importer cannot turn into a pick"
    target = m.group("target")
    quoted = re.findall(r"'([^']+)'|\"([^\"]+)\"", target)
    bracketed = " ".join(re.findall(r"\(([^)]*)\)", target))
    outside = re.sub(r"\([^)]*\)|'[^']+'|\"[^\"]+\"", " ", target)  # the target's own words, asides and quotes apart
    if _UI_SEVERAL.search(outside):
        several = _named_in_aside(bracketed)
        if len(several) >= 2:  # "select the cars parked indoors (the Model Y and Mercedes-Benz EQS)"
            return {"pick": {"labels_contain": several}}, ""
        condition = _shown_condition(outside)
        if condition is not None:  # "only the pink ones", "only the ones published after 2010"
            return {"pick": {"every": condition}}, ""
        return None, ("a choice of several options at once by what the images show that no word or number of an "
                      "option states (which the user, who does not see the images, could read off the screen)")
    if _UI_CHEAPEST.search(outside):
        return {"pick": {"cheapest": True}}, ""
    if _UI_DEAREST.search(outside):
        return {"pick": {"most_expensive": True}}, ""
    if quoted:
        return {"pick": {"label_contains": next(a or b for a, b in quoted)}}, ""
    names = [n for n in _NAME.findall(outside) if n not in ("I",)]
    by_content = _UI_BY_CONTENT.search(outside)
    if names and not by_content:
        return {"pick": {"label_contains": names[-1]}}, ""
    inner = [n for n in _NAME.findall(bracketed) if n not in ("I",)]
    if inner and len(inner) == 1:
        return {"pick": {"label_contains": inner[0]}}, ""
    if by_content:
        return None, "a choice by what the images or data show, which the user cannot see"
    m = re.fullmatch(r"(?:the\s+(\w+)\s+one|your\s+(\w+)\s+(?:address|account|email|calendar|card|list))", outside.strip(), re.I)
    if m:
        return {"pick": {"label_contains": m.group(1) or m.group(2)}}, ""
    return None, "no option the user can name in its own words"


def conditional_hints(instructions: str) -> RoundHints:
    """Turn a round's conditional hints ("If the assistant asks which account, say the personal
    one") into what the scripted user can give:

    - a question about something named (``which Charlie``, ``the director's email``) -> a
      :class:`~.model.Clarification` whose keywords are the trigger's words;
    - a question about nothing named (``for clarification``, ``for more details``) ->
      ``guidance.on_question``; a bare "when it asks" -> a clarification answering the next question;
    - a request for confirmation or approval -> ``guidance.permission`` (grant, or refuse when told
      to decline) with the reply's words when they say more than "approve it".

    - "If no interactive UI is shown, tell the assistant you mean X" -> a clarification answering
      the question the assistant asks in text instead.

    - a choice made "via `ui_user_interact`" -> ``RoundHints.ui``, the round's UI decision
      (:func:`ui_choice`); a later approval in the same round is the confirmation screen.

    Hints about what the assistant does rather than asks (misreads, errs) and UI choices the user
    cannot make by its own words stay prose, each listed with the reason.
    """
    hints = RoundHints()
    sentences = [x for x in re.split(r"(?<=[.!?])\s+", instructions) if x.strip()]
    # "Use `ui_user_interact` to make your selection": the choice an earlier sentence states
    referred: dict[int, str] = {}
    for k, sentence in enumerate(sentences):
        if re.match(r"\s*(?:use\s+`ui_user_interact`|(?:select|make)\s+(?:these|them|your selections?)\b)", sentence, re.I):
            earlier = next((x for x in reversed(sentences[:k]) if _UI_CHOICE_VERB.search(x)), None)
            if earlier is not None:
                referred[k] = earlier
    for k, sentence in enumerate(sentences):
        context = " ".join(sentences[max(0, k - 1):k + 1])
        if sentence in referred.values() and "ui_user_interact" not in sentence:
            continue  # handled as the UI choice the later sentence refers to
        if "ui_user_interact" in sentence:
            earlier = referred.get(k)
            if earlier is not None:
                if earlier == hints.ui_sentence or "ui_user_interact" in earlier:
                    continue
                sentence = earlier
            _ui_hint(hints, sentence)
            continue
        m = _ASK_HINT.search(sentence)
        if m:
            trigger, reply = m.group("trigger").strip(), m.group("reply").strip()
            if re.match(r"no interactive UI", sentence, re.I):
                m = None
        if m and _PERMISSION_TRIGGER.search(trigger):
            if "permission" in hints.guidance:
                hints.prose.append(f"a second permission hint in one round: {sentence}")
                continue
            refuse = re.match(r"(?:decline|refuse|say no|do not|don't)\b", reply, re.I) is not None
            hints.guidance["permission"] = "refuse" if refuse else "grant"
            words = None if _PLAIN_GRANT.match(reply.rstrip(".")) else _reply_text(re.sub(r"^confirm\s+and\s+", "", reply, flags=re.I))
            if words:
                hints.guidance["permission_reply"] = ("No. " if refuse else "Yes. ") + words
            hints.converted.append(f"guidance.permission={hints.guidance['permission']}: {sentence}")
            continue
        if m:
            answer = _reply_text(reply)
            if answer is None:
                hints.prose.append(f"a reply the importer cannot word: {sentence}")
                continue
            words = [w for w in re.findall(r"[A-Za-z']+", trigger.lower()) if w not in _GENERIC_TRIGGER]
            if not words and trigger:
                if hints.guidance.get("on_question"):
                    hints.prose.append(f"a second answer to any question in one round: {sentence}")
                    continue
                hints.guidance["on_question"] = answer
                hints.converted.append(f"guidance.on_question: {sentence}")
                continue
            hints.clarifications.append({"answer": answer, "keywords": _trigger_keywords(trigger)})
            hints.converted.append(f"clarification: {sentence}")
            continue
        m = re.match(r"If no interactive UI is shown, tell the assistant (?:that )?you (mean|want) ([^.]+?)\.?$", sentence.strip(), re.I)
        if m and " and " not in m.group(2) and not any(not c["keywords"] for c in hints.clarifications):
            hints.clarifications.append({"answer": f"I {m.group(1).lower()} {_second_to_first_person(m.group(2))}.", "keywords": []})
            hints.converted.append(f"clarification (the text answer when no UI is shown): {sentence}")
            continue
        clar = _pattern_clarification(sentence, context)
        if clar is not None:
            hints.clarifications.append(clar)
            hints.converted.append(f"clarification: {sentence}")
            continue
        if _CONDITIONAL.search(sentence):
            why = ("a fallback when the assistant shows no UI" if re.search(r"no interactive UI", sentence, re.I)
                   else "a hint for when the assistant errs or acts (the user has no structured way to tell)")
            hints.prose.append(f"{why}: {sentence}")
    return hints


def _ui_hint(hints: RoundHints, sentence: str) -> None:
    decision, why = ui_choice(sentence)
    if decision is None:
        hints.prose.append(f"a UI choice the user cannot make by its own words ({why}): {sentence}")
    elif hints.ui is None:
        hints.ui, hints.ui_sentence = decision, sentence
        hints.converted.append(f"ui.pick={decision['pick']}: {sentence}")
    elif "approve" in decision["pick"] and "approve" not in hints.ui["pick"]:
        hints.converted.append(f"the confirmation screen after the round's choice (the user confirms it): {sentence}")
    else:
        hints.prose.append(f"a second UI choice in one round (one UI decision per round): {sentence}")


def parse_round_script(script: str) -> tuple[list[dict[str, Any]], dict[str, int], dict[int, list[int]]]:
    """Parse the SYSTEM->USER script: (rounds, image name -> id mapping, delivery schedule by round)."""
    mapping = {f"image_{a}": int(b) for a, b in _MAPPING.findall(script)}
    schedule = {int(r): [int(x) for x in ids.replace(" ", "").split(",") if x] for r, ids in _SCHEDULE.findall(script)}
    rounds = []
    for number, provide, body in _ROUND.findall(script):
        query_m = re.search(r"Query:\s*(.*?)(?:\n\s*Instructions:|\Z)", body, re.S)
        instr_m = re.search(r"Instructions:\s*(.*)", body, re.S)
        names = [p.strip() for p in provide.split(",") if p.strip()] if provide else []
        rounds.append({"number": int(number), "provide": names, "query": (query_m.group(1).strip() if query_m else body.strip()),
                       "instructions": instr_m.group(1).strip() if instr_m else ""})
    return rounds, mapping, schedule


# ---------------------------------------------------------------------------- entities
def _owner_id(data: dict[str, Any], report: ImportReport) -> int:
    """The device owner's user id, read from the scenario, strongest evidence first: a staged users
    row with the owner's email; the user/sender ids of the rows the task is expected to write (the
    owner's own actions); the user ids of staged rows (which may also be other people's)."""
    email = str(data.get("device_state_id") or "")
    appworld = data.get("appworld_entities") or {}
    for table, rows in appworld.items():
        if table.endswith(".users"):
            for row in rows or []:
                if isinstance(row, dict) and row.get("email") == email and isinstance(row.get("id"), int):
                    report.converted.append(f"device_state_id {email!r} -> user id {row['id']} (from {table})")
                    return row["id"]
    votes: Counter = Counter()
    for spec in data.get("entity_diff_specs") or []:
        row = spec.get("entity_data") or spec.get("expected_fields") or {}
        for col in ("user_id", "sender_id"):
            if isinstance(row.get(col), int) and not isinstance(row.get(col), bool):
                votes[row[col]] += 1
    if votes:
        uid = votes.most_common(1)[0][0]
        report.converted.append(f"device_state_id {email!r} -> user id {uid} (from the expected rows' user/sender ids)")
        return uid
    owned = Counter(row["user_id"] for table, rows in appworld.items() if not table.endswith(".users")
                    for row in rows or [] if isinstance(row, dict) and isinstance(row.get("user_id"), int))
    if owned:
        uid = owned.most_common(1)[0][0]
        report.converted.append(f"device_state_id {email!r} -> user id {uid} (owner of {owned[uid]} initial row(s))")
        return uid
    report.add("approximated", "device_state_id", f"no row names the owner {email!r}; using the base world's owner (id 1)")
    return 1


def _clean_rows(table: str, rows: Iterable[Any], where: str, report: ImportReport, renames: dict[str, str] | None = None,
                base_keys: set[Any] | None = None) -> list[dict[str, Any]]:
    spec = TABLES.get(table)
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            report.add("dropped", f"{where}[{i}]", "not an object")
            continue
        row = {(renames or {}).get(k, k): v for k, v in row.items()}
        if spec is None:
            continue
        unknown = sorted(set(row) - set(spec.columns))
        if unknown:
            report.add("dropped", f"{where}[{i}]", f"column(s) {unknown} do not exist in {table}; kept the other columns")
            row = {k: v for k, v in row.items() if k in spec.columns}
        if spec.key not in row:
            report.add("dropped", f"{where}[{i}]", f"row has no key column {spec.key!r}")
            continue
        out.append(row)
    return out


def _entities(data: dict[str, Any], owner: int, report: ImportReport, world_seed: int = 0) -> dict[str, list[dict[str, Any]]]:
    from ..world.base import base_world

    base = base_world(world_seed).layer.tables
    out: dict[str, list[dict[str, Any]]] = {}
    for table, rows in (data.get("appworld_entities") or {}).items():
        if not rows:
            continue
        if table not in TABLES:
            report.add("dropped", f"appworld_entities.{table}", f"no table {table!r} here; {len(rows)} row(s) not imported")
            continue
        cleaned = _clean_rows(table, rows, f"appworld_entities.{table}", report, COLUMN_RENAMES.get(table),
                             base_keys=set(base.get(table, {})))
        out.setdefault(table, []).extend(cleaned)
        report.converted.append(f"appworld_entities.{table}: {len(cleaned)} row(s)")
    for ns, rows in (data.get("agentsandbox_entities") or {}).items():
        if not rows:
            continue
        table = AGENTSANDBOX_TABLES.get(ns) or NAMESPACE_TABLES.get(ns.upper())
        if table is None:
            report.add("dropped", f"agentsandbox_entities.{ns}",
                       f"the reference's native {ns!r} namespace has no equivalent table here; {len(rows)} row(s) not imported")
            continue
        rows = rows if isinstance(rows, list) else [rows]
        cleaned = _clean_rows(table, rows, f"agentsandbox_entities.{ns}", report, COLUMN_RENAMES.get(table),
                              base_keys=set(base.get(table, {})))
        out.setdefault(table, []).extend(cleaned)
        report.converted.append(f"agentsandbox_entities.{ns} -> {table}: {len(cleaned)} row(s)")
    # the owner: their account in every online app, logged in, with the reference's email
    email = data.get("device_state_id")
    if email:
        name = _owner_name(data, str(email))
        for app in ONLINE_APPS:
            table = f"{app}.users"
            if table in TABLES and not any(r.get("id") == owner for r in out.get(table, [])):
                out.setdefault(table, []).append({"id": owner, "email": email, **name})
        if name:
            report.converted.append(f"owner's name {name['first_name']} {name['last_name']!s} (as the scenario's rows name {email!r})")
        out.setdefault("supervisor.profiles", []).append({"id": owner, "email": email})
        report.converted.append(f"owner profile: user {owner} gets email {email!r} in every app's users table"
                                + ("" if name else " (names stay the base world's)"))
    out.setdefault("device.app_sessions", []).extend({"app": app, "user_id": owner, "logged_in": True} for app in ONLINE_APPS)
    _owner_essentials(out, owner, base_world(world_seed), report)
    return out


def _owner_name(data: dict[str, Any], email: str) -> dict[str, str]:
    """The owner's first and last name where the scenario's rows give it: a list of addresses with a
    parallel list of names (``sender_email_addresses``/``sender_names``) that holds the owner's
    address. Empty when no row does (the base world's name stays)."""
    rows = [r for rows in (data.get("appworld_entities") or {}).values() for r in rows or [] if isinstance(r, dict)]
    rows += [spec.get("entity_data") or spec.get("expected_fields") or {} for spec in data.get("entity_diff_specs") or []]
    for row in rows:
        for col, addresses in row.items():
            names = row.get(col.replace("_email_addresses", "_names")) if col.endswith("_email_addresses") else None
            if isinstance(addresses, list) and isinstance(names, list) and len(names) == len(addresses) and email in addresses:
                first, _, last = str(names[addresses.index(email)]).strip().partition(" ")
                if first:
                    return {"first_name": first, "last_name": last}
    return {}


def _thread_states(entities: dict[str, list[dict[str, Any]]], report: ImportReport, world_seed: int) -> None:
    """Staged thread records say which emails a thread holds and how each person's mailbox shows it;
    here emails carry their thread (``email_thread_id``) and mailbox states live in our state tables
    (read emails, label and flags), so the records our gmail derives equal the staged ones."""
    from ..world.base import base_world

    threads = entities.get("gmail.global_email_threads", [])
    records = entities.get("gmail.user_email_threads", [])
    emails = {r.get("id"): r for r in entities.get("gmail.emails", [])}
    if not threads and not records and not emails:
        return
    base = base_world(world_seed).layer.tables

    def fresh(table: str) -> int:
        keys = [k for k in base.get(table, {}) if isinstance(k, int)] + [r["id"] for r in entities.get(table, []) if isinstance(r.get("id"), int)]
        return max(keys, default=0) + 1

    for thread in threads:
        for eid in thread.get("email_ids") or []:
            if eid in emails:
                emails[eid]["email_thread_id"] = thread["id"]
    # an email no staged thread lists joins the thread of the email it answers, else starts its own
    top = max([k for k in base.get("gmail.global_email_threads", {}) if isinstance(k, int)]
              + [t["id"] for t in threads if isinstance(t.get("id"), int)], default=0)
    alone = 0
    for email in sorted(emails.values(), key=lambda e: (str(e.get("created_at") or ""), e.get("id") or 0)):
        if email.get("email_thread_id") is None:
            answered = emails.get(email.get("response_to_email_id")) or {}
            if answered.get("email_thread_id") is None:
                top, alone = top + 1, alone + 1
            email["email_thread_id"] = answered.get("email_thread_id") or top
    if alone:
        report.converted.append(f"gmail.emails: {alone} thread(s) started for staged emails no staged thread lists")
    if not threads and not records:
        return
    for record in records:
        uid, tid = record.get("user_id"), record.get("global_email_thread_id")
        if record.get("read"):
            for eid in record.get("email_ids") or []:
                if uid in (emails.get(eid) or {}).get("recipient_ids", []):
                    entities.setdefault("gmail.email_states", []).append(
                        {"id": fresh("gmail.email_states"), "user_id": uid, "email_id": eid, "read": True})
        flags = {k: record[k] for k in ("starred", "archived", "spam", "snoozed_until") if record.get(k)}
        if record.get("label") not in (None, "", "INBOX", "SENT"):
            flags["label"] = record["label"]
        if flags:
            entities.setdefault("gmail.thread_states", []).append(
                {"id": fresh("gmail.thread_states"), "user_id": uid, "email_thread_id": tid, **flags})
    report.converted.append(f"gmail thread records: {len(threads)} thread(s) give their emails' email_thread_id; "
                            f"{len(records)} mailbox record(s) give read states and flags")


def _owner_essentials(out: dict[str, list[dict[str, Any]]], owner: int, base: Any, report: ImportReport) -> None:
    """What the reference's device owner always has and our base world gives only its own owner:
    an Amazon payment card and address, and a home folder with documents/ and downloads/. Added
    only where neither the base world nor the staged rows give the owner one."""
    from ..apps.amazon.data import _split_address
    from ..apps.file_system.tables import home_name

    tables = base.layer.tables
    person = base.person(owner) if 1 <= owner <= len(base.people) else None
    first, last = (person.first_name, person.last_name) if person else ("Owner", str(owner))

    def has(table: str) -> bool:
        return any(r.get("user_id") == owner for r in tables.get(table, {}).values()) or \
            any(r.get("user_id") == owner for r in out.get(table, []))

    def fresh(table: str, k: int = 0) -> int:
        keys = [key for key in tables.get(table, {}) if isinstance(key, int)] + \
            [r["id"] for r in out.get(table, []) if isinstance(r.get("id"), int)]
        return max(keys, default=0) + 1 + k

    added = []
    if not has("amazon.payment_cards"):
        out.setdefault("amazon.payment_cards", []).append({
            "id": fresh("amazon.payment_cards"), "user_id": owner, "card_name": "Visa", "owner_name": f"{first} {last}",
            "card_number": 4000_0000_0000_1234, "expiry_year": 2030, "expiry_month": 12, "cvv_number": 123, "balance": 5000.0})
        added.append("an Amazon payment card")
    if not has("amazon.addresses"):
        street, city, state, zip_code = _split_address(person.home_address if person else "1 Main St, Springfield, IL 62701")
        out.setdefault("amazon.addresses", []).append({
            "id": fresh("amazon.addresses"), "user_id": owner, "name": "Home", "street_address": street, "city": city,
            "state": state, "country": "United States", "zip_code": zip_code})
        added.append("an Amazon address")
    def has_home() -> bool:
        return any(r.get("user_id") == owner and str(r.get("path", "")).startswith("/home/") and r["path"].count("/") == 3
                   for r in [*tables.get("file_system.directories", {}).values(), *out.get("file_system.directories", [])])

    if not has_home():
        home = f"/home/{home_name(first, owner)}/"
        out.setdefault("file_system.directories", []).extend(
            {"id": fresh("file_system.directories", k), "user_id": owner, "path": path}
            for k, path in enumerate((home, home + "documents/", home + "downloads/")))
        added.append(f"a home folder {home}")
    if added:
        report.converted.append(f"owner {owner} given what the reference's device owner has: {', '.join(added)}")
    _home_paths(out, owner, tables)


def _home_paths(out: dict[str, list[dict[str, Any]]], owner: int, tables: dict[str, Any]) -> None:
    """Staged owner paths written ``~/...`` become absolute under the owner's home (rows hold
    absolute paths). Top-level folders (``/E/``) stay where they are: the owner may change what is
    inside folders they own outside ``/home/``."""
    homes = [r["path"] for r in [*tables.get("file_system.directories", {}).values(), *out.get("file_system.directories", [])]
             if r.get("user_id") == owner and str(r.get("path", "")).startswith("/home/") and r["path"].count("/") == 3]
    if not homes:
        return
    home = sorted(homes)[0]
    for table in ("file_system.directories", "file_system.files"):
        for row in out.get(table, []):
            path = str(row.get("path") or "")
            if row.get("user_id") == owner and (path == "~" or path.startswith("~/")):
                row["path"] = home + path[2:]


# Columns that hold a user's id, whatever the app calls the person.
_PERSON_STEMS = frozenset({"user", "sender", "receiver", "payer", "creator", "debtor", "recipient", "participant", "owner",
                           "follower", "friend", "collaborator", "assignee", "member", "requester"})


def _referenced_group(app: str, column: str) -> str | None:
    """The id space a column refers to: ``"users"`` for people, else the table of its app its name
    points to (``song_id`` -> ``spotify.songs``), else None."""
    if column.endswith("_ids"):
        stem = column[:-4]
    elif column.endswith("_id"):
        stem = column[:-3]
    else:
        return None
    if stem in _PERSON_STEMS:
        return "users"
    for name in (f"{app}.{stem}s", f"{app}.{stem}es", f"{app}.{stem[:-1]}ies" if stem.endswith("y") else ""):
        if name in TABLES:
            return "users" if name.endswith(".users") else name
    return None


def _renumber_collisions(entities: dict[str, list[dict[str, Any]]], expected: list[dict[str, Any]], owner: int,
                         report: ImportReport, world_seed: int) -> None:
    """Give staged rows whose key a base-world row already has a fresh key, and rewrite every
    reference to them (other staged rows, expected rows, update/delete keys), so staging never
    overwrites someone else's data. People share one id space across apps (``*.users``); the
    owner's own account rows are meant to land on the owner and keep their id."""
    from ..world.base import base_world

    base = base_world(world_seed).layer.tables

    def group(table: str) -> str:
        return "users" if table.endswith(".users") else table

    taken: dict[str, set[Any]] = {}
    for table in set(base) | set(entities):
        taken.setdefault(group(table), set()).update(base.get(table, {}))
        spec = TABLES.get(table)
        if spec is not None:
            taken[group(table)].update(r.get(spec.key) for r in entities.get(table, []))
    mapping: dict[str, dict[Any, Any]] = {}
    for table, rows in sorted(entities.items()):
        spec = TABLES.get(table)
        if spec is None or table.startswith(("device.", "supervisor.", "setting.")):  # the device itself is the owner's
            continue
        for row in rows:
            key = row.get(spec.key)
            if not isinstance(key, int) or isinstance(key, bool) or key not in base.get(table, {}):
                continue
            if group(table) == "users" and key == owner:
                continue
            moved = mapping.setdefault(group(table), {})
            if key not in moved:
                moved[key] = max(k for k in taken[group(table)] if isinstance(k, int)) + 1
                taken[group(table)].add(moved[key])
    if not mapping:
        return

    def fix(app: str, column: str, value: Any) -> Any:
        target = _referenced_group(app, column)
        moved = mapping.get(target or "", {})
        if isinstance(value, list):
            return [moved.get(v, v) if isinstance(v, int) else v for v in value]
        return moved.get(value, value) if isinstance(value, int) and not isinstance(value, bool) else value

    for table, rows in entities.items():
        spec = TABLES.get(table)
        app = table.split(".")[0]
        for row in rows:
            for col, value in list(row.items()):
                if spec is not None and col == spec.key:
                    row[col] = mapping.get(group(table), {}).get(value, value)
                else:
                    row[col] = fix(app, col, value)
    for change in expected:
        app = change["table"].split(".")[0]
        for part in ("row", "fields"):
            if change.get(part):
                change[part] = {c: fix(app, c, v) for c, v in change[part].items()}
        if change.get("key") is not None:
            change["key"] = mapping.get(group(change["table"]), {}).get(change["key"], change["key"])
    for target, moved in sorted(mapping.items()):
        report.converted.append(f"{target}: staged id(s) {sorted(moved)} collide with base-world rows; renumbered to "
                                f"{[moved[k] for k in sorted(moved)]} with every reference")


def _current_row(table: str, key: Any, entities: dict[str, list[dict[str, Any]]], world_seed: int) -> dict[str, Any] | None:
    """The row ``key`` of ``table`` as the scenario starts: staged, else the base world's."""
    from ..world.base import base_world

    spec = TABLES[table]
    for row in entities.get(table, []):
        if row.get(spec.key) == key:
            base = base_world(world_seed).layer.tables.get(table, {}).get(key)
            return spec.complete({**(base or {}), **row})
    row = base_world(world_seed).layer.tables.get(table, {}).get(key)
    return dict(row) if isinstance(row, dict) else None


def _expected(data: dict[str, Any], report: ImportReport, entities: dict[str, list[dict[str, Any]]],
              world_seed: int = 0) -> list[dict[str, Any]]:
    try:
        from ..evaluation.reference_specs import from_reference_specs
    except ImportError:  # pragma: no cover - the evaluator always ships it
        report.add("missing", "entity_diff_specs", "the evaluation package has no reference-spec converter")
        return []
    out = []
    for i, spec in enumerate(data.get("entity_diff_specs") or []):
        try:
            (change,) = from_reference_specs([spec], NAMESPACE_TABLES)
        except (ValueError, KeyError) as exc:
            report.add("dropped", f"entity_diff_specs[{i}]", str(exc))
            continue
        if change.table not in TABLES:
            report.add("dropped", f"entity_diff_specs[{i}]", f"table {change.table!r} does not exist here")
            continue
        if change.operation == "update":
            # The reference scores an update by the final row, changed or not; ours scores changes. An update
            # that compares nothing, or asks for the values the row already has, is met while the row exists.
            compared = {c: v for c, v in (change.fields or {}).items() if not is_ignored(change.measures.get(c))}
            current = _current_row(change.table, change.key, entities, world_seed)
            if not compared or (current is not None and all(current.get(c) == v for c, v in compared.items())):
                why = "compares no column (all ignored)" if not compared else "asks for the values the row already has"
                report.add("note", f"entity_diff_specs[{i}]", f"update of {change.table} {change.key!r} {why}: the reference "
                                                              "counts it met while the row exists; not scored here")
                continue
        cols = {c for c in (change.row or {}) | (change.fields or {}) if not is_ignored(change.measures.get(c))}
        unknown = sorted(cols - set(TABLES[change.table].columns))
        if unknown:
            report.add("approximated", f"entity_diff_specs[{i}]", f"column(s) {unknown} do not exist in {change.table}; they can never match")
        out.append({"operation": change.operation, "table": change.table, "row": change.row, "key": change.key,
                    "fields": change.fields, "measures": dict(change.measures)})
    if out:
        report.converted.append(f"entity_diff_specs: {len(out)} of {len(data.get('entity_diff_specs') or [])} -> expected_changes")
    return out


def resolve_tool_name(name: str) -> str | None:
    """Our tool for a name the reference's scenario metadata uses: the name itself, or the one
    tool whose name ends with it (``create_note`` -> ``simple_note_create_note``; the metadata
    sometimes drops the app prefix). None when there is no such tool or more than one."""
    from ..tools.catalog import REGISTRY

    if REGISTRY.get(name) is not None:
        return name
    matches = [n for n in REGISTRY if n.endswith("_" + name)]
    return matches[0] if len(matches) == 1 else None


def _domains(data: dict[str, Any], entities: dict[str, list[dict[str, Any]]], expected: list[dict[str, Any]],
             report: ImportReport) -> list[str]:
    from ..tools.catalog import REGISTRY

    apps: set[str] = {"supervisor"}
    tools = (data.get("metadata") or {}).get("expected_tools") or []
    for name in tools:
        ours = resolve_tool_name(name)
        if ours is not None:
            spec = REGISTRY.get(ours)
            apps.add(spec.app)
            if ours != name:
                report.converted.append(f"metadata.expected_tools: {name!r} -> {ours!r}")
            if "file_system" not in apps and any(p.name == "file_system_access_token" and p.required for p in spec.params):
                # it moves files to or from the owner's file_system app, which must then be reachable too
                apps.add("file_system")
                report.converted.append(f"metadata.expected_tools: {ours!r} works on the owner's files; the file_system app is offered")
            continue
        guess = next((a for a in ("simple_note", "todoist", "gmail", "calendar", "reminder", "amazon", "spotify", "venmo", "splitwise",
                                  "file_system", "contacts", "messages", "alarms") if a.split("_")[-1] in name), None)
        if guess:
            apps.add(guess)
            report.add("approximated", "metadata.expected_tools", f"{name!r} is not a tool here; counted as the {guess} app")
        elif not name.startswith("ui_") and name not in ("render_ui_screen", "show_ui_to_user"):
            report.add("note", "metadata.expected_tools", f"{name!r} is not a tool here")
    written = {c["table"] for c in expected}
    for table in written | {t for t, rows in entities.items() if rows and not t.endswith(".users") and not t.startswith(("device.", "supervisor."))}:
        app = TABLE_APPS.get(table, table.split(".")[0])
        if app:
            apps.add(app)
    return sorted(apps)


# ---------------------------------------------------------------------------- main entry
def import_reference(path: str | Path, image_root: str | Path | None = None, *, world_seed: int = 0) -> tuple[Scenario, ImportReport]:
    """Convert one reference scenario file; returns the format-v1 scenario and its import report.

    ``image_root`` is the folder the reference's ``image_paths`` are relative to; images stay
    ``path`` images either way (the episode resolves them against ``MMTSB_IMAGE_ROOT``).
    """
    path = Path(path)
    report = ImportReport(source=str(path))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ScenarioError(f"{path}: cannot read reference scenario: {exc}") from None
    if not isinstance(data, dict) or "messages" not in data:
        raise ScenarioError(f"{path}: not a reference scenario (no 'messages')")
    name = str(data.get("name") or path.stem)
    suite = path.parent.name if path.parent.name in ("nominal", "ui") else ""
    sid = f"reference/{suite}/{name}" if suite else f"reference/{name}"
    report.scenario_id = sid
    meta = data.get("metadata") or {}
    smeta = meta.get("scenario_metadata") or {}

    # ---- images
    paths = list(data.get("image_paths") or [])
    root = Path(image_root) if image_root is not None else None
    images = []
    for i, p in enumerate(paths):
        dataset = str(p).split("/")[0]
        images.append({"path": str(p), "category": DATASET_CATEGORIES.get(dataset, dataset)})
        if root is not None and not (root / p).exists():
            report.add("missing", f"image_paths[{i}]", f"{p} not found under {root}")
    if paths:
        report.converted.append(f"image_paths: {len(paths)} path image(s), relative to the image folder")
        if root is None:
            report.add("missing", "image_paths", f"no image folder given: the {len(paths)} image(s) stay paths; run with `--images-dir DIR` "
                                                 f"(or ${IMAGE_ROOT_ENV}), or `--stand-in-images`")

    # ---- rounds
    script = next((m.get("content", "") for m in data["messages"] if m.get("sender") == "SYSTEM" and m.get("recipient") == "USER"), "")
    parsed, mapping, schedule = parse_round_script(script)
    first_user = next((m for m in data["messages"] if m.get("sender") == "USER" and m.get("recipient") == "AGENT"), None)
    if not parsed:
        if first_user is None:
            raise ScenarioError(f"{path}: no ROUND blocks and no first user message")
        report.add("approximated", "messages", "no ROUND blocks in the user script: one round from the first user message")
        parsed = [{"number": 1, "provide": [], "query": first_user.get("content", ""), "instructions": script}]
    challenge = smeta.get("challenge_type") or "none"
    rounds = []
    for k, r in enumerate(parsed):
        ids = []
        for name_ in r["provide"]:
            key = name_.split(".")[0]
            if key in mapping:
                ids.append(mapping[key])
            elif re.fullmatch(r"image_\d+", key):
                ids.append(int(key.split("_")[1]) - 1)
            else:
                report.add("dropped", f"ROUND {r['number']}", f"cannot resolve image reference {name_!r}")
        bad = [i for i in ids if not 0 <= i < len(paths)]
        if bad:
            report.add("dropped", f"ROUND {r['number']}", f"image id(s) {bad} out of range ({len(paths)} images)")
            ids = [i for i in ids if i not in bad]
        sched = schedule.get(r["number"])
        if sched is not None and sorted(sched) != sorted(ids):
            report.add("approximated", f"ROUND {r['number']}", f"delivery schedule says {sched}, ROUND header says {ids}; used the header")
        if k == 0 and first_user is not None and first_user.get("image_ids") is not None and sorted(first_user["image_ids"]) != sorted(ids):
            report.add("approximated", "messages[1].image_ids", f"first user message sends {first_user['image_ids']}, ROUND 1 provides {ids}")
        hints = conditional_hints(r["instructions"])
        clar = hints.clarifications
        kind = "task"
        q = r["query"].lower()
        if challenge == "goal_change" and k > 0 and re.search(r"\b(actually|change of plan|instead|changed my mind|skip the)\b", q):
            kind = "goal_change"
        elif challenge == "error_correction" and k > 0 and re.search(r"\b(sorry|my mistake|i meant|correction|wrong)\b", q):
            kind = "correction"
        rounds.append({"query": r["query"], "image_ids": ids, "instructions": r["instructions"], "kind": kind,
                       "clarifications": clar, **({"guidance": hints.guidance} if hints.guidance else {}),
                       **({"ui": dict(hints.ui, criterion=f"The user makes this choice on a screen: {hints.ui_sentence}")}
                          if hints.ui else {})})
        if clar:
            report.converted.append(f"ROUND {r['number']}: clarification answer(s) {[c['answer'] for c in clar]}")
        for line in hints.converted:
            report.converted.append(f"ROUND {r['number']}: conditional hint -> {line}")
        for line in hints.prose:
            report.add("note", f"ROUND {r['number']}.instructions", f"conditional hint kept as prose ({line})")
    report.converted.append(f"rounds: {len(rounds)} from the ROUND script")
    kinds = {r["kind"] for r in rounds}
    want = CHALLENGE_KINDS.get(challenge)
    if want == "state_mutation":
        report.add("missing", "scenario_metadata.challenge_type",
                   "state_mutation: the reference describes no structured world change, so no round carries state_changes")
    elif want and want not in kinds:
        report.add("approximated", "scenario_metadata.challenge_type",
                   f"{challenge}: no round reads like one, so every round stays a 'task'")
    for k, r in enumerate(rounds):
        r["solution"] = []
    report.add("missing", "rounds[*].solution", "the reference has no reference solutions; the oracle cannot play this scenario")

    # ---- world, expectations
    owner = _owner_id(data, report)
    entities = _entities(data, owner, report, world_seed)
    expected = _expected(data, report, entities, world_seed)
    _renumber_collisions(entities, expected, owner, report, world_seed)
    _thread_states(entities, report, world_seed)
    if not expected:
        report.add("missing", "expected_changes", "no expected change could be converted")
    domains = _domains(data, entities, expected, report)

    categories = [str(c) for c in data.get("categories") or []]
    ui = "UI_MODE" in categories
    criteria = str(data.get("task_completion_criteria") or "")
    if ui and "UI Requirements" in criteria:
        _ui_rounds(criteria, rounds, parsed, report)
    for fld in ("milestones",):
        if data.get(fld):
            report.add("dropped", fld, "legacy milestones are not used here")
    if data.get("base_scenario") not in (None, "base"):
        report.add("note", "base_scenario", f"{data.get('base_scenario')!r}: our base world is used instead")
    report.add("note", "facts", "the reference has no structured facts; completion_criteria is kept for judges")
    arrival = smeta.get("image_arrival")
    scenario = {
        "id": sid,
        "domains": domains,
        "reference_time": data.get("reference_time") or "2026-04-16T09:00:00+00:00",
        "user_id": owner,
        "world_seed": world_seed,
        "description": str(data.get("description") or ""),
        "initial_entities": entities,
        "images": images,
        "rounds": rounds,
        "expected_changes": expected,
        "completion_criteria": criteria,
        "facts": [],
        "max_messages": int(data.get("max_messages") or 100),
        "ui": ui,
        "metadata": {
            "flow_type": smeta.get("selected_flow_type"), "challenge_type": challenge, "image_arrival": arrival,
            "image_categories": sorted({im["category"] for im in images}), "num_images": len(images), "num_rounds": len(rounds),
            "domains": domains, "difficulty": data.get("difficulty"), "expected_tools": [resolve_tool_name(n) or n for n in meta.get("expected_tools") or []],
            "original_scenario_id": meta.get("original_scenario_id", name),
            "require_disambiguation": smeta.get("require_disambiguation"), "dataset_type": smeta.get("dataset_type"),
            "reference_categories": categories, "imported_from": str(path.name),
        },
    }
    if smeta.get("num_user_rounds") not in (None, len(rounds)):
        report.add("approximated", "scenario_metadata.num_user_rounds", f"says {smeta.get('num_user_rounds')}, the script has {len(rounds)}")
    return Scenario.from_dict(scenario, source=str(path)), report


def _ui_rounds(criteria: str, rounds: list[dict[str, Any]], parsed: list[dict[str, Any]], report: ImportReport) -> None:
    """Attach each "UI Requirements: - Round N: ..." line to round N: as the criterion of the UI
    decision its choice-point hint became (:func:`ui_choice`), or, when the hint named no choice
    the user can make by its own words, listed as not playable."""
    for number, text in re.findall(r"-\s*Round\s+(\d+):\s*(.+)", criteria):
        k = next((i for i, r in enumerate(parsed) if r["number"] == int(number)), None)
        if k is None:
            report.add("dropped", "task_completion_criteria", f"UI requirement for round {number}, which the script does not have")
            continue
        ui = rounds[k].get("ui")
        if ui is None:
            report.add("approximated", f"ROUND {number}.ui",
                       "no choice the user can make by its own words (see the round's prose hints); kept in completion_criteria only")
            continue
        ui["criterion"] = text.strip()
        report.converted.append(f"ROUND {number}: UI decision {ui['pick']} with criterion {text.strip()[:60]!r}")
    report.add("note", "task_completion_criteria", "the UI requirements text also stays in completion_criteria (for judges)")


def import_reference_dir(src: str | Path, out: str | Path, image_root: str | Path | None = None) -> list[ImportReport]:
    """Import a reference file or every ``*.json`` under a folder; write scenarios and the reports to ``out``.

    Writes one format-v1 file per scenario plus ``import_report.md`` (readable) and
    ``import_report.jsonl`` (one report per line). A file that cannot be imported at all gets a
    report whose issue explains why.
    """
    src, out = Path(src), Path(out)
    files = [src] if src.is_file() else sorted(p for p in src.rglob("*.json"))
    out.mkdir(parents=True, exist_ok=True)
    reports = []
    for f in files:
        try:
            scenario, report = import_reference(f, image_root)
        except ScenarioError as exc:
            report = ImportReport(source=str(f))
            report.add("dropped", "file", str(exc))
            reports.append(report)
            continue
        name = scenario.id.replace("/", "_") + ".json"
        (out / name).write_text(json.dumps(scenario.to_dict(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        reports.append(report)
    (out / "import_report.jsonl").write_text("".join(json.dumps(r.to_json()) + "\n" for r in reports), encoding="utf-8")
    (out / "import_report.md").write_text("# Import report\n\n" + "\n\n".join("```\n" + r.to_text() + "\n```" for r in reports) + "\n",
                                          encoding="utf-8")
    return reports


def dataset_table(scenarios: Iterable[Any], image_root: str | Path | None = None) -> str:
    """One table of the paper's eight datasets (and any other a suite uses): the suite's distinct
    files from each, how many are under ``image_root``, and the verdict (present / partly missing /
    missing / not used by this suite)."""
    from ..episode.images import dataset_of, image_root_of

    root = image_root_of(image_root)
    paths = sorted({str(im.path) for sc in scenarios for im in sc.images if im.render is None and im.path})
    used: dict[str, list[str]] = {}
    for p in paths:
        used.setdefault(dataset_of(p), []).append(p)
    rows = [("dataset", "files", "found", "status")]
    for ds in [*PAPER_DATASETS, *sorted(set(used) - set(PAPER_DATASETS))]:
        files = used.get(ds, [])
        found = sum(1 for p in files if (root / p).is_file())
        status = ("not used by this suite" if not files else "present" if found == len(files)
                  else "missing" if found == 0 else f"partly missing ({len(files) - found})")
        if not files and (root / ds).is_dir():
            status += " (folder present)"
        rows.append((ds + ("" if ds in PAPER_DATASETS else " (not one of the paper's eight)"), str(len(files)), str(found), status))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [f"image datasets under {root}:"]
    lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(lines)


def write_expected_changes(world: Any, changes: Iterable[Any]) -> list[str]:
    """Write ``changes`` (a scenario's expected changes) straight into ``world``: the world a
    perfect agent would leave, for checking that the schema and the scorer can reach F1 1.0.

    Reference column names are translated to ours (:data:`COLUMN_RENAMES`; the reference's names
    come back as derived columns), columns the expectation ignores are not written, a created row
    gets a fresh key. Returns one line per change that could not be written.
    """
    problems = []
    for c in changes:
        spec = TABLES.get(c.table)
        if spec is None:
            problems.append(f"{c.operation} {c.table}: no such table")
            continue
        renames = COLUMN_RENAMES.get(c.table, {})

        def ours(data: dict[str, Any]) -> dict[str, Any]:
            out = {renames.get(k, k): v for k, v in data.items() if not is_ignored(c.measures.get(k))}
            return {k: v for k, v in out.items() if k in spec.columns and not any(k == d for d, _ in spec.derived)}

        try:
            if c.operation == "create":
                row = ours(c.row or {})
                row[spec.key] = world.new_id(c.table) if spec.key == "id" else world.new_token(c.table.split(".")[-1])
                world.insert(c.table, row)
            elif c.operation == "update":
                world.update(c.table, c.key, **ours(c.fields or {}))
            else:
                world.delete(c.table, c.key)
        except Exception as exc:  # noqa: BLE001 - reported, the rest is still written
            problems.append(f"{c.operation} {c.table} {c.key!r}: {exc}")
    return problems
