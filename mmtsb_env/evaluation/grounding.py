"""Grounds: every value an episode could truthfully state, and the stated values nothing grounds.

The paper's judge checks the final answer *and* the artifacts against the tool results, the
database and the images, and trusts no claim. Here the **grounds** of an episode are the texts
that hold true values:

* the scenario's own truth (:func:`scenario_grounds`): what each image shows (its declared facts
  and its render content), the rows the scenario seeds, what the user says and changes, the
  reference solution's arguments and answers, the reports, the expected changes, and the dates of
  the two weeks around the scenario's now ("tomorrow" is a true date to state);
* what the episode itself saw: every tool result of either seat, the arguments of the user's
  calls, what the user said.

From those texts :class:`Grounds` collects the true numbers (plus simple arithmetic of the
amounts the images show and the replies must report: halves, sums and differences of pairs, one's
share of the other as a ratio or a percentage; and each date's year), dates and clock times. A **stated value** -- a
number, date or time in an assistant statement (not a question) or in a text or amount the
episode wrote -- is *grounded* when it is one of them: a number when it is a true number rounded
to the precision it is written with (:func:`~mmtsb_env.values.numbers.rounds_to`: "$22" and "22.1" for 22.13, never
"22.14" or "23.13"), a date or time when it is one. Small whole numbers (0-31: counts, days,
hours, list positions) and identifiers of seven or more digits written as part of a longer code
are not judged here unless written as money ("$12"). A stated value nothing grounds contradicts the world: the judge fails
information accuracy (``wrong_claim``).

>>> g = Grounds.from_texts(["Lumen Hardware total $22.13", "Pine Street Books 20.51 on 2026-05-02 at 18:30"])
>>> ungrounded("Lumen was $22.13, vs $20.51 at Pine (about $22).", g)
[]
>>> ungrounded("The note says $22.13 but the total was $23.13; it was on May 3, 2026 at 6:30 PM.", g)
['2026-05-03', '23.13']
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping

from .similarity import canonical_dates, is_id_column, is_text_column
from ..values.numbers import decimals, rounds_to

# a number as written (thousands separators allowed), not part of a word, code or date
_NUMBER = re.compile(r"(?<![\w.\-/:])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w]|\.\d|[:/\-]\d)")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_TIME = re.compile(r"(?<![\d:])(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(?![\d:])")
_PHONE = re.compile(r"(?<![\w])(?:\+?1[\s.-]?)?\(?(\d{3})\)?[\s.-]?(\d{3})[\s.-](\d{4})(?![\w])")
_LONG_DIGITS = re.compile(r"(?<![\w.])\d{7,}(?![\w.])")
_QUESTION = re.compile(r"[^.!?\n]*\?")
SMALL_WHOLE = 31  # whole numbers up to this are counts, days, hours or positions: not judged


def _flatten(value: Any) -> Iterable[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _flatten(v)
    elif isinstance(value, (list, tuple, set)):
        for v in value:
            yield from _flatten(v)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, float):
        yield repr(value) if not value.is_integer() else str(int(value))
    else:
        yield str(value)


def _canon(text: str) -> str:
    return canonical_dates(unicodedata.normalize("NFKC", text))


@dataclass
class Grounds:
    """The true numbers, dates and times of an episode (see the module docstring)."""

    numbers: set[float] = field(default_factory=set)
    rounded: set[tuple[int, float]] = field(default_factory=set)  # (decimals, value rounded to them)
    dates: set[str] = field(default_factory=set)
    times: set[str] = field(default_factory=set)
    digits: set[str] = field(default_factory=set)  # long digit strings (phone numbers, codes)
    phrases: list[str] = field(default_factory=list)  # the texts, lower-cased words only (names are looked up here)
    words: set[str] = field(default_factory=set)  # every word of them
    # (true value, tolerance): values a careful reader reads only to within a tolerance (a bar read
    # off a chart's axis: the image's ``read_tolerance``, the scenario's ``value_tolerances``)
    readable: set[tuple[float, float]] = field(default_factory=set)
    name_words: set[str] = field(default_factory=set)  # the words of the proper names the texts hold
    shown: set[tuple[str, ...]] = field(default_factory=set)  # the names the images show, as word tuples

    @classmethod
    def from_texts(cls, texts: Iterable[str], amounts: Iterable[float] = (), anchors: Iterable[float] | None = None) -> "Grounds":
        """The grounds of ``texts``, plus arithmetic of ``amounts``: each one's half, the total, and
        for each pair with one side among ``anchors`` (the amounts asked for and each image's own
        total; every amount when not given) their sum, difference and ratios. Pairs of two line
        items are left out: with dozens of them their differences cover most small prices, and a
        misread "8.08" for 8.80 would pass as one."""
        g = cls()
        for text in texts:
            g.add_text(text)
        amounts = sorted({a for a in amounts if a and not float(a).is_integer()})[:80]
        keys = set(amounts) if anchors is None else {a for a in anchors if a and not float(a).is_integer()}
        for a in amounts:
            g.add_number(round(a / 2, 2))  # "half is $450.97"
        for i, a in enumerate(amounts):
            for b in amounts[i + 1:]:
                if a not in keys and b not in keys:
                    continue
                g.add_number(round(a + b, 2))
                g.add_number(round(abs(a - b), 2))
                for x, y in ((a, b), (b, a)):  # "7.9% more", "92.7% of it", "1.08 times"
                    if y > 0:
                        g.add_number(round(100 * abs(x - y) / y, 4))
                        g.add_number(round(100 * x / y, 4))
                        g.add_number(round(x / y, 4))
        if amounts:
            g.add_number(round(sum(amounts), 2))
        return g

    def add_number(self, value: float) -> None:
        if value in self.numbers:
            return
        self.numbers.add(value)
        for d in range(4):
            self.rounded.add((d, round(value, d)))

    def add_text(self, text: str) -> None:
        plain = _plain_words(str(text))
        if plain:
            self.phrases.append(plain)
            self.words.update(plain.split())
            for m in _NAME.finditer(str(text)):
                self.name_words.update(w for w in _plain_words(m.group(0)).split() if w not in _everyday())
        t = _canon(str(text))
        for m in _PHONE.finditer(t):
            self.digits.add("".join(m.groups()))
        for m in _LONG_DIGITS.finditer(t):
            self.digits.add(m.group(0))
        for m in _ISO_DATE.finditer(t):
            self.dates.add(m.group(0))
            self.add_number(float(m.group(1)))
        for m in _TIME.finditer(t):
            self.times.add(f"{m.group(1)}:{m.group(2)}")
        for raw in _NUMBER.findall(_TIME.sub(" ", _ISO_DATE.sub(" ", t))):
            self.add_number(float(raw.replace(",", "")))

    def names(self, name: str, after: str = "") -> bool:
        """Whether ``name`` (a proper name a text states) is one of the world's: said as a phrase in
        some true text, or made only of words the world or the tools use (a name the agent composes
        from known words -- "Weekly Lunch Expense" -- is not a misreading)."""
        key = _plain_words(name)
        if not key:
            return True
        if any(f" {key} " in f" {p} " for p in self.phrases):
            return True
        return all(w in self.words or w in _tool_words() for w in key.split()) and not self.misreads(name, after)

    def misreads(self, name: str, after: str = "") -> bool:
        """Whether ``name`` (no true phrase) is a name an image shows with one word swapped:
        "Bramble Bridge Laundromat" for the sign's "Copper Bridge Laundromat" (words the world uses
        elsewhere, in another name's place), "Quarry Mill Drugstore" for "Maple Mill Drugstore".
        ``after``: the text right after the name; a shown name's lower-case or numeric tail that
        follows it belongs to it ("Stainless Mix 500g" for "Trail Mix 500g": the capitalised
        "Stainless Mix" and the tail "500g").

        >>> g = Grounds(shown={("trail", "mix", "500g")})
        >>> g.misreads("Stainless Mix", " 500g, $4.99"), g.misreads("Stainless Mix", ", $4.99"), g.misreads("Trail Mix", " 500g")
        (True, False, False)
        """
        words = _name_words(name)
        tail = _name_words(after)
        for s in self.shown:
            k = len(words)
            if k < 2 or len(s) < k or (len(s) > k and tuple(tail[:len(s) - k]) != s[k:]):
                continue
            if sum(a != b for a, b in zip(s, words)) == 1:
                return True
        return False

    def claims_a_name(self, name: str) -> bool:
        """Whether a capitalised phrase a reply states reads as a name of the world's kind: one of
        its words is a word of the world's names ("... Cafe", "... Hardware", a surname), or an
        unknown word spelled like one ("Lumin" for "Lumen"). A heading or a pleasantry made of
        other words ("Great News", "Quick Recap", "Your Weekend Summary") claims no entity."""
        import difflib

        for w in _plain_words(name).split():
            if w in self.name_words:
                return True
            if len(w) < 4 or w in self.words or w in _tool_words():
                continue
            for n in self.name_words:
                if abs(len(n) - len(w)) <= 2 and n[0] == w[0]:
                    m = difflib.SequenceMatcher(None, w, n)
                    if m.quick_ratio() >= 0.8 and m.ratio() >= 0.8:
                        return True
        return False

    def supports(self, raw: str) -> bool:
        """Whether the number written as ``raw`` is a true number rounded as written."""
        value = float(raw.replace(",", ""))
        d = decimals(raw)
        if d < 4 and (d, round(value, d)) in self.rounded:
            return True
        if any(abs(value - v) <= t + 1e-9 for v, t in self.readable):
            return True
        if d == 0 and value % 10 == 0:
            return any(rounds_to(raw, v) for v in self.numbers if abs(v - value) <= 0.01 * abs(value))
        return any(math.isclose(v, value, abs_tol=1e-9) for v in self.numbers)


def _name_words(text: str) -> tuple[str, ...]:
    """A name's words, a hyphenated word as one ("Open-Air Food Truck Rally": four words)."""
    t = unicodedata.normalize("NFKD", text)
    return tuple(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", "".join(c for c in t if not unicodedata.combining(c)).casefold()))


def _plain_words(text: str) -> str:
    t = unicodedata.normalize("NFKD", text)
    t = "".join(c for c in t if not unicodedata.combining(c)).casefold()
    return " ".join(re.findall(r"[a-z0-9]+", t))


@lru_cache(maxsize=1)
def _everyday() -> frozenset[str]:
    return frozenset(_plain_words(_EVERYDAY).split())


@lru_cache(maxsize=1)
def _tool_words() -> frozenset[str]:
    """The words of every tool's name and description and of everyday English a reply opens with:
    the apps' own vocabulary ("Do Not Disturb", "Wi-Fi") is no misread name."""
    from ..tools.catalog import REGISTRY

    texts = [f"{t.name} {json.dumps(t.schema)}" for t in REGISTRY.values()]
    return frozenset(_plain_words(" ".join(texts)).split()) | frozenset(_plain_words(_EVERYDAY).split())


_EVERYDAY = ("I the a an it its it's my your our this that these those here there done saved added created moved updated "
             "deleted removed sent emailed texted set found okay ok sure yes no please note task event alarm reminder "
             "monday tuesday wednesday thursday friday saturday sunday january february march april may june july "
             "august september october november december am pm usd eur gbp mr mrs ms dr st ave rd "
             "wi fi wifi airplane flight bluetooth cellular mobile data hotspot do not disturb dark light mode low power "
             "location services battery saver flashlight "
             "let me know if you we they he she him her them us need anything else thanks thank hope helps help have has "
             "had was is are be been will would can could should all any more most new now just also only then than "
             "what which who when where why how with without for from to of in on at by about into over under up down "
             "out off again today tomorrow yesterday good great happy best regards hi hello dear team "
             "day week weekend morning afternoon evening news quick recap summary overview update updates changes "
             "details result results next steps all set complete completed success successfully earlier later previously "
             "before after compared checked")
# a proper name: two or more capitalised words (small joining words allowed between them)
_NAME = re.compile(r"(?<![\w'’])[A-Z][\w'’&-]*(?:\s+(?:(?:of|the|and|&|de|la|le|von|van)\s+)?[A-Z][\w'’&-]*)+")
_OPENERS = {"the", "a", "an", "i", "it", "its", "it's", "it’s", "my", "your", "our", "this", "that", "here", "there"}
# a closing wish ("Have a Lovely Evening!", "Enjoy Your Weekend at the Market!", "Safe Travels!")
_WISH = re.compile(r"^[\W_]*(?:have an? |enjoy |happy |safe |take care|good luck|best of luck|wishing |hope you |cheers|"
                   r"stay |all the best|best wishes)", re.IGNORECASE)


def stated_names(text: str) -> list[str]:
    """The proper names a text states (not asks about, not in a closing wish): runs of two or more
    capitalised words, without an opening article or pronoun ("It's Pine Street Books" names "Pine
    Street Books").

    >>> stated_names("Done: I saved the note with Red Barn Diner, total $13.48. It's Pine Street Books.")
    ['Red Barn Diner', 'Pine Street Books']
    >>> stated_names("Saved. Have a Wonderful Day, and Happy Planning! Enjoy Your Weekend at the Market!")
    []
    """
    from .claims import sentences

    out: list[str] = []
    for sentence in sentences(statements(text)):
        if _WISH.match(sentence):  # "Have a Wonderful Day, and Happy Planning!" wishes, it names nothing
            continue
        for m in _NAME.finditer(sentence):
            words = m.group(0).split()
            while words and (words[0].lower() in _OPENERS or not words[0][:1].isupper()):
                words = words[1:]
            if sum(1 for w in words if w[:1].isupper()) >= 2 and " ".join(words) not in out:
                out.append(" ".join(words))
    return out


_HEADING = re.compile(r"[\s#>*_•-]*([A-Z][\w'’&-]*(?:\s+[\w'’&-]+){1,5}?)[\s*_]*(!|:|\s[-—–]\s|$)")


def headings(text: str) -> list[str]:
    r"""Capitalised phrases a text uses as headings or exclamations, not as statements about an
    entity: a phrase opening a line or following a heading, ended by "!", or by ":" or a dash with
    no number in what follows it up to the sentence's end, or making a whole line ("## Next
    Steps", "**Quick Recap:** all done", "Great News! ...").

    >>> headings("Great News! Quick Recap: all done.\n## Next Steps\nRed Barn Diner: $13.48")
    ['Great News', 'Quick Recap', 'Next Steps']
    """
    out: list[str] = []
    for line in text.splitlines():
        pos = 0
        while (m := _HEADING.match(line, pos)) is not None:
            end = m.group(2)
            after = re.split(r"(?<=[.!?])\s", line[m.end():], maxsplit=1)[0]
            if end != "!" and end and re.search(r"\d", after):
                break  # "Lumen Hardware: $22.13" labels a value
            out.append(m.group(1).strip())
            pos = m.end()
    return out


# a confidence figure is no value of the world ("I'm 100% sure", "90 percent certain")
_CONFIDENCE = re.compile(r"\b\d+ ?(?:%|percent) (?:sure|certain|confident)\b", re.IGNORECASE)


def statements(text: str) -> str:
    """``text`` without its questions (a question asserts nothing) and confidence figures."""
    return _CONFIDENCE.sub(" ", _QUESTION.sub(" ", text))


def stated_values(text: str) -> list[tuple[str, str]]:
    """``(kind, value)`` of every number, date and time stated in ``text`` (``kind``: ``"number"``,
    ``"amount"`` -- a number with a currency mark --, ``"date"``, ``"time"``, ``"digits"``), in the
    forms people write them."""
    t = _canon(statements(text))
    out: list[tuple[str, str]] = []
    for m in _PHONE.finditer(t):
        out.append(("digits", "".join(m.groups())))
    t = _PHONE.sub(" ", t)
    for m in _LONG_DIGITS.finditer(t):
        out.append(("digits", m.group(0)))
    t = _LONG_DIGITS.sub(" ", t)
    out += [("date", m.group(0)) for m in _ISO_DATE.finditer(t)]
    t = _ISO_DATE.sub(" ", t)
    out += [("time", f"{m.group(1)}:{m.group(2)}") for m in _TIME.finditer(t)]
    t = _TIME.sub(" ", t)
    for m in _NUMBER.finditer(t):
        money = _MONEY_BEFORE.search(t[:m.start()]) or _MONEY_AFTER.match(t[m.end():])
        out.append(("amount" if money else "number", m.group(0)))
    return out


_MONEY_BEFORE = re.compile(r"[$€£¥₹]\s?$|\b(?:usd|eur|gbp)\s?$", re.IGNORECASE)
_MONEY_AFTER = re.compile(r"\s?(?:dollars?|euros?|pounds?|usd|eur|gbp)\b", re.IGNORECASE)


def ungrounded(text: str, grounds: Grounds) -> list[str]:
    """The values ``text`` states that nothing in ``grounds`` supports (see the module docstring)."""
    bad: list[str] = []
    for kind, value in stated_values(text):
        if kind in ("number", "amount"):
            plain = value.replace(",", "")
            if kind == "number" and "." not in plain and float(plain) <= SMALL_WHOLE:
                continue  # an amount ("$12") is judged however small
            ok = grounds.supports(value)
        elif kind == "date":
            ok = value in grounds.dates
        elif kind == "time":
            ok = value in grounds.times
        else:
            ok = value in grounds.digits or any(value in d or d in value for d in grounds.digits)
        if not ok and value not in bad:
            bad.append(value)
    heads = set(headings(text))
    for name in stated_names(text):  # a sentence's first word is capitalised anyway: "Saved Blue Door Cafe"
        first, _, rest = name.partition(" ")
        verb = _plain_words(first) in _tool_words() | _everyday() and _plain_words(first) not in grounds.name_words
        at = text.find(name)
        after = text[at + len(name):at + len(name) + 40] if at >= 0 else ""
        if grounds.names(name, after) or (verb and " " in rest and grounds.names(rest, after)) or name in bad:
            continue
        if name in heads and not grounds.claims_a_name(name):
            continue  # a heading or a pleasantry ("Great News!", "Quick Recap:"), not an entity
        bad.append(name)
    return bad


def _item_values(image_facts: Iterable[Any]) -> dict[str, set[float]]:
    """Per item name an image shows (a chart category, a volunteer, a receipt line): the numbers
    true of it (its amount, quantity, time...), over every image showing an item of that name."""
    out: dict[str, set[float]] = {}
    for facts in image_facts:
        items = facts.get("items") if isinstance(facts, dict) else None
        for it in items if isinstance(items, list) else []:
            if not isinstance(it, dict) or not isinstance(it.get("name"), str) or len(it["name"]) < 2:
                continue
            values = out.setdefault(it["name"], set())
            for k, v in it.items():
                if k == "name":
                    continue
                for text in _flatten(v):
                    values.update(float(n.replace(",", "")) for n in _NUMBER.findall(_canon(text)))
    return out


_DENIED = re.compile(r"\b(?:not|vs\.?|versus|than|unlike|instead of|rather than)\s*['\"‘“]?$")
_BOUND_GAP = 30  # a count this close after an item's name is a value of that item ("Floor 2 ... at 6")
# a title a number is said in, right after it: "(384) in 'Chart A'", "384 h for Chart A" (the title as its mark)
_TITLE_AFTER = re.compile(r"[^\w#]{0,3}(?:[a-z]{1,6}\.?\s+)?(?:in|on|of|from|for)\s+\W{0,2}(#.#)")


_OWN_KEYS = ("date", "time")


def misattributed(text: str, image_facts: Iterable[Any]) -> list[str]:
    """Dates and times stated for an item an image shows that are another item's, not its own:
    "Riverside Jazz Night on 2026-06-22 at 20:00" when the poster shows it at 17:00 and another
    event at 20:00. Only a clause that names one item and none of its own value for that key counts.

    >>> shown = [{"label": "Jazz Night", "time": "17:00"}, {"label": "Charity Run", "time": "20:00"}]
    >>> misattributed("Jazz Night at 20:00 is the last event.", shown), misattributed("Jazz Night at 17:00.", shown)
    (['20:00'], [])
    """
    from .claims import clauses
    from .similarity import text_contains

    items = [f for f in image_facts if isinstance(f, dict) and isinstance(f.get("label"), str) and f["label"].strip()]
    if len(items) < 2:
        return []
    out: list[str] = []
    for clause, context in clauses(text):
        if context:
            continue
        named = [f for f in items if text_contains(f["label"], clause)]
        if len(named) != 1:
            continue
        own = named[0]
        for key in _OWN_KEYS:
            mine = own.get(key)
            if not isinstance(mine, str) or text_contains(mine, clause):
                continue
            for other in items:
                value = other.get(key)
                if isinstance(value, str) and value != mine and value not in out and text_contains(value, clause):
                    out.append(value)
    return out


def _neighbour_values(image_facts: Iterable[Any]) -> dict[str, set[float]]:
    """Per item name an image shows: the values of the *other* items of the same image (its
    neighbouring bars, rows, columns), over every image showing an item of that name."""
    out: dict[str, set[float]] = {}
    for facts in image_facts:
        per = _item_values([facts])
        for name in per:
            out.setdefault(name, set()).update(v for other, values in per.items() if other != name for v in values)
    return out


def misbound(text: str, image_facts: Iterable[Any]) -> list[str]:
    """Numbers stated right after an item an image shows that are not that item's: a small whole
    number (which grounding does not judge) that is none of its values ("Mon at 3" when the chart
    shows Mon at 2), and any number that is another item's value of the same image, read within
    its tolerance, and none of the item's own ("Apr: 354" when the chart shows Mar at 354 and Apr
    at 394): a neighbour's value given as the item's is a wrong value, though the image holds the
    number. Only the first number within a short distance after the name, in the same sentence,
    counts; the image's title between them ("Jan in 'Electricity Use 2025' at 384") is no distance.

    >>> shown = [{"label": "Parcels - Tray 3", "items": [{"name": "Mon", "amount": 2.0}, {"name": "Tue", "amount": 3.0}]}]
    >>> misbound("The lowest is Mon in 'Parcels - Tray 3' at 2.", shown), misbound("The lowest is Mon at 3.", shown)
    ([], ['3'])
    >>> misbound("I added 3 tasks for Mon.", shown), misbound("The lowest is Tue (runner-up: Mon) at 3.", shown)
    ([], [])
    >>> chart = [{"label": "Sales", "read_tolerance": 5.0, "items": [{"name": "Mar", "amount": 354.0}, {"name": "Apr", "amount": 394.0}]}]
    >>> misbound("Apr: 354.", chart), misbound("Apr: 396 (Mar: 354).", chart), misbound("Apr is 40 above Mar.", chart)
    (['354'], [], [])
    """
    from .claims import sentences
    from .similarity import canonical_text

    image_facts = list(image_facts)
    items = _item_values(image_facts)
    if not items and sum(1 for f in image_facts if isinstance(f, dict) and isinstance(f.get("amount"), (int, float))) < 2:
        return []
    others = _neighbour_values(image_facts)
    readable = read_values(image_facts)

    def reads(value: float, values: set[float]) -> bool:
        """``value`` is one of ``values`` or, off a chart's axis, within the tolerance of one."""
        return value in values or any(abs(value - v) <= tol + 1e-9 for v, tol in readable if v in values)

    # each image title becomes one mark (a title's own numbers, "Tray 3", are not values; the
    # title between an item and its number is no distance); a title names the image it speaks of
    titled: dict[str, list[Any]] = {}
    for facts in image_facts:
        if isinstance(facts, dict) and isinstance(facts.get("label"), str) and facts["label"].strip():
            titled.setdefault(canonical_text(facts["label"]), []).append(facts)
    marks = {label: f"#{chr(0xE000 + i)}#" for i, label in enumerate(sorted(titled, key=len, reverse=True))}
    of_mark = {marks[label]: (_item_values(titled[label]), _neighbour_values(titled[label])) for label in titled}

    def amounts(facts: list[Any]) -> set[float]:
        return {float(f["amount"]) for f in facts if isinstance(f.get("amount"), (int, float)) and not isinstance(f.get("amount"), bool)}

    # an image named by its title: its own numbers, and the other images' amounts (a receipt's total
    # given for another receipt: "Hollow Leaf Bookshop $59.69" when that is Heron Arch Bistro's)
    of_title = {marks[label]: ({float(x.replace(",", "")) for v in _flatten(facts) for x in _NUMBER.findall(_canon(v))},
                               set().union(*(amounts(f) for other, f in titled.items() if other != label)) if amounts(facts) else set())
                for label, facts in titled.items()}
    out: list[str] = []
    for sentence in sentences(statements(text)):
        t = _canon(sentence)
        for label, mark in marks.items():
            t = re.sub(re.escape(label), mark, t)
        t = _TIME.sub(lambda m: "#" * len(m.group(0)), _ISO_DATE.sub(lambda m: "#" * len(m.group(0)), t))
        spans = []
        for name in items:
            key = canonical_text(name)
            for m in re.finditer(r"(?<![0-9a-z.])" + re.escape(key) + r"(?![0-9a-z]|\.\d)", t):
                spans.append((m.start(), m.end(), name))
        spans += [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"#.#", t) if m.group(0) in of_title]
        spans.sort()
        for k, (start, end, name) in enumerate(spans):
            # (a title between an item and its number is no distance: only another item stops it)
            stop = min([s for s, _, n in spans[k + 1:] if name in of_title or n not in of_title] + [end + _BOUND_GAP, len(t)])
            m = _NUMBER.search(t, end)
            if m is None or m.start() >= stop or m.group(0) in out or _DENIED.search(t[:start]):
                continue  # ("X, not Y at $34.88": what follows a denied name is not said of it)
            if ")" in t[end:m.start()] and t[:start].count("(") > t[:start].count(")"):
                continue  # ("X (runner-up: Y) at $204.60": the number is said of what stands outside the parenthesis)
            value = float(m.group(0).replace(",", ""))
            if name in of_title:  # an image's title and the number right after it
                own, other = of_title[name]
                if not reads(value, own) and reads(value, other):
                    out.append(m.group(0))
                continue
            own, other = items[name], others.get(name, set())
            # the image the number is given for: a title between the item and its number, else one
            # the number is said "in" right after it ("Jan had the most (384) in Chart A"), else the
            # last title before the item ("Chart A: Jan (384)")
            said = re.findall(r"#.#", t[end:m.start()]) or [a.group(1) for a in [_TITLE_AFTER.match(t, m.end())] if a] \
                or re.findall(r"#.#", t[:start])[-1:]
            if said and said[-1] in of_mark and name in of_mark[said[-1]][0]:
                own, other = of_mark[said[-1]][0][name], of_mark[said[-1]][1][name]
            if reads(value, own):
                continue
            small = "." not in m.group(0) and value <= SMALL_WHOLE
            if (small and value not in items[name]) or reads(value, other):
                out.append(m.group(0))
    return out


