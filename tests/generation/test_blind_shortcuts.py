"""What the red team of session 13 (rt-scen) found a blind agent could read instead of the images,
checked by property on freshly generated scenarios:

* F5/F2 -- a staged web page never prints what the image shows besides its name: not a sign's
  weekday hours (its opening or closing time, in any spelling), not an event's start time; the
  blind sign agent parsed every shop's hours off the pages (100/100) and passed 3/6 sign compares;
* F9 -- a look-alike row staged on the phone never carries a title read off the images (the
  compare winner sat on the phone in 9/34 nominal compare scenarios), and its date is not the
  target's moved back by a fixed amount (364 days, 1 hour: the expected date was computable);
* F2 (part) -- a search with a need's own words but no name from the images ("shop opening hours
  sunday") listed only the user's items (and their look-alikes); the web now also knows other items
  of the kind, so such a search lists strangers beside them;
* F10 -- a look-alike row never says it is the stale one ("old", "copy", "draft", "superseded",
  last year): 91 % did, so "skip the marked rows" never touched a look-alike;
* the office-hours look-alike is never named "<X> Labs Labs".
"""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from mmtsb_env.generation import generate
from mmtsb_env.generation.web import clock

PAGES = "web_search.pages"


@pytest.fixture(scope="module")
def web_scenarios():
    out = []
    for category in ("sign", "event_poster", "business_card"):
        out += generate(8, seed=23, flow=("compare", "aggregate"), category=category, verify="static")
    return out


@pytest.fixture(scope="module")
def compare_scenarios():
    return generate(30, seed=29, flow="compare", verify="static")


def _times(hhmm: str) -> set[str]:
    """How a page could print ``hh:mm``: '7:00 PM', '19:00', '7PM', '7pm', '7:00pm'."""
    h, m = map(int, hhmm.split(":"))
    twelve = (h - 1) % 12 + 1
    ampm = "AM" if h < 12 else "PM"
    forms = {clock(h * 60 + m), f"{h:02d}:{m:02d}", f"{twelve}:{m:02d}{ampm}", f"{twelve}:{m:02d}{ampm.lower()}"}
    if m == 0:
        forms |= {f"{twelve}{ampm}", f"{twelve}{ampm.lower()}", f"{twelve} {ampm}", f"{twelve} {ampm.lower()}"}
    return forms


def test_web_pages_print_no_image_fact_but_the_name(web_scenarios):
    checked = 0
    for s in web_scenarios:
        pages = " | ".join(f"{p['title']} {p['snippet']}" for p in s.initial_entities.get(PAGES, []))
        if not pages:
            continue
        for im in s.images:
            f = im.facts
            shown = set()
            if im.category == "sign":
                shown |= _times(f["opens"]) | _times(f["closes"]) | {f["hours"], f["hours"].replace("OPEN ", "").lower()}
            if im.category == "event_poster" and f.get("time"):
                shown |= _times(f["time"])
            leaked = [v for v in shown if re.search(r"(?<![\w:])" + re.escape(v) + r"(?![\w:])", pages)]
            assert not leaked, (s.id, im.category, leaked)
            checked += bool(shown)
        assert "Labs Labs" not in pages, s.id
    assert checked >= 20


def _when(row):
    for col in ("start_datetime", "reminder_datetime", "datetime", "date", "due_date", "start"):
        v = row.get(col)
        if isinstance(v, str) and len(v) >= 10:
            try:
                return datetime.fromisoformat(v)
            except ValueError:
                pass
    return None


def test_no_look_alike_row_carries_a_title_read_off_the_images(compare_scenarios):
    read_count = 0
    for s in compare_scenarios:
        read = {v.lower() for v in (*s.metadata["image_values"], *s.metadata["image_keys"], *s.metadata["derived_values"],
                                    *(f for r in s.rounds for f in r.report)) if len(v) >= 4}
        looks = {(la["table"], la["key"]) for la in s.metadata["lookalikes"]}
        for table, rows in s.initial_entities.items():
            for row in rows:
                if table == PAGES or not any((table, v) in looks for v in row.values() if isinstance(v, (int, str))):
                    continue
                read_count += 1
                titles = [str(row.get(c)) for c in ("title", "name", "content", "label", "subject") if row.get(c)]
                hits = [v for v in read for t in titles if v in t.lower()]
                assert not hits, (s.id, table, row, hits)
    assert read_count >= 30


def test_a_look_alikes_date_does_not_give_the_targets_date_by_a_fixed_shift(compare_scenarios):
    """The look-alike of a dated row the task makes is about a year older by a drawn amount."""
    shifts = set()
    for s in compare_scenarios:
        dated = [la for la in s.metadata["lookalikes"] if la["table"] in ("calendar.events", "reminder.reminders")]
        if not dated:
            continue
        made = {}
        for c in s.expected_changes:
            if c.operation == "create" and c.table in ("calendar.events", "reminder.reminders"):
                made.setdefault(c.table, []).append(c.row)
        for la in dated:
            row = next(r for r in s.initial_entities[la["table"]] if la["key"] in r.values())
            for target in made.get(la["table"], []):
                a, b = _when(row), _when(target or {})
                if a and b and a < b:
                    shifts.add(b - a)
    assert len(shifts) >= 3, shifts


