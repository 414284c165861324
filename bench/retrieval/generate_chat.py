"""A second retrieval benchmark, built apart from the first: group chats (bench/retrieval/chat.json).

Written by the Mnemo team for this repository (no outside data; the repository's licence). It
exists so that no search choice is judged only on the data it was tuned on: ``generate.py``'s
data set and this one were designed separately, and every tuned value (fusion, calibration,
floor, query handling) is fitted on one and reported on the other (``crossval.py``).

How it differs from ``generate.py`` (on purpose, closer to public chat benchmarks such as LoCoMo):

- **Group chats**: three to five people out of 60 names (none shared with generate.py), short
  turns, people addressing each other by name ("@Hana lol"), reactions ("😂", "omg", "same").
- **Different things happen**: work projects, moves and renovations, cars, injuries, courses and
  exams, races, volunteering, restaurants, gifts, gardens, children's school events, purchases
  (generate.py: pets, hobbies, trips, jobs, relatives, bands, books).
- **Facts said directly as often as indirectly**: "I passed the CPA exam!" next to "no more
  flashcards, the results email said 84".
- **Questions of three styles**: ones that reuse the evidence's own words, as LoCoMo's do ("What
  exam did Hana pass?", "What did Hana say about flashcards?"), and paraphrases ("Which
  professional qualification did Hana get?").
- **Long turns as well as short ones**: half the turns that hold a fact carry other news around it
  ("Morning all! Sorry I've been quiet ... Anyway what's everyone up to this weekend?"), which
  dilutes a turn's vector the way LoCoMo's long turns do.
- **Types**: single-hop (one turn), multi-hop (a thing that moves on over several sessions, or the
  same kind of thing for two people: "Who in the group ran a race?"), temporal ("When did ...?",
  answered by the session's date), open-domain (an inference: "Would Hana be good at doing
  taxes?"), and never-stored ("adversarial" here: a question about something no one said, with
  no evidence; it measures how often the score floor answers "No matching memories found").

Seeded and deterministic: running it again writes the same file (its sha256 is printed).

    .venv/bin/python -m bench.retrieval.generate_chat
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from bench.retrieval.generated import write

OUT = Path(__file__).with_name("chat.json")
SEED = 2026
CONVERSATIONS = 10

NAMES = [
    "Hana", "Bruno", "Keiko", "Dmitri", "Amara", "Lars", "Sofia", "Ravi", "Ingrid", "Tomás", "Nadia", "Felix",
    "Chiara", "Omar", "Beatriz", "Viktor", "Mei", "Samir", "Freya", "Kofi", "Lena", "Arjun", "Rosa", "Stefan",
    "Ayla", "Marco", "Hedda", "Jun", "Clara", "Nikolai", "Esra", "Pablo", "Ruth", "Kenji", "Olga", "Malik",
    "Vera", "Theo", "Ana", "Gideon", "Liv", "Hamid", "Petra", "Diego", "Yara", "Bastian", "Nell", "Ibrahim",
    "Tess", "Rohan", "Maja", "Quentin", "Ada", "Sven", "Lucía", "Emil", "Dana", "Karim", "Iris", "Jasper",
]  # fmt: skip

# A fact frame: values (each a dict of slots); what the person says (direct: the fact's own words;
# indirect: the same fact without them), what others reply, and the questions it answers. Slots in
# braces; {n} is the person's name. "stages" (optional) are later turns about the same thing, said in
# later sessions: the multi-hop question's other evidence.
FRAMES: list[dict[str, Any]] = [
    {
        "kind": "exam",
        "values": [
            {
                "x": "CPA exam",
                "ind": "no more flashcards, the results email said 84, I can sign audits now",
                "para": "Which professional qualification did {n} get?",
                "open": "Would {n} be good at doing taxes?",
            },
            {
                "x": "bar exam",
                "ind": "sworn in at the courthouse this morning, I can finally take my own clients",
                "para": "Which legal test did {n} get through?",
                "open": "Could {n} represent someone in court?",
            },
            {
                "x": "driving test",
                "ind": "parallel parked perfectly and the examiner actually smiled, L plates are off",
                "para": "What did {n} finally get allowed to do on the road?",
                "open": "Can {n} give people lifts now?",
            },
            {
                "x": "sommelier certification",
                "ind": "blind-tasted six reds and named five grapes, pin on my lapel",
                "para": "What qualification about wine does {n} have?",
                "open": "Should {n} pick the wine at dinner?",
            },
            {
                "x": "scuba diving licence",
                "ind": "did my last open water dive at 18 metres, the instructor signed me off",
                "para": "What underwater qualification did {n} earn?",
                "open": "Could {n} explore a coral reef?",
            },
            {
                "x": "forklift certificate",
                "ind": "I can now legally move pallets around the warehouse, lol",
                "para": "What machine is {n} now allowed to operate?",
                "open": "Could {n} work in a warehouse?",
            },
            {
                "x": "Japanese N3 test",
                "ind": "three years of kanji cards and I understood the listening section",
                "para": "Which language level did {n} reach?",
                "open": "Could {n} get around in Tokyo?",
            },
        ],
        "direct": ["I passed the {x}!!", "Guess who passed the {x} 🎉", "Officially passed my {x} today"],
        "echo": ["Congrats on the {x}!", "omg the {x}, well done", "{x} done, you legend"],
        "lex": ["What exam did {n} pass?", "Did {n} pass the {x}?", "What did {n} pass?"],
        "when": "When did {n} pass the {x}?",
    },
    {
        "kind": "race",
        "values": [
            {
                "x": "Riverside half marathon",
                "t": "1:52",
                "ind": "13 miles along the water and my knees survived",
                "para": "Which long-distance running event did {n} do?",
                "open": "Is {n} into endurance sports?",
            },
            {
                "x": "Harbour 10K",
                "t": "48 minutes",
                "ind": "six miles past the docks and I sprinted the last bit",
                "para": "What road race by the docks did {n} run?",
                "open": "Would {n} enjoy a running club?",
            },
            {
                "x": "Ironlake triathlon",
                "t": "3 hours 10",
                "ind": "swim, bike, run, and I cried at the finish arch",
                "para": "Which swim-bike-run event did {n} take part in?",
                "open": "Is {n} a fit person?",
            },
            {
                "x": "Hill Hundred cycle ride",
                "t": "6 hours",
                "ind": "a hundred miles on the bike, my legs are jelly",
                "para": "Which long bike event did {n} complete?",
                "open": "Would {n} like a cycling holiday?",
            },
            {
                "x": "Midnight trail ultra",
                "t": "9 hours",
                "ind": "50K through the forest with a head torch",
                "para": "What night-time run in the woods did {n} finish?",
                "open": "Does {n} like being outdoors?",
            },
            {
                "x": "Lakeside swim mile",
                "t": "41 minutes",
                "ind": "open water, freezing, goggles fogged the whole way",
                "para": "Which open-water event did {n} swim?",
                "open": "Is {n} a confident swimmer?",
            },
        ],
        "direct": ["Signed up for the {x}!", "I'm doing the {x} this year", "Entered the {x}, no going back"],
        "stages": ["Finished the {x} in {t}!", "{x} done, {t}. {ind}"],
        "echo": ["The {x}? brave", "{t} is amazing", "you did the {x}??"],
        "lex": ["What race did {n} sign up for?", "What was {n}'s time in the {x}?", "Did {n} finish the {x}?"],
        "multi": "How did {n}'s {x} go, from signing up to the finish?",
        "when": "When did {n} finish the {x}?",
    },
    {
        "kind": "renovation",
        "values": [
            {
                "x": "bathroom",
                "a": "ripped out the old tub",
                "b": "the tiler finally came, green zellige tiles",
                "c": "new shower works, no more washing at the gym",
                "para": "Which room of {n}'s home was redone?",
                "open": "Is {n}'s home being improved?",
            },
            {
                "x": "kitchen",
                "a": "the cabinets are gone, we're cooking on a camping stove",
                "b": "oak worktops went in today",
                "c": "first dinner on the new induction hob",
                "para": "Which part of {n}'s flat where food is made got rebuilt?",
                "open": "Does {n} like cooking at home?",
            },
            {
                "x": "attic",
                "a": "insulation everywhere, itchy all over",
                "b": "the skylight is in, so much light up there",
                "c": "the loft is now my home office",
                "para": "What space under {n}'s roof was converted?",
                "open": "Does {n} work from home?",
            },
            {
                "x": "garden shed",
                "a": "poured the concrete base this weekend",
                "b": "walls and roof up, felt nailed on",
                "c": "painted it sage and moved the bikes in",
                "para": "What outbuilding did {n} build?",
                "open": "Is {n} handy with tools?",
            },
            {
                "x": "balcony",
                "a": "pulled up the rotten decking",
                "b": "new railings, powder-coated black",
                "c": "string lights up, sat out there till midnight",
                "para": "Which outdoor bit of {n}'s flat got redone?",
                "open": "Would {n} enjoy a summer evening outside?",
            },
        ],
        "direct": ["We're renovating the {x}, pray for me", "Started redoing the {x} today"],
        "stages": ["{x} update: {a}", "{x} progress: {b}", "The {x} is finished! {c}"],
        "echo": ["how's the {x} going?", "pics of the {x} pls", "renovations are the worst lol"],
        "lex": ["What is {n} renovating?", "What happened with {n}'s {x}?"],
        "multi": "How did {n}'s {x} renovation progress?",
        "when": "When did {n} finish the {x}?",
    },
    {
        "kind": "car",
        "values": [
            {
                "x": "a red Mazda MX-5",
                "k": "Mazda",
                "ind": "two seats, soft top, zero boot space, zero regrets",
                "para": "What sports car did {n} buy?",
                "open": "Does {n} enjoy driving?",
            },
            {
                "x": "a second-hand Volvo estate",
                "k": "Volvo",
                "ind": "massive boot, fits the dog crate and the pram",
                "para": "Which big family car did {n} get?",
                "open": "Does {n} need room for a family?",
            },
            {
                "x": "an electric Renault Zoe",
                "k": "Renault",
                "ind": "charging it at the supermarket, no more petrol",
                "para": "What battery-powered car does {n} drive?",
                "open": "Does {n} care about emissions?",
            },
            {
                "x": "a camper van",
                "k": "camper",
                "ind": "pop-up roof, tiny sink, I'm naming her Marge",
                "para": "What vehicle can {n} sleep in?",
                "open": "Would {n} enjoy a road trip?",
            },
            {
                "x": "a cargo bike",
                "k": "bike",
                "ind": "the kids ride in the front box to school",
                "para": "What does {n} use instead of a car for the school run?",
                "open": "Does {n} avoid driving?",
            },
            {
                "x": "a vintage Vespa",
                "k": "Vespa",
                "ind": "mint green, 1978, it stalls at every light",
                "para": "What old scooter did {n} get?",
                "open": "Does {n} like vintage things?",
            },
        ],
        "direct": ["I bought {x}!", "Just picked up {x} from the dealer", "Finally got {x}"],
        "echo": ["{k}? nice", "ooh {x}", "take me for a ride in the {k}"],
        "lex": ["What did {n} buy?", "What kind of {k} did {n} get?"],
        "when": "When did {n} get {x}?",
    },
    {
        "kind": "injury",
        "values": [
            {
                "x": "sprained my ankle",
                "w": "five-a-side football",
                "ind": "it's purple and the size of a grapefruit",
                "para": "What leg injury did {n} get?",
                "open": "Should {n} avoid running for a while?",
            },
            {
                "x": "broke my wrist",
                "w": "ice skating",
                "ind": "cast up to the elbow, typing one-handed",
                "para": "Which bone did {n} fracture?",
                "open": "Can {n} play the piano right now?",
            },
            {
                "x": "tore a calf muscle",
                "w": "sprint training",
                "ind": "physio says six weeks of no running",
                "para": "What muscle injury did {n} suffer?",
                "open": "Is {n} going to miss a race?",
            },
            {
                "x": "dislocated my shoulder",
                "w": "climbing",
                "ind": "they popped it back in at A&E, I screamed",
                "para": "What joint injury happened to {n}?",
                "open": "Should {n} avoid lifting heavy boxes?",
            },
            {
                "x": "cracked a rib",
                "w": "a mountain bike crash",
                "ind": "it hurts to laugh so stop being funny",
                "para": "Which part of {n}'s chest got hurt?",
                "open": "Is {n} in pain when breathing?",
            },
        ],
        "direct": ["I {x} at {w} 😭", "Update: {x}. {w} is cancelled forever"],
        "stages": ["still recovering, {ind}"],
        "echo": ["ouch, {w} is dangerous", "get well soon!!", "poor you"],
        "lex": ["How did {n} get hurt?", "What happened at {w} to {n}?"],
        "when": "When did {n} get injured?",
    },
    {
        "kind": "course",
        "values": [
            {
                "x": "an evening course in Italian",
                "k": "Italian",
                "ind": "conjugating verbs on the bus, mi piace",
                "para": "Which language is {n} studying?",
                "open": "Would {n} enjoy a trip to Rome?",
            },
            {
                "x": "a welding course",
                "k": "welding",
                "ind": "sparks everywhere, my mask was fogged",
                "para": "What metalwork skill is {n} learning?",
                "open": "Could {n} fix a metal gate?",
            },
            {
                "x": "a coding bootcamp",
                "k": "Python",
                "ind": "wrote my first web scraper, twelve weeks to go",
                "para": "What programming training is {n} doing?",
                "open": "Could {n} build a website?",
            },
            {
                "x": "a first aid course",
                "k": "CPR",
                "ind": "did chest compressions on a dummy called Annie",
                "para": "What emergency skills is {n} learning?",
                "open": "Could {n} help if someone collapsed?",
            },
            {
                "x": "a sign language class",
                "k": "BSL",
                "ind": "learned to fingerspell my name in BSL",
                "para": "What way of talking with hands is {n} learning?",
                "open": "Could {n} talk with a deaf person?",
            },
            {
                "x": "a cocktail-making class",
                "k": "cocktails",
                "ind": "shaken, not stirred, and only spilled twice",
                "para": "What drinks skill did {n} take lessons in?",
                "open": "Should {n} host the next party?",
            },
        ],
        "direct": ["I enrolled in {x}", "Started {x} this week", "Signed up for {x}, wish me luck"],
        "echo": ["{k}? cool", "how's {x}?", "teach me {k}"],
        "lex": ["What course did {n} enroll in?", "What is {n} learning in {x}?"],
        "when": "When did {n} start {x}?",
    },
    {
        "kind": "volunteer",
        "values": [
            {
                "x": "the food bank on Mill Road",
                "d": "sorting tins",
                "ind": "packed 200 parcels for families",
                "para": "Where does {n} help give groceries to people in need?",
                "open": "Does {n} care about poverty?",
            },
            {
                "x": "the animal shelter",
                "d": "walking the rescue dogs",
                "ind": "a greyhound fell asleep on my feet",
                "para": "Where does {n} spend time with homeless pets?",
                "open": "Would {n} adopt a dog?",
            },
            {
                "x": "the hospice shop",
                "d": "pricing donations",
                "ind": "someone donated a wedding dress from 1962",
                "para": "Which charity store does {n} give time to?",
                "open": "Does {n} like second-hand clothes?",
            },
            {
                "x": "the river clean-up crew",
                "d": "fishing out trolleys",
                "ind": "pulled three bikes out of the canal",
                "para": "Which environmental group does {n} join?",
                "open": "Does {n} care about the environment?",
            },
            {
                "x": "the library reading club",
                "d": "reading to kids",
                "ind": "the seven-year-olds loved the dragon book",
                "para": "Where does {n} read stories to children?",
                "open": "Is {n} good with children?",
            },
        ],
        "direct": ["I've started volunteering at {x}, {d} on Saturdays", "Volunteering at {x} now"],
        "echo": ["{x} is lucky to have you", "that's so nice", "can I come {d}?"],
        "lex": ["Where does {n} volunteer?", "What does {n} do at {x}?"],
        "when": "When did {n} start volunteering?",
    },
    {
        "kind": "restaurant",
        "values": [
            {
                "x": "Casa Lumbre",
                "f": "the lamb tacos",
                "ind": "the salsa verde nearly blew my head off",
                "para": "Which Mexican place does {n} recommend?",
                "open": "Does {n} like spicy food?",
            },
            {
                "x": "Noodle Theory",
                "f": "the dan dan noodles",
                "ind": "hand-pulled noodles, the chef slaps the dough",
                "para": "Which noodle shop does {n} love?",
                "open": "Would {n} enjoy Sichuan cooking?",
            },
            {
                "x": "The Salt Cellar",
                "f": "the oysters",
                "ind": "ate a dozen with lemon and shallot vinegar",
                "para": "Which seafood restaurant does {n} rave about?",
                "open": "Does {n} eat shellfish?",
            },
            {
                "x": "Verde",
                "f": "the mushroom risotto",
                "ind": "all plant-based and I didn't miss meat once",
                "para": "Which vegetarian restaurant does {n} like?",
                "open": "Would {n} try a vegan menu?",
            },
            {
                "x": "Bao Brothers",
                "f": "the pork belly buns",
                "ind": "queued 40 minutes for steamed buns, worth it",
                "para": "Which bun place was worth the queue for {n}?",
                "open": "Would {n} queue for good food?",
            },
            {
                "x": "Pizzeria Vesuvio",
                "f": "the nduja pizza",
                "ind": "wood oven, leopard-spotted crust",
                "para": "Where does {n} get pizza?",
                "open": "Does {n} like Italian food?",
            },
        ],
        "direct": ["{x} has the best {f}, go", "Had {f} at {x} last night", "New favourite place: {x}"],
        "echo": ["{x}? adding it to my list", "{f} sounds amazing", "we should all go to {x}"],
        "lex": ["What restaurant does {n} recommend?", "What did {n} eat at {x}?", "What is good at {x}?"],
        "when": "When did {n} go to {x}?",
    },
    {
        "kind": "kid",
        "values": [
            {
                "x": "Milo",
                "e": "the school science fair",
                "w": "a volcano that actually erupted",
                "para": "How did {n}'s son do at the school competition?",
                "open": "Is {n}'s child into science?",
            },
            {
                "x": "Poppy",
                "e": "the spelling bee",
                "w": "spelling 'chrysanthemum' in the final",
                "para": "What word contest did {n}'s daughter take part in?",
                "open": "Does {n}'s kid read a lot?",
            },
            {
                "x": "Otis",
                "e": "the swimming gala",
                "w": "two gold medals in backstroke",
                "para": "Which pool competition did {n}'s son compete in?",
                "open": "Is {n}'s child sporty?",
            },
            {
                "x": "Luna",
                "e": "the nativity play",
                "w": "playing the donkey, she stole the show",
                "para": "What school performance was {n}'s daughter in?",
                "open": "Does {n}'s kid like acting?",
            },
            {
                "x": "Felix Jr",
                "e": "the chess tournament",
                "w": "beating a twelve-year-old in the final",
                "para": "Which board game contest did {n}'s boy win?",
                "open": "Is {n}'s child good at strategy?",
            },
        ],
        "direct": ["My {r} {x} won {e}!", "{x} has {e} on Friday, so nervous"],
        "stages": ["{x} was incredible at {e}, {w}"],
        "echo": ["go {x}!", "{e}? so cute", "tell {x} congrats from me"],
        "lex": ["What did {n}'s {r} {x} do at {e}?", "Who is {x}?"],
        "multi": "What happened with {x} and {e}?",
        "when": "When was {x}'s {e}?",
    },
    {
        "kind": "gift",
        "values": [
            {
                "x": "a record player",
                "p": "my dad",
                "ind": "he's been playing his old Beatles vinyl nonstop",
                "para": "What music gadget did {n} give a parent?",
                "open": "Does {n}'s father like music?",
            },
            {
                "x": "a hot air balloon ride",
                "p": "my wife",
                "ind": "we floated over the vineyards at sunrise",
                "para": "What flying experience did {n} give a partner?",
                "open": "Is {n} romantic?",
            },
            {
                "x": "a telescope",
                "p": "my nephew",
                "ind": "he found Saturn's rings on the first night",
                "para": "What stargazing present did {n} give a relative?",
                "open": "Does {n}'s nephew like space?",
            },
            {
                "x": "a pasta machine",
                "p": "my sister",
                "ind": "she made tagliatelle from scratch, flour everywhere",
                "para": "What kitchen gadget did {n} give a sibling?",
                "open": "Does {n}'s sister cook?",
            },
            {
                "x": "a knitting kit",
                "p": "my grandma",
                "ind": "she's already made three scarves, one for me",
                "para": "What craft set did {n} give a grandparent?",
                "open": "Is {n}'s grandmother crafty?",
            },
        ],
        "direct": ["Got {p} {x} for the birthday", "Bought {x} for {p}"],
        "echo": ["{x}, what a gift", "{p} is lucky", "aww"],
        "lex": ["What did {n} buy for {p}?", "Who did {n} give {x} to?"],
        "when": "When did {n} give {p} {x}?",
    },
    {
        "kind": "garden",
        "values": [
            {
                "x": "tomatoes",
                "ind": "the vines are taller than me and the kitchen smells of leaves",
                "para": "What red fruit is {n} growing?",
                "open": "Would {n} make fresh pasta sauce?",
            },
            {
                "x": "chillies",
                "ind": "Scotch bonnets on the windowsill, touched my eye, regret",
                "para": "What hot peppers is {n} growing?",
                "open": "Does {n} like spicy food?",
            },
            {
                "x": "sunflowers",
                "ind": "three metres tall, the bees are going wild",
                "para": "What tall yellow flowers did {n} plant?",
                "open": "Does {n} like bees?",
            },
            {
                "x": "strawberries",
                "ind": "picked a bowl this morning, the slugs got the rest",
                "para": "What berries are in {n}'s garden?",
                "open": "Would {n} make jam?",
            },
            {
                "x": "an apple tree",
                "ind": "first blossom this spring, fingers crossed for fruit",
                "para": "What fruit tree did {n} plant?",
                "open": "Might {n} make cider someday?",
            },
        ],
        "direct": ["I'm growing {x} this year", "Planted {x} on the allotment"],
        "stages": ["garden update: {ind}"],
        "echo": ["{x}! save me some", "green fingers", "how are the {x}?"],
        "lex": ["What is {n} growing?", "Where did {n} plant {x}?"],
        "multi": "How are {n}'s {x} doing over time?",
        "when": "When did {n} plant {x}?",
    },
    {
        "kind": "work",
        "values": [
            {
                "x": "the Atlas migration",
                "ind": "moved 40 million rows to the new servers overnight",
                "para": "What big data move did {n} lead at work?",
                "open": "Does {n} work with computers?",
            },
            {
                "x": "the Harbour Bridge tender",
                "ind": "300 pages of engineering drawings submitted at 4:59",
                "para": "What construction bid did {n} work on?",
                "open": "Does {n} work in engineering?",
            },
            {
                "x": "the spring catalogue",
                "ind": "photographed 120 dresses in two days",
                "para": "Which fashion project did {n} shoot?",
                "open": "Does {n} work in fashion?",
            },
            {
                "x": "the vaccine trial",
                "ind": "last patient dosed, data lock in June",
                "para": "What medical study is {n} running?",
                "open": "Does {n} work in health research?",
            },
            {
                "x": "the museum audio guide",
                "ind": "recorded 48 stops, my voice is gone",
                "para": "What recording project did {n} do for a gallery?",
                "open": "Is {n} comfortable with public speaking?",
            },
        ],
        "direct": ["At work I'm leading {x} now", "Got put in charge of {x}"],
        "stages": ["{x} is done!! {ind}"],
        "echo": ["{x} sounds intense", "boss move", "how's {x}?"],
        "lex": ["What project is {n} leading at work?", "What happened with {x}?"],
        "multi": "How did {x} go for {n}?",
        "when": "When did {n} finish {x}?",
    },
]
RELATION = {"Milo": "son", "Poppy": "daughter", "Otis": "son", "Luna": "daughter", "Felix Jr": "son"}

# Things no one in any conversation says: never-stored questions (no evidence).
NEVER = [
    "What is the name of {n}'s horse?", "Which opera did {n} see in Vienna?",
    "What did {n} name the sailboat?", "When did {n} run for city council?",
    "What breed is {n}'s parrot?", "Which marathon did {n} win in Boston?",
    "What tattoo did {n} get on the wrist?", "Where did {n} go skiing in Canada?",
    "What instrument does {n} play in the orchestra?", "What was {n}'s score at the bowling league?",
    "Which mountain did {n} summit in Nepal?", "What did {n} bake for the cake contest?",
    "What is the title of {n}'s novel?", "How many goats does {n} keep?",
    "Which wine did {n} bring from Bordeaux?",
]  # fmt: skip

FILLER = [
    "lol", "haha same", "omg", "😂😂", "no way", "wait what", "true", "ugh mondays", "who's up?", "brb",
    "can't, working late", "anyone seen my charger?", "coffee?", "it's raining again", "so tired today",
    "did anyone watch the match?", "the group photo is so bad 😂", "send it here", "ok ok", "sounds good",
    "running 10 min late", "what time tomorrow?", "7 works", "I'll bring crisps", "has anyone got a ladder?",
    "the wifi is down again", "I'm starving", "what's everyone doing this weekend?", "nothing much, you?",
    "fair", "lmao", "nope", "yes please", "happy friday!", "that meme 💀", "same tbh", "ok who ate my yoghurt",
    "I need a holiday", "good morning all", "night all", "👍", "agreed", "hmm maybe", "not sure yet",
    "I'll check my calendar", "counting down to the weekend", "too hot today", "traffic was a nightmare",
]  # fmt: skip
ADDRESS = ["@{m} ", "{m} ", "", "", "", ""]
# What a fact's turn is wrapped in half the time: people say their news between other things, so a
# turn holding a fact is often long and about more than the fact (as in LoCoMo's turns).
BEFORE = [
    "Morning all! Sorry I've been quiet, the week got away from me.",
    "Ok so catching up on this chat, 200 messages, wow.",
    "Hi hi, just got back from the shops and my phone is on 3%.",
    "Right, finally sitting down with a tea.",
    "Not much new here apart from the weather being grim, but",
    "Sorry for the late reply, the kids were up all night.",
]
AFTER = [
    "Anyway what's everyone up to this weekend?",
    "Also did anyone find my umbrella after Friday?",
    "Otherwise same old, work is busy and the cat keeps waking me at 5.",
    "Will send photos later when the wifi behaves.",
    "Oh and I still owe someone a coffee, remind me who.",
    "Also the bin men skipped our street again, classic.",
]
# "What did Hana say about the flashcards?": the question names a word of the turn, as many of
# LoCoMo's questions do; the longest word of the fact's indirect telling that is not one of these.
ABOUT = ["What did {n} say about {w}?", "What did {n} mention about {w}?", "Tell me what {n} said about {w}."]
PLAIN = {
    "three",
    "twice",
    "finally",
    "actually",
    "everything",
    "nothing",
    "through",
    "morning",
    "people",
    "really",
    "without",
}


def _fill(text: str, slots: dict[str, str]) -> str:
    for key, value in slots.items():
        text = text.replace("{" + key + "}", value)
    return text


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    conversations, questions = [], []
    names = NAMES[:]
    rng.shuffle(names)
    for c in range(CONVERSATIONS):
        cid = f"g{c}"
        people = rng.sample(names, rng.randint(3, 5))
        start = date(2024, 1, 8) + timedelta(days=rng.randint(0, 300))
        n_sessions = rng.randint(14, 18)
        dates = []
        d = start
        for _ in range(n_sessions):
            dates.append(d)
            d += timedelta(days=rng.randint(2, 15))
        # events: (session index, speaker, text, fact key, stage)
        planned: dict[int, list[tuple[str, str, tuple | None]]] = {s: [] for s in range(n_sessions)}
        facts = []
        frames_used: dict[str, list[str]] = {}
        for person in people:
            for frame in rng.sample(FRAMES, rng.randint(5, 7)):
                value = rng.choice([v for v in frame["values"] if v["x"] not in frames_used.get(frame["kind"], [])])
                frames_used.setdefault(frame["kind"], []).append(value["x"])
                slots = {k: v for k, v in value.items() if k not in ("para", "open")} | {"n": person}
                slots["r"] = RELATION.get(value["x"], "kid")
                first = rng.randrange(0, max(1, n_sessions - 4))
                direct = rng.random() < 0.5
                text = _fill(rng.choice(frame["direct"]) if direct or "stages" in frame else value["ind"], slots)
                if direct and "stages" not in frame and rng.random() < 0.5:
                    text += ", " + _fill(value["ind"], slots)
                if rng.random() < 0.5:
                    wrap = rng.random()
                    if wrap < 0.4:
                        text = rng.choice(BEFORE) + " " + text
                    elif wrap < 0.8:
                        text = text + ". " + rng.choice(AFTER)
                    else:
                        text = rng.choice(BEFORE) + " " + text + ". " + rng.choice(AFTER)
                key = (person, frame["kind"], value["x"])
                planned[first].append((person, text, (key, 0)))
                stages = [first]
                for i, stage in enumerate(frame.get("stages", []), 1):
                    s = min(n_sessions - 1, stages[-1] + rng.randint(1, 4))
                    stages.append(s)
                    planned[s].append((person, _fill(stage, slots), (key, i)))
                facts.append({"key": key, "frame": frame, "value": value, "slots": slots, "sessions": stages})
        sessions = []
        texts: dict[str, str] = {}
        evidence: dict[tuple, list[tuple[str, str]]] = {}
        echoes: dict[tuple, str] = {}
        for s in range(n_sessions):
            turns: list[dict[str, str]] = []
            events = planned[s]
            rng.shuffle(events)
            n_filler = rng.randint(14, 28)
            slots_at = sorted(rng.sample(range(n_filler + len(events)), len(events)))
            ev_iter = iter(events)
            last = None
            for i in range(n_filler + len(events)):
                if i in slots_at:
                    person, text, tag = next(ev_iter)
                    tid = f"{cid}:D{s + 1}:{len(turns) + 1}"
                    turns.append({"id": tid, "speaker": person, "text": text})
                    texts[tid] = text
                    evidence.setdefault(tag[0], []).append((tid, dates[s].isoformat()))
                    last = person
                    fact = next(f for f in facts if f["key"] == tag[0])
                    if rng.random() < 0.6:  # someone else reacts with the same words
                        other = rng.choice([p for p in people if p != person])
                        reply = _fill(rng.choice(fact["frame"]["echo"]), fact["slots"])
                        turns.append({"id": f"{cid}:D{s + 1}:{len(turns) + 1}", "speaker": other, "text": reply})
                        echoes[tag[0]] = other
                else:
                    speaker = rng.choice([p for p in people if p != last])
                    address = rng.choice(ADDRESS).replace("{m}", rng.choice([p for p in people if p != speaker]))
                    turns.append(
                        {
                            "id": f"{cid}:D{s + 1}:{len(turns) + 1}",
                            "speaker": speaker,
                            "text": address + rng.choice(FILLER),
                        }
                    )
                    last = speaker
            sessions.append({"session": s + 1, "date": dates[s].isoformat(), "turns": turns})
        conversations.append({"id": cid, "speakers": people, "sessions": sessions})
        qn = 0

        def ask(kind: str, text: str, ev: list[str], cid: str = cid) -> None:
            nonlocal qn
            qn += 1
            questions.append(
                {"id": f"{cid}:q{qn}", "conversation": cid, "type": kind, "question": text, "evidence": ev}
            )

        by_kind: dict[str, list[dict]] = {}
        for f in facts:
            ev = [t for t, _ in evidence[f["key"]]]
            frame, value, slots = f["frame"], f["value"], f["slots"]
            by_kind.setdefault(frame["kind"], []).append(f)
            first_turn = ev[:1]
            # single-hop: one lexical and (half the time) one paraphrased question on the first mention;
            # for a frame with stages a lexical question may be about a later stage (the race's time)
            lex = rng.choice(frame["lex"])
            target = ev[:1]
            if "stages" in frame and ("time" in lex or "happened" in lex or "finish" in lex or "do at" in lex):
                target = ev[-1:]
            ask("single-hop", _fill(lex, slots), target)
            if rng.random() < 0.6:
                ask("single-hop", _fill(value["para"], slots), first_turn)
            if rng.random() < 0.5:
                ask("open-domain", _fill(value["open"], slots), ev)
            if rng.random() < 0.6:
                temporal_ev = ev[-1:] if "finish" in frame["when"] or "was" in frame["when"] else ev[:1]
                ask("temporal", _fill(frame["when"], slots), temporal_ev)
            if "multi" in frame and len(ev) > 1:
                ask("multi-hop", _fill(frame["multi"], slots), ev)
            told = _fill(value.get("ind", value.get("w", "")), slots)
            said = [t for t in ev if told and told in texts[t]]
            if said and rng.random() < 0.7:
                words = [w.strip(",.!?'") for w in told.split()]
                # a thing more than an action: no "-ed", "-ing" or "-ly" word when there is another
                plain = [w for w in words if w.isalpha() and w.lower() not in PLAIN]
                things = [w for w in plain if not w.endswith(("ed", "ing", "ly"))] or plain
                word = max(things, key=len)
                ask("single-hop", _fill(rng.choice(ABOUT), slots | {"w": word}), said[:1])
        # multi-hop across people: the same kind of thing for two or more people of the group
        crossing = {
            "exam": "Who in the group passed an exam, and which?",
            "race": "Which races did people in the group sign up for?",
            "car": "What vehicles did people in the group buy?",
            "course": "What courses are people in the group taking?",
            "restaurant": "Which restaurants have people in the group recommended?",
            "injury": "Who in the group got injured, and how?",
            "volunteer": "Where do people in the group volunteer?",
            "gift": "What gifts did people in the group give?",
        }
        for kind, text in crossing.items():
            group = by_kind.get(kind, [])
            if len(group) >= 2:
                ask("multi-hop", text, [[t for t, _ in evidence[f["key"]]][0] for f in group])
        for template in rng.sample(NEVER, 12):
            ask("adversarial", template.replace("{n}", rng.choice(people)), [])
    turns = sum(len(s["turns"]) for c in conversations for s in c["sessions"])
    about = (
        f"Group chats generated by bench/retrieval/generate_chat.py (seed {seed}): {len(conversations)} "
        f"conversations, {turns} turns, {len(questions)} questions."
    )
    return {"about": about, "conversations": conversations, "questions": questions}


def main() -> None:
    write(generate(), OUT)


if __name__ == "__main__":
    main()
