"""How the simulated user words a request: several phrasings per intent and a persona per scenario.

The recipes write one plain wording per intent; :func:`speak` re-words it the way one person
would, deterministically from the scenario's random generator:

* ``PHRASINGS`` -- data: a pattern matching a plain wording and the other ways to say it
  (named groups carry the parts that must survive: image references, descriptions, titles);
* ``OPENINGS`` -- data of the same shape for the scene-setting first sentence a recipe's
  requests share ("I'm coordinating volunteers."), so no opening repeats across a large suite;
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
        "Could you gather {desc} from {ref}? When that's done, {rest}",
        "Start with {ref}: get me {desc}. Next, {rest}",
        "Please list {desc} for {ref}, and then {rest}",
        "Using {ref}, write down {desc}; then {rest}",
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

# The scene-setting first sentence of a database recipe's request and other ways a person would
# open with it (the sentence a whole recipe otherwise shares; a large suite repeats it).
OPENINGS: list[tuple[str, list[str]]] = [
    (r"I got new business cards from people already in my contacts\.", [
        "I got new business cards from people already in my contacts.", "Some people I already have saved gave me new cards.",
        "A few of my contacts handed me updated business cards.", "I collected cards from people who are already in my phone.",
        "These cards are from people I know; their details may have changed.", "New cards came in from people in my address book.",
        "My contacts might be out of date - I just got fresh business cards.", "People I already know gave me their current cards.",
        "I picked up new cards from some people I've saved before.", "Some of my saved contacts may have new numbers; I have their cards.",
        "After a meetup I have new cards from people I already know.", "These business cards belong to people in my contacts.",
        "I ran into a few people from my contacts and they gave me their cards.", "Some saved contacts just sent me new cards.",
        "I think some of my contacts changed jobs; here are their new cards.", "Updated cards from people I've already got saved.",
        "I swapped cards again with some people I already know.", "Fresh business cards from folks in my phone.",
        "A couple of people in my contacts gave me newer cards.", "I have current cards from people my phone already lists.",
    ]),
    (r"I already took care of one of these myself\.", [
        "I already took care of one of these myself.", "One of these I've handled on my own already.",
        "Heads up, I did one of them myself.", "I sorted one of these out myself earlier.",
        "Just so you know, one of them is done - I did it.", "I've already dealt with one of these.",
        "One of these is taken care of; I did it myself.", "I handled one of them already.",
        "Note that I did one of these myself yesterday.", "I got to one of them before you.",
        "One of these I already did by hand.", "Mind you, I've done one of these myself.",
        "I took care of one of them already, myself.", "Already did one of these on my own.",
    ]),
    (r"These posters are for events I already put in my calendar\.", [
        "These posters are for events I already put in my calendar.", "I entered these events in my calendar a while ago.",
        "I typed these events into my calendar from memory, so some may be off.", "My calendar has these events already, maybe not quite right.",
        "I think I got some event details wrong when I added them to my calendar.", "These are events I saved in my calendar earlier.",
        "I added these events to my calendar in a hurry.", "Some events in my calendar came from these posters.",
        "I put these in my calendar last week and may have mixed things up.",
    ]),
    (r"I have reminders to pay these invoices\.", [
        "I have reminders to pay these invoices.", "I set up payment reminders for these invoices.",
        "There's a reminder in my phone for each of these bills.", "My reminders for these invoices might be set wrong.",
        "I made reminders to pay these, but I'm not sure the dates are right.", "Each of these invoices has a reminder on my phone.",
        "I don't want to miss paying these invoices, and I have reminders for them.", "My phone should remind me to pay each of these.",
    ]),
    (r"A friend sent me some songs\.", [  # the songs come as a note, a photo of one or a shared playlist screen
        "A friend sent me some songs.", "Someone passed me songs they think I'd like.",
        "I got a list of song recommendations.", "My friend picked out some tracks for me to hear.",
        "Here are songs a friend recommended.", "A colleague shared some music with me.",
        "I have a few song tips from a friend.", "My cousin sent over a bunch of songs.",
        "I was given a list of tracks to check out.", "Somebody left me some music suggestions.",
        "I've got song ideas from a friend.", "A friend's playlist ideas are here.",
        "My neighbour told me about a few songs I should hear.", "I was sent some music picks.",
    ]),
    (r"These invoices are from people in my contacts\.", [
        "These invoices are from people in my contacts.", "I owe money to a few people I know.",
        "Some people in my address book sent me invoices.", "I received bills from people who are in my contacts.",
        "A few of my contacts invoiced me for their work.", "These bills come from people I have saved in my phone.",
        "I need to settle up with some people I know.", "Friends of mine did some work for me and sent invoices.",
    ]),
    (r"I'm coordinating volunteers\.", [
        "I'm coordinating volunteers.", "I'm running the volunteer schedule this week.", "I'm in charge of the volunteer shifts.",
        "The volunteer roster is my job this time.", "I'm organising helpers for our event.",
        "I need to let our volunteers know when they're on.", "Our volunteers need their shift times.",
        "I'm sorting out who helps when at the community event.",
    ]),
    (r"I'm checking products in a store\.", [
        "I'm checking products in a store.", "I'm at a shop looking at things.", "I'm standing in a store right now.",
        "I'm out shopping and saw some things.", "I'm browsing a shop in person.", "I found some items at a store today.",
        "I'm looking at products on the shelf here.", "I'm in a store comparing a few things.", "Quick shopping trip today.",
    ]),
    (r"Before I send you some pictures: (?P<ask>what email address do I have saved for .+?)\?", [
        "Before I send you some pictures: {ask}?", "Pictures come in a minute, but first {ask}?",
        "Before the photos, {ask}?", "One thing first - {ask}?", "{Ask}? I'll send the pictures after.",
        "To start with, {ask}?", "I'll share some images soon; {ask}?",
    ]),
    (r"For each of (?P<ref>.+?), find the project with the most hours and add a task titled '(?P<title>[^']*)' to that project in "
     r"Todoist, with the chart's week and the number of hours in the description\.", [
        "For each of {ref}, find the project with the most hours and add a task titled '{title}' to that project in Todoist, "
        "with the chart's week and the number of hours in the description.",
        "Look at {ref}: whichever project logged the most hours gets a Todoist task '{title}', and put the chart's week and "
        "those hours in its description.",
        "On {ref}, pick out the project with the biggest number of hours and give it a task called '{title}' in Todoist; "
        "the description should say the chart's week and the hours.",
        "For the top project by hours on each of {ref}, add a Todoist task named '{title}' to it, noting the chart's week and "
        "the number of hours in the description.",
        "Go through {ref} and find the project with the most hours on each; add '{title}' as a task in that Todoist project, "
        "with the week from the chart and the hours as the description.",
        "Each of {ref} has a project with the most hours - add a task '{title}' to it in Todoist, and write the chart's week "
        "and the hour count in the description.",
        "Which project has the most hours on each of {ref}? Add a task titled '{title}' to that project in Todoist, with the "
        "chart's week and the number of hours in the description.",
    ]),
    (r"I saw (?P<ref>.+?) in a shop\.", [
        "I saw {ref} in a shop.", "I spotted {ref} at a store.", "{Ref} caught my eye in a shop.",
        "While shopping I took pictures of {ref}.", "I found {ref} at a local store.", "I came across {ref} in town.",
    ]),
    (r"Check (?P<ref>.+?) against my contacts and add everyone who isn't there yet, (?P<rest>with their phone number and email, tagged '[^']*')\.", [
        "Check {ref} against my contacts and add everyone who isn't there yet, {rest}.",
        "Go through {ref}: anyone not in my contacts yet should be added, {rest}.",
        "Compare {ref} with my contacts; add the people who are missing, {rest}.",
        "Some people on {ref} may be new to me - add whoever isn't in my contacts, {rest}.",
        "Look at {ref} and save each person I don't have yet, {rest}.",
        "Anyone on {ref} who isn't in my contacts yet: add them, {rest}.",
    ]),
    (r"Check (?P<ref>.+?) against my calendar\.", [
        "Check {ref} against my calendar.", "Compare {ref} with what's in my calendar.", "Look at {ref} and my calendar side by side.",
        "Go through {ref} and see what my calendar already has.", "See which of {ref} are already in my calendar.",
        "Match {ref} against my calendar.",
    ]),
    (r"My note '(?P<title>[^']*)' lists prices for some products\.", [
        "My note '{title}' lists prices for some products.", "I keep prices of some products in my note '{title}'.",
        "There's a price list in my note '{title}'.", "My note '{title}' has prices I wrote down a while back.",
        "I noted some product prices in '{title}'.",
    ]),
    (r"I logged these receipts as expenses in my '(?P<group>[^']*)' Splitwise group\.", [
        "I logged these receipts as expenses in my '{group}' Splitwise group.", "These receipts are already in my '{group}' group on Splitwise.",
        "I entered these receipts in Splitwise, in '{group}'.", "My '{group}' Splitwise group has these receipts as expenses.",
        "I put these receipts into my '{group}' group on Splitwise.",
    ]),
    (r"For each of (?P<ref>.+?), work out which of my payment cards I used \(the receipt shows the last four digits\)", [
        "For each of {ref}, work out which of my payment cards I used (the receipt shows the last four digits)",
        "Which of my cards did I pay with on {ref}? The last four digits are on each receipt, so match them",
        "I paid for {ref} with different cards - use the last four digits printed on them to tell which card",
        "Match each of {ref} to one of my payment cards by the last four digits on it",
        "I used my cards for {ref}; find which one by the last four digits each receipt shows",
        "Work out my payment card for each of {ref} from the last four digits on the receipt",
    ]),
    (r"Here are (?P<ref>.+?) from a few of my devices\.", [
        "Here are {ref} from a few of my devices.", "I took {ref} on several of my devices.",
        "Sending {ref} from the different phones and tablets I have.", "I've got {ref} from a few devices of mine.",
        "Attached: {ref}, one per device.", "I grabbed {ref} from my other devices.",
        "{Ref} come from a few of my gadgets.", "I screenshotted the settings on my other devices: {ref}.",
    ]),
    (r"Here's (?P<ref>.+?), from (?P<device>.+?)\.", [
        "Here's {ref}, from {device}.", "Sending {ref}, taken on {device}.", "I took {ref} on {device}.",
        "{Ref} is from {device}.", "Attached is {ref} from {device}.", "I grabbed {ref} off {device}.",
    ]),
]
_OPENINGS = [(re.compile(p), alts) for p, alts in OPENINGS]


def reopen(rng: random.Random, text: str) -> str:
    """``text`` with its scene-setting first sentence (see ``OPENINGS``) said another way."""
    for pattern, alts in _OPENINGS:
        m = pattern.match(text)
        if m:
            parts = m.groupdict()
            parts.update({k[:1].upper() + k[1:]: v[:1].upper() + v[1:] for k, v in m.groupdict().items()})
            return rng.choice(alts).format(**parts) + text[m.end():]
    return text
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

# a quoted value opens with a quote not inside a word ("that's" is no quote) and closes with one
# not followed by a letter
_PROTECTED = re.compile(r"(?<![A-Za-z])'(?:[^']|'(?=[A-Za-z]))*'(?![A-Za-z])|\"[^\"]*\"|\S+@\S+|/\S+|\$?\d[\d,.:\-/]*")


def _outside_quotes(text: str, fn) -> str:
    """Apply ``fn`` to the stretches of ``text`` that are not quoted values, paths, emails or numbers."""
    out, last = [], 0
    for m in _PROTECTED.finditer(text):
        out.append(fn(text[last:m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(fn(text[last:]))
    return "".join(out)


# words that point at an image or a row (never misspelt: the agent must use them)
_KEEP = frozenset({"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "last", "earlier", "before",
                   "cheapest", "highest", "lowest", "largest", "smallest", "earliest", "latest"})


def _typo(rng: random.Random, text: str) -> str:
    words = [(m.start(), m.group(0)) for m in re.finditer(r"\b[a-z]{6,}\b", text) if m.group(0) not in _KEEP]
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
    if first not in ("I", "I'm", "I've", "I'd") and first[:1].isupper() and (first[1:].islower() or first == "A"):
        text = text[:1].lower() + text[1:]
    return opener + text


def speak(rng: random.Random, persona: Persona, text: str, *, first: bool, lead: str = "", tail: str = "") -> str:
    """``text`` worded by ``persona`` (``first``: the conversation's first request; ``lead`` and
    ``tail``: sentences of the user's story put first and last, :mod:`.story`)."""
    text = reopen(rng, rephrase(rng, text))
    if lead:
        text = f"{lead} {text}"
    if tail:
        text = f"{text.rstrip()} {tail}"
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
