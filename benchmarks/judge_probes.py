"""Red-team probes of the judge's information-accuracy rules, measured over a whole suite.

Each probe rewrites the reference replies (or the written texts) of every scenario it applies to
in one way whose right verdict is known -- a right answer in another layout must pass, a wrong or
uncommitted one must fail -- plays the oracle's work with those replies and counts how often the
rubric judge agrees. Scenarios are chosen by property (what their rounds report, what their images
show), never by id, so the counts stay meaningful after the suites are regenerated.

    python benchmarks/judge_probes.py [--suite nominal] [--only PROBE ...] [--limit N] [--show]

Prints, per probe, ``agreed/cases`` and the cases the judge got wrong (with ``--show``).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import mmtsb_env
from mmtsb_env.baselines.zoo import ZooAgent
from mmtsb_env.evaluation.grounding import image_facts, rivals_of
from mmtsb_env.evaluation.similarity import as_number, text_contains
from mmtsb_env.evaluation.taxonomy import classify
from mmtsb_env.runner import run_episode


@dataclass
class Case:
    """One rewritten episode: the replies (round -> text) and the verdict a correct judge gives."""

    probe: str
    scenario: Any
    replies: dict[int, str]
    should_pass: bool
    kind: str = ""  # the information-accuracy failure kind expected ("" = any)
    category: str = ""  # the primary failure class expected ("" = any)
    steps: dict[int, list[dict[str, Any]]] = field(default_factory=dict)


class Rewritten(ZooAgent):
    """The oracle's work with the case's replies (and written texts) in place of the reference ones."""

    def __init__(self, case: Case) -> None:
        super().__init__([case.scenario])
        self.case = case

    def steps(self, scenario, index):
        return list(self.case.steps.get(index, scenario.rounds[index].solution))

    def closing(self, scenario, index):
        return self.case.replies.get(index, scenario.rounds[index].answer or "Done.")


def play(case: Case) -> tuple[bool, str]:
    """``(the judge agreed, what it said)``."""
    rec = run_episode(case.scenario, Rewritten(case))
    failed = {c["criterion"]: c.get("kind", "") for c in rec.verdict["criteria"] if not c["pass"]}
    primary = classify(rec.verdict)[0]
    said = "pass" if rec.passed else f"{primary} {failed}"
    if case.should_pass:
        return rec.passed, said
    if rec.passed:
        return False, said
    ok = (not case.kind or failed.get("information_accuracy") == case.kind) and \
         (not case.category or primary == case.category)
    return ok, said


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------


def labels(s) -> list[str]:
    """The item names the scenario's images show (a receipt's store, an event's name...)."""
    return [f["label"] for f in image_facts(s) if isinstance(f.get("label"), str) and f["label"].strip()]


def label_in(sentence: str, names: Iterable[str]) -> str:
    """The first item name a sentence holds (the longest of those starting there)."""
    hits = [(sentence.find(n), -len(n), n) for n in names if n in sentence]
    return min(hits)[2] if hits else ""


def sentences(text: str, keep: Iterable[str] = ()) -> list[str]:
    """A reply's sentences as a writer splits them (at a stop followed by a space), never inside
    one of the texts ``keep`` (a quoted message, "L'Oreal Paris No. 3 Hair Dryer Brush")."""
    kept = {f"\x00{i}\x00": x for i, x in enumerate(k for k in keep if re.search(r"[.!?]\s", k))}
    for mark, x in kept.items():
        text = text.replace(x, mark)
    out = [x.strip() for x in re.split(r"(?<=[.!?])\s+", text) if x.strip()]
    for mark, x in kept.items():
        out = [y.replace(mark, x) for y in out]
    return out


def reply_rounds(s) -> list[int]:
    return [k for k, r in enumerate(s.rounds) if r.report and r.answer]


