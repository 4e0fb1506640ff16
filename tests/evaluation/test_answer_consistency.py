"""Red-team findings on the nominal suite (session 11): the answer the user is left with must be
committed and right. Each case perturbs the reference replies of a real nominal scenario."""

from __future__ import annotations

import re

import mmtsb_env
from mmtsb_env.baselines.zoo import ZooAgent
from mmtsb_env.runner import run_episode

NOMINAL = {s.id: s for s in mmtsb_env.load_suite("nominal")}
SCENARIOS = list(NOMINAL.values())
JAZZ = "Riverside Jazz Night on 2026-06-22 at 17:00 is the last event."
RIVAL = "Garden Charity Run on 2026-06-22 at 17:00 is the last event."


class Edited(ZooAgent):
    """The reference replies, each passed through ``edit(round, reply)``."""

    def __init__(self, edit):
        super().__init__(SCENARIOS)
        self.edit = edit

    def closing(self, scenario, index):
        return self.edit(index, scenario.rounds[index].answer or "Done.")


def failed(rec):
    return {c["criterion"]: c.get("kind") for c in rec.verdict["criteria"] if not c["pass"]}


def play(sid, edit):
    return run_episode(NOMINAL[sid], Edited(edit))


def test_the_reference_replies_pass():
    assert play("nominal/0001", lambda i, b: b).passed and play("nominal/0024", lambda i, b: b).passed


def test_a_later_round_giving_a_rival_as_the_answer_contradicts_it():  # F1
    rec = play("nominal/0001", lambda i, b: b + " Just to recap the earlier answer: " + RIVAL if i == 3 else b)
    assert failed(rec) == {"information_accuracy": "contradicted"}


def _chosen_amount_then_more_rounds():
    """The first nominal scenario with a round reporting a choice among its images (an image's label,
    then its amount) followed by another round: the scenario, the last round and a rival's amount."""
    for s in SCENARIOS:
        amounts = {im.facts["label"]: im.facts["amount"] for im in s.images
                   if im.facts and im.facts.get("label") and isinstance(im.facts.get("amount"), float)}
        for k, r in enumerate(s.rounds[:-1]):
            if len(r.report) >= 2 and r.report[0] in amounts and r.report[1] == f"{amounts[r.report[0]]:,.2f}":
                rival = next((a for x, a in amounts.items() if x != r.report[0]), None)
                if rival is not None:
                    return s, len(s.rounds) - 1, rival
    raise AssertionError("no nominal round reports a chosen image's amount before another round")


def test_a_later_round_giving_another_amount_contradicts_it():  # F1, amounts
    s, last, rival = _chosen_amount_then_more_rounds()
    rec = play(s.id, lambda i, b: b + f" Recap of the amount you asked about: ${rival:,.2f}." if i == last else b)
    # a switch is a factual error: "contradicted", or "wrong_values" when the reply restates the round's own sentence with another value
    assert failed(rec).get("information_accuracy") in ("contradicted", "wrong_values") and len(failed(rec)) == 1, s.id


def test_a_wrong_answer_switched_later_without_saying_so_fails():  # F2
    rec = play("nominal/0001", lambda i, b: b.replace("Riverside Jazz Night", "Garden Charity Run") if i == 0
               else b + " " + JAZZ if i == 1 else b)
    assert failed(rec) == {"information_accuracy": "contradicted"}


def test_a_wrong_answer_corrected_explicitly_passes():
    wrong = "Garden Charity Run on 2026-05-25 at 20:00 is the last event."  # a whole wrong answer, its own date and time
    rec = play("nominal/0001", lambda i, b: b.replace(JAZZ, wrong) if i == 0
               else b + " Correction: I misread the poster earlier. " + JAZZ if i == 1 else b)
    assert rec.passed, failed(rec)


def test_a_rival_as_context_in_a_later_round_is_fine():
    rec = play("nominal/0001", lambda i, b: b + " (Garden Charity Run was not the last one.)" if i == 3 else b)
    assert rec.passed, failed(rec)


