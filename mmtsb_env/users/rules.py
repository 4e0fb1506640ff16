"""The supervisor's rules: what the user does after each assistant message.

The user is blind: it cannot see images, the phone's database or the answer key. It decides
from the conversation and its own script alone (:mod:`.reading`), so an agent that wrote a wrong
value and one that wrote the right one, saying the same words, get the same user turns.
:func:`decide` returns a :class:`Move`:

=========== ===================================================================================
``open``    nothing said yet: round 1's query, its images through ``send_message_with_image``
``ui``      a UI round's screen awaits an answer: the scripted decision on it
``clarify`` the assistant asks the question the script answers (that answer, once), or points
            out, before saying the work is done, that something the user stated does not match
            (once a round: the scripted wrong claim's confirmation when it names the claim, else
            the neutral :data:`GO_BY_WHAT_YOU_SEE` -- the same move whether or not the script
            holds a wrong claim); a doubt only about a name the user chose itself ("a note titled
            'X'") gets the ``nudge`` to go with what it asked
``deliver`` the round's held images (``guidance.hold_images``) go out instead of moving on
``confirm`` it asks permission: the scripted grant or refusal (a second ask in the round is a
            failed try)
``advance`` its replies in the round report the round -- an action round: a statement that the
            work is done; an information round: each kind of information asked for, in a statement
            that answers (filler such as "Hmm." does not), whatever the values: the next round's
            query (new images only)
``end``     the last round is reported: ``end_conversation``
``redirect`` it asks what an image shows: look at the images (never a value)
``nudge``   it stalls, hands the work back, says it could not, asks what the script does not
            answer, or has not given what was asked: a short push, by kind, never by value
``give_up`` the 5th failed try (nudge or redirect) of a round: ``end_conversation``
=========== ===================================================================================

Every text the user sends is its script's or one of the fixed templates below.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..evaluation.similarity import rouge_l
from .reading import (Reading, content_words, doubts_only_own_choice, expectation, flags_own_words, read,
                      reported)
from .script import END, delivered_images, last_assistant_text, pending_ui_action, round_action, unused_clarification

if TYPE_CHECKING:  # pragma: no cover
    from ..episode.engine import Episode

MAX_FAILED_TRIES = 5  # the paper's rule: the user gives up on the 5th failed try of a round
FAILED_KINDS = ("nudge", "redirect")
MOVE_KINDS = ("open", "ui", "clarify", "deliver", "confirm", "advance", "end", "redirect", "nudge", "give_up")

GRANT = "Yes, please go ahead."
REFUSE = "No, please don't do that."
ALREADY_GRANTED = "I already said yes. Please go ahead and do it."
ALREADY_REFUSED = "I already said no. Please carry on without it."
ON_QUESTION = "I don't have anything more to add. Please go with what I asked."
HELD_IMAGES = "Here is the rest of what I have."
NUDGE_STALL = "Is it done? Let me know once it's finished."
NUDGE_HANDS_BACK = "I'd like you to take care of it for me, please."
NUDGE_COULD_NOT = "Please try again. What you need is on the phone and in what I sent you."
NUDGE_MISSING = "You haven't told me what I asked for yet."
GO_BY_WHAT_YOU_SEE = "I may have got that wrong. Please go by what you find, not by what I said."
REDIRECT_TO_PHONE = "I can't tell you more than I said. Please find it on the phone."
REDIRECT_TO_IMAGES = "I can't read it out for you. Everything you need is in what I sent you"  # + " ([image 0])."
TEMPLATES = (GRANT, REFUSE, ALREADY_GRANTED, ALREADY_REFUSED, ON_QUESTION, HELD_IMAGES, NUDGE_STALL, NUDGE_HANDS_BACK,
             NUDGE_COULD_NOT, NUDGE_MISSING, GO_BY_WHAT_YOU_SEE, REDIRECT_TO_PHONE)  # the fixed texts; a round's guidance may replace some


@dataclass(frozen=True)
class Move:
    """The user's next action and why: ``kind`` is one of :data:`MOVE_KINDS`."""

    kind: str
    action: str
    round_index: int  # the round it answers (for open/advance: the round it opens)
    text: str = ""  # the message text (== action for plain messages)
    why: str = ""  # what is missing, in words without values


