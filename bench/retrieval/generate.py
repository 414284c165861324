"""Mnemo's own conversational retrieval benchmark: a seeded, deterministic generator.

Written by the Mnemo team for this repository (no outside data, no licence strings attached).
It writes ``bench/retrieval/conversations.json``: long multi-session chats between two or three
people (sessions with dates, one memory per turn, turn ids like ``c3:D7:12``) and questions whose
evidence turns are labelled, in five types:

- ``single-hop``: one fact said once ("What is the name of Maren's cat?");
- ``multi-hop``: facts said in several sessions ("Which places has Maren travelled to?");
- ``temporal``: "when did ...", answered by the date of the session of the evidence turn;
- ``open-domain``: inference from what was said ("Would Maren enjoy a weekend at a national
  park?"), sharing few words with the evidence;
- ``adversarial``: near-misses: the fact belongs to the other speaker (evidence: the turn where
  the other one said it), or it was never said at all (no evidence: used to measure false hits).

Facts are mostly said indirectly in chit-chat, questions are paraphrased (few shared words, where
meaning must carry the search) or name rare things (pet names, places, bands, book titles, where
keywords must carry it), and the other speaker's replies echo the same words, as people do.

    .venv/bin/python -m bench.retrieval.generate          # rewrites conversations.json
"""

from __future__ import annotations

import hashlib
import json
import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

OUT = Path(__file__).with_name("conversations.json")
SEED = 14
CONVERSATIONS = 12

NAMES = [
    ("Maren", "she"), ("Tobias", "he"), ("Ines", "she"), ("Dario", "he"), ("Priya", "she"), ("Kwame", "he"),
    ("Solveig", "she"), ("Rafael", "he"), ("Yuki", "she"), ("Emeka", "he"), ("Lucia", "she"), ("Anders", "he"),
    ("Farah", "she"), ("Jonas", "he"), ("Camille", "she"), ("Mateo", "he"), ("Aoife", "she"), ("Bilal", "he"),
    ("Greta", "she"), ("Tariq", "he"), ("Noor", "she"), ("Callum", "he"), ("Elif", "she"), ("Henrik", "he"),
    ("Zara", "she"), ("Oskar", "he"), ("Mirela", "she"), ("Desmond", "he"), ("Leilani", "she"), ("Piotr", "he"),
    ("Wren", "she"), ("Idris", "he"),
]  # fmt: skip
PRONOUNS = {"she": ("she", "her", "her"), "he": ("he", "him", "his")}

PETS = [
    ("dog", ["pup", "doggo", "the dog", "my boy"], ["fetch", "walk", "leash", "bark", "treats"]),
    ("cat", ["kitty", "the cat", "little furball", "my girl"], ["scratching post", "purr", "litter", "nap"]),
    ("parrot", ["bird", "feathered menace", "little parrot"], ["cage", "whistles", "seeds", "squawk"]),
    ("rabbit", ["bunny", "fluffball", "little rabbit"], ["carrots", "hutch", "hops", "hay"]),
    ("tortoise", ["shell buddy", "old tortoise", "slowpoke"], ["lettuce", "terrarium", "heat lamp"]),
]
PET_NAMES = [
    "Biscuit", "Pickles", "Zorro", "Mochi", "Tofu", "Gatsby", "Nugget", "Bramble", "Waffles", "Ziggy",
    "Pumpernickel", "Juniper", "Chorizo", "Marzipan", "Figaro", "Clementine", "Boomer", "Pistachio",
    "Sprocket", "Dumpling", "Hazelnut", "Rigatoni", "Cosmo", "Paprika", "Noodle", "Truffle", "Goose", "Basil",
    "Wasabi", "Ravioli", "Loki", "Pesto",
]  # fmt: skip