# F3: an answer offered as an estimate, or beside another candidate, commits to nothing
HEDGED = [
    lambda b: b + " Alternatively, Garden Charity Run.",
    lambda b: b.replace("Riverside Jazz Night", "likely Riverside Jazz Night"),
    lambda b: b + " Garden Charity Run is also a possibility.",
    lambda b: b + " That's my best guess.",
    lambda b: b + " Please double-check though, I may have misread it.",
    lambda b: b + " It could also be Garden Charity Run.",
    lambda b: b + " Garden Charity Run is a close contender for it.",
    lambda b: b + " Garden Charity Run is tied with it.",
    lambda b: "It seems that " + b[0].lower() + b[1:],
    lambda b: b + " Or Garden Charity Run.",
    lambda b: b + " I'm not 100% sure about this, the image was hard to read.",
]


def test_hedge_wordings_do_not_commit():
    for k, hedge in enumerate(HEDGED):
        rec = play("nominal/0001", lambda i, b: hedge(b) if i == 0 else b)
        assert failed(rec) == {"information_accuracy": "hedged"}, (k, hedge(JAZZ))


def test_politeness_around_a_committed_answer_passes():
    for tail in (" Let me know if you need anything else!", " Hope this helps.", " Happy to help with more."):
        rec = play("nominal/0001", lambda i, b: b + tail if i == 0 else b)
        assert rec.passed, (tail, failed(rec))


# F4: the user's wrong claimed value (metadata.error_claims) is a rival candidate
def test_offering_the_users_wrong_value_beside_the_right_one_fails():
    """The first nominal scenario whose reply corrects an amount the user claimed ("$31.15, not $21.15")."""
    s, k, said, right, wrong = next((s, c["round"], f"${c['right']}, not ${c['wrong']}", c["right"], c["wrong"])
                                    for s in SCENARIOS for c in s.metadata.get("error_claims") or []
                                    if f"${c.get('right')}, not ${c.get('wrong')}" in s.rounds[c["round"]].answer)
    for offer in (f"one of:\n- {right}\n- {wrong}\n", f"{right}, though {wrong} is also plausible"):
        rec = play(s.id, lambda i, b: b.replace(said, offer) if i == k else b)
        assert failed(rec) == {"information_accuracy": "hedged"}, (s.id, offer)
    assert play(s.id, lambda i, b: b).passed


# F9: a date said without its year, in the year spoken of, is the date
def test_a_right_date_without_its_year_passes():
    for said in ("June 5", "Fri 5 Jun", "Friday, June 5", "5th of June"):
        rec = play("nominal/0007", lambda i, b: b.replace("2026-06-05", said))
        assert rec.passed, (said, failed(rec))


def test_a_wrong_day_or_weekday_without_the_year_fails():
    for said in ("June 6", "Thu 5 Jun"):
        rec = play("nominal/0007", lambda i, b: b.replace("2026-06-05", said))
        assert not rec.passed, said


def test_a_rival_restated_as_the_answer_later_in_the_same_reply_contradicts_it():  # F1, last round
    rec = play("nominal/0020", lambda i, b: b + " Just to recap the earlier answer: Harvest Pottery Workshop on 2026-05-14 "
               "at 15:00 is the first event." if i == 1 else b)
    assert failed(rec) == {"information_accuracy": "contradicted"}


def test_a_sign_read_wrong_then_right_is_a_switch_not_a_correction():  # F2: "actually" corrects the user, not itself
    # the first scenario whose first round corrects the user's reading of one sign, with a later round
    # (the generator names the sign by its ordinal, "The second sign", or "This sign" when there is one)
    s, which, true, claimed = next((s, *m.groups()) for s in SCENARIOS if len(s.rounds) > 1
                                   for m in [re.match(r"(Th\w+ (?:\w+ )?sign) actually shows (\d\d:\d\d), not (\d\d:\d\d);",
                                                      s.rounds[0].answer or "")]
                                   if m and s.rounds[0].report[:1] == (m.group(2),))
    wrong = next(t for t in ("08:00", "11:00", "06:00") if t not in (true, claimed))
    rec = play(s.id, lambda i, b: b.replace(f"shows {true}", f"shows {wrong}") if i == 0
               else b + f" {which} actually shows {true}, not {claimed}; I went by the image." if i == 1 else b)
    # a switch is a factual error: "contradicted", or "wrong_values" when the reply restates the round's own sentence with another value
    assert failed(rec).get("information_accuracy") in ("contradicted", "wrong_values") and len(failed(rec)) == 1, s.id


# F6: a value stated for an item must be that item's value
def test_the_right_event_with_another_events_time_fails():
    rec = play("nominal/0001", lambda i, b: b.replace("at 17:00", "at 12:00"))  # 12:00 is Garden Jazz Night's
    assert failed(rec) == {"information_accuracy": "wrong_claim"}