# ------------------------------------------------------------------------- the round so far
def round_replies(episode: "Episode", index: int) -> list[str]:
    """The assistant's messages to the user in round ``index``, in order."""
    return [e.content for e in episode.log if e.sender == episode.ASSISTANT and e.kind == "message"
            and e.recipient == episode.USER and e.round_index == index]


def said_in_round(episode: "Episode", index: int, text: str) -> bool:
    """The user already said ``text`` (or a close paraphrase) in round ``index``."""
    return any(e.sender == episode.USER and e.kind == "message" and e.round_index == index
               and (e.content.strip() == text.strip() or rouge_l(text, e.content) >= 0.7) for e in episode.log)


def discrepancy_answered(episode: "Episode", index: int) -> bool:
    """The user already answered a doubt about its own words in round ``index`` (confirmed the
    scripted wrong claim's correction or said :data:`GO_BY_WHAT_YOU_SEE`): it does so once a round."""
    claim = episode.scenario.rounds[index].wrong_claim
    return said_in_round(episode, index, GO_BY_WHAT_YOU_SEE) or (
        claim is not None and said_in_round(episode, index, claim.confirm))


def failed_tries(episode: "Episode", index: int) -> int:
    """Nudges and redirects the user already gave in round ``index``."""
    return sum(1 for r, kind in getattr(episode, "user_moves", ()) if r == index and kind in FAILED_KINDS)


def confirmations(episode: "Episode", index: int) -> int:
    return sum(1 for r, kind in getattr(episode, "user_moves", ()) if r == index and kind == "confirm")


def held_images(episode: "Episode", index: int) -> list[int]:
    """Round ``index``'s held images not sent yet."""
    sent = delivered_images(episode)
    return [i for i in episode.scenario.rounds[index].guidance.hold_images if i not in sent]


# ------------------------------------------------------------------------- reply texts
def redirect_text(episode: "Episode") -> str:
    """Point the assistant at the images the user sent (the user cannot read them out)."""
    sent = sorted(delivered_images(episode))
    if not sent:
        return REDIRECT_TO_PHONE
    labels = ", ".join(f"[image {i}]" for i in sent)
    return f"{REDIRECT_TO_IMAGES} ({labels})."


def nudge_text(reading: Reading, query: str = "") -> str:
    """The push for a reply that does not report the round -- by what the reply did, never by value:
    a stall or filler ("Hmm.", "Nice weather today.": one content word at most, none of the
    request's, naming nothing) is asked whether it is done; a statement that lacks what was asked
    ("You paid quite a bit.") is told so."""
    if reading.hands_back:
        return NUDGE_HANDS_BACK
    if reading.could_not:
        return NUDGE_COULD_NOT
    if reading.stall or not (reading.done or reading.names or reading.words & content_words(query)
                             or len(reading.words) >= 2):
        return NUDGE_STALL
    return NUDGE_MISSING


def permission_reply(episode: "Episode", index: int, again: bool) -> str:
    guidance = episode.scenario.rounds[index].guidance
    grant = guidance.permission == "grant"
    if again:
        return ALREADY_GRANTED if grant else ALREADY_REFUSED
    return guidance.permission_reply or (GRANT if grant else REFUSE)


def with_images(text: str, image_ids: list[int]) -> str:
    """``text`` as a plain message, or with ``image_ids`` through ``send_message_with_image``."""
    if not image_ids:
        return text
    return json.dumps({"name": "send_message_with_image",
                       "arguments": {"message": text, "image_ids": ",".join(map(str, image_ids))}}, ensure_ascii=False)


# ------------------------------------------------------------------------- the decision
def _advance(episode: "Episode", index: int) -> Move:
    rounds = episode.scenario.rounds
    if index + 1 < len(rounds):
        return Move("advance", round_action(episode, index + 1), index + 1, rounds[index + 1].query)
    return Move("end", END, index)


