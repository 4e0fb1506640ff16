"""Messages: text and voice messages between phone users (tables in ``phone.py``).

Sending creates one global message plus a copy for the sender and one for the receiver.
Every id a tool shows or takes (``text_message_id``, ``voice_message_id``) is the id of the
device owner's own copy, so deleting a message never touches the other person's copy.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ...tools import NotFound
from ...world.populators import BaseBuilder, populator
from ...world.clock import format_datetime
from .._common import parse_when
from ..phone.tables import GLOBAL_TEXTS, GLOBAL_VOICES, USER_TEXTS, USER_VOICES, USERS, full_name

APP = "messages"
SEND_REQ = ("cellular",)


class _Kind:
    """Tables and wording of one message kind (text or voice)."""

    def __init__(self, word: str, global_table: str, user_table: str) -> None:
        self.word = word
        self.global_table = global_table
        self.user_table = user_table
        self.fk = f"global_{word}_message_id"
        self.id_name = f"{word}_message_id"


TEXT = _Kind("text", GLOBAL_TEXTS, USER_TEXTS)
VOICE = _Kind("voice", GLOBAL_VOICES, USER_VOICES)

# ---------------------------------------------------------------------------------------- data
_CHATS = (
    ("Are we still on for {day}?", "Yes! {time} at {place} works for me.", "Perfect, see you there."),
    ("Running about 10 minutes late, sorry!", "No worries, I grabbed us a table."),
    ("Did you see the game last night?", "Unbelievable ending. I was yelling at the TV.", "Same here, my neighbors must hate me."),
    ("Can you pick up milk on your way home?", "Sure, anything else?", "Eggs and some bread please."),
    ("Happy birthday!! Hope you have an amazing day", "Thank you so much! Means a lot."),
    ("Just landed, will call you once I get my bags.", "Welcome back! Safe travels home."),
    ("What time does the dinner start on {day}?", "Around {time}. Bring a dessert if you can.", "Will do, I'll bake something."),
    ("Thanks for lending me the ladder, I'll bring it back {day}.", "Keep it as long as you need."),
    ("Do you have the wifi password for the cabin?", "It's on the fridge, I think it's lakeview2024.", "Got it, thanks!"),
    ("Reminder: dentist appointment {day} at {time}.", "Ugh, thanks for reminding me."),
    ("Want to go for a hike this weekend?", "I'm in. Saturday morning?", "Saturday at {time}, I'll drive."),
    ("Can you send me the recipe for that lasagna?", "I'll email it to you tonight."),
    ("The package arrived, thank you!", "Glad it made it in one piece."),
    ("Heading to {place} now, need anything?", "Could you grab me a coffee? Oat milk latte.", "On it."),
    ("Meeting moved to {time} {day}.", "Thanks for the heads up, I'll update the invite."),
    ("Are you coming to the book club on {day}?", "Yes, but I haven't finished the book yet!", "Nobody has, don't worry."),
    ("I found your sunglasses in my car.", "Oh thank goodness, I thought I lost them."),
    ("Congrats on the new job!", "Thank you! Still can't believe it.", "You deserve it, let's celebrate soon."),
    ("Is the presentation ready for {day}?", "Almost, just polishing the last slides.", "Great, send it over when done."),
    ("How much do I owe you for the concert tickets?", "$45 each, no rush."),
    ("Can we reschedule our call to {day}?", "Sure, {time} works for me."),
    ("Mom says dinner is at {time} on {day}.", "Got it. Should I bring anything?", "Just yourself and maybe some wine."),
    ("Look at this view from {place}!", "Wow, jealous! Enjoy every minute."),
    ("Did you feed the cat?", "Yes, and she still acts like she's starving."),
    ("Traffic is terrible on the highway, take the back roads.", "Thanks for the tip!"),
    ("Got the keys, I'll water the plants while you're away.", "You're a lifesaver, thank you!"),
    ("Who's hosting the barbecue this year?", "I think it's our turn. {day}?", "Sounds good, I'll tell everyone."),
)
_VOICE_NOTES = (
    "Hey, it's me. Just calling to check in, call me back when you get a chance.",
    "Hi! I'm outside {place}, let me know when you're here.",
    "Hey, quick question about {day}, give me a ring when you're free.",
    "Hi, this is a reminder that we're meeting at {time} tomorrow. See you then.",
    "Hey, I tried calling but you must be busy. Nothing urgent, talk later.",
    "Good morning! Wanted to wish you luck on your big day. You've got this.",
    "Hi, the plumber is coming {day} at {time}, can you be home to let him in?",
    "Hey, I left the documents at {place}. You can pick them up anytime.",
    "Hi, just wanted to say thanks again for dinner last night. It was lovely.",
    "Hey, are we still on for {day}? Let me know so I can book a table.",
)
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "tomorrow", "tonight")
_TIMES = ("7am", "8:30", "noon", "1pm", "3:30", "5pm", "6:30", "7pm", "8pm")
_PLACES = (
    "the cafe on Main", "Luigi's", "the farmers market", "the gym", "the library", "the airport",
    "the office", "Central Park", "the mall", "the beach", "the train station",
)
_CLOSE = ("parent", "sibling", "partner", "friend", "cousin", "roommate", "manager", "coworker")


def _fill(b: BaseBuilder, text: str) -> str:
    return text.format(day=b.rng.choice(_DAYS), time=b.rng.choice(_TIMES), place=b.rng.choice(_PLACES))


def _add_messages(b: BaseBuilder, kind: _Kind, items: list[tuple[str, int, int, str]]) -> None:
    """Add (time, sender, receiver, text) messages in time order, with both participants' copies."""
    gid, uid = b.next_id(kind.global_table), b.next_id(kind.user_table)
    for when, sender, receiver, message in sorted(items):
        b.add(kind.global_table, {
            "id": gid, "sender_id": sender, "receiver_id": receiver, "message": message, "created_at": when,
        })
        for owner in (sender, receiver):
            b.add(kind.user_table, {"id": uid, "user_id": owner, kind.fk: gid, "created_at": when})
            uid += 1
        gid += 1


