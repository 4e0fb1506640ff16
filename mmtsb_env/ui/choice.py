"""How a scripted user decides on a shown screen: turn a round's :class:`UIDecision` and the
screen's interactive elements into ``ui_user_interact`` arguments.

>>> from mmtsb_env.scenario.model import UIDecision
>>> elements = [
...     {"surface_id": "s", "component_id": "pick#0", "type": "Button", "label": "Select", "action": "pick",
...      "context": {}, "description": "Pine Street Books | $20.51"},
...     {"surface_id": "s", "component_id": "pick#1", "type": "Button", "label": "Select", "action": "pick",
...      "context": {}, "description": "Lumen Hardware | $22.13"}]
>>> decide(UIDecision(pick={"cheapest": True}), elements)["component_id"]
'pick#0'
>>> decide(UIDecision(pick={"label_contains": "lumen"}), elements)["component_id"]
'pick#1'
>>> decide(UIDecision(pick={"label_contains": "Bakery"}), elements) is None
True
>>> decide(UIDecision(pick={"label_contains": "Lumen Hardwear"}), elements) is None  # nothing "most like" it
True
>>> events = [dict(elements[0], description="Jazz Night | Jun 21, 2026 5:00 PM"),
...           dict(elements[1], description="Book Fair | 2026-06-21 14:00")]
>>> decide(UIDecision(pick={"latest": True}), events)["component_id"]
'pick#0'
>>> decide(UIDecision(pick={"latest": True}), [dict(e, description=e["description"].split(" | ")[0]) for e in events]) is None
True
>>> approve = [{"surface_id": "d", "component_id": "send", "type": "Button", "label": "Send", "action": "send", "context": {}},
...            {"surface_id": "d", "component_id": "no", "type": "Button", "label": "Cancel", "action": "cancel", "context": {}}]
>>> decide(UIDecision(pick={"approve": True}), approve)["component_id"]
'send'
>>> decide(UIDecision(pick={"approve": True}), elements) is None  # two alike buttons: nothing to approve
True
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..values.clock import closing_time, clock_times
from ..values.dates import first_date, with_the_screens_year, writes_days_first
from ..values.money import amounts
from ..values.numbers import compared_number, shown_number, without_title_numbers
from .markers import UI_MARKER

if TYPE_CHECKING:  # pragma: no cover
    from ..scenario.model import UIDecision

_PRICE_KEYS = re.compile(r"price|total|amount|cost", re.I)
_SUBMIT = re.compile(r"select|choose|confirm|submit|save|continue|done|ok|next|add|book|apply|pick|create|send|yes", re.I)
_NEGATIVE = re.compile(r"cancel|discard|\bback\b|close|\bno\b|dismiss|reject", re.I)


def element_text(el: dict[str, Any]) -> str:
    """Everything an element shows or carries, for text matching."""
    parts = [str(el.get("label", "")), str(el.get("description", ""))]
    if el.get("context"):
        parts.append(" ".join(str(v) for v in el["context"].values()))
    return " ".join(p for p in parts if p)


def prices(el: dict[str, Any]) -> list[float]:
    """Amounts an element shows (currency-marked numbers) or carries (context keys like price/total)."""
    found = amounts(f"{el.get('label', '')} {el.get('description', '')}")
    for key, value in (el.get("context") or {}).items():
        if _PRICE_KEYS.search(key):
            try:
                found.append(float(str(value).replace("$", "").replace(",", "").strip()))
            except ValueError:
                pass
    return found


def _when(text: str, day_first: bool = False) -> tuple[Any, ...] | None:
    """When an option's event happens (its date, then its start time or None), or None without a date."""
    day = first_date(text, day_first)
    return None if day is None else (*day, next(iter(clock_times(text)), None))


def _comparable_whens(whens: list[tuple[Any, ...] | None]) -> list[tuple[Any, ...] | None]:
    """The options' dates and times as one screen shows them: a date without its year in the
    screen's year (unknown when the screen shows several), and when some option shows a start time
    an option showing none is unknown (its time may be misread); with no times shown, days compare."""
    days = with_the_screens_year([None if w is None else w[:3] for w in whens])
    timed = any(w is not None and w[3] is not None for w in whens)
    return [None if d is None or w is None or (timed and w[3] is None) else (*d, w[3] or 0) for d, w in zip(days, whens)]