# hobby: explicit mention (the word itself), indirect mentions (no hobby word), question phrases,
# an inference question and a related activity for open-domain questions
HOBBIES = {
    "pottery": (
        "I signed up for a pottery class at the community center, first session was tonight!",
        [
            "Spent the whole afternoon at the wheel, my hands are still covered in clay.",
            "My first bowl came out of the kiln cracked, but honestly I love it anyway.",
            "Glazing day! Everything I make is slightly lopsided but it's mine.",
        ],
        "a visit to a ceramics exhibition",
    ),
    "rock climbing": (
        "I've gotten really into rock climbing lately, the bouldering gym is my happy place.",
        [
            "Finally sent that overhang route I'd been stuck on for weeks, forearms are toast.",
            "Chalk everywhere, ripped a callus, best Saturday ever.",
            "We drove out to the crag at dawn, I managed the whole wall without falling once.",
        ],
        "a trip to the Dolomites for via ferrata routes",
    ),
    "violin": (
        "I picked the violin back up after ten years, my neighbours must hate me.",
        [
            "Practised scales for an hour, my bow arm finally stopped shaking.",
            "Our little string quartet played Dvořák in the park and people actually stopped to listen.",
            "New rosin, new strings, and the E still squeaks. Classic.",
        ],
        "tickets to a chamber music concert",
    ),
    "birdwatching": (
        "I've become a total birdwatching nerd, I bought binoculars and everything.",
        [
            "Saw a kingfisher by the river this morning, sat there with my thermos for two hours.",
            "My life list is up to 140 species, the heron rookery was packed.",
            "Got up before sunrise to catch the warblers migrating, completely worth it.",
        ],
        "a guided walk through a wetland reserve",
    ),
    "sourdough baking": (
        "I'm baking sourdough every weekend now, my starter is called Gerald.",
        [
            "The crumb on this loaf is finally open and airy, I nearly cried.",
            "Fed the starter at midnight again, my kitchen smells like a bakery.",
            "Tried a rye and caraway loaf, scored it with a razor, crust came out crackly.",
        ],
        "a bread-making masterclass in Paris",
    ),
    "salsa dancing": (
        "I started salsa dancing on Thursdays, two left feet but I'm having a blast.",
        [
            "Spun so fast last night I almost took out the instructor, the Cuban music was amazing.",
            "My partner and I finally nailed the cross-body lead, felt like flying.",
            "Danced until 1am at the social, my calves are screaming.",
        ],
        "a Latin music festival",
    ),
    "watercolor painting": (
        "I've been doing watercolor painting in the evenings, it calms me down so much.",
        [
            "Painted the harbour at dusk, the blues bled into each other perfectly.",
            "Bought a new set of sable brushes and cold-press paper, I'm obsessed.",
            "Sat by the lake with my little palette and sketched the boats for hours.",
        ],
        "an art retreat in Provence",
    ),
    "chess": (
        "I joined a chess club downtown, I lost every game but I'm hooked.",
        [
            "Studied the Sicilian defence all evening, my brain hurts in a good way.",
            "Won my first tournament game, a sneaky knight fork in the endgame!",
            "Blitz games online until 2am, my rating finally crossed 1500.",
        ],
        "a weekend of puzzles and strategy board games",
    ),
    "kayaking": (
        "I bought a used kayak and I've been out on the water every weekend.",
        [
            "Paddled across the bay at sunrise, the water was like glass.",
            "Capsized in the rapids, got soaked, laughed the whole way home.",
            "Saw seals while I was paddling near the cliffs, unreal.",
        ],
        "a canoe trip down a river",
    ),
    "woodworking": (
        "I've taken up woodworking in the garage, building a bookshelf from scratch.",
        [
            "Sanded and oiled the walnut table top, the grain looks gorgeous.",
            "Cut a perfect dovetail joint by hand, only took six tries.",
            "Sawdust in my hair, splinter in my thumb, proud of this little stool.",
        ],
        "a furniture-making workshop",
    ),
    "astronomy": (
        "I got a telescope for my birthday and I'm deep into astronomy now.",
        [
            "Saw Saturn's rings with my own eyes last night, I actually gasped.",
            "Drove away from the city lights to look at the Andromeda galaxy, freezing but magical.",
            "Stayed up for the meteor shower, counted forty shooting stars.",
        ],
        "a night at a dark-sky observatory",
    ),
    "knitting": (
        "I learned to knit this winter, making a scarf for my mom.",
        [
            "Finished the cable-knit sweater, only dropped a few stitches.",
            "Bought way too much merino yarn at the fair, no regrets.",
            "Casting on a pair of socks on the train every morning, it's so relaxing.",
        ],
        "a fibre arts market",
    ),
}

CITIES = [
    ("Ljubljana", "the dragon bridge", "castle on the hill"),
    ("Oaxaca", "mole at the market", "Monte Albán ruins"),
    ("Tromsø", "northern lights", "fjord cruise"),
    ("Hokkaido", "powder snow", "hot springs"),
    ("Cartagena", "walled old town", "colourful balconies"),
    ("Tbilisi", "sulphur baths", "khachapuri"),
    ("Porto", "port cellars", "azulejo tiles"),
    ("Zanzibar", "spice farms", "dhow sailing"),
    ("Reykjavik", "geysers", "black sand beach"),
    ("Kraków", "salt mine", "pierogi"),
    ("Hoi An", "lantern festival", "tailor shops"),
    ("Marrakesh", "souks", "riad courtyard"),
    ("Valparaíso", "street murals", "funiculars"),
    ("Bruges", "canals", "chocolate shops"),
    ("Quebec City", "cobblestone streets", "poutine"),
    ("Kyoto", "bamboo forest", "temples"),
    ("Galway", "trad music pubs", "cliffs"),
    ("Hallstatt", "lake views", "salt mine tour"),
    ("Tasmania", "wombats", "coastal hikes"),
    ("Patagonia", "glaciers", "wind"),
]
TRIP_TURNS = [
    "Just got back from {city}! The {f1} was unreal and I ate way too much.",
    "We spent five days in {city}, honestly the {f2} alone was worth the flight.",
    "Greetings from {city}! Wandering around the {f1} with no plan at all.",
    "Still jet-lagged after {city}. I keep looking at photos of the {f2}.",
]
TRIP_REPLIES = [
    "Oh wow, {city}! I've always wanted to go there.",
    "{city} sounds amazing, send me pictures!",
    "Jealous! Was {city} as beautiful as everyone says?",
]

