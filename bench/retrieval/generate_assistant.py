"""A third retrieval benchmark, the true hold-out: one person and an AI assistant (assistant.json).

Written by the Mnemo team for this repository (no outside data; the repository's licence), after
the 2026-11-26 fusion rule, calibration and defaults were chosen on ``conversations.json`` and
``chat.json``; nothing was fitted on it. It is read once, as search ships (``holdout.py``).

How it differs from the two others (on purpose, closer to LongMemEval than to LoCoMo):

- **A user and an assistant**, many sessions: the user asks for things (bookings, drafts,
  reminders, recipes) and states facts in passing inside the request ("find a physio near my
  office in Lausanne"); the assistant answers at length and echoes the user's rare words ("Here
  are three physiotherapists near your Lausanne office ..."), a keyword trap: the evidence is
  always the user's turn.
- **Knowledge updates**: a fact changes later (a new office, a new car, a new employer); the
  question asks for the current value and the evidence is the latest turn only (type
  ``knowledge-update``); the older turn holds the same rare words.
- **Preferences** (type ``preference``): said once, asked as what to suggest.
- **Multi-session aggregation** (``multi-hop``): trips planned in three sessions, an office's
  whole history; **temporal** (answered by a session's date); **open-domain** inference.
- **Never stored** (``adversarial``, no evidence; ``never`` names the kind): a plausible fact
  never said ("never said"); a fact said about someone else, a colleague's instrument or a friend's
  pet ("someone else's"); a place only the assistant suggested ("assistant only").

Vocabulary (names, places, pets, cars, companies) is disjoint from generate.py's and
generate_chat.py's. Seeded and deterministic (sha256 printed).

    .venv/bin/python -m bench.retrieval.generate_assistant
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from bench.retrieval.generated import write

OUT = Path(__file__).with_name("assistant.json")
SEED = 3026
USERS = 8
SESSIONS = 20
ASSISTANT = "Assistant"

NAMES = ["Wilhelmina", "Lucasta", "Oriane", "Jacinta", "Ismene", "Ptolemy", "Evander", "Ambrose", "Leopold", "Hyacinth"]
OTHERS = ["Bertil", "Philippa", "Casimir", "Henrietta", "Aurelio", "Gwendolyn", "Eustace", "Crispin", "Barnaby"]
CITIES = ["Stavanger", "Ghent", "Antwerp", "Bilbao", "Gdańsk", "Tallinn", "Valletta", "Innsbruck", "Bratislava",
          "Aarhus", "Rovaniemi", "Wellington", "Halifax", "Dunedin", "Trieste", "Lausanne"]  # fmt: skip
CARS = ["Skoda Superb estate", "Dacia Duster", "Cupra Born", "Fiat Panda", "Subaru Outback", "Kia Niro",
        "Peugeot 208", "Hyundai Ioniq", "Citroën Berlingo", "Toyota Yaris"]  # fmt: skip
EMPLOYERS = ["Quillfeather Analytics", "Brambleworth Insurance", "Harrowgate Logistics", "Pinecrest Biotech",
             "Marlowe & Fitch", "Copperleaf Studios", "Northvane Energy", "Thistledown Foods", "Ashcombe Legal",
             "Larkspur Robotics", "Galloway Freight", "Wrenfield Capital"]  # fmt: skip
PETS = [("hedgehog", "Bartholomew"), ("ferret", "Pickwick"), ("cockatiel", "Zephyr"), ("greyhound", "Mistral"),
        ("axolotl", "Quince"), ("parakeet", "Gherkin"), ("corgi", "Biscotti"), ("chinchilla", "Nutmeg"),
        ("gecko", "Fennel"), ("beagle", "Truffle")]  # fmt: skip
CHILDREN = [("daughter", "Isolde"), ("son", "Caspian"), ("daughter", "Perpetua"), ("son", "Alaric"),
            ("daughter", "Elowen"), ("son", "Lysander"), ("daughter", "Seraphina"), ("son", "Peregrine")]  # fmt: skip
# (the allergen or instrument, an open-domain question that needs it)
ALLERGIES = [
    ("sesame", "Would {n} enjoy a tahini dressing?"),
    ("buckwheat", "Would {n} enjoy galettes at a creperie?"),
    ("hazelnuts", "Is a praline torte a safe dessert for {n}?"),
    ("kiwi fruit", "Can {n} eat a pavlova topped with kiwi?"),
    ("mustard", "Is a honey mustard glaze a good idea for {n}?"),
    ("celery", "Would a Waldorf salad suit {n}?"),
]
INSTRUMENTS = [
    ("cello", "Would {n} enjoy a string quartet evening?"),
    ("accordion", "Would {n} enjoy a tango night with live squeezebox music?"),
    ("harpsichord", "Would {n} enjoy a baroque keyboard recital?"),
    ("banjo", "Would {n} like a bluegrass jam night?"),
    ("euphonium", "Would {n} enjoy playing in a brass band?"),
    ("theremin", "Would {n} like an electronic music workshop?"),
]
DESTINATIONS = ["the Faroe Islands", "Svalbard", "the Azores", "Madeira", "Kyushu", "Sardinia", "the Atacama",
                "the Lofoten Islands", "Bhutan", "Montserrat", "Montenegro", "Isfahan", "Yogyakarta",
                "Cappadocia"]  # fmt: skip
PREFERENCES = [
    # (kind, value, the request it is said in, the question, the open-domain inference)
    ("diet", "meat-free", "Suggest a dinner for Friday, nothing with meat in it, I gave it up last year",
     "What kind of dinner recipes should be suggested to {n}?", "Would {n} like a voucher for a steakhouse?"),
    ("diet", "pescatarian", "Plan a week of lunches for me, fish is fine but I stopped eating meat",
     "What kind of lunches suit {n}?", "Would {n} enjoy a chicken shawarma?"),
    ("seat", "aisle seat", "When you book flights for me, always pick an aisle seat, I hate climbing over people",
     "Which seat does {n} prefer on flights?", "Should the window seat be booked for {n}?"),
    ("seat", "window seat", "For the flight booking, get me a window seat please, I like watching the clouds",
     "Where does {n} like to sit on a plane?", "Would {n} want the aisle seat on a long flight?"),
    ("drink", "oat flat white", "Order my usual coffee for the meeting, an oat flat white, no sugar",
     "What coffee should be ordered for {n}?", "Would {n} want cow's milk in a latte?"),
    ("drink", "peppermint tea", "Put peppermint tea on the order for me, caffeine keeps me awake",
     "What hot drink does {n} prefer?", "Would a double espresso suit {n} in the evening?"),
    ("music", "synthwave", "Make me a running playlist, synthwave mostly, the eighties sounding stuff",
     "What music does {n} like for running?", "Would {n} enjoy a retro electronic concert?"),
    ("music", "sea shanties", "Can you queue up some sea shanties for the drive, they keep me cheerful",
     "What music does {n} like in the car?", "Would {n} enjoy a folk singing pub night?"),
]  # fmt: skip

# The facts stated in passing: first statement, update statement (knowledge updates), questions.
CITY_SAY = ["Find me a physiotherapist near my office in {v}, my shoulder is acting up again",
            "Book a table for four somewhere walking distance from the office in {v} on Thursday"]  # fmt: skip
CITY_UPDATE = ["I've moved to the {v} office now, so find me a gym close to the new place",
               "Since the relocation to {v} last month I need a new dentist near work, can you look"]  # fmt: skip
CAR_SAY = [
    "Remind me to book the MOT for my {v} next month",
    "What tyre pressure should my {v} run at for motorway trips?",
]
CAR_UPDATE = ["I sold the old car and bought a {v}, please update the insurance reminder",
              "Picked up my new {v} yesterday, can you find a cheap parking permit near home?"]  # fmt: skip
JOB_SAY = ["Draft an email to my manager at {v} asking for Friday off",
           "Help me prepare for the quarterly review at {v}, I present on Monday"]  # fmt: skip
JOB_UPDATE = ["I've started at {v} this week, write a short hello message to my new team",
              "Update my email signature, I work for {v} now"]  # fmt: skip
PET_SAY = ["Set a reminder to buy worming tablets for {p}, my {s}",
           "Is it safe for {p} to eat strawberries? He's a {s} and very greedy"]  # fmt: skip
CHILD_SAY = ["Help me write a birthday card for my {r} {c}, the party is on Saturday",
             "Find a swimming class on Saturday mornings for my {r} {c}"]  # fmt: skip
ALLERGY_SAY = ["Order the groceries for the week but nothing containing {v}, I'm allergic",
               "Check whether the ramen bar does dishes without {v}, it makes my throat swell"]  # fmt: skip
INSTRUMENT_SAY = ["Find me sheet music for the {v}, something easy I can practise in the evenings",
                  "Is there a repair shop nearby that can restring my {v}?"]  # fmt: skip
TRIP_SAY = ["Help me plan a week in {v} for late spring, mostly hiking and local food",
            "What's the best way to get to {v}? I'm going with two friends in the autumn",
            "Make me a packing list for {v}, I fly out in three weeks"]  # fmt: skip
COURSE = ["a glassblowing course", "an evening Portuguese class", "a beekeeping course", "a cheesemaking workshop",
          "a watercolour class", "a first aid certificate", "a dinghy racing course",
          "a calligraphy class"]  # fmt: skip

FILLER_USER = [
    "Summarise this article about interest rates in three bullet points",
    "What's the difference between a Roth and a traditional pension?",
    "Rewrite this paragraph so it sounds more polite",
    "Give me five ideas for a team quiz round",
    "How long should I boil an egg for a runny yolk?",
    "Translate 'see you next week' into Spanish",
    "Can you explain how compound interest works?",
    "What's a good stretch for a stiff lower back?",
    "Write a limerick about Mondays",
    "Convert 180 degrees Celsius to Fahrenheit",
    "What are some tips for sleeping better?",
    "Suggest a name for a book club",
    "How do I remove a red wine stain from a carpet?",
    "Explain the offside rule simply",
    "What should I ask at a parents' evening?",
    "thanks, that's perfect",
    "ok, can you make it shorter?",
    "Great, and one more version please",
    "How many cups are in a litre?",
    "What's a polite way to decline a meeting invite?",
]  # fmt: skip
FILLER_ASSISTANT = [
    "Of course! Here is a clear overview. First, it helps to think about what you want to achieve, then break it "
    "into smaller steps you can act on. Many people find that writing things down makes the next step obvious. "
    "Let me know if you would like me to expand on any part of this or tailor it further.",
    "Happy to help with that. There are a few things worth keeping in mind: keep it simple, check the details "
    "twice, and give yourself a little more time than you think you need. If anything changes, just tell me and "
    "I will adjust the plan accordingly.",
    "Great question! The short answer is that it depends on your situation, but here is a general guide that "
    "works for most people. I have kept it brief; I can add more detail, examples or sources whenever you like.",
    "Done! I have made the changes you asked for. Take a look and tell me whether the tone feels right; I can "
    "make it more formal, more casual, or shorter if you prefer.",
]  # fmt: skip
#: The assistant's long reply to a fact-bearing request: it repeats the request's rare words.
ECHO = [
    "Absolutely, I can help with that. You mentioned {echo}, so I have kept that in mind. Here are a few "
    "options, with opening hours, prices and how to get there, and I have noted anything you should check "
    "before you go. Would you like me to add a reminder to your calendar as well?",
    "Sure! Regarding {echo}: I have put together a short plan below. I looked at reviews, distance and "
    "availability, and listed the best three first. If none of these work I can search a wider area or "
    "adjust the dates.",
    "Good idea. For {echo}, here is what I would suggest, step by step, with a couple of alternatives in "
    "case the first choice is fully booked. Let me know which one you prefer and I will take care of the rest.",
]  # fmt: skip


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    conversations: list[dict[str, Any]] = []
    questions: list[dict[str, Any]] = []
    users = rng.sample(NAMES, USERS)
    for u, user in enumerate(users):
        cid = f"a{u}"
        start = date(2025, 2, 3) + timedelta(days=rng.randint(0, 120))
        dates, d = [], start
        for _ in range(SESSIONS):
            dates.append(d)
            d += timedelta(days=rng.randint(3, 11))
        # planned[s]: (user text, echo words, key) said in session s; key names the fact
        planned: dict[int, list[tuple[str, str, str]]] = {s: [] for s in range(SESSIONS)}
        early, late = list(range(0, 9)), list(range(11, SESSIONS))

        def plan(s: int, text: str, echo: str, key: str, planned: dict = planned) -> None:
            planned[s].append((text, echo, key))

        city, city2 = rng.sample(CITIES, 2)
        car, car2 = rng.sample(CARS, 2)
        job, job2 = rng.sample(EMPLOYERS, 2)
        species, pet = rng.choice(PETS)
        rel, child = rng.choice(CHILDREN)
        allergy, allergy_open = rng.choice(ALLERGIES)
        instrument, instrument_open = rng.choice(INSTRUMENTS)
        trips = rng.sample(DESTINATIONS, 3)
        prefs = [
            rng.choice([p for p in PREFERENCES if p[0] == k]) for k in rng.sample(["diet", "seat", "drink", "music"], 3)
        ]
        course = rng.choice(COURSE)
        # someone else's facts (never about the user): a colleague's instrument, a friend's pet
        other = rng.choice(OTHERS)
        o_instrument = rng.choice([i for i, _ in INSTRUMENTS if i != instrument])
        o_species, o_pet = rng.choice([p for p in PETS if p[0] != species])
        suggested = rng.choice([x for x in DESTINATIONS if x not in trips])

        for key, first, second, say, update in (
            ("city", city, city2, CITY_SAY, CITY_UPDATE),
            ("car", car, car2, CAR_SAY, CAR_UPDATE),
            ("job", job, job2, JOB_SAY, JOB_UPDATE),
        ):
            plan(rng.choice(early), rng.choice(say).format(v=first), first, key + ":1")
            plan(rng.choice(late), rng.choice(update).format(v=second), second, key + ":2")
        plan(rng.choice(early), rng.choice(PET_SAY).format(p=pet, s=species), pet, "pet")
        plan(rng.randrange(SESSIONS), rng.choice(CHILD_SAY).format(r=rel, c=child), f"your {rel} {child}", "child")
        plan(rng.randrange(SESSIONS), rng.choice(ALLERGY_SAY).format(v=allergy), allergy, "allergy")
        plan(
            rng.randrange(SESSIONS), rng.choice(INSTRUMENT_SAY).format(v=instrument), f"the {instrument}", "instrument"
        )
        for i, s in enumerate(sorted(rng.sample(range(SESSIONS), 3))):
            plan(s, rng.choice(TRIP_SAY).format(v=trips[i]), trips[i], f"trip:{i}")
        for i, p in enumerate(prefs):
            plan(rng.randrange(SESSIONS), p[2], p[1], f"pref:{i}")
        plan(rng.randrange(SESSIONS), f"Remind me that {course} starts on Tuesday evening, I signed up yesterday",
             course, "course")  # fmt: skip
        plan(rng.randrange(SESSIONS),
             f"My colleague {other} plays the {o_instrument} and wants a gig, can you draft a poster for him?",
             f"{other}'s {o_instrument}", "other:instrument")  # fmt: skip
        plan(rng.randrange(SESSIONS),
             f"My friend {other} just got a {o_species} called {o_pet}, what present should I bring round?",
             f"{o_pet} the {o_species}", "other:pet")  # fmt: skip

        # the turns: filler exchanges with the planned requests spread among them
        where: dict[str, str] = {}
        sessions = []
        for s in range(SESSIONS):
            turns: list[dict[str, str]] = []

            def add(speaker: str, text: str, s: int = s, turns: list = turns, cid: str = cid) -> str:
                tid = f"{cid}:D{s + 1}:{len(turns) + 1}"
                turns.append({"id": tid, "speaker": speaker, "text": text})
                return tid

            items: list[tuple[str, str, str] | None] = [None] * rng.randint(5, 6) + planned[s]
            rng.shuffle(items)
            for item in items:
                if item is None:
                    add(user, rng.choice(FILLER_USER))
                    add(ASSISTANT, rng.choice(FILLER_ASSISTANT))
                    continue
                text, echo, key = item
                where[key] = add(user, text)
                reply = rng.choice(ECHO).format(echo=echo)
                if key == "trip:0":  # the assistant suggests a place the user never goes to
                    reply += f" If you enjoy this, {suggested} is lovely at that time of year too."
                add(ASSISTANT, reply)
            sessions.append({"session": s + 1, "date": dates[s].isoformat(), "turns": turns})
        conversations.append({"id": cid, "speakers": [user, ASSISTANT], "sessions": sessions})

        qs: list[tuple[str, str, list[str], str]] = []

        def ask(kind: str, text: str, *keys: str, qs: list = qs, where: dict = where) -> None:
            qs.append((kind, text, [where[k] for k in keys], ""))

        n = user
        # knowledge updates: the current value, evidence the latest turn only
        ask("knowledge-update", f"Which city is {n}'s office in now?", "city:2")
        ask("knowledge-update", f"Where does {n} currently work from?", "city:2")
        ask("knowledge-update", f"What car does {n} drive now?", "car:2")
        ask("knowledge-update", f"What is {n}'s current vehicle?", "car:2")
        ask("knowledge-update", f"Which company does {n} work for at the moment?", "job:2")
        ask("knowledge-update", f"Who is {n}'s current employer?", "job:2")
        # single-hop: the fact as first stated (direct and paraphrased)
        ask("single-hop", f"Which company did {n} work for before the job change?", "job:1")
        ask("single-hop", f"What car did {n} have before buying a new one?", "car:1")
        ask("single-hop", f"What is the name of {n}'s {species}?", "pet")
        ask("single-hop", f"What kind of animal is {pet}?", "pet")
        ask("single-hop", f"What pet does {n} have?", "pet")
        ask("single-hop", f"What is {n}'s {rel} called?", "child")
        ask("single-hop", f"Does {n} have children?", "child")
        ask("single-hop", f"What is {n} allergic to?", "allergy")
        ask("single-hop", f"Which food makes {n} ill?", "allergy")
        ask("single-hop", f"Which musical instrument does {n} play?", "instrument")
        ask("single-hop", f"What did {n} sign up for recently?", "course")
        ask("single-hop", f"Which class is {n} taking?", "course")
        ask("single-hop", f"Where was {n}'s office before the move?", "city:1")
        # preferences
        for i, p in enumerate(prefs):
            ask("preference", p[3].format(n=n), f"pref:{i}")
            ask("open-domain", p[4].format(n=n), f"pref:{i}")
        # open-domain inference
        ask("open-domain", allergy_open.format(n=n), "allergy")
        ask("open-domain", instrument_open.format(n=n), "instrument")
        ask("open-domain", f"Does {n} need someone to look after an animal while travelling?", "pet")
        ask("open-domain", f"Would {n} need a child seat when renting a car?", "child")
        # multi-session aggregation
        ask("multi-hop", f"Which places has {n} planned trips to?", "trip:0", "trip:1", "trip:2")
        ask("multi-hop", f"How many trips has {n} asked for help with, and where?", "trip:0", "trip:1", "trip:2")
        ask("multi-hop", f"Which cities has {n}'s office been in?", "city:1", "city:2")
        ask("multi-hop", f"Which cars has {n} owned?", "car:1", "car:2")
        ask("multi-hop", f"List every employer {n} has mentioned.", "job:1", "job:2")
        ask("multi-hop", f"What should the assistant remember about {n}'s food needs?", "allergy",
            *[f"pref:{i}" for i, p in enumerate(prefs) if p[0] == "diet"])  # fmt: skip
        # temporal: answered by the session's date
        for i in range(3):
            ask("temporal", f"When did {n} ask about the trip to {trips[i]}?", f"trip:{i}")
        ask("temporal", f"When did {n} move to the {city2} office?", "city:2")
        ask("temporal", f"When did {n} get the {car2}?", "car:2")
        ask("temporal", f"When did {n} start at {job2}?", "job:2")
        ask("temporal", f"When did {n} sign up for {course}?", "course")
        ask("temporal", f"When did {n} mention {pet}?", "pet")
        # never stored: a plausible fact never said
        for text in (
            f"What is the name of {n}'s brother?",
            f"Which city did {n} grow up in?",
            f"Which football team does {n} support?",
            f"What is {n}'s wedding anniversary?",
            f"Which university did {n} study at?",
            f"What is the name of {n}'s landlord?",
            f"How many sisters does {n} have?",
        ):
            qs.append(("adversarial", text, [], "never said"))
        # never stored: a fact said about someone else, asked about the user
        qs.append(("adversarial", f"Does {n} play the {o_instrument}?", [], "someone else's"))
        qs.append(("adversarial", f"What is the name of {n}'s {o_species}?", [], "someone else's"))
        qs.append(("adversarial", f"When did {n} adopt {o_pet}?", [], "someone else's"))
        qs.append(("adversarial", f"Has {n} ever given a gig with the {o_instrument}?", [], "someone else's"))
        # never stored: only the assistant suggested it
        qs.append(("adversarial", f"When did {n} visit {suggested}?", [], "assistant only"))
        qs.append(("adversarial", f"What did {n} do in {suggested}?", [], "assistant only"))
        for i, (kind, text, ev, never) in enumerate(qs, 1):
            q = {"id": f"{cid}:q{i}", "conversation": cid, "type": kind, "question": text, "evidence": ev}
            questions.append(q | ({"never": never} if never else {}))
    turns = sum(len(s["turns"]) for c in conversations for s in c["sessions"])
    about = (
        f"A user and an AI assistant, generated by bench/retrieval/generate_assistant.py (seed {seed}): "
        f"{len(conversations)} users, {turns} turns, {len(questions)} questions."
    )
    return {"about": about, "conversations": conversations, "questions": questions}


def main() -> None:
    write(generate(), OUT)


if __name__ == "__main__":
    main()
