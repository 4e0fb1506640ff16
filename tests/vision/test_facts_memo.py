"""A spec's facts outlive its job in the render cache: reading them again never redraws."""

import importlib
from unittest import mock

from mmtsb_env.vision.render import CACHE, FACTS, clear_cache, render

render_module = importlib.import_module("mmtsb_env.vision.render")  # the module (the package re-exports render)


def test_facts_of_an_evicted_spec_come_from_the_memo_not_a_new_draft():
    clear_cache()
    spec = {"kind": "receipt", "seed": 41, "difficulty": 1}
    first = render(spec).facts
    CACHE._data.clear()  # the job (and any pixels) evicted, as a suite larger than the cache does
    with mock.patch.object(render_module, "_run", side_effect=AssertionError("redrawn")):
        again = render(spec).facts
    assert again == first and again is not first  # equal, and each reader still gets its own copy
    again["total"] = "edited"
    assert render(spec).facts == first  # a reader's edit never reaches the memo


def test_drawn_pixels_are_checked_against_the_memoised_facts():
    clear_cache()
    spec = {"kind": "sign", "seed": 5, "difficulty": 0}
    facts = render(spec).facts
    CACHE._data.clear()
    r = render(spec)
    assert r.image.size[0] > 0 and r.drawn  # drawing after a memo hit runs and agrees with the memo
    assert r.facts == facts
    clear_cache()
    assert FACTS.get(r.key) is None  # clear_cache empties the memo too
