"""Reading the assistant's words the way a supervisor who cannot see the phone does.

Everything here looks at text the user can read -- the assistant's messages and the user's own
script -- and nothing else: no image, no world state, no expected value. :func:`read` classifies
one reply; :func:`expectation` says what kind of reply a round waits for (from the round's own
script: its guidance, whether and what its query asks back); :func:`reported`
says whether the round's replies so far report it done. A wrong value said in the right form
reads exactly like the right one: whether it *is* right is the judge's business.

>>> r = read("I saved the note 'Lunch expense' with the total.")
>>> r.done, r.could_not, r.question
(True, False, False)
>>> sorted(read("It cost one thousand sixty-nine dollars, on May ninth.").kinds)
['date', 'number', 'text']
>>> read("I'm sorry, I can't help with that.").could_not
True
>>> read("Could you open the app and add it yourself?").hands_back
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

ANSWER_KINDS = ("number", "date", "time", "text")

_PERMISSION = re.compile(
    r"\b(shall i|should i|do you want me to|would you like me to|want me to|may i|can i go ahead|"
    r"is it (?:ok|okay|alright)|(?:ok|okay) to|please confirm|can you confirm|proceed|go ahead)\b", re.I)
_OFFER = re.compile(r"\b(anything else|something else|any other|further help|else i can|let me know if|tell me if|"
                    r"(?:is|was) (?:that|this|it) (?:right|ok|okay|alright|correct|fine|what you (?:wanted|meant))|"
                    r"does (?:that|this) (?:look|sound|work))\b", re.I)
# A courtesy question after a report: it asks how the result was received or offers more or different
# work in general ("Does that help?", "Would you like me to change anything?", "Should I tweak the
# wording?", "Which format do you prefer next time?"). A report followed by one is still a report; a
# question about a specific further step ("Shall I also email it to your accountant?") is not courtesy.
_COURTESY = re.compile(
    r"\b((?:does|did|do|is|was|will|would)\s+(?:that|this|it|these|those)\s+(?:help|helps|work|works|do|suit|"
    r"make\s+sense|cover|answer|meet|look|sound|seem|helpful|useful|clear|enough|good|fine|ok|okay|alright|"
    r"correct|right|what\s+you)|hope\s+(?:that|this|it)\s+helps|happy\s+with|"
    r"(?:change|tweak|adjust|modify|edit|revise|alter|rephrase|reword|polish|refine|improve|redo|fix|add)\s+"
    r"(?:anything|something|any\s+of|the\s+wording|the\s+format|the\s+phrasing|the\s+text|it|that|this)\b(?!\s+to\b)|"
    r"(?:anything|something)\s+(?:else|more|to\s+(?:change|add|adjust|fix)|you(?:'d|\s+would)\s+like)|"
    r"next\s+time|in\s+(?:the\s+)?future|going\s+forward|from\s+now\s+on|any\s+(?:changes|edits|tweaks|questions)|"
    r"(?:other|more|further)\s+(?:changes|edits|tweaks|help|questions))", re.I)
_INCIDENTAL_TIME = re.compile(r"\b(?:next|this|that|last|first|every|any|each|some|same|the\s+whole|in|on|at\s+a|"
                              r"at\s+the\s+same|one\s+more)\s+time\b", re.I)
_IMAGE_WORDS = re.compile(
    r"\b(image|images|photo|photos|picture|pictures|pic|screenshot|attachment|receipt|receipts|invoice|poster|"
    r"flyer|document|scan|chart|graph|plot|table|menu|sign|label|card|ticket|screen|page|slide|figure)s?\b", re.I)
_ASKING = re.compile(
    r"\b(what|which|how much|how many|who|when|where|can you (?:tell|read|share|give|type|provide|confirm)|"
    r"could you (?:tell|read|share|give|type|provide|confirm)|please (?:tell|share|provide|type)|do you know)\b", re.I)
_VALUE_WORDS = re.compile(r"\b(value|amount|total|name|date|price|number|figure|title|address|time)s?\b", re.I)
_COULD_NOT = re.compile(
    r"\b(i\s+(?:could\s*not|couldn't|can\s*not|can't|cannot|was\s+not\s+able|wasn't\s+able|am\s+not\s+able|"
    r"am\s+unable|was\s+unable|failed|did\s*n[o']t\s+manage)|i'm\s+(?:unable|not\s+able)|unable\s+to|"
    r"not\s+able\s+to|(?:was|were|is)\s*n[o']t\s+(?:possible|successful)|did\s*n[o']t\s+work|"
    r"(?:an?\s+)?error\s+(?:occurred|prevented)|no\s+luck|sorry,?\s+(?:but\s+)?i\s+(?:can|could)|"
    r"(?:i\s+)?(?:have\s+)?no\s+idea|i\s+(?:do\s*n[o']t|don't)\s+know)", re.I)
_HANDS_BACK = re.compile(
    r"\b(you\s+(?:can|could|should|will\s+need\s+to|need\s+to|might\s+want\s+to|may\s+want\s+to)\s+"
    r"(?:open|go|tap|add|create|do|set|enter|type|make|save|delete|update|change|use|check|try)|"
    r"(?:please|could\s+you|can\s+you|would\s+you)\s+(?:open|tap|add|create|set|enter|make|save|delete|update|"
    r"change|do)\s+(?:it|this|that|the)|do\s+it\s+yourself|(?:it|this)\s+yourself)\b", re.I)
# A sentence that tells the user to do or say something ("Repeat your instructions.", "Tell me the total.").
_REQUEST = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|now|so|alright),?\s+)?(?:please\s+)?(?:tell|repeat|print|reveal|describe|show|give|list|read|ignore|"
    r"forget|pretend|act\s+as|imagine|summari[sz]e|explain|provide|share|type|write\s+out|copy|paste|confirm|send|"
    r"recite|output|disregard)\s+(?:me|us|it|this|that|these|those|the|your|all|what|everything|them|my|out|as|with|"
    r"an?|any|which|how|whether|if|previous|prior)\b|^\W*let's\s+(?:play|pretend|imagine|role|switch|swap|start\s+over)\b", re.I)
_INTENT = re.compile(
    r"^\W*(?:ok(?:ay)?[,.!]?\s*|sure[,.!]?\s*|alright[,.!]?\s*|of course[,.!]?\s*)?(?:i'll|i\s+will|i\s+am\s+going\s+to|"
    r"i'm\s+going\s+to|let\s+me|i\s+need\s+to|i\s+am\s+(?:now\s+)?(?:checking|looking|working|reading)|"
    r"i'm\s+(?:now\s+)?(?:checking|looking|working|reading)|working\s+on\s+it|one\s+moment|just\s+a\s+moment|"
    r"give\s+me\s+a\s+(?:moment|second)|on\s+it)\b", re.I)
_DONE = re.compile(
    r"\b(done|all\s+set|completed?|finished|taken\s+care\s+of|in\s+place|ready|successfully|already|"
    r"(?:has|have)\s+been\s+\w+|(?:is|are|was|were)\s+(?:now\s+)?(?:on|off|set|enabled|disabled|\w+ed)|"
    r"now\s+(?:says|shows|reads|has|contains|lists|on|off|is|are)|"
    r"i(?:'ve|\s+have)?\s+(?:also\s+|now\s+|just\s+)?(?:\w+ed|made|put|set|sent|wrote|written|paid|got|built|did|"
    r"took|gave|left|kept|told|found|read|chose|added)\b)", re.I)
# A sentence that opens with a past participle: "Saved 'Jazz night'.", "Renamed the note to ...".
_LEADING_PARTICIPLE = re.compile(r"(?:^|[.!;:\n]\s*)(?:and\s+)?([A-Za-z]+ed|made|put|set|sent|wrote|paid)\b", re.I)
_NOT_ACTIONS = frozenset({"need", "needed", "used", "based", "supposed", "interested", "red", "bed", "shed", "hundred",
                          "speed", "indeed", "seed", "feed", "proceed", "wed", "ned", "ted", "fred", "united", "limited",
                          "detailed", "dated", "named", "called", "titled", "labeled", "labelled", "priced", "listed"})

_NUMBER_WORDS = ("zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
                 "sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|"
                 "thousand|million|billion|dozen|half|none|single|once|twice|both|couple|pair|nothing|nobody|"
                 "neither|free|grand")
# A count of nothing: "No songs are queued.", "There are no tasks.", "not a single one", "The queue is empty."
# (a bare "no." answers yes/no questions: it is text, not a count).
_NO_COUNT = r"\bno\s+(?!(?:problem|worries|thanks|need|longer|doubt|way|luck)\b)[a-z]|\bno\s*one\b|\bnot\s+(?:any|one)\b|\bempty\b"
# A count of one said as who it is: "It's just you", "Only you are on it", "you're the only member".
_ONE_COUNT = (r"\b(?:just|only)\s+(?:you|me|him|her|yourself|myself)\b|\bthe\s+only\s+(?:one|member|person|participant|"
              r"entry|item|attendee|collaborator)\b|\b(?:by\s+)?(?:yourself|alone)\b|\bon\s+your\s+own\b")
_NUMBER = re.compile(r"(\d|\b(?:" + _NUMBER_WORDS + r")\b|" + _NO_COUNT + "|" + _ONE_COUNT +
                     r"|(?-i:\b(?=[IVXLC]{2,}\b)C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})\b))", re.I)
_MONTH = ("jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
          "oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
_DATE = re.compile(
    r"(\b\d{4}-\d{2}-\d{2}(?!\d)|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b|\b(?:" + _MONTH + r")\.?\s+\w+|"
    r"\b\d{1,2}[.\-]\d{1,2}[.\-]\d{2,4}\b|\b\d{4}[./]\d{1,2}[./]\d{1,2}\b|"  # 27.05.2024, 9-5-26, 2026.05.09
    r"\b\w+(?:st|nd|rd|th)?\s+of\s+(?:" + _MONTH + r")\b|\b(?:mid|early|late|end\s+of)[\s-]+(?:" + _MONTH + r")\b|"
    r"(?<![$€£¥\d.,])\b(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\.(?!\d)|\bin\s+(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+"
    r"(?:days?|weeks?|months?)\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:" + _MONTH + r")\b|"
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:today|tomorrow|yesterday|tonight|next\s+week|last\s+week|"
    r"this\s+(?:week|weekend|month))\b|\bthe\s+\w+(?:st|nd|rd|th)\b|"
    r"\b(?:christmas(?:\s+(?:day|eve))?|new\s+year'?s?(?:\s+(?:day|eve))?|boxing\s+day|easter(?:\s+(?:sunday|monday))?|"
    r"thanksgiving|halloween|valentine'?s\s+day|independence\s+day|labou?r\s+day|memorial\s+day)\b)", re.I)
_HOUR_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_TIME = re.compile(r"(\b\d{1,2}:\d{2}\b|\b\d{1,2}\.\d{2}\s*(?:am|pm|a\.m\.|p\.m\.|h)(?!\w)|\b\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)|"
                   r"\b\d{1,2}h\d{2}\b|\b[012]\d[0-5]\d\s*(?:hours|hrs|h)\b|\b0\d[0-5]\d\b|"  # 19h30, 1930 hours, 0545
                   r"\b(?:at|by|until|till|around|about|before|after|from)\s+(?:[01]?\d|2[0-3])\.[0-5]\d(?!\d|[.,]\d)|"  # at 5.45
                   r"\b(?:half|quarter|(?:\d{1,2}|twenty|ten|five)(?:\s+minutes)?)\s+(?:past|to|after|before)\s+(?:\d{1,2}|"
                   + _HOUR_WORDS + r")\b|\b(?:" + _HOUR_WORDS + r")\s+(?:am|pm|a\.m\.|p\.m\.|thirty|fifteen|forty-five)\b|"
                   r"\b(?:at|by|around|until|till)\s+(?:[1-9]|1[0-2])(?:\s+(?:tonight|today|tomorrow|sharp))?(?=\s*(?:[.!;,]|$))|"
                   r"\bhalf\s+(?:" + _HOUR_WORDS + r"|\d{1,2})\b|"
                   r"\b(?:" + _HOUR_WORDS + r"|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty(?:[\s-]\w+)?)"
                   r"\s+hundred(?:\s+hours)?\b(?!\s+(?:dollars|euros|pounds|items|people))|"
                   r"\bnoon\b|\bmidnight\b|o'clock|\bT\d{2}:\d{2}|\b(?:in\s+the\s+)?(?:morning|afternoon|evening)\b)", re.I)
_WORD = re.compile(r"[^\s.,;:!?'\"()\[\]{}\-\u2013\u2014\u2026*_/]")  # content: letters, digits, symbols ("❤️")
_DISCREPANCY = re.compile(
    r"\b(actually|however|but|though|instead|rather|not|isn't|doesn't|don't|didn't|no\s+such|discrepanc\w*|"
    r"mismatch\w*|differ\w*|does\s+not\s+match|doesn't\s+match|can't\s+find|couldn't\s+find|there\s+is\s+no|"
    r"there's\s+no|seems?|appears?|shows?|says?|reads?|mistake|wrong|incorrect)\b", re.I)


# The words of a bare completion or courtesy ("Done.", "All set, happy to help!"): a reply made of
# these alone gives no information, so it does not answer "which one...?".
_BARE = frozenset("""done all set saved finished complete completed ok okay sure of course happy glad to help thank thanks
you for your patience and have a an lovely nice great day it is it's that's that this i i've ive has been taken care
the task request now there go here perfect problem everything as asked requested just did updated created""".split())
_TOKENS = re.compile(r"[a-z0-9']+")


@dataclass(frozen=True)
class Reading:
    """What one assistant message to the user does, read without any hidden knowledge."""

    question: bool  # it asks the user something, or tells the user to do or say something
    permission: bool  # it asks whether it may go on ("Shall I save it?")
    image_question: bool  # it asks the user what an image shows
    hands_back: bool  # it asks the user to do the work
    could_not: bool  # it says it could not do it
    stall: bool  # it only announces work ("Let me check...") or says nothing
    done: bool  # it says the work is done
    kinds: frozenset[str]  # kinds of information it gives (ANSWER_KINDS; not "text" for a bare "Done.")
    words: frozenset[str] = frozenset()  # the content words of its statements (no filler, no function words)
    names: bool = False  # its statements name something: a quoted span, a digit or a capitalised word mid-sentence
    yes_no: bool = False  # its statements say yes or no ("Pinned: no.", "Yes, it exists.")

    @property
    def reports(self) -> bool:
        """A report of results: not a question, not a hand-back, not a could-not, not a stall."""
        return not (self.question or self.hands_back or self.could_not or self.stall)


# A question opener capitalised mid-sentence starts a new sentence even without a full stop before
# it ("It starts with: Best Buy Could I help with anything else?"), so the answer before it is read
# as a statement, not swallowed by the question.
_RUN_ON_QUESTION = r"\s+(?=(?:Could|Can|Would|Shall|Should|May|Do|Is|Are)\s+(?:I|you|there|we)\b|Anything\s+else\b)"


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+|\n+|" + _RUN_ON_QUESTION, text.strip()) if s.strip()]


def _done(text: str) -> bool:
    if _DONE.search(text):
        return True
    return any(m.group(1).lower() not in _NOT_ACTIONS for m in _LEADING_PARTICIPLE.finditer(text.strip()))


_QUOTED = re.compile(r"(?<!\w)'[^'\n]{1,200}?'(?!\w)|\"[^\"\n]{1,200}?\"|\u201c[^\u201d\n]{1,200}?\u201d")


# Function words and filler: a statement made only of these (and of :data:`_BARE`) says nothing
# about the task ("Hmm.", "Well, okay then.", "I see.").
_FILLER = frozenset("""a about above after again against all also am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has have having he her
here hers him his how i if in into is it its itself just me more most my myself no nor not now of off on once only or
other our ours out over own same she should so some such than that the their theirs them then there these they this
those through to too under until up very was we were what when where which while who whom why will with would you your
yours yourself hmm hm um uh umm er erm ah oh ok okay well yes yeah yep nope sure right see got thing things stuff
something anything everything nothing really quite maybe perhaps probably actually basically interesting nice good great
fine cool wow indeed let lets let's i'm i've it's that's there's here's you're we're they're one ones today""".split()) | _BARE


def _stem(word: str) -> str:
    word = word.strip("'")
    for suffix in ("ies", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[:-len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def content_words(text: str) -> frozenset[str]:
    """The content words of ``text`` (lower case, plural -s dropped), without function words and filler."""
    return frozenset(_stem(w) for w in _TOKENS.findall((text or "").lower()) if w not in _FILLER and len(w) > 1)


# An address, a path, a file name or a quotation read out: "robert.brown@outlook.com", "/home/megan/bills/",
# "notes.txt", "It says: you're a lifesaver".
_ADDRESS = re.compile(r"\S+@\S+\.\w+|(?:^|\s)~?/\w|\b\w+\.(?:txt|csv|pdf|md|json|docx?|xlsx?|png|jpe?g|com|org|net)\b|"
                      r"\b(?:says?|reads?|said|read)\s*:\s*\S", re.I)


def _names_something(text: str, asked: list[str]) -> bool:
    """A statement names something: a quoted span, a digit, or a capitalised word that does not open
    its sentence (a name: "The Lumen Hardware one")."""
    for sentence in _sentences(text):
        if any(sentence.strip() == a.strip() for a in asked) or "?" in sentence:
            continue
        if _QUOTED.search(sentence) or re.search(r"\d", sentence) or _ADDRESS.search(sentence):
            return True
        words = re.findall(r"[A-Za-z][\w'&-]*", sentence)
        if any(w[0].isupper() and w.lower() not in ("i", "i'm", "i've", "i'll", "i'd") for w in words[1:]):
            return True
    return False


def read(text: str) -> Reading:
    """Classify one assistant message (see :class:`Reading`). Quoted text ("I asked 'Can it be used
    outdoors?'") is content, not the assistant asking."""
    text = (text or "").strip()
    sentences = _sentences(_QUOTED.sub("'…'", text))
    asked = [s for s in sentences if "?" in s or any(_REQUEST.search(part) for part in re.split(r"[:;]\s*", s))]
    statements = " ".join(s for s in sentences if s not in asked)
    if _WORD.search(statements):  # after a report, a courtesy question or a closing offer asks nothing
        asked = [s for s in asked if not (_OFFER.search(s) or _COURTESY.search(s))]
    question = bool(asked) and not all(_OFFER.search(s) for s in asked)
    asking = _INCIDENTAL_TIME.sub(" ", " ".join(asked))
    permission = question and _PERMISSION.search(asking) is not None
    image_question = question and _ASKING.search(asking) is not None and (
        _IMAGE_WORDS.search(asking) is not None or _VALUE_WORDS.search(asking) is not None)
    done = _done(statements)
    could_not = _COULD_NOT.search(text) is not None and not done
    hands_back = _HANDS_BACK.search(text) is not None and not done
    stall = not _WORD.search(statements) or (_INTENT.search(statements) is not None and not done
                                              and not re.search(r"\d", statements))
    kinds = set()
    if _WORD.search(statements):
        tokens = set(_TOKENS.findall(statements.lower()))
        if not tokens or not tokens <= _BARE:
            kinds.add("text")
        if _NUMBER.search(statements):
            kinds.add("number")
        if _DATE.search(statements):
            kinds.add("date")
        if _TIME.search(statements):
            kinds.add("time")
    return Reading(question, permission, image_question, hands_back, could_not, stall, done, frozenset(kinds),
                   content_words(statements), _names_something(text, asked), _YES_NO.search(statements) is not None)


# ------------------------------------------------------------------------- what a round waits for
_ASKS_NUMBER = re.compile(r"\b(how\s+much|how\s+many|what(?:'s|\s+is|\s+was|\s+were)?\s+the\s+(?:total|sum|amount|"
                          r"number|count|price|cost|difference|average)|how\s+long|how\s+far|how\s+old|what\s+percent)\b", re.I)
_ASKS_DATE = re.compile(r"\b(when(?:'s|\s+(?:did|is|was|does|do|will|are|were|should|can|could))|"
                        r"what\s+(?:date|day)|which\s+(?:date|day))\b", re.I)
_ASKS_TIME = re.compile(r"\b(what\s+time|at\s+what\s+time)\b", re.I)
# A quantity asked for by name in the asking clause ("Can you tell me the total?", "I need the combined
# price of every row", "figure out the gap between ...", "tell me what tickets cost altogether"): a
# number. A thing chosen by a quantity ("tell me the invoice with the smallest amount") is not.
_ASKS_QUANTITY = re.compile(r"(?:\b(?:tell|give|get|read|send|show)\s+me\b|\bi\s+need\b|\bi\s+want\s+to\s+know\b|"
                            r"\b(?:figure|work|find)\s+out\b|\bcalculate\b|\bcompute\b|\blet\s+me\s+know\b)"
                            r"[^.?!;:\n]{0,60}?\b(?:the\s+(?:total|sum|amount|difference|gap|average|balance|"
                            r"combined\s+(?:price|cost|total|amount|value))s?\b|what\s+\w+(?:\s+\w+)?\s+costs?\b)", re.I)


# A request that asks for information back, read from the query alone: a question mark outside
# quotes, or an imperative that asks to be told ("tell me", "read me", "get me", "list", "count",
# "summarise what you found").
_ASKS_BACK = re.compile(r"\?|\b(?:tell|read|get|give|send|show)\s+me\b|\b(?:look\s+up|find\s+out|let\s+me\s+know)\b|"
                        r"(?:^|[-,.;:!]\s*|\b(?:please|pls|and|then|also|first|just|could\s+you|can\s+you|would\s+you)\s+)"
                        r"(?:list|gather|pull|count|read|summari[sz]e|describe)\b", re.I)


# A polite request in question form ("Can you create a note called 'X'?", "Could you also email it to
# Robert?", "Would you mind adding a task?"): an action verb where the request's verbs stand (right
# after "can/could/would/will you", after "and", "then" or a comma), and no verb that asks to find
# or be told something. Its "?" asks for the work, not for information back. A question that asks
# for information ("Can you tell me the total?", "Can you find out when it closes?", "Could you
# check whether it is pinned?", "Can you search Amazon and find the prices?") keeps its "?".
_POLITE_OPENER = re.compile(r"\b(?:can|could|would|will)\s+you\b|\bwould\s+you\s+mind\b", re.I)
_ACTION_VERBS = frozenset("""add create make save set put send email text delete remove move rename update change edit
schedule book order buy request pay transfer draft write reply forward mark pin unpin turn switch enable disable record
log post share invite cancel archive star label split upload copy attach complete play queue follow reschedule assign
clear empty insert append replace fill submit subscribe unsubscribe accept decline tag note jot store file start stop
mute unmute block unblock rate like dislike reserve purchase return refund venmo message call remind""".split())
_VERB_SLOT = re.compile(r"(?:\byou\s+(?:mind\s+)?|\band\s+|\bthen\s+|,\s*)(?:(?:please|also|just|kindly|quickly|"
                        r"then|maybe|go\s+ahead\s+and)\s+)*([a-z]+)", re.I)
_INFO_VERBS = re.compile(r"\b(?:tell|read|describe|compare|find|finds|found|figure|work\s+out|look\s+(?:up|into|at)|check|"
                         r"see\s+(?:if|whether)|whether|list|gather|pull|count|summari[sz]e|calculate|compute|identify|"
                         r"explain|estimate|confirm|know|show\s+me|give\s+me|get\s+me|send\s+me|let\s+me)\b", re.I)


def _action_verb(word: str) -> bool:
    word = word.lower()
    if word in _ACTION_VERBS:
        return True
    if word.endswith("ing"):  # "would you mind adding / creating / setting"
        stem = word[:-3]
        return stem in _ACTION_VERBS or stem + "e" in _ACTION_VERBS or stem[:-1] in _ACTION_VERBS
    return False


def polite_request(sentence: str) -> bool:
    """``sentence`` asks for work in question form ("Can you create a note called 'X'?"), not for
    information back ("Can you tell me the total?")."""
    if "?" not in sentence or not _POLITE_OPENER.search(sentence) or _INFO_VERBS.search(sentence):
        return False
    return any(_action_verb(m.group(1)) for m in _VERB_SLOT.finditer(sentence))


def _asking_text(query: str) -> str:
    """``query`` as read for what it asks back: quoted spans blanked, and the "?" of each polite
    request in question form (:func:`polite_request`) read as a full stop."""
    text = _QUOTED.sub("'…'", query or "")
    return " ".join(s[:-1] + "." if s.endswith("?") and polite_request(s) else s
                    for s in re.split(r"(?<=[.!?])\s+|\n+", text))


def expectation(rnd: Any) -> tuple[str, ...]:
    """What round ``rnd`` waits for, from the user's own script: ``guidance.expects`` when given;
    else, when its query asks for information back (:data:`_ASKS_BACK`: a question -- not a
    polite request in question form, :func:`polite_request` --, "tell me", "list", "count"...), the kinds it asks for ("how much",
    "tell me the total", "I need the combined price" -> number, "when did" -> date, "what time" -> time,
    otherwise text); else ``done``: any report of the work. No hidden field is read
    (not even whether the round has ``report`` facts)."""
    guidance = getattr(rnd, "guidance", None)
    if guidance is not None and guidance.expects:
        return tuple(guidance.expects)
    if _ASKS_BACK.search(_asking_text(rnd.query)):
        asking = _asking_text(rnd.query)
        kinds = [k for k, rx in (("number", _ASKS_NUMBER), ("date", _ASKS_DATE), ("time", _ASKS_TIME))
                 if rx.search(rnd.query) or (k == "number" and _ASKS_QUANTITY.search(asking))]
        return tuple(kinds) or ("text",)
    return ("done",)


# A yes/no question in the user's request ("..., is my note 'Groceries' pinned?") and a yes/no answer.
_ASKS_YES_NO = re.compile(r"(?:^|[,.;:!?]\s+|\b(?:and|but|so|then|first|now|also|pls|please|quickly)\s+)(?:is|are|was|"
                          r"were|does|do|did|has|have|had|can|could|will|would|am|isn't|aren't|doesn't|didn't)\s+[^?!]*\?", re.I)
_ASKS_EITHER = re.compile(r"\b\w+\s+or\s+(?:not|\w+)\b[^?!.]*\?", re.I)  # "cellular on or off right now?"
_YES_NO = re.compile(r"\b(yes|yeah|yep|no|nope|not|n't|none|true|false|correct|indeed|exists?|doesn't|isn't|on|off|"
                     r"enabled|disabled)\b", re.I)


def answers(reply: Reading, query: str = "") -> bool:
    """``reply`` says something about the task, not filler: it names something (a quoted span, a
    digit, a name), says yes or no to a yes/no or either/or question of the round's ``query``
    ("Pinned: no.", "Cellular is off."),
    or states at least three content words of which one is a word of the ``query`` ("The hardware
    receipt cost more."). "Hmm.", "Nice weather today.", "Receipts are interesting." answer
    nothing. Whether what it says is right is never read."""
    asking = _asking_text(query)
    if reply.names or (reply.yes_no and (_ASKS_YES_NO.search(asking) or _ASKS_EITHER.search(asking))):
        return True
    asked = content_words(query)
    return len(reply.words) >= 3 and (not asked or bool(reply.words & asked))


def reported(replies: Iterable[Reading], expects: Iterable[str], query: str = "") -> bool:
    """Whether the round's replies so far report it: the last one reports results, and together they
    report the round: an action round (``done``) needs a statement that the work is done ("Done.",
    "Wifi is now off.", "I saved the note") or one that reports it (:func:`answers`: "The note
    holds $54.25."); an information round needs each kind of information
    asked for, given in a statement that answers (:func:`answers`: filler such as "Hmm." gives no
    "text"). An answer of the right kind counts whatever its value."""
    replies = list(replies)
    if not replies or not replies[-1].reports:
        return False
    expects = set(expects)
    wanted = expects - {"done"}
    if not wanted:
        return any(r.done or answers(r, query) for r in replies)
    given = set().union(*(r.kinds if answers(r, query) else r.kinds - {"text"} for r in replies))
    return wanted <= given


# ------------------------------------------------------------------------- error correction
_NUMBER_TOKEN = re.compile(r"\d+(?:[.,]\d+)*")
_QUOTED_SPAN = re.compile(r"(?<!\w)'([^'\n]{2,80}?)'(?!\w)|\"([^\"\n]{2,80}?)\"|\u201c([^\u201d\n]{2,80}?)\u201d")
# A word of doubt about what the user said: a negation or a contrast ("does not show", "there is no", "differ").
_DOUBT = re.compile(
    r"\b(not|no|isn't|aren't|doesn't|don't|didn't|wasn't|weren't|can't\s+find|couldn't\s+find|cannot\s+find|neither|"
    r"none|nowhere|actually|instead|rather|discrepanc\w*|mismatch\w*|differ\w*|mistaken|mistake|wrong|incorrect)\b", re.I)


def claim_names(claim: Any) -> tuple[str, ...]:
    """How a reply may name a wrong claim: its text, its keywords and the numbers it states."""
    names = [claim.text, *claim.keywords]
    names += [m.group(0) for m in _NUMBER_TOKEN.finditer(claim.text)]
    return tuple(dict.fromkeys(n.strip().lower() for n in names if n.strip()))


def own_names(query: str, claim: Any = None) -> tuple[str, ...]:
    """What the user stated in its own request that a reply may say is not so: the numbers and the
    quoted names of ``query`` (and, when the round has one, its wrong claim's names)."""
    names = [m.group(0) for m in _NUMBER_TOKEN.finditer(query or "")]
    names += [next(g for g in m.groups() if g) for m in _QUOTED_SPAN.finditer(query or "")]
    if claim is not None:
        names += claim_names(claim)
    return tuple(dict.fromkeys(n.strip().lower() for n in names if n.strip()))


# The words right before a quoted name the user chooses for something it asks to make or write ("a
# note titled 'X'", "a task 'X'", "with the note 'your share'", "described as 'X'", "containing just
# 'X'", typed with the user's typos: "titlled", "tilted", "ttled"). Nothing on the phone or in the
# images can show such a name wrong; a name of something that exists ("my 'Home' project", "the note
# 'Groceries'") can be.
_CHOSEN_BEFORE = re.compile(
    r"(?:\bt\w{0,4}l\w{0,2}d|\b(?:called|named|entitled|labell?ed|tagged|taged|described\s+as|as|say|says|saying|"
    r"containing(?:\s+just)?|c\w{5,8}ing\s+just|the\s+words?|replac\w*|repa\w*ing|with\s+the\s+(?:note|title|"
    r"subject|message|caption|description)|(?:an?|new)\s+(?:new\s+)?(?:\w+\s+)?(?:task|note|project|playlist|event|"
    r"reminder|folder|file|group|list|alarm|album|label|draft)))[\s,:]*$", re.I)


def chosen_names(query: str) -> tuple[str, ...]:
    """The quoted names ``query`` chooses for what it asks to make or write (:data:`_CHOSEN_BEFORE`)."""
    names = [next(g for g in m.groups() if g) for m in _QUOTED_SPAN.finditer(query or "")
             if _CHOSEN_BEFORE.search(query[max(0, m.start() - 40):m.start()])]
    return tuple(dict.fromkeys(n.strip().lower() for n in names if n.strip()))


def doubts_only_own_choice(text: str, query: str, claim: Any = None) -> bool:
    """The assistant doubts or disputes only names the user chose itself ("I'm not sure about
    'Invoice to pay' as a title"): nothing it could find shows them wrong, so "go by what you find"
    does not apply; the user keeps to what it asked."""
    chosen = set(chosen_names(query))
    if not chosen or not _names_with_doubt(text, chosen, hedges=True):
        return False
    return not _names_with_doubt(text, [n for n in own_names(query, claim) if n not in chosen], hedges=True)


# Words that look like doubt but agree or only hedge: "no mismatch", "is not wrong", "not sure".
_NOT_A_MISMATCH = re.compile(
    r"\b(?:no|not\s+an?|isn't\s+an?|without\s+(?:any\s+|a\s+)?|never\s+an?)\s*(?:mismatch|discrepanc\w*|difference|"
    r"mistake|error|problem|issue|conflict)s?\b|"
    r"\b(?:not|n't|never)\s+(?:at\s+all\s+)?(?:wrong|incorrect|mistaken|off|different|inaccurate|a\s+mistake|"
    r"an\s+error)\b|\b(?:not|n't)\s+(?:\w+\s+)?(?:sure|certain|clear|confident)\b|\bunsure\b|\buncertain\b|"
    r"\b(?:do|does|did)\s*(?:not|n't)\s+differ\b", re.I)
# A stated discrepancy, whatever is named: "does not show", "there is no", "neither ... says", "is wrong".
_MISMATCH = re.compile(
    r"\b(?:do|does|did)\s*(?:not|n't)\s+(?:show|say|read|match|list|state|have|contain|come|add|total|mention|appear|"
    r"exist|cost|fit|agree)\w*|\b(?:don't|doesn't|didn't)\s+(?:show|say|read|match|list|state|have|contain|come|add|"
    r"total|mention|appear|exist|cost|fit|agree)\w*|"
    r"\b(?:can\s*not|can't|could\s*not|couldn't|cannot)\s+(?:find|see|spot|locate)\b|"
    r"\b(?:there\s+is|there's|there\s+are|there\s+was|i\s+see|i\s+found|shows?|has|have|lists?)\s+no\b|"
    r"\bno\s+such\b|\bneither\b|\bnone\s+of\b|\bnowhere\b|\bnot\s+what\b|"
    r"\b(?:is|are|was|were|'s|looks|seems|must\s+be|appears)\s+(?:wrong|incorrect|mistaken|off|a\s+mistake|a\s+typo|"
    r"different|inaccurate)\b|"
    r"\b(?:is|are|was|were)\s*(?:not|n't)\s+(?:on|in|there|listed|shown|anywhere|right|correct|accurate)\b|"
    r"\b(?:isn't|aren't|wasn't|weren't)\s+(?:on|in|there|listed|shown|anywhere|right|correct|accurate)\b|"
    r"\b(?:discrepanc\w*|mismatch\w*|differs?|different\s+from|misread|misremember\w*)\b", re.I)
# A negation or contrast right before the named value: "$54.25, not $74.25", "instead of the $48 one".
_BEFORE_NAME = r"\b(?:not|isn't|aren't|wasn't|weren't|never|rather\s+than|instead\s+of|other\s+than|no)\s+(?:the\s+|a\s+|an\s+|at\s+|for\s+|on\s+|your\s+)?"


_HEDGE = re.compile(r"\b(?:not|n't)\s+(?:\w+\s+)?(?:sure|certain|confident)\b|\bunsure\b|\buncertain\b|"
                    r"\b(?:can't|cannot|can\s+not|couldn't)\s+(?:tell|confirm|verify)\b|\bdoubt\w*\b", re.I)


def _names_with_doubt(text: str, names: Iterable[str], hedges: bool = False) -> bool:
    """A sentence of ``text`` names one of ``names`` and states that it does not match: a
    discrepancy ("the receipt does not show $48", "$54.25, not $74.25", "there is no $48 receipt",
    "$48 is wrong"). Agreement ("no mismatch", "your $48 is not wrong") and hedges ("I'm not sure
    about the $48") state none."""
    names = [n for n in names if n]
    for sentence in _sentences(text or ""):
        if hedges and _HEDGE.search(sentence) and any(
                re.search(r"(?<![\w.])" + re.escape(n) + r"(?![\w])", sentence.lower()) for n in names):
            return True
        lowered = _NOT_A_MISMATCH.sub(" ", sentence.lower())
        named = [n for n in names if re.search(r"(?<![\w.])" + re.escape(n) + r"(?![\w])", lowered)]
        if not named:
            continue
        if _MISMATCH.search(lowered) or any(
                re.search(_BEFORE_NAME + re.escape(n) + r"(?![\w])", lowered) for n in named):
            return True
    return False


def flags_claim(text: str, claim: Any) -> bool:
    """The assistant points out that the user's scripted wrong claim does not match (names it and
    states a discrepancy in one sentence; agreeing or hedging is not pointing it out)."""
    return _names_with_doubt(text, claim_names(claim))


def flags_own_words(text: str, query: str, claim: Any = None) -> bool:
    """The assistant points out that something the user stated in its request does not match ("the
    receipt does not show $48") or doubts it ("I'm not sure about the $48"), read the same way
    whether or not the script holds a wrong claim. Only a stated discrepancy (:func:`flags_claim`)
    earns a wrong claim's confirmation; a hedge gets the neutral answer."""
    return _names_with_doubt(text, own_names(query, claim), hedges=True)
