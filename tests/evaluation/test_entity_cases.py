"""Hand-computed entity-diff cases: every expected P/R/F1 below is worked out in the comment.

Notation: a group is (table, operation); S = sum of the Hungarian-paired similarities;
P = S / #actual, R = S / #expected per group; overall P and R are means over groups;
F1 = 2PR / (P + R). Text columns use ROUGE-L F = 2·lcs / (|expected| + |actual|) over tokens.
"""

from __future__ import annotations

import pytest

import mmtsb_env.apps  # noqa: F401  (registers the tables: keys and auto columns)
from mmtsb_env.evaluation import ScoringConfig, Tolerances, score_changes
from mmtsb_env.scenario.model import ExpectedChange

N = "simple_note.notes"
T = "test.things"  # an undeclared table: key "id", no auto columns


def C(table, row, measures=None):
    return ExpectedChange("create", table, row=row, measures=measures or {})


def U(table, key, fields, measures=None):
    return ExpectedChange("update", table, key=key, fields=fields, measures=measures or {})


def D(table, key):
    return ExpectedChange("delete", table, key=key)


def note(i, title="Trip", content="Pack tent", **extra):
    return {"id": i, "user_id": 1, "title": title, "content": content, "tags": [], "pinned": False,
            "created_at": "2026-04-16T09:00:00", "updated_at": "2026-04-16T09:00:00", **extra}


def created(*rows):
    return {"created": list(rows)}


def updated(*pairs):
    return {"updated": [{"before": b, "after": a} for b, a in pairs]}


def deleted(*rows):
    return {"deleted": list(rows)}


TWO_THIRDS = 2 / 3
F1_HALF_ONE = 2 * 0.5 * 1 / 1.5  # P = 0.5, R = 1  -> 0.666667