JOBS = [
    ("nurse", "Twelve-hour shift on the ward again, two patients coded before lunch.", "handle a medical emergency"),
    (
        "software developer",
        "Spent the whole day chasing a bug in production, it was a missing semicolon in a config file.",
        "debug a broken website",
    ),
    (
        "high school chemistry teacher",
        "My tenth graders set off the fire alarm with the flame test demo again.",
        "explain a science experiment to kids",
    ),
    ("veterinarian", "Stitched up a husky who fought a porcupine today, poor guy.", "care for a sick animal"),
    ("architect", "The client wants the atrium moved again, redrawing the floor plans all weekend.", "design a house"),
    (
        "firefighter",
        "Three calls overnight at the station, one kitchen fire and two false alarms.",
        "stay calm in a crisis",
    ),
    ("accountant", "Tax season is brutal, I reconciled ledgers until midnight.", "sort out someone's taxes"),
    (
        "graphic designer",
        "Redid the bakery's logo for the fourth time, they want it to feel warmer.",
        "make a poster for a charity event",
    ),
    (
        "electrician",
        "Rewired an entire Victorian house today, the old wiring was terrifying.",
        "fix a flickering light",
    ),
    ("pastry chef", "Piped four hundred éclairs before dawn, my wrists are done.", "bake a wedding cake"),
    ("lawyer", "Closing arguments tomorrow, I've been rehearsing in front of the mirror.", "read a contract"),
    ("pilot", "Landed in a crosswind in Denver today, the passengers clapped.", "navigate with a map"),
]
JOB_QUESTIONS = [
    "What does {A} do for a living?",
    "What is {A}'s profession?",
    "What kind of work does {A} do?",
]

RELATIVES = [
    ("sister", "just had her baby", "have a baby", "My sister {rel} just had her baby yesterday, a tiny perfect girl!"),
    (
        "brother",
        "got engaged",
        "get engaged",
        "My brother {rel} proposed to his girlfriend last night and she said yes!",
    ),
    ("mom", "retired", "retire", "My mom {rel} finally retired after thirty years at the post office."),
    ("dad", "had knee surgery", "have surgery", "My dad {rel} had his knee operation this week, he's recovering fine."),
    (
        "cousin",
        "graduated from medical school",
        "graduate",
        "My cousin {rel} graduated from med school on Friday, we threw a huge party.",
    ),
    (
        "grandma",
        "turned ninety",
        "celebrate a birthday",
        "My grandma {rel} turned ninety on Sunday, still sharp as a tack.",
    ),
]
RELATIVE_NAMES = [
    "Ottilie", "Barnaby", "Ingrid", "Cosimo", "Philippa", "Lazlo", "Rosalind", "Thaddeus", "Saoirse", "Ignatius",
    "Marisol", "Fenwick", "Octavia", "Rupert", "Esperanza", "Horatio", "Beatrix", "Anselm",
]  # fmt: skip

# (event id, what the turn says, question phrasings for "when did A ...", a reply echoing it)
EVENTS = [
    (
        "half marathon",
        [
            "Crossed the finish line of my first half marathon yesterday, my legs are jelly.",
            "Twenty-one kilometres done this morning! I can't believe I ran the whole thing.",
        ],
        ["run a half marathon", "complete {pos} first long-distance race"],
        "A half marathon?! You're a machine.",
    ),
    (
        "concert",
        [
            "Saw {band} live last night, I screamed so much I lost my voice.",
            "Front row for {band} on Friday, best concert of my life.",
        ],
        ["go to the {band} concert", "see {band} perform live"],
        "No way, {band}? I love their second album!",
    ),
    (
        "charity gala",
        [
            "Went to a fundraising gala for the children's hospital last weekend, we raised a lot.",
            "Dressed up for the hospital benefit on Saturday, felt very fancy.",
        ],
        ["attend a charity gala", "go to the fundraiser for the children's hospital"],
        "That's such a good cause.",
    ),
    (
        "cooking workshop",
        [
            "Took a Thai cooking workshop on Sunday, I can finally make a proper green curry.",
            "Learned to make pad see ew from scratch at a class this weekend!",
        ],
        ["take a cooking class", "learn to cook Thai food"],
        "You have to cook for me sometime!",
    ),
    (
        "food bank",
        [
            "Volunteered at the food bank this morning, we packed three hundred boxes.",
            "Spent Saturday sorting donated cans at the pantry downtown, my back hurts but it felt good.",
        ],
        ["volunteer at the food bank", "help out at a food pantry"],
        "That's really kind of you.",
    ),
    (
        "promotion",
        [
            "Big news: I got promoted to team lead today!",
            "My boss called me in and I'm officially senior now, with a raise!",
        ],
        ["get promoted", "receive a promotion at work"],
        "Congratulations, you deserve it!",
    ),
    (
        "moved",
        [
            "We moved into the new apartment on Saturday, boxes everywhere.",
            "Finally got the keys to our new place, the movers broke one lamp but whatever.",
        ],
        ["move into a new apartment", "move house"],
        "How exciting, housewarming party soon?",
    ),
    (
        "support group",
        [
            "I went to a grief support group for the first time last night, it really helped to talk.",
            "Sat in a circle with strangers who lost parents too, I cried but I felt lighter after.",
        ],
        ["go to a support group", "attend a grief support meeting"],
        "I'm really proud of you for going.",
    ),
    (
        "mural",
        [
            "Helped paint a mural on the library wall with the neighbourhood kids this weekend.",
            "Our community mural is finished, sunflowers and a giant whale across the school wall!",
        ],
        ["paint a mural", "work on the community mural"],
        "I'd love to see the mural.",
    ),
    (
        "open mic",
        [
            "Played two songs at an open mic night yesterday, my hands were shaking.",
            "I actually got on stage at the café's open mic and sang, terrifying!",
        ],
        ["perform at an open mic", "sing on stage at a café"],
        "You're so brave, I could never.",
    ),
    (
        "book club",
        [
            "Joined a book club at the library, first meeting was Tuesday.",
            "Our new reading group met for the first time yesterday, lovely people.",
        ],
        ["join a book club", "start going to a reading group"],
        "What are you reading first?",
    ),
    (
        "tattoo",
        [
            "Got my first tattoo yesterday, a tiny fern on my wrist.",
            "I finally did it, inked a little compass on my ankle this weekend.",
        ],
        ["get a tattoo", "get inked"],
        "Show me! Did it hurt?",
    ),
    (
        "camping",
        [
            "We went camping by the lake last weekend, s'mores and zero phone signal.",
            "Slept in a tent in the woods for three nights, I smell like campfire.",
        ],
        ["go camping", "spend a weekend in a tent"],
        "Camping sounds so peaceful.",
    ),
    (
        "adoption fair",
        [
            "Volunteered at an animal shelter adoption day, twelve dogs found homes!",
            "Helped at the rescue's adoption event on Sunday, so many happy families.",
        ],
        ["volunteer at the shelter adoption event", "help at an animal adoption day"],
        "That must have been so heartwarming.",
    ),
    (
        "driving test",
        [
            "Passed my driving test this morning on the second try!",
            "I'm officially licensed, the examiner said my parallel parking was perfect.",
        ],
        ["pass {pos} driving test", "get {pos} driver's license"],
        "Road trip time!",
    ),
    (
        "hackathon",
        [
            "Spent the whole weekend at a hackathon, our team built an app for tracking bike lanes.",
            "Forty-eight hours of coding and pizza, we came second at the hackathon!",
        ],
        ["take part in a hackathon", "join a coding competition"],
        "Second place is awesome!",
    ),
]
BANDS = [
    "The Velvet Moths", "Kite Parade", "Paper Lanterns", "Glass Harbour", "Neon Tortoise", "Saltwater Choir",
    "The Marmalade Union", "Fox & Ferns", "Static Orchard", "Low Tide Radio",
]  # fmt: skip

