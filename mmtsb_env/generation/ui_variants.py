"""UI variants of generated scenarios: the user makes a choice through a screen the assistant shows.

:func:`ui_variants` takes verified scenarios (from :func:`~mmtsb_env.generation.generate` or a
built-in suite) and, for each one with at least two images of one category, appends a UI round
in which the user decides something about those images on a phone screen:

* ``pick_list`` -- one card per image (name and a detail line) with a ``Choose`` button; the
  user taps the cheapest, the most expensive or a named one, and the assistant saves a note
  with the chosen item;
* ``pick_chips`` -- the same options as a single-choice ``MultipleChoice`` plus a ``Confirm``
  button;
* ``review`` -- a draft note listing every item in editable fields with ``Save note`` and
  ``Discard``; the user gives the title on the screen before the assistant saves it.

The private criterion (the pick rule and the named item, or the title typed on the screen)
lives only in the round's ``ui`` field: the query only asks to be shown the options, so the task
cannot be completed without a screen. The reference solution renders valid A2UI JSON, shows it,
says one sentence, then writes the note with the values the scripted user will choose.

:func:`build_ui_suite` generates the bases, makes variants, keeps those the oracle solves
(entity F1 1.0 and a passing verdict, UI checks included) and numbers them ``ui/gen_0001``...;
:func:`write_ui_suite` writes them deterministically (same seed, same bytes).

>>> from mmtsb_env.generation import generate
>>> base = generate(4, seed=5, verify="static")
>>> variants = ui_variants(base, seed=5)
>>> all(v.ui and v.rounds[-1].ui is not None for v in variants)
True
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..scenario.model import ExpectedChange, Round, Scenario, UIDecision

KINDS = ("pick_list", "pick_chips", "review")
# Longest oracle episode kept in the suite (whole-suite UI episode tests cap an episode at 40 steps).
MAX_STEPS = 36
MONEY_CATEGORIES = ("receipt", "invoice", "price_tag", "event_poster")
NOUNS = {
    "receipt": "receipts", "invoice": "invoices", "price_tag": "price tags", "event_poster": "event posters",
    "chart": "charts", "sign": "shop signs", "business_card": "business cards", "table_document": "documents",
    "handwritten_note": "handwritten notes",
}
DETAIL_WORDS = {
    "receipt": "total", "invoice": "amount due", "price_tag": "price", "event_poster": "details (date, venue, price)",
    "chart": "top value", "sign": "opening hours", "business_card": "job title", "table_document": "first line",
    "handwritten_note": "first item",
}
# words that would reveal a price rule if a query used them
_RULE_WORDS = re.compile(r"cheap|expensive|lowest|highest|pricie|least|smallest|largest|biggest|most", re.I)
_NOTE_TITLES = ("My pick", "Chosen one", "Shortlist pick", "Decision", "Selected item", "Final choice", "The winner",
                "Top choice")
_REVIEW_TITLES = ("Weekend shortlist", "Options to discuss", "Things to compare", "Friday review", "Sorted for later",
                  "Quick overview", "Saved for Sam", "Budget check", "Trip planning list", "Errand roundup")


def _money(x: float) -> str:
    return f"${x:,.2f}"


def _detail(category: str, facts: dict[str, Any]) -> str:
    """One line describing an image's item on the screen (prices currency-marked where they are prices)."""
    amount = facts.get("amount")
    if category == "receipt":
        return f"{_money(amount)} on {facts.get('date', '')}".strip()
    if category == "invoice":
        return f"{_money(amount)} ({facts.get('invoice_number', '')})"
    if category == "price_tag":
        return f"{_money(amount)} by {facts.get('brand', '')}"
    if category == "event_poster":
        price = "Free" if facts.get("free") or not amount else _money(amount)
        return f"{facts.get('date', '')} {facts.get('time', '')} at {facts.get('venue', '')}, {price}"
    if category == "chart":
        return f"top {facts.get('top', '')}: {amount:g} {facts.get('units', '')}".strip()
    if category == "sign":
        return f"open {facts.get('opens', '')}-{facts.get('closes', '')}"
    if category == "business_card":
        person = facts.get("person") or {}
        return f"{person.get('title', '')}, {person.get('company', '')}"
    items = facts.get("items") or []
    first = items[0].get("name", "") if items else ""
    return f"{len(items)} lines, first: {first}"


