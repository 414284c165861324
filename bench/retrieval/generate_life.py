"""A sixth retrieval benchmark: two friends' long chats about their lives (life.json).

Written by the Mnemo team for this repository (no outside data; the repository's licence) after
the five other sets had been read; nothing is fitted on it. It was read once, as search ships
(``holdout.py --dataset life``, 2026-11-27), to judge a candidate search rule; a choice made after
looking at it makes it a tuning set.

How it differs from the five others: it is modelled on public long-conversation benchmarks (two
people chatting over months), which the others imitate least.

- **Two friends per conversation**: 10 conversations, one namespace each, 18 to 28 dated sessions
  days to weeks apart, 300 to 650 speaker-prefixed turns ("Name: text"). Both friends talk about
  their own lives: jobs, homes, a relative, a hobby, a trip, and three of a pet, a book, a race
  they train for, a big purchase and evening language classes.
- **Long turns**: most are 15 to 45 words with several clauses; a fact comes wrapped in chatter
  ("Oh nice! By the way, I finally adopted a rescue lurcher last Saturday, we named her Crouton,
  and she already hates the hoover."), sometimes two facts of one friend share a turn, and the
  filler turns are long too (reactions, opinions, questions back), many with the facts' topic
  words ("trip", "book", "training", "the flat": keyword traps); the other friend often answers a
  fact by echoing its rare word.
- **Relative dates**: events are dated relative to the session ("last Saturday", "two weeks ago",
  "next month", "yesterday"), some absolutely ("on 14 May"); a temporal question asks when
  ("When did Ximena adopt the rescue lurcher?"), its evidence is the turn.
- **Knowledge updates**: per conversation one friend changes jobs and the other moves town (first
  said in the first third of the sessions, changed in the last third, the later turn not naming
  the old value); the question asks the current value, the evidence is the later turn only; a
  multi-hop history question holds both.
- Question types as holdout.TYPES: single-hop, multi-hop (a relative named in one session and
  their news in another, the same attribute of both friends, an update's history), temporal,
  open-domain (inferences), knowledge-update, preference, and never stored (``adversarial``, no
  evidence; ``never``: "never said"; "other friend's", an attribute only the other friend has,
  asked with the other friend's words; "nearby attribute", an unstated attribute of a stored
  thing). Half the questions of each type are in the turn's words and half paraphrased (no shared
  content word but names); open-domain ones are inferences, worded apart.

Names, places, pets, companies and titles are disjoint from the five other sets (a test checks
both ways). Seeded and deterministic (sha256 printed).

    .venv/bin/python -m bench.retrieval.generate_life
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from bench.retrieval.generated import halves, write

OUT = Path(__file__).with_name("life.json")
SEED = 6027
CONVERSATIONS = 10
#: questions per conversation and type (10 conversations: 500 in all)
PER_CONVERSATION = {"single-hop": 12, "multi-hop": 6, "temporal": 7, "open-domain": 6, "knowledge-update": 4,
                    "preference": 4}  # fmt: skip
NEVER_KINDS = {"never said": 4, "other friend's": 4, "nearby attribute": 3}
EXTRAS = ["pet", "book", "fitness", "purchase", "language"]  # each friend has three; the two miss different ones

NAMES = ["Ximena", "Anatole", "Brigida", "Dashiell", "Eulalia", "Fitzroy", "Genoveva", "Hollis", "Isadora", "Jolyon",
         "Kerensa", "Mordecai", "Nerys", "Ozias", "Paloma", "Quintus", "Rosamund", "Tamsin", "Ulrika", "Vaughan",
         "Winifred", "Zebedee"]  # fmt: skip
FEMALE = ["Agathe", "Blodwen", "Carys", "Dulcie", "Eira", "Ffion", "Honorine", "Imelda", "Jessamy", "Kinga",
          "Lowenna", "Mireille"]  # fmt: skip
MALE = ["Achille", "Bertrand", "Cyprian", "Dunstan", "Emrys", "Fergal", "Godric", "Hamish", "Ivo", "Jethro",
        "Leofric", "Mungo"]  # fmt: skip
# (relation in the turns, paraphrase, the names it takes)
RELATIONS = [("little sister", "younger sibling", FEMALE), ("older brother", "elder sibling", MALE),
             ("nan", "grandmother", FEMALE), ("grandad", "grandfather", MALE), ("aunt", "parent's sister", FEMALE),
             ("uncle", "parent's brother", MALE), ("stepdad", "mother's husband", MALE),
             ("goddaughter", "godchild", FEMALE)]  # fmt: skip
PET_NAMES = ["Crouton", "Tapioca", "Bobbin", "Sixpence", "Pikelet", "Pompom", "Thimble", "Kipper", "Conker",
             "Porridge", "Tuppence", "Bagel", "Dumpy", "Wotsit", "Flapjack", "Jellybean", "Gingernut", "Pilchard",
             "Mothball", "Sprout", "Bonbon", "Teacake"]  # fmt: skip
# (species in the turns, paraphrase, open-domain question)
PETS = [("rescue lurcher", "dog", "Does {n} need to take an animal out for walks every day?"),
        ("Maine Coon kitten", "cat", "Does {n} need a litter tray at home now?"),
        ("lop-eared rabbit", "bunny", "Does {n} have to buy hay for a pet?"),
        ("corn snake", "reptile", "Does {n} keep an animal that needs a heat lamp?"),
        ("zebra finch", "bird", "Does {n} have a pet that lives in a cage and chirps?"),
        ("bearded dragon", "lizard", "Does {n} have to buy live crickets to feed a pet?"),
        ("springer spaniel puppy", "dog", "Will {n} be house-training an animal this spring?"),
        ("tortoise", "shelled pet", "Will {n}'s pet hibernate through the winter?")]  # fmt: skip
# (employer, role, open-domain question about the role)
EMPLOYERS = [("Glasswing Ferries", "deckhand on the night crossings", "Does {n} spend working hours at sea?"),
             ("Heronsgate Opticians", "optometrist", "Does {n} test people's eyesight for a living?"),
             ("Kilnworth Ceramics", "glaze technician", "Does {n} work with clay and kilns?"),
             ("Larchfield Veterinary", "veterinary nurse", "Does {n} look after sick animals at work?"),
             ("Millbrook Observatory", "outreach astronomer", "Does {n} show people the night sky for a living?"),
             ("Nettlebed Press", "copy editor", "Does {n} correct manuscripts for a living?"),
             ("Quayside Theatre Company", "stage manager", "Does {n} often work evenings during performances?"),
             ("Redshank Cycles", "bike mechanic", "Could {n} fix a broken bicycle chain?"),
             ("Sallowfield Hospice", "palliative care nurse", "Does {n} work in healthcare?"),
             ("Tumbledown Brewery", "head brewer", "Does {n} make beer for a living?"),
             ("Umberleigh Surveys", "land surveyor", "Does {n} spend much of the working day outdoors?"),
             ("Vosper Marine", "boat electrician", "Does {n} repair wiring on vessels?"),
             ("Yarrowby Garden Centre", "plant buyer", "Does {n} choose which plants a shop sells?"),
             ("Coldharbour Games", "level designer", "Does {n} work in the video game industry?"),
             ("Elderflower Catering", "pastry chef", "Does {n} bake desserts professionally?"),
             ("Greystoke Museum", "conservator", "Does {n} restore old objects at work?"),
             ("Pendle Radio", "breakfast show producer", "Does {n} have to get up very early for work?"),
             ("Cinderford Library", "archivist", "Does {n} look after old records at work?"),
             ("Ospreyhead Zoo", "keeper in the reptile house", "Does {n} care for snakes and lizards at work?"),
             ("Halloway Orchards", "cider maker", "Does {n} press apples for a living?")]  # fmt: skip
TOWNS = ["Tobermory", "Whitstable", "Aberaeron", "Hebden Bridge", "Lyme Regis", "Ullapool", "Penzance", "Llandudno",
         "Keswick", "Frome", "Totnes", "Saltburn", "Whitby", "Alnwick", "Ludlow", "Hexham", "Stromness", "Tenby",
         "Padstow", "Oban", "Dornoch", "Buxton", "Matlock", "Sedbergh", "Kendal", "Clitheroe", "Barmouth",
         "Aldeburgh", "Portree", "Kirkcudbright"]  # fmt: skip
# (destination, open-domain question)
DESTINATIONS = [("the Tatras", "Will {n} be walking in the mountains on holiday?"),
                ("Zermatt", "Might {n} see the Matterhorn while away?"),
                ("Ischia", "Is {n} holidaying on an island in the Bay of Naples?"),
                ("Hvar", "Will {n} be on the Croatian coast?"),
                ("Sintra", "Will {n} be near Lisbon while away?"),
                ("Gozo", "Is {n} going somewhere in the Maltese islands?"),
                ("Chefchaouen", "Is {n} travelling to North Africa?"),
                ("Luang Prabang", "Will {n} be in Laos?"),
                ("Kotor", "Is {n} visiting the Balkans?"),
                ("Annecy", "Will {n} be in France?"),
                ("Lucca", "Is {n} going to Tuscany?"),
                ("Naxos", "Will {n} be in the Greek islands?"),
                ("Evora", "Is {n} heading to Portugal?"),
                ("Ronda", "Is {n} going to Spain?"),
                ("Lake Ohrid", "Will {n} be in North Macedonia?"),
                ("Kampot", "Will {n} be in Cambodia?"),
                ("Colmar", "Will {n} be in the Alsace wine country?"),
                ("the Cinque Terre", "Will {n} be on the Italian Riviera?"),
                ("Sapa", "Will {n} be in northern Vietnam?"),
                ("Mostar", "Is {n} visiting Bosnia?")]  # fmt: skip
# (title, author, what it is, open-domain question)
BOOKS = [("Nine Lanterns for Odile", "Berenice Vautrin", "a murder mystery", "Is {n} reading a whodunnit?"),
         ("The Kelp Harvesters", "Rhodri Penhaligon", "a family saga", "Is {n}'s current book about several "
          "generations of one family?"),
         ("Copper Sky, Iron Rain", "Tomasz Wierzbicki", "science fiction", "Is {n} reading something set in the "
          "future?"),
         ("The Apiarist's Almanac", "Hester Quayle", "a non-fiction book about bees", "Is {n} reading a novel?"),
         ("Whalebone Road", "Sunniva Aalto", "a ghost story", "Is {n}'s current book meant to be scary?"),
         ("A Ledger of Small Mercies", "Ottavio Brandt", "a memoir", "Is {n} reading about someone's real life?"),
         ("The Drowned Bell", "Maelle Trouvain", "a fantasy epic", "Does {n}'s current book have magic in it?"),
         ("Hands Like Weather", "Lucinda Mulvey-Hart", "a love story", "Is {n} reading a romance?"),
         ("The Salt Road to Samarkand", "Ferdinand Okonjo", "a travel history",
          "Is {n} reading about old trade routes?")]  # fmt: skip
# (goal, paraphrase, open-domain question)
FITNESS = [("a half marathon", "21-kilometre road race", "Is {n} training for a running race?"),
           ("a hundred-mile sportive", "long-distance cycling ride", "Is {n} doing most of the training on a bike?"),
           ("an open-water swim across the loch", "long outdoor swim", "Will {n} need a wetsuit for the event?"),
           ("a sprint triathlon", "three-sport race", "Does {n} need to practise swimming, cycling and running?"),
           ("a fell race", "hill run", "Will {n}'s event involve running up steep slopes?"),
           ("a charity rowing challenge", "fundraising paddle", "Will {n} be in a boat for the event?")]  # fmt: skip
# (item, paraphrase, open-domain question)
PURCHASES = [("secondhand cargo bike", "load-carrying bicycle", "Can {n} carry the weekly shop on two wheels now?"),
             ("upright piano", "musical instrument", "Does {n} have an instrument at home to practise on?"),
             ("inflatable kayak", "boat", "Could {n} go paddling on the river now?"),
             ("sewing machine", "stitching appliance", "Could {n} hem a pair of trousers at home?"),
             ("wood-fired pizza oven", "outdoor oven", "Could {n} cook a pizza in the garden?"),
             ("vintage turntable", "record player", "Can {n} play vinyl at home?"),
             ("standing desk", "adjustable workstation", "Can {n} work on their feet at home?"),
             ("rowing machine", "exercise equipment", "Can {n} work out at home?")]  # fmt: skip
# (language, open-domain question)
LANGUAGES = [("Welsh", "Is {n} learning a Celtic language?"),
             ("Japanese", "Is {n} learning to read kanji?"),
             ("Portuguese", "Is {n} learning the language spoken in Brazil?"),
             ("British Sign Language", "Is {n} learning a language you speak with your hands?"),
             ("Finnish", "Is {n} learning the language spoken in Helsinki?"),
             ("Swahili", "Is {n} learning a language spoken in East Africa?"),
             ("Greek", "Is {n} learning a language with its own alphabet?"),
             ("Dutch", "Is {n} learning the language spoken in Amsterdam?")]  # fmt: skip
# (hobby, open-domain question)
HOBBIES = [("bouldering", "Does {n} spend evenings on a climbing wall?"),
           ("pottery", "Is {n} learning to shape clay on a wheel?"),
           ("beekeeping", "Will {n} have honey to give away this year?"),
           ("life drawing", "Does {n} sketch people in a studio?"),
           ("woodturning", "Does {n} use a lathe for fun?"),
           ("bookbinding", "Could {n} stitch together a handmade notebook?"),
           ("salsa dancing", "Does {n} go out dancing in the evenings?"),
           ("fencing", "Does {n} practise a sport with swords?"),
           ("archery", "Does {n} shoot arrows at targets for fun?"),
           ("bell ringing", "Does {n} spend time up church towers?"),
           ("roller derby", "Does {n} play a contact sport on skates?"),
           ("juggling", "Can {n} keep several balls in the air?")]  # fmt: skip
# (direct turn, indirect turn, (preference question in the turns' words, paraphrased), open-domain question)
PREFERENCES = [
    ("I'm a proper morning person, I'm up at six even on Sundays and completely useless after ten at night",
     "Anything after ten at night and I'm asleep on the sofa, honestly, but give me six in the morning and I'm "
     "the happiest person alive", ("Is {n} a morning person?", "At what time of day is {n} most alert?"),
     "Would {n} enjoy a film screening that starts at midnight?"),
    ("I can't stand coriander, it tastes exactly like soap to me, so I pick it out of everything I order",
     "Please never let me order that green curry again, the coriander in it ruined the whole thing for me",
     ("Does {n} like coriander?", "Which herb does {n} find revolting?"),
     "Would {n} enjoy a salsa heaped with fresh cilantro?"),
    ("I'd always pick a quiet cabin in the woods over a busy beach resort, crowds just drain me",
     "Honestly give me a little cabin with no signal and a wood stove over a packed beach resort any day",
     ("Does {n} prefer a quiet cabin or a busy beach resort?", "What kind of getaway suits {n} best?"),
     "Would {n} enjoy an all-inclusive party hotel?"),
    ("I'd much rather text than talk on the phone, a ringing phone fills me with actual dread",
     "Don't ring me, I beg you, just send a message, phone calls make me so anxious for some reason",
     ("Does {n} prefer texting or phone calls?", "How does {n} like friends to get in touch?"),
     "Would {n} appreciate a surprise video call?"),
    ("These days I prefer audiobooks to paper books, I get through so many more of them on long walks",
     "I've basically stopped reading on paper, I just listen to audiobooks while I'm out walking",
     ("Does {n} prefer audiobooks or paper books?", "In which format does {n} like to take in a story?"),
     "Would {n} be thrilled with a stack of hardbacks as a present?"),
    ("The spicier the food, the happier I am, I put chilli oil on basically everything including eggs",
     "I asked for extra chilli again and the waiter looked genuinely worried, but honestly it was still too mild",
     ("Does {n} like spicy food?", "How much heat does {n} want in a meal?"),
     "Would {n} enjoy the hottest curry on the menu?"),
    ("I always book an aisle seat, I can't bear being trapped by the window on a long flight",
     "Aisle seat or I'm not getting on the plane, I need to be able to get up without climbing over strangers",
     ("Does {n} book an aisle seat or a window seat?", "Where does {n} like to sit when flying?"),
     "Would {n} be happy wedged by the window on a twelve-hour flight?"),
    ("I'm strictly a tea drinker, coffee makes my hands shake and my heart race",
     "No coffee for me, thanks, I'll stick to a pot of tea, the last flat white had me jittery for hours",
     ("Does {n} drink tea or coffee?", "Which hot drink does {n} choose?"),
     "Should {n} be offered an espresso after dinner?"),
    ("I'd take a crisp cold winter over a heatwave any day, I'm useless when it's hot",
     "Everyone else is moaning about the frost and I'm secretly delighted, summer heat just flattens me",
     ("Does {n} prefer cold winters or heatwaves?", "Which kind of weather does {n} like best?"),
     "Would {n} enjoy a summer holiday in the desert?"),
]  # fmt: skip

# the facts' turns, in the owner's own words ({w}: when, relative to the session or absolute)
JOB = [
    "I've been working at {e} as a {role} for {y} years now, and most days I still like it, which feels rare",
    "Work is fine, I'm still at {e}, still the {role}, still arguing about the rota every single week",
    "You know I've been at {e} for {y} years, right? Being the {role} there is the only job I've kept this long",
]
JOB_CHANGE = [
    "Big news, I started at {e2} {w}, I'm the {role2} there now and my new boss actually answers emails",
    "So I officially started at {e2} {w}, as their {role2}, and the first week was chaos but good chaos",
    "I started at {e2} {w}! {role2c} is a completely different world, I'm exhausted and weirdly happy",
]
HOME = [
    "My flat in {c} is tiny but you can hear the sea from the bedroom, so I forgive it the damp",
    "The flat in {c} is freezing again, the landlord says the boiler is fine, the boiler is not fine",
    "I love my flat in {c} but the walk up the hill with the shopping is slowly killing me",
]
MOVE = [
    "We got the keys to the new place in {c2} {w}, there are boxes everywhere and I can't find a single spoon",
    "We got the keys to the new place in {c2} {w} and I sat on the kitchen floor eating chips, it was perfect",
    "We finally got the keys to the new place in {c2} {w}, the garden is a jungle but it's ours",
]
RELATIVE = [
    "My {rel} {r} is coming to stay {w}, so the spare room finally has to be cleared of all my junk",
    "My {rel} {r} is coming to stay {w}, and I've promised to cook, so pray for both of us",
    "Guess who is coming to stay {w}? My {rel} {r}, with about nine suitcases if last time is anything to go by",
]
# (the relative's news, said by name only, in another session; (question in the turns' words, paraphrased))
NEWS = [("{r} rang me {w}: the allotment committee finally gave {r} a plot, so expect a lot of courgettes",
         ("What did {n}'s {rel} get from the allotment committee?", "What did {n}'s {relp} receive for growing "
          "vegetables?")),
        ("{r} passed the driving test {w}, on the fourth attempt, and immediately drove to the seaside for chips",
         ("How many attempts did {n}'s {rel} need to pass the driving test?", "How many tries did it take {n}'s "
          "{relp} to get a licence?")),
        ("{r} sang the solo in the spring concert of the community choir {w}, and I cried through the whole thing",
         ("What did {n}'s {rel} sing in the spring concert?", "Which part did {n}'s {relp} perform at the recent "
          "show?")),
        ("{r} signed the lease on a little shop {w} and is going to open a bakery, which explains all the scones",
         ("What is {n}'s {rel} going to open in the shop?", "What kind of business is {n}'s {relp} starting?")),
        ("{r} broke a wrist at the ice rink {w}, showing off to a group of teenagers, so that's going well",
         ("What did {n}'s {rel} break at the ice rink?", "Which injury did {n}'s {relp} suffer?")),
        ("{r} finally retired from the post office {w} after thirty-one years, there was cake and a lot of crying",
         ("Where did {n}'s {rel} retire from?", "Which workplace did {n}'s {relp} leave after three decades?")),
        ("{r} is learning to fly gliders at the airfield, started {w}, and now talks about thermals constantly",
         ("What is {n}'s {rel} learning to fly?", "Which aircraft is {n}'s {relp} training to pilot?"))]  # fmt: skip
HOBBY = [
    "I took up {h} {w}, on a whim really, and I'm already annoyingly obsessed with it",
    "I took up {h} {w}, my arms ache in places I didn't know I had, but I'm hooked",
    "Did I tell you I took up {h} {w}? Everyone there is about seventy and much better than me",
]
TRIP = [
    "The trip to {d} is booked, we go {w}, and I've already made a spreadsheet, don't laugh",
    "We're doing the trip to {d} {w}, finally, after talking about it for three years",
    "I booked the trip to {d}! We fly out {w}, cheap flights, a tiny room, and no plans at all, which is the plan",
]
PET = [
    "I finally adopted a {s} {w}, we named her {x}, and she already hates the hoover",
    "We adopted a {s} {w}! Her name is {x} and she has taken over the armchair completely",
    "So there's news: I adopted a {s} {w}, she's called {x}, and I have not slept properly since",
]
BOOK = [
    "I'm halfway through {t} by {au}, it's {g} and I keep staying up far too late with it",
    "Halfway through {t} by {au} at the moment, it's {g}, and honestly the best thing I've read all year",
]
TRAINING = [
    "I'm training for {goal} {w}, so if I go quiet it's because I'm asleep by nine",
    "I'm training for {goal}, it's {w}, and my knees have started filing formal complaints",
    "I signed us up, well, me, I'm training for {goal} {w}, what was I thinking",
]
PURCHASE = [
    "I finally bought {an} {item} {w}, it takes up half the room and I regret nothing",
    "I finally bought {an} {item} {w}, after months of staring at adverts for them",
]
LANGUAGE = [
    "I started evening classes in {lang} {w}, the teacher is lovely and I'm the worst in the room",
    "I started evening classes in {lang} {w}, Tuesdays and Thursdays, my brain hurts in a good way",
]
FACT_BEFORE = ["Oh nice! By the way, ", "Speaking of news, ", "Okay, update from my end: ", "Totally unrelated, but ",
               "Before I forget, ", "Right, my news: ", "Ha, brilliant. Anyway, ", "Oh, and ", ""]  # fmt: skip
FACT_AFTER = [" Anyway, enough about me, how are you?", " Life is chaos, as usual.", " Tell me something normal.",
              " I'll send photos later.", " Wish me luck, honestly.", "", "", ""]  # fmt: skip
LEADS = ("So ", "Big news", "Guess who", "Did I tell", "Okay")  # turns that open with their own lead-in
JOIN = [". Oh, and also, ", ". And while I'm at it: ", ". Also, completely separate thing, "]
# the other friend's reply to a fact, echoing its rare word
ECHO = ["{w}? That's perfect, I need to hear absolutely everything about it next time we get a coffee",
        "Oh wow, {w}! I did not see that coming at all, but it honestly suits you so well",
        "Hold on, {w}? You kept that very quiet, I'm so pleased for you, genuinely",
        "{w} sounds amazing, send me photos, I mean it, loads and loads of photos please",
        "Ha, {w}, of course. Keep me posted on how it goes, I'm living through you at the moment",
        "Wait, {w}? I love that so much, we have to celebrate properly when I see you"]  # fmt: skip

OPENERS = ["Ha, that's brilliant.", "Oh no, that sounds exhausting.", "Honestly, same here.", "Aw, I love that.",
           "Wait, really?", "That's so you, I swear.", "Oh, good for you!", "Ugh, I know the feeling.", "No way!",
           "Right, fair enough.", "Sorry, I was miles away just now.", "Haha, you're ridiculous.",
           "That's lovely to hear.", "Hmm, I'm not sure about that one.", "Oh, that made me laugh out loud.",
           "You always say that!", "Okay, that's actually impressive.", "", "", ""]  # fmt: skip
BODIES = [
    "Work has been mad this week, my manager keeps moving meetings around and I haven't had a proper lunch break "
    "since Monday",
    "I keep looking at trips online and then closing the tab the second I see the prices, maybe next year",
    "I spent most of Tuesday evening trying to fix the washing machine and ended up just watching videos about it",
    "The flat smells of toast permanently now, I don't know how, I haven't even made toast this week",
    "My neighbour's dog barked at the postman for twenty minutes this morning, it's like an alarm clock I never set",
    "I started three books this month and finished none of them, my attention span is in pieces",
    "I was meant to go for a run yesterday but it rained sideways so I made soup instead, which counts as training",
    "Family group chat is on fire again because someone forgot someone's birthday, I'm staying well out of it",
    "The bus was forty minutes late and then two came at once, as if they'd planned it together",
    "I've been sleeping terribly, I think it's the heat, or the streetlight, or just my brain refusing to switch off",
    "I had the most ridiculous dream that I was back at school and had forgotten to learn my lines for a play",
    "Did you see the sunset last night? I stood in the road like an idiot taking pictures of it",
    "My plants are dying again, I think I'm either drowning them or ignoring them, there's no middle ground",
    "The trip to the tip with the old mattress took all Saturday morning, what a glamorous life I lead",
    "I've been trying to cook one new thing every week, this week it was a pie and it collapsed spectacularly",
    "Someone at work brought in a cake for no reason at all and it honestly made my whole day",
    "I keep meaning to clear out the cupboard under the stairs but every time I open it I close it again",
    "My phone screen cracked again, same corner as last time, I clearly drop it in exactly the same way",
    "I went to that little market by the station and came home with three kinds of cheese and no vegetables",
    "My back has been sore all week, I think it's the chair, or my posture, or being over thirty",
    "Our street had a power cut on Sunday and everyone came out and talked to each other, it was weirdly nice",
    "I tried to do a jigsaw to relax and it did the exact opposite, one piece is missing and I'm furious",
    "I finally watched that series everyone kept telling me about and I'm annoyed at how good it is",
    "The gym was so packed this week I just walked in, looked around, and walked straight back out",
    "I've started writing a list every morning, mostly so I can enjoy crossing things off by lunchtime",
    "We had friends over for dinner and I burned the rice, the potatoes and very nearly my eyebrows",
    "There's a new bakery on the corner and I've been in every single day this week, it's becoming a problem",
    "I had to ring the bank and was on hold for an hour listening to the same four bars of music",
    "My sister keeps sending me videos of cats falling off things and I've watched every single one",
    "I spent the whole weekend doing absolutely nothing and I refuse to feel guilty about it",
    "The holiday planning group chat has seventy unread messages and I'm scared to open it",
    "I tried a new class at the leisure centre and I was so bad the instructor kept smiling at me kindly",
    "I cleaned the oven for the first time in two years and I'm not going to tell you what I found",
    "My brother borrowed my drill in the spring and I'm fairly sure I'm never seeing it again",
    "I found an old box of photos from when we were at school and the haircuts are unforgivable",
    "I got caught in the rain without a coat on the way home and arrived looking like a drowned cat",
    "I've been walking to work instead of getting the bus and I feel very smug about it, for now",
    "I finally sorted out my sock drawer, which is the most adult thing I've done all month",
    "The neighbours are having their kitchen redone and the drilling starts at eight every morning",
    "I bought a new pan and now I want to cook everything in it, even things that shouldn't go in a pan",
    "A friend from work is leaving and we've been arguing for days about what to put in the card",
    "I keep saying I'll get up early and go for a swim and then I keep hitting snooze instead",
    "I went to a quiz night and we came second to last, which is honestly our best result ever",
    "My landlord finally fixed the window, only took four months and nine very polite emails",
    "I watched a documentary about octopuses and now I can't stop telling people facts about them",
    "I'm trying to drink more water and less wine, it's going about as well as you'd expect",
    "Some days I think about moving somewhere completely new and starting over, then I remember packing",
    "I lost my keys for the third time this month and found them in the fridge, don't ask",
    "The training at work this week was three hours of slides I could have read in ten minutes",
    "I'm reading the same page of my book every night because I fall asleep before the end of it",
    "I helped my mum set up her new phone and it took the entire afternoon and most of my patience",
    "The cat next door has started sitting on my windowsill every morning judging me while I eat cereal",
    "I promised myself a quiet evening and ended up reorganising every shelf in the kitchen until midnight",
    "I tried to learn a card trick from a video and I can now confidently lose any card you choose",
    "The weather can't decide what season it is, I've worn a coat and sunglasses on the same day",
    "My job has been all spreadsheets this week, I dream in little grey boxes now",
    "I'm thinking about getting a bike but I'm worried it'll just live in the hallway as a coat stand",
    "I walked past our old café and it's a phone shop now, I actually felt sad for a minute",
    "I've been trying to stay off my phone in the evenings and I've read more, slept better, and felt bored",
    "A parcel came for someone who doesn't live here and I've been its guardian for a week now",
]  # fmt: skip
CLOSERS = ["What about you, how's your week been?", "Anyway, tell me everything when we next meet up.",
           "Let me know what you think.", "Right, I should probably go and make dinner.", "Talk later?",
           "How are things at your end?", "Are you around at the weekend?", "You'd have laughed, honestly.",
           "Is that normal, do you think?", "Anyway, that's my thrilling news.", "", "", "", ""]  # fmt: skip
QUESTIONS_BACK = [
    "How's the new job treating you, still enjoying it?",
    "How's the family doing, all well?",
    "Any more thoughts about the trip, or are you still deciding?",
    "Did you ever finish that book?",
    "How's the training going, are your legs still attached?",
    "How's the flat, still freezing?",
    "Have you heard anything from your landlord yet?",
    "Are you still doing that class on Thursdays?",
    "What are you up to this weekend, anything fun?",
    "How did the thing at work go in the end?",
]
# fmt: skip

# questions: (in the turns' words, paraphrased)
SINGLE = {
    "job": ("Where has {n} been working?", "Which company employs {n}?"),
    "home": ("Where is {n}'s flat?", "In which town does {n} reside?"),
    "relative": ("What is the name of {n}'s {rel}?", "What is {n}'s {relp} called?"),
    "hobby": ("What did {n} take up?", "Which new pastime has {n} started?"),
    "trip": ("Where is {n}'s trip to?", "Which destination will {n} be visiting?"),
    "pet": ("What did {n} name the {s}?", "What is {n}'s new {animal} called?"),
    "book": ("Which book is {n} halfway through?", "What title has {n} got on the go?"),
    "author": ("Who wrote the book {n} is halfway through?", "Who is the author of {n}'s current read?"),
    "fitness": ("What is {n} training for?", "Which athletic event is {n} preparing for?"),
    "purchase": ("What did {n} finally buy?", "Which big purchase did {n} make recently?"),
    "language": ("Which evening classes did {n} start?", "What tongue is {n} studying?"),
}
BEFORE = {
    "job": ("Where has {n} been working before starting at the new job?", "Which firm employed {n} previously?"),
    "home": ("Where was {n}'s flat before the new place?", "In which town did {n} reside previously?"),
}
UPDATE = {
    "job": [("Where did {n} start working?", "Who employs {n} at present?"),
            ("What is {n}'s job at {e2}?", "What role does {n} hold with the latest employer?")],
    "home": [("Where did {n} get the keys to the new place?", "In which town does {n} reside at present?"),
             ("Where is {n}'s new place?", "To which town did {n} relocate?")],
}  # fmt: skip
HISTORY = {
    "job": ("Where has {n} been working, and where did {n} start working?", "Which firms have employed {n}?"),
    "home": ("Where was {n}'s flat, and where did {n} get the keys to the new place?",
             "Which towns has {n} resided in?"),
}  # fmt: skip
AGGREGATE = {
    "hobby": ("What did {a} and {b} each take up?", "Which new pastimes have {a} and {b} started?"),
    "trip": ("Where are the trips of {a} and {b} to?", "Which destinations will {a} and {b} be visiting?"),
    "pet": ("What did {a} and {b} each name the animals they adopted?", "What are the pets of {a} and {b} called?"),
    "book": ("Which books are {a} and {b} halfway through?", "What titles have {a} and {b} got on the go?"),
    "fitness": ("What are {a} and {b} each training for?", "Which athletic events are {a} and {b} preparing for?"),
    "purchase": ("What did {a} and {b} each finally buy?", "Which big purchases did {a} and {b} make recently?"),
    "language": ("Which evening classes did {a} and {b} each start?", "What tongues are {a} and {b} studying?"),
}
TEMPORAL = {
    "job:2": ("When did {n} start at {e2}?", "When did {n} change employers?"),
    "home:2": ("When did {n} get the keys to the new place in {c2}?", "When did {n} relocate?"),
    "relative": ("When is {n}'s {rel} coming to stay?", "When will {n}'s {relp} visit?"),
    "hobby": ("When did {n} take up {h}?", "When did {n} begin the new pastime?"),
    "trip": ("When is {n}'s trip to {d}?", "On what dates will {n} be away in {d}?"),
    "pet": ("When did {n} adopt the {s}?", "On what date did the {animal} join {n}'s household?"),
    "fitness": ("When is the event {n} is training for?", "On what date is {n}'s upcoming {goalp}?"),
    "purchase": ("When did {n} finally buy the {item}?", "On what date did {n} get the {itemp}?"),
    "language": ("When did {n} start evening classes in {lang}?", "On what date did {n} begin studying {lang}?"),
}
NEVER_SAID = [("What is {n}'s favourite football club?", "Which soccer side does {n} support?"),
              ("Where did {n} go to university?", "Which college did {n} study at?"),
              ("What is {n}'s star sign?", "Under which zodiac sign was {n} born?"),
              ("Which band did {n} last see live?", "What was the most recent gig {n} attended?"),
              ("What is {n}'s blood type?", "Which blood group does {n} have?"),
              ("Which podcast is {n} hooked on?", "What audio show does {n} never miss?"),
              ("What colour is {n}'s front door?", "How is the entrance of {n}'s home painted?"),
              ("Where did {n} have a birthday dinner?", "Which restaurant hosted {n}'s celebration of turning a "
               "year older?"),
              ("How many cousins does {n} have?", "How big is {n}'s extended family?")]  # fmt: skip
# (the attribute the friend must have, (in the turns' words, paraphrased))
NEARBY = [("pet", ("How old is {n}'s {s}?", "What age is {n}'s {animal}?")),
          ("job", ("How long is {n}'s commute to {e}?", "How far does {n} travel to get to the workplace?")),
          ("trip", ("Which airline is {n} flying with to {d}?", "Which carrier is taking {n} on the journey?")),
          ("relative", ("How old is {n}'s {rel}?", "What age is {n}'s {relp}?")),
          ("purchase", ("How much did {n} pay for the {item}?", "What did {n}'s new {itemp} cost?")),
          ("hobby", ("Who teaches {n}'s {h} class?", "Who is {n}'s instructor at the new pastime?")),
          ("book", ("Who lent {n} the copy of {t}?", "From whom did {n} borrow the volume?"))]  # fmt: skip
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]  # fmt: skip
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def when(rng: random.Random, day: date, future: bool) -> str:
    """An event's date as the speaker says it on ``day``: relative mostly, absolute at times."""
    if rng.random() < 0.2:  # absolute
        offset = rng.randint(3, 60) if future else -rng.randint(2, 40)
        d = day + timedelta(days=offset)
        return f"on {d.day} {MONTHS[d.month - 1]}"
    if future:
        forms = ["tomorrow", "next month", "in three weeks", "the weekend after next", "in a fortnight",
                 "at the end of next month", "in two months", f"next {rng.choice(WEEKDAYS[4:])}"]  # fmt: skip
    else:
        forms = ["yesterday", "last weekend", "two weeks ago", "three days ago", "the day before yesterday",
                 "a fortnight ago", "last month", f"last {rng.choice(WEEKDAYS[5:])}",
                 f"on {WEEKDAYS[(day.weekday() - rng.randint(2, 5)) % 7]}"]  # fmt: skip
    return rng.choice(forms)