BOOKS = [
    "The Lighthouse at Vell", "Salt and Saffron", "A Map of Quiet Places", "The Clockmaker's Daughter",
    "Winter in Aldermere", "The Orchard Keeper's Diary", "Seven Bridges to Karsk", "Notes from the Tidepool",
    "The Glass Cartographer", "Ember and Ash", "The Last Tram to Lisbon", "Moths of the Northern Valley",
]  # fmt: skip
BOOK_TURNS = [
    "I'm rereading '{book}' for the third time, it gets me every time.",
    "Can't put down '{book}', stayed up until 3am to finish it.",
]

# open-domain traits: (turns showing it without naming it, questions)
TRAITS = {
    "outdoors": (
        [
            "Honestly I feel most alive when I'm out on a trail with nobody around.",
            "Slept under the stars again on the ridge, woke up to deer outside the tent.",
        ],
        ["Would {A} enjoy a weekend at a national park?", "Is {A} more of an indoor or an outdoor person?"],
    ),
    "counseling": (
        [
            "I've been looking into master's programs in mental health counseling, I want to help people like I was helped.",  # noqa: E501
            "Shadowed a school psychologist this week, I think that's my calling.",
        ],
        ["What field might {A} go into for {pos} studies?", "What career is {A} likely to pursue?"],
    ),
    "early riser": (
        [
            "My alarm is at 5am every day, I love the city before anyone is awake.",
            "Did my run before sunrise again, coffee on the balcony while it's still dark.",
        ],
        ["Is {A} a morning person?", "Would {A} mind an early 6am meeting?"],
    ),
    "animal lover": (
        [
            "I stop to pet every single dog I see on the street, I can't help it.",
            "I'd take home every stray if I could, I donate to the rescue each month.",
        ],
        ["Would {A} be a good pet sitter?", "Does {A} care about animal welfare?"],
    ),
    "environment": (
        [
            "We cut out plastic completely this year and I bike everywhere now.",
            "Spent Sunday picking up litter on the beach with a cleanup crew.",
        ],
        ["Would {A} support a climate protest?", "Does {A} care about sustainability?"],
    ),
    "introvert": (
        [
            "Big parties drain me, give me a quiet night with tea and a blanket.",
            "I left the office party after twenty minutes, too many people talking at once.",
        ],
        ["Would {A} enjoy a huge crowded festival?", "Does {A} prefer quiet evenings or big gatherings?"],
    ),
}

# things nobody in any conversation ever says: questions about them have no evidence
NEVER = [
    "What did {A} say about {pos} scuba diving certification?",
    "What is the name of {A}'s horse?",
    "When did {A} go skydiving?",
    "Which orchestra does {A} conduct?",
    "What did {A} think of the opera in Vienna?",
    "How many goats does {A} keep on {pos} farm?",
    "When did {A} run for city council?",
    "What is {A}'s favourite cricket team?",
    "When did {A} learn to play the bagpipes?",
    "What did {A} buy at the antique car auction?",
    "When did {A} climb Kilimanjaro?",
    "What flavour of bubble tea does {A} order at the karaoke bar?",
]