def scenario_grounds(scenario: Any) -> list[str]:
    """The scenario's own true values as texts: images (declared facts and render content), seeded
    rows, the user's words and state changes, the reference solution and answers, reports, facts
    and expected changes."""
    parts: list[Any] = [scenario.description, scenario.reference_time, list(scenario.facts), scenario.initial_entities]
    for image in scenario.images:
        parts += [image.facts, (image.render or {}).get("content")]
    for rnd in scenario.rounds:
        parts += [rnd.query, rnd.instructions, rnd.answer, list(rnd.report), [c.answer for c in rnd.clarifications],
                  [step.get("arguments") for step in rnd.solution], [step.get("say") for step in rnd.solution],
                  [(c.row, c.fields) for c in rnd.state_changes]]
    parts += [(c.row, c.fields) for c in scenario.expected_changes]
    parts += _days_around(scenario.reference_time)
    return [t for t in _flatten(parts) if t]


RELATIVE_DAYS = 14  # "tomorrow", "next Friday": dates this close to the scenario's now are true dates to state


def _days_around(reference_time: str) -> list[str]:
    from datetime import date, timedelta

    try:
        today = date.fromisoformat(str(reference_time)[:10])
    except ValueError:
        return []
    return [(today + timedelta(days=k)).isoformat() for k in range(-RELATIVE_DAYS, RELATIVE_DAYS + 1)]