# rules that compare what the options show: rule -> (how to read an option's value, pick the max?)
VALUE_RULES: dict[str, tuple[Any, bool]] = {
    "cheapest": (None, False), "most_expensive": (None, True),  # prices: :func:`prices`
    "earliest": (_when, False), "latest": (_when, True),
    "closes_earliest": (closing_time, False), "closes_latest": (closing_time, True),
    "lowest_value": (compared_number, False), "highest_value": (compared_number, True),
}


def _by_rule(rule: str, arg: Any, items: list[tuple[Any, str, list[float]]]) -> Any:
    """The item chosen by ``rule`` among ``(item, text, prices)``, or None: a ``label_contains``
    rule takes the first item holding its text (none holding it: None -- there is no "closest"
    option); a value rule reads each item's shown value (a price, a date and time, a closing time,
    a number) and takes the best, items showing none left out."""
    if rule == "label_contains":
        needle = str(arg).strip().lower()
        return next((it for it, text, _ in items if needle in text.lower()), None)
    read, highest = VALUE_RULES[rule]
    if read is None and not any(amounts for _, _, amounts in items):
        read = compared_number  # a price screen without currency signs ("Total: 1,476.27"): the shown number
    if read is _when and writes_days_first([text for _, text, _ in items]):
        read = lambda text: _when(text, day_first=True)  # noqa: E731 -- the screen writes days first
    values = [(max(amounts) if highest else min(amounts)) if read is None and amounts else
              read(text) if read is not None else None for _, text, amounts in items]
    if VALUE_RULES[rule][0] is _when:
        values = _comparable_whens(values)
    valued = [(value, i, it) for i, ((it, _, _), value) in enumerate(zip(items, values)) if value is not None]
    if not valued:
        return None
    return (max(valued, key=lambda t: (t[0], -t[1])) if highest else min(valued, key=lambda t: (t[0], t[1])))[2]


def _submit_button(buttons: list[dict[str, Any]], action: str | None) -> dict[str, Any] | None:
    if action:
        buttons = [b for b in buttons if b.get("action") == action]
    if len(buttons) == 1:
        return buttons[0]
    positive = [b for b in buttons if not _NEGATIVE.search(f"{b.get('label', '')} {b.get('action', '')}")
                and not is_escape(str(b.get("label", "")))]
    primary = [b for b in positive if b.get("primary")]
    if len(primary) == 1:
        return primary[0]
    named = [b for b in positive if _SUBMIT.search(f"{b.get('label', '')} {b.get('action', '')}")]
    if len(named) == 1:
        return named[0]
    return positive[0] if len(positive) == 1 else None


def _fill(fill: dict[str, Any], elements: list[dict[str, Any]]) -> dict[str, Any] | None:
    fields = [e for e in elements if e["type"] != "Button"]
    out: dict[str, Any] = {}
    for key, value in fill.items():
        k = str(key).strip()
        target = next((e for e in fields if e["component_id"] == k or e.get("path") == k), None)
        if target is None:
            target = next((e for e in fields if k.lower() in str(e.get("label", "")).lower()), None)
        if target is None:
            return None
        out[target["component_id"]] = value
    return out