def _conversation_move(episode: "Episode", k: int) -> Move:
    """The move the conversation calls for, before held images and giving up are considered."""
    rnd = episode.scenario.rounds[k]
    text = last_assistant_text(episode)
    reading = read(text)
    claim = rnd.wrong_claim
    if not reading.done and flags_own_words(text, rnd.query, claim) and doubts_only_own_choice(text, rnd.query, claim):
        reply = rnd.guidance.on_question or ON_QUESTION
        return Move("nudge", reply, k, reply, "the assistant doubted a name the user chose itself")
    if not reading.done and flags_own_words(text, rnd.query, claim) and not discrepancy_answered(episode, k):
        # the same words whether or not the doubt hits the scripted wrong claim: a doubt reveals nothing
        return Move("clarify", GO_BY_WHAT_YOU_SEE, k, GO_BY_WHAT_YOU_SEE, "the assistant doubted what the user stated")
    clar = unused_clarification(episode)
    if clar is not None:
        return Move("clarify", clar[1], k, clar[1])
    if reading.permission:
        again = confirmations(episode, k) > 0
        reply = permission_reply(episode, k, again)
        return Move("nudge" if again else "confirm", reply, k, reply, "asked permission again" if again else "")
    if reading.image_question:
        reply = redirect_text(episode)
        return Move("redirect", reply, k, reply, "asked what an image shows")
    if reading.question:
        reply = rnd.guidance.on_question or ON_QUESTION
        return Move("nudge", reply, k, reply, "asked what the script does not answer")
    if reported([read(t) for t in round_replies(episode, k)], expectation(rnd), rnd.query):
        return _advance(episode, k)
    reply = nudge_text(reading, rnd.query)
    return Move("nudge", reply, k, reply, reply)


def decide(episode: "Episode") -> Move:
    """The user's next move (see the module docstring), from the conversation and the script only."""
    rounds = episode.scenario.rounds
    k = episode.round_index
    if k < 0:
        return Move("open", round_action(episode, 0), 0, rounds[0].query)
    if rounds[k].ui is not None:
        ui = pending_ui_action(episode)
        if ui is not None:
            return Move("ui", ui, k, ui)
    move = _conversation_move(episode, k)
    held = held_images(episode, k)
    if held and move.kind in ("advance", "end"):
        text = rounds[k].guidance.images_message or HELD_IMAGES
        return Move("deliver", with_images(text, held), k, text, "the round's held images")
    if move.kind in FAILED_KINDS and failed_tries(episode, k) + 1 >= MAX_FAILED_TRIES:
        return Move("give_up", END, k, "", move.why)
    if held:  # the round's held images go out with the user's next message of the round
        return Move(move.kind, with_images(move.text, held), k, move.text, move.why)
    return move


def scripted_texts(scenario: Any, index: int) -> list[str]:
    """Every text the scripted user may send in round ``index`` besides its query and clarification
    answers: the templates above and the round's own guidance texts."""
    rnd = scenario.rounds[index]
    g = rnd.guidance
    texts = [*TEMPLATES, g.on_question, g.permission_reply, g.images_message]
    if rnd.wrong_claim is not None:
        texts.append(rnd.wrong_claim.confirm)
    return [t for t in texts if t]


def own_lines(scenario: Any) -> list[str]:
    """Every text the user owns: its situation, each round's query, instructions, clarification
    answers, guidance texts, wrong claim and its confirmation, and the fixed lines it may say (the
    templates, the redirect to the images, the screen refusals and complaint). A value in one of
    these is the user's own, whatever the images show."""
    from ..ui.choice import ALREADY_CHOSEN, CANNOT_CHOOSE, UNKNOWN_CHOICE
    from .script import SCREEN_FAILED

    out = [scenario.description, REDIRECT_TO_IMAGES, CANNOT_CHOOSE, UNKNOWN_CHOICE, ALREADY_CHOSEN, SCREEN_FAILED]
    for k, rnd in enumerate(scenario.rounds):
        out += [rnd.query, rnd.instructions, rnd.guidance.ask, *(c.answer for c in rnd.clarifications),
                *scripted_texts(scenario, k)]
        if rnd.wrong_claim is not None:
            out.append(rnd.wrong_claim.text)
    return [t for t in out if t]