GREETINGS = [
    "Hey {B}! Long time no talk, how have you been?",
    "Hi {B}, so good to hear from you! What's new?",
    "{B}! I was just thinking about you. How's life?",
    "Hey hey, how was your week, {B}?",
    "Morning {B}! Got a minute to catch up?",
]
ANSWERS = [
    "Pretty good, busy week but I can't complain. You?",
    "Hanging in there! Work has been a lot lately.",
    "Honestly a bit tired but happy. What about you?",
    "Good! It's been a whirlwind, I have news actually.",
    "Not bad at all, the weather finally turned nice.",
]
FILLER = [
    "Haha, that's so true.",
    "Oh I totally get that.",
    "That sounds wonderful, I'm so happy for you.",
    "Wow, that's amazing!",
    "That means a lot, thank you.",
    "Ugh, I know the feeling.",
    "Honestly same.",
    "I hope things calm down for you soon.",
    "You always know how to make me laugh.",
    "That's a good way to look at it.",
    "I can't wait to hear how it goes.",
    "Life has been so hectic lately, I barely sleep.",
    "The weather has been so grey this week, I need some sun.",
    "I've been binge-watching a baking show instead of doing chores.",
    "My coffee machine broke so I've been a zombie all week.",
    "Traffic this morning was a nightmare, took me an hour to get to work.",
    "I keep meaning to call you more often, sorry I've been distant.",
    "Do you ever feel like the weeks just fly by?",
    "Thanks for always listening, it really helps.",
    "We should grab dinner soon, my treat.",
    "I tried that new café on the corner, the croissants were just okay.",
    "My phone screen cracked again, third time this year.",
    "It's been raining nonstop here, the garden is a swamp.",
    "I'm trying to drink more water and go to bed earlier, wish me luck.",
]
# small talk: (question, answer) pairs that carry no fact anybody asks about
SMALLTALK = [
    ("Did you watch the game last night?", "No, I fell asleep on the couch at nine, so exciting."),
    ("Any plans for the weekend?", "Nothing big, probably laundry and a long nap."),
    ("How's the new phone treating you?", "Battery life is great, the camera is whatever."),
    ("Have you tried that new ramen place?", "Not yet, the line is always around the block."),
    ("Is it still freezing over there?", "Yes, I wore two coats today, no shame."),
    ("Did you finish that series everyone is talking about?", "Two episodes left, no spoilers please!"),
    ("How's your back doing?", "Better, I finally bought a decent chair."),
    ("Are you still doing that meal prep thing?", "Trying, but I keep ordering takeout on Wednesdays."),
    ("What are you listening to these days?", "Mostly old podcasts while I clean, nothing exciting."),
    ("Did your package ever arrive?", "Finally, only two weeks late and slightly crushed."),
    ("How's the neighbourhood these days?", "Noisy, they're building something on every corner."),
    ("Still drinking three coffees a day?", "Four, but who's counting."),
    ("Did you get any sleep this week?", "Some, the upstairs neighbours had a party on Tuesday."),
    ("Are you going to the reunion?", "Maybe, I haven't decided if I can face everyone."),
    ("How was the dentist?", "Painless, surprisingly. No cavities!"),
    ("Have you been cooking much?", "Mostly pasta, I'm a creature of habit."),
]
CLOSINGS = [
    "Anyway, I should get going, talk soon!",
    "Okay, gotta run, take care!",
    "Talk to you next week, bye!",
    "Sending hugs, let's catch up again soon.",
]
PREFIXES = ["", "", "", "Oh! ", "Guess what! ", "News! ", "Haha ok. ", "Hmm. "]
SUFFIXES = ["", "", "", " Anyway, how are you?", " Crazy, right?", " Just wanted to tell you.", " 😊"]


def _speaker_facts(rng: random.Random, name: str, pron: str, pools: dict[str, list]) -> dict[str, Any]:
    """What one person will say about themselves over the conversation."""
    facts: dict[str, Any] = {"name": name, "pron": pron}
    if rng.random() < 0.75:
        species, alts, words = pools["pets"].pop()
        facts["pet"] = {"species": species, "alts": alts, "words": words, "name": pools["pet_names"].pop()}
    facts["hobbies"] = rng.sample(sorted(HOBBIES), 2)
    facts["trips"] = [pools["cities"].pop() for _ in range(rng.choice([2, 3, 3, 4]))]
    facts["job"] = pools["jobs"].pop()
    rel = pools["relatives"].pop()
    facts["relative"] = {
        "kind": rel[0],
        "did": rel[1],
        "verb": rel[2],
        "turn": rel[3],
        "name": pools["rel_names"].pop(),
    }
    facts["events"] = [pools["events"].pop() for _ in range(pools["n_events"])]
    facts["band"] = rng.choice(BANDS)
    facts["book"] = pools["books"].pop()
    facts["traits"] = rng.sample(sorted(TRAITS), 2)
    return facts


