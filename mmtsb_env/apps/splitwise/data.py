"""Splitwise base data: the owner's groups, hundreds of expenses with shares, settle-ups, comments.

Generated from a generator seeded with the world seed only, so the data does not shift when
other apps add rows. Rows get explicit ids in date order.
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from ...world.populators import BASE_TIME, BaseBuilder, populator
from .tables import (
    APP, EXPENSE_COMMENTS, EXPENSES, GROUPS, MEMBERS, NOTIFICATIONS, PAYMENT_COMMENTS, PAYMENTS, SHARES, distribute,
    money,
)

_GROUP_PLANS = [
    ("Roommates", "Rent, utilities and groceries for our apartment.", "home", 4, True),
    ("Roommates - Elm Street", "Our old place on Elm Street.", "home", 3, False),
    ("Ski Trip 2024", "Tahoe ski weekend costs.", "trip", 6, False),
    ("Ski Trip 2025", "Whistler! Lift tickets, cabin and food.", "trip", 7, True),
    ("Lisbon Getaway", "Five days in Portugal.", "trip", 4, False),
    ("Book Club", "Snacks and books for our monthly meetups.", "food", 6, True),
    ("Office Lunch Crew", "Friday team lunches.", "food", 8, False),
    ("Family", "Shared family expenses.", "family", 5, True),
    ("Climbing Crew", "Track our rock climbing costs!", "sport", 4, False),
    ("Sunday Soccer", "Field rental and league fees.", "sport", 8, True),
    ("Game Night", "Board games, pizza and drinks.", "food", 5, False),
    ("Wedding Party", "Bachelor weekend and gifts.", "event", 7, True),
    ("Camping at Big Sur", "Campsite, gear and food.", "trip", 5, False),
    ("Mom's 60th Birthday", "Party planning budget.", "event", 4, True),
    ("Beach House Summer", "Shared rental in Santa Cruz.", "trip", 6, False),
    ("Road Trip to Vegas", None, "trip", 3, True),
    ("Supper Club", "Rotating dinners at home.", "food", 5, False),
]
_OTHER_GROUPS = [("Cycling Club", "sport"), ("Poker Night", "food"), ("Tahoe Cabin", "trip"),
                 ("Study Group", "food"), ("Band Practice", "event")]
_RESTAURANTS = ["Nopa", "Tartine", "Zuni Cafe", "Burma Superstar", "Delfina", "Souvla", "Kin Khao", "La Taqueria",
                "Mensho Ramen", "Flour + Water", "Chez Panisse", "House of Prime Rib"]
_ITEMS = {
    "trip": [("Airbnb", 300, 1500), ("Gas", 35, 110), ("Groceries", 40, 220), ("Dinner at {r}", 80, 420),
             ("Car rental", 150, 600), ("Museum tickets", 30, 160), ("Lift tickets", 180, 900), ("Parking", 10, 60),
             ("Breakfast", 25, 120), ("Boat tour", 120, 480), ("Snacks", 12, 60), ("Uber to airport", 30, 95),
             ("Hotel", 220, 1200), ("Drinks", 40, 200)],
    "home": [("Groceries", 35, 210), ("Cleaning supplies", 15, 70), ("Toilet paper", 12, 40), ("Furniture", 120, 900),
             ("Trash service", 30, 60), ("Plumber visit", 90, 350), ("House plants", 20, 90)],
    "food": [("Lunch at {r}", 40, 260), ("Pizza night", 35, 120), ("Team coffee", 15, 60), ("Sushi", 60, 280),
             ("Tacos", 25, 110), ("Brunch at {r}", 50, 220), ("Wine", 20, 140), ("Book order", 30, 120)],
    "sport": [("Court rental", 40, 160), ("League fees", 200, 800), ("Climbing gym passes", 60, 240),
              ("Equipment", 50, 400), ("Post-game drinks", 30, 150), ("Team jerseys", 120, 480)],
    "event": [("Venue deposit", 300, 1500), ("Decorations", 40, 220), ("Cake", 45, 180), ("Gift", 60, 400),
              ("Catering", 300, 1800), ("Flowers", 50, 260), ("DJ", 250, 900), ("Invitations", 30, 120)],
    "family": [("Mom's birthday gift", 60, 300), ("Holiday dinner", 90, 400), ("Flights home", 250, 900),
               ("Dad's retirement party", 200, 1000), ("Groceries", 40, 200), ("Grandma's medicine", 30, 150)],
}
_ONE_TO_ONE = [("Concert tickets", 80, 350), ("Dinner at {r}", 40, 200), ("Uber", 12, 60), ("Movie night", 20, 60),
               ("Coffee", 6, 20), ("Birthday gift for a friend", 30, 150), ("Groceries", 25, 120),
               ("Parking ticket", 40, 90), ("Brunch at {r}", 30, 120), ("Baseball game", 60, 240)]
_COMMENTS = ["Thanks for covering this!", "I'll pay you back this weekend.", "Was tip included?",
             "Can you upload the receipt?", "I think this was a bit less, double-checking.", "Paid you on Venmo too.",
             "Great dinner!", "Let's split the next one differently.", "Updated the amount.", "👍"]


def _iso(dt: datetime) -> str:
    return dt.replace(tzinfo=None, microsecond=0).isoformat()


class _Gen:
    """Collects base rows with explicit ids (fast: no per-row id scans)."""

    def __init__(self, b: BaseBuilder) -> None:
        self.b = b
        self.rng = random.Random(f"{b.seed}:splitwise")
        self.ids: dict[str, int] = defaultdict(int)
        self.expenses: list[dict[str, Any]] = []
        self.payments: list[dict[str, Any]] = []

    def add(self, table: str, row: dict[str, Any]) -> dict[str, Any]:
        self.ids[table] += 1
        return self.b.add(table, {"id": self.ids[table], **row})

    def moment(self, start: datetime, end: datetime) -> datetime:
        span = max(3600, int((end - start).total_seconds()))
        return start + timedelta(seconds=self.rng.randint(0, span))

    def expense(self, gid: int | None, members: list[int], kind: str, at: datetime, owner: int,
                description: str | None = None, amount: int | None = None, split_all: bool = False) -> None:
        rng = self.rng
        if description is None:
            name, low, high = rng.choice(_ITEMS[kind] if kind in _ITEMS else _ONE_TO_ONE)
            description = name.replace("{r}", rng.choice(_RESTAURANTS))
            amount = rng.randint(low * 100, high * 100)
            if rng.random() < 0.3:
                amount = amount // 100 * 100
        payer = rng.choice(members)
        roll = rng.random()
        if split_all or roll < 0.7 or len(members) <= 2:
            debtors = list(members)
            shares = distribute(amount, [1.0] * len(debtors))
        elif roll < 0.85:
            others = [m for m in members if m != payer]
            debtors = [payer] + rng.sample(others, rng.randint(1, min(3, len(others))))
            shares = distribute(amount, [1.0] * len(debtors))
        else:
            debtors = list(members)
            shares = distribute(amount, [rng.randint(1, 4) for _ in debtors])
        receipt = None
        if payer == owner and rng.random() < 0.12:
            receipt = (f"receipt_{rng.getrandbits(24):06x}.txt",
                       f"{description}\nDate: {at:%Y-%m-%d}\nTotal: ${money(amount):.2f}\n")
        self.expenses.append({
            "description": description, "paid_amount": money(amount), "payer_id": payer, "group_id": gid,
            "creator_id": payer if rng.random() < 0.85 else rng.choice(members),
            "receipt_file_name": receipt[0] if receipt else None, "receipt_file_content": receipt[1] if receipt else None,
            "deleted": rng.random() < 0.03, "created_at": _iso(at), "updated_at": _iso(at),
            "_shares": list(zip(debtors, shares)),
        })

    def settle(self, gid: int | None, members: list[int], after: datetime, end: datetime, owner: int,
               ratio: float) -> None:
        """Record payments that settle (fully or partly) some pairwise balances of the group."""
        pair: dict[tuple[int, int], int] = defaultdict(int)
        for exp in self.expenses:
            if exp["group_id"] != gid or exp["deleted"] or (gid is None and exp["_party"] != members):
                continue
            for uid, cents in exp["_shares"]:
                if uid != exp["payer_id"]:
                    pair[(uid, exp["payer_id"])] += cents
        nets: dict[tuple[int, int], int] = defaultdict(int)
        for (debtor, creditor), cents in pair.items():
            a, b = sorted((debtor, creditor))
            nets[(a, b)] += cents if debtor == a else -cents
        for (a, b), cents in sorted(nets.items()):
            if cents == 0 or self.rng.random() > ratio:
                continue
            debtor, creditor = (a, b) if cents > 0 else (b, a)
            amount = abs(cents)
            full = self.rng.random() < 0.7 or (owner in (a, b) and self.rng.random() < 0.5)
            if not full:
                amount = max(100, amount // 2 // 100 * 100)
                if amount >= abs(cents):
                    amount = abs(cents)
            at = self.moment(after, end)
            self.payments.append({
                "payer_id": debtor, "receiver_id": creditor, "amount": money(amount), "group_id": gid,
                "description": "Settle up balance." if amount == abs(cents) else "Partial payment",
                "creator_id": debtor, "deleted": False, "created_at": _iso(at), "updated_at": _iso(at),
            })


@populator(APP, order=40)
def _populate(b: BaseBuilder) -> None:
    g = _Gen(b)
    rng = g.rng
    owner = b.supervisor.id
    now = BASE_TIME.replace(tzinfo=None)
    pool = [p.id for p in b.people if p.id != owner]
    friends = rng.sample(pool, 36)
    group_rows: list[tuple[int, list[int], str, datetime]] = []
    plans = [(name, desc, kind, size, owner_created, True) for name, desc, kind, size, owner_created in _GROUP_PLANS]
    plans.append(("Old Apartment Utilities", "Gas and power at the old place.", "home", 3, True, True))
    plans += [(name, None, kind, rng.randint(3, 6), False, False) for name, kind in _OTHER_GROUPS]
    for name, desc, kind, size, owner_created, with_owner in plans:
        created = now - timedelta(days=rng.randint(120, 700), seconds=rng.randint(0, 86399))
        others = rng.sample(friends if with_owner else [p for p in pool if p not in friends[:6]], size - 1 if with_owner else size)
        members = ([owner] + others) if with_owner else others
        creator = owner if (with_owner and owner_created) else members[1 if with_owner else 0]
        code = f"{rng.getrandbits(20):05x}"
        group = g.add(GROUPS, {
            "name": name, "description": desc, "creator_id": creator, "invitation_code": code,
            "deleted": name == "Old Apartment Utilities", "created_at": _iso(created), "updated_at": _iso(created),
        })
        for uid in sorted(members, key=lambda u: (u != creator, members.index(u))):
            joined = created if uid == creator or rng.random() < 0.7 else created + timedelta(days=rng.randint(1, 30))
            g.add(MEMBERS, {"group_id": group["id"], "user_id": uid, "created_at": _iso(joined)})
        group_rows.append((group["id"], members, kind, created))
    for gid, members, kind, created in group_rows:
        start = created + timedelta(days=31)
        if kind == "home":
            for months_back in range(rng.randint(8, 14), 0, -1):
                day = now - timedelta(days=30 * months_back)
                if day < start:
                    continue
                label = day.strftime("%b %Y")
                g.expense(gid, members, kind, day.replace(hour=9), owner, f"Rent - {label}",
                          rng.choice([2400, 2850, 3200]) * 100, split_all=True)
                for bill, low, high in (("Electricity bill", 60, 180), ("Internet bill", 60, 90), ("Cable bill", 80, 190)):
                    g.expense(gid, members, kind, day + timedelta(days=rng.randint(1, 9)), owner,
                              f"{bill} - {label}", rng.randint(low * 100, high * 100), split_all=True)
        for _ in range(rng.randint(10, 24) if kind != "home" else rng.randint(4, 10)):
            g.expense(gid, members, kind, g.moment(start, now - timedelta(days=2)), owner)
    one_to_one = rng.sample(friends, 14)
    for i, friend in enumerate(one_to_one):
        party = [owner, friend] if i < 11 else [owner, friend, one_to_one[(i + 1) % len(one_to_one)]]
        for _ in range(rng.randint(3, 7)):
            g.expense(None, party, "none", g.moment(now - timedelta(days=400), now - timedelta(days=2)), owner)
            g.expenses[-1]["_party"] = party
    for exp in g.expenses:
        exp.setdefault("_party", None)
    for gid, members, kind, created in group_rows:
        g.settle(gid, members, now - timedelta(days=60), now - timedelta(days=1), owner, 0.45)
    for i, friend in enumerate(one_to_one):
        party = [owner, friend] if i < 11 else [owner, friend, one_to_one[(i + 1) % len(one_to_one)]]
        g.settle(None, party, now - timedelta(days=40), now - timedelta(days=1), owner, 0.5)
    g.expenses.sort(key=lambda e: e["created_at"])
    g.payments.sort(key=lambda p: p["created_at"])
    share_id = 0
    owner_events: list[tuple[str, str, dict[str, Any]]] = []
    for exp in g.expenses:
        shares = exp.pop("_shares")
        exp.pop("_party")
        row = g.add(EXPENSES, exp)
        for uid, cents in shares:
            share_id += 1
            b.add(SHARES, {"id": share_id, "expense_id": row["id"], "user_id": uid, "amount": money(cents)})
        if row["creator_id"] != owner and (row["payer_id"] == owner or any(u == owner for u, _ in shares)):
            owner_events.append(("expense_added", row["created_at"], row))
    for pay in g.payments:
        row = g.add(PAYMENTS, pay)
        if owner in (row["payer_id"], row["receiver_id"]) and row["creator_id"] != owner:
            owner_events.append(("payment_recorded", row["created_at"], row))
    _add_comments(g, owner)
    owner_events.sort(key=lambda e: e[1])
    for i, (kind, at, row) in enumerate(owner_events[-45:]):
        actor = b.people[row["creator_id"] - 1]
        if kind == "expense_added":
            text = f"{actor.first_name} {actor.last_name} added \"{row['description']}\" (${row['paid_amount']:.2f})."
            ids = {"expense_id": row["id"]}
        else:
            text = f"{actor.first_name} {actor.last_name} recorded a payment of ${row['amount']:.2f}."
            ids = {"payment_id": row["id"]}
        g.add(NOTIFICATIONS, {"user_id": owner, "type": kind, "message": text, "actor_id": row["creator_id"],
                              "group_id": row["group_id"], **ids, "read": i < 33, "created_at": at})


def _add_comments(g: _Gen, owner: int) -> None:
    rng = g.rng
    expense_ids = list(range(1, len(g.expenses) + 1))
    for eid in sorted(rng.sample(expense_ids, min(90, len(expense_ids)))):
        exp = g.b.rows[EXPENSES][eid]
        party = [r["user_id"] for r in g.b.rows[SHARES].values() if r["expense_id"] == eid] if rng.random() < 0.1 else None
        author = rng.choice(party) if party else (owner if rng.random() < 0.4 else exp["payer_id"])
        at = datetime.fromisoformat(exp["created_at"]) + timedelta(hours=rng.randint(1, 72))
        g.add(EXPENSE_COMMENTS, {"expense_id": eid, "user_id": author, "comment": rng.choice(_COMMENTS),
                                 "created_at": _iso(at), "updated_at": _iso(at)})
    payment_ids = list(range(1, len(g.payments) + 1))
    for pid in sorted(rng.sample(payment_ids, min(15, len(payment_ids)))):
        pay = g.b.rows[PAYMENTS][pid]
        at = datetime.fromisoformat(pay["created_at"]) + timedelta(hours=rng.randint(1, 48))
        g.add(PAYMENT_COMMENTS, {"payment_id": pid, "user_id": pay["receiver_id"],
                                 "comment": rng.choice(["Got it, thanks!", "Received 🙏", "Thanks!", "All square now."]),
                                 "created_at": _iso(at), "updated_at": _iso(at)})