def bullets(answer: str, names: list[str], keep: Iterable[str] = ()) -> str:
    out = ["Here's what I did:"]
    for sentence in sentences(answer, keep):
        name = label_in(sentence, names)
        line = sentence.replace(name, f"**{name}**", 1) if name else sentence
        out.append(f"- {line}")
    return "\n".join(out) + "\n\nLet me know if you need anything else!"


def table(answer: str, names: list[str], numbered: bool = False, keep: Iterable[str] = ()) -> str:
    head = ("| # " if numbered else "") + "| Item | Details |"
    rule = ("|---" if numbered else "") + "|---|---|"
    rows = [head, rule]
    for n, sentence in enumerate(sentences(answer, keep), 1):
        name = label_in(sentence, names)
        rest = re.sub(r"\s+([.,;:])", r"\1", " ".join(sentence.replace(name, " ", 1).split())) if name else sentence
        rows.append((f"| {n} " if numbered else "") + f"| {name or '-'} | {rest} |")
    return "Summary:\n\n" + "\n".join(rows)


def date_items(s) -> dict[str, str]:
    """label -> date of each image item with a date."""
    return {f["label"]: f["date"] for f in image_facts(s)
            if isinstance(f.get("label"), str) and isinstance(f.get("date"), str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", f["date"])}


# ---------------------------------------------------------------------------------------------
# probes
# ---------------------------------------------------------------------------------------------


def layout(style: str, numbered: bool = False) -> Callable[[Any], list[Case]]:
    def probe(s) -> list[Case]:
        rounds = reply_rounds(s)
        if not rounds:
            return []
        names = labels(s)
        keep = [str(x) for r in s.rounds for x in r.report] + names
        fn = (lambda a: bullets(a, names, keep)) if style == "bullets" else (lambda a: table(a, names, numbered, keep))
        return [Case("", s, {k: fn(s.rounds[k].answer) for k in rounds}, True)]
    return probe


def wrong_date(style: str) -> Callable[[Any], list[Case]]:
    """A reported date of an image's item replaced by another item's date, in the given layout."""
    def probe(s) -> list[Case]:
        dates = date_items(s)
        names = labels(s)
        for k in reply_rounds(s):
            for fact in s.rounds[k].report:
                owner = next((n for n, d in dates.items() if d == fact), None)
                other = next((d for n, d in dates.items() if d != fact and d not in s.rounds[k].report), None)
                if owner and other and fact in s.rounds[k].answer:
                    answer = s.rounds[k].answer.replace(fact, other)
                    text = bullets(answer, names) if style == "bullets" else table(answer, names, style == "numbered")
                    return [Case("", s, {k: text}, False, category="factual_error")]
        return []
    return probe


def _choices(s) -> list[tuple[int, str, str, str]]:
    """(round, fact, rival, the answer's sentence stating the fact) of every named choice a round
    reports that a later round could recap (every rival the images show, asserted by the reference
    reply or not)."""
    out = []
    shown = image_facts(s)
    for k in reply_rounds(s):
        if k + 1 >= len(s.rounds):
            continue
        facts = list(s.rounds[k].report)
        for fact in facts:
            if as_number(fact) is not None:
                continue
            said = next((x for x in sentences(s.rounds[k].answer) if fact in x), None)
            rivals = [r for r in rivals_of(fact, shown, list(s.facts) + facts) if r not in said] if said else []
            if said and rivals:
                out.append((k, fact, rivals[0], said))
                break
    return out


def recap_rival(s) -> list[Case]:
    for k, fact, rival, said in _choices(s)[:1]:
        later = len(s.rounds) - 1
        text = (s.rounds[later].answer or "Done.") + " Just to recap the earlier answer: " + said.replace(fact, rival)
        return [Case("", s, {later: text}, False, kind="contradicted")]
    return []


def switch_later(s) -> list[Case]:
    for k, fact, rival, said in _choices(s)[:1]:
        later = len(s.rounds) - 1
        return [Case("", s, {k: s.rounds[k].answer.replace(fact, rival),
                             later: (s.rounds[later].answer or "Done.") + " " + said}, False, kind="contradicted")]
    return []


def honest_recap(s) -> list[Case]:
    for k, fact, rival, said in _choices(s)[:1]:
        later = len(s.rounds) - 1
        text = (s.rounds[later].answer or "Done.") + f" Earlier I compared {rival} and {fact}; " + said
        return [Case("", s, {later: text}, True)]
    return []


def _unscored_field(s) -> tuple[int, int, str, str, str] | None:
    """(round, step, argument, the answer a scored text of the written row names, a rival): a
    written row with a text column no text measure scores (an email's subject) whose scored text
    holds a named answer of a choice the images show."""
    from mmtsb_env.baselines.zoo import _choice_facts

    choices = [c for i in range(len(s.rounds)) for c in _choice_facts(s, i)]
    for change in s.expected_changes:
        if change.operation != "create":
            continue
        measures = change.measures or {}
        loose = [k for k, m in measures.items() if m in ("present", "ignore", "one")]
        scored = " ".join(str(v) for k, v in (change.row or {}).items() if measures.get(k) in ("facts", "rouge_l"))
        pick = next(((f, r[0]) for f, r in choices if f in scored), None)
        if not loose or pick is None:
            continue
        for k, rnd in enumerate(s.rounds):
            for j, step in enumerate(rnd.solution):
                for arg in loose:
                    if isinstance((step.get("arguments") or {}).get(arg), str):
                        return k, j, arg, pick[0], pick[1]
    return None


def unscored_field(named: str) -> Callable[[Any], list[Case]]:
    """The written row's unscored text field (an email's subject) names the rival (should fail) or
    the answer (should pass); the scored text stays right."""
    def probe(s) -> list[Case]:
        found = _unscored_field(s)
        if found is None:
            return []
        k, j, arg, fact, rival = found
        steps = [dict(x) for x in s.rounds[k].solution]
        steps[j] = {**steps[j], "arguments": {**steps[j]["arguments"], arg: f"{rival if named == 'rival' else fact} summary"}}
        return [Case("", s, {}, named != "rival", category="factual_error", steps={k: steps})]
    return probe


def _written_like(value: float, raw: str) -> str:
    """``value`` written as ``raw`` writes its number (decimals, thousands separators)."""
    decimals = len(raw.split(".")[1]) if "." in raw else 0
    return f"{value:,.{decimals}f}" if "," in raw else f"{value:.{decimals}f}"


def _bound_values(s) -> list[tuple[int, str, str, str]]:
    """(round, the reply's sentence from the item on, the raw number it gives for an item an image shows, the
    number a neighbouring item -- the next bar, row or column, else the one before -- has):
    every reply naming a chart's bar (a receipt's line) with its own value right after the name,
    where the neighbour's value is not within the chart's read tolerance of it and the reply does
    not state it already."""
    out = []
    reads = s.metadata.get("value_tolerances") or {}
    for k in reply_rounds(s) + [k for k, r in enumerate(s.rounds) if r.answer and not r.report]:
        answer = s.rounds[k].answer
        for facts in image_facts(s):
            items = [it for it in facts.get("items") or [] if isinstance(it, dict) and isinstance(it.get("name"), str)
                     and isinstance(it.get("amount"), (int, float))]
            for i, it in enumerate(items):
                for sentence in sentences(answer):
                    at = sentence.find(it["name"])
                    if at < 0 or len(it["name"]) < 2:
                        continue
                    m = next((m for m in re.finditer(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.,])\d+(?:\.\d+)?(?![\w])",
                                                      sentence[at + len(it["name"]):])
                              if as_number(m.group(0)) is not None), None)
                    if m is None or abs(as_number(m.group(0)) - it["amount"]) > 1e-9:
                        continue
                    raw = m.group(0)
                    read = max([float(facts.get("read_tolerance") or 0.0)] +
                               [t for v, t in reads.items() if as_number(v) == it["amount"]])
                    for j in (i + 1, i - 1):
                        if not 0 <= j < len(items):
                            continue
                        other = float(items[j]["amount"])
                        said = _written_like(other, raw)
                        if abs(other - it["amount"]) > read and as_number(said) != it["amount"] \
                                and not any(as_number(n) == other for n in re.findall(r"\d[\d,]*(?:\.\d+)?", answer)):
                            # (the sentence from the item on: a title's own number before it -- "Tray 5: Yellow (5)" -- stays)
                            out.append((k, sentence[at:], raw, said, items[j]["name"]))
                            break
    return out