def image_facts(scenario: Any) -> list[dict[str, Any]]:
    """What each image of a scenario shows: its declared facts, or (for images declared without
    them) its render content."""
    return [dict(im.facts) if im.facts else dict((im.render or {}).get("content") or {}) for im in scenario.images]


def image_amounts(image_facts: Iterable[Any]) -> list[float]:
    """The non-whole amounts the images show (their sums and differences are true too)."""
    out: list[float] = []
    for text in _flatten(list(image_facts)):
        try:
            value = float(text)
        except ValueError:
            continue
        if not value.is_integer():
            out.append(value)
    return out


def _roles(facts: Any, role: str = "") -> Iterable[tuple[str, str]]:
    """``(role, text)`` of every text an image's facts hold: ``label``, ``items.name``, ``venue``..."""
    if isinstance(facts, dict):
        for k, v in facts.items():
            yield from _roles(v, f"{role}.{k}" if role else k)
    elif isinstance(facts, (list, tuple)):
        for v in facts:
            yield from _roles(v, role)
    elif isinstance(facts, str) and facts.strip():
        yield role, facts


def shown_texts(image_facts: Iterable[Any]) -> list[str]:
    """Every non-numeric text the images show (labels, item names, venues, dates...)."""
    return [text for facts in image_facts for _, text in _roles(facts) if not as_plain_number(text)]


