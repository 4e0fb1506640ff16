"""Gmail base data: a few hundred email threads of the device owner (and some of other people).

Threads are built from topic templates (work, personal, spam) whose slots are filled with the
builder's rng, so the same seed gives the same mailbox. The owner gets inbox and sent threads,
group threads, labels, stars, archived/spam/snoozed threads, attachments, unread emails and
drafts; a few subjects are nearly identical on purpose, so an agent must read before acting.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ...world.populators import BASE_TIME, BaseBuilder, populator
from .tables import (ATTACHMENTS, DRAFTS, EMAIL_STATES, EMAILS, GLOBAL_THREADS, THREAD_STATES, USER_THREADS,
                     thread_records)

# (kind, label, subject, opening texts, reply texts, attachment (file name, content) or None)
_TOPICS: tuple[tuple[str, str | None, str, tuple[str, ...], tuple[str, ...], tuple[str, str] | None], ...] = (
    ("work", "Work", "{project} status update",
     ("Quick update on {project}: the data migration is finished and we are testing the reporting views now. "
      "The main risk is still the vendor API, which times out on about 5% of calls.",
      "Here is where {project} stands: design is signed off, two of the three integrations are live, "
      "and the last one should be done by {day}."),
     ("Thanks for the update. Can we get the vendor on a call before {day}?",
      "Great progress. Let me know if you need more people on the integration work.",
      "Sounds good. I will loop in the platform team so they can help with the timeouts."), None),
    ("work", "Finance", "Q{q} budget review",
     ("Attached is the draft budget for Q{q}. Travel is over plan by about {amount} dollars, everything else is on track. "
      "Please review the numbers before our meeting on {day}.",),
     ("I went through the sheet; the software licences line looks too low to me.",
      "Looks fine overall. Can we move the travel overage to next quarter?",
      "Approved from my side."), ("budget_q{q}.csv", "category,planned,actual\ntravel,12000,{travel}\nsoftware,8000,7600\nhardware,5000,4100\ntraining,3000,2950\n")),
    ("work", "Work", "Agenda for {day}'s planning meeting",
     ("Proposed agenda: 1) roadmap for next quarter, 2) hiring plan, 3) open questions on {project}. "
      "Add anything you want to discuss.",),
     ("Could we also cover the support rotation?", "Added, thanks.", "Works for me, see you there."), None),
    ("work", "Work", "Team offsite planning",
     ("We are planning the team offsite for {month}. The options are {city} or a day trip to the lake. "
      "Please vote by {day}.",),
     ("I vote for {city}!", "The lake would be easier for people with kids.", "Either works for me."), None),
    ("work", "Work", "Interview feedback: {candidate}",
     ("Thanks for interviewing {candidate} today. Please send your written feedback and a hire / no hire recommendation by end of day.",),
     ("Strong hire from me. Great system design answers.", "Leaning no hire; the coding round was weak.",
      "Hire, but maybe at one level lower."), None),
    ("work", "Finance", "Expense report for {month}",
     ("My expense report for {month} is attached: hotel, two client dinners and the train tickets. "
      "Total is {amount} dollars.",),
     ("Approved. Finance will reimburse you with the next payroll.", "Can you add the receipt for the second dinner?"),
     ("expenses_{month_slug}.csv", "date,item,amount\n{month_slug}-04,hotel,412.00\n{month_slug}-05,client dinner,186.50\n{month_slug}-06,train,74.20\n")),
    ("work", "Work", "Slides for the {client} pitch",
     ("Here is the outline for the {client} pitch on {day}. I still need the case study numbers from you.",),
     ("Numbers are in, I updated slide 7.", "Looks great. Let's do a dry run the day before."),
     ("{client_slug}_pitch_outline.txt", "1. Who we are\n2. The problem {client} faces\n3. Our approach\n4. Case study\n5. Pricing\n6. Next steps\n")),
    ("work", None, "Out of office {date}",
     ("I will be out of office on {date}. For anything urgent about {project}, please contact me by phone.",),
     ("Thanks for letting me know, enjoy the day off!",), None),
    ("work", "Work", "Code review request: {feature}",
     ("Could you review my pull request for {feature}? It is about 300 lines, mostly tests.",),
     ("Left a few comments, mostly naming. Otherwise good to merge.", "Approved!", "Will look at it after lunch."), None),
    ("work", "Important", "Contract renewal with {client}",
     ("The contract with {client} ends next month. The summary of the renewal terms is attached; "
      "they are asking for a 6% discount.",),
     ("6% is acceptable if they sign for two years.", "Let's push back to 4%.",
      "Legal reviewed it, no issues on our side."),
     ("contract_summary_{client_slug}.txt", "Client: {client}\nTerm: 24 months\nRequested discount: 6%\nRenewal date: {date}\n")),
    ("work", "Work", "Onboarding plan for new hires",
     ("Here is the onboarding plan for the two new hires starting {day}: laptop setup, security training, "
      "shadowing on {project}.",),
     ("I can take the shadowing sessions.", "Please add an intro to the support tools."), None),
    ("work", "Important", "Customer escalation: {client}",
     ("{client} reported that exports fail for large accounts. They need a fix by {day}. Who can look into it?",),
     ("I reproduced it; it is a timeout in the export job. Working on a fix.",
      "Fix is deployed, please confirm with the customer.", "Thanks, I let them know."), None),
    ("work", None, "Holiday coverage schedule",
     ("Please add your name to the holiday coverage schedule for {month}. We need two people per week.",),
     ("I can cover the first week.", "Put me down for the last week."), None),
    ("personal", None, "Dinner on {day}?",
     ("Are you free for dinner on {day}? I was thinking {restaurant} around {time}.",),
     ("Yes, that sounds lovely!", "Can we make it a bit later, like 8?", "Perfect, I will book a table."), None),
    ("personal", "Travel", "Trip to {city}",
     ("I put together a rough plan for our trip to {city}; the itinerary is attached. Flights are about {amount} dollars each.",),
     ("This looks amazing, let's book the flights.", "Can we add a day at the beach?", "Booked! Confirmation to follow."),
     ("itinerary_{city_slug}.txt", "Day 1: arrive in {city}, check in, dinner near the old town\nDay 2: museum and walking tour\nDay 3: day trip to the coast\nDay 4: fly home\n")),
    ("personal", "Family", "Photos from the weekend",
     ("Here are some of the photos from the weekend at the lake. The kids had so much fun!",),
     ("These are great, thanks for sharing!", "Can you send the one with the boat?"), None),
    ("personal", "Family", "Happy birthday!",
     ("Happy birthday! Hope you have a wonderful day and a great year ahead.",),
     ("Thank you so much, that is very sweet of you!",), None),
    ("personal", None, "Book club: next pick",
     ("For next month's book club I suggest {book}. Thoughts?",),
     ("Love that one, count me in.", "I have read it already, but happy to read it again.",
      "Could we pick something shorter?"), None),
    ("personal", None, "Moving day help",
     ("We are moving on {day}. Could you help carry boxes in the morning? Pizza is on us.",),
     ("Of course, I will be there at 9.", "I can bring my van if that helps."), None),
    ("personal", None, "Recipe you asked for",
     ("As promised, here is the recipe for the lemon cake. Don't skip the glaze!",),
     ("Thank you! Making it this weekend.",), ("lemon_cake_recipe.txt", "250g flour, 200g sugar, 3 eggs, 2 lemons, 120g butter, 1 tsp baking powder. Bake 40 min at 180C.\n")),
    ("personal", "Family", "Family reunion in {month}",
     ("We are organizing the family reunion in {month} at the park by {city}. Let me know who is coming and what you can bring.",),
     ("We will be four. I can bring salads.", "Count us in, I will bring the grill.", "Sadly we can't make it this year."), None),
    ("personal", None, "Housewarming party",
     ("We finally settled in! Come to our housewarming party on {day} from {time}.",),
     ("Wouldn't miss it!", "Can I bring a friend?"), None),
    ("personal", "Finance", "Rent split for {month}",
     ("Rent for {month} is {amount} dollars, so your half is a bit more than usual because of the utilities. Details below.",),
     ("Sent you my share on Venmo.", "Thanks for sorting it out."), None),
    ("personal", None, "Concert tickets for {band}",
     ("I got two tickets for {band} on {day}! Want to come?",),
     ("YES! How much do I owe you?", "I am so in."), None),
    ("personal", None, "Thank you!",
     ("Just wanted to say thank you for your help last week. It really made a difference.",),
     ("Anytime, happy I could help!",), None),
    ("personal", None, "Kids' soccer carpool",
     ("Can we set up a carpool for soccer practice? I can drive on Mondays and Wednesdays.",),
     ("I will take Tuesdays and Thursdays.", "Works for us, thanks for organizing!"), None),
)
_SPAM = (
    ("Congratulations! You have been selected for a $500 gift card",
     "You have been chosen to receive a $500 gift card. Click the link and enter your card details to claim it within 24 hours."),
    ("URGENT: verify your account information",
     "Your account will be suspended unless you confirm your password and security questions today."),
    ("Limited time offer: 80% off designer watches",
     "Luxury watches at unbelievable prices. Only a few left in stock, order now!"),
    ("You have an unclaimed package",
     "A package addressed to you could not be delivered. Pay the 1.99 redelivery fee to schedule a new delivery."),
    ("Earn $5,000 a week from home",
     "No experience needed. Join thousands who already quit their jobs."),
)
# Near-identical subjects that an agent has to tell apart by sender, date or content.
_TWIN_SUBJECTS = (
    ("Team offsite planning", "Team offsite planning", "Team offsite planning - updated agenda"),
    ("Q{q} budget review", "Q3 budget review", "Q3 budget review (revised numbers)"),
    ("Dinner on {day}?", "Dinner on Friday?", "Dinner on Friday"),
)
_PROJECTS = ("Project Atlas", "the billing revamp", "Project Orion", "the mobile app launch", "the data warehouse", "Project Nimbus")
_CLIENTS = ("Acme Corp", "Globex", "Initech", "Umbrella Health", "Stark Logistics", "Wayne Foods")
_FEATURES = ("the search filters", "CSV export", "dark mode", "the new login flow", "rate limiting")
_CITIES = ("Lisbon", "Kyoto", "Barcelona", "Montreal", "Cape Town", "Reykjavik", "Austin")
_RESTAURANTS = ("Luigi's", "the new Thai place", "Sakura Sushi", "The Green Fork", "Casa Lola")
_BOOKS = ("Project Hail Mary", "Tomorrow, and Tomorrow, and Tomorrow", "The Overstory", "Klara and the Sun")
_BANDS = ("The National", "Phoebe Bridgers", "Arctic Monkeys", "Khruangbin")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
_TIMES = ("6pm", "6:30pm", "7pm", "7:30pm", "noon", "1pm")
_SIGNOFFS = ("Best,\n{name}", "Thanks,\n{name}", "Cheers,\n{name}", "- {name}", "Talk soon,\n{name}", "Regards,\n{name}")
_WORK_RELATIONS = ("coworker", "manager")
_COUNTS = (1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5)


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text.lower()).strip("_")


class _Writer:
    """Adds rows with explicit ids (faster than letting the builder look for the next id)."""

    def __init__(self, b: BaseBuilder) -> None:
        self.b = b
        self.ids = {t: b.next_id(t) for t in (EMAILS, DRAFTS, ATTACHMENTS, EMAIL_STATES, THREAD_STATES)}
        self.thread_id = 1
        self.rows: dict[str, list[dict[str, Any]]] = {}  # table -> rows added, in order

    def add(self, table: str, row: dict[str, Any]) -> dict[str, Any]:
        row["id"] = self.ids[table]
        self.ids[table] += 1
        added = self.b.add(table, row)
        self.rows.setdefault(table, []).append(added)
        return added


def _slots(b: BaseBuilder) -> dict[str, str]:
    rng = b.rng
    month = rng.choice(_MONTHS)
    client, city = rng.choice(_CLIENTS), rng.choice(_CITIES)
    day = (BASE_TIME - timedelta(days=rng.randint(1, 300))).date()
    return {
        "project": rng.choice(_PROJECTS), "day": rng.choice(_DAYS), "q": str(rng.randint(1, 4)),
        "amount": f"{rng.randint(3, 40) * 50:,}", "month": month, "month_slug": f"2025-{_MONTHS.index(month) + 1:02d}",
        "city": city, "city_slug": _slug(city), "candidate": f"{rng.choice(b.people).first_name} {rng.choice(b.people).last_name}", "client": client,
        "client_slug": _slug(client), "feature": rng.choice(_FEATURES), "date": day.isoformat(),
        "restaurant": rng.choice(_RESTAURANTS), "time": rng.choice(_TIMES), "book": rng.choice(_BOOKS),
        "band": rng.choice(_BANDS), "travel": str(rng.randint(12500, 16000)),
    }


def _body(b: BaseBuilder, text: str, to_names: list[str], sender_first: str) -> str:
    greeting = f"Hi {to_names[0]}," if len(to_names) == 1 else "Hi all,"
    return f"{greeting}\n\n{text}\n\n{b.rng.choice(_SIGNOFFS).format(name=sender_first)}"


def _thread(
    b: BaseBuilder, w: _Writer, people: dict[int, Any], starter: int, others: list[int], topic: tuple,
    count: int, start: datetime, subject: str | None = None,
) -> list[dict[str, Any]]:
    """Add one thread of ``count`` emails; returns the emails (oldest first)."""
    _kind, _label, subject_tpl, openings, replies, attachment = topic
    slots = _slots(b)
    subject = subject or subject_tpl.format(**slots)
    subject = subject[:1].upper() + subject[1:]
    thread_id = w.thread_id
    w.thread_id += 1
    members = [starter, *others]
    emails: list[dict[str, Any]] = []
    sender, when = starter, start
    for i in range(count):
        recipients = [m for m in members if m != sender]
        text = (b.rng.choice(openings) if i == 0 else b.rng.choice(replies)).format(**slots)
        att_ids = []
        if i == 0 and attachment is not None:
            name, content = attachment
            content = content.format(**slots)
            att = w.add(ATTACHMENTS, {
                "user_id": sender, "file_name": name.format(**slots), "content": content,
                "size": len(content.encode("utf-8")), "created_at": when.isoformat(),
            })
            att_ids.append(att["id"])
        emails.append(w.add(EMAILS, {
            "sender_id": sender, "recipient_ids": recipients,
            "subject": subject if i == 0 else f"Re: {subject}",
            "body": _body(b, text, [people[r].first_name for r in recipients], people[sender].first_name),
            "attachment_ids": att_ids, "response_to_email_id": emails[-1]["id"] if emails else None,
            "email_thread_id": thread_id, "created_at": when.isoformat(),
        }))
        # The next writer is someone other than the current sender (the starter answers back).
        pool = [m for m in members if m != sender]
        sender = pool[0] if len(pool) == 1 else b.rng.choice(pool)
        when = min(when + timedelta(minutes=b.rng.randint(20, 60 * 30)), BASE_TIME.replace(tzinfo=None) - timedelta(minutes=5))
    return emails


@populator("gmail", order=30)
def _populate(b: BaseBuilder) -> None:
    w = _Writer(b)
    me = b.supervisor.id
    people = {p.id: p for p in b.people}
    book: dict[int, list[str]] = b.shared.get("phone.owner_contacts") or {p.id: ["friend"] for p in b.others(60)}
    work = [pid for pid, rel in book.items() if rel[0] in _WORK_RELATIONS]
    personal = [pid for pid, rel in book.items() if rel[0] not in _WORK_RELATIONS]
    strangers = [p.id for p in b.people if p.id != me and p.id not in book]
    work_topics = [t for t in _TOPICS if t[0] == "work"]
    personal_topics = [t for t in _TOPICS if t[0] == "personal"]
    owner_threads: list[tuple[tuple, list[dict[str, Any]]]] = []

    def owner_thread(topic: tuple, subject: str | None = None, recent: bool = False) -> None:
        pool = work if topic[0] == "work" and work else personal or work
        partners = b.rng.sample(pool, 1 if b.rng.random() < 0.75 else min(len(pool), b.rng.randint(2, 3)))
        starter, others = (me, partners) if b.rng.random() < 0.35 else (partners[0], [me, *partners[1:]])
        start = b.past(20, 1) if recent else b.past(360, 3)
        emails = _thread(b, w, people, starter, others, topic, b.rng.choice(_COUNTS), start, subject)
        owner_threads.append((topic, emails))

    for i in range(140):
        topic = b.rng.choice(work_topics if i % 2 == 0 else personal_topics)
        owner_thread(topic, recent=i % 7 == 0)
    for template, first, second in _TWIN_SUBJECTS:
        topic = next(t for t in _TOPICS if t[2] == template)
        owner_thread(topic, subject=first)
        owner_thread(topic, subject=second, recent=True)
    spam_threads = []
    for subject, text in _SPAM:
        sender = b.rng.choice(strangers or personal)
        topic = ("spam", None, subject, (text,), (text,), None)
        spam_threads.append(_thread(b, w, people, sender, [me], topic, 1, b.past(90, 2), subject))
    # Threads between other people: never visible to the owner.
    for _ in range(20):
        a, c = b.others(2)
        topic = b.rng.choice(_TOPICS)
        _thread(b, w, people, a.id, [c.id], topic, b.rng.choice(_COUNTS), b.past(360, 3))

    _mailbox_states(b, w, me, owner_threads, spam_threads)
    _drafts(b, w, me, people, book, owner_threads)
    _thread_records(b, w, people)


def _thread_records(b: BaseBuilder, w: _Writer, people: dict[int, Any]) -> None:
    """The global and per-person records of every thread, derived from its emails and states."""
    by_thread: dict[int, list[dict[str, Any]]] = {}
    for email in w.rows.get(EMAILS, []):
        by_thread.setdefault(email["email_thread_id"], []).append(email)
    email_states = {(s["user_id"], s["email_id"]): s for s in w.rows.get(EMAIL_STATES, [])}
    thread_states = {(s["user_id"], s["email_thread_id"]): s for s in w.rows.get(THREAD_STATES, [])}
    users = {pid: {"email": p.email, "first_name": p.first_name, "last_name": p.last_name} for pid, p in people.items()}
    next_id = b.next_id(USER_THREADS)
    for tid, emails in sorted(by_thread.items()):
        email_ids, records = thread_records(tid, emails, users, lambda u, e: email_states.get((u, e)),
                                            lambda u, tid=tid: thread_states.get((u, tid)))
        first, last = min(e["created_at"] for e in emails), max(e["created_at"] for e in emails)
        b.add(GLOBAL_THREADS, {"id": tid, "email_ids": email_ids, "created_at": first, "updated_at": last})
        for columns in records.values():
            b.add(USER_THREADS, {"id": next_id, **columns, "created_at": first, "updated_at": last})
            next_id += 1


def _mailbox_states(b: BaseBuilder, w: _Writer, me: int, owner_threads: list, spam_threads: list) -> None:
    recent_cut = (BASE_TIME - timedelta(days=14)).replace(tzinfo=None).isoformat()
    stamp = BASE_TIME.replace(tzinfo=None).isoformat()
    snoozes = {5: "2026-06-02T09:00:00", 42: "2026-06-15T08:00:00", 79: "2026-07-01T09:00:00"}
    for n, (topic, emails) in enumerate(owner_threads):
        for email in emails:
            if me in email["recipient_ids"] and (email["created_at"] < recent_cut or b.rng.random() < 0.4):
                w.add(EMAIL_STATES, {"user_id": me, "email_id": email["id"], "read": True, "updated_at": stamp})
        state: dict[str, Any] = {}
        if topic[1] and b.rng.random() < 0.45:
            state["label"] = topic[1]
        if b.rng.random() < 0.1:
            state["starred"] = True
        if emails[-1]["created_at"] < recent_cut and b.rng.random() < 0.12:
            state["archived"] = True
        if n in snoozes:
            state["snoozed_until"] = snoozes[n]
        if state:
            w.add(THREAD_STATES, {"user_id": me, "email_thread_id": emails[0]["email_thread_id"], **state, "updated_at": stamp})
    for emails in spam_threads:
        w.add(THREAD_STATES, {"user_id": me, "email_thread_id": emails[0]["email_thread_id"], "spam": True, "updated_at": stamp})


def _drafts(b: BaseBuilder, w: _Writer, me: int, people: dict[int, Any], book: dict[int, list[str]], owner_threads: list) -> None:
    def recipients(ids: list[int]) -> dict[str, list[Any]]:
        return {
            "recipient_ids": ids, "recipient_email_addresses": [people[i].email for i in ids],
            "recipient_names": [people[i].full_name for i in ids],
        }

    contacts = list(book)
    fresh = (
        ("Lunch next week?", "Hi {n},\n\nWould you like to grab lunch next week? Tuesday or Thursday works for me."),
        ("Question about the invoice", "Hi {n},\n\nI noticed the invoice total does not match the quote. Could you check?"),
        ("Weekend plans", "Hi {n},\n\nAre you around this weekend? We could go for a hike if the weather is nice."),
        ("Notes from today's meeting", "Hi {n},\n\nHere are my notes: we agreed to ship the beta on the 15th and revisit pricing later."),
        ("Recommendation letter", "Hi {n},\n\nI would be happy to write the recommendation letter. When is the deadline?"),
        ("", "Hi {n},\n\nJust a quick reminder about"),
    )
    for i, (subject, body) in enumerate(fresh):
        to = b.rng.choice(contacts)
        created = b.past(30, 1).isoformat()
        w.add(DRAFTS, {
            "user_id": me, **recipients([to]), "subject": subject, "body": body.format(n=people[to].first_name),
            "scheduled_send_at": "2026-05-04T08:30:00" if i == 1 else None, "created_at": created, "updated_at": created,
        })
    for _topic, emails in b.rng.sample(owner_threads, 3):
        last = emails[-1]
        to = [last["sender_id"]] if last["sender_id"] != me else last["recipient_ids"]
        created = max(b.past(10, 1).isoformat(), last["created_at"])
        w.add(DRAFTS, {
            "user_id": me, **recipients(to), "subject": f"Re: {emails[0]['subject']}",
            "body": "Thanks for the note. I will get back to you with details by the end of the week.",
            "belongs_to_email_thread_id": last["email_thread_id"], "response_to_email_id": last["id"],
            "created_at": created, "updated_at": created,
        })
    for _ in range(6):
        author, to = b.others(2)
        created = b.past(30, 1).isoformat()
        w.add(DRAFTS, {
            "user_id": author.id, **recipients([to.id]), "subject": "Catching up",
            "body": f"Hi {to.first_name},\n\nIt has been a while! How are things?", "created_at": created, "updated_at": created,
        })
