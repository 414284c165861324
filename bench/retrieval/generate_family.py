"""A seventh retrieval benchmark: a family's shared household assistant (family.json).

Written by the Mnemo team for this repository (no outside data; the repository's licence) after
the six other sets had been read; nothing is fitted on it. It was read once, as search ships
(``holdout.py --dataset family``, 2026-11-27), to judge a candidate search rule; a choice made
after looking at it makes it a tuning set.

How it differs from the six others: several people share one memory, and they share attribute
types, so the words of a question ("teacher", "Tuesday", "appointment") match many turns and only
the person's name tells them apart.

- **A household per conversation**: 9 households, one namespace each, 3 to 5 members (one or two
  parents, one to three children, maybe a grandparent), 15 to 25 dated sessions in which two to
  four of them talk to the assistant; turns are "Name: text", and the assistant's replies are turns
  too (speaker "Assistant").
- **Attribute confusion**: every child has a school, a teacher, a club on a weekday, an allergy or
  diet, a best friend and an appointment (date and time); every adult an employer, a commute, a
  car, a hobby on a weekday and an appointment; a grandparent a club, a diet, a hobby and an
  appointment; the household bin day, a cleaner's day, a plumber, a pet, a holiday booking and a
  budget. A child's fact is said by the child ("My teacher this year is ...") or by a parent
  ("Bodhi's teacher this year is ...").
- **Mixed turns**: short requests ("Add oat milk to the shopping list") and their confirmations,
  reminders and medium chatter, many with the facts' words ("Remind me to email the teacher about
  the reading book", "School run was chaos this morning"); the assistant's reply to a fact at times
  echoes its rare word ("Noted: Mrs Gorringe."), and at times it suggests something the family
  never does (a camp, a restaurant, a tutor: the "assistant only" trap).
- **Dates and updates**: appointments, the pet's vet visit and the holiday are dated (absolute or
  relative to the session); in each household three facts change (a club's weekday, a child's
  teacher after the term break, a parent's employer or car, the plumber, the cleaner's day): first
  said in the first third of the sessions, changed in the last third, the later turn not naming
  the old value; the update question's evidence is the later turn only, a multi-hop history
  question holds both.
- Question types as holdout.TYPES, never-stored ones (``adversarial``, no evidence; ``never``:
  "never said"; "other member's", an attribute only another member has, asked about the wrong
  member in the owner's words; "assistant only", something only the assistant suggested). Half the
  questions of each type are in the turn's words and half paraphrased (no shared content word but
  names); open-domain ones are inferences, worded apart.

Names (people, teachers, schools, friends, clubs' venues, pets, towns, employers, destinations)
are disjoint from the six other sets (a test checks both ways). Seeded and deterministic (sha256
printed).

    .venv/bin/python -m bench.retrieval.generate_family
"""

from __future__ import annotations

import random
import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from bench.retrieval.generated import halves, pick, write

OUT = Path(__file__).with_name("family.json")
SEED = 7027
CONVERSATIONS = 9
ASSISTANT = "Assistant"
#: questions per household and type (9 households: 477 in all)
PER_CONVERSATION = {"single-hop": 12, "multi-hop": 7, "temporal": 7, "open-domain": 6, "knowledge-update": 5,
                    "preference": 4}  # fmt: skip
NEVER_KINDS = {"never said": 4, "other member's": 4, "assistant only": 4}
UPDATES_PER_HOUSEHOLD = 3
#: (parents, children, grandparents): 3 to 5 members
SHAPES = [(2, 2, 0), (2, 1, 0), (1, 2, 0), (2, 2, 1), (2, 3, 0), (2, 1, 1), (1, 2, 1), (1, 3, 0), (2, 2, 0)]

ADULTS = ["Tancred", "Hesper", "Lucian", "Aldous", "Cornelius", "Araminta", "Bramwell", "Perdita", "Drusilla",
          "Leonora", "Jago", "Clemence", "Oswin", "Evadne", "Kenelm", "Sidonie", "Everard", "Loveday"]  # fmt: skip
KIDS = ["Bodhi", "Marnie", "Rufus", "Tilda", "Bartley", "Saffie", "Caspar", "Elodie", "Wilf", "Posy", "Digby",
        "Clover", "Fenn", "Effie", "Hamza", "Ione", "Barney", "Romilly", "Zoltan", "Hattie", "Ludo", "Minnie",
        "Otto", "Pip"]  # fmt: skip
ELDERS = ["Grandpa Albion", "Nana Ermintrude", "Grandpa Lancelot", "Nana Griselda", "Grandpa Ebenezer",
          "Nana Hepzibah"]  # fmt: skip
TEACHERS = ["Mrs Gorringe", "Mr Thistlewood", "Ms Okonkwo", "Mrs Babbage", "Mr Pennyfeather", "Miss Yardley",
            "Mr Achterberg", "Mrs Doolittle", "Ms Farquhar", "Mr Nightingale", "Mrs Ollerenshaw", "Miss Tregarthen",
            "Mr Wainscott", "Mrs Castellanos", "Ms Brightwater", "Mr Underhill", "Mrs Eckersley", "Miss Fairweather",
            "Mr Kettleborough", "Mrs Lindqvist", "Ms Merriweather", "Mr Saltonstall", "Mrs Tolliver",
            "Miss Villiers", "Mr Greengrass", "Mrs Hapgood", "Ms Ravensworth", "Mr Dimbleby"]  # fmt: skip
SCHOOLS = ["Cobblestone Primary", "Harefield Junior School", "St Swithun's Primary", "Larkrise Academy",
           "Foxglove Infant School", "Ravensbourne Middle School", "Quarrydale Primary", "Wycombe Heath School",
           "Applegarth Primary", "Bellhaven Junior School", "Moorcroft Free School", "Sandpiper Primary"]  # fmt: skip
FRIENDS = ["Kwabena", "Anneliese", "Toby-Jack", "Thelonious", "Mathias", "Zuzanna", "Alfie-Ray", "Araceli",
           "Lochlan", "Delilah", "Tadhg", "Marisa", "Ilse", "Bluebell", "Eliska", "Rasmus", "Inigo", "Caoimhe",
           "Femi", "Hiroko", "Arlo", "Azalea", "Ezra", "Clementina"]  # fmt: skip
DOCTORS = ["Dr Featherstonehaugh", "Dr Mbeki", "Dr Quigley", "Dr Vantongeren", "Dr Haverford", "Dr Oyelaran",
           "Dr Pemberton-Lusk", "Dr Szabo", "Dr Ravindran", "Dr Lockhart", "Dr Abernathy", "Dr Cardew",
           "Dr Oduya", "Dr Ibsen", "Dr Montalbano", "Dr Kowalczyk", "Dr Zabaleta", "Dr Trefusis",
           "Dr Ashdown", "Dr Pollitt"]  # fmt: skip
CLEANERS = ["Grazyna", "Consuelo", "Bernadette", "Miroslava", "Yolanda", "Teodora", "Agnieszka", "Philomene",
            "Rosaleen", "Dorcas"]  # fmt: skip
PLUMBERS = ["Gethin Prowse", "Stan Mulholland", "Dev Chaudhry", "Kenny Blackadder", "Marek Nowicki", "Ross Tulloch",
            "Alun Bevan", "Neville Crabtree", "Darius Farahani", "Clive Pocock", "Terry Mountjoy", "Huw Penrose",
            "Brendan Coyle", "Sami Haddad", "Owain Pritchard", "Lloyd Entwistle", "Barry Tremlett",
            "Gus Fairbairn"]  # fmt: skip
PET_NAMES = ["Snickerdoodle", "Nibbles", "Rolo", "Muffin", "Pudding", "Squeak", "Jaffa", "Marmite", "Toffee",
             "Pretzel", "Scrumpy", "Garibaldi", "Fudge", "Hobnob", "Nougat", "Chutney"]  # fmt: skip