def decide(decision: "UIDecision", elements: list[dict[str, Any]], own_words: str | None = None) -> dict[str, Any] | None:
    """``ui_user_interact`` arguments realising ``decision`` on a screen, or None if it cannot be done.

    The user decides by what it knows and what the screen shows, nothing else. ``own_words`` (what
    the user knows: its situation, requests, instructions and clarification answers so far) makes it
    the blind user's choice: a ``label_contains`` / ``labels_contain`` name in none of them (one only
    the images or the answer key show) is never compared with the screen -- the user cannot choose
    (None, whatever the screen shows; the user says :data:`UNKNOWN_CHOICE`), so its answer tells the
    assistant nothing about the hidden name. A name the user knows must be on the screen: an option merely like it is not taken. A value
    rule (cheapest, latest, closes latest, highest value...) is applied to the values the options
    show (the hidden ``expect`` names never taken out), so a screen with misread values leads to the
    wrong pick and one without values to none.
    An option declining the choice ("None of these", "Skip": :func:`is_escape`) is never picked.
    Without ``own_words`` (the judge's use) every rule is exact."""
    fields = _fill(decision.fill, elements)
    if fields is None:
        return None
    if decision.choose is not None:
        c = decision.choose
        el = next((e for e in elements if e["component_id"] == c["component_id"]
                   and (c.get("surface_id") is None or e["surface_id"] == c["surface_id"])), None)
        if el is None:
            return None
        action = c.get("action_name") or (el.get("action") if el["type"] == "Button" else "change")
        values = {**fields, **(c.get("field_values") or {})}
        return _args(action, el, values)
    pick = decision.pick or {}
    rule = next(k for k in pick if k != "action")
    wanted_action = pick.get("action")
    buttons = [e for e in elements if e["type"] == "Button"]
    if rule == "labels_contain":
        names = [str(t) for t in pick[rule]]
        if own_words is not None and not knows_the_pick(decision, own_words):
            return None  # options the user cannot name: it cannot tick them, whatever the screen shows
        return _pick_several(names, elements, buttons, fields, wanted_action)
    if rule == "every":
        return _pick_every(pick[rule], elements, buttons, fields, wanted_action)
    if rule == "approve":
        button = _submit_button(buttons, wanted_action)
        return _args(button["action"], button, fields) if button is not None else None
    if own_words is not None and not knows_the_pick(decision, own_words):
        return None
    candidates = [b for b in buttons if (wanted_action is None or b.get("action") == wanted_action)
                  and not is_escape(str(b.get("label", "")))]
    if rule in VALUE_RULES:  # values are read off what an option shows, its item's name left out
        button_texts = [_values_shown(rule, f"{b.get('label', '')} {b.get('description', '')}") for b in candidates]
    else:
        button_texts = [element_text(b) for b in candidates]
    chosen = _by_rule(rule, pick[rule], [(b, t, prices(b)) for b, t in zip(candidates, button_texts)])
    if chosen is not None:
        return _args(chosen["action"], chosen, fields)
    # no button matches: choose an option of a choice field, then press the submit button (if any)
    options = [(e, o) for e in elements if e["type"] == "MultipleChoice" for o in e.get("options", [])
               if not is_escape(str(o.get("label", "")))]
    picked = _by_rule(rule, pick[rule], [((e, o), _values_shown(rule, o["label"]) if rule in VALUE_RULES
                                          else f"{o['label']} {o['value']}", amounts(o["label"]))
                                          for e, o in options])
    if picked is None:
        return None
    field_el, option = picked
    fields = {**fields, field_el["component_id"]: [option["value"]]}
    button = _submit_button(buttons, wanted_action)
    if button is None:
        return _args("change", field_el, fields)
    return _args(button["action"], button, fields)


def knows_the_pick(decision: "UIDecision", own_words: str) -> bool:
    """Whether the user can name what ``decision`` picks by name: every ``label_contains`` /
    ``labels_contain`` name is in ``own_words`` (what it knows). A value rule, an approval or a fixed
    element needs no name."""
    pick = decision.pick or {}
    names = [pick["label_contains"]] if "label_contains" in pick else list(pick.get("labels_contain") or [])
    return all(str(n).strip().lower() in own_words.lower() for n in names)


# an option that declines the choice rather than making one ("None of these", "Skip", "Not now")
_ESCAPE = re.compile(r"^\W*(?:none(?: of (?:these|them|the above))?|neither(?: of (?:these|them))?|skip(?: this)?|not now"
                     r"|(?:decide |maybe |ask me )?later|other(?: \W*not listed)?|not listed|something else|no preference"
                     r"|show more|see more|more options|cancel|back|go back|close|dismiss|no,? thanks?)\W*$", re.I)


def is_escape(label: str) -> bool:
    """Whether an option labelled ``label`` declines the choice ("None of these", "Skip", "Other /
    not listed", "Cancel") instead of being one of the things to choose among."""
    return _ESCAPE.match(label.strip()) is not None


def option_labels(elements: list[dict[str, Any]]) -> list[str]:
    """What each option of a screen shows (a button's label and description, a check box's label,
    a choice field's option label), escape options and negative buttons left out."""
    out = [str(o.get("label", "")) for e in elements if e["type"] == "MultipleChoice" for o in e.get("options", [])]
    out += [str(e.get("label", "")) for e in elements if e["type"] == "CheckBox"]
    out += [f"{e.get('label', '')} {e.get('description', '')}" for e in elements if e["type"] == "Button"
            and not _NEGATIVE.search(f"{e.get('label', '')} {e.get('action', '')}")]
    return [t for t in out if not is_escape(t)]