def of_another_image(fact: str, image_facts: Iterable[Any], candidates: Iterable[str] = (),
                     answer: str = "") -> Callable[[str], bool]:
    """A test of a sentence: does it speak of an image other than the fact's? It does when it names
    an image's title (the longest that fits; a title that is itself one of ``candidates``, a
    receipt's store, names a candidate, not an image) and none of the fact's own titles: those the
    reference reply ``answer`` names in its sentences stating ``fact``, else those of the images
    showing it ("The highest value is Wed in 'Weekly Cycling' at 41" speaks of the cycling chart, not
    of the electricity chart whose highest month is the fact).

    >>> shown = [{"label": "Cycling", "items": [{"name": "Wed", "amount": 41.0}]},
    ...          {"label": "Electricity Use", "items": [{"name": "Jan", "amount": 411.0}]}]
    >>> other = of_another_image("Jan", shown)
    >>> other("The highest is Wed in 'Cycling' at 41."), other("In 'Electricity Use' it is Wed."), other("It is Wed.")
    (True, False, False)
    """
    from .similarity import canonical_text, text_contains

    keys = {canonical_text(c) for c in [fact, *candidates]}
    titles: dict[str, bool] = {}
    for facts in image_facts:
        label = facts.get("label") if isinstance(facts, dict) else None
        if isinstance(label, str) and label.strip() and canonical_text(label) not in keys:
            shows = any(text_contains(fact, v) for v in _flatten({k: v for k, v in facts.items() if k != "label"}))
            titles[label] = titles.get(label, False) or shows

    def named_in(sentence: str) -> list[str]:
        named = [t for t in titles if text_contains(t, sentence)]
        return [t for t in named if not any(t != u and canonical_text(t) in canonical_text(u) for u in named)]

    from .claims import sentences, states

    said = [t for x in sentences(answer) if states(fact, x) for t in named_in(x)]
    if said:
        titles = {t: t in said for t in titles}
    if not any(titles.values()):  # no image of the fact's own is known: no sentence speaks of another
        return lambda sentence: False

    def test(sentence: str) -> bool:
        named = named_in(sentence)
        return bool(named) and not any(titles[t] for t in named)

    return test


