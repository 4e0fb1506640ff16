"""Database-backed flows: validate, lookup_chain and cross_reference.

Each recipe draws images whose values relate to rows of the simulated device -- rows it adds as
``initial_entities`` (stale contacts, a shopping project, events already in the calendar) or
rows of the base world (store products, songs, the owner's payment cards) -- and solves each
task round with searches followed by targeted writes. What a recipe is about (flow, category,
apps, its requests, the challenges it takes) is its row of :data:`.db_base.ABOUT`. Every recipe
here is a row read by one of two interpreters (:class:`.db_validate.CheckRow`: check what is
stored for each image -- a row, or a line of one text -- and fix the stale ones;
:class:`.db_missing.MissingRow`: add what is not stored yet, or write what was looked up to a
sink); this module holds the rows, the seed functions that store what each starts from, and the
world slips. The one recipe of its own kind, :class:`.settings_recipe.SettingsMatch` (switches,
not records), is a class. :data:`RECIPES` lists every recipe by flow.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta
from typing import Any

from ..world import pools
from . import sinks as S
from .challenges import Slip, near_digits, near_name, wrong_value
from .core import ORDINALS, Build, call
from .errors import GenerationError
from .db_base import DBRecipe, _past
from .db_missing import Detail, Instead, MissingRow, missing_recipe
from .db_validate import CheckRow, Option, Sheet, check_recipe
from .images import dollars, money, number, roster_row
from .settings_recipe import SettingsMatch
from .sinks import iso, op, resolve
from .world_index import norm
from ._recipe_helpers import already_right, calendars, draw_dated, hours_after, shifted_date


def _free_products(b: Build) -> list[dict[str, Any]]:
    """Store products with a unique short name, in stock, not already in the owner's cart or wish list (by id)."""
    held = {r["product_id"] for t in ("amazon.cart_entries", "amazon.wish_list_entries") for r in b.wi.rows(t, user_id=b.wi.owner_id)}
    names: dict[str, int] = {}
    for p in b.wi.tables["amazon.products"].values():
        names[p["name"]] = names.get(p["name"], 0) + 1
    return sorted((p for p in b.wi.tables["amazon.products"].values()
                   if p["id"] not in held and names[p["name"]] == 1 and p["inventory_quantity"] >= 5 and len(p["name"]) <= 40),
                  key=lambda p: p["id"])


def _new_project(b: Build, stems: list[str], color: str) -> dict[str, Any]:
    """Add a fresh-named todoist project of the owner (with its collaborator link); return its row."""
    owner = b.wi.owner_id
    name = S._fresh_title(b, stems, "todoist.projects", "name")
    proj = b.add_row("todoist.projects", {"user_id": owner, "name": name, "color": color, "is_inbox": False,
                                          "description": "", "created_at": _past(b)})
    b.add_row("todoist.project_collaborator_links", {"project_id": proj["id"], "user_id": owner, "is_favorite": False,
                                                     "is_archived": False, "created_at": proj["created_at"]})
    return proj


def _add_task(b: Build, proj: dict[str, Any], title: str, order: int) -> dict[str, Any]:
    """Add an open medium-priority task of the owner to ``proj``; return its row."""
    return b.add_row("todoist.tasks", {"project_id": proj["id"], "user_id": b.wi.owner_id, "title": title,
                                       "priority": "medium", "is_completed": False, "order_index": order,
                                       "created_at": _past(b, 1, 9)})


def _project_slip(b: Build, proj: dict[str, Any]) -> Slip | None:
    """The user names the Todoist project ``proj`` slightly wrong (no project has that name)."""
    right = proj["name"]
    taken = {norm(p["name"]) for p in b.wi.tables["todoist.projects"].values()}
    taken |= {norm(p["name"]) for p in b.entities.get("todoist.projects", [])}
    return _name_slip(b, right, taken, "project", "todoist_show_projects",
                      "There's no project called '{wrong}'; yours is '{right}', so I worked in that one.", "Sorry, I mean '{right}'.")


def _name_slip(b: Build, right: str, taken: set[str], noun: str, look: str, answer: str, reply: str) -> Slip | None:
    """The user calls their ``noun`` ``right`` by a near miss no name in ``taken`` has; ``look`` (a search) shows the real one."""
    wrong = near_name(b, right, taken)
    if wrong is None:
        return None
    return Slip("name", right, wrong, answer.format(wrong=wrong, right=right), said=f"'{right}'", instead=f"'{wrong}'",
                steps=[call(look, query=wrong)], clarify={"keywords": [noun, "which", "called"], "answer": reply.format(right=right)})


def _presence_slip(b: Build, scope: list[int], present: dict[int, bool], name_of, thing: str, where: str, them: str,
                   *, duplicates: bool = True) -> Slip | None:
    """The user is sure one item of ``scope`` is (or is not) already stored ``where``, and is wrong.

    ``duplicates``: whether the app lets an agent store the item twice (else only the "stored" claim,
    as adding again would just be refused).

    The item is named by its position (``thing`` is "the person on the {which} card"), never by a
    value only its image shows; the reply names it (``name_of``) and states it (``report``).
    """
    absent = [i for i in scope if not present[i]]
    there = [i for i in scope if present[i]] if duplicates else []
    yours = where.replace("my ", "your ")
    order = sorted(scope)

    def which(i: int) -> str:
        return thing.format(which="this" if len(order) == 1 else f"the {ORDINALS[order.index(i)]}")

    if there and (not absent or b.rng.random() < 0.4):
        i = b.rng.choice(there)
        w = which(i)
        claim = b.rng.choice([f"{w[:1].upper() + w[1:]} isn't {where} yet, I'm sure of that.", f"I know {w} is new, not {where}.",
                              f"(Pretty sure {w} is missing from {where.split(' ', 1)[1]}.)"])
        return Slip("absent", name_of(i), f"{w}: missing", f"{name_of(i)} was already {yours}, so I didn't add {them} again.",
                    claim=claim)
    if absent:
        i = b.rng.choice(absent)
        w = which(i)
        claim = b.rng.choice([f"I'm fairly sure {w} is already {where}, so you can probably skip that one.",
                              f"(I think {w} is {where} already.)", f"{w[:1].upper() + w[1:]} should be {where} already, I added {them} ages ago."])
        return Slip("present", name_of(i), f"{w}: stored", f"{name_of(i)} wasn't {yours} after all, so I added {them}.", claim=claim)
    return None


def _date_slip(b: Build, candidates: list[int], order: list[int], did: str) -> Slip | None:
    """The user gives a wrong date for the event on one of the ``candidates`` posters (to be added or moved).

    The wrong day is a near miss that no image shows and no event of the scenario's calendar starts
    on; the poster (and a look at the calendar) settles it: the event is written on the poster's
    date and the reply says so (``did``: "added it on", "moved it to").
    """
    if not candidates:
        return None
    i = b.rng.choice(candidates)
    im = b.imgs[i]
    stored = sorted({e["start_datetime"][:10] for e in b.entities.get("calendar.events", [])})
    wrong = wrong_value(b, im.date, [im2.date for im2 in b.imgs] + stored)
    if wrong is None:
        return None
    which = f"this {im.noun}" if len(order) == 1 else f"the {ORDINALS[order.index(i)]} {im.noun}"
    spoken = _spoken_day(wrong)
    claim = b.rng.choice([f"The event on {which} is on {spoken}, by the way - the date on it is hard to read.",
                          f"(Fyi {which} is for {spoken}, I checked with the organisers.)",
                          f"I'm pretty sure the one on {which} happens on {spoken}."])
    answer = (f"The {im.noun} for '{im.label}' gives {_spoken_day(im.date)} ({im.date}), not {spoken}, "
              f"so I {did} {im.date}.")
    return Slip("date", im.date, wrong, answer, claim=claim,
                clarify={"keywords": ["date", "day", "poster", "which", "right"],
                         "answer": f"Go by the {im.noun} then, I must have misremembered the day."})