def neighbour_value(where: str) -> Callable[[Any], list[Case]]:
    """F8: an item's value given as its neighbour's (the chart's March value said for April, one
    receipt line's amount for the next), in the reply only or everywhere (reply and written
    texts): a wrong value read from the image, though the number is in it. ``"context"``: the
    right value, with the neighbour's own value beside it as context (must pass)."""
    def probe(s) -> list[Case]:
        found = _bound_values(s)
        if not found:
            return []
        k, sentence, raw, said, name = found[0]
        if where == "context":
            wrong = sentence.replace(raw, f"{raw} ({name}: {said})", 1)
            return [Case("", s, {k: s.rounds[k].answer.replace(sentence, wrong, 1)}, True)]
        wrong = sentence.replace(raw, said, 1)
        replies = {k: s.rounds[k].answer.replace(sentence, wrong, 1)}
        if where == "reply":
            return [Case("", s, replies, False, category="factual_error")]
        pattern = re.compile(r"(?<![\d.,])" + re.escape(raw) + r"(?![\d]|\.\d)")
        steps = {}
        for j, rnd in enumerate(s.rounds):
            new = [json_swap(step, pattern, said) for step in rnd.solution]
            if new != list(rnd.solution):
                steps[j] = new
        return [Case("", s, replies, False, category="factual_error", steps=steps)]
    return probe