def _dress(rng: random.Random, text: str) -> str:
    return rng.choice(PREFIXES) + text + rng.choice(SUFFIXES)


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    conversations, questions = [], []
    names = NAMES[:]
    rng.shuffle(names)
    for c in range(CONVERSATIONS):
        n_speakers = 3 if c % 4 == 3 else 2
        people = [names.pop() for _ in range(n_speakers)]
        pools = {
            "pets": rng.sample(PETS, len(PETS)),
            "pet_names": rng.sample(PET_NAMES, len(PET_NAMES)),
            "cities": rng.sample(CITIES, len(CITIES)),
            "jobs": rng.sample(JOBS, len(JOBS)),
            "relatives": rng.sample(RELATIVES, len(RELATIVES)),
            "rel_names": rng.sample(RELATIVE_NAMES, len(RELATIVE_NAMES)),
            "books": rng.sample(BOOKS, len(BOOKS)),
            "events": rng.sample(EVENTS, len(EVENTS)),
            "n_events": 6 if n_speakers == 2 else 5,
        }
        speakers = [_speaker_facts(rng, n, p, pools) for n, p in people]
        n_sessions = rng.randint(22, 27)
        # what each speaker says in which session: (kind, payload), spread over the sessions
        agenda: list[list[tuple[int, str, Any]]] = [[] for _ in range(n_sessions)]
        for si, sp in enumerate(speakers):
            items: list[tuple[str, Any]] = []
            if "pet" in sp:
                items += [("pet_intro", None), ("pet_later", 0), ("pet_later", 1)]
            for h in sp["hobbies"]:
                items += [("hobby_intro", h), ("hobby_later", (h, 0)), ("hobby_later", (h, 1))]
            items += [("trip", t) for t in sp["trips"]]
            items += [("job", None), ("job", None), ("relative", None), ("book", None)]
            items += [("event", e) for e in sp["events"]]
            for t in sp["traits"]:
                items += [("trait", (t, 0)), ("trait", (t, 1))]
            # intros before later mentions: order pet/hobby pairs, the rest anywhere
            rng.shuffle(items)
            items.sort(
                key=lambda it: (
                    0 if it[0] in ("pet_intro", "hobby_intro") else 1 if it[0].endswith("later") else rng.random()
                )
            )
            # place: intros in the first half, the rest spread
            slots = sorted(rng.choices(range(n_sessions), k=len(items)))
            intro_items = [it for it in items if it[0].endswith("intro")]
            other = [it for it in items if not it[0].endswith("intro")]
            rng.shuffle(other)
            later_order = sorted((it for it in other if it[0].endswith("later")), key=lambda it: str(it[1]))
            rest = [it for it in other if not it[0].endswith("later")]
            for k, it in enumerate(intro_items):
                agenda[rng.randrange(0, max(1, n_sessions // 2 - 2)) if k else rng.randrange(0, 3)].append((si, *it))
            for it in later_order:
                agenda[rng.randrange(n_sessions // 2 + 1, n_sessions)].append((si, *it))
            for it, s in zip(rest, slots[: len(rest)], strict=False):
                agenda[s].append((si, *it))
        start = date(2022, 1, 3) + timedelta(days=rng.randrange(0, 500))
        day = start
        sessions, evidence = [], {}  # evidence[(speaker index, kind, key)] = [dia ids]
        for s in range(n_sessions):
            day = day + timedelta(days=rng.randint(5, 24))
            turns: list[dict[str, str]] = []

            def say(
                speaker: int, text: str, _turns: list = turns, _s: int = s, _c: int = c, _sp: list = speakers
            ) -> str:
                dia = f"c{_c}:D{_s + 1}:{len(_turns) + 1}"
                _turns.append({"id": dia, "speaker": _sp[speaker]["name"], "text": text})
                return dia

            first = rng.randrange(n_speakers)
            other = (first + 1) % n_speakers
            say(first, rng.choice(GREETINGS).format(B=speakers[other]["name"]))
            say(other, rng.choice(ANSWERS))
            for _ in range(rng.randint(1, 3)):
                asker = rng.randrange(n_speakers)
                question, answer = rng.choice(SMALLTALK)
                say(asker, question)
                say(rng.choice([i for i in range(n_speakers) if i != asker]), answer)
            plan = agenda[s][:]
            rng.shuffle(plan)
            for si, kind, payload in plan:
                sp = speakers[si]
                listener = rng.choice([i for i in range(n_speakers) if i != si])
                for _ in range(rng.randint(0, 2)):
                    say(rng.randrange(n_speakers), rng.choice(FILLER))
                if kind == "pet_intro":
                    p = sp["pet"]
                    text = rng.choice(
                        [
                            f"We finally adopted a {p['species']}! We named {p['name']}, after much debate.",
                            f"Meet {p['name']}! Little rescue {rng.choice(p['alts'])} I brought home from the shelter on Saturday.",  # noqa: E501
                            f"So there's a new family member: a {p['species']} called {p['name']}. I'm in love.",
                        ]
                    )
                    evidence[(si, "pet", "intro")] = [say(si, _dress(rng, text))]
                    say(listener, rng.choice([f"{p['name']} is such a cute name!", "Aww, I need photos immediately!"]))
                elif kind == "pet_later":
                    p = sp["pet"]
                    word = p["words"][payload % len(p["words"])]
                    text = rng.choice(
                        [
                            f"{p['name']} refused to leave the {word} all day, {rng.choice(p['alts'])} drama.",
                            f"The vet says {p['name']} is healthy but needs fewer treats, the {word} situation is out of hand.",  # noqa: E501
                            f"My {rng.choice(p['alts'])} chewed through my headphones, I can't even be mad at that face.",  # noqa: E501
                        ]
                    )
                    evidence.setdefault((si, "pet", "later"), []).append(say(si, _dress(rng, text)))
                elif kind == "hobby_intro":
                    evidence.setdefault((si, "hobby", payload), []).append(say(si, _dress(rng, HOBBIES[payload][0])))
                    say(listener, rng.choice(["That's so cool, how did you get into it?", "I love that for you!"]))
                elif kind == "hobby_later":
                    h, k = payload
                    evidence.setdefault((si, "hobby_indirect", h), []).append(
                        say(si, _dress(rng, HOBBIES[h][1][k + rng.randint(0, 1) if k == 0 else 2]))
                    )
                elif kind == "trip":
                    city, f1, f2 = payload
                    evidence[(si, "trip", city)] = [
                        say(si, _dress(rng, rng.choice(TRIP_TURNS).format(city=city, f1=f1, f2=f2)))
                    ]
                    say(listener, rng.choice(TRIP_REPLIES).format(city=city))
                elif kind == "job":
                    job, turn, _ = sp["job"]
                    said = evidence.setdefault((si, "job", job), [])
                    if said:
                        turn = rng.choice(
                            [
                                "Work was brutal again today, I'm running on fumes.",
                                f"Another {rng.choice(['exhausting', 'long', 'strange'])} day at work, but the team is great.",  # noqa: E501
                            ]
                        )
                        say(si, turn)
                    else:
                        said.append(say(si, _dress(rng, turn)))
                        say(listener, rng.choice(["Wow, your job is intense.", "I don't know how you do it."]))
                elif kind == "relative":
                    r = sp["relative"]
                    evidence[(si, "relative", r["kind"])] = [say(si, _dress(rng, r["turn"].format(rel=r["name"])))]
                    say(
                        listener,
                        rng.choice(["Congratulations to the whole family!", f"Please tell {r['name']} I said hi!"]),
                    )
                elif kind == "book":
                    evidence[(si, "book", sp["book"])] = [
                        say(si, _dress(rng, rng.choice(BOOK_TURNS).format(book=sp["book"])))
                    ]
                    say(listener, rng.choice(["Is it good? I need something new to read.", "Add it to my list!"]))
                elif kind == "event":
                    eid, texts, _, reply = payload
                    text = rng.choice(texts).format(band=sp["band"])
                    evidence[(si, "event", eid)] = [say(si, _dress(rng, text))]
                    if rng.random() < 0.7:
                        say(listener, reply.format(band=sp["band"]))
                elif kind == "trait":
                    t, k = payload
                    evidence.setdefault((si, "trait", t), []).append(say(si, _dress(rng, TRAITS[t][0][k])))
            for _ in range(rng.randint(2, 6)):
                say(rng.randrange(n_speakers), rng.choice(FILLER))
            if rng.random() < 0.6:
                asker = rng.randrange(n_speakers)
                question, answer = rng.choice(SMALLTALK)
                say(asker, question)
                say(rng.choice([i for i in range(n_speakers) if i != asker]), answer)
            say(first, rng.choice(CLOSINGS))
            say(other, rng.choice(["Bye! Take care.", "Talk soon!", "You too, bye!", "Have a good one!"]))
            sessions.append({"session": s + 1, "date": day.isoformat(), "turns": turns})
        conversations.append({"id": f"c{c}", "speakers": [sp["name"] for sp in speakers], "sessions": sessions})
        questions += _questions(rng, c, speakers, evidence)
    return {
        "about": "Mnemo's own conversational retrieval benchmark, generated by bench/retrieval/generate.py "
        f"(seed {seed}); written by the Mnemo team, no outside data.",
        "conversations": conversations,
        "questions": questions,
    }


def _questions(rng: random.Random, c: int, speakers: list[dict], ev: dict) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def q(kind: str, text: str, evidence: list[str]) -> None:
        out.append(
            {
                "id": f"c{c}:q{len(out) + 1}",
                "conversation": f"c{c}",
                "type": kind,
                "question": text,
                "evidence": evidence,
            }
        )

    for si, sp in enumerate(speakers):
        A = sp["name"]
        she, her_obj, pos = PRONOUNS[sp["pron"]]
        others = [o for i, o in enumerate(speakers) if i != si]
        if "pet" in sp:
            p = sp["pet"]
            intro = ev[(si, "pet", "intro")]
            q(
                "single-hop",
                rng.choice(
                    [f"What is the name of {A}'s {p['species']}?", f"What did {A} call {pos} new {p['species']}?"]
                ),
                intro,
            )
            q(
                "single-hop",
                rng.choice([f"What kind of animal is {p['name']}?", f"What sort of pet does {A} have?"]),
                intro,
            )
            q(
                "temporal",
                rng.choice([f"When did {A} adopt {p['name']}?", f"When did {A} get {pos} {p['species']}?"]),
                intro,
            )
            q(
                "multi-hop",
                rng.choice(
                    [
                        f"What do we know about {p['name']}'s habits and health?",
                        f"What has {A}'s {p['species']} been up to?",
                    ]
                ),
                intro + ev.get((si, "pet", "later"), []),
            )
            for o in others:
                if "pet" not in o or o["pet"]["species"] != p["species"]:
                    q("adversarial", f"What is the name of {o['name']}'s {p['species']}?", intro)
                    break
        for h in sp["hobbies"]:
            q(
                "single-hop",
                rng.choice([f"What new hobby did {A} take up?", f"Which hobby has {A} been getting into?"])
                if h == sp["hobbies"][0]
                else f"Does {A} do {h}?",
                ev[(si, "hobby", h)],
            )
            q(
                "open-domain",
                rng.choice([f"Would {A} enjoy {HOBBIES[h][2]}?", f"Would {HOBBIES[h][2]} be a good gift for {A}?"]),
                ev[(si, "hobby", h)] + ev.get((si, "hobby_indirect", h), []),
            )
            if ev.get((si, "hobby_indirect", h)):
                q(
                    "single-hop",
                    rng.choice([f"What did {A} make or do recently in {pos} {h}?", f"How is {A} progressing at {h}?"]),
                    ev[(si, "hobby_indirect", h)],
                )
        q(
            "multi-hop",
            rng.choice(
                [
                    f"What hobbies does {A} have?",
                    f"What does {A} do in {pos} free time?",
                    f"What activities does {A} partake in?",
                ]
            ),
            [d for h in sp["hobbies"] for d in ev[(si, "hobby", h)]],
        )
        trips = [ev[(si, "trip", city)][0] for city, _, _ in sp["trips"]]
        q(
            "multi-hop",
            rng.choice(
                [
                    f"Which places has {A} travelled to?",
                    f"Where has {A} been on vacation?",
                    f"What countries or cities did {A} visit?",
                ]
            ),
            trips,
        )
        for (city, f1, _f2), dia in zip(sp["trips"], trips, strict=True):
            q("temporal", rng.choice([f"When did {A} go to {city}?", f"When was {A}'s trip to {city}?"]), [dia])
            if rng.random() < 0.5:
                q(
                    "single-hop",
                    rng.choice([f"What did {A} enjoy about {city}?", f"Where did {A} see the {f1}?"]),
                    [dia],
                )
        city = sp["trips"][0][0]
        for o in others:
            if city not in [t[0] for t in o["trips"]]:
                q("adversarial", f"When did {o['name']} travel to {city}?", [ev[(si, "trip", city)][0]])
                break
        job = sp["job"]
        q("single-hop", rng.choice(JOB_QUESTIONS).format(A=A), ev[(si, "job", job[0])])
        q("open-domain", f"Would {A} know how to {job[2]}?", ev[(si, "job", job[0])])
        q(
            "multi-hop",
            rng.choice(
                [f"What does {A} do for work and for fun?", f"How does {A} spend {pos} working days and weekends?"]
            ),
            ev[(si, "job", job[0])] + ev[(si, "hobby", sp["hobbies"][0])],
        )
        r = sp["relative"]
        rel_dia = ev[(si, "relative", r["kind"])]
        q(
            "single-hop",
            rng.choice([f"What is the name of {A}'s {r['kind']}?", f"Who in {A}'s family {r['did']}?"]),
            rel_dia,
        )
        q("temporal", f"When did {A}'s {r['kind']} {r['verb']}?", rel_dia)
        q("adversarial", f"What is the name of {others[0]['name']}'s {r['kind']}?", rel_dia)
        book = ev[(si, "book", sp["book"])]
        q(
            "single-hop",
            rng.choice([f"What book does {A} keep rereading?", f"Which novel kept {A} up all night?"]),
            book,
        )
        q("single-hop", f"Who has read '{sp['book']}'?", book)
        event_dias = []
        for eid, _, phrasings, _ in sp["events"]:
            dia = ev[(si, "event", eid)]
            event_dias += dia
            phrase = rng.choice(phrasings).format(band=sp["band"], pos=pos)
            q("temporal", f"When did {A} {phrase}?", dia)
        q(
            "multi-hop",
            rng.choice(
                [
                    f"What has {A} done to give back to the community?",
                    f"What milestones did {A} reach this year?",
                    f"What events did {A} go to?",
                ]
            ),
            event_dias[:4],
        )
        eid, _, phrasings, _ = sp["events"][0]
        q(
            "adversarial",
            f"When did {others[-1]['name']} {phrasings[0].format(band=sp['band'], pos='their')}?",
            ev[(si, "event", eid)],
        )
        for t in sp["traits"]:
            q("open-domain", rng.choice(TRAITS[t][1]).format(A=A, pos=pos), ev[(si, "trait", t)])
        for template in rng.sample(NEVER, 3):
            q("adversarial", template.format(A=A, pos=pos), [])
    return out


def main() -> None:
    data = generate()
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    OUT.write_text(text)
    turns = sum(len(s["turns"]) for c in data["conversations"] for s in c["sessions"])
    kinds: dict[str, int] = {}
    for q in data["questions"]:
        kinds[q["type"]] = kinds.get(q["type"], 0) + 1
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    print(
        f"{OUT.name}: {len(data['conversations'])} conversations, {turns} turns, {len(data['questions'])} questions {kinds}, sha256 {digest}"  # noqa: E501
    )


if __name__ == "__main__":
    main()