def _leaves(facts: Any) -> list[Any]:
    if isinstance(facts, dict):
        return [x for v in facts.values() for x in _leaves(v)]
    if isinstance(facts, (list, tuple)):
        return [x for v in facts for x in _leaves(v)]
    return [facts]


def shows_true_values(rule: str, text: str, facts: list[Any]) -> bool:
    """Whether every value ``text`` shows that the value ``rule`` reads (prices or numbers, a date,
    clock times) is one of ``facts`` (an item's image facts): numbers to 1 % or the facts' read
    tolerance, dates and times exactly. A text showing no such value shows no wrong one."""
    leaves = [x for x in _leaves(facts) if not isinstance(x, bool)]
    strings = [x for x in leaves if isinstance(x, str)]
    tolerance = max((float(x) for f in facts for k, x in (f.items() if isinstance(f, dict) else ())
                     if k == "read_tolerance" and isinstance(x, (int, float))), default=0.0)
    numbers = [float(x) for x in leaves if isinstance(x, (int, float))]
    read, _ = VALUE_RULES[rule]
    if read is None or read is compared_number:
        shown = amounts(text) or ([] if (v := compared_number(text)) is None else [v])
        return all(any(abs(v - t) <= max(0.005, 0.01 * abs(t), tolerance) for t in numbers) for v in shown)
    if read is _when:
        day = first_date(text)
        days = {first_date(x) for x in strings} - {None}
        if day is not None and days and not any(d[1:] == day[1:] and (not day[0] or d[0] == day[0]) for d in days):
            return False
    times = {t for x in strings for t in clock_times(x)}
    shown = clock_times(text)[:1] if read is _when else clock_times(text)  # an event's start; a place's hours
    return not times or all(t % (24 * 60) in times for t in shown)


def _values_shown(rule: str, text: str) -> str:
    """What an option shows for a value rule to read, by what the user sees alone: for a number
    rule, without the numbers that are part of a name ("Rainfall 2024", "Week 33": the judge's
    rule, :func:`~mmtsb_env.values.numbers.without_title_numbers`). The round's ``expect`` names
    are the judge's, hidden from the user, so they are not used."""
    return without_title_numbers(text) if VALUE_RULES[rule][0] in (None, compared_number) else text


def shown_text(text: str, names: tuple[str, ...]) -> str:
    """``text`` without the item ``names`` (a name's digits are no value: "Rainfall 2024")."""
    for name in names:
        text = re.sub(re.escape(name), " ", text, flags=re.I)
    return text


def _pick_several(names: list[str], elements: list[dict[str, Any]], buttons: list[dict[str, Any]],
                  fields: dict[str, Any], wanted_action: str | None) -> dict[str, Any] | None:
    """Choose every option holding one of ``names`` at once -- the options of one multiple-choice
    field (it must allow that many), else one checkbox per name (the others unticked) -- and press
    the submit button. None unless each name is one option."""
    def one(name: str, texts: list[tuple[Any, str]]) -> Any:
        found = [item for item, text in texts if name.strip().lower() in text.lower()]
        return found[0] if len(found) == 1 else None

    for field_el in (e for e in elements if e["type"] == "MultipleChoice" and e.get("max_selections", 1) >= len(names)):
        options = [(o["value"], f"{o['label']} {o['value']}") for o in field_el.get("options", [])]
        values = [one(n, options) for n in names]
        if None not in values and len(set(values)) == len(values):
            chosen = {**fields, field_el["component_id"]: values}
            button = _submit_button(buttons, wanted_action)
            return _args(button["action"], button, chosen) if button is not None else _args("change", field_el, chosen)
    boxes = [e for e in elements if e["type"] == "CheckBox"]
    ticked = [one(n, [(b["component_id"], element_text(b)) for b in boxes]) for n in names]
    button = _submit_button(buttons, wanted_action)
    if None in ticked or len(set(ticked)) != len(ticked) or button is None:
        return None
    chosen = {**fields, **{b["component_id"]: b["component_id"] in ticked for b in boxes}}
    return _args(button["action"], button, chosen)


def _meets(condition: dict[str, Any], text: str) -> bool:
    if "says" in condition:  # a word, or a list of words any of which will do ("Saturday", "Sunday")
        words = condition["says"] if isinstance(condition["says"], list) else [condition["says"]]
        return any(re.search(rf"(?<!\w){re.escape(str(w))}(?!\w)", text, re.I) is not None for w in words)
    value = shown_number(text, condition.get("of"))
    if value is None:
        return False
    return value > float(condition["above"]) if "above" in condition else value < float(condition["below"])