def _options(scenario: Scenario) -> tuple[str, list[dict[str, Any]]] | None:
    """The largest group (>= 2) of same-category images with distinct labels, as screen options."""
    groups: dict[str, list[int]] = {}
    for i, im in enumerate(scenario.images):
        if im.category in NOUNS and isinstance(im.facts.get("label"), str):
            groups.setdefault(im.category, []).append(i)
    best = None
    for category, ids in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        labels = [scenario.images[i].facts["label"] for i in ids]
        if len(ids) < 2 or len(set(labels)) != len(labels):
            continue
        # no label may contain another, so a label_contains pick is unambiguous
        if any(a != b and a.lower() in b.lower() for a in labels for b in labels):
            continue
        best = (category, [{"image_id": i, "label": scenario.images[i].facts["label"],
                            "detail": _detail(category, scenario.images[i].facts),
                            "amount": scenario.images[i].facts.get("amount")} for i in ids[:6]])
        break
    return best


def _price_rule_ok(category: str, options: list[dict[str, Any]], scenario: Scenario) -> bool:
    amounts = [o["amount"] for o in options]
    if category not in MONEY_CATEGORIES or any(not isinstance(a, (int, float)) or a <= 0 for a in amounts):
        return False
    if len(set(amounts)) != len(amounts):
        return False
    return not any(_RULE_WORDS.search(r.query) for r in scenario.rounds)


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
        comps += [
            {"id": f"card_{k}", "component": {"Card": {"child": f"row_{k}"}}},
            {"id": f"row_{k}", "component": {"Row": {"children": [f"info_{k}", f"pick_{k}"], "alignment": "center"}}},
            {"id": f"info_{k}", "weight": 1, "component": {"Column": {"children": [f"name_{k}", f"detail_{k}"]}}},
            {"id": f"name_{k}", "component": _text(o["label"], "h4")},
            {"id": f"detail_{k}", "component": _text(o["detail"])},
            {"id": f"pick_{k}_label", "component": _text("Choose")},
            {"id": f"pick_{k}", "component": {"Button": {"child": f"pick_{k}_label", "primary": True, "action": {
                "name": "choose_item", "context": [{"key": "name", "value": o["label"]},
                                                   {"key": "detail", "value": o["detail"]}]}}}},
        ]
    return [{"surfaceUpdate": {"surfaceId": surface, "components": comps}},
            {"beginRendering": {"surfaceId": surface, "root": "root"}}]


