"""Word pools the generator draws image contents from (our own lists); the judge reads some of
them too (:func:`~mmtsb_env.evaluation.similarity.phrase_pools`: a pool phrase no image showed).

Names are composed from parts (``"Copper Kettle" + " Cafe"``) so thousands of distinct values
exist; the generator still checks every image-only value against the base world before use.
"""

from __future__ import annotations

# ---------------------------------------------------------------------------- shops and receipts
SHOP_WORDS_A = [
    "Copper", "Juniper", "Maple", "Harbor", "Lantern", "Willow", "Granite", "Sparrow", "Cobalt", "Thistle",
    "Saffron", "Bramble", "Hollow", "Meridian", "Orchard", "Pebble", "Quarry", "Rookery", "Tidewater", "Velvet",
    "Amber", "Birch", "Cinder", "Driftwood", "Ember", "Fennel", "Gable", "Heron", "Indigo", "Kestrel",
]
SHOP_WORDS_B = [
    "Kettle", "Lane", "Corner", "Mill", "Leaf", "Bridge", "Hearth", "Row", "Crest", "Field",
    "Arch", "Spoon", "Gate", "Wharf", "Garden", "Yard", "Street", "Point", "Hill", "Market",
]
# shop type -> (suffixes, [(item, low price, high price)])
SHOP_TYPES = {
    "cafe": (["Cafe", "Coffee House", "Bakery"], [
        ("Oat Latte", 4.25, 5.75), ("Blueberry Scone", 3.1, 4.2), ("Cold Brew", 3.9, 5.2), ("Croissant", 2.8, 3.9),
        ("Chai Tea", 3.6, 4.8), ("Avocado Toast", 8.5, 11.5), ("Cinnamon Roll", 3.4, 4.6), ("Matcha", 4.6, 5.9),
    ]),
    "grocery": (["Market", "Grocers", "Food Co-op"], [
        ("Free-Range Eggs", 4.29, 6.49), ("Almond Milk", 3.19, 4.59), ("Basmati Rice 2lb", 3.99, 5.49),
        ("Honeycrisp Apples", 4.1, 6.3), ("Greek Yogurt", 4.49, 6.99), ("Pasta Sauce", 2.99, 4.79),
        ("Ground Coffee", 8.99, 12.49), ("Salmon Fillet", 11.5, 16.9), ("Baby Carrots", 1.79, 2.99),
    ]),
    "hardware": (["Hardware", "Tool Supply", "Home Center"], [
        ("Wall Anchors", 3.49, 5.99), ("LED Bulb 4pk", 8.99, 13.49), ("Painter's Tape", 4.29, 6.79),
        ("Cordless Drill Bits", 12.99, 19.99), ("Garden Hose 25ft", 17.99, 26.99), ("Sandpaper Pack", 5.49, 7.99),
        ("Zip Ties 100ct", 3.99, 6.49), ("Door Hinge", 4.79, 7.29),
    ]),
    "pharmacy": (["Pharmacy", "Drugstore", "Apothecary"], [
        ("Allergy Tablets", 9.99, 14.99), ("Sunscreen SPF 50", 8.49, 12.99), ("Toothpaste", 3.29, 5.49),
        ("Cough Drops", 2.49, 3.99), ("Hand Cream", 4.99, 7.49), ("Multivitamin", 10.99, 16.99),
    ]),
    "books": (["Books", "Bookshop", "Paper Co"], [
        ("Hardcover Novel", 22.0, 29.0), ("Travel Guide", 15.5, 21.0), ("Notebook A5", 6.5, 9.5),
        ("Fountain Pen", 18.0, 32.0), ("Poetry Collection", 12.0, 17.5), ("Wall Calendar", 11.0, 15.0),
    ]),
    "restaurant": (["Bistro", "Kitchen", "Trattoria", "Grill"], [
        ("Margherita Pizza", 13.5, 17.0), ("Caesar Salad", 9.0, 12.5), ("Grilled Salmon", 21.0, 27.0),
        ("Mushroom Risotto", 16.0, 20.5), ("Lemonade", 3.5, 4.5), ("Tiramisu", 7.0, 9.5), ("Fish Tacos", 12.0, 15.5),
    ]),
}

# ---------------------------------------------------------------------------- invoices
COMPANY_A = ["Northgate", "Bluefin", "Summit Ridge", "Clearwater", "Ironbark", "Silverline", "Redwood", "Brightpath",
             "Oakmont", "Larkspur", "Westbrook", "Falcon Crest", "Stonebridge", "Evergreen", "Riverside"]
COMPANY_B = ["Design Studio", "IT Services", "Landscaping", "Plumbing Co", "Consulting", "Print Works",
             "Cleaning Services", "Electric", "Media Lab", "Catering", "Accounting", "Movers"]
