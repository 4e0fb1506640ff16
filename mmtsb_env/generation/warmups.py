"""Text-only opening questions: what a user asks before sending pictures (late image arrival).

Each warm-up reads one value the phone holds and reports it back, so the round has a ``report``
and a solution step, and no image is needed. A scenario never asks the same warm-up twice.
"""

from __future__ import annotations

from typing import Any, Callable

from .core import Build, GenerationError, Part, call

Warmup = Callable[[Build], Part]


def _email(b: Build) -> Part:
    asks = ["Quick check before I send you some pictures: which email address is on my profile?",
            "before the photos - what email do I have on my profile?",
            "Could you remind me which email address my profile uses? Pictures coming after."]
    return Part(b.rng.choice(asks), [call("supervisor_show_profile")], f"Your profile email is {b.owner.email}.",
                facts=[b.owner.email], is_task=False)


def _phone(b: Build) -> Part:
    asks = ["First, what phone number is saved on my profile?",
            "what's the phone number on my profile again? I'll send some pics in a sec",
            "Before we start: which number does my profile list for me?"]
    return Part(b.rng.choice(asks), [call("supervisor_show_profile")], f"Your profile lists {b.owner.phone_number}.",
                facts=[b.owner.phone_number])


def _venmo_balance(b: Build) -> Part:
    me = next(r for r in b.wi.tables["venmo.users"].values() if r["id"] == b.wi.owner_id)
    money = f"{me['venmo_balance']:,.2f}"
    asks = ["How much is in my Venmo balance right now?", "whats my venmo balance? photos after",
            "Can you check my Venmo balance for me before I send the pictures?"]
    b.domains.add("venmo")
    return Part(b.rng.choice(asks), [call("venmo_show_venmo_balance")], f"Your Venmo balance is ${money}.", facts=[money])


def _today(b: Build) -> Part:
    day = b.now.strftime("%A, %B %-d, %Y")
    asks = ["What's today's date on my phone?", "what day is it today according to the phone?",
            "Remind me of today's date, please - I'll send the pictures next."]
    b.domains.add("alarms")
    return Part(b.rng.choice(asks), [call("alarms_get_current_date_and_time")], f"Today is {day}.",
                facts=[b.now.strftime("%B %-d, %Y")])


# ---------------------------------------------------------------------------- read-one-value questions (data)
# name -> (tool, arguments, value picked from the tool's result, questions, answer with {v});
# the value is read by calling the tool on the scenario's starting world, so it is always right.
def _first(rows, key, **where):
    for r in rows or []:
        if all(r.get(k) == v for k, v in where.items()):
            return r.get(key)
    return None


