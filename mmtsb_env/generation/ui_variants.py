"""UI variants of nominal scenarios: the choices the user made in words are made on a screen.

The paper's UI subset converts nominal tasks: where a task turns on a choice (which item, which
option), the user no longer states it; the assistant shows the options on an interactive screen
and the user picks there, privately. Expected changes stay those of the nominal twin.
:func:`make_variant` finds a base's choice points and turns each (up to three) into a UI round:

* ``compare`` -- a compare round whose request names its criterion ("the receipt with the
  highest total", "the event that happens first") and writes the winner: the request asks for
  "the receipt I pick" instead and the user wants to see them all before deciding; the reference
  solution reads the images, shows one option per image (name and the value compared) and acts on
  the pick. A later round over more images than the last choice (one that recomputes the result)
  is a choice again on the longer list, its request asking to pick again. The user applies its
  criterion to the values the options show -- cheapest / most expensive, earliest / latest date
  and time, closes earliest / latest, lowest / highest value (``UIDecision.pick``, a value rule of
  :mod:`mmtsb_env.ui.choice`; the criterion is in the round's private instructions only) -- so the
  screen must show what the assistant read off the images, and a misread value picks wrongly.
* ``contact`` -- a request names a contact by first name and several share it: the base's
  solution asked in words ("I found several contacts named Steven ... Which one do you mean?") and
  the user answered; the variant shows them on a screen and the user taps the one meant (the
  spoken answer is removed).
* ``filter`` -- a filter over per-image items (contact cards whose job title says Manager, price
  tags on sale, free or weekend events): the request asks for "only the ones I pick" instead, and
  every round filtering newly sent images shows each item with what the criterion goes by (job
  title, sale or regular price, weekday and admission) as options the user can tick several of.
  The user ticks every option meeting its private criterion (``{"every": condition}``), so a
  screen showing misread details ticks the wrong ones; the solution acts on the ones the nominal
  twin kept.

The user never mentions a screen: requests keep their words (less the criterion). Options are a
List of Cards with a ``Choose`` button each (``pick_list``; a filter: one check box each) or a
``MultipleChoice`` (single-choice; a filter: several) with ``Confirm`` (``pick_chips``),
alternating over the suite.

:func:`build_ui_suite` converts the nominal suite, keeps the variants the oracle solves (entity
F1 1.0, a passing verdict with the UI checks, the scripted user picking what the solution acts on)
and numbers them ``ui/gen_0001``...; :func:`write_ui_suite` writes them (same seed, same bytes).

>>> from mmtsb_env.scenario.suites import load_suite
>>> nominal = sorted(load_suite("nominal"), key=lambda s: s.id)[:40]
>>> variants = ui_variants(nominal, seed=5)
>>> all(v.expected_changes == b.expected_changes for v in variants
...     for b in nominal if b.id == v.metadata["ui_variant"]["base_id"])
True
"""

from __future__ import annotations

import difflib
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..scenario.model import Round, Scenario, UIDecision

KINDS = ("pick_list", "pick_chips")
# at most this many UI rounds per scenario (the paper's converted tasks have one to three)
MAX_UI_ROUNDS = 3
# Longest oracle episode kept in the suite (whole-suite UI episode tests cap an episode at 40 steps).
MAX_STEPS = 36
# compare categories whose options are amounts: the user taps the cheapest / most expensive shown
AMOUNT_CATEGORIES = ("receipt", "invoice", "price_tag")
# the user's pick rule per compare category and direction: it compares the values the options show
VALUE_RULE = {**{c: {"max": "most_expensive", "min": "cheapest"} for c in AMOUNT_CATEGORIES},
              "event_poster": {"max": "latest", "min": "earliest"},
              "sign": {"max": "closes_latest", "min": "closes_earliest"},
              "chart": {"max": "highest_value", "min": "lowest_value"}}
DETAIL_WORDS = {"receipt": "total", "invoice": "amount due", "price_tag": "price", "event_poster": "date and time",
                "sign": "opening hours", "chart": "highest or lowest value"}
_ASKED = re.compile(r"I found several contacts named (?P<first>[^:]+): (?P<names>.+)\. Which one do you mean\?$")
# words that would tell the criterion of a compare (a price, a date, a closing time, a chart value)
_CRITERION_WORDS = re.compile(r"cheap|expensive|pricie|lowest|highest|largest|smallest|earliest|latest|"
                              r"happens (?:first|last)|closes", re.I)
_AGAIN = "I'd like to choose again"
_PICK_AGAIN = "Show me them all again and I'll pick."
_DECIDE = "I'd like to look them all over before I decide which one."
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
_ORDINAL = r"(?:first|second|third|fourth|fifth|sixth)"
_ORDINAL_LIST = re.compile(rf"\b{_ORDINAL}(?:,? (?:(?:and|n|&) )?{_ORDINAL})+\b", re.I)  # "the first, second and third"