# (species in the turns, paraphrase, open-domain question)
PETS = [("golden retriever", "dog", "Does the family need someone to walk an animal while away on holiday?"),
        ("tortoiseshell cat", "moggy", "Does the household need a cat flap?"),
        ("guinea pig", "cavy", "Does the family buy hay and fresh veg for a pet?"),
        ("bearded collie", "sheepdog", "Does the family's pet need a lot of brushing and long walks?"),
        ("border terrier", "small dog", "Does the family need a lead by the door?"),
        ("dwarf rabbit", "bunny", "Does the family keep a hutch in the garden?"),
        ("cockapoo", "puppy", "Does the family need dog poo bags for walks?"),
        ("Bengal cat", "feline", "Does the family need a scratching post?")]  # fmt: skip
# (employer, role, open-domain question about the role)
EMPLOYERS = [("Fennimore Dental Lab", "technician making crowns", "Does {n} work with teeth for a living?"),
             ("Stagsden Fire Station", "firefighter on the blue watch", "Does {n} work shifts in an emergency "
              "service?"),
             ("Wolverton Rail Depot", "train driver", "Does {n} drive for a living?"),
             ("Brackenbury Council", "planning officer", "Does {n} decide on building applications?"),
             ("Lamplighter Bakery", "night baker", "Does {n} start work while most people are asleep?"),
             ("Hollowmere Hospital", "midwife", "Does {n} help deliver babies?"),
             ("Corrigan & Vale Solicitors", "conveyancing solicitor", "Does {n} handle house sales for a living?"),
             ("Tidemark Aquarium", "diver who feeds the sharks", "Does {n} spend working hours underwater?"),
             ("Pelham Street Pharmacy", "pharmacist", "Does {n} dispense medicines?"),
             ("Ironbridge Motors", "mechanic", "Could {n} change a car's brake pads?"),
             ("Kestrel Academy Trust", "finance manager", "Does {n} look after budgets at work?"),
             ("Gallowgate Radio", "sports reporter", "Does {n} talk about football on air?"),
             ("Mossbank Nursery", "gardener growing seedlings", "Does {n} work with plants?"),
             ("Whinfell Water", "leak engineer", "Does {n} fix burst pipes for a living?"),
             ("Aldermoor Prison", "education officer", "Does {n} teach inmates?"),
             ("Skylark Air Ambulance", "paramedic", "Does {n} give emergency medical care?"),
             ("Quenby Architects", "architectural technician", "Does {n} draw building plans?"),
             ("Harbourlight Hotel", "night manager", "Does {n} usually work overnight?"),
             ("Dunmore Dairy", "cheesemaker", "Does {n} make cheese for a living?"),
             ("Cranleigh Forensics", "lab scientist", "Does {n} analyse evidence from crime scenes?")]  # fmt: skip
TOWNS = ["Wymondham", "Otley", "Pershore", "Bungay", "Stroud", "Todmorden", "Wantage", "Holmfirth", "Tring",
         "Malmesbury",
         "Bridport", "Ilkley", "Hitchin", "Haslemere", "Lewes", "Settle", "Tetbury", "Beverley"]  # fmt: skip
# commute, said as "{commute} to {town}"; (turn phrase, paraphrase noun)
COMMUTES = [("cycle along the canal towpath", "bike"), ("catch the 7:12 train", "rail"),
            ("drive forty minutes on the bypass", "motoring"), ("take the number 41 bus", "coach service"),
            ("walk across the common", "on foot"), ("car-share with a neighbour", "lift")]  # fmt: skip
COLOURS = ["silver", "dark blue", "white", "red", "grey", "green", "black", "orange"]
CARS = ["Volvo V60", "Nissan Leaf", "Ford Galaxy", "Mazda CX-30", "Renault Scenic", "Honda Jazz", "Vauxhall Zafira",
        "Seat Alhambra", "Tesla Model Y", "Mini Countryman", "Volkswagen Touran", "Suzuki Vitara", "MG ZS",
        "Land Rover Defender", "Polestar 2", "Skoda Kodiaq"]  # fmt: skip
# (hobby, open-domain question)
HOBBIES = [("birdwatching", "Does {n} own a good pair of binoculars?"),
           ("sea kayaking", "Does {n} paddle on the open water?"),
           ("model railways", "Does {n} have a miniature train layout?"),
           ("crochet", "Could {n} make a blanket from yarn?"),
           ("wild swimming", "Does {n} swim outdoors in rivers and lakes?"),
           ("calligraphy", "Could {n} write wedding invitations by hand beautifully?"),
           ("geocaching", "Does {n} go hunting for hidden boxes with a GPS?"),
           ("sourdough baking", "Does {n} keep a starter in the fridge?"),
           ("orienteering", "Is {n} good at reading a map and compass?"),
           ("five-a-side football", "Does {n} play a team sport with friends?"),
           ("amateur dramatics", "Does {n} act on stage?"),
           ("upholstery", "Could {n} re-cover an old armchair?")]  # fmt: skip
# clubs on a weekday: (club in the turns, paraphrase, open-domain question, who)
CLUBS = [("judo", "martial art session", "Does {n} need a white suit and belt each week?", "child"),
         ("ballet", "dance lesson", "Does {n} need pointe or soft slippers each week?", "child"),
         ("swimming squad", "pool training", "Does {n} need goggles in the bag each week?", "child"),
         ("chess club", "board game group", "Does {n} practise openings and checkmates?", "child"),
         ("Cubs", "scouting troop for younger kids", "Does {n} earn badges for a uniform?", "child"),
         ("drama club", "acting group", "Does {n} rehearse lines for shows?", "child"),
         ("coding club", "programming group", "Does {n} learn to make games on a computer?", "child"),
         ("netball", "court ball game", "Does {n} play a team sport with a hoop and no dribbling?", "child"),
         ("gymnastics", "tumbling class", "Does {n} practise cartwheels and the beam?", "child"),
         ("orchestra", "ensemble rehearsal", "Does {n} play an instrument with others?", "child"),
         ("bowls", "lawn green game", "Does {n} roll woods towards a jack?", "elder"),
         ("bridge", "card game evening", "Does {n} play a game of tricks and bids?", "elder"),
         ("aqua aerobics", "exercise in the pool", "Does {n} exercise in water?", "elder"),
         ("tai chi", "slow martial art", "Does {n} practise slow flowing movements?", "elder")]  # fmt: skip
# (allergy or diet in the turns, paraphrase question, open-domain question)
ALLERGIES = [("cashew nuts", "Does {n} react badly to any tree nut?", "Can {n} eat a korma made with cashew paste?"),
             ("shellfish", "Must {n} avoid prawns and mussels?", "Is a seafood paella a safe dinner for {n}?"),
             ("strawberries", "Which summer fruit brings {n} out in hives?",
              "Can {n} have strawberries and cream at the fete?"),
             ("dairy", "Must {n} avoid milk and cheese?", "Is a cheese toastie a safe snack for {n}?"),
             ("gluten", "Must {n} avoid wheat?", "Can {n} have ordinary bread at a picnic?"),
             ("soya", "Does {n} react to anything made from beans used in tofu?",
              "Is a tofu stir-fry a safe meal for {n}?"),
             ("pineapple", "Which tropical fruit makes {n} ill?", "Is a pina colada smoothie safe for {n}?"),
             ("mustard seeds", "Which condiment makes {n} ill?", "Is a ham sandwich with English mustard safe for "
              "{n}?")]  # fmt: skip
# appointment kinds: (in the turns, paraphrase, who)
APPOINTMENTS = [("dentist", "teeth check-up", "any"), ("orthodontist", "brace fitting", "child"),
                ("optician", "eye test", "any"), ("GP", "family doctor visit", "any"),
                ("physio", "physiotherapy session", "adult"), ("hearing clinic", "ear check", "elder"),
                ("asthma nurse", "breathing review", "child"), ("podiatrist", "foot care visit", "elder"),
                ("eczema clinic", "skin review", "child"), ("blood test", "sample taken", "adult")]  # fmt: skip