def rivals_of(fact: str, image_facts: Iterable[Any], exclude: Iterable[str] = ()) -> list[str]:
    """The other candidates of a choice whose answer is ``fact``: every text the images show in the
    role ``fact`` has there (other receipts' stores, other events' names or dates, other chart
    categories), except ``exclude`` (the other values asked for) and texts that contain ``fact``
    or that ``fact`` contains.

    >>> shown = [{"label": "Lumen Hardware", "date": "2026-05-02"}, {"label": "Pine Street Books", "date": "2026-05-04"}]
    >>> rivals_of("Lumen Hardware", shown), rivals_of("2026-05-04", shown), rivals_of("22.13", shown)
    (['Pine Street Books'], ['2026-05-02'], [])
    """
    from .similarity import canonical_text

    key = canonical_text(fact)
    if not key or as_plain_number(fact):
        return []
    pairs = [pair for facts in image_facts for pair in _roles(facts)]
    roles = {role for role, text in pairs if canonical_text(text) == key}
    skip = {canonical_text(x) for x in exclude} | {key}
    out: list[str] = []
    for role, text in pairs:
        c = canonical_text(text)
        if role in roles and c not in skip and key not in c and c not in key and text not in out and not as_plain_number(text):
            out.append(text)
    return out


def value_rivals_of(fact: str, image_facts: Iterable[Any], exclude: Iterable[float] = ()) -> list[str]:
    """The other candidates of a numeric answer ``fact``: the values the images show in the role
    ``fact`` has there (the other receipts' amounts, the other bars' values), except those close to
    ``exclude`` (the other values asked for).

    >>> shown = [{"label": "Lumen", "amount": 22.13}, {"label": "Pine", "amount": 20.51}]
    >>> value_rivals_of("22.13", shown), value_rivals_of("Lumen", shown)
    (['20.51'], [])
    """
    try:
        value = float(str(fact).replace(",", "").lstrip("$"))
    except ValueError:
        return []
    pairs: list[tuple[str, float]] = []

    def walk(facts: Any, role: str) -> None:
        if isinstance(facts, dict):
            for k, v in facts.items():
                walk(v, f"{role}.{k}" if role else k)
        elif isinstance(facts, (list, tuple)):
            for v in facts:
                walk(v, role)
        elif isinstance(facts, (int, float)) and not isinstance(facts, bool):
            pairs.append((role, float(facts)))

    for facts in image_facts:
        walk(facts, "")
    roles = {role for role, v in pairs if abs(v - value) < 1e-9}
    skip = [value, *exclude]
    out: list[str] = []
    for role, v in pairs:
        text = f"{v:.2f}" if not v.is_integer() else str(int(v))
        if role in roles and not any(abs(v - x) < 1e-9 for x in skip) and text not in out:
            out.append(text)
    return out