SERVICES = [
    ("Site visit", 85.0, 160.0), ("Design consultation", 120.0, 260.0), ("Monthly maintenance", 90.0, 210.0),
    ("Replacement parts", 35.0, 140.0), ("Labor (hours)", 55.0, 95.0), ("Deep cleaning", 140.0, 320.0),
    ("Printing 500 flyers", 60.0, 130.0), ("Network setup", 150.0, 380.0), ("Event catering", 240.0, 650.0),
    ("Tax preparation", 180.0, 420.0), ("Lawn mowing", 45.0, 90.0), ("Moving truck rental", 120.0, 260.0),
]

# ---------------------------------------------------------------------------- people on business cards
FIRST_NAMES = [
    "Anika", "Bastien", "Corinne", "Dmitri", "Esperanza", "Florian", "Greta", "Hiroshi", "Isadora", "Jovan",
    "Katarina", "Leandro", "Marisol", "Nikolai", "Odessa", "Priyanka", "Quentin", "Rosalind", "Soren", "Tamsin",
    "Ulrich", "Valentina", "Wendell", "Ximena", "Yusuf", "Zelda", "Anselm", "Beatrix", "Cyprian", "Delphine",
]
LAST_NAMES = [
    "Achterberg", "Bellweather", "Castellanos", "Drummond", "Eastwick", "Fairbanks", "Galloway", "Hollister",
    "Ingersoll", "Jablonski", "Kowalczyk", "Lindqvist", "Montague", "Nakashima", "Oyelaran", "Pemberton",
    "Quintero", "Ravensworth", "Szczepanski", "Thornbury", "Underhill", "Vasquez-Reyes", "Whitcombe", "Yamaguchi",
]
JOB_TITLES = ["Project Manager", "Senior Engineer", "Account Executive", "Head of Design", "Office Manager",
              "Data Analyst", "Sales Director", "Product Lead", "Marketing Manager", "Research Scientist"]
CARD_COMPANIES = ["Lumen Robotics", "Tidal Health", "Quartzline Labs", "Harborview Capital", "Pinecrest Media",
                  "Atlas Freight", "Nimbus Software", "Cedarwood Architects", "Brightwater Energy", "Keystone Legal"]

# ---------------------------------------------------------------------------- events on posters
EVENT_WORDS = ["Spring", "Moonlight", "Riverside", "Harvest", "Lantern", "Summer", "Neighborhood", "Open-Air", "Midnight",
               "Sunrise", "Waterfront", "Garden"]
EVENT_KINDS = ["Jazz Night", "Book Fair", "Food Truck Rally", "Film Screening", "Craft Market", "Poetry Slam",
               "Charity Run", "Pottery Workshop", "Salsa Social", "Tech Meetup", "Wine Tasting", "Chess Tournament"]
VENUES = ["Pier 9 Pavilion", "Elm Street Library", "Grand Hall Annex", "Union Square Tent", "Old Mill Courtyard",
          "Northside Community Center", "Harbor Arts Theater", "Botanical Garden Lawn", "Foundry Studio 4"]
ORGANISERS = ["City Arts Council", "Friends of the Library", "Downtown Alliance", "Parks Department", "Maker Collective"]

# ---------------------------------------------------------------------------- charts
CHART_TOPICS = [
    ("Monthly Electricity Use", "kWh", ["Jan", "Feb", "Mar", "Apr", "May", "Jun"], (180, 420)),
    ("Weekly Cycling Distance", "km", ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], (12, 64)),
    ("Quarterly Bakery Sales", "$", ["Q1", "Q2", "Q3", "Q4"], (8000, 26000)),
    ("Visitors per Exhibit", "", ["Dinosaurs", "Space", "Oceans", "Insects", "Minerals"], (300, 2400)),
    ("Household Spending by Category", "$", ["Rent", "Groceries", "Transport", "Dining", "Utilities"], (90, 1900)),
    ("Library Loans by Genre", "", ["Mystery", "Romance", "History", "Sci-Fi", "Biography", "Poetry"], (40, 640)),
    ("Rainfall by Month", "mm", ["Jul", "Aug", "Sep", "Oct", "Nov"], (12, 160)),
    ("Team Hours Logged", "h", ["Design", "Backend", "Frontend", "QA", "Support"], (20, 140)),
]

# month series follow their season: each month's place in the topic's range (0 = its low, 1 = its
# high), before a little noise (home electricity peaks with winter heating and dips in spring;
# rain builds through the autumn)
SEASONS = {
    "Monthly Electricity Use": {"Jan": 0.9, "Feb": 0.8, "Mar": 0.6, "Apr": 0.35, "May": 0.2, "Jun": 0.3},
    "Rainfall by Month": {"Jul": 0.15, "Aug": 0.2, "Sep": 0.4, "Oct": 0.65, "Nov": 0.85},
}