# (bin in the turns, paraphrase)
BINS = [("green bin", "garden waste"), ("blue recycling box", "cans and paper"), ("brown food caddy", "food scraps"),
        ("black wheelie bin", "general rubbish")]  # fmt: skip
DESTINATIONS = [("Cephalonia", "Will the family be on an Ionian island?"),
                ("the Algarve", "Will the family be in southern Portugal?"),
                ("Lake Garda", "Will the family be in northern Italy?"),
                ("the Vendee", "Will the family be on the French Atlantic coast?"),
                ("Fuerteventura", "Will the family be in the Canary Islands?"),
                ("Legoland Billund", "Will the family be visiting Denmark?"),
                ("Lake Bled", "Will the family be in Slovenia?"),
                ("the Dordogne", "Will the family be in the south-west of France?"),
                ("Menorca", "Will the family be in the Balearics?"),
                ("Center Parcs Whinfell", "Will the family stay in a forest holiday village?"),
                ("the Isle of Arran", "Will the family be on a Scottish island?"),
                ("Rhodes", "Will the family be on a Greek island?")]  # fmt: skip
# (budget for, paraphrase, amounts)
BUDGETS = [("the kitchen refit", "new units and worktops", ["£6,500", "£8,000", "£11,000"]),
           ("Christmas presents", "festive gifts", ["£400", "£650", "£900"]),
           ("the new sofa", "living-room seating", ["£900", "£1,200", "£1,500"]),
           ("the summer holiday spending money", "cash to take away", ["£600", "£800", "£1,000"]),
           ("the garden fence", "replacing the boundary panels", ["£1,100", "£1,400", "£2,000"]),
           ("the birthday party", "the celebration with friends", ["£150", "£250", "£300"])]  # fmt: skip
# things only the assistant suggests: (the assistant's turn, (question in its words, paraphrased), venues)
VENUES = ["Hobbledown Farm", "Pinewood Lodge", "Puffin Point", "Bramshill Barn", "Trevallion House",
          "Oakenshaw Leisure Centre", "Marchmont Hall", "Skelwith Mill", "Brackenholt Outdoor Centre",
          "Gullswater Quay", "Chalkpit Studios", "Lowther Grange"]  # fmt: skip
SUGGESTIONS = [
    (
        "If it helps, the holiday tennis camp at {v} has places over half term, I could book {n} in",
        (
            "Which holiday tennis camp is {n} booked into?",
            "Where will {n} spend the school break playing a racket sport?",
        ),
    ),
    (
        "For a treat, {v} does a Sunday roast with a play area, I could reserve a table for {n}'s birthday",
        ("Where is the Sunday roast for {n}'s birthday?", "At which venue will {n} celebrate turning a year older?"),
    ),
    (
        "The pottery painting workshop at {v} runs on Saturdays, {n} might enjoy it",
        ("When does {n} go to the pottery painting workshop?", "On which day does {n} decorate ceramics?"),
    ),
    (
        "There's a beginners' climbing course at {v}, six weeks, that could suit {n}",
        ("Which climbing course is {n} doing?", "Where is {n} learning to scale walls?"),
    ),
    (
        "A forest school session at {v} could be a nice outing for {n} this weekend",
        ("When is {n}'s forest school session?", "On what date will {n} learn outdoors among the trees?"),
    ),
    (
        "I could enquire about the summer theatre workshop at {v} for {n}",
        ("Which summer theatre workshop is {n} doing?", "Where will {n} perform on stage in the holidays?"),
    ),
]
DECLINES = ["Maybe another time.", "Hmm, not this time, thanks.", "Let me think about it.", "Too pricey, leave it.",
            "No thanks, we're busy enough.", "I'll see, don't book anything yet."]  # fmt: skip
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]  # fmt: skip
TIMES = ["8:40", "9:15", "10:30", "11:45", "1:20", "2:10", "3:40", "4:15", "4:50", "5:30"]

# preferences: (direct turn, indirect turn, (question in the turns' words, paraphrased), open-domain question)
PREFERENCES = [
    ("I hate mushrooms, please never put them on the meal plan, the texture makes me gag",
     "Take the mushrooms off that recipe for me, I'd rather eat the cardboard box they came in",
     ("Does {n} like mushrooms?", "Which fungi does {n} find disgusting?"),
     "Would {n} enjoy a creamy porcini risotto?"),
    ("I like the house quiet first thing, no radio and no telly before eight in the morning",
     "Please don't start any music before eight, I need the first hour of the day in total silence",
     ("Does {n} want the radio on first thing?", "What atmosphere does {n} want at home upon waking?"),
     "Would {n} welcome a loud wake-up playlist at seven?"),
    ("I always take a shower, never a bath, I just can't sit still in a tub of water",
     "Sitting in a tub of water for half an hour sounds like torture, I'm in and out of the shower in five minutes",
     ("Does {n} take a shower or a bath?", "How does {n} prefer to wash?"),
     "Would {n} love a bubble bath kit as a present?"),
    ("I prefer the window open at night even in winter, I can't sleep in a stuffy room",
     "Leave my window open tonight please, even with the frost, a warm stuffy room keeps me awake",
     ("Does {n} like the window open at night?", "How fresh does {n} like the bedroom air for sleeping?"),
     "Would {n} want the heating turned up high in the bedroom overnight?"),
    ("I can't stand scary films, I'd much rather watch a cartoon or a nature documentary",
     "If anyone puts a horror movie on for family night I'm going to bed, give me penguins and whales any day",
     ("Does {n} like scary films?", "What kind of screen entertainment does {n} avoid?"),
     "Would {n} enjoy a zombie marathon on Halloween?"),
    ("I only drink decaf after lunch, proper coffee in the afternoon keeps me up all night",
     "No real coffee for me after midday please, it's decaf or I'm staring at the ceiling at 2am",
     ("Does {n} drink decaf after lunch?", "What caffeine habit does {n} keep in the afternoons?"),
     "Should {n} be offered a double espresso at four o'clock?"),
    ("I'd rather walk than go in the car, even when it rains",
     "Don't drive me tomorrow please, I want to walk with my wellies on even if it pours",
     ("Does {n} prefer to walk or go in the car?", "How does {n} like to get about town?"),
     "Would {n} be happy being dropped off by car every day?"),
    ("I'm a fussy eater with sauces, I want everything plain with nothing on top, not even ketchup",
     "Can mine be plain please, no sauce, no gravy, nothing poured over it, just as it comes",
     ("Does {n} like sauces on food?", "How does {n} want meals served?"),
     "Would {n} enjoy chips smothered in gravy and cheese?"),
    ("I love camping, a tent and a campfire beats a hotel every single time",
     "Forget the hotel, give me a sleeping bag, a field and a fire to toast marshmallows on",
     ("Does {n} prefer camping or a hotel?", "What kind of overnight stay does {n} enjoy most?"),
     "Would {n} be excited about a weekend under canvas?"),
]  # fmt: skip

# the facts' turns: (first person, third person naming {n})
SCHOOL = [("My school is {school}, I'm in Year {yr} now and we have the classroom with the fish tank",
           "{n}'s school is {school}, Year {yr}, so the uniform is the bottle green jumpers"),
          ("At {school} we get to pick a library book every Friday, I'm in Year {yr}",
           "Can you note that {n}'s school is {school}? {n} is in Year {yr}")]  # fmt: skip
TEACHER = [("My teacher this year is {teacher}, who does funny voices when reading to us",
            "{n}'s teacher this year is {teacher}, very strict about reading records"),
           ("Our teacher this year is {teacher} and we have spelling tests every single week",
            "Note that {n}'s teacher this year is {teacher}, for parents' evening")]  # fmt: skip
TEACHER_NEW = [("After the term break I've got a new teacher, {teacher2}, and we get to sit on cushions",
                "{n} has a new teacher after the term break, {teacher2}, so please update the contacts"),
               ("I've got a new teacher since the term break, {teacher2}, who is really nice",
                "Since the term break {n} has a new teacher, {teacher2}, apparently very sporty")]  # fmt: skip
