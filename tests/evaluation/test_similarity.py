"""Column measures: ROUGE-L against rouge-score, bit-parallel LCS against the textbook DP, Unicode
tokens, numbers/ids/datetimes/lists, defaults by column and type, and error messages."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from rouge_score import rouge_scorer

from mmtsb_env.evaluation.similarity import (
    MEASURES, Tolerances, close, contains, datetime_after, datetime_equal, datetime_naive_equal, default_measure, exact,
    lcs_length, measure_for, numeric, one, rouge_l, rouge_l_raw, set_overlap, tokens,
    canonical_text, facts, present, text_contains,
)


def _dp_lcs(a, b):
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def test_bit_parallel_lcs_equals_dynamic_programming():
    rng = random.Random(7)
    for _ in range(400):
        a = [rng.choice("abcdefg") for _ in range(rng.randint(0, 40))]
        b = [rng.choice("abcdefg") for _ in range(rng.randint(0, 70))]
        assert lcs_length(a, b) == _dp_lcs(a, b), (a, b)


@pytest.mark.parametrize("ref, hyp", [
    ("Call Modicon about OSIRIS", "call modicon, inc. about osiris"),
    ("the cat sat on the mat", "the cat on the mat sat"),
    ("Sunrise Diner $18.53 City Parking $9.00", "City Parking 9.00 and Sunrise Diner 18.53"),
    ("a b c d e f", "f e d c b a"),
    ("pack the tent", "PACK TENT"),
])
def test_rouge_l_matches_rouge_score_on_ascii(ref, hyp):
    expected = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False).score(ref, hyp)["rougeL"].fmeasure
    assert rouge_l_raw(ref, hyp) == pytest.approx(expected, abs=1e-6)


def test_tokens_are_unicode_safe():
    assert tokens("Café  NAÏVE") == ["café", "naïve"]
    assert tokens("東京タワー ok") == ["東", "京", "タ", "ワ", "ー", "ok"]
    assert tokens("क्षत्रिय नमस्ते") == ["क्षत्रिय", "नमस्ते"]  # vowel signs stay inside the word
    assert tokens("snake_case-and/slash") == ["snake", "case", "and", "slash"]
    assert tokens(None) == [] and tokens(12.5) == ["12", "5"]


def test_rouge_l_edge_cases():
    assert rouge_l("", "") == 1.0 and rouge_l("x", "") == 0.0 and rouge_l("", "x") == 0.0
    assert rouge_l("alpha", "beta") == 0.0
    assert rouge_l("مرحبا بالعالم", "مرحبا") == pytest.approx(2 / 3, abs=1e-6)


def test_exact_numbers_ids_and_tolerance():
    assert exact(10.0, 10.004) == 1.0         # written amounts: to the cent
    assert exact(10.0, 10.05) == 0.0 and exact(23.14, 23.35) == 0.0   # 0.5 % / 0.9 %: another amount
    assert exact(1000, 1005) == 0.0           # integers are exact
    assert exact(3, 3.0) == 1.0 and exact("7", 7) == 1.0
    assert exact(18.53, 18.6, Tolerances(amount_tol=0.1)) == 1.0
    assert exact(18.53, 18.6, Tolerances(rel_tol=0.5)) == 0.0   # the reply tolerance does not apply
    assert numeric(100, 100.5) == 1.0 and exact(100, 101) == 0.0  # numeric() tolerates integers too
    assert close(9.0, 9.009) == 1.0 and close(9.0, 9.5) == 0.0


def test_exact_text_bool_null_and_structures():
    assert exact(" Hello  World ", "hello world") == 1.0 and exact("HIGH", "low") == 0.0
    assert exact(True, "true") == 1.0 and exact(False, True) == 0.0 and exact(True, 1) == 0.0
    assert exact(None, "") == 1.0 and exact(None, []) == 1.0 and exact(None, "x") == 0.0
    assert exact([2, 1, 1], [1, 2, 1]) == 1.0 and exact([2, 1], [1, 2, 2]) == 0.0
    assert exact('["b", "a"]', ["a", "b"]) == 1.0
    assert exact({"a": 1, "b": [1]}, {"b": [1], "a": 1}) == 1.0 and exact({"a": 1}, {"a": 2}) == 0.0
    assert exact("2026-04-20T10:00:00Z", "2026-04-20T12:00:00+02:00") == 1.0


def test_datetime_measures():
    assert datetime_equal("2026-04-20T10:00:00+02:00", "2026-04-20T08:00:00Z") == 1.0
    assert datetime_equal("2026-04-20T10:00:00+02:00", "2026-04-20T10:00:00Z") == 0.0
    assert datetime_equal("2026-04-20T10:00:00", "2026-04-20T10:00:59Z") == 1.0   # naive read as UTC, 59 s
    assert datetime_equal("2026-04-20T10:00:00Z", "2026-04-20T10:05:00Z") == 0.0
    assert datetime_equal("2026-04-20T10:00:00Z", "2026-04-20T10:05:00Z", Tolerances(datetime_tol=timedelta(minutes=10))) == 1.0
    assert datetime_naive_equal("2026-04-20T10:00:00+02:00", "2026-04-20T10:00:00.4Z") == 1.0
    assert datetime_after("2026-04-20T10:00:00Z", "2026-04-20T10:00:01Z") == 1.0
    assert datetime_after("2026-04-20T10:00:00Z", "2026-04-20T10:00:00Z") == 0.0
    assert datetime_equal("2026-04-20", "2026-04-20") == 1.0
    assert datetime_equal("not a date", "not a date") == 1.0  # falls back to exact


def test_set_contains_one():
    assert set_overlap(["a", "b", "c"], ["c", "a"]) == pytest.approx(2 / 3, abs=1e-6)
    assert set_overlap([], None) == 1.0 and set_overlap(["A "], ["a"]) == 1.0 and set_overlap([2], [2.0]) == 1.0
    assert contains("Pier 7", "2026-05-02 at  pier 7!") == 1.0 and contains("Pier 8", "Pier 7") == 0.0
    assert one("x", "y") == 1.0


@pytest.mark.parametrize("column, value, measure", [
    ("id", 5, "exact"), ("receiver_id", 5, "exact"), ("recipient_ids", [1, 2], "set_overlap"),
    ("tags", ["a"], "set_overlap"), ("title", "Trip", "rouge_l"), ("email_body", "hi there", "rouge_l"),
    ("content", "x", "rouge_l"), ("status", "open", "exact"), ("amount", 3.5, "exact"), ("enabled", True, "exact"),
    ("start_datetime", "2026-04-20T10:00:00Z", "datetime_equal"), ("data", {"a": 1}, "exact"),
    ("phone_number", "555-0101", "exact"),
])
def test_default_measures_by_column_and_type(column, value, measure):
    assert default_measure(column, value).__name__ == measure


def test_measure_for_explicit_names_ignore_and_errors():
    assert measure_for("title", "x", "column_ignore_similarity") is None
    assert measure_for("title", "x", "column_exact_match_similarity") is exact
    assert measure_for("title", "x", "column_datetime_similarity") is datetime_after  # the reference's "strictly after"
    bound = measure_for("amount", 1.0, None, Tolerances(amount_tol=0.5))
    assert bound(1.0, 1.4) == 1.0 and exact(1.0, 1.4) == 0.0
    with pytest.raises(ValueError, match="unknown similarity measure 'fuzzy'; known: .*column_rouge_l_similarity"):
        measure_for("title", "x", "fuzzy")
    assert {"exact", "rouge_l", "datetime", "set", "column_rouge_l_similarity"} <= set(MEASURES)


@pytest.mark.parametrize("a, b", [
    ("May 9, 2026", "2026-05-09"), ("9 May 2026", "2026-05-09"), ("Saturday, May 9th, 2026", "2026-05-09"),
    ("05/09/2026", "2026-05-09"), ("2026/5/9", "2026-05-09"), ("25/12/2026", "2026-12-25"),
    ("1234.50 USD", "$1,234.50"), ("USD 1234.5", "1,234.50"), ("EUR 9", "9.00 euros"), ("Total: $9.00", "total: 9"),
])
def test_canonical_text_keeps_meaning_and_drops_format(a, b):
    assert canonical_text(a) == canonical_text(b)


def test_canonical_text_leaves_other_numbers_alone():
    assert canonical_text("415-555-0142") == "415-555-0142"
    assert canonical_text("version 1.2.3, 0042") == "version 1.2.3, 0042"
    assert canonical_text("May I help? 13 items") == "may i help? 13 items"
    assert canonical_text("13/13/2026") == "13/13/2026"   # not a date: left as written


def test_rouge_l_normalises_and_ignores_list_order():
    assert rouge_l("Jazz night 2026-05-09 at Riverside Hall", "jazz night May 9, 2026 at riverside hall") == 1.0
    assert rouge_l("Sunrise Diner $18.53\nCity Parking $9.00", "City Parking 9.00 USD\nSunrise Diner 18.53 USD") == 1.0
    assert rouge_l("apples, pears, plums", "plums; apples; pears") == 1.0
    assert rouge_l("Lumen Hardware, $22.13", "Lumen Hardware, $20.51") < 1.0


def test_padding_never_raises_rouge_l():
    base = "Lumen Hardware total 22.13"
    wrong = "Pine Street Books total 20.51"
    score = rouge_l(base, wrong)
    for pad in ("", " and then some more words", " filler " * 20, "\nextra line, another item"):
        assert rouge_l(base, wrong + pad) <= score + 1e-9
    assert rouge_l(base, base + " filler words here") < rouge_l(base, base) == 1.0


def test_present_ignores_the_expected_value():
    assert present("Collected details", "Summary of changes") == 1.0
    assert present("x", "") == 0.0 and present("x", "   ") == 0.0 and present("x", None) == 0.0
    assert present(None, 0) == 1.0 and present(None, [1]) == 1.0 and present(None, []) == 0.0
    assert MEASURES["present"] is present and measure_for("subject", "x", "present") is present


def test_facts_is_f1_over_the_facts_and_the_extra_items_of_their_pool():
    text = "Receipts: Lumen Hardware 22.13 USD, Pine Street Books $20.51 (May 9, 2026)"
    assert facts(["Lumen Hardware", "$22.13"], text) == 1.0
    assert facts(["Lumen Hardware", "22.31"], text) == pytest.approx(2 / 3, abs=1e-6)  # recall 1/2, precision 1
    assert facts(["2026-05-09", "20.51", "Blue Door"], text) == pytest.approx(0.8, abs=1e-6)
    assert facts('["lumen hardware"]', text) == 1.0 and facts("Pine Street", text) == 1.0
    assert facts([], "anything") == 1.0 and facts(["x"], None) == 0.0
    assert facts(["22.1"], "22.13") == 0.0 and facts(["12"], "costs 120") == 0.0   # whole numbers only
    assert measure_for("body", ["a"], "facts") is facts


def test_a_pool_dump_scores_below_reading_the_image():
    from mmtsb_env.world.pools import ERRANDS

    shown = ["pay water bill", "fix bike tire", "buy cat litter"]
    assert facts(shown, "Errands: pay water bill; fix bike tire; buy cat litter") == 1.0
    dump = "; ".join(ERRANDS)  # every errand the generator knows, none read
    assert facts(shown, dump) == pytest.approx(2 * (3 / 14) / (1 + 3 / 14), abs=1e-6) and facts(shown, dump) < 0.4
    assert facts(shown, "pay water bill; fix bike tire") == pytest.approx(0.8, abs=1e-6)   # one left out
    assert facts(shown, "pay water bill, fix bike tire, buy cat litter, water the ferns") == pytest.approx(6 / 7, abs=1e-6)
    # words outside the pools are not items: prose around the facts costs nothing
    assert facts(shown, "Hi Anne, here are the errands: pay water bill, fix bike tire and buy cat litter. Thanks!") == 1.0


def test_text_contains_handles_scripts_without_spaces():
    assert text_contains("东京", "我在东京工作") and not text_contains("大阪", "我在东京工作")
    assert text_contains("$1,200.00", "total 1200 USD") and not text_contains("1200", "12000")


@pytest.mark.parametrize("written", ["7.30 pm", "7.30pm", "7.30 p.m.", "7:30 PM"])
def test_a_clock_time_with_a_dot_and_am_pm_is_a_time(written):
    assert canonical_text(f"It starts at {written} sharp") == canonical_text("It starts at 19:30 sharp")


def test_an_amount_before_am_pm_words_stays_an_amount():
    assert canonical_text("It costs $7.30 pm") == canonical_text("It costs $7.3 pm")
    assert "19:30" not in canonical_text("It costs $7.30 pm")