READS: dict[str, tuple[str, dict[str, Any], Callable[[Any], Any], tuple[str, ...], str]] = {
    "starred": ("gmail_show_category_sizes", {}, lambda r: r.get("starred"),
                ("How many starred email threads do I have?", "quick q, how many emails have I starred?",
                 "Could you count my starred email threads before I send the pictures?"), "You have {v} starred threads."),
    "volume": ("spotify_show_volume", {}, lambda r: r.get("volume"),
               ("What's my Spotify volume set to?", "spotify volume level right now?", "Can you tell me the current Spotify volume?"),
               "Spotify's volume is {v}."),
    "song": ("spotify_show_current_song", {}, lambda r: r.get("title"),
             ("Which song is Spotify playing at the moment?", "what's that song playing on spotify", "Tell me the song Spotify is on."),
             "Spotify is playing '{v}'."),
    "zip": ("amazon_show_addresses", {}, lambda r: _first(r, "zip_code", name="Home"),
            ("What zip code does Amazon have for my home address?", "my home zip on amazon?", "Could you check the zip code of my home address on Amazon?"),
            "Your home address on Amazon has zip code {v}."),
    "todoist_count": ("todoist_show_notifications_count", {}, lambda r: r.get("notifications_count"),
                      ("How many Todoist notifications do I have?", "todoist notifications, how many?", "Can you count my unread Todoist notifications?"),
                      "You have {v} Todoist notifications."),
    "venmo_count": ("venmo_show_notifications_count", {}, lambda r: r.get("count"),
                    ("How many Venmo notifications are waiting for me?", "venmo notification count?", "Check how many Venmo notifications I have, please."),
                    "You have {v} Venmo notifications."),
    "splitwise_count": ("splitwise_show_notifications_count", {}, lambda r: r.get("count"),
                        ("How many Splitwise notifications do I have?", "splitwise notifs - how many?", "Could you see how many Splitwise notifications I've got?"),
                        "You have {v} Splitwise notifications."),
    "prime": ("amazon_show_prime_subscriptions", {}, lambda r: _first(r, "duration", is_active=True),
              ("Is my Amazon Prime plan monthly or yearly?", "amazon prime - monthly or yearly for me?", "Which Prime plan am I on, monthly or yearly?"),
              "Your active Prime plan is {v}."),
    "premium": ("spotify_show_premium_subscriptions", {}, lambda r: _first(r, "plan", is_active=True),
                ("Which Spotify Premium plan am I on?", "spotify premium plan?", "Can you check my current Spotify Premium plan?"),
                "Your Spotify Premium plan is {v}."),
    "alarm": ("alarms_show_alarms", {"page_limit": 1}, lambda r: r[0]["time"] if r else None,
              ("What time is my earliest alarm?", "earliest alarm i have set?", "Tell me the time of my earliest alarm, please."),
              "Your earliest alarm is at {v}."),
    "contacts_phone": ("contacts_show_profile", {}, lambda r: r.get("phone_number"),
                       ("Which phone number does my contacts card show for me?", "whats my own number in contacts",
                        "Could you read me the phone number on my own contact card?"), "Your contact card shows {v}."),
}
for _app in ("gmail", "spotify", "todoist", "splitwise", "venmo", "simple_note", "file_system", "amazon"):
    _name = _app.replace("_", " ").title().replace("Simple Note", "SimpleNote").replace("File System", "file storage")
    READS[f"{_app}_email"] = (f"{_app}_show_profile", {}, lambda r: r.get("email"),
                              (f"Which email is my {_name} account under?", f"what email did i use for {_name}?",
                               f"Could you check which email address my {_name} account uses?"), f"Your {_name} account uses {{v}}.")


def _probe(b: Build, tool: str, arguments: dict[str, Any]) -> Any:
    """The tool's result on the scenario's starting world (base world and the scenario's rows)."""
    world = b.__dict__.get("_probe_world")
    if world is None:
        from ..world import World, build_layer
        from ..world.base import base_world

        base = base_world(b.wi.seed)
        world = World(base.layer, build_layer(b.entities, below=base.layer), now=b.now, user_id=b.wi.owner_id)
        b.__dict__["_probe_world"] = world
    from ..tools import invoke

    outcome = invoke(world, tool, arguments)
    return outcome.result if outcome.ok else None


def _read(name: str) -> Warmup:
    tool, arguments, pick, asks, answer = READS[name]

    def make(b: Build) -> Part | None:
        result = _probe(b, tool, arguments)
        value = pick(result) if result is not None else None
        if value is None or value == "":
            return None
        v = str(value)
        return Part(b.rng.choice(asks), [call(tool, **arguments)], answer.format(v=v), facts=[v])
    return make


WARMUPS: dict[str, Warmup] = {"email": _email, "phone": _phone, "venmo_balance": _venmo_balance, "today": _today,
                              **{name: _read(name) for name in READS}}


def warmup(b: Build, used: set[str]) -> Part:
    """A warm-up question not asked yet in this scenario (``used`` is updated)."""
    names = [n for n in WARMUPS if n not in used]
    b.rng.shuffle(names)
    for name in names:
        used.add(name)
        part = WARMUPS[name](b)
        if part is not None:
            part.report = list(part.facts)
            return part
    raise GenerationError("no warm-up question left")
