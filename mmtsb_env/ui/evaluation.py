"""UI evaluation: deterministic checks per UI round, and a prompt for an LLM UI judge.

:func:`ui_criteria` returns :class:`~mmtsb_env.evaluation.judge.Criterion` objects like the rubric
judge's, computed from the episode's log, tool calls and UI state:

- ``ui_rendered``: a screen was rendered in every UI round;
- ``ui_shown``: a screen was shown to the user in every UI round;
- ``ui_affordances``: a shown screen offers what the round's decision needs (its ``expect`` texts
  and an element the decision can act on) and nothing else to choose: every option it offers holds
  one of the ``expect`` texts (the items the conversation and images established), so a screen of
  guessed names fails, and none holds two or more of them (an option declining the choice -- "None of these", "Skip", "Cancel" -- is
  none to choose); and in a round decided by a value rule, every value an option shows (price,
  number, date, clock time) is one its item's images show, so a screen of misread values fails
  even when the misreading keeps the order;
- ``ui_choice_obtained``: the user answered through ``ui_user_interact``;
- ``ui_choice_acted_on``: after that, the assistant made a successful change to the world (none is
  needed when the reference changes nothing after the screen: a re-run whose pick is unchanged), and
  the first change naming any of the screen's options names the one the user chose (its ``expect``
  text, a contact's number or email, an amount or ISO date its images really show, or an id its action handed
  over) and no other option's (for a multi-pick filter round: only ticked options) -- acting on another
  option than the tapped one fails, and so does a write naming every option or the tapped option with
  another option's amount or date.

:func:`ui_judge_messages` builds the chat messages for an LLM judge of the four qualitative UI
criteria (task focus, structure and patterns, action clarity, feedback and flow); the reply is
read by :func:`parse_ui_judge_reply`.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from ..evaluation.judge import Criterion, Verdict
from .choice import (VALUE_RULES, chosen_options, decide, element_text, is_ui_interaction, is_ui_notice, offered_options,
                     option_labels, shown_text, shows_true_values)

UI_CRITERIA = ("ui_rendered", "ui_shown", "ui_affordances", "ui_choice_obtained", "ui_choice_acted_on")
UI_JUDGE_CRITERIA = ("ui_task_focus", "ui_structure_and_patterns", "ui_action_clarity", "ui_feedback_and_flow")


def _ui_rounds(scenario: Any) -> list[int]:
    return [i for i, r in enumerate(scenario.rounds) if r.ui is not None]


def _searchable(el: dict[str, Any]) -> str:
    parts = [element_text(el), json.dumps(el.get("value"), ensure_ascii=False) if "value" in el else ""]
    parts += [f"{o.get('label', '')} {o.get('value', '')}" for o in el.get("options", [])]
    return " ".join(parts).lower()


def _round_of_rendered_images(log: list[Any], render_ids: set[int]) -> dict[int, set[int]]:
    """round index -> ids of UI screenshots the assistant received in that round."""
    out: dict[int, set[int]] = {}
    for e in log:
        if e.recipient == "assistant" and e.kind in ("tool_result", "code_result") and e.round_index is not None:
            ids = {i for i in e.image_ids if i in render_ids}
            if ids:
                out.setdefault(e.round_index, set()).update(ids)
    return out


def ui_criteria(episode: Any) -> list[Criterion]:
    """The deterministic UI checks of an episode (empty if the scenario has no UI round)."""
    scenario = episode.scenario
    rounds = _ui_rounds(scenario)
    if not rounds:
        return []
    state = episode.world.services.get("ui")
    renders = list(state.renders) if state is not None else []
    render_ids = {r.image_id for r in renders if r.kind == "render"}
    rendered_in = _round_of_rendered_images(episode.log, render_ids)
    problems: dict[str, list[str]] = {name: [] for name in UI_CRITERIA}
    for r in rounds:
        label = f"round {r + 1}"
        decision = scenario.rounds[r].ui
        if not rendered_in.get(r):
            problems["ui_rendered"].append(f"{label}: no screen was rendered")
        notices = [e for e in episode.log if is_ui_notice(e) and e.round_index == r]
        if not notices:
            problems["ui_shown"].append(f"{label}: no screen was shown to the user")
        screens = []
        for e in notices:
            record = state.shown_record(e.image_ids[0]) if state is not None and e.image_ids else None
            if record is not None:
                screens.append(list(record.elements))
        if notices:
            ok_screen = False
            missing_best: list[str] | None = None
            for elements in screens:
                text = " ".join(_searchable(el) for el in elements)
                missing = [x for x in decision.expect if x.lower() not in text]
                actionable = decide(decision, elements) is not None
                if not missing and actionable:
                    ok_screen = True
                    break
                reasons = missing + ([] if actionable else ["an element the user's decision can act on"])
                if missing_best is None or len(reasons) < len(missing_best):
                    missing_best = reasons
            if not ok_screen:
                problems["ui_affordances"].append(f"{label}: the shown screens lack {', '.join(missing_best or ['elements'])}")
            foreign = [t for elements in screens for t in _foreign_options(decision, elements)]
            if foreign:
                problems["ui_affordances"].append(
                    f"{label}: the screens offer {len(foreign)} option(s) that are none of the items in question "
                    f"({'; '.join(repr(t[:40]) for t in foreign[:3])})")
            blended = [t for elements in screens for t in _blended_options(decision, elements)]
            if blended:
                problems["ui_affordances"].append(
                    f"{label}: the screens offer {len(blended)} option(s) holding two or more of the items in question "
                    f"({'; '.join(repr(t[:40]) for t in blended[:3])})")
            misread = [t for elements in screens for t in _misread_options(scenario, decision, elements)]
            if misread:
                problems["ui_affordances"].append(
                    f"{label}: the screens show {len(misread)} option(s) with a value its images do not "
                    f"({'; '.join(repr(t[:50]) for t in misread[:3])})")
        else:
            problems["ui_affordances"].append(f"{label}: nothing shown")
        interactions = [i for i, e in enumerate(episode.log) if is_ui_interaction(e) and e.round_index == r]
        if not interactions:
            problems["ui_choice_obtained"].append(f"{label}: the user did not answer through the UI")
            problems["ui_choice_acted_on"].append(f"{label}: no UI choice to act on")
            continue
        first_image = episode.log[interactions[0]].image_ids
        start = _call_index_of_interaction(episode.calls, first_image)
        writes = [c for c in episode.calls[start + 1:] if c.seat == "assistant" and c.outcome.ok and c.outcome.wrote]
        if not writes:
            if _reference_acts(scenario, r):
                problems["ui_choice_acted_on"].append(f"{label}: no successful change followed the user's choice")
            continue
        chosen, others = _option_marks(episode, decision, screens, start)
        # the first change naming any option must name the chosen one and no other option (a write
        # naming every option, or the chosen name with another option's amount, holds whichever was tapped)
        for c in writes:
            text = json.dumps(c.outcome.arguments, ensure_ascii=False).lower()
            named = [m for m in others if _mentions(text, [m])]
            if _mentions(text, chosen):
                if named:
                    problems["ui_choice_acted_on"].append(
                        f"{label}: after the user chose {chosen[0]!r} the assistant's {c.outcome.name} also names "
                        f"other option(s): {', '.join(repr(str(m)) for m in named[:3])}")
                break
            if named:
                problems["ui_choice_acted_on"].append(
                    f"{label}: after the user chose {chosen[0]!r} the assistant changed {c.outcome.name} for another option")
                break
    good = {
        "ui_rendered": "a screen was rendered in every UI round",
        "ui_shown": "a screen was shown to the user in every UI round",
        "ui_affordances": "the shown screens offered the options the user needed",
        "ui_choice_obtained": "the user's choice came through ui_user_interact",
        "ui_choice_acted_on": "the assistant acted on the user's choice",
    }
    return [Criterion(name, not problems[name], good[name] if not problems[name] else "; ".join(problems[name]))
            for name in UI_CRITERIA]


def _reference_acts(scenario: Any, r: int) -> bool:
    """Whether the reference solution changes the world after round ``r``'s screen (a re-run
    whose pick is unchanged needs no change)."""
    from ..tools.catalog import get_tool

    steps = list(scenario.rounds[r].solution)
    shown = next((k for k, st in enumerate(steps) if st.get("name") == "show_ui_to_user"), 0)
    later = steps[shown:] + [st for rnd in scenario.rounds[r + 1:] for st in rnd.solution]
    return not any(st.get("name") == "show_ui_to_user" for st in steps) or \
        any(st.get("name") and get_tool(st["name"]).writes for st in later)


def _foreign_options(decision: Any, elements: list[dict[str, Any]]) -> list[str]:
    """Options of a screen holding none of ``decision.expect`` (none when it expects nothing or
    fixes the element to press)."""
    if not decision.expect or decision.choose is not None:
        return []
    expect = [x.lower() for x in decision.expect]
    return [text for _, text in offered_options(elements) if not any(x in text.lower() for x in expect)]


def _blended_options(decision: Any, elements: list[dict[str, Any]]) -> list[str]:
    """Options of a screen holding two or more of the items ``decision.expect`` names (texts with a
    letter; a name inside another held name counts once): such an option is none of them, and a
    screen of them lets the user tap without telling the items apart."""
    if decision.choose is not None:
        return []
    names = [x.lower() for x in decision.expect if re.search(r"[^\W\d_]", x)]
    out = []
    for _, text in offered_options(elements):
        held = [n for n in names if n in text.lower()]
        if len([n for n in held if not any(n != m and n in m for m in held)]) >= 2:
            out.append(text)
    return out


def _misread_options(scenario: Any, decision: Any, elements: list[dict[str, Any]]) -> list[str]:
    """Options of a value-rule round's screen showing a value that the images of their item (the one
    ``expect`` name they hold) do not: a price, number, date or clock time no fact of that item has
    (a number may be rounded by 1 % or the image's read tolerance). A screen whose values are all
    misread in the same order still makes the user pick the right item; this keeps it from passing."""
    rule = next((k for k in (decision.pick or {}) if k in VALUE_RULES), None)
    if rule is None or decision.choose is not None:
        return []
    out = []
    for text in option_labels(elements):
        names = [x for x in decision.expect if x.lower() in text.lower()]
        truth = _item_facts(scenario, names[0]) if len(names) == 1 else []
        if truth and not shows_true_values(rule, shown_text(text, decision.expect), truth):
            out.append(text)
    return out


def _item_facts(scenario: Any, name: str) -> list[Any]:
    """The facts of the images of the item called ``name`` (empty when no image is that item's)."""
    return [im.facts for im in getattr(scenario, "images", ()) if str(im.facts.get("label", "")).lower() == name.lower()]


_NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])\d+(?:\.\d+)?")