MARKS = re.compile(r"\b(old|older|copy|draft|drafts|last year|superseded|kept for reference|never finished|newer one|"
                   r"older version|not the current)\b|_old\b|_copy\b|_draft\b", re.I)


def test_no_look_alike_row_says_it_is_the_stale_one(compare_scenarios, web_scenarios):
    seen = 0
    for s in [*compare_scenarios, *web_scenarios]:
        looks = {(la["table"], la["key"]) for la in s.metadata["lookalikes"] if la["table"] not in (PAGES, "phone.contacts")}
        for table, rows in s.initial_entities.items():
            for row in rows:
                if not any((table, v) in looks for v in row.values() if isinstance(v, (int, str))):
                    continue
                seen += 1
                text = " ".join(str(row[k]) for k in ("title", "name", "content", "description", "body", "subject", "path", "label",
                                                       "note") if isinstance(row.get(k), str))
                assert not MARKS.search(text), (s.id, table, row)
    assert seen >= 30


GENERIC = {"sign": "shop opening hours sunday", "event_poster": "event doors open tickets",
           "business_card": "company office hours"}


def test_a_search_without_the_names_the_images_give_lists_strangers_too(web_scenarios):
    from mmtsb_env.apps.web_search.tables import search
    from mmtsb_env.world import World, build_layer
    from mmtsb_env.world.base import base_world

    base = base_world(0).layer
    checked = 0
    for s in web_scenarios:
        pages = s.initial_entities.get(PAGES)
        if not pages or s.images[0].category not in GENERIC:
            continue
        named = {str(v).lower() for im in s.images for v in (im.facts.get("label"), (im.facts.get("person") or {}).get("company"))
                 if v}
        looks = {la["key"] for la in s.metadata["lookalikes"] if la["table"] == PAGES}
        answering = [p for p in pages if p["id"] not in looks]
        strangers = [p for p in answering if not any(n in p["title"].lower() for n in named)]
        assert len(strangers) * 2 >= len(answering) - len(strangers) > 0, (s.id, [p["title"] for p in answering])
        results = search(World(base, build_layer({PAGES: pages})), GENERIC[s.images[0].category])
        stranger_ids = {p["url"] for p in strangers}
        assert any(r["link"] in stranger_ids for r in results), (s.id, [r["title"] for r in results])
        checked += 1
    assert checked >= 10


def test_look_alike_pages_differ_from_the_answer_only_in_a_detail_the_image_shows(web_scenarios):
    """Event and business-card pages: the look-alikes carry the answering page's exact title, and
    differ in the venue the poster shows / the web domain of the card's email, so a rule over title
    words (or over the order pages are listed in) finds the right page no more often than chance."""
    from mmtsb_env.apps.web_search.tables import search
    from mmtsb_env.world import World, build_layer
    from mmtsb_env.world.base import base_world

    base = base_world(0).layer
    checked, first_listed = 0, 0
    for s in web_scenarios:
        pages = {p["id"]: p for p in s.initial_entities.get(PAGES, [])}
        groups: dict[int, list[int]] = {}
        for la in s.metadata["lookalikes"]:
            if la["table"] == PAGES:
                assert la["by"] == ("content" if s.images[0].category != "sign" else "title"), la
                groups.setdefault(la["of"], []).append(la["key"])
        for answer, looks in groups.items():
            if s.images[0].category == "sign":
                continue
            right = pages[answer]
            shown = [im for im in s.images if right["snippet"].startswith(f"{im.facts.get('label')} at ")
                     or (im.facts.get("person") or {}).get("company", "\0") in right["title"]]
            assert shown, (s.id, right)
            details = {im.facts.get("venue") or str((im.facts.get("person") or {}).get("email", "")).rpartition("@")[2]
                       for im in shown}
            assert any(d and d in right["snippet"] for d in details), (s.id, right, details)
            for k in looks:
                assert pages[k]["title"] == right["title"], (s.id, pages[k]["title"], right["title"])
                assert not any(d and d in pages[k]["snippet"] for d in details), (s.id, pages[k])
            query = right["title"].split(" - ")[0]
            listed = [r["link"] for r in search(World(base, build_layer({PAGES: list(pages.values())})), query)]
            first_listed += next(link for link in listed if link in {pages[k]["url"] for k in [answer, *looks]}) == right["url"]
            checked += 1
    assert checked >= 10
    assert first_listed < checked * 0.7, (first_listed, checked)  # the answer is not simply the first result