def lower_first(text: str) -> str:
    """``text`` to follow other words: its first letter in lower case unless it begins "I" or a name."""
    word = text.split()[0]
    if word == "I" or word.startswith("I'") or word.split("'")[0].rstrip(",:") in (*FEMALE, *MALE):
        return text
    return text[0].lower() + text[1:]


def wrap(rng: random.Random, text: str) -> str:
    """A fact's turn in other talk: maybe a lead-in before it and some chatter after it."""
    before = "" if text.startswith(LEADS) else rng.choice(FACT_BEFORE)
    text = before + lower_first(text) if before else text
    text = text[0].upper() + text[1:]
    return text if text.endswith(("?", "!")) else text.rstrip(".") + "." + rng.choice(FACT_AFTER)


def filler(rng: random.Random) -> str:
    """A long turn that states nothing asked: a reaction, some life chatter, maybe a question back."""
    parts = [rng.choice(OPENERS), rng.choice(BODIES) + rng.choice([".", "!", ", honestly.", "."])]
    tail = rng.random()
    if tail < 0.3:
        parts.append(rng.choice(QUESTIONS_BACK))
    elif tail < 0.75:
        parts.append(rng.choice(CLOSERS))
    return " ".join(p for p in parts if p)


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    conversations: list[dict[str, Any]] = []
    questions: list[dict[str, Any]] = []
    names = rng.sample(NAMES, 2 * CONVERSATIONS)
    towns = rng.sample(TOWNS, 3 * CONVERSATIONS)
    pet_names = rng.sample(PET_NAMES, len(PET_NAMES))
    for k in range(CONVERSATIONS):
        cid = f"f{k}"
        friends = names[2 * k : 2 * k + 2]
        n_sessions = rng.randint(18, 28)
        start = date(2026, 2, 1) + timedelta(days=rng.randint(0, 60))
        days = [start]
        for _ in range(n_sessions - 1):
            days.append(days[-1] + timedelta(days=rng.randint(3, 13)))
        early, late = range(0, n_sessions // 3), range(2 * n_sessions // 3, n_sessions)
        first_half, second_half = range(0, n_sessions // 2), range(n_sessions // 2, n_sessions)
        anywhere = range(n_sessions)
        # planned[d]: blocks of (speaker, text (with {w} to fill with the session's date), future, key, echo)
        planned: dict[int, list[list[tuple[Any, ...]]]] = {d: [] for d in anywhere}

        def say(days_: range, who: str, text: str, key: str, future: bool = False, echo: str = "",
                planned: dict = planned, friends: list = friends) -> None:  # fmt: skip
            """A fact's turn on one of ``days_`` and maybe the other friend's reply echoing ``echo``."""
            block = [(who, text, future, key, "")]
            if echo and rng.random() < 0.5:
                block.append((friends[1 - friends.index(who)], rng.choice(ECHO), False, "", echo))
            planned[rng.choice(days_)].append(block)

        job_changer = rng.randrange(2)  # the other one moves town
        employers = rng.sample(EMPLOYERS, 3)
        missing = rng.sample(EXTRAS, 4)  # two missing for each friend, none for both
        people: list[dict[str, Any]] = []
        # the two friends' relations, hobbies, trips, pets, ... differ
        lists = (("relation", RELATIONS), ("news", NEWS), ("hobby", HOBBIES), ("trip", DESTINATIONS), ("pet", PETS),
                 ("book", BOOKS), ("fitness", FITNESS), ("purchase", PURCHASES), ("language", LANGUAGES))  # fmt: skip
        two: dict[str, list[Any]] = {x: rng.sample(v, 2) for x, v in lists}
        for i, n in enumerate(friends):
            rel, relp, kin = two["relation"][i]
            taken = [q["r"] for q in people]  # the two friends' relatives have different names
            p: dict[str, Any] = {
                "n": n, "e": employers[i][0], "role": employers[i][1], "job_open": employers[i][2],
                "y": rng.choice(["two", "three", "five", "six", "eight"]), "c": towns[3 * k + i],
                "rel": rel, "relp": relp, "r": rng.choice([r for r in kin if r not in taken]), "news": two["news"][i],
                "hobby": two["hobby"][i],
                "trip": two["trip"][i], "has": [x for x in EXTRAS if x not in missing[2 * i : 2 * i + 2]],
                "pet": two["pet"][i], "x": pet_names.pop(), "book": two["book"][i], "fitness": two["fitness"][i],
                "purchase": two["purchase"][i], "language": two["language"][i],
                "change": "job" if i == job_changer else "home",
            }  # fmt: skip
            if i == job_changer:
                p |= {"e2": employers[2][0], "role2": employers[2][1]}
            else:
                p["c2"] = towns[3 * k + 2]
            p |= {"h": p["hobby"][0], "d": p["trip"][0], "s": p["pet"][0], "animal": p["pet"][1], "t": p["book"][0],
                  "au": p["book"][1], "g": p["book"][2], "goal": p["fitness"][0], "goalp": p["fitness"][1],
                  "item": p["purchase"][0], "itemp": p["purchase"][1], "lang": p["language"][0],
                  "an": "an" if p["purchase"][0][0] in "aeiou" else "a"}  # fmt: skip
            people.append(p)
            ch = p["change"]
            say(early if ch == "job" else anywhere, n, rng.choice(JOB).format(**p), f"job:1:{i}", echo=p["e"])
            say(early if ch == "home" else anywhere, n, rng.choice(HOME).format(**p), f"home:1:{i}", echo=p["c"])
            if ch == "job":
                role2c = p["role2"][0].upper() + p["role2"][1:]
                say(late, n, rng.choice(JOB_CHANGE).format(role2c=role2c, w="{w}", **p), f"job:2:{i}", echo=p["e2"])
            else:
                say(late, n, rng.choice(MOVE).format(w="{w}", **p), f"home:2:{i}", echo=p["c2"])
            say(first_half, n, rng.choice(RELATIVE).format(w="{w}", **p), f"relative:{i}", True, p["r"])
            say(second_half, n, p["news"][0].format(w="{w}", r=p["r"]), f"news:{i}")
            say(anywhere, n, rng.choice(HOBBY).format(w="{w}", **p), f"hobby:{i}")
            say(anywhere, n, rng.choice(TRIP).format(w="{w}", **p), f"trip:{i}", True, p["d"])
            templates = {"pet": PET, "book": BOOK, "fitness": TRAINING, "purchase": PURCHASE, "language": LANGUAGE}
            echoes = {"pet": p["x"], "book": p["t"], "fitness": "", "purchase": "", "language": p["lang"]}
            for x in p["has"]:
                say(anywhere, n, rng.choice(templates[x]).format(w="{w}", **p), f"{x}:{i}", x == "fitness", echoes[x])
        prefs = []
        for j, pref in enumerate(rng.sample(PREFERENCES, 4)):
            who = friends[j % 2]
            prefs.append((who, pref))
            say(anywhere, who, rng.choice(pref[:2]), f"pref:{j}")

        sessions, where = [], {}
        for d, day in enumerate(days):
            blocks = planned[d]
            # two facts of one friend in one session share a turn at times (never an update's turn)
            merged: list[list[tuple[Any, ...]]] = []
            for b in blocks:
                alone = [j for j, m in enumerate(merged) if len(m) == 1 and isinstance(m[0][1], str)
                         and m[0][0] == b[0][0] and ":2:" not in m[0][3]]  # fmt: skip
                if alone and len(b) == 1 and ":2:" not in b[0][3] and rng.random() < 0.6:
                    j = alone[0]
                    (s0, t0, f0, k0, _), (_, t1, f1, k1, _) = merged[j][0], b[0]
                    merged[j] = [(s0, (t0, t1, f0, f1), False, k0 + "|" + k1, "")]
                else:
                    merged.append(b)
            merged += [[("", "", False, "", "")] for _ in range(rng.randint(15, 21))]  # filler, speaker chosen below
            rng.shuffle(merged)
            turns: list[dict[str, str]] = []
            for speaker, text, future, key, echo in (x for b in merged for x in b):
                if not speaker:  # filler: the friend who did not speak last
                    speaker = friends[1 - friends.index(turns[-1]["speaker"])] if turns else rng.choice(friends)
                    text = filler(rng)
                elif isinstance(text, tuple):  # two facts in one turn
                    t0, t1, f0, f1 = text
                    second = t1.format(w=when(rng, day, f1))
                    text = t0.format(w=when(rng, day, f0)).rstrip(".!") + rng.choice(JOIN) + lower_first(second)
                    text = wrap(rng, text)
                elif key:
                    text = wrap(rng, text.format(w=when(rng, day, future)))
                else:  # an echo
                    text = text.format(w=echo)
                tid = f"{cid}:D{d + 1}:{len(turns) + 1}"
                turns.append({"id": tid, "speaker": speaker, "text": text})
                for part in key.split("|") if key else []:
                    where[part] = tid
            sessions.append({"session": d + 1, "date": day.isoformat(), "turns": turns})
        conversations.append({"id": cid, "speakers": friends, "sessions": sessions})

        # candidates: (variants: in the turns' words and paraphrased, or one inference question; evidence; tag)
        pool: dict[str, list[tuple[tuple[str, ...], list[str], str]]] = {t: [] for t in PER_CONVERSATION}

        def ask(kind: str, variants: tuple[str, ...], keys: list[str], pool: dict = pool, where: dict = where,
                tag: str = "", **slots: str) -> None:  # fmt: skip
            """A candidate question with its variants filled in (the wording is chosen when it is kept)."""
            pool[kind].append((tuple(v.format(**slots) for v in variants), [where[x] for x in keys], tag))

        for i, p in enumerate(people):
            ch = p["change"]
            ask("single-hop", BEFORE[ch], [f"{ch}:1:{i}"], **p)
            for variants in UPDATE[ch]:
                ask("knowledge-update", variants, [f"{ch}:2:{i}"], **p)
            ask("multi-hop", HISTORY[ch], [f"{ch}:1:{i}", f"{ch}:2:{i}"], tag="history", **p)
            ask("temporal", TEMPORAL[f"{ch}:2"], [f"{ch}:2:{i}"], **p)
            other = "home" if ch == "job" else "job"
            ask("single-hop", SINGLE[other], [f"{other}:1:{i}"], **p)
            if ch == "home":
                ask("open-domain", (p["job_open"],), ["job:1:" + str(i)], **p)
            ask("single-hop", SINGLE["relative"], [f"relative:{i}"], **p)
            ask("temporal", TEMPORAL["relative"], [f"relative:{i}"], **p)
            ask("multi-hop", p["news"][1], [f"relative:{i}", f"news:{i}"], **p)
            for x in ("hobby", "trip"):
                ask("single-hop", SINGLE[x], [f"{x}:{i}"], **p)
                ask("temporal", TEMPORAL[x], [f"{x}:{i}"], **p)
                ask("open-domain", (p[x][1],), [f"{x}:{i}"], **p)
            for x in p["has"]:
                ask("single-hop", SINGLE[x], [f"{x}:{i}"], **p)
                if x == "book":
                    ask("single-hop", SINGLE["author"], [f"book:{i}"], **p)
                else:
                    ask("temporal", TEMPORAL[x], [f"{x}:{i}"], **p)
                ask("open-domain", (p[x][-1],), [f"{x}:{i}"], **p)
        for x, variants in AGGREGATE.items():
            if x in ("hobby", "trip") or all(x in p["has"] for p in people):
                ask("multi-hop", variants, [f"{x}:0", f"{x}:1"], a=friends[0], b=friends[1])
        for j, (who, pref) in enumerate(prefs):
            ask("preference", pref[2], [f"pref:{j}"], n=who)
            ask("open-domain", (pref[3],), [f"pref:{j}"], n=who)

        chosen: list[tuple[str, str, list[str], str]] = []
        for kind, n_ in PER_CONVERSATION.items():
            cands = pool[kind]
            if kind == "multi-hop":  # both histories (the knowledge updates' check), then the rest
                keep = [c for c in cands if c[2]] + rng.sample([c for c in cands if not c[2]], n_ - 2)
            else:
                keep = rng.sample(cands, n_)
            chosen += [(kind, variants[style % len(variants)], ev, "") for (variants, ev, _), style in
                       zip(keep, halves(rng, n_), strict=True)]  # fmt: skip
        never: list[tuple[tuple[str, ...], str]] = []
        for variants in rng.sample(NEVER_SAID, NEVER_KINDS["never said"]):
            who = rng.choice(friends)
            never.append((tuple(v.format(n=who) for v in variants), "never said"))
        for j, x in enumerate(missing):  # an attribute one friend lacks, in the other's words
            lacks, has = people[j // 2], people[1 - j // 2]
            never.append((tuple(v.format(**(has | {"n": lacks["n"]})) for v in SINGLE[x]), "other friend's"))
        nearby = [
            (x, variants, p)
            for x, variants in NEARBY
            for p in people
            if x in p["has"] or x in ("trip", "relative", "hobby") or (x == "job" and p["change"] == "home")
        ]
        for _, variants, p in rng.sample(nearby, NEVER_KINDS["nearby attribute"]):
            never.append((tuple(v.format(**p) for v in variants), "nearby attribute"))
        for (wordings, kind), style in zip(never, halves(rng, len(never)), strict=True):
            chosen.append(("adversarial", wordings[style], [], kind))
        for i, (kind, text, ev, nv) in enumerate(chosen, 1):
            q = {"id": f"{cid}:q{i}", "conversation": cid, "type": kind, "question": text, "evidence": ev}
            questions.append(q | ({"never": nv} if nv else {}))
    n_turns = sum(len(s["turns"]) for c in conversations for s in c["sessions"])
    about = (
        f"Two friends' long chats about their lives, generated by bench/retrieval/generate_life.py (seed {seed}): "
        f"{len(conversations)} conversations, {n_turns} turns, {len(questions)} questions."
    )
    return {"about": about, "conversations": conversations, "questions": questions}


def main() -> None:
    write(generate(), OUT)


if __name__ == "__main__":
    main()