def _chips_screen(surface: str, heading: str, options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    comps = [
        {"id": "root", "component": {"Column": {"children": ["title", "card", "confirm"]}}},
        {"id": "title", "component": _text(heading, "h2")},
        {"id": "card", "component": {"Card": {"child": "choice"}}},
        {"id": "choice", "component": {"MultipleChoice": {
            "label": "Options", "selections": {"path": "/pick/item"}, "maxAllowedSelections": 1,
            "options": [{"label": f"{o['label']} · {o['detail']}", "value": f"item_{k}"} for k, o in enumerate(options)]}}},
        {"id": "confirm_label", "component": _text("Confirm")},
        {"id": "confirm", "component": {"Button": {"child": "confirm_label", "primary": True, "action": {
            "name": "confirm_choice", "context": [{"key": "item", "value": {"path": "/pick/item"}}]}}}},
    ]
    return [{"surfaceUpdate": {"surfaceId": surface, "components": comps}},
            {"beginRendering": {"surfaceId": surface, "root": "root"}}]


def _review_screen(surface: str, draft_title: str, content: str) -> list[dict[str, Any]]:
    comps = [
        {"id": "root", "component": {"Column": {"children": ["title", "hint", "card", "actions"]}}},
        {"id": "title", "component": _text("Review the note", "h2")},
        {"id": "hint", "component": _text("Set the title, edit anything, then tap Save note.", "caption")},
        {"id": "card", "component": {"Card": {"child": "fields"}}},
        {"id": "fields", "component": {"Column": {"children": ["note_title", "note_body"]}}},
        {"id": "note_title", "component": {"TextField": {"label": "Title", "text": {"path": "/note/title"}}}},
        {"id": "note_body", "component": {"TextField": {"label": "Content", "text": {"path": "/note/content"},
                                                        "textFieldType": "longText"}}},
        {"id": "actions", "component": {"Row": {"children": ["discard", "save"], "distribution": "spaceBetween"}}},
        {"id": "discard_label", "component": _text("Discard")},
        {"id": "discard", "component": {"Button": {"child": "discard_label", "primary": False,
                                                   "action": {"name": "discard"}}}},
        {"id": "save_label", "component": _text("Save note")},
        {"id": "save", "component": {"Button": {"child": "save_label", "primary": True, "action": {
            "name": "save_note", "context": [{"key": "title", "value": {"path": "/note/title"}},
                                             {"key": "content", "value": {"path": "/note/content"}}]}}}},
    ]
    return [{"surfaceUpdate": {"surfaceId": surface, "components": comps}},
            {"dataModelUpdate": {"surfaceId": surface, "path": "/note", "contents": [
                {"key": "title", "valueString": draft_title}, {"key": "content", "valueString": content}]}},
            {"beginRendering": {"surfaceId": surface, "root": "root"}}]


def _chosen(rule: str, options: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    if rule == "cheapest":
        return min(options, key=lambda o: o["amount"])
    if rule == "most_expensive":
        return max(options, key=lambda o: o["amount"])
    return options[rng.randrange(len(options))]


def make_variant(scenario: Scenario, rng: random.Random, kind: str, scenario_id: str | None = None) -> Scenario | None:
    """One UI variant of ``scenario`` of the given ``kind`` (see :data:`KINDS`), or None if it has no choice to offer."""
    found = _options(scenario)
    if found is None or kind not in KINDS:
        return None
    category, options = found
    noun, detail_word = NOUNS[category], DETAIL_WORDS[category]
    queries = [r.query.lower() for r in scenario.rounds]
    surface = f"{category}_pick"
    lines = [f"{o['label']}: {o['detail']}" for o in options]
    if kind == "review":
        title = next((t for t in rng.sample(_REVIEW_TITLES, len(_REVIEW_TITLES)) if not any(t.lower() in q for q in queries)), None)
        if title is None:
            return None
        content = "\n".join(lines)
        decision = UIDecision(
            criterion=f"Show a draft note listing the {noun} (name and {detail_word}) in editable fields with a Save button; "
                      "save it with exactly the title the user sets on the screen.",
            pick={"label_contains": "Save"}, fill={"Title": title}, expect=tuple(o["label"] for o in options))
        query = (f"One more thing: draft a note listing the {noun} I sent (name and {detail_word} of each) and show it to me "
                 "on a screen first. I'll set the title there; then save exactly what I confirm.")
        screen = _review_screen(surface, "Draft", content)
        say = "Here is the draft note. Set the title, change anything you like and tap Save note."
        note_title, note_content = title, content
        answer = f"Saved the note '{title}' listing the {len(options)} {noun}."
        facts = (title,)
        rule = "fill"
    else:
        rules = ["label_contains"]
        if _price_rule_ok(category, options, scenario):
            rules = ["cheapest", "most_expensive", "label_contains"]
        rule = rules[rng.randrange(len(rules))]
        chosen = _chosen(rule, options, rng)
        if rule == "label_contains" and any(chosen["label"].lower() in q for q in queries):
            return None
        title = next((t for t in rng.sample(_NOTE_TITLES, len(_NOTE_TITLES)) if not any(t.lower() in q for q in queries)), None)
        if title is None:
            return None
        pick = {rule: chosen["label"] if rule == "label_contains" else True}
        criterion_text = {"cheapest": "the user taps the cheapest", "most_expensive": "the user taps the most expensive",
                          "label_contains": "the user taps the one they want"}[rule]
        decision = UIDecision(
            criterion=f"Offer every {noun[:-1]} (name and {detail_word}) as a selectable option; {criterion_text}; "
                      "save a note with exactly the chosen one.",
            pick=pick, expect=tuple(o["label"] for o in options))
        query = (f"One more thing: put the {noun} I sent on a screen with the name and {detail_word} of each, and let me "
                 f"pick one. Then save a note titled '{title}' with the name and {detail_word} of the one I pick.")
        if kind == "pick_list":
            screen = _list_screen(surface, f"Which of the {noun}?", "Tap Choose on the one you want.", options)
            say = f"Here are the {noun}. Tap Choose on the one you want me to save."
        else:
            screen = _chips_screen(surface, f"Which of the {noun}?", options)
            say = f"Pick one of the {noun} on the screen and tap Confirm."
        note_title, note_content = title, f"{chosen['label']}: {chosen['detail']}"
        answer = f"Saved the note '{title}': {note_content}."
        facts = (chosen["label"],)
    solution = (
        {"name": "render_ui_screen", "arguments": {"ui_json": screen}},
        {"name": "show_ui_to_user", "arguments": {}},
        {"say": say},
        {"name": "simple_note_create_note", "arguments": {"title": note_title, "content": note_content}},
    )
    ui_round = Round(
        query=query, kind="task", solution=solution, answer=answer, ui=decision,
        instructions="Do not describe what is in the images; the assistant has to read them itself. Make your choice on "
                     "the screen the assistant shows you. When the assistant confirms it is done, end the conversation.")
    rounds = list(scenario.rounds)
    last = rounds[-1]
    rounds[-1] = replace(last, instructions=last.instructions.replace("end the conversation.", "move on to the next round."))
    rounds.append(ui_round)
    change = ExpectedChange(operation="create", table="simple_note.notes",
                            row={"user_id": scenario.user_id, "title": note_title, "content": note_content},
                            measures={"user_id": "exact", "title": "exact", "content": "rouge_l"})
    domains = tuple(sorted(set(scenario.domains) | {"simple_note"}))
    n = len(rounds)
    metadata = {**scenario.metadata, "num_rounds": n, "domains": list(domains), "ui": True,
                "ui_variant": {"kind": kind, "rule": rule, "category": category, "options": len(options),
                               "round": n, "base_id": scenario.id}}
    requirement = f"UI Requirements:\n- Round {n}: {decision.criterion}"
    return replace(
        scenario, id=scenario_id or f"ui/{scenario.id}", rounds=tuple(rounds), ui=True, domains=domains,
        expected_changes=scenario.expected_changes + (change,), facts=scenario.facts + facts, metadata=metadata,
        description=(scenario.description + " " if scenario.description else "") +
                    f"Finally the user decides on a screen about the {noun} ({kind.replace('_', ' ')}).",
        completion_criteria=(scenario.completion_criteria + "\n\n" if scenario.completion_criteria else "") + requirement,
    )


def ui_variants(base_scenarios: Iterable[Scenario], seed: int = 0, kinds: Sequence[str] = KINDS) -> list[Scenario]:
    """UI variants of ``base_scenarios`` (those with a choice to offer), kinds rotating, deterministic per seed.

    Variants keep the base's id prefixed with ``ui/``; :func:`build_ui_suite` renumbers the verified ones.
    Bases with five rounds already are skipped (a variant adds one round).
    """
    out = []
    rng = random.Random(seed)
    position = 0
    for s in base_scenarios:
        if len(s.rounds) >= 5:
            continue
        kind = kinds[position % len(kinds)]
        v = make_variant(s, random.Random(rng.randrange(2**31)), kind)
        if v is not None:
            out.append(v)
            position += 1
    return out


def user_choice(scenario: Scenario, episode: Any) -> str | None:
    """Why the user's screen answer in the UI round differs from what the reference solution writes, or None.

    The oracle writes fixed arguments, so an F1 of 1.0 alone would not show that the scripted
    user picked the item the solution saves: this reads the user's ``ui_user_interact`` calls and
    compares the chosen option (or the typed title) with the note the solution creates.
    """
    index = next(i for i in range(len(scenario.rounds) - 1, -1, -1) if scenario.rounds[i].ui is not None)
    rnd = scenario.rounds[index]
    note = next(s["arguments"] for s in rnd.solution if s.get("name") == "simple_note_create_note")
    screen = next(s["arguments"]["ui_json"] for s in rnd.solution if s.get("name") == "render_ui_screen")
    comps = {c["id"]: c["component"] for m in screen if "surfaceUpdate" in m for c in m["surfaceUpdate"]["components"]}
    calls = [c.outcome.arguments for c in episode.calls
             if c.seat == "user" and c.outcome.name == "ui_user_interact" and c.outcome.ok]
    if not calls:
        return "the user never answered through the screen"
    args = calls[0]
    values = args.get("field_values") or {}
    if "note_title" in values or "note_title" in comps:
        got = values.get("note_title")
        return None if got == note["title"] else f"user typed title {got!r}, solution saves {note['title']!r}"
    if "choice" in values:
        picked = values["choice"][0] if isinstance(values["choice"], list) else values["choice"]
        options = comps["choice"]["MultipleChoice"]["options"]
        label = next((o["label"] for o in options if o["value"] == picked), "?").split(" · ")[0]
    else:
        k = str(args.get("component_id", "")).removeprefix("pick_")
        label = comps.get(f"name_{k}", {}).get("Text", {}).get("text", "?")
    return None if note["content"].startswith(label + ":") else f"user picked {label!r}, solution saves {note['content']!r}"


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
        return False, f"f1={rec.entity_f1} passed={rec.passed} error={rec.error} verdict={json.dumps(rec.verdict)[:400]}"
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
        stats.update({"bases": len(bases), "variants": len(made), "verified": len(out), "failures": failures})
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