CLUB = [("I've got {club} every {day} at {time}, don't forget my kit",
         "{n} has {club} every {day} at {time}, so someone needs to do the pick-up"),
        ("Every {day} is {club} for me, at {time}, it's the best bit of the week",
         "Put it in the calendar: {n} has {club} every {day} at {time}")]  # fmt: skip
CLUB_MOVED = [("My {club} has moved to {day2}s now, the hall got double-booked",
               "{n}'s {club} has moved to {day2}s from now on, same time"),
              ("Guess what, {club} has moved to {day2}s for me from next week",
               "Heads up: {n}'s {club} has moved to {day2}s, please change the calendar")]  # fmt: skip
ALLERGY = [("I'm allergic to {allergen}, so I can't have anything with it in, remember",
            "{n} is allergic to {allergen}, so never put anything with it in the lunchbox"),
           ("Just so you know, I'm allergic to {allergen}, it makes my mouth all itchy",
            "Please keep a note that {n} is allergic to {allergen}, the school has it on file too")]  # fmt: skip
FRIEND = [("My best friend is {friend}, we sit together at lunch every day",
           "{n}'s best friend is {friend}, they're inseparable at the moment"),
          ("{friend} is my best friend now, we made up a secret handshake",
           "Apparently {n}'s best friend is {friend} these days, they want a sleepover")]  # fmt: skip
APPOINTMENT = [("I've got a {appt} appointment with {doc} {w} at {atime}, can you remind me the day before",
                "{n} has a {appt} appointment with {doc} {w} at {atime}, I'll take the afternoon off"),
               ("Put my {appt} appointment in the calendar please: {doc}, {w} at {atime}",
                "Please add {n}'s {appt} appointment with {doc}, {w} at {atime}")]  # fmt: skip
JOB = ["I work at {e} as a {role}, it's been {y} years now",
       "Work is busy, being a {role} at {e} is never quiet this time of year",
       "For the records, I work at {e} as a {role}, so I'm out most days"]  # fmt: skip
JOB_CHANGE = ["I started at {e2} {w}, I'm their {role2} now, new badge and everything",
              "Big change, I started at {e2} {w} as a {role2}, the hours are better"]  # fmt: skip
COMMUTE = ["My commute is to {town}, I {commute} every morning, about {mins} minutes door to door",
           "Every morning I {commute} to {town} for work, so my commute is {mins} minutes on a good day"]  # fmt: skip
CAR = ["My car is a {colour} {car}, it's the one on the drive with the roof box",
       "The {colour} {car} is my car, the keys live in the bowl by the door"]  # fmt: skip
CAR_NEW = ["I picked up my new car {w}, a {colour2} {car2}, it still smells of plastic",
           "We collected my new car {w}, it's a {colour2} {car2}, please update the parking permit"]  # fmt: skip
HOBBY = ["I do {h} every {hday} evening now, it's the only time I switch off",
         "{hday} evenings are for {h}, so don't plan anything for me then",
         "I've started doing {h} on {hday} evenings with a group from the village"]  # fmt: skip
BIN = ["The {bin} goes out on {bday} nights, please remind whoever is home",
       "Reminder for everyone: {bday} night is when the {bin} goes out"]  # fmt: skip
CLEANER = ["{cleaner} comes to clean on {cday}s, so rooms need tidying the night before",
           "Our cleaner {cleaner} comes every {cday}, leave the money in the drawer"]  # fmt: skip
CLEANER_MOVED = ["{cleaner} is coming on {cday2}s from now on, her other family changed their days",
                 "Note that {cleaner} will come on {cday2}s from now on"]  # fmt: skip
PLUMBER = ["The plumber we use is {plumber}, his number is on the fridge",
           "If anything leaks again, the plumber we use is {plumber}, he's quick and cheap"]  # fmt: skip
PLUMBER_NEW = ["Our new plumber is {plumber2}, he sorted the sink in an hour, save his number",
               "We've got a new plumber, {plumber2}, the boiler man recommended him"]  # fmt: skip
PET = ["{pet} the {species} is due at the vet {w} for the jabs, can you remind me",
       "Vet appointment for {pet} the {species} {w}, booster jabs, don't let me forget"]  # fmt: skip
HOLIDAY = ["The holiday to {dest} is booked, {dates}, the confirmation is in my email",
           "Booked it! The holiday to {dest}, {dates}, so no clubs that week"]  # fmt: skip
BUDGET = ["The budget for {thing} is {amount} and not a penny more, I mean it",
          "Let's say {amount} is the budget for {thing}, can you keep a note of it"]  # fmt: skip
LEADS = ["Quick one: ", "For the calendar: ", "Can you remember this: ", "Right, ", "Okay, so ", "", "", ""]
TAILS = [" Thanks.", " Cheers.", "", "", "", " Ta."]

# the assistant's reply to a fact: at times it echoes the rare word
ECHO = ["Noted: {w}.", "Got it, {w}. Anything else?", "Okay, I've saved {w} to the family notes.",
        "{w}, noted.", "I've added {w} to the household calendar."]  # fmt: skip
ACKS = ["Okay, noted.", "Got it.", "Done.", "Saved.", "Thanks, I've made a note."]

# filler: (request, the assistant's reply) with {x} filled from the list given
SHOP = ["oat milk", "bin bags", "washing-up liquid", "bananas", "fish fingers", "toothpaste", "AA batteries",
        "loo roll", "sliced bread", "cheddar", "yoghurts", "apples", "pasta", "ketchup", "teabags", "eggs",
        "peanut butter", "semi-skimmed milk", "cereal", "frozen peas", "school shoes polish", "plasters",
        "sun cream", "dog biscuits", "cat litter"]  # fmt: skip
SHOP_ASK = ["Add {x} to the shopping list", "Can you put {x} on the list, we're nearly out",
            "{x} on the shopping list please", "We need {x}", "Shopping list: {x}"]  # fmt: skip
SHOP_REPLY = ["Added {x} to the shopping list.", "Done, {x} is on the list.", "{x} added.",
              "I've put {x} on the shopping list."]  # fmt: skip
TASKS = ["sign the school trip form", "email the teacher about the reading book", "put the bins out",
         "ring the dentist to check the time", "pay the cleaner", "book the car in for its service",
         "pick up the prescription", "water the tomatoes", "take the PE kit in", "order a birthday present",
         "renew the library books", "defrost the chicken", "call the plumber back about the quote",
         "pack the swimming bag", "check the holiday insurance", "top up the dinner money"]  # fmt: skip
WHEN = ["at six", "tomorrow morning", "after lunch", "tonight", "in an hour", "on Tuesday", "on Thursday",
        "before school", "at half seven", "on Monday"]  # fmt: skip