@populator(APP, order=25)
def _populate(b: BaseBuilder) -> None:
    me = b.supervisor.id
    book = b.shared.get("phone.owner_contacts") or {p.id: ["friend"] for p in b.others(40)}
    close = [pid for pid, rel in book.items() if rel[0] in _CLOSE]
    partners = b.rng.sample(close, min(36, len(close)))
    texts: list[tuple[str, int, int, str]] = []
    for pid in partners:
        for _ in range(b.rng.randint(2, 5)):
            start = b.past(330, 1)
            lines = b.rng.choice(_CHATS)
            first = b.rng.random() < 0.5
            for i, line in enumerate(lines):
                when = start + timedelta(minutes=i * b.rng.randint(1, 25))
                sender, receiver = (me, pid) if (i % 2 == 0) == first else (pid, me)
                texts.append((when.isoformat(), sender, receiver, _fill(b, line)))
    # Messages that do not involve the owner (others' private copies).
    for _ in range(25):
        a, c = b.others(2)
        texts.append((b.past(300).isoformat(), a.id, c.id, _fill(b, b.rng.choice(b.rng.choice(_CHATS)))))
    _add_messages(b, TEXT, texts)
    voices = []
    for pid in b.rng.sample(partners, min(20, len(partners))):
        for _ in range(b.rng.randint(1, 3)):
            sender, receiver = (pid, me) if b.rng.random() < 0.7 else (me, pid)
            voices.append((b.past(300).isoformat(), sender, receiver, _fill(b, b.rng.choice(_VOICE_NOTES))))
    for _ in range(8):
        a, c = b.others(2)
        voices.append((b.past(300).isoformat(), a.id, c.id, _fill(b, b.rng.choice(_VOICE_NOTES))))
    _add_messages(b, VOICE, voices)


# ------------------------------------------------------------------------------------- helpers
def _party(users: dict[int, dict[str, Any]], user_id: int) -> dict[str, Any]:
    row = users.get(user_id)
    return {"name": full_name(row), "phone_number": row.get("phone_number") if row else None}


def _entries(world: Any, kind: _Kind) -> list[dict[str, Any]]:
    """The owner's copies of this kind, joined with the message they hold (newest first)."""
    users = {r["id"]: r for r in world.rows(USERS)}
    out = []
    for copy in world.rows(kind.user_table):
        if copy["user_id"] != world.user_id:
            continue
        msg = world.get(kind.global_table, copy[kind.fk])
        if msg is None:
            continue
        other = msg["receiver_id"] if msg["sender_id"] == world.user_id else msg["sender_id"]
        out.append({
            kind.id_name: copy["id"],
            "sender": _party(users, msg["sender_id"]),
            "receiver": _party(users, msg["receiver_id"]),
            "message": msg["message"],
            "created_at": msg["created_at"],
            "_other": other,
            "_other_name": full_name(users.get(other)),
        })
    out.sort(key=lambda e: (e["created_at"] or "", e[kind.id_name]), reverse=True)
    return out


def _public(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if not k.startswith("_")}


def _bound(value: str, name: str) -> str:
    return format_datetime(parse_when(value, name))


def _own_copy(world, kind, copy_id):
    copy = world.get(kind.user_table, copy_id)
    if copy is None or copy["user_id"] != world.user_id:
        raise NotFound(f"{kind.word} message with id {copy_id} does not exist in your messages")
    return copy


# ---------------------------------------------------------------------------------------- tools