def _spoken_day(iso_date: str) -> str:
    """``2026-05-14`` as a person says it: ``Thursday, May 14``."""
    d = date.fromisoformat(iso_date)
    return f"{d.strftime('%A, %B')} {d.day}"


# ============================================================================ validate
# ---------------------------------------------------------------------------- validate rows (db_validate.CheckRow)
def _seed_contacts(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """One contact per card: its phone, its email or both outdated, or (odd cards, 70 %) up to date."""
    t = {}
    for k in range(n):
        i = b.img("business_card")
        pr = b.imgs[i].person
        kind = None if already_right(b, k) else b.rng.choice(["phone", "email", "both"])
        old_phone = pr["phone"] if kind in (None, "email") else b.drafter.fresh(
            lambda: f"{b.rng.randint(201, 989)}-{b.rng.randint(200, 899)}-{b.rng.randint(1000, 9999)}")
        old_email = pr["email"] if kind in (None, "phone") else b.drafter.fresh(
            lambda: f"{pr['first_name'].lower()}{b.rng.randint(10, 99)}@oldmail.com")
        row = b.add_row("phone.contacts", {"user_id": b.wi.owner_id, "first_name": pr["first_name"], "last_name": pr["last_name"],
                                           "email": old_email, "phone_number": old_phone, "relationships": [],
                                           "created_at": _past(b)})
        t[i] = {"key": row["id"], "stale": kind, "name": pr["name"], "phone": pr["phone"], "email": pr["email"], "old_phone": old_phone}
    return {}, t


def _number_slip(r, scope: list[int]) -> Slip | None:
    """The user is sure a card's phone number is the one they have stored; the contact holds another one.

    The card is named by its position (its person's name is the card's to tell); the reply states the
    stored number, and an agent that believes the user leaves the contact's old number in place.
    """
    b = r.b
    stale = [i for i in scope if r.t[i]["stale"] in ("phone", "both") and i not in r.mutations]
    if not stale:
        return None
    i = b.rng.choice(stale)
    order = sorted(scope)
    which = "this card" if len(order) == 1 else f"the {ORDINALS[order.index(i)]} card"
    t = r.t[i]
    claim = b.rng.choice([f"The phone number on {which} is the one I already have, so leave the number alone there.",
                          f"(No need to touch the number of the person on {which}, it hasn't changed.)",
                          f"I'm sure the person on {which} still has the number I saved, I called them last week."])
    return Slip("unchanged", t["old_phone"], f"{which}: same number",
                f"Your contacts have {t['name']} at {t['old_phone']}, but the card says {t['phone']}, so I updated the number.",
                claim=claim, clarify={"keywords": ["number", "phone", "card"], "answer": "Go by the card then, I must have mixed them up."})


def _contact_changes(v: dict[str, Any]) -> dict[str, Any]:
    """The card's values that differ from the stored contact (None: the same) and how the reply lists them."""
    new = {what: v[what] if v["stale"] in (what, "both") else None for what in ("phone", "email")}
    changed = [f"{what} to {value}" for what, value in new.items() if value is not None]
    return {"new_phone": new["phone"], "new_email": new["email"], "changed": " and ".join(changed), "changes": ", ".join(changed)}


def _seed_events(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """One event per poster, two hours long in a random calendar: moved by a few days, or (odd posters, 70 %) right."""
    cals = calendars(b.wi)
    t = {}
    ids, taken = draw_dated(b, "event_poster", n)
    for k, i in enumerate(ids):
        im = b.imgs[i]
        wrong = not already_right(b, k)
        right = iso(im.date, im.time)
        start = right
        if wrong:
            d2 = shifted_date(b, date.fromisoformat(im.date), [-3, -2, -1, 1, 2, 7], taken, lambda d2: d2 > b.now.date())
            taken.add(d2.isoformat())
            start = iso(d2.isoformat(), im.time)
        row = b.add_row("calendar.events", {"calendar_event_id": f"calendar_event_{b.new_id('calendar.events#')}",
                                            "calendar_id": b.rng.choice(cals)["calendar_id"], "title": im.label,
                                            "start_datetime": start, "end_datetime": hours_after(start, 2),
                                            "formatted_address": im.extra["venue"], "attendee_names": [], "attendee_emails": []},
                        key="calendar_event_id")
        t[i] = {"key": row["calendar_event_id"], "stale": wrong, "label": im.label, "date": im.date, "time": im.time,
                "start": right, "end": hours_after(right, 2)}
    return {}, t


def _seed_expenses(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """One expense per receipt in one of the owner's groups, shared equally: a wrong amount, or (odd receipts, 70 %) right."""
    owner = b.wi.owner_id
    groups = sorted({l["group_id"] for l in b.wi.rows("splitwise.group_members", user_id=owner)
                     if not b.wi.tables["splitwise.groups"][l["group_id"]]["deleted"]})
    group = b.wi.tables["splitwise.groups"][b.rng.choice(groups)]
    members = sorted(l["user_id"] for l in b.wi.rows("splitwise.group_members", group_id=group["id"]))
    ids = [b.img("receipt") for _ in range(n)]
    t = {}
    for k, i in enumerate(ids):
        im = b.imgs[i]
        wrong = not already_right(b, k)
        amount = b.drafter.price(10, 90) if wrong else im.amount
        when = _past(b, 2, 9)
        row = b.add_row("splitwise.expenses", {"description": im.label, "paid_amount": amount, "payer_id": owner,
                                               "group_id": group["id"], "creator_id": owner, "deleted": False,
                                               "created_at": when, "updated_at": when})
        share = round(amount / len(members), 2)
        for m in members:
            b.add_row("splitwise.expense_shares", {"expense_id": row["id"], "user_id": m, "amount": share})
        t[i] = {"key": row["id"], "stale": wrong, "label": im.label, "amount": im.amount, "dollars": dollars(im.amount),
                "money": money(im.amount)}
    return {"group": group}, t


_RETAG_FIXED = {"colleague": "client", "client": "partner", "partner": "colleague"}

ContactsValidate = check_recipe(CheckRow(
    "ContactsValidate", "phone.contacts", _seed_contacts, name_of="{name}", derive=_contact_changes,
    look=op("contacts_search_contacts", query="{name}"),
    fix=op("contacts_update_contact", contact_id="{key}", phone_number="{new_phone}", email="{new_email}"),
    remove=op("contacts_delete_contact", contact_id="{key}"),
    right={"phone_number": "{phone}", "email": "{email}"},
    settled="{name} was already up to date.", fixed=("Updated {name}: {changed}.", "{name}: {changes}"),
    removed=("Deleted the outdated contact {name}.", "{name}: deleted"),
    facts=("{new_phone}", "{new_email}"), only=("{new_phone}", "{new_email}"), keys=("{name}",),
    goal=("Change of plan: I don't want to keep contacts that were out of date. Delete every contact you had to fix, "
          "and from now on delete outdated ones instead of fixing them.", "Deleted the outdated contacts ({names})."),
    option=Option(lambda r: r.b.rng.choice(["colleague", "client", "partner"]), ", and tag every contact you fix as '{option}'",
                  {"relationships": ["{option}"]}, lambda b, w: _RETAG_FIXED[w], str,
                  "Sorry, I said '{wrong}' but the tag should be '{right}'. Please fix the contacts you tagged.",
                  "Retagged them as '{right}'.", op("contacts_update_contact", contact_id="{key}", relationships=["{option}"])),
    slip=_number_slip,
), __name__)

CalendarValidate = check_recipe(CheckRow(
    "CalendarValidate", "calendar.events", _seed_events,
    look=op("search_calendar_events", title="{label}"),
    fix=op("modify_calendar_event", calendar_event_id="{key}", start_datetime="{start}", end_datetime="{end}"),
    remove=op("remove_calendar_event", calendar_event_id="{key}"),
    right={"start_datetime": "{start}", "end_datetime": "{end}"},
    settled="'{label}' was already correct.", fixed=("Moved '{label}' to {date} at {time}.", "{label}: now {date} {time}"),
    removed=("Removed '{label}'.", "{label}: removed"),
    facts=("{label}", "{date}"), only=("{date}",), keys=("{label}",),
    goal=("Change of plan: remove the events that had wrong details instead of fixing them, "
          "and do the same for any others that turn out wrong.", "Removed the events that were wrong."),
    option=Option(lambda r: r.b.rng.choice(calendars(r.b.wi)), ", and move every event you correct into my {option[title]} calendar",
                  {"calendar_id": "{option[calendar_id]}"},
                  lambda b, w: b.rng.choice([c for c in calendars(b.wi) if c["calendar_id"] != w["calendar_id"]]), lambda c: c["title"],
                  "Oops, I meant my {right} calendar, not {wrong}. Please move the events you corrected.",
                  "Moved them to the {right} calendar.", op("modify_calendar_event", calendar_event_id="{key}", calendar_id="{option[calendar_id]}")),
    slip=lambda r, scope: _date_slip(r.b, [i for i in scope if r.t[i]["stale"]], sorted(scope), "moved it to"),
), __name__)

SplitwiseValidate = check_recipe(CheckRow(
    "SplitwiseValidate", "splitwise.expenses", _seed_expenses,
    look=op("splitwise_show_group_expenses", group_id="{group[id]}", query="{label}"),
    fix=op("splitwise_update_expense", expense_id="{key}", paid_amount="{amount}"),
    remove=op("splitwise_delete_expense", expense_id="{key}"),
    right={"paid_amount": "{amount}"},
    settled="{label} was already right.", fixed=("Changed {label} to {dollars}.", "{label}: {dollars}"),
    removed=("Deleted the {label} expense.", "{label}: deleted"),
    facts=("{money}",), only=("{money}",), keys=("{label}",),
    goal=("Change of plan: delete the expenses that had the wrong amount instead of fixing them; I'll re-enter them myself. "
          "Same for any other wrong ones.", "Deleted the expenses that were wrong."),
), __name__)


def _seed_reminders(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Invoices, each with a reminder to pay it at 9 AM (the stale ones on a day off the due date)."""
    ids, dues = draw_dated(b, "invoice", n)
    t = {}
    for k, i in enumerate(ids):
        im = b.imgs[i]
        stale = not already_right(b, k)
        day = shifted_date(b, date.fromisoformat(im.date), [-5, -3, -1, 2, 4], dues).isoformat() if stale else im.date
        row = b.add_row("reminder.reminders", {"reminder_id": f"reminder_{b.new_id('reminder.reminders#')}",
                                               "content": f"Pay {im.label} invoice", "reminder_datetime": iso(day, "09:00"),
                                               "creation_datetime": _past(b, 5, 30) + "+00:00"}, key="reminder_id")
        t[i] = {"key": row["reminder_id"], "stale": stale, "label": im.label, "date": im.date}
    return {"days_before": 0}, t


def _reminder_time(v: dict[str, Any]) -> dict[str, Any]:
    """When the reminder should go off: the option's hour, ``days_before`` the due date."""
    day = (date.fromisoformat(v["date"]) - timedelta(days=v["days_before"])).isoformat()
    return {"when": iso(day, f"{v['option']:02d}:00"), "day": day, "hour": S._hour_text(v["option"])}


_RETIME = op("modify_reminder", reminder_id="{key}", reminder_datetime="{when}")

ReminderValidate = check_recipe(CheckRow(
    "ReminderValidate", "reminder.reminders", _seed_reminders, derive=_reminder_time,
    look=op("search_reminder", content="{label}"), fix=_RETIME, remove=None, right={},
    settled="The {label} reminder was already right.",
    fixed=("Set the {label} reminder to {day} at {hour}.", "{label}: {day}"), removed=None,
    facts=("{day}",), only=("{date}",), keys=("{label}",),
    readd=op("add_reminder", save=True, content="Pay {label} invoice", reminder_datetime="{when}"),
    readded="The reminder for {label} was gone, so I added one for {day}.",
    goal=("Change of plan: I'd rather be reminded one day before each due date (still at {said}), including the ones that were "
          "already right.", "Moved every reminder to the day before its due date."), redo={"days_before": 1},
    option=Option(lambda r: 9, "", {}, lambda b, hour: hour + 1, S._hour_text,
                  "Sorry, I said {wrong} but I meant {right}. Please set all of those reminders to {right}.",
                  "All the reminders now go off at {right} on the due date.", _RETIME, redo=True),
), __name__)


def _seed_price_note(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Price tags and a price-watch note listing a price per product (the stale ones off the tag), beside an old note."""
    n = min(n, len(pools.TAG_PRODUCTS))
    ids = [b.img("price_tag") for _ in range(n)]
    t = {}
    for k, i in enumerate(ids):
        im = b.imgs[i]
        listed = b.drafter.price(3, 70) if not already_right(b, k) else im.amount
        t[i] = {"label": im.label, "listed": dollars(listed), "value": dollars(im.amount), "money": money(im.amount),
                "stale": listed != im.amount}
    title = S._fresh_title(b, ["Price watch", "Store prices", "Price check"], "simple_note.notes", "title")
    order = list(ids)
    b.rng.shuffle(order)
    text = "\n".join(f"{t[i]['label']}: {t[i]['listed']}" for i in order)
    note = b.add_row("simple_note.notes", {"user_id": b.wi.owner_id, "title": title, "content": text,
                                           "tags": ["shopping"], "pinned": False, "created_at": _past(b), "updated_at": _past(b, 2, 19)})
    b.add_row("simple_note.notes", {"user_id": b.wi.owner_id, "title": title + " (old)", "content": "Nothing to track.",
                                    "tags": ["shopping"], "pinned": False, "created_at": _past(b), "updated_at": _past(b)})
    new_title = S._fresh_title(b, ["Corrected prices", "Updated prices"], "simple_note.notes", "title")
    return {"key": note["id"], "title": title, "new_title": new_title, "order": order}, t


NotePriceValidate = check_recipe(CheckRow(
    "NotePriceValidate", "simple_note.notes", _seed_price_note, look=None, fix=None, remove=None, right={"content": "{text}"},
    settled="", fixed=("{label} is now {value}.", "{label}: {value}"), removed=None,
    facts=("{money}",), only=("{money}",), keys=("{label}",),
    goal=("Change of plan: put '{title}' back the way it was, and write the corrected list into a new note titled '{new_title}' "
          "instead. Keep using that new note from now on.", "Restored '{title}' and saved the corrected list as '{new_title}'."),
    sheet=Sheet("{label}: {value}", (op("simple_note_search_notes", query="{title}"), op("simple_note_show_note", note_id="{key}")),
                op("simple_note_update_note", note_id="{key}", content="{text}"), "All of those prices were already right.",
                op("simple_note_create_note", save=True, title="{new_title}", content="{text}"),
                (op("simple_note_search_notes", query="{new_title}"),), op("simple_note_update_note", note_id="@note_id", content="{text}")),
), __name__)


# ============================================================================ lookup chains
def _seed_products(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Price tags of store products Amazon sells (unique names, in stock, in neither the cart nor the wish list)."""
    t = {}
    for prod in b.rng.sample(_free_products(b), n):
        shelf = round(prod["price"] * b.rng.uniform(0.8, 1.2), 2)
        i = b.img("price_tag", product=(prod["name"], prod["name"].split(" ")[0], "box"), price=shelf, on_sale=False)
        t[i] = {"present": False, "id": prod["id"], "name": prod["name"], "price": dollars(prod["price"]), "money": money(prod["price"])}
    return {}, t


AmazonLookup = missing_recipe(MissingRow(
    "AmazonLookup", "amazon.cart_entries", _seed_products, every=(op("amazon_show_cart"),), keys=("{name}",),
    look=op("amazon_search_products", query="{name}"), settled="{name} ({price} on Amazon) was already in your cart.",
    settled_facts=("{money}",), add=op("amazon_add_product_to_cart", product_id="{id}", quantity="{qty}"),
    added=("Added {name} ({price} on Amazon) to your cart.", "{name}: {price}"), facts=("{money}",),
    remove=op("amazon_delete_product_from_cart", product_id="{id}"),
    instead=Instead("Actually, I'm not ready to buy. Take the products you just added out of my cart and put them on my wish list "
                    "instead, and do the same with any others.", "Moved them from your cart to your wish list.",
                    op=op("amazon_add_product_to_wish_list", product_id="{id}"), bit="Added {name} ({price}) to your wish list."),
    detail=Detail("qty", lambda r: r.b.rng.choice([1, 1, 2]) if r.challenge != "error_correction" else 1, lambda w: 2,
                  {1: "one", 2: "two"}.get, "Sorry, I meant {right} of each, not {wrong}. Please fix the quantities.",
                  "Each of them is now in the cart twice.", op("amazon_update_product_quantity_in_cart", product_id="{id}", quantity="{qty}")),
    inserted=lambda b, v: {"id": b.new_id("amazon.cart_entries"), "user_id": b.wi.owner_id, "product_id": v["id"], "quantity": v["qty"],
                           "gift_wrap_quantity": 0, "created_at": _past(b, 0, 1)},
), __name__)


# what the store sells in each shape a shelf photo draws: (Amazon product type, the line's nouns)
LINES = {"bottle": ("water bottles", ("Insulated Water Bottle", "Sports Bottle", "Glass Water Bottle")),
         "mug": ("cookware", ("Ceramic Mug", "Travel Mug", "Enamel Camp Mug")),
         "box": ("grocery", ("Granola Clusters", "Herbal Tea Sampler", "Oat Crackers")),
         "can": ("grocery", ("Sparkling Water", "Cold Brew Coffee", "Tomato Soup")),
         "bag": ("grocery", ("Ground Coffee", "Trail Mix", "Rolled Oats"))}
LINE_BRANDS = ("Alder", "Brookfold", "Kestrel", "Northwick", "Quillon", "Juniper Row", "Larkmoor", "Tidewell", "Emberly", "Foxhollow")


def _mark_text(mark: str) -> str:
    return "two-stripe logo" if mark == "stripes" else f"{mark} logo"


def _seed_lookalike_lines(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Unlabelled shelf photos (at most three), each of a product line Amazon sells in variations
    that differ only in what the photo shows: one row per package of that shape on the shelf --
    the product, its twin in the other size, the same in another colour, with another logo mark --
    under one name and variation group, the mark in the description. Only the look tells the rows
    apart: the user names the product by where it stands and the line by its name."""
    from ..vision.render import render
    from ..vision.render.product_photo import PALETTE, SIZES
    from ..vision.render.price_tag import MARKS

    sellers = sorted(b.wi.tables["amazon.sellers"].values(), key=lambda r: r["id"])
    group = max((p.get("variation_group_id") or 0) for p in b.wi.tables["amazon.products"].values())
    t = {}
    for k in range(min(n, 3)):
        obj = b.rng.choice(sorted(LINES))
        ptype, nouns = LINES[obj]
        line = b.drafter.fresh(lambda: f"{b.rng.choice(LINE_BRANDS)} {b.rng.choice(nouns)}")
        look = {"color": b.rng.choice(sorted(PALETTE)), "mark": b.rng.choice(MARKS), "size": b.rng.choice(SIZES)}
        base = round(b.rng.uniform(6, 40), 2)
        b.imgs.append(b.drafter.shelf_photo(line, obj, look, base))
        i = len(b.imgs) - 1
        shelf = render(b.imgs[i].render_spec()).facts["shelf"]
        group += 1
        seller = b.rng.choice(sellers)
        variants = [p for p in shelf if p["object"] == obj]
        b.rng.shuffle(variants)
        prices = [round(base + 2.5 * j + (3 if p["size"] == "large" else 0), 2) for j, p in enumerate(variants)]
        for p, price in zip(variants, prices):
            colour = p["color"].capitalize()
            row = b.add_row("amazon.products", {
                "name": line, "description": f"{line} in {p['color']}, {p['size']} size, with a {_mark_text(p['mark'])} printed on it.",
                "product_type": ptype, "price": price, "rating": 0.0, "seller_id": seller["id"], "seller_rating": seller["rating"],
                "inventory_quantity": b.rng.choice([12, 30, 75]), "color": colour, "delivery_days": b.rng.choice([1, 2, 3]),
                "has_variations": True, "variation_group_id": group, "height": 20.0 if p["size"] == "large" else 14.0,
                "width": 8.0, "length": 8.0, "weight": 0.5, "relative_size": p["size"], "created_at": _past(b)})
            if all(p[a] == v for a, v in look.items()):
                t[i] = {"present": False, "id": row["id"], "line": line, "price": dollars(price), "money": money(price),
                        "name": f"the {line} ({p['color']}, {p['size']}, {_mark_text(p['mark'])})"}
    return {}, t


AmazonLookalike = missing_recipe(MissingRow(
    "AmazonLookalike", "amazon.cart_entries", _seed_lookalike_lines, every=(op("amazon_show_cart"),),
    look=op("amazon_search_products", query="{line}", page_limit=10), settled="{name} ({price} on Amazon) was already in your cart.",
    settled_facts=("{money}",), add=op("amazon_add_product_to_cart", product_id="{id}", quantity="{qty}"),
    added=("Added {name} ({price} on Amazon) to your cart.", "{name}: {price}"), facts=("{money}",),
    remove=op("amazon_delete_product_from_cart", product_id="{id}"),
    instead=Instead("Actually, I'm not ready to buy. Take what you just added out of my cart and put it on my wish list "
                    "instead, and do the same with any others.", "Moved them from your cart to your wish list.",
                    op=op("amazon_add_product_to_wish_list", product_id="{id}"), bit="Added {name} ({price}) to your wish list."),
    detail=Detail("qty", lambda r: r.b.rng.choice([1, 1, 2]) if r.challenge != "error_correction" else 1, lambda w: 2,
                  {1: "one", 2: "two"}.get, "Sorry, I meant {right} of each, not {wrong}. Please fix the quantities.",
                  "Fixed the quantities: each of them is now in the cart twice.", op("amazon_update_product_quantity_in_cart", product_id="{id}", quantity="{qty}")),
    inserted=lambda b, v: {"id": b.new_id("amazon.cart_entries"), "user_id": b.wi.owner_id, "product_id": v["id"], "quantity": v["qty"],
                           "gift_wrap_quantity": 0, "created_at": _past(b, 0, 1)},
), __name__)


def _seed_songs(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Handwritten lists of two songs (at most four lists) in neither of two of the owner's playlists nor liked (unique titles)."""
    owner = b.wi.owner_id
    playlists = sorted(b.wi.rows("spotify.playlists", user_id=owner), key=lambda p: p["id"])
    playlist = b.rng.choice(playlists)
    other = b.rng.choice([p for p in playlists if p["id"] != playlist["id"]])
    inside = {r["song_id"] for r in b.wi.rows("spotify.playlist_songs") if r["playlist_id"] in (playlist["id"], other["id"])}
    titles = Counter(s["title"] for s in b.wi.tables["spotify.songs"].values())
    liked = {r["song_id"] for r in b.wi.rows("spotify.song_likes", user_id=owner)}
    pool = sorted((s for s in b.wi.tables["spotify.songs"].values()
                   if s["id"] not in inside and s["id"] not in liked and titles[s["title"]] == 1), key=lambda s: s["id"])
    n = min(n, 4)
    picks = b.rng.sample(pool, n * 2)
    t = {}
    for k in range(n):
        songs = picks[2 * k:2 * k + 2]
        lines = [f"{s['title']} - {b.wi.tables['spotify.artists'][s['artist_ids'][0]]['name']}" for s in songs]
        i = b.img("song_list", lines=lines, title="Songs to try")
        t[i] = {"present": False, "items": [{"id": s["id"], "title": s["title"]} for s in songs]}
    return {"playlist": playlist, "other": other}, t


def _playlist_slip(r, scope: list[int]) -> Slip | None:
    """The user names the playlist slightly wrong (not when another of theirs starts with the same word: ambiguous)."""
    b, right = r.b, r.v["playlist"]["title"]
    mine = [p["title"] for p in b.wi.rows("spotify.playlists", user_id=b.wi.owner_id)]
    if sum(t.split(" ")[0] == right.split(" ")[0] for t in mine) > 1:
        return None  # "Road Trip Mix" vs "Road Trip Mix 2": a near miss would be ambiguous
    return _name_slip(b, right, {norm(p["title"]) for p in b.wi.tables["spotify.playlists"].values()}, "playlist",
                      "spotify_show_playlist_library", "You have no playlist called '{wrong}'; the one you mean is '{right}', so I used it.",
                      "Oh, I mean '{right}'.")


SpotifyLookup = missing_recipe(MissingRow(
    "SpotifyLookup", "spotify.playlist_songs", _seed_songs, every=(op("spotify_show_playlist", playlist_id="{playlist[id]}"),),
    keys=("{title}",), look=op("spotify_search_songs", query="{title}"), settled="'{title}' was already in the playlist.",
    add=op("spotify_add_song_to_playlist", playlist_id="{playlist[id]}", song_id="{id}"),
    added=("Added '{title}'.", "{title}"), facts=("{title}",),
    remove=op("spotify_remove_song_from_playlist", playlist_id="{playlist[id]}", song_id="{id}"),
    instead=Instead("Change of plan: take those songs back out of '{playlist[title]}' and just like them instead. Same for any more I send.",
                    "Removed them from the playlist and liked them.", op=op("spotify_like_song", song_id="{id}"), bit="Liked '{title}'."),
    detail=Detail("playlist", None, None, lambda p: p["title"],
                  "Sorry, wrong playlist: I meant '{right}', not '{wrong}'. Please move the songs.", "Moved them to '{right}'.",
                  op("spotify_add_song_to_playlist", playlist_id="{playlist[id]}", song_id="{id}"),
                  undo=op("spotify_remove_song_from_playlist", playlist_id="{playlist[id]}", song_id="{id}"),
                  pre=(op("spotify_show_playlist_library"),), meant="other"),
    inserted=lambda b, v: {"id": b.new_id("spotify.playlist_songs"), "playlist_id": v["playlist"]["id"], "song_id": v["id"],
                           "created_at": _past(b, 0, 1)},
    slip=_playlist_slip,
), __name__)


def _seed_paid_receipts(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Receipts paid by the owner's cards, each showing the card's last four digits."""
    cards = sorted(b.wi.rows("supervisor.payment_cards", user_id=b.wi.owner_id), key=lambda c: c["id"])
    t = {}
    for _ in range(n):
        i = b.img("receipt")
        im, card = b.imgs[i], b.rng.choice(cards)
        last4 = str(card["card_number"])[-4:]
        im.content["payment"] = f"VISA **** {last4}"
        im.extra["card_last4"] = last4
        t[i] = {"present": False, "label": im.label, "dollars": dollars(im.amount), "money": money(im.amount),
                "card": card["card_name"], "last4": last4}
    return {}, t


CardLookup = missing_recipe(MissingRow(
    "CardLookup", "supervisor.payment_cards", _seed_paid_receipts, every=(op("supervisor_show_payment_cards"),), keys=("{last4}",),
    look=None, add=None, added=("{label}: {dollars} on {card}.", "{label}: {dollars} on {card}"),
    facts=("{card}", "{money}"), only=("{label}", "{money}"),
    sinks=(S.NoteSink, S.FileSink, S.DraftSink, S.TaskSink, S.EmailSink), headline="Cards used",
    instead=Instead("Change of plan: delete the {noun} you made and instead {intent}.", "Deleted it. {done}", sinks=(S.NoteSink, S.FileSink)),
), __name__)


def _seed_invoices(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Invoices from the owner's contacts (a trade after their name); the Venmo card with the most money pays them all."""
    people = [c for c in b.wi.contacts if c.get("email")]
    chosen = b.rng.sample(people, n)
    card = sorted(b.wi.rows("venmo.payment_cards", user_id=b.wi.owner_id), key=lambda c: -c["available_balance"])[0]
    t = {}
    for c in chosen:
        i = b.img("invoice")
        im = b.imgs[i]
        full = f"{c['first_name']} {c['last_name']}"
        trade = b.rng.choice(["Photography", "Tutoring", "Handyman Services", "Design", "Pet Sitting"])
        im.content["company"] = im.label = f"{full} {trade}"
        t[i] = {"present": False, "full": full, "email": c["email"], "amount": im.amount, "dollars": dollars(im.amount),
                "money": money(im.amount), "number": im.extra["invoice_number"]}
    if sum(b.imgs[i].amount for i in t) > 0.9 * card["available_balance"]:
        raise GenerationError("the invoices add up to more than the card can pay")
    return {"card": card}, t


def _card_slip(r, scope: list[int]) -> Slip | None:
    """The user names the paying card with last digits none of their cards has."""
    b, card = r.b, r.v["card"]
    right, name = str(card["card_number"])[-4:], card["card_name"]
    taken = {str(c["card_number"])[-4:] for t in ("venmo.payment_cards", "supervisor.payment_cards")
             for c in b.wi.rows(t, user_id=b.wi.owner_id)}
    wrong = near_digits(b, right, taken)
    return Slip("card", right, wrong, f"Your {name} card ends in {right}, not {wrong}; I paid from it.",
                said=f"my {name} card", instead=f"my {name} card (the one ending in {wrong})",
                clarify={"keywords": ["card", "ending", "digits"], "answer": f"I mean my {name} card, whatever its number."})


InvoicePayLookup = missing_recipe(MissingRow(
    "InvoicePayLookup", "venmo.transactions", _seed_invoices, first=(op("venmo_show_payment_cards"),), keys=("{full}",),
    look=op("contacts_search_contacts", query="{full}"),
    add=op("venmo_create_transaction", receiver_email="{email}", amount="{amount}", description="{number}", payment_card_id="{card[id]}"),
    added=("Paid {full} {dollars} for {number}.", "{full}: {dollars} ({number})"), facts=("{money}",),
    only=("{money}", "{number}"), slip=_card_slip,
), __name__)


def _seed_rosters(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Volunteer rosters (at most four) of two of the owner's contacts each (unique names, with a phone), a shift per person."""
    n = min(n, 4)
    names = Counter(f"{c['first_name']} {c['last_name']}" for c in b.wi.contacts)
    pool = [c for c in b.wi.contacts if c.get("phone_number") and names[f"{c['first_name']} {c['last_name']}"] == 1]
    picks = b.rng.sample(pool, n * 2)
    t = {}
    for k in range(n):
        i = b.img("table_document", theme="shift_roster")
        im = b.imgs[i]
        rows, items, people = [], [], []
        for c in picks[2 * k:2 * k + 2]:
            day, hour, hours = b.rng.choice(pools.WEEKDAYS[:6]), b.rng.randint(8, 15), b.rng.randint(2, 5)
            full = f"{c['first_name']} {c['last_name']}"
            rows.append(roster_row(b.rng, full, day, f"{hour:02d}:00", hours))
            items.append({"name": full, "day": day, "time": f"{hour:02d}:00", "amount": float(hours)})
            people.append({"full": full, "first_name": c["first_name"], "phone": c["phone_number"], "day": day,
                           "time": f"{hour:02d}:00", "hours": hours, "hours_shown": str(hours)})
        im.content["rows"], im.items = rows, items
        t[i] = {"present": False, "items": people}
    return {}, t


def _roster_slip(r, scope: list[int]) -> Slip | None:
    """The user gives the first volunteer's number with a digit or two off."""
    b, c = r.b, r.t[scope[0]]["items"][0]
    right, first, full = c["phone"], c["first_name"], c["full"]
    wrong = near_digits(b, right, {x.get("phone_number") for x in b.wi.tables["phone.contacts"].values()})
    claim = b.rng.choice([f"{first}'s number is {wrong}, if you need it.", f"(I have {first} down as {wrong}.)",
                          f"You can reach {first} on {wrong}."])
    return Slip("number", right, wrong, f"{full}'s number in your contacts is {right}, not {wrong}, so I texted {right}.",
                claim=claim, clarify={"keywords": ["number", first.lower()], "answer": "Use the number in my contacts."})


RosterTextLookup = missing_recipe(MissingRow(
    "RosterTextLookup", "messages.messages", _seed_rosters, keys=("{full}", "{day}"),
    look=op("contacts_search_contacts", query="{full}"),
    add=op("messages_send_text_message", phone_number="{phone}",
           message="Hi {first_name}, your volunteer shift is {day} at {time} for {hours} hours."),
    added=("Texted {full}: {day} {time}, {hours} h.", "{full}: {day} {time}"), facts=("{full}",), slip=_roster_slip,
    only=("{time}", "{hours_shown}"),  # asked for: the start time and the hours
), __name__)


def _seed_charts(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Bar charts of the hours logged on four of the owner's projects in a week (at most four charts)."""
    projects = sorted((p for p in b.wi.rows("todoist.projects", user_id=b.wi.owner_id) if not p["is_inbox"]), key=lambda p: p["id"])
    n = min(n, 4)
    t = {}
    weeks = b.rng.sample(range(10, 40), n)
    for k in range(n):
        chosen = b.rng.sample(projects, 4)
        topic = (f"Hours Logged by Project - Week {weeks[k]}", "h", [p["name"] for p in chosen], (3, 40))
        i = b.img("chart", kind="bar_chart", topic=topic)
        im = b.imgs[i]
        im.content["title"] = im.label = topic[0]
        top = max(im.items, key=lambda it: it["amount"])
        t[i] = {"present": False, "label": im.label, "hours": number(im.amount), "project": next(p for p in chosen if p["name"] == top["name"])}
    return {}, t


ChartProjectLookup = missing_recipe(MissingRow(
    "ChartProjectLookup", "todoist.tasks", _seed_charts, keys=("{project[name]}",),
    look=op("todoist_show_projects", query="{project[name]}"),
    add=op("todoist_create_task", save=True, project_id="{project[id]}", title="{title}", description="{label}: {hours} hours"),
    label="review", added=("{project[name]} had the most hours ({hours}) in {label}; added the task there.", "{project[name]}: {hours} h"),
    facts=("{project[name]}", "{hours}"), only=("{hours}",),
    detail=Detail("title", lambda r: "Review logged hours", lambda w: "Check logged hours", str,
                  "Sorry, the tasks should be titled '{right}', not '{wrong}'. Please rename them.", "Renamed them to '{right}'.",
                  op("todoist_update_task", task_id="@task_id", title="{title}")),
), __name__)


# ============================================================================ cross references
def _seed_receipts(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Receipts and a shopping project with an open task for all but one item of each (one task per item name) and two others."""
    ids = [b.img("receipt") for _ in range(n)]
    proj = _new_project(b, ["Shopping", "Errands", "Things to buy"], "blue")
    bought = []
    for i in ids:
        its = list(b.imgs[i].items)
        b.rng.shuffle(its)
        bought += [(i, it) for it in its[:max(1, len(its) - 1)]]
    catalog = sorted({n for _, (sfx, items) in pools.SHOP_TYPES.items() for n, _, _ in items})
    on_receipts = {it["name"] for i in ids for it in b.imgs[i].items}
    extra = b.rng.sample([c for c in catalog if c not in on_receipts], 2)
    task: dict[tuple[int, str], int] = {}
    for i, it in bought:
        if all(name != it["name"] for _, name in task):
            task[(i, it["name"])] = _add_task(b, proj, f"Buy {it['name'].lower()}", len(task) + 1)["id"]
    for k, e in enumerate(extra):
        _add_task(b, proj, f"Buy {e.lower()}", len(task) + k + 1)
    t = {i: {"present": False, "store": b.imgs[i].label,
             "items": [{"name": it["name"], "lower": it["name"].lower(), "task": task[(i, it["name"])], "dollars": dollars(it["amount"]),
                        "money": money(it["amount"])} for it in b.imgs[i].items if (i, it["name"]) in task]}
         for i in ids}
    return {"project": proj}, t


_SHOW_PROJECT = (op("todoist_show_projects", query="{project[name]}"), op("todoist_show_tasks", project_id="{project[id]}"))
_DELETE_TASK = op("todoist_delete_task", task_id="{task}")

TodoistReceiptXref = missing_recipe(MissingRow(
    "TodoistReceiptXref", "todoist.tasks", _seed_receipts, every=_SHOW_PROJECT, keys=("{name}",), look=None,
    settled="'Buy {lower}' was already done.",
    add=op("todoist_update_task", task_id="{task}", is_completed=True),
    also=(op("todoist_post_task_comment", save=True, task_id="{task}", content="{comment_text}"),), label="c",
    added=("Completed 'Buy {lower}' ({dollars}).", "{name}: {dollars}"), facts=("{money}",), only=("{money}", "{store_written}"),
    derive=lambda v: {"comment_text": f"Paid {v['dollars']}" if v["comment"] == "price" else f"{v['store']}: {v['dollars']}",
                      "store_written": v["store"] if v["comment"] == "store" else None},
    instead=Instead("Change of plan: I don't need a record of those. Delete the tasks for things I've bought instead of completing "
                    "them, including any more that match.", "Deleted those tasks.",
                    op=_DELETE_TASK, bit="Deleted 'Buy {lower}' ({dollars}).", switch=(_DELETE_TASK,)),
    detail=Detail("comment", lambda r: "price", lambda w: "store", {"price": "price I paid", "store": "store name and the price I paid"}.get,
                  "Sorry, I forgot: the comments should have the store name as well as the price. Please fix them.",
                  "Updated the comments with the store names.",
                  op("todoist_update_task_comment", task_comment_id="@task_comment_id", content="{comment_text}")),
    own=lambda b, v: {"op": "update", "table": "todoist.tasks", "key": v["task"], "fields": {"is_completed": True}},
    slip=lambda r, scope: _project_slip(r.b, r.v["project"]),
), __name__)


# ---------------------------------------------------------------------------- cross-reference rows (db_missing.MissingRow)
def _seed_posters(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Event posters; the events of about half the odd ones are in the calendar already (two hours long)."""
    calendar = b.rng.choice(calendars(b.wi))
    ids = [b.img("event_poster") for _ in range(n)]
    t = {}
    for k, i in enumerate(ids):
        im = b.imgs[i]
        there = k % 2 == 1 and b.rng.random() < 0.8
        start = iso(im.date, im.time)
        if there:
            b.add_row("calendar.events", {"calendar_event_id": f"calendar_event_{b.new_id('calendar.events#')}",
                                          "calendar_id": calendar["calendar_id"], "title": im.label, "start_datetime": start,
                                          "end_datetime": hours_after(start, 2),
                                          "attendee_names": [], "attendee_emails": []}, key="calendar_event_id")
        t[i] = {"present": there, "label": im.label, "date": im.date, "time": im.time, "start": start, "venue": im.extra["venue"]}
    return {"calendar": calendar}, t


def _seed_cards(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Business cards; about half the odd ones are of people in the contacts already."""
    ids = [b.img("business_card") for _ in range(n)]
    t = {}
    for k, i in enumerate(ids):
        pr = b.imgs[i].person
        there = k % 2 == 1 and b.rng.random() < 0.8
        if there:
            b.add_row("phone.contacts", {"user_id": b.wi.owner_id, "first_name": pr["first_name"], "last_name": pr["last_name"],
                                         "email": pr["email"], "phone_number": pr["phone"], "relationships": [],
                                         "created_at": _past(b)})
        t[i] = {"present": there, **{c: pr[c] for c in ("name", "first_name", "last_name", "phone", "email")}}
    return {}, t


def _presence(r, scope: list[int], name_of, thing: str, where: str, them: str, **kw) -> Slip | None:
    return _presence_slip(r.b, scope, {i: t["present"] for i, t in r.t.items()}, name_of, thing, where, them, **kw)


def _poster_slip(r, scope: list[int]) -> Slip | None:
    """A wrong day for a missing event (half the time, when there is one), else a wrong stored-or-not claim."""
    if r.b.rng.random() < 0.5:
        slip = _date_slip(r.b, [i for i in scope if not r.t[i]["present"]], sorted(scope), "added it on")
        if slip is not None:
            return slip
    return _presence(r, scope, lambda i: r.b.imgs[i].label, "{which} event", "in my calendar", "it")


_EVENT = {"calendar_id": "{calendar[calendar_id]}", "title": "{label}", "start_datetime": "{start}", "end_datetime": "{end}",
          "formatted_address": "{venue}"}
_REMINDER = op("add_reminder", content="{label}", reminder_datetime="{start}")

CalendarPosterXref = missing_recipe(MissingRow(
    "CalendarPosterXref", "calendar.events", _seed_posters,
    first=(op("search_calendars", title="{calendar[title]}"),),
    look=op("search_calendar_events", title="{label}"), settled="'{label}' is already in your calendar.",
    add=op("create_calendar_event", save=True, **_EVENT), label="ev",
    added=("Added '{label}' on {date} at {time}.", "{label}: {date} {time}"),
    facts=("{label}",), only=("{label}", "{date}", "{venue}"),
    derive=lambda v: {"end": hours_after(v["start"], v["hours"])},
    remove=op("remove_calendar_event", calendar_event_id="@"),
    instead=Instead("Change of plan: instead of calendar events, I just want a reminder at the start time of each missing event. "
                    "Remove the events you added and set reminders instead, also for any others.", "Replaced them with reminders.",
                    op=_REMINDER, bit="Set a reminder for '{label}' on {date}."),
    detail=Detail("hours", lambda r: 2, lambda w: 3, lambda h: f"{h} hours",
                  "Sorry, I said {wrong} but they should be {right} long. Please fix the ones you added.", "They are now {right} long.",
                  op("modify_calendar_event", calendar_event_id="@", end_datetime="{end}")),
    inserted=lambda b, v: {"calendar_event_id": f"calendar_event_{b.new_id('calendar.events#')}",
                           **{k: resolve(a, v, "") for k, a in _EVENT.items()}, "attendee_names": [], "attendee_emails": []},
    slip=_poster_slip,
), __name__)

ContactsCardXref = missing_recipe(MissingRow(
    "ContactsCardXref", "phone.contacts", _seed_cards,
    look=op("contacts_search_contacts", query="{name}"), settled="{name} is already in your contacts.",
    add=op("contacts_add_contact", save=True, first_name="{first_name}", last_name="{last_name}", email="{email}",
           phone_number="{phone}", relationships=["{tag}"]), label="ct",
    added=("Added {name}.", "{name}: {phone}, {email}"), facts=("{name}",), only=("{name}", "{phone}", "{email}"),
    remove=op("contacts_delete_contact", contact_id="@contact_id"),
    instead=Instead("Change of plan: don't keep them in my contacts. Delete the ones you added and instead {intent}, "
                    "listing each new person's name, phone and email. Add any more to that same draft.", "Deleted them. {done}",
                    sinks=(S.DraftSink,)), headline="New contacts",
    detail=Detail("tag", lambda r: r.b.rng.choice(["colleague", "client", "conference"]),
                  {"colleague": "client", "client": "supplier", "conference": "partner"}.get, str,
                  "Sorry, they should be tagged '{right}', not '{wrong}'. Please fix the ones you added.", "Retagged them as '{right}'.",
                  op("contacts_update_contact", contact_id="@contact_id", relationships=["{tag}"])),
    inserted=lambda b, v: {"id": b.new_id("phone.contacts"), "user_id": b.wi.owner_id, "first_name": v["first_name"],
                           "last_name": v["last_name"], "email": v["email"], "phone_number": v["phone"], "relationships": [v["tag"]],
                           "created_at": _past(b, 0, 1)},
    slip=lambda r, scope: _presence(r, scope, lambda i: r.b.imgs[i].person["name"], "the person on {which} card",
                                    "in my contacts", "them", duplicates=False),
), __name__)


def _seed_wishlist(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Price tags of store products; all but (odd tags, 70 %) some are on the owner's wish list (``present``: not on it)."""
    t = {}
    for k, prod in enumerate(b.rng.sample(_free_products(b), n)):
        i = b.img("price_tag", product=(prod["name"], prod["name"].split(" ")[0], "box"),
                  price=round(prod["price"] * b.rng.uniform(0.85, 1.1), 2), on_sale=False)
        listed = not already_right(b, k)
        entry = b.add_row("amazon.wish_list_entries", {"user_id": b.wi.owner_id, "product_id": prod["id"], "quantity": 1,
                                                       "created_at": _past(b)})["id"] if listed else None
        t[i] = {"present": not listed, "id": prod["id"], "name": prod["name"], "entry": entry}
    return {}, t


WishlistXref = missing_recipe(MissingRow(
    "WishlistXref", "amazon.wish_list_entries", _seed_wishlist, every=(op("amazon_show_wish_list"),), keys=("{name}",), look=None,
    settled="{name} isn't on your wish list.",
    add=op("amazon_move_product_from_wish_list_to_cart", product_id="{id}"),
    added=("Moved {name} to your cart.", "{name}"), facts=("{name}",),
    instead=Instead("Change of plan: I'm buying them here in the store, so take them out of my cart; they should be gone from the wish "
                    "list too. For any others, just remove them from the wish list.", "Removed them from the cart.",
                    op=op("amazon_delete_product_from_wish_list", product_id="{id}"), bit="Removed {name} from your wish list.",
                    switch=(op("amazon_delete_product_from_cart", product_id="{id}"),)),
    own=lambda b, v: {"op": "delete", "table": "amazon.wish_list_entries", "key": v["entry"]},
), __name__)


def _seed_errands(b: Build, n: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Handwritten lists of three errands (at most four lists) and an errands project holding the first errand of each."""
    n = min(n, 4)
    errands = b.rng.sample(pools.ERRANDS, min(len(pools.ERRANDS), n * 3))
    ids = [b.img("handwritten_note", lines=errands[3 * k:3 * k + 3]) for k in range(n)]
    proj = _new_project(b, ["Errands", "Chores", "Around town"], "green")
    t = {}
    for k, i in enumerate(ids):
        lines = errands[3 * k:3 * k + 3]
        _add_task(b, proj, lines[0][:1].upper() + lines[0][1:], k + 1)
        t[i] = {"present": False, "items": [{"line": line, "title": line[:1].upper() + line[1:], "present": j == 0} for j, line in enumerate(lines)]}
    inbox = next(p for p in b.wi.rows("todoist.projects", user_id=b.wi.owner_id) if p["is_inbox"])
    return {"project": proj, "inbox": inbox}, t


ErrandsXref = missing_recipe(MissingRow(
    "ErrandsXref", "todoist.tasks", _seed_errands, every=_SHOW_PROJECT, keys=("{line}",), look=None,
    settled="'{line}' is already there.",
    add=op("todoist_create_task", save=True, project_id="{project[id]}", title="{title}", due_date="{due}"), label="e",
    added=("Added '{title}'.", "{title}"), facts=("{line}",),
    instead=Instead("Change of plan: put the new errands in my Inbox instead. Move the ones you added there, and add any more "
                    "missing ones to the Inbox too.", "Moved them to your Inbox.",
                    op=op("todoist_create_task", save=True, project_id="{inbox[id]}", title="{title}", due_date="{due}"),
                    bit="Added '{title}' to your Inbox.", pre=(op("todoist_show_projects", query="Inbox"),),
                    switch=(op("todoist_update_task", task_id="@task_id", project_id="{inbox[id]}"),)),
    detail=Detail("due", lambda r: (r.b.now + timedelta(days=r.b.rng.randint(2, 6))).date().isoformat(),
                  lambda w: (date.fromisoformat(w) + timedelta(days=1)).isoformat(), str,
                  "Sorry, wrong date: those should be due {right}, not {wrong}. Please fix them.", "They are now due {right}.",
                  op("todoist_update_task", task_id="@task_id", due_date="{due}")),
    inserted=lambda b, v: {"id": b.new_id("todoist.tasks"), "project_id": v["project"]["id"], "user_id": b.wi.owner_id,
                           "title": v["title"], "priority": "medium", "is_completed": False, "order_index": 50,
                           "created_at": _past(b, 0, 1)},
    slip=lambda r, scope: _project_slip(r.b, r.v["project"]),
), __name__)


RECIPES: dict[str, tuple[type[DBRecipe], ...]] = {
    "validate": (ContactsValidate, CalendarValidate, ReminderValidate, NotePriceValidate, SplitwiseValidate, SettingsMatch),
    "lookup_chain": (AmazonLookup, AmazonLookalike, SpotifyLookup, CardLookup, InvoicePayLookup, RosterTextLookup, ChartProjectLookup),
    "cross_reference": (TodoistReceiptXref, CalendarPosterXref, ContactsCardXref, WishlistXref, ErrandsXref),
}


def recipes_for(flow: str, challenge: str, category: str | None = None) -> list[type[DBRecipe]]:
    return [r for r in RECIPES[flow] if challenge in r.supports and (category is None or r.category == category)]


def make_db_recipe(b: Build, flow: str, n: int, arrival: str, challenge: str, budget: int, category: str | None = None) -> DBRecipe:
    options = recipes_for(flow, challenge, category)
    if not options:
        raise GenerationError(f"no {flow} recipe for challenge {challenge!r}" + (f" and category {category!r}" if category else ""))
    # the suite's least used recipes first (within one of the fewest), then its least used domains and categories:
    # a recipe whose domain is rare elsewhere must not take every scenario of the cells it can play
    fewest = min(b.recipe_use.get(r.__name__, 0) for r in options)
    options = [r for r in options if b.recipe_use.get(r.__name__, 0) <= fewest + 1]
    preferred = [r for r in options if set(r.domains) & b.prefer]
    if not preferred and b.prefer_categories:
        rank = {c: i for i, c in enumerate(b.prefer_categories)}
        best = min(rank.get(r.category, 99) for r in options)
        preferred = [r for r in options if rank.get(r.category, 99) <= best + 1]
    cls = b.rng.choice(preferred or options)
    return cls(b, n, arrival, challenge, budget)

