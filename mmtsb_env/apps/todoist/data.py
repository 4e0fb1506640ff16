"""Todoist base data: the owner's projects, tasks, labels, comments, invites and notifications.

Every user gets an Inbox; the device owner gets a dozen themed projects (one shared with a
team), joins three projects owned by others and has two pending invites. Other people own
private projects with the same names, which the owner must never see.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, time, timedelta
from typing import Any

from ...world.populators import BASE_TIME, BaseBuilder, populator
from .tables import (
    APP, ATTACHMENTS, COLORS, COMMENTS, INVITES, LABELS, LINKS, NOTIFICATIONS, PROJECTS, SECTIONS, SUB_TASKS,
    TASK_LABELS, TASKS,
)

_PROJECT_PLANS = [
    # name, color, description, sections, theme, favorite
    ("Work", "blue", "Day-job tasks and follow-ups", ["This week", "Backlog", "Waiting on others"], "work", True),
    ("Home Renovation", "orange", "Kitchen and bathroom remodel", ["Kitchen", "Bathroom", "Living room"], "reno", False),
    ("Groceries", "green", "", [], "grocery", True),
    ("Fitness Plan", "red", "Training for the half marathon in June", ["Running", "Strength"], "fitness", False),
    ("Reading List", "yellow", "Books to read this year", [], "reading", False),
    ("Trip to Lisbon", "blue", "May vacation planning", ["Before leaving", "Packing", "In Lisbon"], "trip", True),
    ("Budget App", "charcoal", "Side project: a personal finance tracker", ["Design", "Backend", "Launch"], "dev", False),
    ("Emma's Birthday Party", "red", "Party on Saturday, April 25", [], "party", False),
    ("Garden", "green", "", ["Spring planting", "Maintenance"], "garden", False),
    ("Learning Spanish", "orange", "B1 level by the end of the year", [], "spanish", False),
    ("Car Maintenance", "charcoal", "", [], "car", False),
    ("Finances", "yellow", "Taxes, bills and savings", ["Taxes", "Bills"], "finance", False),
    ("Health", "red", "", [], "health", False),
    ("Q2 Marketing Launch", "blue", "Launch plan shared with the marketing team", ["Content", "Campaign", "Analytics"], "marketing", False),
]
_SHARED_IN = [  # projects owned by someone else that the device owner collaborates on
    ("Book Club", "yellow", "Monthly book club with friends", [], "bookclub", 3),
    ("Team Offsite 2026", "green", "Logistics for the June team offsite", ["Venue", "Agenda"], "offsite", 5),
    ("Apartment Move", "orange", "Moving to the new place on May 30", [], "move", 1),
]
_INVITED_TO = [("Neighborhood Cleanup", "green", "cleanup"), ("Family Reunion 2026", "red", "reunion")]

_THEMES: dict[str, list[str]] = {
    "work": [f"{v} {o}" for v in ("Prepare", "Review", "Send", "Update", "Draft", "Finalize")
             for o in ("Q2 roadmap", "budget forecast", "client proposal for Acme", "quarterly report",
                       "onboarding checklist", "team OKRs", "hiring plan", "vendor contract")],
    "grocery": [f"Buy {x}" for x in (
        "milk", "eggs", "sourdough bread", "bananas", "avocados", "greek yogurt", "coffee beans", "olive oil",
        "chicken thighs", "basmati rice", "spinach", "cherry tomatoes", "cheddar cheese", "oat milk", "pasta",
        "tomato sauce", "garlic", "lemons", "salmon fillets", "almond butter", "granola", "dish soap",
        "paper towels", "laundry detergent", "frozen berries", "dark chocolate", "sparkling water", "parmesan")],
    "reno": [f"{v} {o}" for v, objs in (
        ("Get quotes for", ("kitchen cabinets", "bathroom tiles", "countertops", "living room floor")),
        ("Order", ("new kitchen faucet", "shower door", "light fixtures", "backsplash tiles")),
        ("Measure", ("kitchen window", "bathroom vanity", "living room wall")),
        ("Pick paint color for", ("kitchen", "bathroom", "living room")),
        ("Call contractor about", ("kitchen schedule", "bathroom permit", "floor delivery")),
        ("Install", ("kitchen shelves", "towel rack", "baseboards in living room", "smart thermostat")),
    ) for o in objs],
    "fitness": [f"Week {w}: {x}" for w, x in (
        (1, "Long run 10k"), (2, "Long run 12k"), (3, "Long run 14k"), (4, "Long run 16k"), (5, "Long run 18k"),
        (1, "Intervals 6x400m"), (2, "Intervals 6x800m"), (3, "Tempo run 8k"), (4, "Hill repeats"))]
    + ["Leg day at the gym", "Upper body workout", "Core workout", "Yoga session", "Buy new running shoes",
       "Sign up for the half marathon", "Book physio appointment", "Foam rolling after long run",
       "Plan race-day nutrition", "Swim 1km"],
    "reading": [f"Read '{t}'" for t in (
        "Pride and Prejudice", "The Great Gatsby", "Moby-Dick", "Dune", "Sapiens", "Atomic Habits", "The Hobbit",
        "Nineteen Eighty-Four", "Brave New World", "The Road", "Educated", "Thinking, Fast and Slow",
        "The Overstory", "Project Hail Mary", "Circe", "The Midnight Library", "Klara and the Sun", "Middlemarch",
        "Beloved", "The Remains of the Day", "Never Let Me Go", "Anna Karenina", "Piranesi")],
    "trip": ["Book flights to Lisbon", "Book hotel in Alfama", "Renew passport", "Renew passport photos",
             "Buy travel adapter", "Exchange euros", "Check travel insurance", "Arrange pet sitter",
             "Hold mail delivery", "Notify bank about travel", "Download offline maps", "Print boarding passes",
             "Pack sunscreen", "Pack hiking shoes", "Pack chargers and adapters", "Pack rain jacket",
             "Plan day trip to Sintra", "Reserve table at Time Out Market", "Buy tram 28 tickets",
             "Book Belem tower tour", "Fado show tickets", "Visit LX Factory"],
    "dev": ["Design login screen", "Design dashboard wireframes", "Set up Postgres database",
            "Write API for transactions", "Add CSV import", "Implement budget categories",
            "Write unit tests for parser", "Set up CI pipeline", "Fix currency rounding bug", "Add dark mode",
            "Refactor auth module", "Add recurring transactions", "Write privacy policy", "Create landing page",
            "Submit to app store", "Collect beta feedback", "Set up error monitoring", "Write README"],
    "party": ["Send invitations", "Order birthday cake", "Buy balloons", "Book the bounce house", "Plan party games",
              "Buy return gifts", "Confirm RSVPs", "Order pizza", "Decorate the backyard", "Buy candles",
              "Make a playlist", "Rent extra chairs", "Buy paper plates and cups", "Wrap presents"],
    "garden": ["Plant tomato seedlings", "Plant basil", "Buy compost", "Prune the roses", "Mow the lawn",
               "Fix the sprinkler", "Weed vegetable bed", "Order tulip bulbs", "Repaint the fence", "Build raised bed",
               "Spread mulch", "Trim the hedge", "Clean gutters", "Set up rain barrel"],
    "spanish": [f"Review {t} vocabulary" for t in ("food", "travel", "family", "work", "weather", "shopping")]
    + ["Duolingo: finish unit 12", "Duolingo: finish unit 13", "Practice the subjunctive", "Learn the preterite tense",
       "Write a diary entry in Spanish", "Book a conversation class", "Watch a Spanish film with subtitles",
       "Listen to a Spanish podcast episode", "Flashcards: irregular verbs"],
    "car": ["Oil change", "Rotate tires", "Renew car registration", "Renew car insurance", "Replace wiper blades",
            "Car wash", "Check tire pressure", "Schedule 30k mile service", "Fix scratch on rear bumper",
            "Replace cabin air filter", "Get smog check"],
    "finance": ["File 2025 tax return", "Gather W-2 forms", "Find charity donation receipts", "Pay electricity bill",
                "Pay water bill", "Pay internet bill", "Review credit card statement", "Set up automatic savings transfer",
                "Update monthly budget", "Cancel unused subscriptions", "Pay property tax installment",
                "Rebalance retirement portfolio", "Check HSA balance"],
    "health": ["Book dentist appointment", "Dentist cleaning follow-up", "Refill prescription", "Annual physical",
               "Eye exam", "Get flu shot", "Buy vitamins", "Call insurance about claim", "Get blood test results",
               "Book dermatologist appointment", "Meditate 10 minutes"],
    "marketing": ["Write launch blog post", "Draft press release", "Create social media calendar", "Design launch banner",
                  "Record product demo video", "Set up email campaign", "Segment newsletter list", "Plan launch webinar",
                  "Brief the agency", "Set up UTM tracking", "Review ad copy", "Analyze campaign performance",
                  "Prepare launch metrics dashboard", "Collect customer testimonials", "Update website pricing page",
                  "A/B test email subject lines"],
    "inbox": ["Call mom", "Pick up dry cleaning", "Return library books", "Buy milk", "Schedule haircut",
              "Fix leaky faucet", "Call plumber about the leak", "Call plumber about the kitchen leak",
              "Renew gym membership", "Reply to landlord", "Book restaurant for anniversary", "Back up phone photos",
              "Update resume", "Water the plants", "Take out recycling", "Buy birthday card",
              "Cancel magazine subscription", "Order new contact lenses", "Pay parking ticket"],
    "bookclub": ["Pick next month's book", "Read chapters 1-10", "Read chapters 11-20", "Prepare discussion questions",
                 "Book a table at the cafe", "Send reminder to the group", "Collect votes for the next book",
                 "Bring snacks", "Share meeting notes"],
    "offsite": ["Shortlist venues", "Get catering quotes", "Book the venue", "Draft the agenda", "Plan team activity",
                "Arrange transport", "Collect dietary restrictions", "Order team t-shirts", "Prepare welcome slides",
                "Send calendar invites"],
    "move": ["Book movers", "Buy packing boxes", "Pack the kitchen", "Pack books", "Transfer utilities",
             "Change address at the post office", "Clean the old apartment", "Return old keys",
             "Set up internet at the new place"],
    "cleanup": ["Get trash bags and gloves", "Map the streets to cover", "Print flyers", "Ask the city for a dumpster"],
    "reunion": ["Book the picnic area", "Collect family addresses", "Order the cake", "Plan games for the kids"],
}
_SECTION_HINTS = {  # theme -> keyword -> section name
    "work": {"Send": "Waiting on others", "Review": "This week", "Finalize": "This week"},
    "reno": {"kitchen": "Kitchen", "bathroom": "Bathroom", "shower": "Bathroom", "towel": "Bathroom", "living": "Living room"},
    "fitness": {"run": "Running", "Intervals": "Running", "Tempo": "Running", "Hill": "Running", "gym": "Strength",
                "Upper": "Strength", "Core": "Strength"},
    "trip": {"Pack": "Packing", "Book": "Before leaving", "Renew": "Before leaving", "Sintra": "In Lisbon",
             "Time Out": "In Lisbon", "tram": "In Lisbon", "Belem": "In Lisbon", "Fado": "In Lisbon", "LX": "In Lisbon"},
    "dev": {"Design": "Design", "Postgres": "Backend", "API": "Backend", "CSV": "Backend", "Refactor": "Backend",
            "store": "Launch", "landing": "Launch", "beta": "Launch", "privacy": "Launch"},
    "garden": {"Plant": "Spring planting", "Order": "Spring planting", "Build": "Spring planting"},
    "finance": {"tax": "Taxes", "W-2": "Taxes", "receipts": "Taxes", "Pay": "Bills", "bill": "Bills"},
    "marketing": {"blog": "Content", "press": "Content", "video": "Content", "testimonials": "Content",
                  "campaign": "Campaign", "agency": "Campaign", "ad copy": "Campaign", "webinar": "Campaign",
                  "Analyze": "Analytics", "UTM": "Analytics", "dashboard": "Analytics", "A/B": "Analytics"},
    "offsite": {"venue": "Venue", "catering": "Venue", "agenda": "Agenda", "activity": "Agenda", "slides": "Agenda"},
}
_DESCRIPTIONS = [
    "", "", "", "See the email thread for details.", "Ask for the receipt.", "Budget: $200 max.",
    "Check with Sam first.", "Needs to happen before the weekend.", "Low priority if time is short.",
    "Link in the shared doc.", "Compare at least three options.", "Bring the paperwork.",
]
_COMMENTS = [
    "Called them, waiting for a callback.", "Moved to next week.", "Quote came in at $1,250.", "Done halfway.",
    "Need to double-check the numbers.", "Blocked until the delivery arrives.", "Great progress!",
    "Can you take a look at this?", "Added the details to the shared doc.", "They are closed on Mondays.",
    "Confirmed by email.", "Let's discuss at the next sync.", "Price went up by 10%.", "Ordered online.",
]
_LABELS = [("urgent", "red"), ("errand", "green"), ("phone-call", "blue"), ("waiting", "yellow"),
           ("quick-win", "green"), ("computer", "charcoal"), ("deep-work", "blue"), ("home", "orange"),
           ("weekend", "yellow"), ("low-energy", "charcoal")]
_OTHER_PROJECT_NAMES = ["Groceries", "Work", "Home", "Errands", "Vacation", "Fitness", "Side Project", "Garden"]


class _Ids:
    def __init__(self) -> None:
        self.n: dict[str, int] = {}

    def __call__(self, table: str) -> int:
        self.n[table] = self.n.get(table, 0) + 1
        return self.n[table]


@populator(APP, order=30)
def _populate(b: BaseBuilder) -> None:
    rng = b.rng
    ids = _Ids()
    owner = b.supervisor.id
    base_day = BASE_TIME.date()

    def stamp(dt: datetime) -> str:
        return dt.replace(microsecond=0).isoformat()

    def add_project(user_id: int, name: str, color: str, desc: str = "", inbox: bool = False,
                    favorite: bool = False, members: tuple[int, ...] = ()) -> dict[str, Any]:
        created = b.past(600, 220)
        project = b.add(PROJECTS, {"id": ids(PROJECTS), "user_id": user_id, "name": name, "color": color,
                                   "is_inbox": inbox, "description": desc, "created_at": stamp(created)})
        b.add(LINKS, {"id": ids(LINKS), "project_id": project["id"], "user_id": user_id,
                      "is_favorite": favorite, "is_archived": False, "created_at": stamp(created)})
        for i, uid in enumerate(members):
            b.add(LINKS, {"id": ids(LINKS), "project_id": project["id"], "user_id": uid,
                          "is_favorite": False, "is_archived": False,
                          "created_at": stamp(created + timedelta(days=1 + i))})
        return project

    def add_tasks(project: dict[str, Any], theme: str, titles: list[str], sections: dict[str, int],
                  members: list[int]) -> list[dict[str, Any]]:
        hints = _SECTION_HINTS.get(theme, {})
        order: dict[Any, int] = {}
        out = []
        for title in titles:
            section_id = None
            for key, sec_name in hints.items():
                if key in title and sec_name in sections:
                    section_id = sections[sec_name]
                    break
            if section_id is None and sections and rng.random() < 0.3:
                section_id = rng.choice(list(sections.values()))
            order[section_id] = order.get(section_id, 0) + 1
            due = None
            if rng.random() < 0.6:
                due = base_day + timedelta(days=rng.randint(-50, 120))
            created = b.past(200, 2)
            if due is not None and created.date() >= due:
                created = datetime.combine(due - timedelta(days=rng.randint(1, 25)),
                                           time(rng.randint(7, 21), rng.randint(0, 59)))
            if due is not None:
                done = rng.random() < (0.75 if due < base_day else 0.08)
            else:
                done = rng.random() < 0.2
            duration, unit = None, None
            if rng.random() < 0.25:
                duration, unit = rng.choice([(15, "minutes"), (30, "minutes"), (45, "minutes"), (90, "minutes"),
                                             (1, "hours"), (2, "hours"), (1, "days")])
            creator = rng.choice(members) if len(members) > 1 else project["user_id"]
            assignee = assigner = None
            if len(members) > 1 and rng.random() < 0.6:
                assignee = rng.choice(members)
                assigner = creator
            task = b.add(TASKS, {
                "id": ids(TASKS), "project_id": project["id"], "section_id": section_id, "user_id": creator,
                "title": title, "description": rng.choice(_DESCRIPTIONS) or None,
                "due_date": due.isoformat() if due else None,
                "priority": rng.choices(("low", "medium", "high"), weights=(3, 5, 2))[0], "is_completed": done,
                "duration": duration, "duration_unit": unit, "order_index": order[section_id],
                "assignee_id": assignee, "assigner_id": assigner, "created_at": stamp(created),
            })
            out.append(task)
        return out

    def add_sections(project: dict[str, Any], names: list[str]) -> dict[str, int]:
        out = {}
        for i, name in enumerate(names):
            row = b.add(SECTIONS, {"id": ids(SECTIONS), "project_id": project["id"], "name": name,
                                   "order_index": i + 1, "created_at": project["created_at"]})
            out[name] = row["id"]
        return out

    # every user has an Inbox
    inbox_ids = {}
    for p in b.people:
        inbox_ids[p.id] = add_project(p.id, "Inbox", "charcoal", inbox=True)["id"]
    owner_tasks: list[dict[str, Any]] = []
    owner_inbox = {"id": inbox_ids[owner], "user_id": owner}
    owner_tasks += add_tasks(owner_inbox, "inbox", _THEMES["inbox"], {}, [owner])

    others = [p.id for p in b.people if p.id != owner]
    marketing_team: list[int] = []
    for name, color, desc, sections, theme, fav in _PROJECT_PLANS:
        members: tuple[int, ...] = ()
        if theme == "marketing":
            members = tuple(rng.sample(others, 4))
            marketing_team = [owner, *members]
        project = add_project(owner, name, color, desc, favorite=fav, members=members)
        secs = add_sections(project, sections)
        titles = list(_THEMES[theme])
        rng.shuffle(titles)
        owner_tasks += add_tasks(project, theme, titles, secs, [owner, *members])

    shared_projects = []
    for name, color, desc, sections, theme, n_extra in _SHARED_IN:
        boss, *extra = rng.sample(others, 1 + n_extra)
        project = add_project(boss, name, color, desc, members=(owner, *extra))
        secs = add_sections(project, sections)
        owner_tasks += add_tasks(project, theme, list(_THEMES[theme]), secs, [boss, owner, *extra])
        shared_projects.append(project)

    # other people's private projects (same names as the owner's, never visible to the owner)
    pool = [t for theme in ("work", "grocery", "inbox", "trip", "garden", "car") for t in _THEMES[theme]]
    other_owners = rng.sample(others, 24)
    for uid in other_owners:
        name = rng.choice(_OTHER_PROJECT_NAMES)
        project = add_project(uid, name, rng.choice(COLORS))
        add_tasks(project, "other", rng.sample(pool, 6), {}, [uid])

    # projects the owner is invited to (pending invites + notifications)
    for (name, color, theme), inviter in zip(_INVITED_TO, rng.sample(others, len(_INVITED_TO))):
        project = add_project(inviter, name, color, members=tuple(rng.sample(others, 2)))
        add_tasks(project, theme, list(_THEMES[theme]), {}, [inviter])
        code = hashlib.sha1(f"base:{project['id']}:{owner}".encode()).hexdigest()[:12].upper()
        when = stamp(b.past(20, 1))
        b.add(INVITES, {"id": ids(INVITES), "project_id": project["id"], "inviter_id": inviter,
                        "invitee_id": owner, "invite_code": code, "created_at": when})
        who = next(p for p in b.people if p.id == inviter)
        b.add(NOTIFICATIONS, {
            "id": ids(NOTIFICATIONS), "user_id": owner, "type": "project_invite", "title": "Project invitation",
            "message": f"{who.full_name} invited you to join the project \"{name}\".", "read": False,
            "data": {"project_id": project["id"], "invite_code": code, "inviter_id": inviter}, "created_at": when,
        })
    # an invite the owner sent and that is still pending
    if marketing_team:
        marketing = next(r for r in b.rows[PROJECTS].values() if r["name"] == "Q2 Marketing Launch")
        invitee = rng.choice([o for o in others if o not in marketing_team])
        code = hashlib.sha1(f"base:{marketing['id']}:{invitee}".encode()).hexdigest()[:12].upper()
        b.add(INVITES, {"id": ids(INVITES), "project_id": marketing["id"], "inviter_id": owner,
                        "invitee_id": invitee, "invite_code": code, "created_at": stamp(b.past(10, 1))})

    # sub-tasks
    sub_words = ["Research options", "Compare prices", "Ask for recommendations", "Make a shortlist", "Confirm by email",
                 "Write it down", "Double-check the date", "Get approval", "Pay the deposit", "Follow up"]
    parents = [t for t in owner_tasks if rng.random() < 0.15]
    for task in parents:
        for i, title in enumerate(rng.sample(sub_words, rng.randint(2, 4))):
            b.add(SUB_TASKS, {
                "id": ids(SUB_TASKS), "task_id": task["id"], "title": title, "description": None,
                "due_date": task["due_date"], "priority": "medium",
                "is_completed": task["is_completed"] or rng.random() < 0.3, "duration": None,
                "duration_unit": None, "order_index": i + 1, "created_at": task["created_at"],
            })

    # labels and their links
    owner_labels = []
    for name, color in _LABELS:
        owner_labels.append(b.add(LABELS, {"id": ids(LABELS), "user_id": owner, "name": name, "color": color,
                                           "created_at": stamp(b.past(500, 200))}))
    for uid in rng.sample(others, 12):
        for name, color in rng.sample(_LABELS, 3):
            b.add(LABELS, {"id": ids(LABELS), "user_id": uid, "name": name, "color": color,
                           "created_at": stamp(b.past(500, 200))})
    for task in rng.sample(owner_tasks, 110):
        for label in rng.sample(owner_labels, rng.choice((1, 1, 2))):
            b.add(TASK_LABELS, {"id": ids(TASK_LABELS), "task_id": task["id"], "label_id": label["id"],
                                "created_at": task["created_at"]})

    # comments (collaborators comment on shared tasks too)
    members_of: dict[int, list[int]] = {}
    for link in b.rows[LINKS].values():
        members_of.setdefault(link["project_id"], []).append(link["user_id"])
    for task in rng.sample(owner_tasks, 85):
        people = members_of.get(task["project_id"], [owner])
        start = datetime.fromisoformat(task["created_at"])
        for k in range(rng.choice((1, 1, 2, 3))):
            when = min(start + timedelta(hours=rng.randint(2, 400)), BASE_TIME.replace(tzinfo=None) - timedelta(hours=1))
            comment = b.add(COMMENTS, {"id": ids(COMMENTS), "task_id": task["id"], "user_id": rng.choice(people),
                                       "content": rng.choice(_COMMENTS), "created_at": stamp(when)})
            if rng.random() < 0.06:
                b.add(ATTACHMENTS, {"id": ids(ATTACHMENTS), "task_comment_id": comment["id"],
                                    "file_name": rng.choice(["quote.pdf", "photo.jpg", "notes.txt", "receipt.pdf"]),
                                    "content": f"Attachment for task {task['id']}", "created_at": stamp(when)})

    # notifications about tasks assigned to the owner in shared projects
    for task in owner_tasks:
        if task["assignee_id"] == owner and task["assigner_id"] not in (None, owner):
            who = next(p for p in b.people if p.id == task["assigner_id"])
            b.add(NOTIFICATIONS, {
                "id": ids(NOTIFICATIONS), "user_id": owner, "type": "task_assigned", "title": "Task assigned",
                "message": f"{who.full_name} assigned you the task \"{task['title']}\".",
                "read": rng.random() < 0.6, "data": {"task_id": task["id"], "project_id": task["project_id"]},
                "created_at": task["created_at"],
            })