# A candidate the round's reference reply names with something else said of it ("X isn't on your wish
# list") given later what is said of the answer ("Moved X to your cart") is a second answer.
def _named_candidates(limit=4):
    """(scenario, round, fact, candidate, the reference sentence stating the fact): a named answer of
    a round and another candidate its reference reply names with something else said of it, in a
    scenario with a later round."""
    from mmtsb_env.evaluation.grounding import image_facts, rivals_of

    out = []
    for s in SCENARIOS:
        for k, rnd in enumerate(s.rounds[:-1]):
            for fact in rnd.report:
                said = next((x for x in re.split(r"(?<=[.!?])\s+", rnd.answer or "") if fact in x), None)
                named = [r for r in rivals_of(fact, image_facts(s), list(rnd.report)) if said and r in rnd.answer and r not in said]
                if named:
                    out.append((s, k, fact, named[0], said))
                    break
            if out and out[-1][0] is s:
                break
    return out[:limit]


def test_a_candidate_the_reference_names_given_the_answer_later_contradicts_it():
    cases = _named_candidates()
    assert len(cases) == 4
    for s, k, fact, other, said in cases:
        last = len(s.rounds) - 1
        recap = lambda i, b: b + " Just to recap the earlier answer: " + said.replace(fact, other) if i == last else b
        assert failed(play(s.id, recap)) == {"information_accuracy": "contradicted"}, (s.id, said, other)
        switch = lambda i, b: b.replace(fact, other) if i == k else b + " " + said if i == last else b
        rec = play(s.id, switch)
        # a user who gives up on the switched round never hears the later answer: the fact is then never stated
        later = "missing_facts" if (rec.user_dynamics or {}).get("gave_up") else None
        assert failed(rec).get("information_accuracy") in ("contradicted", "hedged", "wrong_values", later), (s.id, said, other)
        honest = lambda i, b: b + f" Earlier I compared {other} and {fact}; " + said if i == k + 1 else b
        assert play(s.id, honest).passed, (s.id, failed(play(s.id, honest)))


class Rewrites(ZooAgent):
    """The reference work with one solution step's argument replaced."""

    def __init__(self, round_index, step_index, argument, value):
        super().__init__(SCENARIOS)
        self.at, self.argument, self.value = (round_index, step_index), argument, value

    def steps(self, scenario, index):
        steps = [dict(x) for x in scenario.rounds[index].solution]
        if index == self.at[0]:
            j = self.at[1]
            steps[j] = {**steps[j], "arguments": {**steps[j]["arguments"], self.argument: self.value}}
        return steps


def _unscored_fields(limit=3):
    """(scenario, round, step, argument, answer, rival): a written row whose scored text (a facts
    body) names the answer of a choice, with a text column no text measure scores (a subject)."""
    from mmtsb_env.baselines.zoo import _choice_facts

    out = []
    for s in SCENARIOS:
        choices = [c for i in range(len(s.rounds)) for c in _choice_facts(s, i)]
        for change in (c for c in s.expected_changes if c.operation == "create"):
            measures = change.measures or {}
            loose = [k for k, m in measures.items() if m == "present"]
            scored = " ".join(str(v) for k, v in (change.row or {}).items() if measures.get(k) in ("facts", "rouge_l"))
            pick = next(((f, r[0]) for f, r in choices if f in scored), None)
            hits = [(k, j, a) for k, rnd in enumerate(s.rounds) for j, step in enumerate(rnd.solution) for a in loose
                    if isinstance((step.get("arguments") or {}).get(a), str)] if pick and loose else []
            if hits:
                out.append((s, *hits[-1], *pick))  # the last write: an earlier one (a draft) may be deleted later
                break
    return out[:limit]


def test_an_unscored_field_naming_the_rival_is_a_wrong_value():  # an email's subject names the other receipt
    cases = _unscored_fields()
    assert len(cases) == 3
    for s, k, j, arg, fact, rival in cases:
        rec = run_episode(s, Rewrites(k, j, arg, f"{rival} summary"))
        assert failed(rec).get("information_accuracy") == "wrong_values", (s.id, arg, rival, failed(rec))
        assert run_episode(s, Rewrites(k, j, arg, f"{fact} summary")).passed, (s.id, arg, fact)