def _money(x: float) -> str:
    return f"${x:,.2f}"


def _detail(category: str, facts: dict[str, Any]) -> str:
    """The compared value of an image's item, as its option shows it (prices currency-marked)."""
    if category in AMOUNT_CATEGORIES:
        return _money(facts["amount"])
    if category == "event_poster":
        return f"{facts.get('date', '')} {facts.get('time', '')}".strip()
    return f"open {facts.get('opens', '')}-{facts.get('closes', '')}"


def _text(text: str, hint: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"text": text}
    if hint:
        body["usageHint"] = hint
    return {"Text": body}


def _list_screen(surface: str, heading: str, hint: str, options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    comps: list[dict[str, Any]] = [
        {"id": "root", "component": {"Column": {"children": ["title", "hint", "list"]}}},
        {"id": "title", "component": _text(heading, "h2")},
        {"id": "hint", "component": _text(hint, "caption")},
        {"id": "list", "component": {"List": {"children": [f"card_{k}" for k in range(len(options))]}}},
    ]
    for k, o in enumerate(options):
        info = [f"name_{k}"] + ([f"detail_{k}"] if o["detail"] else [])
        comps += [
            {"id": f"card_{k}", "component": {"Card": {"child": f"row_{k}"}}},
            {"id": f"row_{k}", "component": {"Row": {"children": [f"info_{k}", f"pick_{k}"], "alignment": "center"}}},
            {"id": f"info_{k}", "weight": 1, "component": {"Column": {"children": info}}},
            {"id": f"name_{k}", "component": _text(o["label"], "h4")},
            {"id": f"pick_{k}_label", "component": _text("Choose")},
            {"id": f"pick_{k}", "component": {"Button": {"child": f"pick_{k}_label", "primary": True, "action": {
                "name": "choose_item", "context": [{"key": "name", "value": o["label"]},
                                                   {"key": "detail", "value": o["detail"]}]}}}},
        ]
        if o["detail"]:
            comps.append({"id": f"detail_{k}", "component": _text(o["detail"])})
    return [{"surfaceUpdate": {"surfaceId": surface, "components": comps}},
            {"beginRendering": {"surfaceId": surface, "root": "root"}}]


def _chips_screen(surface: str, heading: str, options: list[dict[str, Any]], many: bool = False) -> list[dict[str, Any]]:
    comps = [
        {"id": "root", "component": {"Column": {"children": ["title", "card", "confirm"]}}},
        {"id": "title", "component": _text(heading, "h2")},
        {"id": "card", "component": {"Card": {"child": "choice"}}},
        {"id": "choice", "component": {"MultipleChoice": {
            "label": "Options", "selections": {"path": "/pick/item"}, "maxAllowedSelections": len(options) if many else 1,
            "options": [{"label": " · ".join(x for x in (o["label"], o["detail"]) if x), "value": f"item_{k}"}
                        for k, o in enumerate(options)]}}},
        {"id": "confirm_label", "component": _text("Confirm")},
        {"id": "confirm", "component": {"Button": {"child": "confirm_label", "primary": True, "action": {
            "name": "confirm_choice", "context": [{"key": "item", "value": {"path": "/pick/item"}}]}}}},
    ]
    return [{"surfaceUpdate": {"surfaceId": surface, "components": comps}},
            {"beginRendering": {"surfaceId": surface, "root": "root"}}]


def _writes(step: dict[str, Any]) -> bool:
    from ..tools.catalog import get_tool

    name = step.get("name")
    return bool(name) and get_tool(name).writes


def _compare_winner(category: str, pick: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    key = (lambda o: o["amount"]) if category in AMOUNT_CATEGORIES + ("chart",) else \
        (lambda o: (o["date"], o["time"])) if category == "event_poster" else (lambda o: o["closes"])
    return (max if pick == "max" else min)(options, key=key)


def _likeness(text: str, phrase: str) -> tuple[float, str]:
    """How closely some run of ``text``'s words spells ``phrase`` (a persona's typos: "the cheapest
    prodcut", "chart n category"), and that run."""
    words, n = text.split(" "), len(phrase.split(" "))
    best = (0.0, "")
    for k in range(len(words) - n + 1):
        window = " ".join(words[k:k + n]).rstrip(".,;:!?")
        best = max(best, (difflib.SequenceMatcher(None, window.lower(), phrase.lower()).ratio(), window))
    return best


def stated_criterion(text: str, descs: dict[str, str]) -> tuple[str, str] | None:
    """Which of ``descs`` (pick -> criterion words) ``text`` states, and the words it uses, or None:
    the exact words, else the one clearly best spelled (the two directions differ in a word or two)."""
    exact = [(pick, d) for pick, d in descs.items() if d in text]
    if len(exact) == 1:
        return exact[0]
    if exact:
        return None
    scored = sorted(((*_likeness(text, d), pick) for pick, d in descs.items()), reverse=True)
    (ratio, said, pick), (runner_up, _, _) = scored[0], scored[1]
    return (pick, said) if ratio >= 0.9 and ratio - runner_up >= 0.04 else None


def _shows(option: dict[str, Any], text: str) -> bool:
    """Whether ``text`` (a round's written arguments) carries ``option``'s name or amount."""
    amount = option.get("amount")
    if option.get("key") is not None:  # a chart's bar: its category and value
        return option["key"] in text and f"{option['amount']:g}" in text
    marks = [option["label"]] + ([f"{amount:.2f}", f"{amount:,.2f}", f"{amount:g}"] if isinstance(amount, (int, float)) else [])
    return any(m in text for m in marks)


def _compare_options(scenario: Scenario, upto: int, category: str, pick: str = "max") -> list[dict[str, Any]]:
    """One option per image of ``category`` delivered in rounds ``0..upto`` (a chart: its highest
    or lowest bar, by ``pick``)."""
    delivered = [i for r in scenario.rounds[: upto + 1] for i in r.image_ids]
    out = []
    for i in delivered:
        im = scenario.images[i]
        if im.category != category or not isinstance(im.facts.get("label"), str):
            continue
        f = im.facts
        if category == "chart":
            bars = [b for b in f.get("items", []) if isinstance(b.get("amount"), (int, float))]
            if not bars:
                continue
            bar = (max if pick == "max" else min)(bars, key=lambda b: b["amount"])
            out.append({"image_id": i, "label": f["label"], "detail": f"{bar['name']}: {bar['amount']:g}",
                        "amount": bar["amount"], "key": bar["name"]})
            continue
        out.append({"image_id": i, "label": f["label"], "detail": _detail(category, f), "amount": f.get("amount"),
                    "date": f.get("date", ""), "time": f.get("time", ""), "closes": f.get("closes", "")})
    return out


@dataclass
class _Choice:
    """One choice point of a base scenario: the round made a UI round (or, without ``options``,
    only the round whose request loses the criterion)."""

    index: int
    kind: str  # compare | contact | filter | criterion
    options: list[dict[str, Any]]
    chosen: Any  # the option's label (a filter: the labels ticked)
    pick: dict[str, Any]
    criterion: str  # the UI Requirements line
    private: str  # added to the round's instructions
    noun: str
    query: str | None = None  # the round's new request (None: unchanged)
    drop_say: int | None = None  # the solution's spoken question the screen replaces
    drop_clarification: str | None = None  # the spoken answer the screen replaces
    early: bool = False  # the screen comes before any step but reading the images (a filter: all its items are acted on)


def _compare_choices(scenario: Scenario) -> list[_Choice]:
    """The compare round whose request states the criterion, and every later round recomputing the
    winner: each becomes a choice on the images sent so far, or the ordinal list the request names
    (the criterion is private, so a later "redo it over all of them" is the user's pick again, and
    a goal change flipping the criterion a pick by the other rule). [] when a reported winner is
    not the rule's over that set, the written arguments do not carry it, nothing writes after a
    pick, or other words of the scenario give the criterion away."""
    from .flows import compare_desc
    from .images import NOUNS

    if scenario.metadata.get("flow_type") != "compare" or not scenario.images:
        return []
    category = scenario.images[0].category
    if category not in DETAIL_WORDS or any(im.category != category for im in scenario.images):
        return []
    singular = NOUNS[category][0]
    descs = {pick: compare_desc(category, {"pick": pick}) for pick in ("max", "min")}
    said_in = {i: found for i, r in enumerate(scenario.rounds) if (found := stated_criterion(r.query, descs))}
    stated = [(i, found[0]) for i, found in said_in.items()]
    if any(all(d in r.query for d in descs.values()) for r in scenario.rounds):  # "X instead of Y"
        stated += [(i, p) for i, r in enumerate(scenario.rounds) for p, d in descs.items() if d in r.query]
        stated = sorted(set(stated))
    if not stated:
        return []
    first, pick = stated[0]
    # a goal change may flip the criterion ("I want the cheapest product instead of the most expensive
    # product"): the user picks again there, by the other rule
    other = "min" if pick == "max" else "max"
    flips = {i: f"I want {descs[other]} instead of {descs[pick]}" for i in sorted({i for i, _ in stated} - {first})[:1]}
    if len(stated) > 1 + 2 * len(flips) or any(flip not in scenario.rounds[i].query for i, flip in flips.items()) \
            or any(i != first and i not in flips for i, _ in stated):
        return []
    # "the first, second and fourth receipts I just sent": the first choice is among those
    listed = _ORDINAL_LIST.search(scenario.rounds[first].query)
    subset = None
    if listed is not None:
        sent = scenario.rounds[first].image_ids
        positions = [_ORDINALS.index(w.lower()) for w in re.findall(_ORDINAL, listed.group(0), re.I)]
        if "I just sent" not in scenario.rounds[first].query or max(positions) >= len(sent):
            return []
        subset = [sent[k] for k in positions]
    out: list[_Choice] = []
    for i in range(first, len(scenario.rounds)):
        rnd = scenario.rounds[i]
        flip_query = None
        if i in flips:
            pick = "min" if pick == "max" else "max"
            flip_query = rnd.query.replace(flips[i], _AGAIN)
        word = descs[pick]
        options = _compare_options(scenario, i, category, pick)
        if subset is not None and i == first:
            options = [o for o in options if o["image_id"] in subset]
        labels = [o["label"] for o in options]
        if len(options) < 2:
            continue  # the criterion was stated before the images came (a late arrival's setup)
        if len(set(labels)) != len(labels) or any(a != b and a.lower() in b.lower() for a in labels for b in labels):
            return []
        # the option a round's reply names (a chart's reply names the bar)
        reported = next((o["label"] for o in options if rnd.report and rnd.report[0] in (o["label"], o.get("key"))), None)
        # a later round over more items than the last choice recomputes the result: the user picks again
        rerun = bool(out) and flip_query is None and [o["label"] for o in options] != [o["label"] for o in out[-1].options]
        if reported is None and not rerun and (out and flip_query is None or not out and not rnd.image_ids):
            continue  # a round acting on the result it has (a new destination, a share)
        win = _compare_winner(category, pick, options)
        if reported is not None and reported != win["label"]:
            return []  # the round compares another set than the images so far
        if (not out or win["label"] != out[-1].chosen) and not any(_writes(st) for r in scenario.rounds[i:] for st in r.solution):
            return []  # nothing would act on a new pick (an unchanged one needs nothing)
        written = json.dumps([st for st in rnd.solution if _writes(st)], ensure_ascii=False)
        if written != "[]" and not _shows(win, written):
            return []  # the round writes another item than the one the user would pick
        out.append(_Choice(
            i, "compare", [{"label": o["label"], "detail": o["detail"]} for o in options], win["label"],
            {VALUE_RULE[category][pick]: True},
            criterion=f"Offer every {singular} sent so far (name and {DETAIL_WORDS[category]}) as a selectable option; "
                      f"act on the one the user picks.",
            private=f"You decide on the screen the assistant shows, by the values it shows: pick {word}.",
            noun=NOUNS[category][1], query=flip_query or (f"{rnd.query.rstrip()} {_PICK_AGAIN}" if out else None)))
    if not out or len(out) > MAX_UI_ROUNDS:
        return []
    # the criterion leaves the request: the user will pick (the stated round may come before the choice)
    query = scenario.rounds[first].query.replace(said_in[first][1], "the one I go for").rstrip()
    query = f"{query}{'' if query.endswith(('.', '!', '?', ')')) else '.'} {_DECIDE}"
    if out[0].index == first:
        out[0].query = query
    else:
        out.insert(0, _Choice(first, "criterion", [], "", {}, "", "", "", query=query))
    # no other words may give the criterion away (a look-alike named after the result: "Cheapest product copy")
    spoken = {c.index: c.query for c in out if c.query}
    if any(_CRITERION_WORDS.search(spoken.get(i, r.query)) for i, r in enumerate(scenario.rounds)):
        return []
    return out


def _contact_choices(scenario: Scenario) -> list[_Choice]:
    """Rounds where the base's solution asked which of several same-named contacts the user meant."""
    out = []
    for i, rnd in enumerate(scenario.rounds):
        for k, st in enumerate(rnd.solution):
            m = _ASKED.match(st.get("say", "")) if "say" in st else None
            if m is None:
                continue
            names = [n.strip() for n in m["names"].split(", ")]
            clar = next((c for c in rnd.clarifications if c.answer.startswith("I mean ")), None)
            chosen = clar.answer.removeprefix("I mean ").rstrip(".") if clar else ""
            if chosen not in names or len(set(names)) != len(names) or \
                    not any(_writes(later) for later in rnd.solution[k + 1:]):
                break
            out.append(_Choice(
                i, "contact", [{"label": n, "detail": ""} for n in names], chosen, {"label_contains": chosen},
                criterion=f"Show the contacts named {m['first']} as selectable options; use the one the user picks.",
                private=f"When the assistant shows your contacts named {m['first']}, pick {chosen} on the screen.",
                noun=f"contacts named {m['first']}", drop_say=k, drop_clarification=clar.answer))
            break
    return out


# ---------------------------------------------------------------------------- filter multi-picks
@dataclass(frozen=True)
class _FilterRule:
    """How a per-image filter becomes the user's private multi-pick: the request's words for it,
    the words replacing them, what each option shows and the condition the user applies to that."""

    descs: tuple[str, ...]  # the request's criterion, by variant (``flows.filter_desc``)
    instead: str  # what the request says instead
    detail: Any  # image facts -> what the option shows beside the item's name
    condition: Any  # the matched desc -> the ``every`` condition over the shown text
    private: str  # the criterion, in the user's private instructions
    tell: re.Pattern[str]  # words that would give the criterion away in any request


_FILTER_RULES = {
    "business_card": _FilterRule(
        ("only the people whose job title contains 'Manager'",), "only the people I pick",
        lambda f: (f.get("person") or {}).get("title", ""), lambda d: {"says": "Manager"},
        "tick every person whose job title contains 'Manager'", re.compile(r"manager", re.I)),
    "price_tag": _FilterRule(
        ("only the products that are on sale, with their sale price",), "only the products I pick, with their price",
        lambda f: f"sale price {_money(f['amount'])}" if f.get("on_sale") else f"regular price {_money(f['amount'])}",
        lambda d: {"says": "sale price"}, "tick every product that is on sale", re.compile(r"\bsale\b|discount", re.I)),
    "event_poster": _FilterRule(
        ("only the free events", "only the events on a weekend"), "only the events I pick",
        lambda f: f"day: {_weekday(f.get('date', ''))} · admission: "
                  + ("free" if f.get("free") or not f.get("amount") else _money(f["amount"])),
        lambda d: {"says": "admission: free"} if "free" in d else {"says": ["day: Saturday", "day: Sunday"]},
        "", re.compile(r"\bfree\b|weekend|saturday|sunday", re.I)),
}
_DECIDE_SEVERAL = "I'd like to look them all over before I decide which ones."


def _weekday(iso_date: str) -> str:
    from datetime import date

    try:
        return date.fromisoformat(iso_date).strftime("%A")
    except ValueError:
        return ""


def _meets_rule(desc: str, facts: dict[str, Any], category: str) -> bool:
    """Whether an image's item passes the base's filter ``desc`` (what the nominal solution kept)."""
    if category == "business_card":
        return "Manager" in (facts.get("person") or {}).get("title", "")
    if category == "price_tag":
        return bool(facts.get("on_sale"))
    if "free" in desc:
        return bool(facts.get("free"))
    return _weekday(facts.get("date", "")) in ("Saturday", "Sunday")


def _filter_choices(scenario: Scenario) -> list[_Choice]:
    """The filter rounds over per-image items (contact cards by job title, price tags on sale, free
    or weekend events): the request's criterion becomes the user's private one, and every round
    filtering newly sent images a multi-pick on a screen showing each item with what the criterion
    goes by (job title, sale or regular price, weekday and admission). The user ticks every option
    meeting it. [] when a round writes other items than the criterion keeps, a filtered round
    cannot become a choice, or other words of the scenario give the criterion away."""
    from .images import NOUNS

    if scenario.metadata.get("flow_type") != "filter" or not scenario.images:
        return []
    category = scenario.images[0].category
    rule = _FILTER_RULES.get(category)
    if rule is None or any(im.category != category for im in scenario.images):
        return []
    found = [(i, d) for i, r in enumerate(scenario.rounds) for d in rule.descs if d in r.query]
    if len(found) != 1:
        return []
    first, desc = found[0]
    condition = rule.condition(desc)
    private = rule.private or f"tick every event that is {'free' if 'free' in desc else 'on a Saturday or Sunday'}"
    singular, plural = NOUNS[category]
    out: list[_Choice] = []
    seen: list[int] = []
    for i in range(first, len(scenario.rounds)):
        rnd = scenario.rounds[i]
        new = [k for k in rnd.image_ids if scenario.images[k].category == category]
        seen += new
        if not new:
            continue
        written = json.dumps([st for st in rnd.solution if _writes(st)], ensure_ascii=False)
        made = None
        for ids in (new, seen):  # the round filters what it was sent, or everything so far
            facts = [scenario.images[k].facts for k in ids]
            labels = [f.get("label") for f in facts]
            if not all(isinstance(x, str) and x for x in labels) or len(set(labels)) != len(labels):
                return []
            keep = [f["label"] for f in facts if _meets_rule(desc, f, category)]
            drop = [x for x in labels if x not in keep]
            if keep and len(ids) >= 2 and all(x in written for x in keep) and not any(x in written for x in drop):
                made = [(f["label"], rule.detail(f)) for f in facts], keep
                break
        if made is None:
            return []
        options, keep = made
        out.append(_Choice(
            i, "filter", [{"label": label, "detail": detail} for label, detail in options], keep, {"every": condition},
            criterion=f"Offer every {singular} of this round (name and what the choice goes by) as options the user can "
                      f"tick several of; act on the ones the user ticks.",
            private=f"You decide on the screen the assistant shows, by what it shows: {private}, and confirm.",
            noun=plural, query=None, early=True))
    if not out or len(out) > MAX_UI_ROUNDS:
        return []
    query = scenario.rounds[first].query.replace(desc, rule.instead).rstrip()
    query = f"{query}{'' if query.endswith(('.', '!', '?', ')')) else '.'} {_DECIDE_SEVERAL}"
    if out[0].index == first:
        out[0].query = query
    else:
        out.insert(0, _Choice(first, "criterion", [], [], {}, "", "", "", query=query))
    spoken = {c.index: c.query for c in out if c.query}
    if any(rule.tell.search(spoken.get(i, r.query)) for i, r in enumerate(scenario.rounds)):
        return []
    return out


def _checks_screen(surface: str, heading: str, options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One check box per option (name and detail) and a ``Confirm`` button reporting them."""
    boxes = [f"tick_{k}" for k in range(len(options))]
    comps: list[dict[str, Any]] = [
        {"id": "root", "component": {"Column": {"children": ["title", "card", "confirm"]}}},
        {"id": "title", "component": _text(heading, "h2")},
        {"id": "card", "component": {"Card": {"child": "boxes"}}},
        {"id": "boxes", "component": {"Column": {"children": boxes}}},
    ]
    comps += [{"id": box, "component": {"CheckBox": {"label": " · ".join(x for x in (o["label"], o["detail"]) if x),
                                                     "value": {"path": f"/pick/{box}"}}}}
              for box, o in zip(boxes, options)]
    comps += [
        {"id": "confirm_label", "component": _text("Confirm")},
        {"id": "confirm", "component": {"Button": {"child": "confirm_label", "primary": True, "action": {
            "name": "confirm_choice", "context": [{"key": box, "value": {"path": f"/pick/{box}"}} for box in boxes]}}}},
    ]
    return [{"surfaceUpdate": {"surfaceId": surface, "components": comps}},
            {"beginRendering": {"surfaceId": surface, "root": "root"}}]


def _convert(rnd: Round, c: _Choice, kind: str) -> Round:
    from .dryrun import IMAGE_VIEWS

    surface = f"choice_{c.index + 1}"
    heading = f"Which of the {c.noun}?"
    if c.kind == "filter" and kind == "pick_list":
        screen = _checks_screen(surface, heading, c.options)
        say = f"Here are the {c.noun}: tick the ones you want and tap Confirm."
    elif c.kind == "filter":
        screen = _chips_screen(surface, heading, c.options, many=True)
        say = f"Choose the {c.noun} you want on the screen and tap Confirm."
    elif kind == "pick_list":
        screen = _list_screen(surface, heading, "Tap Choose on your pick.", c.options)
        say = f"Here are the {c.noun}: tap Choose on your pick."
    else:
        screen = _chips_screen(surface, heading, c.options)
        say = f"Choose from the {c.noun} on the screen and tap Confirm."
    ui_steps = ({"name": "render_ui_screen", "arguments": {"ui_json": screen}},
                {"name": "show_ui_to_user", "arguments": {}}, {"say": say})
    steps = list(rnd.solution)
    if c.drop_say is not None:
        at = c.drop_say
        del steps[at]
    elif c.early:
        at = next((k for k, st in enumerate(steps) if st.get("name") not in IMAGE_VIEWS), len(steps))
    else:
        at = next((k for k, st in enumerate(steps) if _writes(st)), len(steps))
    # a step before the screen that names the pick (a web search for it) could only be taken by an
    # assistant that knows the answer: it moves after the user's tap
    knows = [st for st in steps[:at] if isinstance(c.chosen, str) and c.chosen and "name" in st
             and c.chosen in json.dumps(st, ensure_ascii=False)]
    steps = [st for st in steps[:at] if not any(st is k for k in knows)] + list(ui_steps) + knows + steps[at:]
    instructions = rnd.instructions
    clarifications = rnd.clarifications
    if c.drop_clarification is not None:
        instructions = instructions.replace(f'If the assistant asks for clarification, answer: "{c.drop_clarification}"',
                                            "").replace("  ", " ").strip()
        clarifications = tuple(x for x in clarifications if x.answer != c.drop_clarification)
    instructions = f"{instructions} {c.private}".strip()
    decision = UIDecision(criterion=c.criterion, pick=c.pick, expect=tuple(o["label"] for o in c.options))
    return replace(rnd, query=c.query or rnd.query, solution=tuple(steps), ui=decision, instructions=instructions,
                   clarifications=clarifications)


def make_variant(scenario: Scenario, kind: str = "pick_list", scenario_id: str | None = None) -> Scenario | None:
    """The UI variant of ``scenario`` (its choice points made on ``kind`` screens), or None if it has none.

    At most one choice per round and :data:`MAX_UI_ROUNDS` per scenario; the expected changes,
    images, initial rows and every other round are the base's."""
    if kind not in KINDS:
        raise ValueError(f"unknown UI variant kind {kind!r}; known: {', '.join(KINDS)}")
    # all of them, or the criterion could not be private (a scenario has one flow: compare or filter)
    choices = {c.index: c for c in _compare_choices(scenario) + _filter_choices(scenario)}
    for c in _contact_choices(scenario):
        if c.index not in choices and sum(bool(x.options) for x in choices.values()) < MAX_UI_ROUNDS:
            choices[c.index] = c
    if not choices:
        return None
    rounds = list(scenario.rounds)
    for c in [choices[i] for i in sorted(choices)]:
        rounds[c.index] = _convert(rounds[c.index], c, kind) if c.options else replace(rounds[c.index], query=c.query)
    picked = [choices[i] for i in sorted(choices) if choices[i].options]
    requirements = "\n".join(f"- Round {c.index + 1}: {c.criterion}" for c in picked)
    metadata = {**scenario.metadata, "ui": True, "ui_variant": {
        "kind": kind, "base_id": scenario.id,
        "choices": [{"round": c.index + 1, "type": c.kind, "options": len(c.options), "chosen": c.chosen,
                     "rule": next(iter(c.pick))} for c in picked]}}
    return replace(
        scenario, id=scenario_id or f"ui/{scenario.id}", rounds=tuple(rounds), ui=True, metadata=metadata,
        completion_criteria=(scenario.completion_criteria + "\n\n" if scenario.completion_criteria else "")
        + "UI Requirements:\n" + requirements)


def ui_variants(base_scenarios: Iterable[Scenario], seed: int = 0, kinds: Sequence[str] = KINDS) -> list[Scenario]:
    """UI variants of ``base_scenarios`` (those with a choice point), screen kinds alternating, deterministic.

    Variants keep the base's id prefixed with ``ui/``; :func:`build_ui_suite` renumbers the verified ones.
    ``seed`` only sets which kind comes first."""
    out = []
    position = random.Random(seed).randrange(len(kinds))
    for s in base_scenarios:
        v = make_variant(s, kinds[position % len(kinds)])
        if v is not None:
            out.append(v)
            position += 1
    return out


def user_choice(scenario: Scenario, episode: Any) -> str | None:
    """Why the scripted user's screen answers differ from the choices the reference solution acts on, or None.

    The oracle writes fixed arguments, so an F1 of 1.0 alone would not show that the user picked
    what the solution uses: this reads the user's ``ui_user_interact`` call in each UI round and
    compares the option it chose with the round's recorded choice (``metadata.ui_variant``)."""
    wanted = {c["round"] - 1: c["chosen"] for c in scenario.metadata.get("ui_variant", {}).get("choices", [])}
    for index, chosen in wanted.items():
        screen = next(s["arguments"]["ui_json"] for s in scenario.rounds[index].solution
                      if s.get("name") == "render_ui_screen")
        comps = {c["id"]: c["component"] for m in screen if "surfaceUpdate" in m
                 for c in m["surfaceUpdate"]["components"]}
        calls = [c.outcome.arguments for c in episode.calls if c.seat == "user" and c.round_index == index
                 and c.outcome.name == "ui_user_interact" and c.outcome.ok]
        if not calls:
            return f"the user never answered through the screen in round {index + 1}"
        args = calls[0]
        values = args.get("field_values") or {}
        if "choice" in values:
            picked = values["choice"] if isinstance(values["choice"], list) else [values["choice"]]
            options = comps["choice"]["MultipleChoice"]["options"]
            labels = [next((o["label"] for o in options if o["value"] == p), "?").split(" · ")[0] for p in picked]
        elif any(str(k).startswith("tick_") for k in values):
            labels = [comps[k]["CheckBox"]["label"].split(" · ")[0] for k, v in values.items() if v is True and k in comps]
        else:
            k = str(args.get("component_id", "")).removeprefix("pick_")
            labels = [comps.get(f"name_{k}", {}).get("Text", {}).get("text", "?")]
        meant = chosen if isinstance(chosen, list) else [chosen]
        if sorted(labels) != sorted(meant):
            shown = labels if isinstance(chosen, list) else labels[0]
            return f"round {index + 1}: user picked {shown!r}, the solution acts on {chosen!r}"
    return None


def oracle_check(scenario: Scenario, max_steps: int | None = None) -> tuple[bool, str]:
    """Play ``scenario``'s reference solution with the scripted user.

    Passes when entity F1 is 1.0, the verdict (UI checks included) passes, the user's choice on
    the screen is the one the solution acts on (:func:`user_choice`) and, if given, the episode
    takes at most ``max_steps`` assistant actions; returns ``(ok, reason)``.
    """
    from ..baselines import OracleAgent
    from ..envs import MMToolSandboxEnv
    from ..runner import run_episode

    env = MMToolSandboxEnv(scenarios=[scenario])
    rec = run_episode(scenario, OracleAgent([scenario]), env=env)
    if not (rec.entity_f1 == 1.0 and rec.passed and rec.error is None):
        failed = [c for c in (rec.verdict or {}).get("criteria", []) if not c.get("pass")]
        return False, f"f1={rec.entity_f1} passed={rec.passed} error={rec.error} failed={json.dumps(failed)[:600]}"
    if max_steps is not None and rec.assistant_steps > max_steps:
        return False, f"{rec.assistant_steps} steps > {max_steps}"
    mismatch = user_choice(scenario, env.episode)
    return (mismatch is None), mismatch or ""


def build_ui_suite(n: int = 60, seed: int = 2026, n_base: int = 112, id_format: str = "ui/gen_{index:04d}",
                   stats: dict[str, Any] | None = None, max_steps: int = MAX_STEPS,
                   bases: Sequence[Scenario] | str | None = "nominal") -> list[Scenario]:
    """``n`` oracle-verified UI variants of other scenarios, numbered ``ui/gen_0001``...

    ``bases`` is a suite name (default: the built-in ``nominal`` suite, so every UI scenario is a
    nominal one plus a screen, and text and UI mode are compared on the same tasks), a list of
    scenarios, or None for ``n_base`` freshly generated ones (static checks, balanced over the
    design cells). A variant is kept only when the oracle reaches entity F1 1.0 with a passing
    verdict (UI checks included), the scripted user's choice matches the solution, and the oracle
    needs at most ``max_steps`` actions. ``stats`` (a dict) receives counts and failures.
    """
    if bases is None:
        from .api import generate

        bases = generate(n_base, seed=seed, verify="static")
    elif isinstance(bases, str):
        from ..scenario.suites import load_suite

        bases = sorted(load_suite(bases), key=lambda b: b.id)  # nominal/0001...: balanced over the cells
    made = ui_variants(list(bases), seed=seed)
    out: list[Scenario] = []
    failures: list[str] = []
    for v in made:
        if len(out) >= n:
            break
        candidate = replace(v, id=id_format.format(index=len(out) + 1))
        ok, why = oracle_check(candidate, max_steps)
        if ok:
            out.append(candidate)
        else:
            failures.append(f"{v.id}: {why}")
    if stats is not None:
        kinds = lambda suite: dict(Counter(c["type"] for v in suite for c in v.metadata["ui_variant"]["choices"]))
        stats.update({"bases": len(bases), "variants": len(made), "verified": len(out),
                      "choice_points": kinds(made), "verified_choice_points": kinds(out), "failures": failures})
    return out


def write_ui_suite(scenarios: Sequence[Scenario], path: str | Path) -> Path:
    """Write ``scenarios`` as one JSON list (format v1), byte-for-byte deterministic, and
    refresh the folder's index (:mod:`~mmtsb_env.scenario.index`)."""
    from ..scenario.index import write_index

    path = Path(path)
    path.write_text(json.dumps([s.to_dict() for s in scenarios], indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    write_index(path.parent)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mmtsb_env.generation.ui_variants [--n 60] [--seed 2026] [--bases nominal] [--out scenarios/ui/generated.json]``."""
    import argparse

    p = argparse.ArgumentParser(description="Build the generated part of the ui suite.")
    p.add_argument("--n", type=int, default=60)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--bases", default="nominal", help="suite whose scenarios are converted, or 'generate'")
    p.add_argument("--n-base", type=int, default=112, help="bases to generate with --bases generate")
    p.add_argument("--out", default="scenarios/ui/generated.json")
    a = p.parse_args(argv)
    stats: dict[str, Any] = {}
    suite = build_ui_suite(a.n, a.seed, a.n_base, stats=stats, bases=None if a.bases == "generate" else a.bases)
    write_ui_suite(suite, a.out)
    print(json.dumps({k: v for k, v in stats.items() if k != "failures"}), *stats["failures"][:10], sep="\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