def json_swap(step: dict[str, Any], pattern: re.Pattern, said: str) -> dict[str, Any]:
    """A solution step with every string argument's ``pattern`` replaced by ``said``."""
    args = step.get("arguments") or {}
    new = {a: pattern.sub(said, v) if isinstance(v, str) else v for a, v in args.items()}
    return {**step, "arguments": new} if new != args else step


def _forms(true: str, reading: str) -> Callable[[str], str]:
    """A text rewriter: every written form of number ``true`` ("9,570", "9570", "9570.0") becomes
    the same form of ``reading``."""
    plain, read_plain = true.replace(",", ""), reading.replace(",", "")
    forms = {true: reading, plain: read_plain, plain + ".0": read_plain + ".0", plain + ".00": read_plain + ".00",
             f"{float(plain):,.2f}": f"{float(read_plain):,.2f}"}
    pattern = re.compile(r"(?<![\d.,])(?:" + "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True)) + r")(?![\d]|\.\d)")
    return lambda text: pattern.sub(lambda m: forms[m.group(0)], text)


def _swapped(value: Any, true: float, rewrite: Callable[[str], str], reading: float) -> Any:
    """An argument with number ``true`` replaced by ``reading`` in every form: as a number, in text,
    inside lists and objects."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return type(value)(reading) if abs(value - true) < 1e-9 else value
    if isinstance(value, str):
        return rewrite(value)
    if isinstance(value, list):
        return [_swapped(v, true, rewrite, reading) for v in value]
    if isinstance(value, dict):
        return {k: _swapped(v, true, rewrite, reading) for k, v in value.items()}
    return value


def _written_reading(s) -> tuple[str, float] | None:
    """(a value read off a chart to within a tolerance, that tolerance): reported by a round and
    written by a solution step (as a number or in a text, any field), the first such value."""
    for value, tol in (s.metadata.get("value_tolerances") or {}).items():
        true = as_number(value)
        if true is None or not tol or not any(value in r.report for r in s.rounds):
            continue
        rewrite = _forms(value, value + "9")
        if any(_swapped(step.get("arguments") or {}, true, rewrite, true + 1) != (step.get("arguments") or {})
               for r in s.rounds for step in r.solution):
            return value, float(tol)
    return None


def readings_split(same: bool) -> Callable[[Any], list[Case]]:
    """F7: a chart value read within its tolerance once low in every reply and once high in every
    written text (a note, an email body, a payment's amount): two answers, hedged. ``same``: the
    same low reading everywhere (must pass)."""
    def probe(s) -> list[Case]:
        found = _written_reading(s)
        if found is None:
            return []
        value, tol = found
        true = as_number(value)
        decimals = len(value.split(".")[1]) if "." in value else 0
        low, high = (round(true + d * 0.4 * tol, decimals) for d in (-1, 1))
        if low == true or high == true:
            return []
        said = {x: _written_like(x, value) for x in (low, high)}
        written = low if same else high
        replies = {k: _forms(value, said[low])(r.answer) for k, r in enumerate(s.rounds) if r.answer}
        steps = {k: [{**step, "arguments": _swapped(step.get("arguments") or {}, true, _forms(value, said[written]), written)}
                     if "arguments" in step else step for step in r.solution] for k, r in enumerate(s.rounds)}
        return [Case("", s, replies, same, kind="" if same else "hedged", steps=steps)]
    return probe


def choice_form(form: str, should_pass: bool, kind: str = "") -> Callable[[Any], list[Case]]:
    """The first named choice a round reports (with a rival the images show), its sentence in the
    reference reply rewritten with ``form`` ("{f}": the answer, "{r}": the rival) in place of it."""
    def probe(s) -> list[Case]:
        for k, fact, rival, said in _choices(s)[:1]:
            text = s.rounds[k].answer.replace(said, said.replace(fact, form.format(f=fact, r=rival), 1), 1)
            return [Case("", s, {k: text}, should_pass, kind=kind)]
        return []
    return probe


def choice_appended(tail: str, should_pass: bool) -> Callable[[Any], list[Case]]:
    """The reference reply of the first round with a named choice, ``tail`` ("{f}": the answer,
    "{r}": the rival) appended."""
    def probe(s) -> list[Case]:
        for k, fact, rival, said in _choices(s)[:1]:
            return [Case("", s, {k: s.rounds[k].answer + tail.format(f=fact, r=rival)}, should_pass)]
        return []
    return probe


def _first_amount(s) -> tuple[int, str] | None:
    for k in reply_rounds(s):
        for f in s.rounds[k].report:
            f = str(f)
            if f in s.rounds[k].answer and as_number(f) is not None and re.fullmatch(r"[\d,]+\.\d\d", f):
                return k, f
    return None


def amount_form(form: str, should_pass: bool, factor: float = 1.07) -> Callable[[Any], list[Case]]:
    """The first two-decimal amount a round reports, every mention of it in the reference reply
    rewritten with ``form`` ("{f}": the amount, "{w}": a wrong amount ``factor`` times it)."""
    def probe(s) -> list[Case]:
        found = _first_amount(s)
        if found is None:
            return []
        k, f = found
        w = f"{as_number(f) * factor:,.2f}" if "," in f else f"{as_number(f) * factor:.2f}"
        return [Case("", s, {k: s.rounds[k].answer.replace(f, form.format(f=f, w=w))}, should_pass)]
    return probe


def _first_reported(s, pattern: str) -> tuple[int, str] | None:
    for k in reply_rounds(s):
        for f in s.rounds[k].report:
            f = str(f)
            if re.fullmatch(pattern, f) and re.search(r"(?<![\w.:/-])" + re.escape(f) + r"(?![\w:/-]|\.\d)", s.rounds[k].answer):
                return k, f
    return None


def count_off_by_one(s) -> list[Case]:
    """The first count (a whole number up to 31) a round reports, given one higher in its reply."""
    found = _first_reported(s, r"\d{1,2}")
    if found is None or int(found[1]) > 31:
        return []
    k, f = found
    text = re.sub(r"(?<![\w.:/-])" + re.escape(f) + r"(?![\w:/-]|\.\d)", str(int(f) + 1), s.rounds[k].answer)
    return [Case("", s, {k: text}, False)]


def date_off_by_one(s) -> list[Case]:
    """The first date a round reports, given a day later in long form ("May 15, 2026")."""
    import datetime as dt

    found = _first_reported(s, r"\d{4}-\d{2}-\d{2}")
    if found is None:
        return []
    k, f = found
    d = dt.date.fromisoformat(f) + dt.timedelta(days=1)
    return [Case("", s, {k: s.rounds[k].answer.replace(f, f"{d:%B} {d.day}, {d.year}")}, False)]


PROBES: dict[str, Callable[[Any], list[Case]]] = {
    "readings_split": readings_split(False),
    "reading_same": readings_split(True),
    "neighbour_value_reply": neighbour_value("reply"),
    "neighbour_value_everywhere": neighbour_value("everywhere"),
    "neighbour_as_context": neighbour_value("context"),
    "unscored_field_rival": unscored_field("rival"),
    "unscored_field_answer": unscored_field("answer"),
    "bullets_right": layout("bullets"),
    "table_right": layout("table"),
    "table_numbered_right": layout("table", numbered=True),
    "bullets_wrong_date": wrong_date("bullets"),
    "table_wrong_date": wrong_date("table"),
    "numbered_wrong_date": wrong_date("numbered"),
    "recap_rival_later": recap_rival,
    "switch_later": switch_later,
    "honest_recap": honest_recap,
    # one answer or two: forms of naming the rival beside the answer
    "choice_slash": choice_form("{f}/{r}", False, kind="hedged"),
    "choice_spaced_slash": choice_form("{f} / {r}", False, kind="hedged"),
    "choice_french_hedge": choice_form("{f} ou peut-être {r}", False, kind="hedged"),
    "choice_german_hedge": choice_form("{f} oder {r}", False, kind="hedged"),
    "choice_spanish_hedge": choice_form("{f}, o quizás {r}", False, kind="hedged"),
    "choice_struck_answer": choice_form("~~{f}~~ {r}", False),
    "choice_runner_up": choice_form("{f} (runner-up: {r})", True),
    "choice_struck_rival": choice_form("~~{r}~~ {f}", True),
    "amount_slash_wrong": amount_form("{f}/{w}", False),
    "amount_typo_to_wrong": amount_form("{f} (sorry, typo: {w})", False),
    "amount_typo_to_right": amount_form("{w} (sorry, typo: {f})", True),
    "amount_struck_wrong": amount_form("~~{w}~~ {f}", True),
    "amount_in_euros": amount_form("{f} euros", False),
    "amount_in_dollars": amount_form("{f} dollars", True),
    "choice_two_row_table": choice_appended("\n\n| Option | Value |\n|---|---|\n| A | {f} |\n| B | {r} |", False),
    "choice_confidence_table": choice_appended("\n\n| Candidate | Confidence |\n|---|---|\n| {f} | 55% |\n| {r} | 45% |", False),
    "count_off_by_one": count_off_by_one,
    "date_off_by_one": date_off_by_one,
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", default="nominal")
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args(argv)
    scenarios = [s for s in mmtsb_env.load_suite(args.suite) if not s.ui]
    if args.limit:
        scenarios = scenarios[:args.limit]
    for name, probe in PROBES.items():
        if args.only and name not in args.only:
            continue
        cases = [c for s in scenarios for c in probe(s)]
        wrong = []
        for c in cases:
            ok, said = play(c)
            if not ok:
                wrong.append((c.scenario.id, said))
        verdict = "pass" if cases and cases[0].should_pass else "fail"
        print(f"{name:24s} should {verdict}: judge right on {len(cases) - len(wrong)}/{len(cases)}")
        if args.show:
            for sid, said in wrong:
                print(f"    {sid}: {said[:300]}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
