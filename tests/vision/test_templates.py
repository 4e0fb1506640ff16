"""Three layouts per family (issue #29 item 5): receipts, invoices, statements, posters and the phone
screens each draw one of three templates chosen by the seed. Every template, at every level, lays
its text out without overlaps or clipping and draws every value a scenario reads."""

from __future__ import annotations

import pytest

from mmtsb_env.generation.ocr import NEEDED, _squash
from mmtsb_env.vision.render import render
from mmtsb_env.vision.render._common import Ctx
from mmtsb_env.vision.render._phone import CHROMES

from text_boxes import recorded_text

DOCUMENTS = ("receipt", "invoice", "statement", "event_poster")
SCREENS = ("order_screen", "inbox", "settings_screen", "calendar_day", "bank_feed", "chat_screen", "event_screen",
           "playlist_screen")


def template_of(kind: str, seed: int) -> int:
    """The template a spec of ``kind`` and ``seed`` draws (the families' own draw: ``rng("template")``)."""
    return Ctx(kind=kind, content={}, seed=seed, difficulty=0).rng("template").randrange(3)


def seeds_per_template(kind: str, each: int = 2) -> list[int]:
    """The first ``each`` seeds that draw each of the three templates."""
    found: dict[int, list[int]] = {0: [], 1: [], 2: []}
    seed = 0
    while any(len(v) < each for v in found.values()):
        t = template_of(kind, seed)
        if len(found[t]) < each:
            found[t].append(seed)
        seed += 1
    return sorted(s for v in found.values() for s in v)


def test_every_family_and_screen_has_three_templates():
    from mmtsb_env.vision.render import event_poster, invoice, receipt, statement

    for module in (receipt, invoice, statement, event_poster):
        assert len(module.TEMPLATES) == len(set(module.TEMPLATES)) == 3, module.__name__
    assert len({c.name for c in CHROMES}) == 3
    for kind in DOCUMENTS + SCREENS:  # the seed spreads specs over all three
        assert {template_of(kind, s) for s in range(12)} == {0, 1, 2}, kind


def _drawn(spec: dict):
    with recorded_text() as sheets:
        r = render(spec, use_cache=False)
        r.image
    return r, sheets


@pytest.mark.parametrize("kind", DOCUMENTS + SCREENS)
def test_each_template_lays_out_cleanly_and_draws_what_a_task_reads(kind):
    problems = []
    for seed in seeds_per_template(kind):
        for d in range(4):
            r, sheets = _drawn({"kind": kind, "seed": seed, "difficulty": d})
            for sheet in sheets:
                problems += [f"t{template_of(kind, seed)} d{d} seed {seed}: {a!r} overlaps {b!r}" for a, b in sheet.overlaps()]
                problems += [f"t{template_of(kind, seed)} d{d} seed {seed}: {t!r} is clipped" for t in sheet.outside()]
            drawn = _squash(" ".join(t for s in sheets for _, t in s.texts))
            for value in NEEDED[kind](r.facts):
                if _squash(value) not in drawn:
                    problems.append(f"t{template_of(kind, seed)} d{d} seed {seed}: {value!r} is not drawn")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("kind", DOCUMENTS)
def test_the_template_changes_the_page_not_the_facts(kind):
    """Two seeds of different templates with the same content give the same facts (bar what the seed
    draws for itself: defaults the content leaves open), and different pages."""
    content = {"receipt": {"merchant": "Corner Deli", "date": "2026-03-14", "time": "12:30",
                           "items": [{"name": "Tea", "qty": 2, "price": 1.5}], "tax_rate": 10, "payment": "CASH"},
               "invoice": {"company": "Acme Web", "invoice_number": "INV-7", "tax_rate": 20, "invoice_date": "2026-03-01",
                           "due_date": "2026-03-31", "bill_to": "Sam Ortiz", "currency": "$",
                           "items": [{"description": "Design", "qty": 3, "unit_price": 100}]},
               "event_poster": {"title": "Night Market", "date": "2026-07-04", "time": "19:30", "price": 0, "venue": "Pier 9",
                                "organiser": "Harbor Friends", "subtitle": "Food and music"}}
    content["statement"] = content["invoice"]
    seeds = seeds_per_template(kind, each=1)
    facts = [render({"kind": kind, "seed": s, "content": content[kind]}).facts for s in seeds]
    keys = set(content[kind]) - {"items"}
    for f in facts[1:]:
        assert {k: f[k] for k in keys if k in f} == {k: facts[0][k] for k in keys if k in facts[0]}
    images = [render({"kind": kind, "seed": s, "content": content[kind]}).image for s in seeds]
    assert len({im.size for im in images}) > 1 or len({im.tobytes() for im in images}) == 3