def _mentions(text: str, marks: list[Any]) -> bool:
    """Whether ``text`` holds one of ``marks``: a text as a whole word, an amount (a float) as a number
    of the same value ("204.6", "$204.60", "1,476.27")."""
    amounts = [m for m in marks if isinstance(m, float)]
    numbers = [float(n.replace(",", "")) for n in _NUMBER.findall(text)] if amounts else []
    return any(re.search(rf"(?<!\w){re.escape(m.lower())}(?!\w)", text) for m in marks if isinstance(m, str)) or \
        any(abs(n - a) < 0.005 for a in amounts for n in numbers)


def _image_amounts(scenario: Any, name: str) -> list[float]:
    """The amounts (numbers with cents) the images of the item called ``name`` really show, such as an
    invoice's amount due: a write of one of them acts on that item even when it names none (a
    shared expense of that amount). The images' true values, not the screen's: a shown value may be
    misread."""
    return [float(v) for im in getattr(scenario, "images", ()) if str(im.facts.get("label", "")).lower() == name.lower()
            for v in im.facts.values() if isinstance(v, float) and v != int(v)]


def _image_dates(scenario: Any, name: str) -> list[str]:
    """The dates (ISO "YYYY-MM-DD") the images of the item called ``name`` really show, such as an
    event's day: a write of the chosen event with another event's date acts on that other event."""
    return [v for im in getattr(scenario, "images", ()) if str(im.facts.get("label", "")).lower() == name.lower()
            for v in im.facts.values() if isinstance(v, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", v)]


def _option_marks(episode: Any, decision: Any, screens: list[list[dict[str, Any]]], call_index: int
                  ) -> tuple[list[str], list[str]]:
    """What identifies the option the user chose at ``episode.calls[call_index]``, and the other
    options: the ``expect`` texts an option holds that no other holds, a contact's phone numbers and
    emails, the amounts its images really show (:func:`_image_amounts`), and (chosen only) the values the tapped option's action hands over unseen that no other
    option carries (an id; a shown value identifies nothing: it may be misread). Both empty when the
    choice cannot be told apart this way (a single confirming button, a form, no ``expect``)."""
    if call_index >= len(episode.calls):
        return [], []
    args = episode.calls[call_index].outcome.arguments
    elements = next((els for els in reversed(screens)
                     if any(e["surface_id"] == args.get("surface_id") and e["component_id"] == args.get("component_id")
                            for e in els)), None)
    if elements is None:
        return [], []
    texts = [t.lower() for t in _option_texts(elements)]
    picked = [t.lower() for t in chosen_options(elements, args)]

    def own(text: str) -> list[Any]:
        marks = [x for x in decision.expect if x.lower() in text and not any(x.lower() in o for o in texts if o != text)]
        return marks + [v for m in marks for v in _contact_reach(episode.world, m)] + \
            [v for m in marks for v in _image_amounts(episode.scenario, m)] + \
            [v for m in marks for v in _image_dates(episode.scenario, m)]

    chosen = [m for t in picked for m in own(t)]
    if not chosen:
        return [], []
    others = [m for t in texts if t not in picked for m in own(t) if m not in chosen]
    tapped = next((e for e in elements if e["component_id"] == args.get("component_id") and e["type"] == "Button"), {})
    visible = f"{tapped.get('label', '')} {tapped.get('description', '')}".lower()
    chosen += [str(v) for v in (tapped.get("context") or {}).values()  # the hidden ids the tapped option hands over
               if isinstance(v, (str, int)) and str(v).strip() and str(v).lower() not in visible
               and not any(str(v).lower() in o for o in texts if o not in picked)]
    return chosen, others


def _option_texts(elements: list[dict[str, Any]]) -> list[str]:
    return [text for _, text in offered_options(elements)]


def _contact_reach(world: Any, name: str) -> list[str]:
    """Phone numbers and emails of the contacts called ``name`` (how a write addresses a person)."""
    from ..apps.phone.tables import CONTACTS

    if CONTACTS not in world.table_names():
        return []
    rows = world.select(CONTACTS, where=lambda row: f"{row.get('first_name', '')} {row.get('last_name', '')}".strip().lower()
                        == name.strip().lower())
    return [str(row[k]) for row in rows for k in ("phone_number", "email") if row.get(k)]


def _call_index_of_interaction(calls: list[Any], image_ids: tuple[int, ...]) -> int:
    for i, c in enumerate(calls):
        if c.seat == "user" and c.outcome.name == "ui_user_interact" and c.outcome.ok and \
                tuple(c.outcome.image_ids) == tuple(image_ids):
            return i
    return len(calls)


def ui_verdict(episode: Any) -> Verdict:
    """All UI checks as one verdict (passes only if every check passes)."""
    crit = ui_criteria(episode)
    return Verdict(all(c.passed for c in crit), crit, "ui_rubric")


# ---------------------------------------------------------------------------------- LLM judge
_UI_JUDGE_SYSTEM = """You review the screens an assistant built for a phone user during a task, and how it used them.
The assistant builds screens from declarative UI messages, renders them, shows them to the user, and receives the user's taps as structured data.
Judge only what the evidence shows. Screenshots are ground truth for what the user saw; the assistant's own claims are not.

Score four criteria, each pass or fail:
- ui_task_focus: every screen serves the user's current request: it shows the options or data the user must decide on, nothing unrelated, and no required option is missing.
- ui_structure_and_patterns: the layout fits the job (options as a list or cards, forms as labelled fields, confirmations as a short dialog); related items are grouped; text is readable and not cut off.
- ui_action_clarity: every action the user needs is an obvious, clearly labelled control; each choice carries the data the assistant needs (ids, names, amounts) in its action context; destructive or final actions are distinguishable.
- ui_feedback_and_flow: the assistant showed the screen at the right moment, waited for the user, used the user's choice correctly afterwards and told the user what it did.

Answer with JSON only:
{"criteria": [{"criterion": "<name>", "analysis": "<one or two sentences>", "pass": true|false}], "pass": true|false}
The overall pass is true only if all four criteria pass."""


def ui_evidence(episode: Any, max_screens: int = 6) -> tuple[str, list[int]]:
    """The UI evidence as text, and the screenshot ids to attach (shown screens and interaction re-renders)."""
    scenario = episode.scenario
    state = episode.world.services.get("ui")
    lines = [f"Scenario: {scenario.id}", f"Task: {scenario.description or scenario.rounds[0].query}"]
    for i, r in enumerate(scenario.rounds):
        line = f"Round {i + 1} request: {r.query}"
        if r.ui is not None and r.ui.criterion:
            line += f"\n  UI requirement: {r.ui.criterion}"
        lines.append(line)
    lines.append("\nConversation and UI events:")
    for e in episode.log:
        if e.kind == "message":
            who = "USER" if e.sender == "user" else "ASSISTANT"
            lines.append(f"[{who}] {e.content}" + (f" [images {list(e.image_ids)}]" if e.image_ids else ""))
        elif is_ui_notice(e):
            lines.append(f"[SCREEN SHOWN TO USER] {e.content}" + (f" [image {e.image_ids[0]}]" if e.image_ids else ""))
    lines.append("\nUI tool calls by the assistant:")
    for c in episode.calls:
        if c.seat == "assistant" and c.outcome.name in ("render_ui_screen", "show_ui_to_user"):
            args = json.dumps(c.outcome.arguments, ensure_ascii=False)
            status = "ok" if c.outcome.ok else f"error: {c.outcome.text[:300]}"
            lines.append(f"- {c.outcome.name}({args[:2500]}) -> {status}")
    lines.append("\nOther assistant actions:")
    for c in episode.calls:
        if c.seat == "assistant" and c.outcome.name not in ("render_ui_screen", "show_ui_to_user"):
            lines.append(f"- {c.outcome.name}({json.dumps(c.outcome.arguments, ensure_ascii=False)[:400]}) -> "
                         f"{'ok' if c.outcome.ok else 'error'}")
    images: list[int] = []
    if state is not None:
        for record in state.shown:
            images.append(record.image_id)
        for inter in state.interactions:
            images.append(inter.image_id)
    images = list(dict.fromkeys(images))[-max_screens:]
    return "\n".join(lines), images


def ui_judge_messages(episode: Any, image_url: Callable[[int], str] | None = None, max_screens: int = 6) -> list[dict[str, Any]]:
    """OpenAI-format messages asking an LLM to judge the episode's UI (screenshots as image parts)."""
    text, images = ui_evidence(episode, max_screens)
    image_url = image_url or getattr(episode, "image_url", None)
    content: list[dict[str, Any]] = [{"type": "text", "text": text}]
    if image_url is not None:
        for i in images:
            content.append({"type": "text", "text": f"[screenshot image {i}]"})
            content.append({"type": "image_url", "image_url": {"url": image_url(i)}})
    content.append({"type": "text", "text": "Evaluate the four UI criteria now and answer with the JSON object only."})
    return [{"role": "system", "content": _UI_JUDGE_SYSTEM}, {"role": "user", "content": content}]


def parse_ui_judge_reply(text: str) -> Verdict:
    """Read the judge's JSON reply; a missing criterion or unreadable reply fails."""
    text = text or ""
    start, end = text.find("{"), text.rfind("}")  # the outermost braces (a regex `\{.*\}` rescans from every "{")
    data: dict[str, Any] = {}
    if 0 <= start < end:
        try:
            data = json.loads(text[start:end + 1])
        except json.JSONDecodeError:
            data = {}
    found = {str(c.get("criterion")): c for c in data.get("criteria", []) if isinstance(c, dict)}
    crit = []
    for name in UI_JUDGE_CRITERIA:
        c = found.get(name)
        if c is None:
            crit.append(Criterion(name, False, "missing from the judge's reply"))
        else:
            crit.append(Criterion(name, c.get("pass") is True, str(c.get("analysis", ""))[:500]))
    return Verdict(all(c.passed for c in crit), crit, "ui_llm")