# ---------------------------------------------------------------------------- price tags (not in the store)
TAG_PRODUCTS = [
    ("Ceramic Pour-Over Set", "Kinto", "mug"), ("Stainless Water Bottle 1L", "Hydra", "bottle"),
    ("Herbal Shampoo 400ml", "Verde", "bottle"), ("Cast Iron Skillet 10in", "Lodgeway", "box"),
    ("Wireless Mouse", "Clikk", "box"), ("Scented Candle Fig", "Ember & Oak", "can"), ("Trail Mix 500g", "Nutty", "bag"),
    ("Dark Roast Beans 1kg", "Crema", "bag"), ("Bamboo Cutting Board", "Grove", "box"), ("Sparkling Water 12pk", "Fizz", "can"),
]

# ---------------------------------------------------------------------------- handwritten notes / signs / tables
ERRANDS = ["pick up dry cleaning", "return library books", "renew parking permit", "buy birthday card",
           "drop off recycling", "book dentist cleaning", "order printer ink", "fix bike tire", "water the ferns",
           "pay water bill", "mail the tax forms", "buy cat litter", "call the plumber", "refill prescription"]
STORE_SIGNS = ["{a} {b} Florist", "{a} {b} Bike Repair", "{a} {b} Laundromat", "{a} {b} Tailor", "{a} {b} Deli"]
NOTICE_CODES = ["GATE CODE {n}", "LOCKER PIN {n}", "GUEST WIFI PIN {n}", "PARKING ZONE {n}"]
# dense tables (12-20 rows, 5-6 columns); a flow reads the name, day, time and amount columns
TABLE_THEMES = {
    "class_schedule": ("Community Center Classes", ["Class", "Instructor", "Room", "Day", "Time", "Fee"]),
    "price_list": ("Repair Shop Price List", ["Code", "Service", "Device", "Duration", "Price"]),
    "shift_roster": ("Volunteer Shift Roster", ["Volunteer", "Role", "Day", "Start", "Hours", "Station"]),
}
CLASS_LEVELS = ["Beginner", "Intermediate", "Advanced", "Intro to", "Weekend", "Evening", "Family", "Open"]
CLASS_SUBJECTS = ["Watercolor", "Yoga", "Italian", "Pottery", "Guitar", "Baking", "Photography", "Chess", "Knife Skills",
                  "Ballroom Dance", "Spanish", "Pilates", "Sketching", "Ukulele", "Bread Making", "Tai Chi", "Calligraphy",
                  "Woodcarving", "Salsa", "Coding", "Mosaic", "Choir", "Swimming", "First Aid", "Knitting", "Zumba"]
CLASS_ROOMS = ["Room 1A", "Room 1B", "Room 2A", "Room 2C", "Studio 1", "Studio 3", "Hall A", "Kitchen", "Gym", "Pool",
               "Library", "Annex 4", "Room 3D", "Garden Room"]
REPAIR_SERVICES = ["Screen replacement", "Battery swap", "Keyboard cleaning", "Data recovery", "Charging port fix",
                   "Virus removal", "Camera repair", "Speaker repair", "Hinge repair", "Back glass", "Water damage check",
                   "OS reinstall", "SSD upgrade", "RAM upgrade", "Fan cleaning", "Button repair", "Microphone fix",
                   "Face ID repair", "Trackpad swap", "Diagnostics"]
REPAIR_DEVICES = ["Phone", "Tablet", "Laptop", "Desktop", "Smartwatch", "Console", "E-reader", "Headphones"]
ROSTER_ROLES = ["Greeter", "Kitchen", "Setup", "Cashier", "Driver", "Sorting", "Registration", "Cleanup", "First aid",
                "Tech desk", "Runner", "Parking"]
ROSTER_STATIONS = ["Main door", "Hall B", "Loading bay", "Desk 2", "Desk 4", "Stage", "Car park", "Room 12", "Food bank",
                   "Gate C", "Kitchen", "Lobby"]
CLASSES = ["Watercolor Basics", "Beginner Yoga", "Conversational Italian", "Pottery Wheel", "Intro to Guitar",
           "Home Baking", "Photography Walk", "Chess Strategy", "Knife Skills", "Ballroom Dance"]
REPAIRS = ["Screen replacement", "Battery swap", "Keyboard cleaning", "Data recovery", "Charging port fix",
           "Virus removal", "Camera repair", "Speaker repair"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

# Names of the containers the user asks for (note titles, projects, playlists, files...).
CONTAINER_TOPICS = ["Spring expenses", "Weekend plans", "Conference follow-ups", "Reimbursements", "House projects",
                    "Event shortlist", "Price watch", "Budget check", "Trip paperwork", "Errand list"]

# ---------------------------------------------------------------------------- names people misremember
# One word of a stored name and the word a user says instead ("Errands - April" -> "Errands - March").
NEAR_MISS = {"Energy": "Power", "Evenings": "Nights", "Flow": "Zone", "Jazz": "Blues", "Starters": "Hits", "Sounds": "Songs",
             "April": "March", "May": "June", "shared": "family", "list": "log", "log": "list", "summary": "notes",
             "Errands": "Errand", "Chores": "Chore", "Shopping": "Shop", "town": "the city", "buy": "get"}
