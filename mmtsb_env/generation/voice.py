"""How the simulated user words a request: several phrasings per intent and a persona per scenario.

The recipes write one plain wording per intent; :func:`speak` re-words it the way one person
would, deterministically from the scenario's random generator:

* ``PHRASINGS`` -- data: a pattern matching a plain wording and the other ways to say it
  (named groups carry the parts that must survive: image references, descriptions, titles);
* ``PERSONAS`` -- terse, chatty, polite, hurried, non-native, sloppy (typos): openers joined to
  the first sentence (never a stock sentence of their own), closers, and small rewrites.

Values never change: quoted text, paths, emails, amounts and capitalised names are left exactly
as the recipe wrote them (typos only touch long lower-case words outside quotes).
:func:`skeleton` masks names and numbers, the measure the suite tests use for diversity.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

# ---------------------------------------------------------------------------- phrasings (data)
# (pattern over the recipe's wording, alternatives using its named groups); the first match wins.
PHRASINGS: list[tuple[str, list[str]]] = [
    (r"^Go through (?P<ref>.+?) and collect (?P<desc>.+?)\. Then (?P<rest>.+)$", [
        "Go through {ref} and collect {desc}. Then {rest}",
        "Can you pull {desc} out of {ref}? Then {rest}",
        "I need {desc} from {ref}. Once you have it, {rest}",
        "Read {ref} and get {desc}, then {rest}",
        "From {ref}, note down {desc}. After that, {rest}",
        "Take {desc} off {ref} and {rest}",
    ]),
    (r"^Look at (?P<ref>.+?) and find (?P<desc>.+?)\. Then (?P<rest>.+)$", [
        "Look at {ref}, find {desc} and tell me which it is. Then {rest}",
        "Which one is {desc}, going by {ref}? Tell me, then {rest}",
        "Check {ref} for {desc} and let me know what you find. After that, {rest}",
        "Out of {ref}, work out {desc} - tell me which - and then {rest}",
        "I want to know {desc} among {ref}; tell me, and {rest}",
        "Compare {ref} and tell me {desc}. Then {rest}",
    ]),
    (r"^From (?P<ref>.+?), pick out (?P<desc>.+?)\. Then (?P<rest>.+)$", [
        "From {ref}, pick out {desc}. Then {rest}",
        "I only care about {desc} on {ref}. {Rest}",
        "Go over {ref} and keep just {desc}; {rest}",
        "Filter {ref} down to {desc}, then {rest}",
        "Of everything on {ref}, I want {desc}. Please {rest}",
        "Only {desc} from {ref}, please - {rest}",
    ]),
    (r"^Using (?P<ref>.+?), work out (?P<desc>.+?)\. Then (?P<rest>.+)$", [
        "Using {ref}, work out {desc} and tell me the number. Then {rest}",
        "Can you figure out {desc} from {ref}? Tell me what you get, then {rest}",
        "Work out {desc} based on {ref}, let me know the figure, and {rest}",
        "I need {desc}, going by {ref} - tell me the amount. After that, {rest}",
        "Calculate {desc} with {ref} and tell me. Then {rest}",
        "Tell me {desc} for {ref}, and then {rest}",
    ]),
    (r"^Now do the same with (?P<ref>.+?)\. Add what you find to the same (?P<noun>.+?)\.$", [
        "Now do the same with {ref}. Add what you find to the same {noun}.",
        "Same again for {ref}, added to the same {noun}.",
        "Next up: {ref}. Put what you find in that {noun} too.",
        "Do {ref} the same way and add it to the {noun}.",
        "And {ref} - same thing, same {noun}.",
        "Repeat that for {ref}; it all goes in the {noun} you already made.",
    ]),
    (r"^Now redo that using (?P<ref>.+?), and update the (?P<noun>.+?) if the result changes\.$", [
        "Now redo that using {ref}, update the {noun} if the result changes, and tell me the result.",
        "Run it again with {ref}. If the answer changes, fix the {noun} - and tell me what it is now.",
        "Take {ref} into account too: tell me the new result and update the {noun} if needed.",
        "With {ref} included, what's the result now? Tell me, and change the {noun} if it's different.",
        "Redo it over {ref} and let me know the result; only touch the {noun} if it changed.",
    ]),
    (r"^Also (?P<intent>.+?): the same result you just gave me\.$", [
        "Also {intent}: the same result you just gave me.",
        "One more place for it: {intent}, with that same result.",
        "Could you also {intent}? Same result as before.",
        "{Intent} too, with what you just told me.",
        "Then {intent} - the result you already have is fine.",
    ]),
    (r"^Also (?P<intent>.+?): a short summary of what you found and changed\.$", [
        "Also {intent}: a short summary of what you found and changed.",
        "When you're done, {intent} with a quick summary of what you found and changed.",
        "Could you also {intent}? Just summarise what you found and what you changed.",
        "Last thing: {intent}, summing up what you found and changed.",
    ]),
    (r"^Here are more: do the same with (?P<ref>.+?)\.$", [
        "Here are more: do the same with {ref}.",
        "More for you - {ref}, same as before.",
        "Same again with {ref}, please.",
        "Now {ref}, the same way.",
    ]),
]
_COMPILED = [(re.compile(p, re.S), alts) for p, alts in PHRASINGS]
# phrasings that ask the assistant to tell something back (the round's ``report``)
TELLS = re.compile(r"\b(tell me|let me know|what's the result|what it is now)\b", re.I)


def rephrase(rng: random.Random, text: str) -> str:
    """``text`` in one of the other wordings of its intent (unchanged when no pattern matches)."""
    for pattern, alts in _COMPILED:
        m = pattern.match(text)
        if m:
            parts = m.groupdict()
            parts.update({k[:1].upper() + k[1:]: v[:1].upper() + v[1:] for k, v in m.groupdict().items()})
            return rng.choice(alts).format(**parts)
    return text


# ---------------------------------------------------------------------------- personas (data)
@dataclass(frozen=True)
class Persona:
    name: str
    openers: tuple[str, ...]  # joined to the first sentence of the first request
    later: tuple[str, ...]  # joined to the first sentence of later requests (some empty)
    closers: tuple[str, ...]  # appended to some requests
    lowercase: bool = False  # starts sentences in lower case, drops the final full stop
    typos: float = 0.0  # chance per request of one or two typos
    swaps: tuple[tuple[str, str], ...] = ()  # word-level habits


PERSONAS = (
    Persona("terse", ("", "", "ok, ", "right, "), ("", "", "", "next - "), ("", "", "", " Thanks."), swaps=((" please", ""), ("Could you also ", "Also "))),
    Persona("chatty", ("hi, so ", "hey, so ", "okay so this week I'm getting organised and ", "good morning, ", "hiya, quick favour - ",
                       "so I've been meaning to sort this out - ", "alright, here goes - ", "hello again, ", "you're going to love this one - "),
            ("oh and ", "ok next, ", "great, thanks! ", "perfect. ", "nice. ", ""),
            (" Thanks a ton!", " You're a lifesaver.", " Appreciate it!", "", " Cheers!")),
    Persona("polite", ("hello, ", "good afternoon, ", "hi there, if you don't mind - ", "when you have a moment, ", "if it's no trouble, ",
                       "I'd be grateful for your help - "),
            ("thank you. ", "thanks. ", "", "if you could, ", "one more, please - "),
            (" Thank you.", " Thank you very much.", " Many thanks.", "")),
    Persona("hurried", ("quick one - ", "need this fast - ", "in a rush, ", "asap please - ", "no time, so - ", "quickly - "),
            ("next - ", "", "quick - ", "also fast - "), ("", " thx", " ty", " asap"), lowercase=True),
    Persona("non_native", ("hello, I need help - ", "hi, please ", "good day, ", "hello friend, ", "hi, I am asking - "),
            ("now ", "and ", "", "also please "), (" Thank you very much.", " Thanks you.", ""),
            swaps=(("the same ", "same "), ("I just sent", "I send now"), ("from before", "from before time"),
                   ("Can you", "You can"), ("Could you", "You can"), ("don't", "do not"))),
    Persona("sloppy", ("hey ", "yo ", "hi ", "ok ", "so "), ("", "k ", "and ", "now "), ("", " thx", " ty!"), lowercase=True,
            typos=0.8, swaps=((" you ", " u "), ("please", "pls"), ("Please", "pls"), (" and ", " n "), ("thanks", "thx"))),
)
PERSONA_NAMES = tuple(p.name for p in PERSONAS)

_PROTECTED = re.compile(r"'[^']*'|\"[^\"]*\"|\S+@\S+|/\S+|\$?\d[\d,.:\-/]*")


def _outside_quotes(text: str, fn) -> str:
    """Apply ``fn`` to the stretches of ``text`` that are not quoted values, paths, emails or numbers."""
    out, last = [], 0
    for m in _PROTECTED.finditer(text):
        out.append(fn(text[last:m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(fn(text[last:]))
    return "".join(out)


def _typo(rng: random.Random, text: str) -> str:
    words = [(m.start(), m.group(0)) for m in re.finditer(r"\b[a-z]{6,}\b", text)]
    if not words:
        return text
    start, w = rng.choice(words)
    i = rng.randrange(1, len(w) - 2)
    mangled = rng.choice([w[:i] + w[i + 1] + w[i] + w[i + 2:], w[:i] + w[i + 1:], w[:i] + w[i] + w[i:]])
    return text[:start] + mangled + text[start + len(w):]


def _join(opener: str, text: str) -> str:
    if not opener:
        return text
    # keep a capital that starts a name or "I"; lower-case the opening verb
    first = text.split(" ", 1)[0]
    if first not in ("I", "I'm", "I've", "I'd") and not first.isupper() and first[:1].isupper() and first[1:].islower():
        text = text[:1].lower() + text[1:]
    return opener + text


def speak(rng: random.Random, persona: Persona, text: str, *, first: bool) -> str:
    """``text`` worded by ``persona`` (``first``: the conversation's first request)."""
    text = rephrase(rng, text)
    for a, b in persona.swaps:
        text = _outside_quotes(text, lambda s, a=a, b=b: s.replace(a, b))
    text = _join(rng.choice(persona.openers if first else persona.later), text)
    text = text + rng.choice(persona.closers)
    if persona.lowercase:
        text = text[:1].lower() + text[1:]
        if text.endswith(".") and not text.endswith(".."):
            text = text[:-1]
    if persona.typos and rng.random() < persona.typos:
        for _ in range(rng.choice([1, 1, 2])):
            text = _outside_quotes(text, lambda s: _typo(rng, s) if len(s) > 8 else s)
    text = re.sub(r"\s{2,}", " ", text).strip()
    return text[:1].upper() + text[1:] if not persona.lowercase else text


def pick_persona(rng: random.Random) -> Persona:
    return rng.choice(PERSONAS)


# ---------------------------------------------------------------------------- measures
_MASK = re.compile(r"'[^']*'|\"[^\"]*\"|\S+@\S+|/\S+|\$?\d[\d,.:\-/]*|\b[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*)*")


def skeleton(text: str) -> str:
    """``text`` with quoted values, paths, emails, numbers and capitalised names masked, lower-cased."""
    return re.sub(r"\s+", " ", _MASK.sub("#", text)).strip().lower()


def opening_sentence(text: str) -> str:
    """The first sentence of ``text`` (up to the first ., ?, ! or : followed by a space)."""
    m = re.search(r"[.?!:](\s|$)", text)
    return (text[:m.start() + 1] if m else text).strip()
