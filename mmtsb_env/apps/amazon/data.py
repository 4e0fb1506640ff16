"""Amazon base data: sellers, ~480 products in 33 types (with size/color variations and near
duplicates), reviews, questions and answers, and the device owner's shopping history.

Base product ids start at 1001 so scenario-supplied products (usually small ids) never merge
with base products.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ...world.populators import BASE_TIME, BaseBuilder, populator
from .tables import (
    ADDRESSES, ANSWERS, BROWSING, CARDS, CART, DELIVERERS, DELIVERY_FEE, GIFT_WRAP_FEE, ORDER_ITEMS, ORDERS, PRIME,
    PRIME_PLANS, PRODUCTS, PROMO_CODES, QUESTIONS, RETURNS, REVIEWS, SELLERS, TAX_RATE, WISH_LIST, money,
)

FIRST_PRODUCT_ID = 1001

# Types whose qualifier list is a model line of the brand at the same position.
_PAIRED = {"smartphones", "laptops", "tablets", "cameras", "televisions", "smartwatches", "speakers",
           "coffee makers", "shoes", "musical instruments", "water bottles"}
_TITLED = {"books", "board games"}  # names without the brand (the brand is the publisher)

_BLACKS = ["Black", "White", "Silver", "Gray", "Blue"]
_BRIGHTS = ["Black", "White", "Red", "Blue", "Green", "Pink", "Purple", "Yellow", "Orange"]
_FABRICS = ["Black", "Navy", "Gray", "Beige", "White", "Olive", "Burgundy", "Charcoal"]
_WOODS = ["Walnut", "Oak", "White", "Black", "Espresso", "Natural"]
_METALS = ["Silver", "Gold", "Rose Gold", "Black"]

# (type, price range, weight lbs, (length, width, height) inches, colors, sized, brands, qualifiers, nouns)
_CATALOG: list[tuple[str, tuple[float, float], float, tuple[float, float, float], list[str] | None, bool,
                     list[str], list[str], list[tuple[str, str]]]] = [
    ("headphones", (19, 420), 0.6, (7.5, 6.5, 3.0), _BLACKS, False,
     ["Sony", "Bose", "JBL", "Sennheiser", "Audio-Technica", "Anker Soundcore", "Beats", "Skullcandy"],
     ["Pro", "Studio", "Q30", "Elite", "Sport", "Air", "Max", "Life"],
     [("Wireless Noise Cancelling Headphones", "Over-ear headphones with active noise cancelling"),
      ("True Wireless Earbuds", "Compact earbuds with charging case"),
      ("On-Ear Bluetooth Headphones", "Lightweight foldable on-ear headphones"),
      ("Open-Ear Sport Earbuds", "Sweat-resistant earbuds for running and workouts"),
      ("Studio Monitor Headphones", "Closed-back headphones for mixing and recording")]),
    ("smartphones", (149, 1299), 0.45, (6.3, 3.0, 0.35), _BLACKS + ["Purple", "Green"], False,
     ["Samsung", "Google", "Motorola", "OnePlus", "Nokia", "Xiaomi"],
     ["Galaxy S24", "Pixel 8a", "Moto G Power", "Nord N30", "G42", "Redmi Note 13"],
     [("5G Smartphone 128GB", "Unlocked 5G phone with a triple-lens camera"),
      ("Smartphone 256GB", "Unlocked phone with all-day battery and fast charging"),
      ("Dual SIM Smartphone 64GB", "Budget-friendly dual SIM phone with a large display")]),
    ("laptops", (299, 2499), 3.6, (13.0, 9.0, 0.7), ["Silver", "Gray", "Black", "Blue"], False,
     ["Dell", "HP", "Lenovo", "ASUS", "Acer", "Microsoft", "MSI"],
     ["XPS 13", "Pavilion 15", "ThinkPad X1", "Zenbook 14", "Swift Go", "Surface Laptop", "Katana 15"],
     [("Laptop 16GB RAM 512GB SSD", "Thin and light laptop for work and study"),
      ("Gaming Laptop RTX 4060", "High refresh rate gaming laptop with dedicated graphics"),
      ("2-in-1 Touchscreen Laptop", "Convertible laptop with a pen-ready touchscreen"),
      ("Chromebook 14 inch", "Fast-booting Chromebook with long battery life")]),
    ("tablets", (79, 1199), 1.1, (9.8, 7.0, 0.3), ["Silver", "Gray", "Black", "Blue", "Pink"], False,
     ["Samsung", "Lenovo", "Amazon Fire", "Microsoft", "Xiaomi"],
     ["Galaxy Tab S9", "Tab P12", "HD 10", "Surface Go 4", "Pad 6"],
     [("Tablet 10.1 inch 64GB", "Everyday tablet for reading, streaming and browsing"),
      ("Tablet 11 inch 128GB with Stylus", "Tablet with an included stylus for notes and drawing"),
      ("Kids Tablet 8 inch", "Tablet with a kid-proof case and parental controls")]),
    ("cameras", (89, 2899), 1.4, (5.2, 3.4, 2.8), ["Black", "Silver"], False,
     ["Canon", "Nikon", "Sony", "Fujifilm", "Panasonic", "GoPro", "Olympus"],
     ["EOS R50", "Z50", "Alpha a6400", "X-S20", "Lumix G100", "HERO12", "OM-5"],
     [("Mirrorless Camera with 18-55mm Lens", "Interchangeable-lens mirrorless camera kit"),
      ("Digital Camera 4K Vlogging Kit", "Compact camera for 4K video and vlogging"),
      ("Action Camera Waterproof", "Rugged waterproof action camera with stabilization"),
      ("Compact Point and Shoot Camera", "Pocket-sized camera with optical zoom")]),
    ("televisions", (149, 2999), 28.0, (48.0, 28.0, 3.5), ["Black"], False,
     ["Samsung", "LG", "Sony", "TCL", "Hisense", "Vizio"],
     ["Crystal UHD", "OLED C3", "Bravia X80K", "Q6", "U8", "M-Series"],
     [("55 inch 4K Smart TV", "4K UHD smart TV with HDR and built-in streaming apps"),
      ("65 inch QLED 4K TV", "Quantum dot TV with bright, vivid colors"),
      ("43 inch Full HD Smart TV", "Compact smart TV for bedrooms and kitchens"),
      ("75 inch 4K Google TV", "Large-screen 4K TV with voice remote")]),
    ("smartwatches", (39, 799), 0.15, (1.8, 1.6, 0.5), _BLACKS + ["Pink", "Green"], False,
     ["Garmin", "Samsung", "Fitbit", "Amazfit", "Fossil", "Withings"],
     ["Forerunner 265", "Galaxy Watch 6", "Versa 4", "GTR 4", "Gen 6", "ScanWatch 2"],
     [("Smartwatch with GPS", "Fitness smartwatch with GPS, heart rate and sleep tracking"),
      ("Fitness Tracker", "Slim activity tracker with a week of battery"),
      ("Hybrid Smartwatch", "Analog-look watch with smart notifications")]),
    ("speakers", (25, 499), 2.2, (8.0, 4.0, 4.0), _BRIGHTS, False,
     ["JBL", "Bose", "Sonos", "Ultimate Ears", "Anker Soundcore", "Marshall"],
     ["Flip 6", "SoundLink Flex", "Era 100", "Boom 3", "Motion+", "Emberton II"],
     [("Portable Bluetooth Speaker", "Waterproof portable speaker with deep bass"),
      ("Smart Speaker with Voice Assistant", "Wi-Fi speaker with a built-in voice assistant"),
      ("Soundbar with Subwoofer", "TV soundbar with a wireless subwoofer")]),
    ("computer accessories", (9, 249), 0.8, (8.0, 5.0, 2.0), ["Black", "White", "Gray", "Pink"], False,
     ["Logitech", "Razer", "Anker", "Corsair", "SanDisk", "Samsung", "Keychron"],
     ["MX", "Pro", "K2", "Viper", "Ultra", "T7", "Lift", "Ergo"],
     [("Wireless Mouse", "Ergonomic wireless mouse with silent clicks"),
      ("Mechanical Keyboard", "Hot-swappable mechanical keyboard with backlight"),
      ("USB-C Hub 7-in-1", "Adapter with HDMI, USB-A and SD card slots"),
      ("Portable SSD 1TB", "Pocket-sized solid state drive with USB-C"),
      ("1080p Webcam", "Full HD webcam with a privacy cover and dual mics")]),
    ("video games", (19, 499), 0.3, (6.7, 5.3, 0.6), None, False,
     ["Nintendo", "PlayStation", "Xbox", "Ubisoft", "EA Sports", "Bandai Namco"],
     ["Legends", "Odyssey", "Champions", "Chronicles", "Kingdom", "Rally", "Quest"],
     [("Adventure Game", "Open-world adventure game"),
      ("Racing Game", "Arcade racing game with split-screen multiplayer"),
      ("Sports Game 2026 Edition", "Licensed sports game with online seasons"),
      ("Wireless Controller", "Wireless game controller with rumble"),
      ("Party Game Collection", "Family party game with 50 minigames")]),
    ("books", (6, 45), 1.0, (8.5, 5.5, 1.2), None, False,
     ["Penguin", "HarperCollins", "Vintage", "Scribner", "Knopf", "Del Rey", "Tor"],
     ["The Silent", "The Last", "A Quiet", "The Hidden", "Beyond the", "The Lost", "The Glass", "Under the"],
     [("Orchard", "Novel, paperback"), ("Lighthouse", "Mystery novel, paperback"),
      ("Cartographer", "Historical fiction, hardcover"), ("Garden", "Literary fiction, paperback"),
      ("Frontier", "Science fiction novel, paperback"), ("Kingdom", "Fantasy novel, hardcover"),
      ("River", "Memoir, paperback")]),
    ("kitchen appliances", (24, 699), 9.0, (14.0, 11.0, 12.0), ["Black", "Silver", "White", "Red"], False,
     ["Instant Pot", "Ninja", "KitchenAid", "Cuisinart", "Breville", "Hamilton Beach", "Vitamix"],
     ["Duo", "Pro", "Artisan", "Classic", "Smart", "Deluxe", "Foodi"],
     [("Air Fryer 6 Quart", "Air fryer with 6 cooking presets"),
      ("Electric Pressure Cooker 6 Quart", "Multi-cooker: pressure cook, slow cook and steam"),
      ("Stand Mixer 5 Quart", "Tilt-head stand mixer with 10 speeds"),
      ("Blender 64 oz", "High-speed blender for smoothies and soups"),
      ("Toaster Oven", "Countertop convection toaster oven")]),
    ("coffee makers", (19, 899), 8.0, (12.0, 9.0, 14.0), ["Black", "Silver", "White"], False,
     ["Keurig", "Breville", "Mr. Coffee", "De'Longhi", "Nespresso", "Bodum", "Chemex"],
     ["K-Classic", "Barista Express", "Classic", "Magnifica", "Vertuo", "Chambord", "Pour-Over"],
     [("Single Serve Coffee Maker", "Pod coffee maker with three cup sizes"),
      ("Espresso Machine", "Espresso machine with a milk frother"),
      ("12-Cup Drip Coffee Maker", "Programmable drip coffee maker"),
      ("French Press 34 oz", "Glass and steel French press")]),
    ("cookware", (15, 399), 5.0, (20.0, 11.0, 4.0), ["Black", "Red", "Blue", "Silver", "Green"], False,
     ["Lodge", "T-fal", "Le Creuset", "Calphalon", "All-Clad", "Caraway", "OXO"],
     ["Signature", "Ultimate", "Classic", "Premier", "Essentials", "Pro"],
     [("Cast Iron Skillet 12 inch", "Pre-seasoned cast iron skillet"),
      ("Nonstick Cookware Set 12 Piece", "Nonstick pots and pans with lids"),
      ("Enameled Dutch Oven 5.5 Quart", "Enameled cast iron Dutch oven"),
      ("Stainless Steel Saucepan 3 Quart", "Tri-ply stainless saucepan with lid")]),
    ("furniture", (39, 1299), 45.0, (40.0, 24.0, 30.0), _WOODS, False,
     ["IKEA", "Zinus", "Nathan James", "Walker Edison", "Sauder", "Christopher Knight Home"],
     ["Modern", "Mid-Century", "Farmhouse", "Industrial", "Scandinavian", "Classic"],
     [("Bookshelf 5 Tier", "Open bookshelf with five shelves"),
      ("Office Chair Ergonomic", "Adjustable office chair with lumbar support"),
      ("Coffee Table", "Rectangular coffee table with storage shelf"),
      ("Standing Desk 55 inch", "Electric height-adjustable standing desk"),
      ("Nightstand with Drawer", "Bedside table with a drawer")]),
    ("bedding", (19, 299), 4.0, (16.0, 12.0, 4.0), _FABRICS, False,
     ["Brooklinen", "Amazon Basics", "Casper", "Buffy", "Parachute", "Mellanni"],
     ["Luxe", "Classic", "Cloud", "Organic", "Cooling", "Essential"],
     [("Queen Sheet Set", "Four-piece breathable sheet set"),
      ("Down Alternative Comforter", "All-season down alternative comforter"),
      ("Memory Foam Pillow 2 Pack", "Adjustable shredded memory foam pillows"),
      ("Weighted Blanket 15 lbs", "Weighted blanket with glass beads")]),
    ("home decor", (9, 249), 3.0, (12.0, 8.0, 10.0), ["White", "Black", "Gold", "Green", "Beige", "Blue"], False,
     ["Umbra", "Threshold", "Mainstays", "Nearly Natural", "Kate and Laurel", "Rivet"],
     ["Modern", "Boho", "Rustic", "Minimalist", "Vintage", "Coastal"],
     [("Artificial Plant in Pot", "Realistic faux plant in a ceramic pot"),
      ("Wall Mirror Round 24 inch", "Round wall mirror with a metal frame"),
      ("Scented Candle Set", "Set of three soy candles"),
      ("Picture Frame Set 7 Pack", "Gallery wall frame set"),
      ("Table Lamp", "Bedside table lamp with a linen shade")]),
    ("office products", (3, 199), 0.8, (10.0, 7.0, 2.0), ["Black", "Blue", "Red", "White", "Green"], False,
     ["Pilot", "Sharpie", "Moleskine", "Post-it", "Sakura", "Staedtler", "Fellowes", "Brother"],
     ["G2", "Classic", "Precise", "Pigma", "Super Sticky", "Premium", "Everyday"],
     [("Gel Pens 12 Pack", "Smooth-writing retractable gel pens"),
      ("Hardcover Notebook", "Ruled hardcover notebook, 240 pages"),
      ("Sticky Notes 24 Pads", "Repositionable sticky notes"),
      ("Technical Drawing Pen Set", "Archival ink fine-liner pens"),
      ("Paper Shredder", "Cross-cut paper shredder for the home office"),
      ("Label Maker", "Handheld label maker with a QWERTY keyboard")]),
    ("toys", (7, 249), 2.0, (12.0, 9.0, 6.0), _BRIGHTS, False,
     ["LEGO", "Hasbro", "Mattel", "Melissa & Doug", "Hot Wheels", "Fisher-Price", "Nerf"],
     ["Classic", "Creator", "City", "Deluxe", "Junior", "Ultimate", "Elite"],
     [("Building Blocks Set", "Creative brick building set"),
      ("Remote Control Car", "Rechargeable RC car with 2.4 GHz remote"),
      ("Wooden Puzzle Set", "Set of wooden puzzles for toddlers"),
      ("Dart Blaster", "Foam dart blaster with 20 darts"),
      ("Plush Teddy Bear", "Soft plush teddy bear, 14 inch")]),
    ("board games", (9, 79), 2.5, (11.0, 11.0, 3.0), None, False,
     ["Hasbro Gaming", "Catan Studio", "Days of Wonder", "Stonemaier Games", "Asmodee", "Z-Man Games"],
     ["Catan", "Ticket to Ride", "Wingspan", "Pandemic", "Azul", "Monopoly", "Scrabble", "Codenames"],
     [("Board Game", "Strategy board game for 2-4 players"),
      ("Expansion Pack", "Expansion for the base game"),
      ("Family Edition", "Family-friendly edition of the classic game")]),
    ("shoes", (29, 229), 2.0, (12.0, 8.0, 5.0), ["Black", "White", "Gray", "Navy", "Red"], True,
     ["Nike", "Adidas", "New Balance", "Brooks", "ASICS", "Converse", "Skechers", "Hoka"],
     ["Air Zoom", "Ultraboost", "990v6", "Ghost 16", "Gel-Kayano", "Chuck Taylor", "Go Walk", "Clifton 9"],
     [("Men's Running Shoes", "Cushioned running shoes"), ("Women's Running Shoes", "Lightweight running shoes"),
      ("Unisex Sneakers", "Everyday canvas sneakers"), ("Walking Shoes", "Slip-on walking shoes with memory foam")]),
    ("clothing", (9, 199), 0.8, (12.0, 10.0, 2.0), _FABRICS, True,
     ["Levi's", "Columbia", "Patagonia", "Hanes", "Under Armour", "The North Face", "Carhartt", "Champion"],
     ["Classic", "Essential", "Performance", "Heritage", "Everyday", "Trail"],
     [("Men's Fleece Jacket", "Full-zip fleece jacket"), ("Women's Rain Jacket", "Packable waterproof rain jacket"),
      ("Cotton T-Shirt 3 Pack", "Crew neck cotton t-shirts"), ("Slim Fit Jeans", "Stretch denim slim fit jeans"),
      ("Hooded Sweatshirt", "Pullover hoodie with a kangaroo pocket")]),
    ("backpacks", (19, 249), 2.0, (18.0, 12.0, 7.0), ["Black", "Gray", "Navy", "Green", "Red"], True,
     ["Osprey", "JanSport", "Herschel", "The North Face", "Samsonite", "Matein"],
     ["Daylite", "SuperBreak", "Little America", "Borealis", "Tectonic", "Travel"],
     [("Laptop Backpack", "Backpack with a padded 15.6 inch laptop sleeve"),
      ("Hiking Daypack 24L", "Lightweight hiking daypack with a hydration sleeve"),
      ("Travel Backpack Carry-On", "Carry-on backpack that opens like a suitcase")]),
    ("beauty", (5, 129), 0.5, (6.0, 3.0, 2.0), None, False,
     ["CeraVe", "Neutrogena", "The Ordinary", "Olaplex", "L'Oreal Paris", "Dyson", "Revlon"],
     ["Daily", "Hydro Boost", "Advanced", "Revitalift", "One-Step", "No. 3"],
     [("Moisturizing Cream 16 oz", "Fragrance-free moisturizing cream"),
      ("Vitamin C Serum", "Brightening facial serum"), ("Hair Dryer Brush", "Hot air volumizing brush"),
      ("Sunscreen SPF 50", "Broad spectrum sunscreen lotion"), ("Hair Repair Treatment", "Bond-building hair treatment")]),
    ("grocery", (3, 49), 1.5, (8.0, 5.0, 3.0), None, False,
     ["Starbucks", "Kirkland Signature", "Nature Valley", "KIND", "Lavazza", "Blue Diamond", "Ghirardelli"],
     ["Pike Place", "Organic", "Crunchy", "Super Crema", "Dark", "Original", "Family Size"],
     [("Whole Bean Coffee 2 lb", "Medium roast whole bean coffee"), ("Granola Bars 48 Count", "Oats and honey granola bars"),
      ("Mixed Nuts 2.5 lb", "Roasted and salted mixed nuts"), ("Chocolate Squares 24 oz", "Assorted chocolate squares"),
      ("Green Tea 100 Bags", "Organic green tea bags")]),
    ("pet supplies", (6, 159), 5.0, (20.0, 14.0, 8.0), ["Gray", "Brown", "Blue", "Beige"], True,
     ["KONG", "Purina", "Blue Buffalo", "Furhaven", "PetSafe", "Chuckit!", "Frisco"],
     ["Classic", "Pro Plan", "Life Protection", "Orthopedic", "Ultra", "Deluxe"],
     [("Dog Bed", "Orthopedic foam dog bed with washable cover"), ("Dry Dog Food 30 lb", "Chicken and rice dog food"),
      ("Cat Tree Tower", "Multi-level cat tree with scratching posts"), ("Dog Chew Toy", "Durable rubber chew toy"),
      ("Automatic Pet Feeder", "Programmable pet feeder")]),
    ("sports equipment", (9, 599), 8.0, (24.0, 8.0, 6.0), _BRIGHTS, False,
     ["Bowflex", "Wilson", "Spalding", "Gaiam", "CAP Barbell", "Coleman", "Yeti"],
     ["SelectTech", "Evolution", "NBA", "Premium", "Essentials", "Sundome", "Tundra"],
     [("Adjustable Dumbbells", "Adjustable dumbbell pair, 5-52.5 lb"), ("Yoga Mat 6mm", "Non-slip exercise yoga mat"),
      ("Basketball Official Size", "Indoor/outdoor composite basketball"), ("Camping Tent 4 Person", "Dome tent with rainfly"),
      ("Hard Cooler 45 qt", "Insulated hard cooler"), ("Tennis Racket", "Graphite tennis racket, pre-strung")]),
    ("tools", (12, 399), 6.0, (16.0, 10.0, 5.0), ["Yellow", "Red", "Black", "Blue"], False,
     ["DEWALT", "Milwaukee", "Bosch", "Makita", "Ryobi", "Craftsman", "Stanley"],
     ["20V MAX", "M18", "ONE+", "Professional", "Compact", "FatMax"],
     [("Cordless Drill Driver Kit", "Cordless drill with two batteries and charger"),
      ("Mechanics Tool Set 200 Piece", "Socket and wrench set in a case"), ("Laser Level", "Self-leveling cross-line laser"),
      ("Impact Driver", "Brushless cordless impact driver"), ("Tape Measure 25 ft", "Tape measure with magnetic hook")]),
    ("garden", (8, 349), 7.0, (20.0, 12.0, 10.0), ["Green", "Black", "Terracotta", "Gray"], False,
     ["Fiskars", "Miracle-Gro", "Greenworks", "Sun Joe", "Flexzilla", "Bloem"],
     ["Classic", "Pro", "Deluxe", "Lite", "Garden", "Ultra"],
     [("Garden Hose 50 ft", "Lightweight kink-free garden hose"), ("Pruning Shears", "Bypass pruning shears"),
      ("Raised Garden Bed", "Galvanized raised garden bed"), ("Electric Leaf Blower", "Corded electric leaf blower"),
      ("Plant Food 5 lb", "Water-soluble all-purpose plant food")]),
    ("health", (5, 89), 0.6, (5.0, 3.0, 3.0), None, False,
     ["Nature Made", "Garden of Life", "Optimum Nutrition", "Vital Proteins", "Omron", "Theragun"],
     ["Daily", "Gold Standard", "Original", "Platinum", "Mini", "Advanced"],
     [("Vitamin D3 Softgels", "Vitamin D3 2000 IU softgels"), ("Whey Protein Powder 5 lb", "Chocolate whey protein"),
      ("Collagen Peptides", "Unflavored collagen peptides powder"), ("Blood Pressure Monitor", "Upper arm blood pressure monitor"),
      ("Massage Gun", "Percussive therapy massage device")]),
    ("jewelry", (15, 899), 0.1, (3.0, 3.0, 1.0), _METALS, False,
     ["Pandora", "Swarovski", "Kay", "Mejuri", "Fossil", "Kendra Scott"],
     ["Moments", "Classic", "Timeless", "Bold", "Signature", "Dainty"],
     [("Pendant Necklace", "Sterling silver pendant necklace"), ("Stud Earrings", "Hypoallergenic stud earrings"),
      ("Charm Bracelet", "Adjustable charm bracelet"), ("Stackable Ring", "Minimalist stackable ring")]),
    ("musical instruments", (19, 1299), 9.0, (40.0, 15.0, 5.0), ["Natural", "Black", "Sunburst", "Red"], False,
     ["Yamaha", "Fender", "Casio", "Roland", "Gibson", "Ibanez", "Alesis"],
     ["FG800", "Player", "CT-S300", "FP-30X", "Les Paul", "GIO", "Recital"],
     [("Acoustic Guitar", "Full-size solid-top acoustic guitar"), ("Electric Guitar", "Solid-body electric guitar"),
      ("Digital Piano 88 Key", "Weighted-key digital piano"), ("Ukulele Soprano", "Soprano ukulele with gig bag"),
      ("Portable Keyboard 61 Key", "Portable keyboard with built-in lessons")]),
    ("water bottles", (9, 59), 0.9, (10.0, 3.5, 3.5), _BRIGHTS, False,
     ["Hydro Flask", "Stanley", "YETI", "CamelBak", "Owala", "Contigo", "Nalgene"],
     ["Wide Mouth", "Quencher H2.0", "Rambler", "Chute Mag", "FreeSip", "Autoseal", "Sustain"],
     [("Insulated Water Bottle 32 oz", "Vacuum-insulated stainless steel bottle"),
      ("Tumbler 40 oz with Straw", "Insulated tumbler with handle and straw"),
      ("Water Bottle 24 oz", "Leak-proof water bottle with carry loop")]),
]

# Hand-written flagship products: (type, name, description, price, color, weight, dims) - pairs
# that differ in one detail, plus one product listed by two sellers, make disambiguation real.
_ANCHORS = [
    ("headphones", "Sony WH-1000XM5 Wireless Noise Cancelling Headphones", "Industry-leading noise cancelling, 30 hour battery", 399.99, "Black"),
    ("headphones", "Sony WH-1000XM4 Wireless Noise Cancelling Headphones", "Noise cancelling headphones with speak-to-chat, 30 hour battery", 279.99, "Black"),
    ("headphones", "Apple AirPods Pro (2nd Generation)", "Active noise cancelling earbuds with MagSafe case", 249.0, "White"),
    ("headphones", "Apple AirPods (3rd Generation)", "Spatial audio earbuds with Lightning charging case", 169.0, "White"),
    ("tablets", "Kindle Paperwhite (16 GB)", "6.8 inch glare-free e-reader with adjustable warm light", 149.99, "Black"),
    ("tablets", "Kindle Paperwhite Signature Edition (32 GB)", "E-reader with wireless charging and auto-adjusting light", 199.99, "Black"),
    ("kitchen appliances", "Instant Pot Duo 7-in-1 Electric Pressure Cooker, 6 Quart", "Pressure cooker, slow cooker, rice cooker, steamer and more", 99.95, "Silver"),
    ("kitchen appliances", "Instant Pot Duo 7-in-1 Electric Pressure Cooker, 8 Quart", "Family-size 7-in-1 multi-cooker", 129.95, "Silver"),
    ("water bottles", "Hydro Flask 32 oz Wide Mouth Water Bottle", "Insulated stainless steel bottle with flex cap", 44.95, "Pacific"),
    ("water bottles", "Hydro Flask 24 oz Standard Mouth Water Bottle", "Insulated bottle with flex cap", 34.95, "Pacific"),
    ("computer accessories", "Logitech MX Master 3S Wireless Mouse", "Performance mouse with quiet clicks and 8K DPI sensor", 99.99, "Graphite"),
    ("computer accessories", "Logitech MX Anywhere 3S Wireless Mouse", "Compact performance mouse for travel", 79.99, "Graphite"),
    ("toys", "LEGO Star Wars Millennium Falcon 75257", "Building kit with 1,353 pieces", 159.99, None),
    ("toys", "LEGO Star Wars Millennium Falcon 75375", "Midi-scale building kit with 921 pieces", 84.99, None),
    ("video games", "Nintendo Switch OLED Model", "Handheld and TV console with a 7 inch OLED screen", 349.99, "White"),
    ("video games", "Nintendo Switch Lite", "Compact handheld-only Nintendo Switch", 199.99, "Turquoise"),
    ("computer accessories", "Anker PowerCore 10000 Portable Charger", "Compact 10000 mAh power bank", 21.99, "Black"),
    ("computer accessories", "Anker PowerCore 10000 Portable Charger", "Compact 10000 mAh power bank", 24.49, "Black"),
    ("books", "Project Hail Mary", "Novel by Andy Weir, paperback", 12.99, None),
    ("books", "The Martian", "Novel by Andy Weir, paperback", 10.99, None),
]

_SELLERS = [
    "Summit Electronics", "Summit Electronics Outlet", "Blue Harbor Goods", "Evergreen Home", "Brightline Audio",
    "Maple & Oak Furniture", "Crescent Books", "Ironclad Tools", "Sunrise Kitchen Co.", "Pinnacle Sports",
    "Riverbend Outfitters", "Golden Gate Gadgets", "Atlas Trading", "Cedar Creek Garden", "Lighthouse Toys",
    "Redwood Apparel", "Silverline Jewelers", "Urban Nest Decor", "Peak Fitness Supply", "Northwind Market",
    "Harborview Pets", "Copperleaf Beauty", "Starlight Games", "Fresh Pantry Grocers", "Keystone Office Supply",
    "Midtown Camera Exchange", "Soundwave Music", "Trailhead Gear", "Hearth & Home", "Nimbus Computing",
    "Vista Wellness", "Polar Bottle Co.", "Quill & Ink Stationers", "Metro Mobile", "Everyday Essentials",
    "Prime Picks Marketplace",
]
_GENERALISTS = {"Atlas Trading", "Northwind Market", "Everyday Essentials", "Prime Picks Marketplace", "Blue Harbor Goods"}

_REVIEW_TITLES = {
    5: ["Absolutely love it", "Exceeded my expectations", "Best purchase this year", "Worth every penny", "Perfect"],
    4: ["Very good, minor quibbles", "Solid choice", "Happy with it", "Great value", "Does the job well"],
    3: ["It's okay", "Mixed feelings", "Average at best", "Decent for the price", "Not bad, not great"],
    2: ["Disappointed", "Expected more", "Quality issues", "Would not buy again", "Meh"],
    1: ["Broke within a week", "Terrible", "Returned it", "Do not buy", "Arrived damaged"],
}
_REVIEW_OPENERS = {
    5: ["Works exactly as described and feels premium.", "I use it every day and it still looks new.",
        "Setup took two minutes and it has been flawless since."],
    4: ["Good quality overall, though the packaging could be better.", "Does what it promises; a few small annoyances.",
        "Really nice for the money, just not perfect."],
    3: ["It works, but nothing special.", "Some things are great, others feel cheap.", "Fine for occasional use."],
    2: ["The build quality is lower than the photos suggest.", "Stopped working properly after a month.",
        "Not as advertised in a couple of ways."],
    1: ["Fell apart almost immediately.", "Completely different from the listing.", "Customer support never replied."],
}
_REVIEW_CLOSERS = ["Bought it as a gift and they liked it.", "Shipping was fast.", "Would recommend to friends.",
                   "The color matches the pictures.", "Sizing runs as expected.", "Took a while to arrive.",
                   "I compared several options before choosing this one.", ""]
_QUESTIONS = [
    "Does this come with a warranty?", "What are the exact dimensions?", "Is this the newest model?",
    "Does the color look the same as in the pictures?", "Can this be shipped internationally?",
    "Is it good for a beginner?", "How long does it usually last?", "Is the box included?",
    "Does it come with a manual in Spanish?", "Is this safe for kids?", "Can I return it if it doesn't fit?",
    "Does it make a lot of noise?",
]
_ANSWERS = [
    "Yes, mine came with a one-year manufacturer warranty.", "The listing dimensions are accurate, I measured it.",
    "As far as I know it is the latest version.", "The color is slightly darker in person.",
    "I had no problems with it, works great.", "Not sure, but the seller answered quickly when I asked.",
    "Mine has lasted over a year with daily use.", "Yes, it arrived in the original box.",
    "It was easy enough for my teenager.", "I returned one without any trouble.",
]
_PROMOS = [
    ("SAVE10", "10% off any order", 10.0, None, 0.0, False, "2026-12-31T23:59:59"),
    ("SPRING20", "20% off orders of $100 or more (up to $50)", 20.0, 50.0, 100.0, False, "2026-06-30T23:59:59"),
    ("WELCOME15", "15% off your next order, once", 15.0, 30.0, 0.0, True, "2026-12-31T23:59:59"),
    ("BIGSPENDER", "25% off orders of $500 or more (up to $200)", 25.0, 200.0, 500.0, False, "2026-09-30T23:59:59"),
    ("HOLIDAY25", "25% off holiday orders", 25.0, 75.0, 0.0, False, "2025-12-31T23:59:59"),
    ("FREESHIP5", "5% off small orders", 5.0, 10.0, 0.0, False, "2026-05-31T23:59:59"),
]
_DELIVERERS = [("UPS", "8007425877", 0.0), ("FedEx", "8004633339", 0.0), ("USPS", "8002758777", 0.0),
               ("DHL Express", "8002255345", 4.99), ("Amazon Logistics", "8882804331", 0.0)]
_CARD_NAMES = ["Chase Sapphire Preferred", "Amex Gold", "Citi Double Cash", "Capital One Venture", "Discover It",
               "Wells Fargo Active Cash", "Bank of America Cash Rewards"]


def _stamp(dt: datetime) -> str:
    return dt.replace(microsecond=0).isoformat()


def _price(rng: Any, lo: float, hi: float) -> float:
    raw = lo * (hi / lo) ** rng.random()  # log-uniform: more cheap items than expensive ones
    return float(int(raw)) + (0.99 if raw >= 10 else 0.49)


def _split_address(text: str) -> tuple[str, str, str, int]:
    """(street, city, state, zip) from a one-line Faker address; military addresses are handled."""
    parts = [p.strip() for p in text.split(",")]
    tail = parts[-1].split()
    state, zip_text = (tail[-2], tail[-1]) if len(tail) >= 2 else ("CA", "94000")
    if len(parts) >= 3:
        street, city = ", ".join(parts[:-2]), parts[-2]
    else:
        street, city = parts[0], tail[0] if tail else "Unknown"
    return street, city, state, int(zip_text) if zip_text.isdigit() else 94000


@populator("amazon", order=30)
def _populate(b: BaseBuilder) -> None:  # noqa: C901 - one pass over the whole store
    rng = b.rng
    me = b.supervisor
    counters: dict[str, int] = {}

    def add(table: str, row: dict[str, Any]) -> dict[str, Any]:
        """``b.add`` with ids from a running counter (b.next_id rescans the table on every row)."""
        if row.get("id") is None:
            last = counters.get(table)
            if last is None:
                last = max((k for k in b.rows.get(table, {}) if isinstance(k, int)), default=0)
            row = {**row, "id": last + 1}
        counters[table] = max(counters.get(table, 0), row["id"])
        return b.add(table, row)

    # -- sellers and deliverers
    sellers: dict[str, dict[str, Any]] = {}
    for name in _SELLERS:
        handle = "".join(ch for ch in name.lower() if ch.isalnum())
        sellers[name] = add(SELLERS, {
            "name": name, "rating": round(rng.uniform(3.2, 5.0), 1), "email": f"support@{handle}.com",
            "phone_number": f"{rng.randint(201, 989)}{rng.randint(200, 999)}{rng.randint(1000, 9999)}",
            "description": f"{name} sells quality products with fast shipping and easy returns.",
            "created_at": _stamp(b.past(2500, 900)),
        })
    for name, phone, fee in _DELIVERERS:
        add(DELIVERERS, {"name": name, "phone_number": phone, "pickup_fee": fee})
    specialists = [s for n, s in sellers.items() if n not in _GENERALISTS]
    generalists = [sellers[n] for n in _SELLERS if n in _GENERALISTS]

    # -- products
    products: list[dict[str, Any]] = []
    next_id = FIRST_PRODUCT_ID
    group_id = 0

    def add_product(row: dict[str, Any]) -> dict[str, Any]:
        nonlocal next_id
        seller = row.pop("_seller")
        product = add(PRODUCTS, {"id": next_id, **row, "seller_id": seller["id"], "seller_rating": seller["rating"],
                                   "created_at": _stamp(b.past(1200, 30))})
        next_id += 1
        products.append(product)
        return product

    def dims(base: tuple[float, float, float], weight: float) -> dict[str, float]:
        f = rng.uniform(0.7, 1.3)
        return {"length": round(base[0] * f, 1), "width": round(base[1] * f, 1), "height": round(base[2] * f, 1),
                "weight": round(weight * rng.uniform(0.6, 1.4), 2)}

    rng.shuffle(specialists)  # dealt out three per type in turn, so every seller has products
    for t, (ptype, (lo, hi), weight, base_dims, colors, sized, brands, quals, nouns) in enumerate(_CATALOG):
        type_sellers = [specialists[(3 * t + k) % len(specialists)] for k in range(3)]
        type_sellers.append(generalists[t % len(generalists)])
        names: set[str] = set()
        made = 0
        while made < 11:
            pick = rng.randrange(len(brands))
            brand, (noun, desc) = brands[pick], rng.choice(nouns)
            qual = quals[pick] if ptype in _PAIRED else rng.choice(quals)
            name = f"{qual} {noun}" if ptype in _TITLED else f"{brand} {qual} {noun}"
            if name in names:
                continue
            names.add(name)
            made += 1
            description = f"{desc}. By {brand}." if ptype in _TITLED else f"{desc}."
            price = _price(rng, lo, hi)
            seller = rng.choice(type_sellers)
            variants = 1
            if (colors or sized) and rng.random() < 0.35:
                variants = rng.randint(2, 3) if sized else min(rng.randint(2, 3), len(colors or []))
            group = None
            if variants > 1:
                group_id += 1
                group = group_id
            color_pool = rng.sample(colors, min(len(colors), variants)) if colors else [None] * variants
            size_pool = rng.sample(["small", "medium", "large", "extra large"], variants) if sized else [None] * variants
            if sized and colors and variants > 1:
                color_pool = [color_pool[0]] * variants  # sizes vary, color fixed
            for v in range(variants):
                v_price = price if v == 0 or price < 20 else round(price + rng.choice([-5, 0, 5, 10]), 2)
                stock = 0 if (v == 0 and made % 9 == 0) else rng.choice([3, 8, 15, 25, 40, 60, 100, 250])
                add_product({
                    "_seller": seller, "name": name, "description": description, "product_type": ptype,
                    "price": v_price, "rating": 0.0, "inventory_quantity": stock,
                    "color": color_pool[v], "relative_size": size_pool[v], "delivery_days": rng.choice([1, 2, 2, 3, 3, 5, 7]),
                    "has_variations": variants > 1, "variation_group_id": group, **dims(base_dims, weight),
                })
    type_specs = {spec[0]: spec for spec in _CATALOG}
    for i, (ptype, name, description, price, color) in enumerate(_ANCHORS):
        spec = type_specs[ptype]
        seller = rng.choice(generalists) if i == 17 else rng.choice(specialists)
        add_product({
            "_seller": seller, "name": name, "description": description, "product_type": ptype, "price": price,
            "rating": 0.0, "inventory_quantity": rng.choice([12, 30, 75, 150]), "color": color, "relative_size": None,
            "delivery_days": rng.choice([1, 2, 3]), "has_variations": False, **dims(spec[3], spec[2]),
        })

    # -- reviews (they define every product's rating), questions and answers
    reviewer_pool = [p.id for p in b.people if p.id != me.id]
    rows = b.rows.setdefault(PRODUCTS, {})
    review_count = 0
    for product in products:
        n = rng.choice([0, 1, 2, 3, 3, 4, 5, 6, 8])
        quality = rng.uniform(3.2, 4.9)
        stars = []
        for reviewer in rng.sample(reviewer_pool, n):
            star = max(1, min(5, round(rng.gauss(quality, 0.9))))
            stars.append(star)
            created = _stamp(b.past(700, 2))
            closer = rng.choice(_REVIEW_CLOSERS)
            add(REVIEWS, {
                "product_id": product["id"], "user_id": reviewer, "rating": star,
                "title": rng.choice(_REVIEW_TITLES[star]),
                "text": (rng.choice(_REVIEW_OPENERS[star]) + (" " + closer if closer else "")),
                "is_verified": rng.random() < 0.75, "created_at": created, "updated_at": created,
            })
            review_count += 1
        if stars:
            rows[product["id"]]["rating"] = round(sum(stars) / len(stars), 1)
        if rng.random() < 0.3:
            for question in rng.sample(_QUESTIONS, rng.randint(1, 2)):
                asker = rng.choice(reviewer_pool)
                asked = b.past(600, 20)
                q = add(QUESTIONS, {"product_id": product["id"], "user_id": asker, "question": question,
                                      "created_at": _stamp(asked), "updated_at": _stamp(asked)})
                for _ in range(rng.randint(0, 3)):
                    answered = _stamp(asked + timedelta(days=rng.randint(1, 15)))
                    add(ANSWERS, {"question_id": q["id"], "user_id": rng.choice(reviewer_pool),
                                    "answer": rng.choice(_ANSWERS), "is_verified": rng.random() < 0.6,
                                    "created_at": answered, "updated_at": answered})

    # -- promo codes
    for code, desc, pct, cap, minimum, single, expires in _PROMOS:
        add(PROMO_CODES, {"code": code, "description": desc, "discount_percentage": pct, "max_discount": cap,
                            "min_subtotal": minimum, "single_use": single, "expires_at": expires})

    # -- addresses and payment cards (owner + some others)
    others = b.others(40)
    for person, labels in [(me, ("Home", "Work"))] + [(p, ("Home",) if k % 3 else ("Home", "Work")) for k, p in enumerate(others)]:
        for label in labels:
            street, city, state, zip_code = _split_address(person.home_address if label == "Home" else person.work_address)
            add(ADDRESSES, {"user_id": person.id, "name": label, "street_address": street, "city": city,
                              "state": state, "country": "United States", "zip_code": zip_code,
                              "created_at": _stamp(b.past(800, 300))})

    def add_card(person: Any, name: str, balance: float) -> dict[str, Any]:
        return add(CARDS, {
            "user_id": person.id, "card_name": name, "owner_name": person.full_name,
            "card_number": int("4" + "".join(str(rng.randint(0, 9)) for _ in range(15))),
            "expiry_year": rng.randint(2027, 2031), "expiry_month": rng.randint(1, 12),
            "cvv_number": rng.randint(100, 999), "balance": balance, "created_at": _stamp(b.past(900, 200)),
        })

    my_cards = [add_card(me, name, bal) for name, bal in
                zip(rng.sample(_CARD_NAMES, 3), (4850.0, 1320.5, 85.4))]
    for person in others[:25]:
        add_card(person, rng.choice(_CARD_NAMES), round(rng.uniform(200, 6000), 2))

    # -- prime history of the owner (none active at base time)
    prime_periods = []
    for duration, start in (("yearly", datetime(2024, 11, 5, 9, 30)), ("monthly", datetime(2025, 11, 20, 18, 5))):
        end = start + timedelta(days=PRIME_PLANS[duration]["days"])
        prime_periods.append((start, end))
        add(PRIME, {"user_id": me.id, "payment_card_id": my_cards[0]["id"], "duration": duration,
                      "price": PRIME_PLANS[duration]["price"], "start_date": _stamp(start), "end_date": _stamp(end),
                      "created_at": _stamp(start)})

    # -- orders: the owner's history plus some for others
    in_stock = [p for p in products if p["inventory_quantity"] > 0]
    my_addresses = [r for r in b.rows[ADDRESSES].values() if r["user_id"] == me.id]
    my_orders: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    buyers = [(me, my_cards, my_addresses)] * 14
    other_cards = {}
    for card in b.rows[CARDS].values():
        other_cards.setdefault(card["user_id"], []).append(card)
    for person in others[:25]:
        addresses = [r for r in b.rows[ADDRESSES].values() if r["user_id"] == person.id]
        buyers.append((person, other_cards[person.id], addresses))
    for person, cards, addresses in buyers:
        created = b.past(420, 6) if person is me else b.past(300, 3)
        picks = rng.sample(in_stock, rng.choice([1, 1, 2, 2, 3]))
        address = rng.choice(addresses)
        card = rng.choice(cards[:2]) if person is me else cards[0]
        items, subtotal, wrapped = [], 0.0, 0
        for product in picks:
            qty = rng.choice([1, 1, 1, 2, 3])
            gift = 1 if rng.random() < 0.1 else 0
            subtotal += product["price"] * qty
            wrapped += gift
            items.append({"product_id": product["id"], "quantity": qty, "price": product["price"],
                          "gift_wrap_quantity": gift,
                          "expected_delivery_at": _stamp(created + timedelta(days=product["delivery_days"]))})
        subtotal = money(subtotal)
        prime = person is me and any(s <= created < e for s, e in prime_periods)
        gift_fee = money(wrapped * GIFT_WRAP_FEE)
        tax = money((subtotal + gift_fee) * TAX_RATE)
        delivery = 0.0 if prime else DELIVERY_FEE
        order = add(ORDERS, {
            "user_id": person.id, "payment_card_id": card["id"], "address_id": address["id"],
            "shipping_address": (f"{address['name']}, {address['street_address']}, {address['city']}, "
                                 f"{address['state']} {address['zip_code']}, {address['country']}"),
            "promo_code": None, "subtotal": subtotal, "gift_wrap_fee": gift_fee, "discount": 0.0,
            "delivery_fee": delivery, "tax": tax, "total_amount": money(subtotal + gift_fee + delivery + tax),
            "created_at": _stamp(created),
        })
        stored = [add(ORDER_ITEMS, {"order_id": order["id"], **item}) for item in items]
        if person is me:
            my_orders.append((order, stored))

    # -- the owner's past returns, reviews, cart, wish list and browsing history
    my_orders.sort(key=lambda pair: pair[0]["created_at"])
    for order, stored in my_orders[1:3]:
        item = stored[0]
        returned_at = datetime.fromisoformat(item["expected_delivery_at"]) + timedelta(days=rng.randint(2, 12))
        add(RETURNS, {"user_id": me.id, "order_id": order["id"], "product_id": item["product_id"],
                        "deliverer_id": rng.randint(1, len(_DELIVERERS)), "quantity": 1,
                        "refund_amount": item["price"], "status": "refunded", "initiated_at": _stamp(returned_at),
                        "completed_at": _stamp(returned_at + timedelta(days=5))})
    bought = []
    for order, stored in my_orders:
        bought.extend(i["product_id"] for i in stored)
    for product_id in list(dict.fromkeys(bought))[:3]:
        star = rng.choice([3, 4, 5])
        written = _stamp(b.past(60, 3))
        add(REVIEWS, {"product_id": product_id, "user_id": me.id, "rating": star,
                        "title": rng.choice(_REVIEW_TITLES[star]), "text": rng.choice(_REVIEW_OPENERS[star]),
                        "is_verified": True, "created_at": written, "updated_at": written})
        stars = [r["rating"] for r in b.rows[REVIEWS].values() if r["product_id"] == product_id]
        rows[product_id]["rating"] = round(sum(stars) / len(stars), 1)

    not_bought = [p for p in in_stock if p["id"] not in set(bought)]
    picks = rng.sample(not_bought, 20)
    for product in picks[:2]:
        add(CART, {"user_id": me.id, "product_id": product["id"], "quantity": rng.choice([1, 2]),
                     "gift_wrap_quantity": 0, "created_at": _stamp(b.past(10, 1))})
    for product in picks[2:5]:
        add(WISH_LIST, {"user_id": me.id, "product_id": product["id"], "quantity": 1,
                          "created_at": _stamp(b.past(90, 2))})
    for product in picks[5:20]:
        add(BROWSING, {"user_id": me.id, "product_id": product["id"], "created_at": _stamp(b.past(30, 1))})
    for person in others[:10]:
        product = rng.choice(in_stock)
        add(CART, {"user_id": person.id, "product_id": product["id"], "quantity": 1, "gift_wrap_quantity": 0,
                     "created_at": _stamp(b.past(20, 1))})
        add(WISH_LIST, {"user_id": person.id, "product_id": rng.choice(in_stock)["id"], "quantity": 1,
                          "created_at": _stamp(b.past(60, 1))})
        add(BROWSING, {"user_id": person.id, "product_id": product["id"], "created_at": _stamp(b.past(20, 1))})
    b.shared["amazon"] = {"first_product_id": FIRST_PRODUCT_ID, "num_products": len(products),
                          "num_reviews": review_count, "base_time": _stamp(BASE_TIME.replace(tzinfo=None))}
