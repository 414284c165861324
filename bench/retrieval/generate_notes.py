"""A fourth retrieval benchmark: an agent's own memory notes about its users (notes.json).

Written by the Mnemo team for this repository (no outside data; the repository's licence) on
2026-11-26, after every search choice had been made and after the third set (assistant.json) had
been read twice; nothing is fitted on it. It is read once, as search ships (``holdout.py
--dataset notes``).

How it differs from the three dialogue sets: there is no dialogue at all. Each user's namespace
holds what an agent stores through ``remember``: short third-person notes, each on a date.

- **Notes, not turns**: "Prefers aisle seats on long flights", "Daughter Liesel starts at
  Rosebank Primary in September", "Asked to draft a complaint to the landlord about the boiler".
  No speaker prefix; the user's name is in some notes and not in others.
- **Mostly task logs**: "Drafted an email", "Summarised a PDF about heat pumps", "Set a reminder
  for Tuesday at 9:00"; a few of them share words with the questions ("Asked how long to boil an
  egg" beside an egg allergy).
- **Facts said directly or indirectly** ("Is allergic to penicillin" or "Pharmacist swapped the
  antibiotic after the penicillin reaction"; "Works at Oakhaven Pharma" or "Needs the travel
  expenses in the Oakhaven Pharma template").
- **Knowledge updates**: home city, employer and diet change later; the question asks the current
  value, the evidence is the later note only.
- **Keyword traps**: notes about someone else with the same attribute ("Colleague Wendell is
  allergic to shellfish"), and notes about the same person or pet on another attribute ("Liesel's
  school photos are on Tuesday"). **Vector traps**: about half the questions are paraphrased
  ("Which substance gives Severin a bad reaction?").
- Question types as in assistant.json: single-hop, multi-hop, temporal (a note's date),
  open-domain, knowledge-update, preference, and never stored (``adversarial``, no evidence; ``never``
  names the kind: "never said"; "someone else's", a colleague's allergy or a neighbour's pet asked
  about the user; "nearby attribute", an attribute of a stored person or pet that was never noted).

Names, places, pets and employers are disjoint from the three other sets (a test checks it).
Seeded and deterministic (sha256 printed).

    .venv/bin/python -m bench.retrieval.generate_notes
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from bench.retrieval.generated import write

OUT = Path(__file__).with_name("notes.json")
SEED = 4026
USERS = 8
DAYS = 60  # days with notes, per user
SPAN = 200  # over this many calendar days

NAMES = ["Ottoline", "Severin", "Tancredi", "Clemency", "Orlando", "Cordelia", "Fabian", "Hermione", "Wolfram",
         "Philomena"]  # fmt: skip
PARTNERS = ["Delphine", "Rafferty", "Honoria", "Leocadia", "Mattias", "Corentin", "Bastiaan", "Emmerich", "Gisela",
            "Rodrigo"]  # fmt: skip
CHILDREN = [("daughter", "Liesel"), ("son", "Tobiah"), ("daughter", "Marguerite"), ("son", "Oisin"),
            ("daughter", "Benedikta"), ("son", "Florian"), ("daughter", "Anouk"), ("son", "Teodor"),
            ("daughter", "Felicitas"), ("son", "Ambrosio")]  # fmt: skip
SCHOOLS = ["Rosebank Primary", "Willowbrook Academy", "Hillcrest Primary", "Lindenhof Kindergarten",
           "Meadowside School", "Kingsgate Montessori", "Escola Azul", "St Aidan's Primary"]  # fmt: skip
#: colleagues, neighbours and friends: their facts are the keyword traps
OTHERS = ["Wendell", "Primrose", "Algernon", "Hortense", "Cuthbert", "Ludmila", "Radomir", "Gertrude", "Morwenna",
          "Osric", "Sabela", "Dorothea", "Rupert", "Leontine", "Kasimir", "Wilfred"]  # fmt: skip
CITIES = ["Coimbra", "Maribor", "Uppsala", "Graz", "Linz", "Nantes", "Rennes", "Utrecht", "Leuven", "Brno",
          "Olomouc", "Turku", "Tartu", "Kaunas", "Zadar", "Girona", "Freiburg", "Aachen", "Salzburg",
          "Verona"]  # fmt: skip
DESTINATIONS = ["Crete", "Corsica", "Kerala", "Mauritius", "Namibia", "the Outer Hebrides", "Sicily", "Borneo",
                "Andalusia", "Jordan", "Marrakech", "the Galápagos", "Orkney", "Tenerife", "Lapland",
                "Cornwall"]  # fmt: skip
EMPLOYERS = ["Fernhollow Systems", "Kestrelmoor Bank", "Saltmarsh Media", "Oakhaven Pharma", "Driftwood Architects",
             "Sparrowhawk Aviation", "Bellwether Consulting", "Tidewater Shipping", "Halberd Security",
             "Moorland Water", "Stonebridge Insurance", "Ravenscroft Labs", "Silverbirch Retail",
             "Otterburn Engineering"]  # fmt: skip
ROLES = ["data analyst", "site engineer", "payroll officer", "product designer", "lab technician", "buyer"]
PETS = [("dachshund", "Marmaduke"), ("lovebird", "Wasabi"), ("whippet", "Tinker"), ("iguana", "Rhubarb"),
        ("labrador", "Mochi"), ("hamster", "Custard"), ("border collie", "Sprocket"), ("pug", "Parsnip"),
        ("tabby cat", "Figaro"), ("guinea pig", "Gnocchi"), ("budgie", "Crumpet"),
        ("ragdoll cat", "Pickle")]  # fmt: skip

# (allergen, direct note, indirect note, open-domain question that needs it)
ALLERGIES = [
    ("penicillin", "{who} is allergic to penicillin", "Pharmacist swapped the antibiotic after the penicillin reaction",
     "Should {n} be prescribed amoxicillin?"),
    ("latex", "{who} has a latex allergy", "Asked the dentist to use nitrile gloves: latex brings up a rash",
     "Is a latex balloon arch a good idea for {n}'s party?"),
    ("peanuts", "{who} is allergic to peanuts", "Carries an adrenaline pen everywhere since the peanut reaction",
     "Would a satay stir-fry be safe for {n}?"),
    ("wasp stings", "{who} is allergic to wasp stings", "Packs antihistamines for every picnic: one wasp sting "
     "ended in hospital last summer", "Is lunch outdoors by an orchard in August risky for {n}?"),
    ("eggs", "{who} is allergic to eggs", "Wants egg-free recipes only after the reaction to the omelette",
     "Would a cheese soufflé be a good dinner for {n}?"),
    ("grass pollen", "{who} has a grass pollen allergy", "Hay fever is bad in June; antihistamines on the shopping "
     "list", "Would {n} enjoy a meadow walk in early summer?"),
]  # fmt: skip
# (hobby, direct note, indirect note, open-domain question that needs it)
HOBBIES = [
    ("oboe", "{who} plays the oboe in an amateur orchestra", "Ordered a box of cane reeds for the oboe",
     "Would {n} enjoy a woodwind masterclass?"),
    ("fencing", "{who} fences épée at a club on Wednesdays", "Paid the club fee for the épée tournament",
     "Would {n} like tickets to an Olympic sword-fighting session?"),
    ("archery", "{who} shoots archery at weekends", "Found a shop that restrings recurve bows",
     "Would {n} enjoy a medieval longbow day?"),
    ("bell ringing", "{who} rings church bells on Sunday mornings", "Tower practice on Thursday: bring the "
     "method book", "Would {n} like a tour of a cathedral belfry?"),
    ("rowing", "{who} rows in a coxed four at the river club", "Set a 5:30 alarm for the river session; the "
     "boat goes out before work", "Would {n} enjoy watching a regatta?"),
    ("ukulele", "{who} plays the ukulele", "Found easy strumming patterns for a four-string uke",
     "Would {n} enjoy a Hawaiian music evening?"),
]  # fmt: skip
# (before, after, first notes, update notes): the diet changes once
DIETS = [
    ("vegetarian", "pescatarian",
     ["{who} is vegetarian: no meat in any recipe suggestions",
      "Swapped the chicken in the meal plan for halloumi: no meat"],
     ["{who} eats fish again: pescatarian since the coastal holiday",
      "Asked to put salmon back in the meal plan: fish is fine again, still no meat"]),
    ("vegan", "vegetarian",
     ["{who} is vegan: no animal products in recipes", "Plant-based only: replaced the butter in the cake recipe"],
     ["{who} eats cheese and eggs again: vegetarian now, no longer vegan",
      "Added feta back to the shopping list: dairy is fine again, still no meat"]),
    ("low-carb", "no restrictions",
     ["{who} follows a low-carb diet", "Keeps bread and pasta off the meal plan: counting carbohydrates"],
     ["{who} dropped the low-carb diet and eats everything again",
      "Put pasta back on the meal plan: no more carb counting"]),
    ("dairy-free", "dairy again",
     ["{who} avoids dairy", "Oat milk instead of cow's milk in every recipe: no dairy"],
     ["{who} is fine with dairy again after the tests came back clear",
      "Added yoghurt and butter back to the shopping list: dairy is allowed again"]),
]  # fmt: skip
# (kind, direct note, indirect note, preference question, open-domain question)
PREFERENCES = [
    ("seat", "{who} prefers aisle seats on long flights",
     "Rebooked the Friday flight: swapped the window seat for an aisle one, as always",
     "Which seat should be booked for {n} on a flight?", "Should {n} get the window seat on the overnight flight?"),
    ("seat", "{who} prefers window seats when flying", "Chose seat 14A again: likes to look out during take-off",
     "Where does {n} like to sit on a plane?", "Would {n} want the aisle seat on a short hop?"),
    ("coffee", "{who} drinks oat cortados, no sugar", "Ordered the usual oat cortado for the 9:00 meeting",
     "What coffee does {n} drink?", "Would {n} want a full-fat latte?"),
    ("coffee", "{who} only drinks decaf after noon", "Changed the afternoon order to decaf, as requested every time",
     "What does {n} drink in the afternoon?", "Should {n} be offered a double espresso at 4pm?"),
    ("calls", "{who} takes no calls before 10am", "Moved the 8:30 call to 10:30: mornings are for focused work",
     "When does {n} like calls to be scheduled?", "Is a 7:45 breakfast call a good idea for {n}?"),
    ("hotel", "{who} wants a quiet hotel room on a high floor", "Asked the hotel for a top-floor room away from "
     "the lift, as usual", "What kind of hotel room suits {n}?", "Would {n} be happy with a room next to the lift?"),
    ("summaries", "{who} prefers bullet-point summaries to long emails", "Cut the report to five bullets: long "
     "prose gets skipped", "How does {n} like information presented?", "Should a four-page memo be sent to {n}?"),
]  # fmt: skip
ISSUES = ["the boiler that keeps cutting out", "damp in the bathroom", "the broken intercom", "mice in the kitchen",
          "the leaking roof window", "the cracked shower tray"]  # fmt: skip
EXAMS = ["the driving theory test", "a food hygiene certificate", "the citizenship test", "a scuba diving theory "
         "exam", "a grade five piano exam", "an accountancy module exam"]  # fmt: skip

# first statement and update of the home city and employer (direct and indirect)
HOME_FIRST = ["{who} lives in {v}, in a rented flat near the centre",
              "Renewed the monthly tram pass for {v}; home is near the old town",
              "Found a plumber who covers {v}, for the flat"]  # fmt: skip
HOME_UPDATE = ["{who} has moved to {v}; new address confirmed for deliveries",
               "Changed the delivery address: home is in {v} now",
               "Settled into the new flat in {v} after the move last weekend"]  # fmt: skip
JOB_FIRST = ["{who} works at {v} as a {role}",
             "Needs the travel expenses in the {v} template by the end of the month",
             "Drafted an out-of-office reply for the {v} mailbox"]  # fmt: skip
JOB_UPDATE = ["{who} started a new job at {v} this week",
              "Updated the email signature: now with {v}",
              "First week at {v}; set up the new laptop and the staff portal"]  # fmt: skip
PARTNER = ["{who} lives with partner {v}", "Booked the anniversary dinner with partner {v} for Saturday",
           "Added partner {v} to the shared household calendar"]  # fmt: skip
CHILD = ["{R} {c} starts at {s} in September", "Labelled the new uniform for {c}, who starts at {s} next month",
         "Filled in the admission form for {r} {c} at {s}; starts after the summer"]  # fmt: skip
PET = ["Adopted a {s} called {p} from the rescue centre", "New {s} {p} came home on Saturday; registered with a vet",
       "Ordered a harness sized for {p}, a young {s}"]  # fmt: skip
TRIP = ["Booked flights to {v} for {m}", "Planning a week in {v} in {m}: wants a list of walks",
        "Asked for a packing list for {v}; leaves in {m}"]  # fmt: skip
MONTHS = ["March", "April", "May", "June", "September", "October"]

FILLER = [
    "Drafted an email for the user", "Summarised a PDF about {topic}", "Set a reminder for {day} at {time}",
    "Looked up train times for {day} morning", "Proofread a cover letter", "Converted a recipe from cups to grams",
    "Made a shopping list for the week", "Explained {topic} in plain words", "Translated a short message into {lang}",
    "Rewrote a paragraph to sound more polite", "Compared three {product} models on price",
    "Wrote a short thank-you note", "Checked the weather for the weekend", "Suggested five names for a {group}",
    "Formatted a spreadsheet of {things}", "Summarised today's meetings", "Cancelled the {day} reminder",
    "Found opening hours for the {place}", "Summarised a podcast episode on {topic}",
    "Drafted a polite reply declining an invitation", "Listed pros and cons of {decision}",
    "Asked how long to boil an egg", "Summarised an article on food allergies in children",
    "Summarised a guide to moving house on a budget", "Drafted an email for {n} to the team",
    "Set a reminder for {n}: {day} at {time}", "{n} asked for a summary of a long thread",
    "Checked a flight status for a colleague", "Explained how to reset a router", "Tidied up the calendar for {day}",
    "Compared energy tariffs", "Wrote a birthday message for a colleague", "Reformatted a CV into one page",
]  # fmt: skip
FILL = {
    "topic": ["interest rates", "heat pumps", "sleep", "remote work", "pensions", "electric cars", "composting",
              "password managers", "inflation", "marathon training", "solar panels", "mortgage terms"],
    "day": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "time": ["8:00", "9:00", "12:30", "15:00", "17:45", "19:00"],
    "lang": ["Spanish", "German", "French", "Italian", "Polish"],
    "product": ["vacuum cleaner", "laptop", "kettle", "air purifier", "e-reader"],
    "group": ["book club", "quiz team", "running group", "family chat"],
    "things": ["expenses", "contacts", "invoices", "gift ideas"],
    "place": ["post office", "pharmacy", "library", "recycling centre"],
    "decision": ["leasing a car", "a standing desk", "a four-day week", "switching banks"],
}  # fmt: skip
NEVER_SAID = ["What is {n}'s blood type?", "Which football club does {n} support?", "What is the name of {n}'s "
              "brother?", "Which university did {n} attend?", "What is {n}'s shoe size?", "When is {n}'s wedding "
              "anniversary?", "Which bank does {n} use?", "What car does {n} drive?", "Where did {n} grow up?",
              "What is {n}'s favourite film?"]  # fmt: skip


def fill(rng: random.Random, text: str, **known: str) -> str:
    """``text`` with its slots filled: ``known`` ones, then FILL's at random; a leading ``{who}``
    is the user's name or nothing (the note starts with its verb), as agents write them."""
    if text.startswith("{who} "):
        text = text.removeprefix("{who} ")
        text = "{n} " + text if rng.random() < 0.35 else text[0].upper() + text[1:]
    slots = {k: rng.choice(v) for k, v in FILL.items()}
    return text.format(**(slots | known))


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    conversations: list[dict[str, Any]] = []
    questions: list[dict[str, Any]] = []
    users = rng.sample(NAMES, USERS)
    partners = rng.sample(PARTNERS, USERS)
    children = rng.sample(CHILDREN, USERS)
    pets = rng.sample(PETS, USERS)
    for u, n in enumerate(users):
        cid = f"n{u}"
        start = date(2025, 9, 1) + timedelta(days=rng.randint(0, 60))
        days = sorted(start + timedelta(days=d) for d in rng.sample(range(SPAN), DAYS))
        early, late, anywhere = range(0, DAYS // 3), range(2 * DAYS // 3, DAYS), range(DAYS)
        planned: dict[int, list[tuple[str, str]]] = {d: [] for d in range(DAYS)}  # day: [(text, key)]

        def note(days_: range, text: str, key: str = "", planned: dict = planned, n: str = n, **known: str) -> None:
            planned[rng.choice(days_)].append((fill(rng, text, n=n, **known), key))

        def either(direct: str, indirect: str) -> str:
            return rng.choice([direct, indirect])

        city, city2, o_city = rng.sample(CITIES, 3)
        job, job2, o_job = rng.sample(EMPLOYERS, 3)
        role = rng.choice(ROLES)
        diet = rng.choice(DIETS)
        partner = partners[u]
        rel, child = children[u]
        school = rng.choice(SCHOOLS)
        species, pet = pets[u]
        o_species, o_pet = rng.choice([p for p in PETS if p not in pets])
        allergy = rng.choice(ALLERGIES)
        o_allergy = rng.choice([a for a in ALLERGIES if a != allergy])
        hobby = rng.choice(HOBBIES)
        o_hobby = rng.choice([h for h in HOBBIES if h != hobby])
        trips = rng.sample(DESTINATIONS, 4)  # three planned, the fourth a friend's
        kinds = rng.sample(sorted({p[0] for p in PREFERENCES}), 4)
        prefs = [rng.choice([p for p in PREFERENCES if p[0] == k]) for k in kinds]
        issue, exam = rng.choice(ISSUES), rng.choice(EXAMS)
        colleague, neighbour, friend = rng.sample(OTHERS, 3)

        # the facts, each in one note (direct or indirect); knowledge updates: first early, then late
        note(early, rng.choice(HOME_FIRST), "home:1", v=city)
        note(late, rng.choice(HOME_UPDATE), "home:2", v=city2)
        note(early, rng.choice(JOB_FIRST), "job:1", v=job, role=role)
        note(late, rng.choice(JOB_UPDATE), "job:2", v=job2)
        note(early, rng.choice(diet[2]), "diet:1")
        note(late, rng.choice(diet[3]), "diet:2")
        note(anywhere, rng.choice(PARTNER), "partner", v=partner)
        note(anywhere, rng.choice(CHILD), "child", c=child, s=school, r=rel, R=rel.capitalize())
        note(anywhere, rng.choice(PET), "pet", p=pet, s=species)
        note(anywhere, either(allergy[1], allergy[2]), "allergy")
        note(anywhere, either(hobby[1], hobby[2]), "hobby")
        for i, d in enumerate(sorted(rng.sample(anywhere, 3))):
            note(range(d, d + 1), rng.choice(TRIP), f"trip:{i}", v=trips[i], m=rng.choice(MONTHS))
        for i, p in enumerate(prefs):
            note(anywhere, either(p[1], p[2]), f"pref:{i}")
        note(anywhere, f"Asked to draft a complaint to the landlord about {issue}", "landlord")
        note(anywhere, f"Made flashcards to revise for {exam}", "exam")
        # keyword traps: the same attribute for someone else, another attribute of the same one
        note(anywhere, f"Colleague {colleague} is allergic to {o_allergy[0]}; keep it off the team lunch order")
        note(anywhere, f"Neighbour {neighbour}'s {o_species} {o_pet} got into the garden again")
        note(anywhere, f"Friend {friend} took up {o_hobby[0]} and keeps asking for company at the club")
        note(anywhere, f"Friend {friend} is back from {trips[3]} and recommends it")
        note(anywhere, f"Friend {friend} has moved to {o_city} and started at {o_job}")
        note(anywhere, f"{child}'s school photos are on Tuesday: send a clean shirt")
        note(anywhere, f"{pet} has a vet check-up on the 12th; set a reminder")
        note(anywhere, "Drafted a reply to the landlord about the rent increase")
        note(anywhere, f"Partner {partner} is away at a conference all week")
        note(anywhere, "Booked a restaurant table for a colleague's leaving do")

        sessions, where = [], {}
        for d, day in enumerate(days):
            items: list[tuple[str, str]] = [(fill(rng, rng.choice(FILLER), n=n), "")
                                            for _ in range(rng.randint(2, 5))] + planned[d]  # fmt: skip
            rng.shuffle(items)
            turns = []
            for text, key in items:
                tid = f"{cid}:D{d + 1}:{len(turns) + 1}"
                turns.append({"id": tid, "text": text})
                if key:
                    where[key] = tid
            sessions.append({"session": d + 1, "date": day.isoformat(), "turns": turns})
        conversations.append({"id": cid, "speakers": [n], "sessions": sessions})

        qs: list[tuple[str, str, list[str], str]] = []

        def ask(kind: str, direct: str, paraphrase: str, *keys: str, qs: list = qs, where: dict = where) -> None:
            """The question in the note's own words or paraphrased, at random (half and half)."""
            qs.append((kind, rng.choice([direct, paraphrase]), [where[k] for k in keys], ""))

        ask("knowledge-update", f"Which city does {n} live in now?", f"Where is {n}'s home these days?", "home:2")
        ask("knowledge-update", f"In which city is {n}'s home now?", f"Where has {n} settled at present?", "home:2")
        ask("knowledge-update", f"Which company does {n} work for now?", f"Who pays {n}'s salary at the moment?",
            "job:2")  # fmt: skip
        ask("knowledge-update", f"Who is {n}'s current employer?", f"Where is {n} employed today?", "job:2")
        ask("knowledge-update", f"What does {n} eat now?", f"What is {n}'s current diet?", "diet:2")
        ask("knowledge-update", f"Is {n} still {diet[0]}?", f"Has {n}'s way of eating changed lately?", "diet:2")

        ask("single-hop", f"Where did {n} live before moving?", f"Which town was {n}'s previous home?", "home:1")
        ask("single-hop", f"Where did {n} work before the new job?", f"Who was {n}'s previous employer?", "job:1")
        ask("single-hop", f"What is the name of {n}'s partner?", f"Who does {n} share a home with?", "partner")
        ask("single-hop", f"What is the name of {n}'s {rel}?", f"What is {n}'s child called?", "child")
        ask("single-hop", f"Which school will {child} start at?", f"Where is {child} enrolled?", "child")
        ask("single-hop", f"What kind of animal is {pet}?", f"What species is {pet}?", "pet")
        ask("single-hop", f"What is the name of {n}'s {species}?", f"What pet does {n} have?", "pet")
        ask("single-hop", f"What is {n} allergic to?", f"Which substance gives {n} a bad reaction?", "allergy")
        ask("single-hop", f"What hobby does {n} have?", f"What does {n} do in their free time?", "hobby")
        ask("single-hop", f"What did {n} complain to the landlord about?",
            f"Which problem in the flat did {n} want fixed?", "landlord")  # fmt: skip
        ask("single-hop", f"What exam was {n} revising for?", f"Which test did {n} study for?", "exam")

        for i, p in enumerate(prefs):
            qs.append(("preference", p[3].format(n=n), [where[f"pref:{i}"]], ""))
            qs.append(("open-domain", p[4].format(n=n), [where[f"pref:{i}"]], ""))
        qs.append(("open-domain", allergy[3].format(n=n), [where["allergy"]], ""))
        qs.append(("open-domain", hobby[3].format(n=n), [where["hobby"]], ""))
        ask("open-domain", f"Does {n} need a pet sitter when travelling?",
            f"Will someone have to look after an animal when {n} is away?", "pet")  # fmt: skip
        ask("open-domain", f"Would {n} need a child seat in a rental car?",
            f"Should a family-friendly hotel be chosen for {n}'s holidays?", "child")  # fmt: skip

        ask("multi-hop", f"Which cities has {n} lived in?", f"Where has {n} made a home over time?",
            "home:1", "home:2")  # fmt: skip
        ask("multi-hop", f"List every employer of {n}.", f"Which organisations has {n} worked for?", "job:1", "job:2")
        ask("multi-hop", f"Which places has {n} planned trips to?", f"Where is {n} travelling this year?",
            "trip:0", "trip:1", "trip:2")  # fmt: skip
        ask("multi-hop", f"How has {n}'s diet changed?", f"What did {n} eat before and what now?",
            "diet:1", "diet:2")  # fmt: skip
        ask("multi-hop", f"Who is in {n}'s family?", f"Who does {n} live with at home?", "partner", "child")

        for i in range(3):
            place = trips[i].removeprefix("the ")
            ask("temporal", f"When did {n} plan the trip to {trips[i]}?", f"When was the {place} holiday arranged?",
                f"trip:{i}")  # fmt: skip
        ask("temporal", f"When did {n} move to {city2}?", f"When did {n} relocate?", "home:2")
        ask("temporal", f"When did {n} start at {job2}?", f"When did {n} change jobs?", "job:2")
        ask("temporal", f"When did {n} get {pet}?", f"When did the {species} join {n}'s household?", "pet")

        for text in rng.sample(NEVER_SAID, 5):
            qs.append(("adversarial", text.format(n=n), [], "never said"))
        qs.append(("adversarial", f"Is {n} allergic to {o_allergy[0]}?", [], "someone else's"))
        qs.append(("adversarial", f"What is the name of {n}'s {o_species}?", [], "someone else's"))
        qs.append(("adversarial", f"Does {n} do {o_hobby[0]}?", [], "someone else's"))
        qs.append(("adversarial", f"When did {n} visit {trips[3]}?", [], "someone else's"))
        qs.append(("adversarial", f"Where does {n}'s partner {partner} work?", [], "nearby attribute"))
        qs.append(("adversarial", f"How old is {pet}?", [], "nearby attribute"))
        qs.append(("adversarial", f"When is {child}'s birthday?", [], "nearby attribute"))
        for i, (kind, text, ev, never) in enumerate(qs, 1):
            q = {"id": f"{cid}:q{i}", "conversation": cid, "type": kind, "question": text, "evidence": ev}
            questions.append(q | ({"never": never} if never else {}))
    notes = sum(len(s["turns"]) for c in conversations for s in c["sessions"])
    about = (
        f"An agent's memory notes about its users, generated by bench/retrieval/generate_notes.py (seed {seed}): "
        f"{len(conversations)} users, {notes} notes, {len(questions)} questions."
    )
    return {"about": about, "conversations": conversations, "questions": questions}


def main() -> None:
    write(generate(), OUT)


if __name__ == "__main__":
    main()