ASK_REPLY = [
    ("What's the weather doing tomorrow?", "Light rain in the morning, drying up by lunchtime."),
    ("Set a timer for twenty minutes", "Timer set for twenty minutes."),
    ("Set a timer for the pasta, eleven minutes", "Eleven-minute timer started."),
    ("What's on the calendar for Tuesday?", "Tuesday has the usual school run and nothing new added."),
    ("What's on the calendar this weekend?", "Nothing booked this weekend so far."),
    ("Play something calm in the kitchen", "Playing a calm playlist in the kitchen."),
    ("How long do I boil an egg for?", "About seven minutes for a firm yolk."),
    ("Who's picking up from school today?", "The calendar doesn't say, you may want to sort that out."),
    ("Is it bin day tomorrow?", "I'll check; the collection schedule is in the household notes."),
    ("Tell me a joke", "Why did the scarecrow win an award? He was outstanding in his field."),
    ("How do you spell necessary?", "N, E, C, E, S, S, A, R, Y."),
    ("What's seven times eight?", "Fifty-six."),
    ("Turn the hallway light off", "Hallway light is off."),
    ("What time is it in New York?", "It's five hours behind, so early morning there."),
    ("What can I make with leftover rice?", "Egg fried rice or rice pudding are both quick options."),
    ("Read me the shopping list", "The list has a few items; shall I send it to your phone?"),
    ("Any reminders for today?", "Nothing urgent on today's list."),
    ("How many days until the holidays?", "It depends which holiday; the calendar shows a few weeks to go."),
    ("What's a good film for family night?", "A nature documentary or a classic animation usually works."),
    ("Is the car due a service soon?", "I don't have a service date saved yet."),
]  # fmt: skip
CHATTER = [
    "The kids are fighting over the remote again, I'm hiding in the kitchen with a cup of tea",
    "We're having pasta tonight because nobody could agree on anything else",
    "School run was chaos this morning, someone lost a shoe somewhere between the door and the car",
    "The teacher sent another email about nits, so that's our weekend sorted",
    "Tuesday is always the busiest day in this house, everyone is somewhere different",
    "The dog next door has been barking since six, I'm losing my mind",
    "Homework tonight took two hours and three tantrums, and only one of them was mine",
    "Someone has eaten all the biscuits again and nobody is owning up",
    "The washing machine is making that noise again, like a helicopter taking off",
    "I found a sandwich in a school bag from last week, it was not pretty",
    "We tried a new recipe and everyone ate it, I'm writing that day down as a miracle",
    "The club pick-up rota is a mess again, three parents turned up and one child",
    "It rained all weekend so we built a fort out of every cushion in the house",
    "The garden is a jungle, nobody has mown it since the spring",
    "Parents' evening is coming round again, I never know what to ask",
    "The car needs cleaning inside, there are crisps in places crisps should never be",
    "Everyone is tired and grumpy, early nights all round I think",
    "The Wi-Fi in the back bedroom is terrible again, homework is all online these days",
    "Thursday is a nightmare for lifts, we need a better plan",
    "We watched a film together and nobody looked at a phone once, a small triumph",
    "The appointment letters keep arriving in the wrong name, I've given up correcting them",
    "I'm knackered, the week has been one long list of lifts and packed lunches",
    "My mum rang for an hour about her neighbour's hedge, I nodded along",
    "The fridge is full of half-finished jars and not a single real meal",
]  # fmt: skip
CHATTER_REPLY = ["That sounds like a lot, I hope the evening gets calmer.", "Sorry to hear that.",
                 "Sounds like a busy day.", "Ha, that does sound like chaos.", "Want me to add anything to the list?",
                 "Shall I set a reminder for anything?"]  # fmt: skip
KID_CHATTER = ["I'm bored", "Can we get a trampoline", "What's for tea", "I finished my homework!",
               "Can you play my song", "Is it the weekend yet", "I can't find my other sock",
               "My tooth is wobbly", "I want pancakes tomorrow", "Can I have a snack"]  # fmt: skip
KID_REPLY = ["Maybe ask a grown-up about that.", "Well done!", "Playing your song now.", "Not quite, a few more days.",
             "Have you checked under the bed?", "I'll add pancakes to the shopping list ideas."]  # fmt: skip

# questions: (in the turns' words, paraphrased)
SINGLE = {
    "school": ("Which school is {n}'s school?", "Where is {n} a pupil?"),
    "teacher": ("Who is {n}'s teacher this year?", "Which adult runs {n}'s form group?"),
    "club": ("Which day does {n} have {club}?", "On what weekday is {n}'s {clubp}?"),
    "allergy": ("What is {n} allergic to?", "{allergyq}"),
    "friend": ("Who is {n}'s best friend?", "Which classmate is {n} closest to?"),
    "appointment": ("Who is {n}'s {appt} appointment with?", "Which practitioner is {n} going to see for the "
                    "{apptp}?"),
    "job": ("Where does {n} work?", "Which company employs {n}?"),
    "commute": ("How does {n} commute every morning?", "By what means does {n} travel to the job daily?"),
    "car": ("What is {n}'s car?", "Which vehicle does {n} own?"),
    "hobby": ("What does {n} do every {hday} evening?", "Which pastime does {n} pursue weekly?"),
    "bin": ("Which night does the {bin} go out?", "When should the {binp} be left by the kerb?"),
    "cleaner": ("Which day does {cleaner} come to clean?", "On what weekday does the household help visit?"),
    "plumber": ("Who is the plumber we use?", "Whom does the family call about leaking pipes?"),
    "pet": ("What is the {species} called?", "What is the household's {speciesp} named?"),
    "holiday": ("Where is the holiday booked to?", "Which destination will the family travel to?"),
    "budget": ("What is the budget for {thing}?", "How much may the family spend on {thingp}?"),
}  # fmt: skip
BEFORE = {
    "club": ("Which day did {n} have {club} every week?", "On what weekday was {n}'s {clubp} originally?"),
    "teacher": ("Who was {n}'s teacher this year?", "Which adult ran {n}'s form group earlier?"),
    "job": ("Where did {n} work before {e2}?", "Which company employed {n} previously?"),
    "car": ("What was {n}'s car?", "Which vehicle did {n} own previously?"),
    "plumber": ("Who was the plumber we used?", "Whom did the family call about leaking pipes previously?"),
    "cleaner": ("Which day did {cleaner} come to clean?", "On what weekday did the household help visit originally?"),
}  # fmt: skip
UPDATE = {
    "club": [("Which day has {n}'s {club} moved to?", "On what weekday is {n}'s {clubp} at present?"),
             ("Is {n}'s {club} still on the same day?", "Did {n}'s {clubp} change its weekday?")],
    "teacher": [("Who is {n}'s new teacher after the term break?", "Which adult runs {n}'s form group at present?"),
                ("Does {n} have a new teacher?", "Has someone else taken over {n}'s form group?")],
    "job": [("Where did {n} start?", "Who employs {n} at present?"),
            ("What is {n}'s role at {e2}?", "Which position does {n} hold with the latest employer?")],
    "car": [("What is {n}'s new car?", "Which vehicle does {n} own at present?"),
            ("What colour is {n}'s new car?", "Which shade is the vehicle {n} owns at present?")],
    "plumber": [("Who is our new plumber?", "Whom does the family call about leaking pipes at present?"),
                ("Who sorted the sink?", "Which tradesman repaired the basin?")],
    "cleaner": [("Which day is {cleaner} coming from now on?", "On what weekday does the household help visit at "
                 "present?"),
                ("Is {cleaner} coming on a different day?", "Has the household help's weekday changed?")],
}  # fmt: skip
HISTORY = {
    "club": ("Which day did {n} have {club}, and which day has it moved to?",
             "On which weekdays has {n}'s {clubp} been held?"),
    "teacher": ("Who was {n}'s teacher this year, and who is the new teacher after the term break?",
                "Which adults have run {n}'s form group?"),
    "job": ("Where did {n} work, and where did {n} start?", "Which companies have employed {n}?"),
    "car": ("What was {n}'s car, and what is the new car?", "Which vehicles has {n} owned?"),
    "plumber": ("Who was the plumber we used, and who is our new plumber?",
                "Whom has the family called about leaking pipes over time?"),
    "cleaner": ("Which day did {cleaner} come to clean, and which day from now on?",
                "On which weekdays has the household help visited?"),
}  # fmt: skip
AGGREGATE = {
    "school": ("Which schools are the schools of {a} and {b}?", "Where are {a} and {b} pupils?"),
    "club": ("Which days do {a} and {b} have their clubs?", "On what weekdays are the after-hours activities of {a} "
             "and {b}?"),
    "allergy": ("What are {a} and {b} allergic to?", "Which foods must {a} and {b} avoid?"),
    "friend": ("Who are the best friends of {a} and {b}?", "Which classmates are {a} and {b} closest to?"),
    "appointment": ("Who are the appointments of {a} and {b} with?", "Which practitioners will {a} and {b} see?"),
    "car": ("What are the cars of {a} and {b}?", "Which vehicles do {a} and {b} own?"),
    "hobby": ("What do {a} and {b} do every week in the evening?", "Which pastimes do {a} and {b} pursue?"),
}  # fmt: skip
TEMPORAL = {
    "club:2": ("When did {n}'s {club} move?", "On what date did the {clubp} change its weekday?"),
    "teacher:2": ("When did {n} get a new teacher?", "From what date has a different adult run {n}'s form group?"),
    "job:2": ("When did {n} start at {e2}?", "On what date did {n} change employers?"),
    "car:2": ("When did {n} pick up the new car?", "On what date did {n} collect the latest vehicle?"),
    "plumber:2": ("When did we get a new plumber?", "Since what date has the family called a different tradesman?"),
    "cleaner:2": ("When did {cleaner} start coming on {cday2}s?", "Since what date has the household help visited "
                  "on a different weekday?"),
    "appointment": ("When is {n}'s {appt} appointment?", "On what date and hour is {n} due for the {apptp}?"),
    "pet": ("When is {pet} due at the vet?", "On what date are {pet}'s vaccinations?"),
    "holiday": ("When is the holiday to {dest}?", "On what dates will the family be away in {dest}?"),
}  # fmt: skip
NEVER_SAID = [("What is {n}'s shoe size?", "How big are {n}'s feet in sizes?"),
              ("What is {n}'s middle name?", "Which second given name does {n} have?"),
              ("Which football team does {n} support?", "Which soccer side is {n} a fan of?"),
              ("What is {n}'s favourite cereal?", "Which breakfast flakes does {n} like best?"),
              ("Who is {n}'s godparent?", "Which adult sponsored {n} at the christening?"),
              ("What time does {n} go to bed?", "When are {n}'s lights out at night?"),
              ("Which phone does {n} have?", "What mobile handset does {n} use?"),
              ("What is {n}'s blood group?", "Which blood type does {n} have?"),
              ("Where did {n} grow up?", "In which town did {n} spend childhood?")]  # fmt: skip
