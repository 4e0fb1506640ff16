"""One user, one story: the situation a scenario's requests come from, and how each round follows on.

Every scenario gets a persona (:mod:`.voice`) and a situation drawn for its main image category
(``SITUATIONS``: the user's own first sentence and the second-person description the user
simulator reads, the paper's ``description``). Later rounds open with a sentence that follows
from the round's place in the story (``FOLLOW_ONS``: more pictures turned up, the user thought
it over, a detail was wrong...). Nothing here carries a value: names, amounts and dates come only
from the recipe's wording and the images.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass

# category -> (what the user says first, what the simulator is told); our own sentences
SITUATIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "receipt": (
        ("I just got back from a weekend away with friends and I'm sorting out who spent what.",
         "You are back from a weekend away with friends and are sorting out the spending."),
        ("I'm doing my monthly budget tonight and I've got a pile of receipts on the table.",
         "You are doing your monthly budget with a pile of receipts."),
        ("I'm cleaning out my wallet and found a bunch of receipts from the last few weeks.",
         "You cleaned out your wallet and found receipts from the last few weeks."),
        ("We split a lot of costs on the trip and I kept the receipts on my phone.",
         "You split costs on a trip and kept the receipts."),
    ),
    "invoice": (
        ("I run a small side business and the paperwork has been piling up this month.",
         "You run a small side business and your invoices are piling up."),
        ("The renovation contractors have all sent their invoices and I need to get on top of them.",
         "Contractors sent you invoices for a home renovation."),
        ("I'm catching up on bills after being away for two weeks.",
         "You are catching up on bills after two weeks away."),
    ),
    "business_card": (
        ("I was at a conference all week and came back with a stack of contact details.",
         "You came back from a conference with new contacts."),
        ("I met a lot of people at the networking evening yesterday.",
         "You met people at a networking evening and kept their details."),
        ("People have been sending me their details for the neighbourhood project.",
         "Neighbours sent you their contact details for a local project."),
    ),
    "event_poster": (
        ("I'm planning what to do over the next few weeks and I keep seeing posters around town.",
         "You are planning the next few weeks and collected event listings."),
        ("My friends keep sending me events and I want to stop missing them.",
         "Friends sent you event listings and you do not want to miss them."),
        ("I'm putting together a plan for when my cousins visit next month.",
         "You are planning activities for your cousins' visit."),
    ),
    "chart": (
        ("I'm preparing for the team review and I've got the dashboards open.",
         "You are preparing a team review from charts."),
        ("My manager sent over some charts and wants a quick read-out.",
         "Your manager sent charts and wants a summary."),
        ("I'm tracking how the project hours went over the last weeks.",
         "You are tracking project figures from charts."),
    ),
    "price_tag": (
        ("I'm walking around the shop right now taking photos of things I might buy.",
         "You are in a shop photographing products you may buy."),
        ("I'm comparing prices for the new flat before I commit to anything.",
         "You are comparing prices of things for a new flat."),
        ("I took pictures of a few price tags at the market this morning.",
         "You photographed price tags at a market."),
    ),
    "sign": (
        ("I'm exploring a new neighbourhood and snapped some shop signs.",
         "You are exploring a new neighbourhood and photographed shop signs."),
        ("I'm planning errands for Saturday and took photos of the opening hours.",
         "You are planning Saturday errands from photos of shop signs."),
        ("We just moved to this part of town and I photographed the shops on our street.",
         "You just moved and photographed the shops nearby."),
        ("I walked the high street at lunch and took pictures of a few shop fronts.",
         "You photographed shop fronts on the high street."),
        ("My mum is visiting and I'm working out where we can go and when.",
         "Your mother is visiting and you are planning where to go."),
    ),
    "table_document": (
        ("I'm coordinating the schedule for our group and the tables came through today.",
         "You are coordinating a group's schedule from tables."),
        ("I got the latest sheets from the office and need to act on them.",
         "You received sheets from the office that need acting on."),
        ("The community centre posted its new timetable and I took pictures of it.",
         "You photographed a community centre's timetable."),
        ("Our club secretary sent round the printed tables for next month.",
         "Your club sent printed tables for next month."),
    ),
    "handwritten_note": (
        ("I found some handwritten notes in my bag and want them sorted out.",
         "You found handwritten notes and want them dealt with."),
        ("My partner left me a few scribbled lists this morning.",
         "Your partner left you handwritten lists."),
        ("I jotted some things down on paper during the meeting and want them on my phone.",
         "You jotted notes on paper during a meeting."),
        ("My flatmate wrote me a few notes on the fridge.",
         "Your flatmate left notes on the fridge."),
    ),
    "song_list": (
        ("A friend has been sending me music recommendations all week.",
         "A friend sent you music recommendations."),
        ("I'm putting together music for a road trip.", "You are collecting music for a road trip."),
    ),
    "settings": (
        ("I'm setting up my phone the way my old one was.",
         "You are setting your phone up like your old one."),
        ("My phone has been acting up since the update.", "Your phone has been acting up since an update."),
        ("I took screenshots of my settings before the reset.", "You screenshotted your settings before a reset."),
    ),
}
# how the first sentence ends (so that no opening sentence repeats across a suite)
ENDINGS = ("", " - it's been a long week", " and I want it done today", ", so bear with me", " and I'm short on time",
           " and honestly it's a mess", ", which is why I need you", " and I keep putting it off", " before I forget",
           " and the deadline is close", " and I'd rather not do it by hand", " - fun times",
           " and I could use a hand", ", long story", " and my head is spinning", " and I need it sorted",
           " while I have five minutes", " on my lunch break")
GENERIC_SITUATION = ("I've got a few pictures I need help with.", "You have pictures you need help with.")

# round role / kind -> first sentences of a later round
FOLLOW_ONS: dict[str, tuple[str, ...]] = {
    "more_images": ("Okay, I found a few more.", "Right, here are the next ones.", "A couple more turned up.",
                    "And here's the rest of what I have.", "Found some more of them just now."),
    "no_images": ("Thanks, that's helpful.", "Great, one more thing on this.", "Good, so following on from that.",
                  "Okay, about what you just did."),
    "share": ("Someone else needs this too.", "Now I want to pass that on.", "I should share what you found."),
    "goal_change": ("Hmm, I've been thinking it over.", "Wait, plans changed.", "Actually, I spoke to the others and we changed our minds.",
                    "Scratch that plan for a second."),
    "correction": ("Sorry, I got something wrong before.", "Hang on, I mixed something up.", "Oops, my mistake earlier."),
    "state_mutation": ("Something changed on my side.", "Heads up, I changed my mind about part of it.",
                       "Okay, small change to what we did."),
    "setup": ("",),
}

# why the user wants it, said after a short request (flow or round role -> sentences)
REASONS: dict[str, tuple[str, ...]] = {
    "aggregate": ("I want it all in one place so I stop digging through photos.", "That way I have everything together later.",
                  "I'll need the whole lot in one place later this week."),
    "compare": ("I only want to act on the best one, not all of them.", "I can't be bothered to compare them myself.",
                "I keep going back and forth on which one it is."),
    "filter": ("I don't care about the rest of them.", "Only those matter to me right now.", "The others can wait."),
    "compute": ("I want the number right, so please don't guess.", "I'd rather not do the maths myself.",
                "Make sure the number comes from the pictures."),
    "validate": ("I'd like my phone to match what's on paper.", "I don't trust what I saved back then.",
                 "Some of it was typed in a hurry."),
    "lookup_chain": ("It should all be on my phone somewhere.", "You'll have to look things up for this one.",
                     "I know it's in there, I just can't find it quickly."),
    "cross_reference": ("I don't want duplicates on my phone.", "Only what's missing, please.",
                        "I've lost track of what I already have."),
    "setup": ("The pictures will follow in a minute.", "I'll send you the pictures right after this.",
              "Then I've got some photos for you."),
    "share": ("They asked me about it earlier.", "They'll want to see it too.", "It saves me writing it up myself."),
}
SHORT = 30  # requests shorter than this many words get a reason


PERSONA_TRAITS = {
    "terse": "You write short, to-the-point messages.",
    "chatty": "You are friendly and chatty.",
    "polite": "You are polite and a little formal.",
    "hurried": "You are in a hurry and write in lower case.",
    "non_native": "English is not your first language.",
    "sloppy": "You type fast and carelessly, with the odd typo.",
}


@dataclass(frozen=True)
class Story:
    opening: str  # the user's first sentence
    description: str  # for the user simulator (Scenario.description)


def draw_story(rng: random.Random, category: str, persona: str, owner_name: str, flow_text: str) -> Story:
    """The scenario's situation for its main image category, in the persona's voice."""
    opening, situation = rng.choice(SITUATIONS.get(category, (GENERIC_SITUATION,)))
    opening = opening[:-1] + rng.choice(ENDINGS) + opening[-1]
    trait = PERSONA_TRAITS.get(persona, "")
    description = f"You are {owner_name}. {trait} {situation} {flow_text}".replace("  ", " ").strip()
    return Story(opening, description)


def follow_on(rng: random.Random, role: str, kind: str, delivers: bool) -> str:
    """The sentence a later round opens with."""
    if role in ("share", "setup"):
        key = role
    elif kind in ("goal_change", "correction", "state_mutation") and not (kind == "correction" and delivers):
        key = kind
    else:
        key = "more_images" if delivers else "no_images"
    return rng.choice(FOLLOW_ONS[key])


def reason(rng: random.Random, flow: str, role: str) -> str:
    """A sentence saying why (for a short request)."""
    return rng.choice(REASONS.get(role) or REASONS.get(flow) or ("",))


def fill_out(text: str, tail: str, flow: str, role: str) -> str:
    """``tail`` (:func:`reason`'s sentence) with more of the round's and the flow's reasons while
    ``text`` plus it stays under :data:`SHORT` words (one reason left a third of short requests at
    20-29 words). The sentences are ordered by a hash of ``text``, so the scenario's own random
    stream is not drawn from."""
    pool = [r for r in dict.fromkeys((*REASONS.get(role, ()), *REASONS.get(flow, ()))) if r and r != tail]
    random.Random(zlib.crc32(text.encode())).shuffle(pool)
    while pool and len(f"{text} {tail}".split()) < SHORT:
        tail = f"{tail} {pool.pop()}".strip()
    return tail
