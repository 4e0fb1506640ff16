"""Venmo base data: users and their balances, payment cards, friendships, transactions, requests and bank transfers."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ...world.populators import BASE_TIME, BaseBuilder, populator
from .tables import (
    APP, BANK_TRANSFERS, CARDS, COMMENTS, COMMENT_LIKES, FRIENDSHIPS, NOTIFICATIONS, REQUESTS, TRANSACTIONS,
    TRANSACTION_LIKES, USERS, dollars, money,
)


# ---------------------------------------------------------------------------- base data
_FOOD = [
    ("🍕 pizza night", 8, 35), ("tacos 🌮", 6, 28), ("sushi dinner 🍣", 18, 70), ("brunch", 12, 45),
    ("coffee ☕", 3, 12), ("boba 🧋", 5, 14), ("ramen 🍜", 12, 30), ("groceries 🛒", 20, 140),
    ("Thai takeout", 12, 40), ("bagels 🥯", 4, 18), ("BBQ supplies 🍖", 15, 80), ("birthday cake 🎂", 20, 65),
    ("drinks 🍻", 10, 60), ("wine 🍷", 14, 55), ("happy hour", 10, 45), ("burgers 🍔", 9, 30),
    ("Chipotle", 9, 22), ("donuts 🍩", 5, 20), ("ice cream 🍦", 4, 15), ("dim sum 🥟", 15, 50),
]
_HOME = [
    ("rent 🏠", 600, 1800), ("utilities ⚡", 30, 140), ("internet bill 📶", 20, 70), ("electric bill", 25, 110),
    ("cleaning supplies 🧽", 8, 40), ("water bill 💧", 15, 60), ("furniture split 🛋️", 40, 300),
    ("house cleaner", 40, 120),
]
_FUN = [
    ("concert tickets 🎵", 40, 220), ("movie night 🍿", 10, 35), ("Netflix share 📺", 4, 9), ("Spotify family 🎧", 3, 6),
    ("bowling 🎳", 12, 35), ("escape room 🔐", 25, 45), ("golf ⛳", 30, 90), ("ski trip 🎿", 80, 400),
    ("game tickets 🏀", 35, 180), ("fantasy football 🏈", 20, 100), ("karaoke 🎤", 10, 40), ("museum tickets 🖼️", 15, 40),
    ("poker night ♠️", 10, 80), ("board game café 🎲", 8, 25),
]
_TRAVEL = [
    ("Uber 🚗", 8, 45), ("Lyft ride", 7, 40), ("gas ⛽", 20, 70), ("Airbnb 🏡", 90, 600), ("hotel split 🏨", 60, 350),
    ("flight 🛫", 120, 450), ("parking 🅿️", 5, 30), ("road trip snacks", 8, 30), ("train tickets 🚆", 15, 90),
    ("beach house 🏖️", 100, 500),
]
_MISC = [
    ("gift for Mom 🎁", 15, 80), ("wedding gift 💍", 50, 200), ("baby shower 👶", 20, 70), ("book club 📚", 10, 30),
    ("yoga class 🧘", 12, 30), ("gym membership 💪", 20, 60), ("haircut ✂️", 20, 60), ("dog sitting 🐶", 25, 120),
    ("babysitting", 40, 150), ("phone bill 📱", 25, 80), ("thanks!! 🙏", 5, 50), ("you're the best 😊", 5, 40),
    ("loan payback", 20, 300), ("softball team dues ⚾", 20, 60), ("office lunch 🥗", 10, 25),
    ("Secret Santa 🎅", 20, 50), ("textbooks", 40, 180), ("car repair split 🔧", 60, 300), ("plants 🌱", 10, 45),
    ("lottery pool 🎟️", 5, 20), ("Halloween costume 🎃", 15, 60), ("charity run 🏃", 20, 60),
]
DESCRIPTIONS = _FOOD + _HOME + _FUN + _TRAVEL + _MISC
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]

COMMENT_TEXTS = [
    "thanks! 🙌", "so good 😋", "again next week?", "🔥🔥🔥", "you're a lifesaver", "got it, thanks",
    "lol worth it", "best night ever", "❤️", "haha finally", "ty!", "💸💸", "next one's on me",
    "we need to do this again", "that was amazing", "sorry it took so long!", "👍", "cheers 🍻",
    "missed you guys", "who ordered the extra fries 😂", "paid in full ✅", "split fair and square",
]

CARD_NAMES = ["Chase Sapphire", "Amex Gold", "Citi Double Cash", "Capital One Venture", "Discover It",
              "Wells Fargo Debit", "Bank of America Debit", "Apple Card", "US Bank Visa", "Chase Freedom"]


def _money_in(rng: Any, lo: float, hi: float) -> float:
    value = rng.uniform(lo, hi)
    return money(round(value) if rng.random() < 0.35 else value)


def _pick_description(rng: Any, when: datetime) -> tuple[str, float]:
    desc, lo, hi = rng.choice(DESCRIPTIONS)
    if desc.startswith(("rent", "utilities", "electric bill", "internet bill")) and rng.random() < 0.6:
        desc = f"{desc} - {MONTHS[when.month - 1]}"
    return desc, _money_in(rng, lo, hi)


def _card_number(rng: Any) -> int:
    return int(str(rng.choice([4, 5, 3, 6])) + "".join(str(rng.randint(0, 9)) for _ in range(15)))


@populator(APP, order=30)
def _populate(b: BaseBuilder) -> None:
    rng = b.rng
    owner = b.supervisor.id
    others = [p for p in b.people if p.id != owner]
    ids = {t: 0 for t in (FRIENDSHIPS, TRANSACTIONS, TRANSACTION_LIKES, COMMENTS, COMMENT_LIKES, REQUESTS, CARDS,
                          BANK_TRANSFERS, NOTIFICATIONS)}

    def add(table: str, row: dict[str, Any]) -> dict[str, Any]:
        ids[table] += 1
        return b.add(table, {"id": ids[table], **row})

    def stamp(max_days: int = 365, min_days: int = 1) -> str:
        return b.past(max_days, min_days).isoformat()

    # Balances.
    users = b.rows[USERS]
    for pid in list(users):
        balance = 1284.63 if pid == owner else money(rng.uniform(0, 2500))
        users[pid] = {**users[pid], "venmo_balance": balance}

    # Friends: the owner's circle (two of them share a first name), then a web among the others.
    by_first: dict[str, list[Any]] = {}
    for p in others:
        by_first.setdefault(p.first_name, []).append(p)
    namesakes = next((group[:2] for group in by_first.values() if len(group) >= 2), [])
    pool = [p for p in others if p not in namesakes]
    circle = namesakes + rng.sample(pool, 44 - len(namesakes))
    friends = {owner: set()}
    pairs: set[tuple[int, int]] = set()
    for p in circle:
        pairs.add((owner, p.id))
    for _ in range(260):
        a, c = rng.sample(others, 2)
        if (a.id, c.id) not in pairs and (c.id, a.id) not in pairs:
            pairs.add((a.id, c.id))
    for a, c in sorted(pairs):
        friends.setdefault(a, set()).add(c)
        friends.setdefault(c, set()).add(a)
        add(FRIENDSHIPS, {"user_id": a, "friend_id": c, "created_at": stamp(700, 30)})
    b.shared["venmo.owner_friend_ids"] = sorted(friends[owner])
    b.shared["venmo.namesake_friend_ids"] = [p.id for p in namesakes]

    # Payment cards: the same cards each person has on file with the supervisor app (the owner's
    # last one is expired there), or made-up ones if that app is absent.
    source: dict[int, list[dict[str, Any]]] = {}
    for card in sorted(b.rows.get("supervisor.payment_cards", {}).values(), key=lambda c: c["id"]):
        source.setdefault(card["user_id"], []).append(card)
    cards_of: dict[int, list[int]] = {}
    owner_funds = [4200.0, 1850.75, 3000.0]
    for p in b.people:
        mine = source.get(p.id) or [
            {"card_name": rng.choice(CARD_NAMES), "card_number": _card_number(rng),
             "expiry_year": 2025 if p.id == owner and i == 2 else rng.randint(2027, 2031),
             "expiry_month": rng.randint(1, 12), "cvv_number": rng.randint(100, 999)}
            for i in range(3 if p.id == owner else rng.randint(1, 2))]
        for i, src in enumerate(mine):
            funds = owner_funds[i % 3] if p.id == owner else money(rng.uniform(500, 8000))
            card = add(CARDS, {
                "user_id": p.id, "card_name": src["card_name"], "owner_name": p.full_name,
                "card_number": int(src["card_number"]), "expiry_year": src["expiry_year"],
                "expiry_month": src["expiry_month"], "cvv_number": int(src["cvv_number"]),
                "available_balance": funds, "created_at": stamp(500, 100),
            })
            if (card["expiry_year"], card["expiry_month"]) >= (BASE_TIME.year, BASE_TIME.month):
                cards_of.setdefault(p.id, []).append(card["id"])

    # Transactions: the owner with friends (and a few strangers), then friends among themselves.
    circle_ids = [p.id for p in circle]
    txs: list[dict[str, Any]] = []

    def transaction(sender: int, receiver: int, when: datetime, desc: str, amount: float) -> dict[str, Any]:
        card = None
        if rng.random() < 0.25:
            card = rng.choice(cards_of.get(sender, [None]))
        tx = add(TRANSACTIONS, {
            "sender_id": sender, "receiver_id": receiver, "amount": amount, "description": desc,
            "private": rng.random() < 0.15, "payment_card_id": card,
            "created_at": when.isoformat(), "updated_at": when.isoformat(),
        })
        txs.append(tx)
        return tx

    for i in range(260):
        other = rng.choice(circle_ids) if i % 13 else rng.choice(others).id
        when = b.past(365)
        desc, amount = _pick_description(rng, when)
        if rng.random() < 0.5:
            transaction(owner, other, when, desc, amount)
        else:
            transaction(other, owner, when, desc, amount)
    for _ in range(300):
        a = rng.choice(circle_ids)
        pool_ids = sorted(friends.get(a, set()) - {owner}) or [rng.choice(others).id]
        c = rng.choice(pool_ids)
        when = b.past(365)
        desc, amount = _pick_description(rng, when)
        transaction(a, c, when, desc, amount)

    # Payment requests: both ways with the owner in every state, plus some among others.
    requests = []
    for i in range(70):
        a, c = (owner, rng.choice(circle_ids)) if i < 24 else (rng.choice(circle_ids), owner) if i < 48 else \
            tuple(p.id for p in rng.sample(others, 2))
        recent = i % 3 == 0
        created = b.past(20 if recent else 200, 1)
        desc, amount = _pick_description(rng, created)
        status = "pending" if recent else rng.choice(["approved", "approved", "denied", "pending"])
        row = {"sender_id": a, "receiver_id": c, "amount": amount, "description": desc,
               "private": rng.random() < 0.1, "status": status, "created_at": created.isoformat(),
               "updated_at": created.isoformat()}
        gap = (BASE_TIME.replace(tzinfo=None) - created) * rng.uniform(0.02, 0.4)
        later = (created + gap).replace(microsecond=0)
        if status == "approved":
            tx = transaction(c, a, later, desc, amount)
            row.update(transaction_id=tx["id"], approved_at=tx["created_at"], updated_at=tx["created_at"])
        elif status == "denied":
            row.update(denied_at=later.isoformat(), updated_at=later.isoformat())
        requests.append(add(REQUESTS, row))

    # Likes and comments on a share of the transactions.
    likes_on_owner = []
    for tx in txs:
        if rng.random() < 0.45:
            party = {tx["sender_id"], tx["receiver_id"]}
            fans = set(friends.get(tx["sender_id"], set())) | set(friends.get(tx["receiver_id"], set())) | party
            fans = sorted(fans) if tx["private"] is False else sorted(party)
            for uid in rng.sample(fans, min(len(fans), rng.randint(1, 4))):
                add(TRANSACTION_LIKES, {"user_id": uid, "transaction_id": tx["id"],
                                        "created_at": tx["created_at"]})
                if owner in party and uid != owner:
                    likes_on_owner.append((tx, uid))
    comments_on_owner = []
    for tx in rng.sample(txs, 170):
        party = [tx["sender_id"], tx["receiver_id"]]
        for _ in range(rng.randint(1, 3)):
            author = rng.choice(party)
            comment = add(COMMENTS, {"transaction_id": tx["id"], "user_id": author,
                                     "comment": rng.choice(COMMENT_TEXTS), "created_at": tx["created_at"],
                                     "updated_at": tx["created_at"]})
            if rng.random() < 0.3:
                liker = party[0] if author == party[1] else party[1]
                add(COMMENT_LIKES, {"user_id": liker, "comment_id": comment["id"], "created_at": tx["created_at"]})
            if owner in party and author != owner:
                comments_on_owner.append((tx, author))

    # Bank transfers of the owner and a few others.
    for i in range(40):
        uid = owner if i < 18 else rng.choice(others).id
        if not cards_of.get(uid):
            continue
        card_id = rng.choice(cards_of[uid])
        card = b.rows[CARDS][card_id]
        add(BANK_TRANSFERS, {
            "user_id": uid, "transfer_type": rng.choice(["card_to_venmo", "venmo_to_card"]),
            "amount": _money_in(rng, 20, 600), "payment_card_id": card_id,
            "payment_card_digits": str(card["card_number"])[-4:], "created_at": stamp(300),
        })

    # The owner's notifications, generated from the events above (newest ones unread).
    events = []
    for tx in txs:
        if tx["receiver_id"] == owner:
            events.append((tx["created_at"], "transaction_received",
                           f"{_full(b, tx['sender_id'])} paid you {dollars(tx['amount'])} for \"{tx['description']}\"",
                           {"transaction_id": tx["id"]}))
    for req in requests:
        if req["receiver_id"] == owner:
            events.append((req["created_at"], "payment_request_received",
                           f"{_full(b, req['sender_id'])} requests {dollars(req['amount'])} for \"{req['description']}\"",
                           {"payment_request_id": req["id"]}))
        elif req["sender_id"] == owner and req["status"] != "pending":
            when = req["approved_at"] or req["denied_at"]
            events.append((when, f"payment_request_{req['status']}",
                           f"{_full(b, req['receiver_id'])} {req['status']} your request for {dollars(req['amount'])}",
                           {"payment_request_id": req["id"]}))
    for tx, uid in likes_on_owner:
        events.append((tx["created_at"], "transaction_liked", f"{_full(b, uid)} liked a transaction of yours",
                       {"transaction_id": tx["id"]}))
    for tx, uid in comments_on_owner:
        events.append((tx["created_at"], "transaction_commented",
                       f"{_full(b, uid)} commented on a transaction of yours", {"transaction_id": tx["id"]}))
    events.sort(key=lambda e: e[0])
    recent = events[-45:]
    for n, (when, kind, message, data) in enumerate(recent):
        add(NOTIFICATIONS, {"user_id": owner, "type": kind, "message": message, "data": data,
                            "read": n < len(recent) - 9, "created_at": when})


def _full(b: BaseBuilder, user_id: int) -> str:
    return b.people[user_id - 1].full_name