EXTRAS = ("club", "appointment", "car")
#: the member facts that can change: (first templates, echoed slot, later templates, echoed slot)
CHANGING: dict[str, tuple[list[Any], str, list[Any], str]] = {
    "teacher": (TEACHER, "teacher", TEACHER_NEW, "teacher2"),
    "club": (CLUB, "club", CLUB_MOVED, "day2"),
    "job": (JOB, "e", JOB_CHANGE, "e2"),
    "car": (CAR, "car", CAR_NEW, "car2"),
}


def when(rng: random.Random, day: date, past: bool = False) -> str:
    """An event's date as said on ``day``: absolute mostly (a calendar), relative at times; ``past``
    for a change already made (a new job, a new car)."""
    if past:
        forms = ["yesterday", "on Monday", "last week", "this morning", "the day before yesterday"]
        if rng.random() < 0.4:
            d = day - timedelta(days=rng.randint(2, 12))
            return f"on {d.day} {MONTHS[d.month - 1]}"
        return rng.choice(forms)
    if rng.random() < 0.6:
        d = day + timedelta(days=rng.randint(3, 45))
        return f"on {d.day} {MONTHS[d.month - 1]}"
    forms = ["tomorrow", "next week", "the day after tomorrow", "in a fortnight", "in three weeks",
             f"next {rng.choice(WEEKDAYS[:5])}", f"this {rng.choice(WEEKDAYS[:5])}"]  # fmt: skip
    return rng.choice(forms)


def holiday_dates(rng: random.Random, day: date) -> str:
    """The holiday's dates, weeks after ``day``."""
    d = day + timedelta(days=rng.randint(30, 120))
    e = d + timedelta(days=rng.choice([6, 7, 10, 13, 14]))
    if d.month == e.month:
        return f"from {d.day} to {e.day} {MONTHS[d.month - 1]}"
    return f"from {d.day} {MONTHS[d.month - 1]} to {e.day} {MONTHS[e.month - 1]}"


def upper_first(text: str) -> str:
    return text[0].upper() + text[1:]


def wrap(rng: random.Random, text: str, proper: set[str]) -> str:
    """A fact's turn: maybe a lead-in before it (the first word lower-cased unless it is "I" or a
    name in ``proper``) and a word of thanks after it."""
    lead = rng.choice(LEADS)
    if lead:
        first = text.split()[0].split("'")[0].rstrip(",:!")
        keep = first == "I" or first in proper or first in ("Grandpa", "Nana", "GP", "Cubs", *WEEKDAYS)
        text = lead + (text if keep else text[0].lower() + text[1:])
    text = re.sub(r"\ba ([aeiou])", r"an \1", upper_first(text))  # "an eczema clinic appointment"
    return text.rstrip(".") + ("" if text.endswith(("?", "!")) else ".") + rng.choice(TAILS)


def filler(rng: random.Random, who: str, kid: bool) -> list[tuple[str, str]]:
    """A short exchange that states nothing asked: a request or some chatter, and the assistant's reply."""
    r = rng.random()
    if kid and r < 0.3:
        return [(who, rng.choice(KID_CHATTER)), (ASSISTANT, rng.choice(KID_REPLY))]
    if r < 0.35:
        x = rng.choice(SHOP)
        return [(who, upper_first(rng.choice(SHOP_ASK).format(x=x))),
                (ASSISTANT, upper_first(rng.choice(SHOP_REPLY).format(x=x)))]  # fmt: skip
    if r < 0.55:
        task, at = rng.choice(TASKS), rng.choice(WHEN)
        return [(who, f"Remind me to {task} {at}"), (ASSISTANT, f"Reminder set: {task} {at}.")]
    if r < 0.8:
        ask, reply = rng.choice(ASK_REPLY)
        return [(who, ask), (ASSISTANT, reply)]
    out = [(who, rng.choice(CHATTER))]
    if rng.random() < 0.7:
        out.append((ASSISTANT, rng.choice(CHATTER_REPLY)))
    return out