def as_plain_number(text: str) -> bool:
    try:
        float(str(text).replace(",", "").lstrip("$"))
        return True
    except ValueError:
        return False


_CURRENCY_OF = {"$": "usd", "usd": "usd", "dollar": "usd", "dollars": "usd", "€": "eur", "eur": "eur", "euro": "eur",
                "euros": "eur", "£": "gbp", "gbp": "gbp", "¥": "jpy", "jpy": "jpy", "yen": "jpy", "₹": "inr", "inr": "inr",
                "rupee": "inr", "rupees": "inr", "chf": "chf", "franc": "chf", "francs": "chf"}
# an amount with its currency ("$31.15", "31.15 euros", "EUR 31.15"); "pounds" is left out: a weight too
_SIGN = r"[$€£¥₹]|\b(?:usd|eur|gbp|jpy|inr|chf)\b"
_WITH_CURRENCY = re.compile(rf"(?<![\w.])(?:({_SIGN})\s?)?(\d[\d,]*(?:\.\d+)?)"
                            rf"(?:\s?({_SIGN}|\b(?:dollars?|euros?|yen|rupees?|francs?)\b))?", re.IGNORECASE)


def _currencies(m: re.Match[str]) -> set[str]:
    return {_CURRENCY_OF[x.casefold()] for x in (m.group(1), m.group(3)) if x}