def _pick_every(condition: dict[str, Any], elements: list[dict[str, Any]], buttons: list[dict[str, Any]],
                fields: dict[str, Any], wanted_action: str | None) -> dict[str, Any] | None:
    """Choose every option whose shown text meets ``condition`` at once -- options of one
    multiple-choice field (it must allow that many), else checkboxes -- and press the submit
    button. None when no option meets it (the screen does not show what the choice goes by)."""
    for field_el in (e for e in elements if e["type"] == "MultipleChoice"):
        values = [o["value"] for o in field_el.get("options", []) if _meets(condition, str(o.get("label", "")))]
        if values and len(values) <= field_el.get("max_selections", 1):
            chosen = {**fields, field_el["component_id"]: values}
            button = _submit_button(buttons, wanted_action)
            return _args(button["action"], button, chosen) if button is not None else _args("change", field_el, chosen)
    boxes = [e for e in elements if e["type"] == "CheckBox"]
    ticked = {b["component_id"] for b in boxes if _meets(condition, element_text(b))}
    button = _submit_button(buttons, wanted_action)
    if not ticked or button is None:
        return None
    return _args(button["action"], button, {**fields, **{b["component_id"]: b["component_id"] in ticked for b in boxes}})


def confirm_step(elements: list[dict[str, Any]]) -> dict[str, Any] | None:
    """After the user already chose, a further screen (e.g. "Are you sure?") is confirmed."""
    button = _submit_button([e for e in elements if e["type"] == "Button"], None)
    return _args(button["action"], button, {}) if button is not None else None


def _args(action: str, el: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    args: dict[str, Any] = {"action_name": action, "surface_id": el["surface_id"], "component_id": el["component_id"]}
    if fields:
        args["field_values"] = fields
    return args


CANNOT_CHOOSE = "I can't make my choice on this screen: it does not offer the option I need."
# a pick by a name the user does not know (one only the images show): it cannot tell which option is meant
UNKNOWN_CHOICE = "I can't choose on this screen myself: I don't know which of these it should be."
# a further screen offering choices after the user already chose in the round: one decision per choice point
ALREADY_CHOSEN = "I already made my choice on the earlier screen. Please go ahead with that one."


def offered_options(elements: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The options a screen offers to choose among, as ``(key, text)``: each option of a choice
    field (key ``"<component id>=<value>"``), each check box, else each positive button when there
    are several (one button only confirms a step); an option declining the choice ("None of
    these", "Skip": :func:`is_escape`) is none of them."""
    out = [(f"{e['component_id']}={o['value']}", f"{o['label']} {o['value']}")
           for e in elements if e["type"] == "MultipleChoice" for o in e.get("options", [])
           if not is_escape(str(o.get("label", "")))]
    out += [(e["component_id"], element_text(e)) for e in elements if e["type"] == "CheckBox"
            and not is_escape(str(e.get("label", "")))]
    if out:
        return out
    buttons = [e for e in elements if e["type"] == "Button" and not is_escape(str(e.get("label", "")))
               and not _NEGATIVE.search(f"{e.get('label', '')} {e.get('action', '')}")]
    return [(b["component_id"], element_text(b)) for b in buttons] if len(buttons) >= 2 else []


def chosen_options(elements: list[dict[str, Any]], args: dict[str, Any]) -> list[str]:
    """The texts of the options a ``ui_user_interact`` call (``args``) chose on a screen."""
    values = args.get("field_values") or {}
    keys = set()
    for cid, value in values.items():
        picked = value if isinstance(value, list) else [value]
        keys |= {f"{cid}={v}" for v in picked}
        if value is True:
            keys.add(cid)
    keys.add(str(args.get("component_id", "")))
    return [text for key, text in offered_options(elements) if key in keys]


# ------------------------------------------------------------------------------- the log's UI entries
def is_ui_notice(entry: Any) -> bool:
    """A screen delivered to the user by ``show_ui_to_user``."""
    return entry.kind == "notice" and entry.recipient == "user" and entry.content.startswith(UI_MARKER)


def is_ui_interaction(entry: Any) -> bool:
    """The user's ``ui_user_interact`` as it reached the assistant."""
    return entry.kind == "message" and entry.sender == "user" and entry.content.startswith(UI_MARKER)