def household(rng: random.Random, shape: tuple[int, int, int], pools: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """The members of one household and their attributes, distinct within it wherever a question
    tells two members apart (clubs, club days, appointment kinds, doctors, schools, teachers)."""
    n_parents, n_kids, n_elders = shape
    people: list[dict[str, Any]] = []
    clubs_c = rng.sample([c for c in CLUBS if c[3] == "child"], n_kids)
    clubs_e = rng.sample([c for c in CLUBS if c[3] == "elder"], n_elders)
    appts = rng.sample([a for a in APPOINTMENTS if a[2] in ("any", "child")], n_kids)
    appts += rng.sample([a for a in APPOINTMENTS if a[2] in ("any", "adult") and a not in appts], n_parents)
    appts += rng.sample([a for a in APPOINTMENTS if a[2] in ("any", "elder") and a not in appts], n_elders)
    allergies = rng.sample(ALLERGIES, n_kids + n_elders)
    hobbies = rng.sample(HOBBIES, n_parents + n_elders)
    club_days = rng.sample(WEEKDAYS[:5], n_kids + n_elders)
    doctors = rng.sample(DOCTORS, n_parents + n_kids + n_elders)
    teachers, schools = rng.sample(TEACHERS, 2 * n_kids), rng.sample(SCHOOLS, n_kids)
    friends, employers = rng.sample(FRIENDS, n_kids), rng.sample(EMPLOYERS, 2 * n_parents)
    cars = rng.sample(CARS, 2 * n_parents)
    for i in range(n_parents):
        e, a = employers[i], appts[n_kids + i]
        p = {"n": pools["adults"].pop(), "role_": "parent", "e": e[0], "role": e[1], "job_open": e[2],
             "y": rng.choice(["two", "four", "nine", "eleven"]), "town": pools["towns"].pop(),
             "commute": rng.choice(COMMUTES)[0], "mins": rng.choice(["25", "35", "45", "50"]),
             "colour": rng.choice(COLOURS), "car": cars[i], "h": hobbies[i][0], "hobby_open": hobbies[i][1],
             "hday": rng.choice(WEEKDAYS[:5]), "appt": a[0], "apptp": a[1], "doc": doctors[i],
             "atime": rng.choice(TIMES), "has": ["job", "commute", "car", "hobby", "appointment"],
             "e2": employers[n_parents + i][0], "role2": employers[n_parents + i][1], "car2": cars[n_parents + i],
             "colour2": rng.choice(COLOURS)}  # fmt: skip
        people.append(p)
    for i in range(n_kids):
        c, a, al = clubs_c[i], appts[i], allergies[i]
        n = pools["kids"].pop()
        p = {"n": n, "role_": "child", "school": schools[i], "yr": str(rng.randint(1, 6)), "teacher": teachers[i],
             "teacher2": teachers[n_kids + i], "club": c[0], "clubp": c[1], "club_open": c[2], "day": club_days[i],
             "time": rng.choice(TIMES[5:]), "allergen": al[0], "allergyq": al[1].format(n=n), "allergy_open": al[2],
             "friend": friends[i], "appt": a[0], "apptp": a[1], "doc": doctors[n_parents + i],
             "atime": rng.choice(TIMES),
             "has": ["school", "teacher", "club", "allergy", "friend", "appointment"]}  # fmt: skip
        people.append(p)
    for i in range(n_elders):
        c, a, al, h = clubs_e[i], appts[n_kids + n_parents + i], allergies[n_kids + i], hobbies[n_parents + i]
        n = pools["elders"].pop()
        p = {"n": n, "role_": "elder", "club": c[0], "clubp": c[1], "club_open": c[2], "day": club_days[n_kids + i],
             "time": rng.choice(TIMES[:5]), "allergen": al[0], "allergyq": al[1].format(n=n), "allergy_open": al[2],
             "h": h[0], "hobby_open": h[1], "hday": rng.choice(WEEKDAYS[:5]), "appt": a[0], "apptp": a[1],
             "doc": doctors[n_parents + n_kids + i], "atime": rng.choice(TIMES),
             "has": ["club", "allergy", "hobby", "appointment"]}  # fmt: skip
        people.append(p)
    free = [d for d in WEEKDAYS[:5] if d not in club_days]
    for p in people:
        if "club" in p["has"]:
            p["day2"] = rng.choice(free)  # used only if the club moves
    return people


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    conversations: list[dict[str, Any]] = []
    questions: list[dict[str, Any]] = []
    shapes = rng.sample(SHAPES, CONVERSATIONS)
    pools: dict[str, list[Any]] = {
        "adults": rng.sample(ADULTS, len(ADULTS)),
        "kids": rng.sample(KIDS, len(KIDS)),
        "elders": rng.sample(ELDERS, len(ELDERS)),
        "towns": rng.sample(TOWNS, len(TOWNS)),
    }
    cleaners, plumbers = rng.sample(CLEANERS, CONVERSATIONS), rng.sample(PLUMBERS, 2 * CONVERSATIONS)
    pet_names = rng.sample(PET_NAMES, CONVERSATIONS)
    for k in range(CONVERSATIONS):
        cid = f"h{k}"
        n_sessions = rng.randint(15, 25)
        start = date(2026, 1, 5) + timedelta(days=rng.randint(0, 50))
        days = [start]
        for _ in range(n_sessions - 1):
            days.append(days[-1] + timedelta(days=rng.randint(2, 9)))
        early, late = range(0, n_sessions // 3), range(2 * n_sessions // 3, n_sessions)
        anywhere, before_last = range(n_sessions), range(n_sessions - 1)
        people = household(rng, shapes[k], pools)
        names = [p["n"] for p in people]
        parents = [p for p in people if p["role_"] == "parent"]
        bin_, budget, pet, dest = rng.choice(BINS), rng.choice(BUDGETS), rng.choice(PETS), rng.choice(DESTINATIONS)
        cday = rng.choice(WEEKDAYS[:5])
        home: dict[str, Any] = {
            "bin": bin_[0], "binp": bin_[1], "bday": rng.choice(WEEKDAYS[:5]), "cleaner": cleaners[k], "cday": cday,
            "cday2": rng.choice([d for d in WEEKDAYS[:5] if d != cday]), "plumber": plumbers[2 * k],
            "plumber2": plumbers[2 * k + 1], "pet": pet_names[k], "species": pet[0], "speciesp": pet[1],
            "pet_open": pet[2], "dest": dest[0], "dest_open": dest[1], "thing": budget[0], "thingp": budget[1],
            "amount": rng.choice(budget[2]),
        }  # fmt: skip
        proper = {*names, *(x.split()[0] for x in names), home["cleaner"], home["pet"]}
        proper |= {p["friend"] for p in people if "friend" in p}

        # three changes per household: (kind, member index, or -1 for the household)
        updates: list[tuple[str, int]] = []
        for kind in rng.sample(["club", "teacher", "job", "car", "plumber", "cleaner"], UPDATES_PER_HOUSEHOLD):
            role = {"club": "child", "teacher": "child", "job": "parent", "car": "parent"}.get(kind)
            owners = [i for i, p in enumerate(people) if p["role_"] == role]
            updates.append((kind, rng.choice(owners) if role else -1))
        changed = set(updates)

        # planned[d]: blocks of (speaker, text with {w} / {dates} to fill on the day, key, echo word)
        planned: dict[int, list[list[tuple[str, str, str, str]]]] = {d: [] for d in anywhere}

        def say(days_: range, who: str, text: str, key: str, echo: str = "",
                planned: dict = planned) -> None:  # fmt: skip
            """A fact's turn on one of ``days_`` and maybe the assistant's reply (echoing ``echo`` at times)."""
            block = [(who, text, key, "")]
            r = rng.random()
            if echo and r < 0.45:
                block.append((ASSISTANT, rng.choice(ECHO), "", echo))
            elif r < 0.8:
                block.append((ASSISTANT, rng.choice(ACKS), "", ""))
            planned[rng.choice(days_)].append(block)

        def fact(days_: range, p: dict[str, Any], templates: list, key: str, echo: str,
                 parents: list = parents) -> None:  # fmt: skip
            """A member's fact, said by the member or (a child's, at times) by a parent naming the child."""
            who, form = p["n"], 0
            if p["role_"] == "child" and rng.random() < 0.6:
                who, form = rng.choice(parents)["n"], 1
            pick = rng.choice(templates)
            text = pick[form] if isinstance(pick, tuple) else pick
            say(days_, who, text.format(**p, w="{w}"), key, echo)

        member_facts: dict[str, tuple[list[Any], str]] = {
            "school": (SCHOOL, "school"),
            "allergy": (ALLERGY, "allergen"),
            "friend": (FRIEND, "friend"),
            "appointment": (APPOINTMENT, "doc"),
            "commute": (COMMUTE, "town"),
            "hobby": (HOBBY, "h"),
        }
        for i, p in enumerate(people):
            for x in p["has"]:
                if x in member_facts:
                    templates, echo = member_facts[x]
                    fact(before_last if x == "appointment" else anywhere, p, templates, f"{x}:{i}", p[echo])
                    continue
                first, echo, second, echo2 = CHANGING[x]
                upd = (x, i) in changed
                fact(early if upd else anywhere, p, first, f"{x}:1:{i}", p[echo])
                if upd:
                    fact(late, p, second, f"{x}:2:{i}", p[echo2] + ("s" if x == "club" else ""))
        home_facts = {"bin": (BIN, ""), "cleaner": (CLEANER, "cleaner"), "plumber": (PLUMBER, "plumber"),
                      "pet": (PET, "pet"), "holiday": (HOLIDAY, "dest"), "budget": (BUDGET, "amount")}  # fmt: skip
        for x, (templates, echo) in home_facts.items():
            upd = (x, -1) in changed
            key = f"{x}:1:h" if x in ("plumber", "cleaner") else f"{x}:h"
            text = rng.choice(templates).format(w="{w}", dates="{dates}", **home)
            say(early if upd else before_last, rng.choice(parents)["n"], text, key, home[echo] if echo else "")
        if ("plumber", -1) in changed:
            say(late, rng.choice(parents)["n"], rng.choice(PLUMBER_NEW).format(**home), "plumber:2:h", home["plumber2"])
        if ("cleaner", -1) in changed:
            say(
                late,
                rng.choice(parents)["n"],
                rng.choice(CLEANER_MOVED).format(**home),
                "cleaner:2:h",
                home["cday2"] + "s",
            )
        prefs = []
        for j, pref in enumerate(rng.sample(PREFERENCES, 4)):
            who = names[j % len(names)]
            if "decaf" in pref[0] and who not in [p["n"] for p in parents]:
                who = rng.choice(parents)["n"]  # coffee habits are a parent's
            prefs.append((who, pref))
            say(anywhere, who, rng.choice(pref[:2]), f"pref:{j}")
        # the assistant's suggestions, each about a member and never taken up
        suggested = []
        targets = rng.sample(names, min(len(names), NEVER_KINDS["assistant only"]))
        targets += rng.sample(names, NEVER_KINDS["assistant only"] - len(targets))
        venues = rng.sample(VENUES, NEVER_KINDS["assistant only"])
        for sug, target, v in zip(rng.sample(SUGGESTIONS, NEVER_KINDS["assistant only"]), targets, venues,
                                  strict=True):  # fmt: skip
            suggested.append((sug, target, v))
            asker = target if target in (p["n"] for p in parents) else rng.choice(parents)["n"]
            ask_ = rng.choice(["Any ideas for something to do?", "What could we do this weekend?",
                               "Any ideas for the holidays?", "I need a plan for the weekend"])  # fmt: skip
            block = [(asker, ask_, "", ""), (ASSISTANT, sug[0].format(v=v, n=target) + ".", "", ""),
                     (asker, rng.choice(DECLINES), "", "")]  # fmt: skip
            planned[rng.choice(anywhere)].append(block)

        sessions, where = [], {}
        for d, day in enumerate(days):
            blocks = planned[d]
            # the session's talkers: the facts' speakers and up to three more members asking for things
            talkers = [b[0][0] for b in blocks] + rng.sample(names, min(len(names), 3))
            for _ in range(rng.randint(7, 11)):
                who = rng.choice(talkers)
                kid = any(p["n"] == who and p["role_"] == "child" for p in people)
                blocks.append([(s, t, "", "") for s, t in filler(rng, who, kid)])
            rng.shuffle(blocks)
            turns: list[dict[str, str]] = []
            for speaker, text, key, echo in (x for b in blocks for x in b):
                if key:
                    w = when(rng, day, past=key.startswith(("job:2", "car:2")))
                    text = wrap(rng, text.format(w=w, dates=holiday_dates(rng, day)), proper)
                elif echo:
                    text = upper_first(text.format(w=echo))
                tid = f"{cid}:D{d + 1}:{len(turns) + 1}"
                turns.append({"id": tid, "speaker": speaker, "text": text})
                if key:
                    where[key] = tid
            sessions.append({"session": d + 1, "date": day.isoformat(), "turns": turns})
        conversations.append({"id": cid, "speakers": [*names, ASSISTANT], "sessions": sessions})

        # candidates: (variants: in the turns' words and paraphrased, or one inference question; evidence; tag)
        pool: dict[str, list[tuple[tuple[str, ...], list[str], str]]] = {t: [] for t in PER_CONVERSATION}

        def ask(kind: str, variants: tuple[str, ...], keys: list[str], pool: dict = pool, where: dict = where,
                tag: str = "", **slots: str) -> None:  # fmt: skip
            """A candidate question with its variants filled in (the wording is chosen when it is kept)."""
            pool[kind].append((tuple(v.format(**slots) for v in variants), [where[x] for x in keys], tag))

        def history(x: str, owner: str, slots: dict[str, Any]) -> None:
            """A change's questions: the earlier value, the current one, both, and when it changed."""
            ask("single-hop", BEFORE[x], [f"{x}:1:{owner}"], **slots)
            for variants in UPDATE[x]:
                ask("knowledge-update", variants, [f"{x}:2:{owner}"], tag=f"{x}:{owner}", **slots)
            ask("multi-hop", HISTORY[x], [f"{x}:1:{owner}", f"{x}:2:{owner}"], tag="history", **slots)
            ask("temporal", TEMPORAL[f"{x}:2"], [f"{x}:2:{owner}"], **slots)

        def key_of(x: str, owner: Any) -> str:
            return f"{x}:1:{owner}" if x in (*CHANGING, "plumber", "cleaner") else f"{x}:{owner}"

        for i, p in enumerate(people):
            for x in p["has"]:
                if (x, i) in changed:
                    history(x, str(i), p)
                    continue
                ask("single-hop", SINGLE[x], [key_of(x, i)], **p)
                if x == "appointment":
                    ask("temporal", TEMPORAL[x], [key_of(x, i)], **p)
                if f"{x}_open" in p:
                    ask("open-domain", (p[f"{x}_open"].format(**p),), [key_of(x, i)])
        for x in home_facts:
            if (x, -1) in changed:
                history(x, "h", home)
                continue
            ask("single-hop", SINGLE[x], [key_of(x, "h")], **home)
            if x in TEMPORAL:
                ask("temporal", TEMPORAL[x], [key_of(x, "h")], **home)
        ask("open-domain", (home["pet_open"],), ["pet:h"])
        ask("open-domain", (home["dest_open"],), ["holiday:h"])
        for x, variants in AGGREGATE.items():
            owners = [i for i, p in enumerate(people) if x in p["has"] and (x, i) not in changed]
            for a, b in [(a, b) for a in owners for b in owners if a < b]:
                ask("multi-hop", variants, [key_of(x, a), key_of(x, b)], a=names[a], b=names[b])
        for j, (who, pref) in enumerate(prefs):
            ask("preference", pref[2], [f"pref:{j}"], n=who)
            ask("open-domain", (pref[3].format(n=who),), [f"pref:{j}"])

        chosen = pick(rng, pool, PER_CONVERSATION)
        never: list[tuple[tuple[str, ...], str]] = []
        for variants in rng.sample(NEVER_SAID, NEVER_KINDS["never said"]):
            who = rng.choice(names)
            never.append((tuple(v.format(n=who) for v in variants), "never said"))
        # an attribute only another member has (their club, appointment or car), in the owner's words
        wrong = [(x, o, a) for x in EXTRAS for o in people for a in people if a is not o and x in o["has"]]
        for x, owner, asked in rng.sample(wrong, NEVER_KINDS["other member's"]):
            never.append((tuple(v.format(**(owner | {"n": asked["n"]})) for v in OTHER[x]), "other member's"))
        for sug, target, _ in suggested:
            never.append((tuple(q.format(n=target) for q in sug[1]), "assistant only"))
        for (wordings, kind), style in zip(never, halves(rng, len(never)), strict=True):
            chosen.append(("adversarial", wordings[style], [], kind))
        for i, (kind, text, ev, nv) in enumerate(chosen, 1):
            q = {"id": f"{cid}:q{i}", "conversation": cid, "type": kind, "question": text, "evidence": ev}
            questions.append(q | ({"never": nv} if nv else {}))
    n_turns = sum(len(s["turns"]) for c in conversations for s in c["sessions"])
    about = (
        f"A family's household assistant, generated by bench/retrieval/generate_family.py (seed {seed}): "
        f"{len(conversations)} households, {n_turns} turns, {len(questions)} questions."
    )
    return {"about": about, "conversations": conversations, "questions": questions}


#: "other member's": the owner's attribute asked about a member who lacks it (in the owner's words)
OTHER = {
    "club": ("Which day does {n} have {club}?", "On what weekday is {n}'s {clubp}?"),
    "appointment": ("When is {n}'s {appt} appointment with {doc}?", "On what date and hour is {n} due for the "
                    "{apptp} with {doc}?"),
    "car": ("What colour is {n}'s {car}?", "Which shade is the {car} that {n} owns?"),
}  # fmt: skip


def main() -> None:
    write(generate(), OUT)


if __name__ == "__main__":
    main()