def currencies_in(text: str) -> set[str]:
    """The currencies of the amounts a text writes ("usd", "eur", ...)."""
    return set().union(*(_currencies(m) for m in _WITH_CURRENCY.finditer(text)))


def foreign_amounts(text: str, known: set[str]) -> list[str]:
    """The amounts ``text`` writes in a currency none of the episode's true texts uses (``known``:
    their :func:`currencies_in`): "31.15 euros" for a price tag of $31.15 states another amount.

    >>> foreign_amounts("It costs 31.15 euros (EUR 2.00 off), not $30; $5 euros.", {"usd"}), foreign_amounts("€5", set())
    (['31.15 euros', 'EUR 2.00', '$5 euros'], [])
    """
    if not known:
        return []
    return [m.group(0).strip() for m in _WITH_CURRENCY.finditer(text) if _currencies(m) - known]


def episode_grounds(ev: Any) -> Grounds:
    """The :class:`Grounds` of an :class:`~.judge.Evidence`: its ``grounds`` texts (the scenario's),
    its tool results, the user's words and calls, the facts, reports and expected changes."""
    texts: list[str] = list(ev.grounds)
    texts += [ev.user_text(), ev.description, *ev.facts, *(f for r in ev.reports for f in r)]
    for c in ev.calls:
        texts += list(_flatten(c.get("result")))
        if c.get("error"):
            texts.append(str(c.get("error")))
        if c.get("seat") == "user":
            texts += list(_flatten(c.get("arguments")))
    for change in ev.expected_changes:
        texts += list(_flatten([change.get("row"), change.get("fields")]))
    for e in ev.conversation:
        if e.get("sender") != "assistant" and e.get("kind") not in ("message",):
            texts.append(str(e.get("content") or ""))
    texts += list(_flatten(ev.image_facts))
    asked = [float(f) for f in [*ev.facts, *(f for r in ev.reports for f in r)] if _plain_float(f) is not None]
    anchors = asked + [float(x) for x in _looked_up(ev)] + [a for facts in ev.image_facts for a in image_amounts([_top_level(facts)])]
    g = Grounds.from_texts(texts, image_amounts(ev.image_facts) + asked, anchors)
    # the total and the mean of the images' own amounts ("All 5 together come to $174.12"): extra
    # true information a careful reader may add
    tops = [float(f["amount"]) for f in ev.image_facts if isinstance(f, Mapping) and isinstance(f.get("amount"), (int, float))
            and not isinstance(f.get("amount"), bool)]
    if len(tops) >= 2:
        g.add_number(round(sum(tops), 2))
        g.add_number(round(sum(tops) / len(tops), 2))
    g.readable = read_values(ev.image_facts, ev.metadata)
    g.shown = {_name_words(t) for t in shown_texts(ev.image_facts) if len(_name_words(t)) >= 2}
    return g