CASES = [
    # 1. exact match: one create, same values -> S = 1, P = R = 1.
    ("exact_match", [C(N, {"title": "Trip", "content": "Pack tent"})], {N: created(note(5))}, None, 1.0, 1.0, 1.0),
    # 2. text compared by ROUGE-L on case-folded tokens: "Trip" vs "  trip " -> 1.
    ("case_and_spaces", [C(N, {"title": "Trip"})], {N: created(note(5, title="  trip "))}, None, 1.0, 1.0, 1.0),
    # 3. one wrong exact field: title 1, user_id 0 -> row 0.5 -> P = R = 0.5.
    ("one_wrong_exact_field", [C(N, {"title": "Trip", "user_id": 1})], {N: created(note(5, user_id=2))}, None, 0.5, 0.5, 0.5),
    # 4. one partial text field: content "pack the tent" vs "pack tent": lcs 2 -> 2*2/(3+2) = 0.8;
    #    title 1 -> row (1 + 0.8) / 2 = 0.9.
    ("partial_text_field", [C(N, {"title": "Trip", "content": "Pack the tent"})], {N: created(note(5))}, None, 0.9, 0.9, 0.9),
    # 5. extra row in the expected group: pair (E, row5) = 1, row6 unpaired ("Other"/"zzz" share no token)
    #    -> S = 1, P = 1/2, R = 1/1 -> F1 = 2*.5*1/1.5.
    ("extra_row", [C(N, {"title": "Trip", "content": "Pack tent"})],
     {N: created(note(5), note(6, title="Other", content="zzz"))}, None, 0.5, 1.0, F1_HALF_ONE),
    # 6. missing row: 2 expected, 1 made (perfect) -> S = 1, P = 1/1, R = 1/2.
    ("missing_row", [C(N, {"title": "Trip"}), C(N, {"title": "Groceries"})], {N: created(note(5))}, None, 1.0, 0.5, F1_HALF_ONE),
    # 7. nothing done: expected group with no actual rows -> P = R = 0 -> F1 = 0.
    ("nothing_done", [C(N, {"title": "Trip"})], {}, None, 0.0, 0.0, 0.0),
    # 8. empty expectations and no change: no groups -> P = R = F1 = 1.
    ("empty_expectations_no_change", [], {}, None, 1.0, 1.0, 1.0),
    # 9. empty expectations but a write: collateral group P = 0, R = 1 -> F1 = 0.
    ("empty_expectations_collateral", [], {N: created(note(5))}, None, 0.0, 1.0, 0.0),
    # 10. collateral in another table: notes (1, 1) + phone.alarms:create (0, 1) -> P = .5, R = 1.
    ("collateral_other_table", [C(N, {"title": "Trip"})],
     {N: created(note(5)), "phone.alarms": created({"id": 3, "time": "07:00"})}, None, 0.5, 1.0, F1_HALF_ONE),
    # 11. collateral delete: notes (1, 1) + phone.contacts:delete (0, 1) -> same as above.
    ("collateral_delete", [C(N, {"title": "Trip"})],
     {N: created(note(5)), "phone.contacts": deleted({"id": 12, "first_name": "Ana"})}, None, 0.5, 1.0, F1_HALF_ONE),
    # 12. an app-created notification is exempt bookkeeping: only notes (1, 1) is scored.
    ("exempt_notification", [C(N, {"title": "Trip"})],
     {N: created(note(5)), "venmo.notifications": created({"id": 8, "message": "You paid Ana $5"})}, None, 1.0, 1.0, 1.0),
    # 13. no exemption when the scenario expects that group: notifications create, 2 actual:
    #     "Paid" vs "Paid" = 1, vs "Something else" = 0 -> S = 1, P = 1/2, R = 1.
    ("exemption_off_when_expected", [C("venmo.notifications", {"message": "Paid"})],
     {"venmo.notifications": created({"id": 8, "message": "Paid"}, {"id": 9, "message": "Something else"})},
     None, 0.5, 1.0, F1_HALF_ONE),
    # 14. deleting notifications is not exempt (only creates are): collateral alone -> P = 0, R = 1 -> 0.
    ("notification_delete_not_exempt", [], {"venmo.notifications": deleted({"id": 8, "message": "x"})}, None, 0.0, 1.0, 0.0),
    # 15. login session update is exempt: only notes (1, 1).
    ("exempt_login_session", [C(N, {"title": "Trip"})],
     {N: created(note(5)), "device.app_sessions": updated(({"app": "gmail", "user_id": 1, "logged_in": False},
                                                           {"app": "gmail", "user_id": 1, "logged_in": True}))},
     None, 1.0, 1.0, 1.0),
    # 16. an update touching only auto columns (last_logged_in) is no change: no groups -> 1.
    ("auto_column_only_update", [],
     {"simple_note.users": updated(({"id": 1, "last_logged_in": "2026-01-01T00:00:00"}, {"id": 1, "last_logged_in": "2026-04-16T09:00:00"}))},
     None, 1.0, 1.0, 1.0),
    # 17. exact update: key 7, content old -> new -> 1.
    ("update_exact", [U(N, 7, {"content": "new"})], {N: updated((note(7, content="old"), note(7, content="new")))}, None, 1.0, 1.0, 1.0),
    # 18. the wrong row updated: key 8 instead of 7 -> similarity 0, no pair -> P = R = 0.
    ("update_wrong_row", [U(N, 7, {"content": "new"})], {N: updated((note(8, content="old"), note(8, content="new")))},
     None, 0.0, 0.0, 0.0),
    # 19. right row, wrong column changed: pinned expected True but still False (0) and title changed
    #     unasked (extra column, 0) -> (0 + 0) / 2 = 0 -> no pair.
    ("update_wrong_column", [U(N, 7, {"pinned": True})], {N: updated((note(7, title="A"), note(7, title="B")))},
     None, 0.0, 0.0, 0.0),
    # 20. strict updates: content right (1) but title changed too (extra, 0) -> row (1 + 0) / 2 = 0.5.
    ("update_extra_column", [U(N, 7, {"content": "new"})],
     {N: updated((note(7, title="T", content="old"), note(7, title="T2", content="new")))}, None, 0.5, 0.5, 0.5),
    # 21. same diff with strict_updates off: only content counts -> 1.
    ("update_extra_column_lenient", [U(N, 7, {"content": "new"})],
     {N: updated((note(7, title="T", content="old"), note(7, title="T2", content="new")))},
     ScoringConfig(strict_updates=False), 1.0, 1.0, 1.0),
    # 22. auto column moving along with the update is not "extra": updated_at is auto -> 1.
    ("update_auto_column_not_extra", [U(N, 7, {"content": "new"})],
     {N: updated((note(7, content="old"), note(7, content="new", updated_at="2026-04-16T10:00:00")))}, None, 1.0, 1.0, 1.0),
    # 23. punctuation/format only: "$18.53\nCity Parking $9.00" vs "18.53, City Parking 9.00" -> same tokens -> 1.
    ("update_text_punctuation", [U(N, 7, {"content": "Sunrise Diner $18.53\nCity Parking $9.00"})],
     {N: updated((note(7, content="pending"), note(7, content="Sunrise Diner 18.53, City Parking 9.00")))}, None, 1.0, 1.0, 1.0),
    # 24. paraphrase: e = pick up the dry cleaning on friday (7), a = on friday pick up dry cleaning (6);
    #     lcs = "pick up dry cleaning" = 4 -> 2*4/(7+6) = 8/13 = 0.615385.
    ("paraphrased_text", [C(N, {"content": "Pick up the dry cleaning on Friday"})],
     {N: created(note(5, content="On Friday pick up dry cleaning"))}, None, 8 / 13, 8 / 13, 8 / 13),
    # 25. delete the right key -> 1.
    ("delete_exact", [D(N, 7)], {N: deleted(note(7))}, None, 1.0, 1.0, 1.0),
    # 26. delete the wrong key: 8 instead of 7 -> P = R = 0.
    ("delete_wrong_key", [D(N, 7)], {N: deleted(note(8))}, None, 0.0, 0.0, 0.0),
    # 27. one of two deletes: S = 1, P = 1/1, R = 1/2.
    ("delete_one_of_two", [D(N, 7), D(N, 8)], {N: deleted(note(7))}, None, 1.0, 0.5, F1_HALF_ONE),
    # 28. keys compare across int/str: "7" vs 7 -> 1.
    ("delete_key_as_text", [D(N, "7")], {N: deleted(note(7))}, None, 1.0, 1.0, 1.0),
    # 29. timezone-shifted, same instant: 18:00+02:00 == 16:00Z -> title 1, start 1 -> 1.
    ("timezone_same_instant", [C("calendar.events", {"title": "Night Market", "start_datetime": "2026-05-02T18:00:00+02:00"})],
     {"calendar.events": created({"calendar_event_id": "e1", "title": "Night Market", "start_datetime": "2026-05-02T16:00:00+00:00"})},
     None, 1.0, 1.0, 1.0),
    # 30. same wall clock, different zone: 18:00+02:00 vs 18:00Z are 2 h apart -> start 0, title 1 -> 0.5.
    ("timezone_wall_clock_differs", [C("calendar.events", {"title": "Night Market", "start_datetime": "2026-05-02T18:00:00+02:00"})],
     {"calendar.events": created({"calendar_event_id": "e1", "title": "Night Market", "start_datetime": "2026-05-02T18:00:00+00:00"})},
     None, 0.5, 0.5, 0.5),
    # 31. the reference's naive measure ignores zones: same wall clock -> 1.
    ("datetime_naive_measure", [C("calendar.events", {"start_datetime": "2026-05-02T18:00:00+02:00"},
                                  {"start_datetime": "column_datetime_naive_equal_similarity"})],
     {"calendar.events": created({"calendar_event_id": "e1", "start_datetime": "2026-05-02T18:00:00+00:00"})}, None, 1.0, 1.0, 1.0),
    # 32. 30 s apart is within the 1-minute tolerance -> 1.
    ("datetime_within_tolerance", [C("calendar.events", {"start_datetime": "2026-05-02T18:00:00Z"})],
     {"calendar.events": created({"calendar_event_id": "e1", "start_datetime": "2026-05-02T18:00:30Z"})}, None, 1.0, 1.0, 1.0),
    # 33. written amounts match to the cent: 18.53 vs 18.534 -> 1; 23.14 vs 23.35 (0.9 %, within the
    #     1 % reply tolerance) is a different amount -> 0, receiver 1 -> 0.5.
    ("amount_to_the_cent", [C("venmo.transactions", {"amount": 18.53, "receiver_id": 4})],
     {"venmo.transactions": created({"id": 3, "amount": 18.534, "receiver_id": 4})}, None, 1.0, 1.0, 1.0),
    ("amount_off_by_cents", [C("venmo.transactions", {"amount": 23.14, "receiver_id": 4})],
     {"venmo.transactions": created({"id": 3, "amount": 23.35, "receiver_id": 4})}, None, 0.5, 0.5, 0.5),
    # 34. numeric out of tolerance: 18.53 vs 18.0 (2.9 %) -> 0, receiver 1 -> 0.5.
    ("numeric_off", [C("venmo.transactions", {"amount": 18.53, "receiver_id": 4})],
     {"venmo.transactions": created({"id": 3, "amount": 18.0, "receiver_id": 4})}, None, 0.5, 0.5, 0.5),
    # 35. integers (ids) never get the tolerance: 1000 vs 1005 (0.5 %) -> 0, amount 1 -> 0.5.
    ("integer_id_exact", [C("venmo.transactions", {"amount": 5.0, "receiver_id": 1000})],
     {"venmo.transactions": created({"id": 3, "amount": 5.0, "receiver_id": 1005})}, None, 0.5, 0.5, 0.5),
    # 36. the amount tolerance is configurable: at 0.05, 18.53 vs 18.5 passes -> 1.
    ("amount_custom_tolerance", [C("venmo.transactions", {"amount": 18.53, "receiver_id": 4})],
     {"venmo.transactions": created({"id": 3, "amount": 18.5, "receiver_id": 4})},
     ScoringConfig(tolerances=Tolerances(amount_tol=0.05)), 1.0, 1.0, 1.0),
    # 37. a money string against a number: "$18.53" vs 18.53 -> 1.
    ("numeric_money_string", [C("venmo.transactions", {"amount": "$18.53"})],
     {"venmo.transactions": created({"id": 3, "amount": 18.53})}, None, 1.0, 1.0, 1.0),
    # 38. lists in another order (set comparison): {a, b} == {b, a} -> tags 1, title 1 -> 1.
    ("list_other_order", [C(N, {"title": "Trip", "tags": ["b", "a"]})], {N: created(note(5, tags=["a", "b"]))}, None, 1.0, 1.0, 1.0),
    # 39. list partial overlap: Jaccard {a,b,c} vs {a,b} = 2/3.
    ("list_partial", [C(N, {"tags": ["a", "b", "c"]})], {N: created(note(5, tags=["a", "b"]))}, None, TWO_THIRDS, TWO_THIRDS, TWO_THIRDS),
    # 40. explicit exact measure on a list is all-or-nothing: {a,b,c} vs {a,b} -> 0 -> nothing paired.
    ("list_exact_measure", [C(N, {"tags": ["a", "b", "c"]}, {"tags": "column_exact_match_similarity"})],
     {N: created(note(5, tags=["a", "b"]))}, None, 0.0, 0.0, 0.0),
    # 41. Hungarian, not greedy: sims E1-X .8, E1-Y .6, E2-X .6, E2-Y 0. Greedy would take E1-X
    #     (.8 + 0); the optimum pairs E1-Y and E2-X: S = 1.2 -> P = R = 1.2/2 = 0.6.
    ("hungarian_beats_greedy",
     [C(T, {"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}), C(T, {"a": 2, "b": 2, "c": 2, "d": 1, "e": 1})],
     {T: created({"id": 1, "a": 1, "b": 1, "c": 2, "d": 1, "e": 1}, {"id": 2, "a": 1, "b": 1, "c": 1, "d": 3, "e": 3})},
     None, 0.6, 0.6, 0.6),
    # 42. key and auto columns of a create are not compared unless a measure names them:
    #     id 99 vs 5 and created_at ignored; title 1 -> 1.
    ("create_ignores_key_and_auto", [C(N, {"id": 99, "created_at": "2020-01-01T00:00:00", "title": "Trip"})],
     {N: created(note(5))}, None, 1.0, 1.0, 1.0),
    # 43. an explicit ignore drops the column: content ignored, title 1 -> 1.
    ("explicit_ignore", [C(N, {"title": "Trip", "content": "anything"}, {"content": "column_ignore_similarity"})],
     {N: created(note(5, content="something else"))}, None, 1.0, 1.0, 1.0),
    # 44. every column ignored: the row counts by existence (1); a 2nd actual row pairs with nothing
    #     -> S = 1, P = 1/2, R = 1.
    ("all_ignored_counts_existence", [C(N, {"content": "x"}, {"content": "ignore"})],
     {N: created(note(5), note(6))}, None, 0.5, 1.0, F1_HALF_ONE),
    # 45. empty expected values in a create are not compared: content "" skipped; title 1 -> 1.
    ("create_skips_empty_expected", [C(N, {"title": "Trip", "content": ""})], {N: created(note(5, content="whatever"))},
     None, 1.0, 1.0, 1.0),
    # 46. in an update, an empty expected value is meaningful and None == "": label "Gym" -> "" -> 1.
    ("update_clear_value", [U("phone.alarms", 4, {"label": None})],
     {"phone.alarms": updated(({"id": 4, "label": "Gym", "time": "07:00"}, {"id": 4, "label": "", "time": "07:00"}))},
     None, 1.0, 1.0, 1.0),
    # 47. Unicode ROUGE: CJK characters are tokens; e = 会议明天下午三点 (8), a = 明天下午三点会议 (8);
    #     lcs = 明天下午三点 = 6 -> 2*6/16 = 0.75.
    ("unicode_cjk_text", [C(N, {"content": "会议 明天 下午三点"})], {N: created(note(5, content="明天下午三点 会议"))},
     None, 0.75, 0.75, 0.75),
    # 48. macro average over groups: notes create (1, 1) + alarms update not done (0, 0) -> P = R = .5.
    ("macro_average", [C(N, {"title": "Trip"}), U("phone.alarms", 4, {"enabled": False})], {N: created(note(5))},
     None, 0.5, 0.5, 0.5),
    # 49. ignored tables are invisible: the alarms collateral is dropped -> notes (1, 1) only.
    ("ignore_tables_config", [C(N, {"title": "Trip"})], {N: created(note(5)), "phone.alarms": created({"id": 3})},
     ScoringConfig(ignore_tables=frozenset({"phone.alarms"})), 1.0, 1.0, 1.0),
    # 50. a reference spec works directly: REMINDER create, reminder_id ignored, content ROUGE 1 -> 1.
    ("reference_spec_input", [{"operation": "create", "source": "agentsandbox", "namespace": "REMINDER",
                               "entity_data": {"reminder_id": "r9", "content": "Buy milk"},
                               "column_similarity_measure": {"content": "column_rouge_l_similarity"}}],
     {"reminder.reminders": created({"reminder_id": "r1", "content": "buy milk"})}, None, 1.0, 1.0, 1.0),
    # 51. two-token title against one: "Night Market" vs "Market": lcs 1 -> 2*1/(2+1) = 2/3; content absent.
    ("rouge_subset", [C(N, {"title": "Night Market"})], {N: created(note(5, title="Market"))}, None, TWO_THIRDS, TWO_THIRDS, TWO_THIRDS),
]


@pytest.mark.parametrize("expected, diff, config, p, r, f1", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hand_computed_case(expected, diff, config, p, r, f1):
    score = score_changes(expected, diff, config=config)
    assert (score.precision, score.recall, score.f1) == (pytest.approx(p, abs=1e-6), pytest.approx(r, abs=1e-6),
                                                         pytest.approx(f1, abs=1e-6))


def test_there_are_at_least_forty_cases():
    assert len(CASES) >= 40 and len({c[0] for c in CASES}) == len(CASES)


def test_exempted_changes_are_listed_not_scored():
    score = score_changes(CASES[11][1], CASES[11][2])
    assert [g.table for g in score.groups] == [N]
    assert score.exempted == ["venmo.notifications:create 8"]


def test_greedy_trap_pairs_are_the_optimal_ones():
    case = next(c for c in CASES if c[0] == "hungarian_beats_greedy")
    g = score_changes(case[1], case[2]).groups[0]
    assert sorted((i, j) for i, j, _ in g.pairs) == [(0, 1), (1, 0)]
    assert [round(s, 6) for _, _, s in sorted(g.pairs)] == [0.6, 0.6]


def test_update_extra_columns_are_reported():
    case = next(c for c in CASES if c[0] == "update_extra_column")
    d = score_changes(case[1], case[2]).groups[0].details[0]
    assert d.extra_columns == ("title",) and d.columns == {"content": (1.0, "rouge_l")}



def test_download_and_return_counters_are_bookkeeping_not_side_effects():
    """Counting a receipt download or a returned unit is the app's doing (auto columns): not a change at all."""
    from mmtsb_env.evaluation import score_changes
    from mmtsb_env.tools import catalog  # noqa: F401  (every app's tables declared)

    diff = {"amazon.orders": {"created": [], "deleted": [], "updated": [
                {"before": {"id": 1, "tax": 1.0, "receipt_download_count": 0}, "after": {"id": 1, "tax": 1.0, "receipt_download_count": 1}}]},
            "amazon.order_items": {"created": [], "deleted": [], "updated": [
                {"before": {"id": 2, "returned_quantity": 0}, "after": {"id": 2, "returned_quantity": 1}}]},
            "gmail.attachments": {"created": [], "deleted": [], "updated": [
                {"before": {"id": 3, "download_count": 0}, "after": {"id": 3, "download_count": 1}}]}}
    assert score_changes([], diff).f1 == 1.0
    diff["amazon.orders"]["updated"][0]["after"]["tax"] = 9.0  # anything else changed is counted
    assert score_changes([], diff).f1 < 1.0
