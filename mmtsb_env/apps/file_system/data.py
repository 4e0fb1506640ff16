"""File system base data: a realistic home tree (documents, bills, photos, downloads, work,
receipts, music, a backup archive) for the device owner and small trees for a few other people.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta

from ...world.populators import BASE_TIME, BaseBuilder, populator
from .tables import APP, DIRECTORIES, FILES, archive_listing, archive_size, home_name, size_of

_UTILITIES = [
    ("electricity", "Pacific Gas & Electric", 60, 190),
    ("internet", "Comcast Xfinity", 65, 95),
    ("water", "City Water Utilities", 25, 70),
    ("phone", "Verizon Wireless", 55, 120),
    ("gas", "SoCal Gas Company", 18, 110),
]
_PLACES = ["maui", "lisbon", "kyoto", "banff", "barcelona"]
_STORES = [
    ("Whole Foods Market", ["organic bananas", "almond milk", "sourdough bread", "avocados", "greek yogurt", "salmon fillet"]),
    ("Target", ["paper towels", "dish soap", "phone charger", "shampoo", "light bulbs"]),
    ("Home Depot", ["paint roller", "drywall screws", "extension cord", "potting soil", "duct tape"]),
    ("Trader Joe's", ["frozen dumplings", "trail mix", "orange chicken", "cold brew", "hummus"]),
    ("Costco", ["olive oil", "coffee beans", "batteries", "toilet paper", "rotisserie chicken"]),
    ("REI", ["headlamp", "camping stove fuel", "hiking socks", "water filter"]),
    ("Best Buy", ["HDMI cable", "wireless mouse", "USB-C hub"]),
]
_NOTES = {
    "reading_list.md": "# Reading list\n- The Overstory\n- Project Hail Mary\n- Thinking, Fast and Slow\n- The Pragmatic Programmer\n",
    "recipes.md": "# Recipes\n## Lemon pasta\nspaghetti, lemon zest, parmesan, butter, black pepper\n## Chili\nbeans, ground turkey, tomatoes, cumin, chili powder\n",
    "goals_2026.md": "# Goals for 2026\n1. Run a half marathon\n2. Save 20% of income\n3. Learn conversational Spanish\n",
    "packing_list.md": "# Packing list\npassport, chargers, rain jacket, sunscreen, travel adapter, medications\n",
    "gift_ideas.md": "# Gift ideas\nMom: ceramic planter\nDad: fly fishing reel\nSister: pottery class voucher\n",
    "wifi_passwords.md": "# Wi-Fi\nhome: SunnyDays2024\ncabin: pinecone-77\n",
    "movies_to_watch.md": "# Movies\n- Past Lives\n- Dune: Part Two\n- The Holdovers\n",
    "workout_plan.md": "# Workout plan\nMon: run 5k\nWed: strength\nFri: swim 1500m\nSun: long run\n",
    "book_club_notes.md": "# Book club\nNext pick: Tomorrow, and Tomorrow, and Tomorrow. Meeting at Priya's.\n",
    "home_maintenance.md": "# Home maintenance\n- replace HVAC filter every 3 months\n- clean gutters in October\n",
}
_PROJECTS = {
    "budget_tracker": "A small tool that imports bank CSV exports and categorises spending.",
    "garden_planner": "Planting calendar and watering schedule for the backyard beds.",
    "website_redesign": "Redesign of the family photo website with a new gallery layout.",
}
_MEETING_TOPICS = ["quarterly planning", "vendor review", "hiring sync", "roadmap review", "budget check-in",
                   "launch retrospective", "design critique", "customer feedback"]


def _stamp(rng: random.Random, max_days: int, min_days: int = 1) -> tuple[str, str]:
    created = BASE_TIME - timedelta(seconds=rng.randint(min_days * 86400, max_days * 86400))
    updated = created + timedelta(seconds=rng.randint(0, 20 * 86400))
    updated = min(updated, BASE_TIME - timedelta(hours=1))
    fmt = lambda d: d.replace(tzinfo=None, microsecond=0).isoformat()  # noqa: E731
    return fmt(created), fmt(updated)


def _owner_tree(rng: random.Random, first: str, last: str) -> dict[str, str]:
    files: dict[str, str] = {}
    for name, text in _NOTES.items():
        files[f"documents/personal/notes/{name}"] = text
    files["documents/personal/resume.txt"] = f"{first} {last}\nExperience: 8 years in operations and analytics.\nSkills: SQL, Excel, project management\n"
    files["documents/personal/insurance_policy.txt"] = "Policy: HO-3 homeowners\nInsurer: Lemonade\nDeductible: $1,000\nRenewal: 2026-09-01\n"
    files["documents/personal/passport_scan.pdf"] = f"PDF scan of passport for {first} {last}; expires 2031-05-14\n"
    for year in (2024, 2025):
        files[f"documents/taxes/{year}/w2.txt"] = f"Form W-2 {year}\nWages: ${rng.randint(78, 140)},{rng.randint(100, 999)}.00\nFederal tax withheld: ${rng.randint(9, 22)},{rng.randint(100, 999)}.00\n"
        files[f"documents/taxes/{year}/1099_int.txt"] = f"Form 1099-INT {year}\nInterest income: ${rng.randint(40, 900)}.{rng.randint(10, 99)}\n"
        files[f"documents/taxes/{year}/charitable_donations.csv"] = "date,organization,amount\n" + "".join(
            f"{year}-{m:02d}-{rng.randint(1, 28):02d},{org},{rng.randint(20, 300)}.00\n"
            for m, org in zip(sorted(rng.sample(range(1, 13), 4)), ["Red Cross", "Food Bank", "Public Radio", "Animal Shelter"])
        )
    for i, day in enumerate(sorted(rng.sample(range(1, 330), 8))):
        date = (BASE_TIME - timedelta(days=day)).strftime("%Y-%m-%d")
        topic = _MEETING_TOPICS[i % len(_MEETING_TOPICS)]
        files[f"documents/work/meetings/{date}/agenda.txt"] = f"Agenda - {topic}\n1. Status updates\n2. Open issues\n3. Next steps\n"
        files[f"documents/work/meetings/{date}/minutes.txt"] = f"Minutes - {topic} ({date})\nAttendees: team\nDecision: follow up in two weeks\n"
    for year in (2024, 2025):
        for q in range(1, 5):
            rows = "".join(f"{region},{rng.randint(10, 90) * 1000},{rng.randint(50, 400)}\n" for region in ("north", "south", "east", "west"))
            files[f"documents/work/reports/sales_{year}_q{q}.csv"] = "region,revenue,orders\n" + rows
    for month_back in range(12):
        month = (BASE_TIME.replace(day=15) - timedelta(days=30 * month_back)).strftime("%Y-%m")
        for utility, company, low, high in _UTILITIES:
            amount = rng.randint(low * 100, high * 100) / 100
            files[f"bills/{utility}/{month}.txt"] = (
                f"{company}\nAccount holder: {first} {last}\nBilling month: {month}\n"
                f"Amount due: ${amount:.2f}\nDue date: {month}-{rng.randint(18, 28)}\n"
            )
    for place in _PLACES:
        for _ in range(6):
            name = f"img_{rng.getrandbits(28):07x}.jpg"
            files[f"photos/vacations/{place}/{name}"] = f"JPEG image 4032x3024 taken in {place.title()}\n"
    for _ in range(8):
        files[f"photos/family/img_{rng.getrandbits(28):07x}.jpg"] = "JPEG image 3024x4032, family photo\n"
    for i in range(6):
        files[f"photos/screenshots/screenshot_{i + 1:02d}.png"] = "PNG screenshot 1170x2532\n"
    downloads = [
        ("flight_itinerary.pdf", "Itinerary: SFO -> LIS, seat 23C, confirmation QX7R2P\n"),
        ("bank_statement_jan.csv", "date,description,amount\n2026-01-03,Coffee,-4.50\n2026-01-05,Salary,3200.00\n"),
        ("bank_statement_feb.csv", "date,description,amount\n2026-02-02,Groceries,-86.20\n2026-02-05,Salary,3200.00\n"),
        ("lease_agreement.pdf", "Residential lease, 12 months, rent $2,450 per month, deposit $2,450\n"),
        ("concert_tickets.pdf", "2 tickets - The National - Greek Theatre - Section B\n"),
        ("car_insurance_quote.pdf", "Quote: $96.40 per month, comprehensive coverage\n"),
        ("recipe_banana_bread.txt", "3 bananas, 1/3 cup butter, 1 tsp baking soda, 3/4 cup sugar, 1 egg, 1.5 cups flour\n"),
        ("meetup_flyer.txt", "Neighborhood cleanup - Saturday 9am - bring gloves\n"),
        ("gym_schedule.txt", "Yoga Tue/Thu 7pm, Spin Mon/Wed 6am\n"),
        ("invoice_1042.pdf", "Invoice 1042 - freelance design work - total $850.00\n"),
        ("warranty_dishwasher.pdf", "Bosch dishwasher warranty valid until 2027-02-01\n"),
        ("hotel_booking_kyoto.pdf", "Hotel Granvia Kyoto - 4 nights - total $912.00\n"),
        ("vaccination_record.pdf", "Vaccination record - flu shot 2025-10-12\n"),
        ("school_calendar.txt", "Spring break: March 23-27\n"),
        ("parking_permit.pdf", "Residential parking permit zone C, valid through 2026-12-31\n"),
        ("podcast_list.txt", "Hard Fork\nPlanet Money\nHuberman Lab\n"),
        ("moving_checklist.txt", "book movers, change address, transfer utilities, pack kitchen\n"),
        ("marathon_training.csv", "week,long_run_miles\n1,6\n2,7\n3,8\n4,6\n"),
        ("electric_car_comparison.csv", "model,range_miles,price\nModel 3,272,38990\nIoniq 6,270,37500\n"),
        ("fonts.zip.txt", "list of downloaded fonts: Inter, Source Serif\n"),
    ]
    for name, text in downloads:
        files[f"downloads/{name}"] = text
    for project, summary in _PROJECTS.items():
        files[f"work/projects/{project}/README.md"] = f"# {project.replace('_', ' ').title()}\n{summary}\n"
        files[f"work/projects/{project}/tasks.txt"] = "- write tests\n- review layout\n- ship v1\n"
        files[f"work/projects/{project}/notes.md"] = f"Notes for {project}: keep scope small.\n"
        files[f"work/projects/{project}/data.csv"] = "id,value\n" + "".join(f"{i},{rng.randint(1, 99)}\n" for i in range(1, 6))
    for week in range(1, 11):
        hours = [rng.choice([7.5, 8, 8, 8.5, 9]) for _ in range(5)]
        files[f"work/timesheets/2026-w{week:02d}.csv"] = "day,hours\n" + "".join(
            f"{d},{h}\n" for d, h in zip(["mon", "tue", "wed", "thu", "fri"], hours)
        )
    for i in range(20):
        store, items = rng.choice(_STORES)
        picked = rng.sample(items, min(len(items), rng.randint(2, 4)))
        prices = [rng.randint(199, 4999) / 100 for _ in picked]
        date = (BASE_TIME - timedelta(days=rng.randint(3, 300))).strftime("%Y-%m-%d")
        body = "".join(f"{item}: ${price:.2f}\n" for item, price in zip(picked, prices))
        slug = re.sub(r"[^a-z0-9]+", "_", store.lower()).strip("_")
        files[f"receipts/{date}_{slug}_{i + 1:02d}.txt"] = f"{store}\nDate: {date}\n{body}Total: ${sum(prices):.2f}\n"
    for name in ("road_trip", "workout", "focus", "dinner_party", "sunday_morning"):
        files[f"music/playlists/{name}.m3u"] = "#EXTM3U\n" + "".join(f"track_{rng.randint(100, 999)}.mp3\n" for _ in range(5))
    return files


@populator(APP, order=30)
def _populate(b: BaseBuilder) -> None:
    rng = random.Random(f"{b.seed}:file_system")
    sup = b.supervisor
    trees: list[tuple[int, str, dict[str, str]]] = [
        (sup.id, home_name(sup.first_name, sup.id), _owner_tree(rng, sup.first_name, sup.last_name))
    ]
    for person in sorted(rng.sample([p for p in b.people if p.id != sup.id], 5), key=lambda p: p.id):
        small = {
            "documents/notes.txt": f"Notes of {person.first_name}\n",
            "documents/todo.txt": "- call plumber\n- renew passport\n",
            f"bills/internet/{BASE_TIME:%Y}-01.txt": f"Comcast Xfinity\nAmount due: ${rng.randint(60, 95)}.00\n",
            "photos/img_0000001.jpg": "JPEG image 4032x3024\n",
            "downloads/statement.csv": "date,amount\n2026-01-02,-20.00\n",
            "receipts/groceries.txt": f"Safeway\nTotal: ${rng.randint(20, 120)}.{rng.randint(10, 99)}\n",
        }
        trees.append((person.id, home_name(person.first_name, person.id), small))
    for user_id, handle, files in trees:
        home = f"/home/{handle}/"
        dirs = {home}
        for rel in files:
            parts = rel.split("/")[:-1]
            for depth in range(1, len(parts) + 1):
                dirs.add(home + "/".join(parts[:depth]) + "/")
        if user_id == sup.id:
            dirs.update({home + "trash/", home + "backups/"})
        dir_stamp = _stamp(rng, 800, 500)
        for dpath in sorted(dirs):
            b.add(DIRECTORIES, {"user_id": user_id, "path": dpath, "created_at": dir_stamp[0], "updated_at": dir_stamp[1]})
        for rel, content in files.items():
            created, updated = _stamp(rng, 420)
            b.add(FILES, {
                "user_id": user_id, "path": home + rel, "content": content, "size": size_of(content),
                "created_at": created, "updated_at": updated,
            })
        if user_id == sup.id:
            entries = []
            for i in range(6):
                text = f"JPEG image 4032x3024 from the {('spring', 'summer', 'fall')[i % 3]} 2024 album\n"
                created, updated = _stamp(rng, 700, 450)
                entries.append({"path": f"{('spring', 'summer', 'fall')[i % 3]}/img_{rng.getrandbits(28):07x}.jpg",
                                "content": text, "size": size_of(text), "archive_format": None,
                                "archive_entries": [], "created_at": created, "updated_at": updated})
            for season in ("fall", "spring", "summer"):
                entries.append({"path": f"{season}/", "created_at": dir_stamp[0], "updated_at": dir_stamp[1]})
            entries.sort(key=lambda e: e["path"])
            created, updated = _stamp(rng, 440, 430)
            b.add(FILES, {
                "user_id": user_id, "path": home + "backups/photos_2024.zip",
                "content": archive_listing("zip", entries), "size": archive_size(entries),
                "archive_format": "zip", "archive_entries": entries, "created_at": created, "updated_at": updated,
            })