def image_values(image_facts: Iterable[Any]) -> list[float]:
    """Every value an item of an image has (each bar of a chart, each line of a receipt)."""
    return sorted({v for values in _item_values(list(image_facts)).values() for v in values})


def _top_level(facts: Any) -> Any:
    """An image's own values (its total, its amount), without the lists of items it shows."""
    return {k: v for k, v in facts.items() if not isinstance(v, (list, dict))} if isinstance(facts, dict) else {}


def _looked_up(ev: Any) -> list[str]:
    """The non-whole amounts the expected changes write (read or computed values)."""
    out = []
    for change in ev.expected_changes:
        for value in ((change.get("row") if change.get("operation") == "create" else change.get("fields")) or {}).values():
            if isinstance(value, float) and not value.is_integer():
                out.append(repr(value))
    return out


def read_values(image_facts: Iterable[Any], metadata: Any = None) -> set[tuple[float, float]]:
    """``(true value, tolerance)`` of every value a careful reader reads only to within a
    tolerance: each item an image shows with a ``read_tolerance`` (a chart read off its axis),
    and the scenario's ``value_tolerances`` (those values and what is computed from them)."""
    from .similarity import read_tolerances

    out = set(read_tolerances(metadata or {}))
    for facts in image_facts:
        tol = facts.get("read_tolerance") if isinstance(facts, dict) else None
        if not isinstance(tol, (int, float)) or isinstance(tol, bool) or tol <= 0:
            continue
        for value in _item_values([facts]).values():
            out |= {(v, float(tol)) for v in value}
    return out


def _plain_float(text: Any) -> float | None:
    try:
        return float(str(text))
    except ValueError:
        return None


def written_values(diff: dict[str, Any]) -> list[tuple[str, str]]:
    """``(where, text)`` of every text and amount an episode wrote: text columns and non-whole
    numbers of created rows and of the changed columns of updated rows (ids, flags, timestamps
    are not statements, nor are the apps' own bookkeeping rows: notifications, sessions, codes)."""
    from .entity_diff import DEFAULT_EXEMPTIONS

    out: list[tuple[str, str]] = []
    for table, d in diff.items():
        rows = [(r, None) for r in d.get("created", []) if not any(e.covers(table, "create") for e in DEFAULT_EXEMPTIONS)]
        rows += [(u["after"], u.get("before")) if isinstance(u, dict) else (u[1], u[0]) for u in d.get("updated", [])
                 if not any(e.covers(table, "update") for e in DEFAULT_EXEMPTIONS)]
        for row, old in rows:
            for col, value in row.items():
                if old is not None and old.get(col) == value:
                    continue
                if isinstance(value, str) and is_text_column(col):
                    out.append((f"{table}.{col}", value))
                elif isinstance(value, float) and not value.is_integer() and not is_id_column(col):
                    out.append((f"{table}.{col}", repr(value) if len(repr(value)) < 12 else f"{value:.2f}"))
                elif isinstance(value, list) and is_text_column(col):
                    out.append((f"{table}.{col}", json.dumps(value, ensure_ascii=False)))
    return out
