"""A ninth retrieval benchmark: a fitness and health coach's clients (coach.json).

Written by the Mnemo team for this repository (no outside data; the repository's licence) after
the eight other sets had been read; nothing is fitted on it and nobody has searched it. It is kept
in reserve, unread, to judge a candidate search rule registered before it is read
(``holdout.py --dataset coach``); a choice made after looking at it makes it a tuning set.

How it differs from the eight others: most facts are measurements with units that keep changing
(a weight logged five times, a 5k time improved three times, a squat 1RM, a resting heart rate,
weekly kilometres, sleep hours, a daily step goal, a blood pressure, a medication's dose). In the
others a changing fact changes once and the update question holds two turns; here an attribute has
a history of two to six values, the same words ("Weighed in at ... kg this morning") say each of
them, and only the number and the session's date tell them apart: "now" wants the latest turn,
"in March" wants the one said that month, "how has it changed" wants them all, in order.

- **A client per conversation**: 10 clients, one namespace each, 20 to 30 dated sessions over
  months of 2026 with an AI coach; turns are "Name: text" and the coach's replies are turns too
  (speaker "Coach").
- **Five measurements per client**: the body weight and a medication's dose always, three more of
  the 5k time, the squat 1RM, the resting heart rate, the weekly kilometres, the sleep hours, the
  daily step goal and the blood pressure; each said two to six times on different sessions, always
  in the same direction (a PB only improves). Beside them, said once: a goal race (name, distance,
  date, a goal time), a target weight, an injury and the physio's advice, a GP who prescribes the
  medication, running shoes, a watch, a gym and its days, a training partner and what they do
  together, a usual running route, a dietary constraint and four preferences.
- **Mixed turns**: generic questions about training and food with wordy answers, scheduling
  ("Running late today"), chatter, many with the facts' words ("Is it normal for my weight to go up
  a kilo overnight?", "Legs are wrecked from squats"); the coach's reply to a measurement at times
  echoes its value ("Logged: 79.8 kg."), at times restates it with the change ("Nice, 23:05 is a
  65-second PB!"), and at times suggests something the client turns down (the "coach only" trap).
- **Dates and histories**: the race is dated ahead ("on 14 June"), the injury in the past
  ("yesterday"); a measurement's turn is dated only by its session. Knowledge-update questions ask
  the current value (the latest turn only); single-hop ones ask the first value or the value in a
  month with exactly one of that attribute's turns; temporal ones ask when a value was said (the
  session's date) or when the race is; multi-hop ones ask a whole history (every value's turn, in
  order) or two facts at once.
- Question types as holdout.TYPES, never-stored ones (``adversarial``, no evidence; ``never``:
  "never said", a measurement never taken, its key terms said nowhere in the conversation;
  "other metric", the near neighbour of a measurement the client gives (the deadlift when only the
  squat is said, the 10k when only the 5k), its terms said nowhere either; "coach only", something
  only the coach suggested and the client declined). Half the questions of each type are in the
  turn's words and half paraphrased (no shared content word but names, values and units); open-
  domain ones are inferences, worded apart.

Names (clients, partners, physios, doctors, gyms, races, routes' places) are disjoint from the eight
other sets (a test checks both ways). Seeded and deterministic (sha256 printed).

    .venv/bin/python -m bench.retrieval.generate_coach
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from bench.retrieval.generated import Candidate, halves, pick, write

OUT = Path(__file__).with_name("coach.json")
SEED = 9029
CONVERSATIONS = 10
ASSISTANT = "Coach"
#: questions per client and type (10 clients: 490 in all)
PER_CONVERSATION = {"single-hop": 12, "multi-hop": 6, "temporal": 6, "open-domain": 5, "knowledge-update": 6,
                    "preference": 4}  # fmt: skip
NEVER_KINDS = {"never said": 5, "other metric": 3, "coach only": 2}
#: measurements per client: weight and dose always, and this many more
MORE_SERIES = 3

CLIENTS = ["Bjarne", "Zdenka", "Hrafn", "Torvald", "Adaeze", "Eberhard", "Obadiah", "Temperance", "Yannick",
           "Zuleika", "Dragomir", "Gwendolen", "Jaroslav", "Nikodem"]  # fmt: skip
FIRST = ["Berengar", "Euphemia", "Mstislav", "Rhosyn", "Vitaliy", "Quillon", "Bronagh", "Cosima", "Dervla", "Efua",
         "Fiachra", "Gaspard", "Hedvig", "Ingeborg", "Jovana", "Kolawole", "Lieselotte", "Modupe", "Nuala", "Odalys",
         "Prosper", "Tiberiu", "Valdis", "Wenna", "Zephyrin", "Oluwaseun", "Parveen", "Quirina", "Sigurd",
         "Ulrike"]  # fmt: skip
LAST = ["Blackwood", "Cheverton", "Esterhazy", "Glendower", "Hollowell", "Iredale", "Jessop", "Kilbride", "Lochhead",
        "Mowbray", "Nettleford", "Pendergast", "Quarrie", "Rossiter", "Stanbridge", "Trelawney", "Wetherell",
        "Yelland", "Brackenridge", "Culpepper", "Dalrymple", "Ellerby", "Fotheringham", "Greatorex"]  # fmt: skip
GYMS = ["Ironbark Fitness", "Forgeworks Gym", "Redpoll Strength Club", "Hammerhold Barbell", "Anvilhouse Gym",
        "Corestone Fitness", "Flintlock Athletic Club", "Gritstone Gym", "Hollowpoint Performance",
        "Deadweight Barbell Club"]  # fmt: skip
#: places for the races and the running routes
PLACES = ["Aldbury", "Brackwater", "Dunsford", "Eastling", "Frampton", "Glaisdale", "Hurstbourne", "Ivinghoe",
          "Kirkoswald", "Marbury", "Newbiggin", "Oxwich", "Pilsley", "Quorndon", "Rushden", "Thirlmere", "Ulverston",
          "Wolsingham", "Ashwell", "Beddgelert", "Dentdale", "Embleton", "Garstang", "Askrigg", "Rookhope"]  # fmt: skip
ROUTES = ["Reservoir", "Common", "Water Park", "Country Park", "Embankment"]
# (distance as the race's name has it, as a turn says it, goal times, open-domain question)
RACES = [("Half Marathon", "a half marathon", ["1:45", "1:50", "1:55", "2:00"],
          "Will {n} run more than 20 kilometres on race day?"),
         ("Marathon", "a full marathon", ["3:30", "3:45", "3:59", "4:15"],
          "Does {n} need to be ready for over 40 kilometres in one go?"),
         ("10 Mile", "a 10-mile road race", ["1:20", "1:25", "1:30"],
          "Is {n}'s race about 16 kilometres long?"),
         ("Trail 15", "a 15 km trail race", ["1:25", "1:35", "1:40"],
          "Will {n}'s race be run off-road?"),
         ("Fell Race", "a 5-mile fell race", ["0:50", "0:55", "1:00"],
          "Will {n}'s race climb over hills?")]  # fmt: skip
SHOES = ["Saucony Endorphin Speed 4", "Hoka Clifton 9", "Nike Pegasus 41", "Brooks Ghost 16", "Asics Novablast 4",
         "New Balance 1080v13", "On Cloudmonster", "Adidas Adizero Boston 12"]  # fmt: skip
WATCHES = ["Garmin Forerunner 265", "Coros Pace 3", "Polar Pacer Pro", "Apple Watch Series 9", "Suunto Race",
           "Fitbit Charge 6", "Garmin Fenix 7"]  # fmt: skip
GYM_DAYS = ["Mondays, Wednesdays and Fridays", "Tuesdays and Thursdays", "Mondays and Thursdays",
            "Tuesdays, Thursdays and Saturdays", "Wednesdays and Fridays"]  # fmt: skip
# (activity as a turn says it, paraphrased, its day)
ACTIVITIES = [("long run", "weekend distance outing", "Saturday"), ("track session", "interval laps", "Tuesday"),
              ("hill repeats", "uphill efforts", "Wednesday"), ("parkrun", "timed community outing", "Saturday"),
              ("strength session", "weights workout", "Thursday"),
              ("tempo run", "threshold-pace outing", "Monday")]  # fmt: skip
# (where, the physio's advice, paraphrase of where, open-domain question)
INJURIES = [("left knee", "to swap running for the cross-trainer for two weeks", "sore joint",
             "Should {n} avoid running for a while?"),
            ("right Achilles", "to do heel drops off a step twice a day", "tendon behind the ankle",
             "Is {n} rehabbing a problem at the back of the ankle?"),
            ("lower back", "to stop heavy squats until it settles", "spine trouble",
             "Should {n} go easy on loaded barbell work for now?"),
            ("left hamstring", "to skip sprints for three weeks", "thigh strain",
             "Should {n} hold off on flat-out efforts?"),
            ("right shoulder", "to do band pull-aparts daily and no overhead pressing", "upper-arm joint",
             "Should {n} keep weights away from above the head?"),
            ("right calf", "to keep every run easy and flat for a fortnight", "lower-leg strain",
             "Should {n} avoid hilly routes for now?")]  # fmt: skip
# (what the client is, a question in the turn's words, paraphrased, open-domain question)
DIETS = [("lactose intolerant, so no milk or regular yoghurt", "Can {n} have a regular whey shake after training?"),
         ("vegetarian, no meat or fish", "Would a chicken stir-fry fit {n}'s meal plan?"),
         ("coeliac, so everything has to be gluten-free", "Can {n} eat ordinary wheat pasta?"),
         ("allergic to peanuts", "Is a satay sauce safe for {n}?"),
         ("vegan, nothing from animals at all", "Could {n} have a cheese omelette after training?"),
         ("pescatarian, fish but no meat", "Would a beef burger fit {n}'s meal plan?")]  # fmt: skip
# (medicine, what for, its doses in order, open-domain question)
MEDS = [("amlodipine", "high blood pressure", ["5 mg", "10 mg"], "Is {n} treated for hypertension?"),
        ("cetirizine", "hay fever", ["5 mg", "10 mg"], "Does pollen season bother {n}?"),
        ("levothyroxine", "an underactive thyroid", ["50 micrograms", "75 micrograms", "100 micrograms"],
         "Does {n} have a thyroid condition?"),
        ("omeprazole", "acid reflux", ["20 mg", "40 mg"], "Does {n} get heartburn?"),
        ("propranolol", "migraines", ["40 mg", "80 mg", "120 mg"], "Does {n} suffer from bad headaches?")]  # fmt: skip
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]  # fmt: skip
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _weight(rng: random.Random) -> list[tuple[str, float]]:
    """Four to six weigh-ins, mostly going down (a client in four gains on purpose)."""
    sign = 1 if rng.random() < 0.25 else -1
    v = round(rng.uniform(64.0, 104.0), 1)
    out = [v]
    for _ in range(rng.randint(3, 5)):
        out.append(round(out[-1] + sign * rng.uniform(0.6, 2.2), 1))
    return [(f"{x:.1f}", x) for x in out]


def _fivek(rng: random.Random) -> list[tuple[str, float]]:
    """Three or four 5k times, each a PB (15 to 70 seconds faster)."""
    s = [rng.randint(21 * 60, 33 * 60)]
    for _ in range(rng.randint(2, 3)):
        s.append(s[-1] - rng.randint(15, 70))
    return [(f"{x // 60}:{x % 60:02d}", float(x)) for x in s]


def _squat(rng: random.Random) -> list[tuple[str, float]]:
    """Three or four squat 1RMs in 2.5 kg steps, each heavier."""
    v = [2.5 * rng.randint(20, 48)]
    for _ in range(rng.randint(2, 3)):
        v.append(v[-1] + 2.5 * rng.randint(2, 5))
    return [(f"{x:g}", x) for x in v]


def _rhr(rng: random.Random) -> list[tuple[str, float]]:
    """Three or four resting heart rates, each lower."""
    v = [rng.randint(60, 76)]
    for _ in range(rng.randint(2, 3)):
        v.append(v[-1] - rng.randint(2, 5))
    return [(str(x), float(x)) for x in v]


def _mileage(rng: random.Random) -> list[tuple[str, float]]:
    """Three or four weekly totals in kilometres, each longer."""
    v = [rng.randint(12, 30)]
    for _ in range(rng.randint(2, 3)):
        v.append(v[-1] + rng.randint(4, 9))
    return [(str(x), float(x)) for x in v]


def _sleep(rng: random.Random) -> list[tuple[str, float]]:
    """Three nightly sleep averages in quarter hours, each longer."""
    v = [0.25 * rng.randint(20, 26)]
    for _ in range(2):
        v.append(v[-1] + 0.25 * rng.randint(1, 3))
    return [(f"{x:g}", x) for x in v]


def _steps(rng: random.Random) -> list[tuple[str, float]]:
    """Two or three daily step goals, each higher (written with a thousands comma, never "10k")."""
    v = [500 * rng.randint(10, 16)]
    for _ in range(rng.randint(1, 2)):
        v.append(v[-1] + 500 * rng.randint(2, 4))
    return [(f"{x:,}", float(x)) for x in v]


def _bp(rng: random.Random) -> list[tuple[str, float]]:
    """Two or three blood pressures, each lower."""
    sys_, dia = rng.randint(132, 148), rng.randint(84, 95)
    out = [(sys_, dia)]
    for _ in range(rng.randint(1, 2)):
        sys_, dia = sys_ - rng.randint(3, 8), dia - rng.randint(2, 5)
        out.append((sys_, dia))
    return [(f"{s}/{d}", float(s)) for s, d in out]


#: A measurement: how its values are drawn, its turns (first, later), the coach's restatement of a
#: later value ({v} the value, {d} the change, {dir} its direction), its questions (each a pair: in
#: the turns' words, paraphrased) and its near neighbour never said (the "other metric" trap).
METRICS: dict[str, dict[str, Any]] = {
    "weight": {
        "draw": _weight, "unit": "kg",
        "first": ["Weighed in at {v} kg this morning", "Stepped on the scale today: {v} kg"],
        "later": ["Weighed in at {v} kg this morning", "Stepped on the scale today: {v} kg",
                  "The scale said {v} kg this morning"],
        "restate": "That's {d} kg {dir} since the last weigh-in, steady work.",
        "first_q": ("What did {n} weigh at the first weigh-in?", "How heavy was {n} when the coaching began?"),
        "month_q": ("What did {n} weigh in {month}?", "How heavy was {n} during {month}?"),
        "now_q": [("What does {n} weigh now?", "How heavy is {n} at present?"),
                  ("What was {n}'s latest weigh-in?", "What is the most recent body mass figure for {n}?")],
        "history_q": ("How has {n}'s weight changed from weigh-in to weigh-in?",
                      "Which body mass figures has {n} reported, in order?"),
        "when_q": ("When did {n} weigh in at {v} kg?", "On what date was {n}'s body mass {v} kg?"),
        "other": ("What is {n}'s body fat percentage?", "How much of {n}'s mass is adipose tissue?",
                  ("body fat", "adipose")),
    },
    "fivek": {
        "draw": _fivek, "unit": "",
        "first": ["Ran a 5k in {v} today", "Timed 5k this morning: {v}"],
        "later": ["New 5k PB today: {v}", "Ran a 5k in {v} today, a new PB"],
        "restate": "Nice, {v} is a {d}-second PB!",
        "first_q": ("What was {n}'s first 5k time?", "How quickly did {n} cover five kilometres at the outset?"),
        "month_q": ("What was {n}'s 5k time in {month}?", "How quickly did {n} cover five kilometres during {month}?"),
        "now_q": [("What is {n}'s 5k PB now?", "What is {n}'s fastest five-kilometre result at present?"),
                  ("What was {n}'s latest 5k time?", "How quickly did {n} most recently cover five kilometres?")],
        "history_q": ("How has {n}'s 5k time improved?", "Which five-kilometre results has {n} reported, in order?"),
        "when_q": ("When did {n} run a 5k in {v}?", "On what date did {n} cover five kilometres in {v}?"),
        "other": ("What is {n}'s 10k time?", "How long does {n} take over ten kilometres?",
                  ("10k", "ten kilometres")),
    },
    "squat": {
        "draw": _squat, "unit": "kg",
        "first": ["Tested my squat today, 1RM is {v} kg", "Squat 1RM test this morning: {v} kg"],
        "later": ["Hit a new squat 1RM today: {v} kg", "Squat 1RM is up to {v} kg as of today"],
        "restate": "Great lift, {v} kg is {d} kg more than last time!",
        "first_q": ("What was {n}'s first squat 1RM?",
                    "How much could {n} lift once with a bar across the shoulders at the outset?"),
        "month_q": ("What was {n}'s squat 1RM in {month}?",
                    "How much could {n} lift once with a bar across the shoulders during {month}?"),
        "now_q": [("What is {n}'s squat 1RM now?",
                   "How much can {n} lift once with a bar across the shoulders at present?"),
                  ("What was {n}'s latest squat 1RM test?",
                   "What is the heaviest knee-bending barbell lift {n} has managed most recently?")],
        "history_q": ("How has {n}'s squat 1RM gone up?",
                      "Which one-rep figures with a bar across the shoulders has {n} reported, in order?"),
        "when_q": ("When did {n} squat {v} kg?", "On what date did {n} lift {v} kg with a bar across the shoulders?"),
        "other": ("What is {n}'s deadlift 1RM?", "How much can {n} lift off the ground in a single hip-hinge?",
                  ("deadlift", "hip-hinge")),
    },
    "rhr": {
        "draw": _rhr, "unit": "bpm",
        "first": ["My resting heart rate is {v} bpm this week", "Resting heart rate this week: {v} bpm"],
        "later": ["My resting heart rate is {v} bpm this week", "Resting heart rate this week: {v} bpm",
                  "Resting heart rate is down to {v} bpm this week"],
        "restate": "Down {d} bpm, your aerobic base is building.",
        "first_q": ("What was {n}'s first resting heart rate?",
                    "How many beats a minute did {n}'s pulse at rest show at the outset?"),
        "month_q": ("What was {n}'s resting heart rate in {month}?", "What was {n}'s pulse at rest during {month}?"),
        "now_q": [("What is {n}'s resting heart rate now?", "What is {n}'s pulse at rest at present?"),
                  ("What was {n}'s latest resting heart rate?",
                   "What is the most recent pulse-at-rest figure for {n}?")],
        "history_q": ("How has {n}'s resting heart rate changed?",
                      "Which pulse-at-rest figures has {n} reported, in order?"),
        "when_q": ("When was {n}'s resting heart rate {v} bpm?",
                   "On what date did {n}'s pulse at rest show {v} beats a minute?"),
        "other": ("What is {n}'s max heart rate?", "What is the highest pulse {n} has ever recorded?",
                  ("max heart rate", "highest pulse")),
    },
    "mileage": {
        "draw": _mileage, "unit": "km",
        "first": ["Ran {v} km in total this week", "Weekly running total: {v} km"],
        "later": ["Ran {v} km in total this week", "Weekly running total: {v} km, my biggest yet"],
        "restate": "{v} km is {d} km more a week than before, keep the easy runs easy.",
        "first_q": ("How many km a week did {n} run at first?", "What distance on foot did {n} cover per seven days at "
                    "the outset?"),
        "month_q": ("How many km did {n} run in a week in {month}?",
                    "What distance on foot did {n} cover per seven days during {month}?"),
        "now_q": [("How many km a week does {n} run now?",
                   "What distance on foot does {n} cover per seven days at present?"),
                  ("What was {n}'s latest weekly running total?",
                   "What is the most recent seven-day distance on foot for {n}?")],
        "history_q": ("How has {n}'s weekly running total grown?",
                      "Which seven-day distances on foot has {n} reported, in order?"),
        "when_q": ("When did {n} run {v} km in a week?", "On what date did {n} report {v} km covered on foot over "
                   "seven days?"),
        "other": ("How far does {n} cycle each week?", "How many kilometres does {n} ride on a bike weekly?",
                  ("cycle", "bike")),
    },
    "sleep": {
        "draw": _sleep, "unit": "hours",
        "first": ["Averaging {v} hours of sleep a night this week", "Sleep this week: {v} hours a night on average"],
        "later": ["Averaging {v} hours of sleep a night this week", "Sleep is up to {v} hours a night this week"],
        "restate": "{v} hours is better, recovery happens in bed.",
        "first_q": ("How many hours of sleep was {n} averaging at first?",
                    "How long did {n} rest in bed nightly at the outset?"),
        "month_q": ("How many hours of sleep was {n} averaging in {month}?",
                    "How long did {n} rest in bed nightly during {month}?"),
        "now_q": [("How many hours of sleep is {n} averaging now?", "How long does {n} rest in bed nightly at "
                   "present?"),
                  ("What was {n}'s latest sleep average?", "What is the most recent nightly rest figure for {n}?")],
        "history_q": ("How has {n}'s sleep average changed?", "Which nightly rest figures has {n} reported, in "
                      "order?"),
        "when_q": ("When was {n} averaging {v} hours of sleep?", "On what date did {n} report resting {v} hours "
                   "nightly?"),
        "other": ("How long are {n}'s afternoon naps?", "How long does {n} doze in the daytime?", ("naps", "doze")),
    },
    "steps": {
        "draw": _steps, "unit": "steps",
        "first": ["Set my daily step goal to {v} steps", "My daily step goal is {v} steps for now"],
        "later": ["Raised my daily step goal to {v} steps", "Daily step goal is {v} steps from today"],
        "restate": "{v} steps a day it is, that's {d} more than before.",
        "first_q": ("What was {n}'s first daily step goal?", "How much walking did {n} aim for each day at the "
                    "outset?"),
        "month_q": ("What was {n}'s daily step goal in {month}?", "How much walking did {n} aim for each day during "
                    "{month}?"),
        "now_q": [("What is {n}'s daily step goal now?", "How much walking does {n} aim for each day at present?"),
                  ("What did {n} last set the daily step goal to?",
                   "What is the most recent walking target {n} has chosen?")],
        "history_q": ("How has {n}'s daily step goal changed?", "Which walking targets has {n} chosen, in order?"),
        "when_q": ("When did {n} set a daily step goal of {v}?", "On what date did {n} choose a walking target of "
                   "{v}?"),
        "other": ("How many flights of stairs does {n} climb a day?", "How many staircases does {n} go up daily?",
                  ("stairs", "staircases")),
    },
    "bp": {
        "draw": _bp, "unit": "",
        "first": ["Blood pressure at the pharmacy was {v} today", "Checked my blood pressure at home: {v}"],
        "later": ["Blood pressure at the pharmacy was {v} today", "Checked my blood pressure at home: {v}"],
        "restate": "{v} is heading the right way, keep the walks going.",
        "first_q": ("What was {n}'s first blood pressure?", "What did the arterial readings show for {n} at the "
                    "outset?"),
        "month_q": ("What was {n}'s blood pressure in {month}?", "What did the arterial readings show for {n} during "
                    "{month}?"),
        "now_q": [("What is {n}'s blood pressure now?", "What do the arterial readings show for {n} at present?"),
                  ("What was {n}'s latest blood pressure?", "What is the most recent arterial figure for {n}?")],
        "history_q": ("How has {n}'s blood pressure changed?", "Which arterial figures has {n} reported, in order?"),
        "when_q": ("When was {n}'s blood pressure {v}?", "On what date did {n}'s arterial reading show {v}?"),
        "other": ("What is {n}'s cholesterol level?", "What did {n}'s lipid panel show?", ("cholesterol", "lipid")),
    },
    "dose": {
        "draw": None, "unit": "",
        "first": ["{doc} started me on {v} of {med} for {reason}", "I take {v} of {med} for {reason}, {doc} "
                  "prescribed it"],
        "later": ["{doc} changed my {med} to {v} {w}", "My {med} is {v} now, {doc} changed it {w}"],
        "restate": "Noted, {v} of {med}. Take it as {doc_s} says and tell me if training feels different.",
        "first_q": ("What dose of {med} did {n} start on?", "How much of the daily tablet was {n} first given?"),
        "month_q": ("What dose of {med} was {n} on in {month}?", "How much of the daily tablet was {n} given during "
                    "{month}?"),
        "now_q": [("What dose of {med} is {n} on now?", "How much of the daily tablet is {n} given at present?"),
                  ("What did {doc} last change {n}'s {med} to?",
                   "What is the most recent prescription strength for {n}'s daily tablet?")],
        "history_q": ("How has {n}'s dose of {med} changed?", "Which prescription strengths of the daily tablet has "
                      "{n} been given, in order?"),
        "when_q": ("When did {n} go on {v} of {med}?", "On what date was {n} given {v} of the daily tablet?"),
        "other": ("How much ibuprofen does {n} take?", "What painkiller dose is {n} on?", ("ibuprofen", "painkiller")),
    },
}  # fmt: skip
#: the measurements a client may have beside weight and dose
OPTIONAL = ("fivek", "squat", "rhr", "mileage", "sleep", "steps", "bp")

# never said: (question in familiar words, paraphrased, terms said nowhere in the conversation)
NEVER_SAID = [
    ("What is {n}'s VO2 max?", "What is {n}'s maximal oxygen uptake?", ("VO2", "oxygen")),
    ("What is {n}'s shoe size?", "Which size of trainers fits {n}?", ("size",)),
    ("What is {n}'s waist measurement?", "How many centimetres round the middle is {n}?", ("waist", "centimetres")),
    ("What is {n}'s blood sugar level?", "What did {n}'s glucose test show?", ("blood sugar", "glucose")),
    ("How many push-ups can {n} do?", "How many press-ups can {n} manage in a row?", ("push-ups", "press-ups")),
    ("How much can {n} bench press?", "What is the heaviest {n} has pressed lying on a bench?", ("bench",)),
    ("What is {n}'s BMI?", "What is {n}'s body mass index?", ("BMI", "body mass index")),
    ("How many pull-ups can {n} do?", "How many times can {n} lift the chin over a bar?", ("pull-ups", "chin")),
    ("What is {n}'s grip strength?", "How hard can {n} squeeze a dynamometer?", ("grip", "dynamometer")),
    ("How far can {n} swim?", "What distance can {n} cover in the pool?", ("swim", "pool")),
    ("What is {n}'s vertical jump?", "How high can {n} leap from standing?", ("jump", "leap")),
    ("What is {n}'s iron level?", "What did {n}'s ferritin test show?", ("iron", "ferritin")),
]  # fmt: skip
# things only the coach suggests: (the words that mark it, the coach's turn, (question in its words, paraphrased))
SUGGESTIONS = [
    ("creatine", "You could add creatine, 5 g a day helps with the strength work.",
     ("How much creatine does {n} take a day?", "What daily dose of the strength supplement is {n} on?")),
    ("foam roller", "A foam roller after your runs would loosen those calves.",
     ("Which foam roller does {n} use?", "What self-massage cylinder does {n} own?")),
    ("sauna", "A sauna session after the long run could help you recover.",
     ("How long are {n}'s sauna sessions?", "How many minutes does {n} spend in the hot room?")),
    ("ice bath", "An ice bath after the hard sessions might take the edge off the soreness.",
     ("How cold is {n}'s ice bath?", "What temperature is {n}'s post-workout cold plunge?")),
    ("yoga", "A weekly yoga class would do wonders for your hip mobility.",
     ("Which yoga class does {n} go to?", "Which stretching-and-breathing class does {n} attend?")),
    ("Pilates", "Pilates twice a week would strengthen your core for the later miles.",
     ("Which Pilates studio does {n} go to?", "Where does {n} do mat-based core classes?")),
    ("rowing machine", "Ten minutes on the rowing machine makes a good warm-up.",
     ("How far does {n} go on the rowing machine?", "What distance does {n} cover on the erg?")),
    ("chest strap", "A chest strap would read your heart rate more accurately than the wrist.",
     ("Which chest strap does {n} wear?", "What torso-worn pulse sensor does {n} use?")),
    ("electrolyte", "Electrolyte tablets on the long runs would help with the cramps.",
     ("Which electrolyte tablets does {n} use?", "What salt supplement does {n} take on long outings?")),
    ("massage gun", "A massage gun is handy for tight quads after squats.",
     ("Which massage gun does {n} use?", "What percussion device does {n} own?")),
]  # fmt: skip
ASKS = ["Anything else I could add to help recovery?", "Any ideas to get more out of my training?",
        "What else could I be doing between sessions?"]  # fmt: skip
DECLINES = ["Not for me, thanks.", "I'll pass for now.", "Maybe later, I'm keeping it simple.",
            "Hmm, no, not this month.", "Nah, too much faff."]  # fmt: skip

# preferences: (direct turn, indirect turn, (question in the turns' words, paraphrased), open-domain question)
PREFERENCES = [
    ("I like to train first thing in the morning, before work",
     "Evenings are hopeless for me, I want my sessions done by 8 am",
     ("When does {n} like to train?", "What hour of the day suits {n}'s workouts?"),
     "Would {n} sign up for a 9 pm circuit class?"),
    ("I hate treadmills, I'd rather run in the rain",
     "No indoor belt running in my plan please, outside only",
     ("Does {n} like treadmills?", "How does {n} feel about running indoors on a machine?"),
     "Would {n} enjoy intervals on a gym's running machine?"),
    ("I always train with music, never without my headphones",
     "A session without a playlist in my ears just doesn't happen",
     ("Does {n} train with music?", "Does {n} want a soundtrack while working out?"),
     "Would {n} enjoy a silent session with no audio?"),
    ("I can't stand burpees, leave them out of every plan",
     "Swap the burpees for anything else please, I loathe them",
     ("Does {n} do burpees?", "Which full-body conditioning drill does {n} refuse?"),
     "Would {n} be happy with a hundred burpees as a finisher?"),
    ("Keep my sessions under 45 minutes, I don't have more time",
     "Anything longer than three quarters of an hour won't fit my day",
     ("How long can {n}'s sessions be?", "What is the longest workout {n} has room for?"),
     "Would a 90-minute workout suit {n}?"),
    ("Send me the plan as a table with sets and reps",
     "A grid for the weekly plan please, columns for sets and reps",
     ("How does {n} want the plan laid out?", "In what format should {n}'s programme be written?"),
     "Would {n} be happy with the programme as a paragraph of prose?"),
    ("I meal prep on Sundays for the whole week",
     "Sunday afternoons I cook everything for the week in one go",
     ("When does {n} meal prep?", "On which day are {n}'s batches of food made?"),
     "Would {n} cook a fresh dinner from scratch every weeknight?"),
    ("I don't eat breakfast, my first meal is around noon",
     "Skip the morning meal in my plan, I start eating at lunch",
     ("Does {n} eat breakfast?", "Does {n} have anything before midday?"),
     "Would {n} want overnight oats planned for 7 am?"),
    ("I love spicy food, put chilli in everything",
     "The hotter the better for recipes, I add hot sauce to everything",
     ("Does {n} like spicy food?", "How does {n} feel about heat in dishes?"),
     "Would {n} find a mild korma too bland?"),
    ("Sunday is my rest day, no sessions then",
     "Keep Sundays free of training please, that's my day off",
     ("Which day is {n}'s rest day?", "Which weekday is {n}'s break from exercise?"),
     "Would {n} do a long run on a Sunday?"),
    ("Keep your replies short, I read them between meetings",
     "Two or three lines from you is plenty, I don't have time for essays",
     ("Does {n} want short replies?", "How brief should the coaching answers to {n} be?"),
     "Would {n} enjoy a 500-word reply?"),
]  # fmt: skip

# the single facts' turns (the client's); {w} a past date phrase filled on the day
RACE = ["Signed up for the {race}, it's {dist} on {rdate}", "I've entered the {race}, {dist} on {rdate}"]
GOAL = ["I'm aiming to finish the {race} in under {goal}", "Goal for the {race} is under {goal}"]
TARGET = ["My target weight is {target} kg by the end of the summer", "I want to get down to {target} kg by "
          "summer"]  # fmt: skip
TARGET_UP = ["My target weight is {target} kg by the end of the summer", "I want to get up to {target} kg by "
             "summer"]  # fmt: skip
INJURY = ["Tweaked my {part} {w}, my physio {physio} says {advice}", "Hurt my {part} {w}; {physio}, my physio, "
          "told me {advice}"]  # fmt: skip
SHOE = ["Running in {shoes} at the moment, they feel great", "My running shoes are {shoes}, second pair now"]
WATCH = ["My watch is the {watch}, it logs everything", "I track every session on my {watch}"]
GYM = ["I train at {gym}, I go {days}", "My gym is {gym}, I'm there {days}"]
PARTNER = ["{partner} and I do the {activity} together every {aday}", "Every {aday} I do the {activity} with "
           "{partner}"]  # fmt: skip
ROUTE = ["My usual running route is round {route}", "I do most of my runs round {route}"]
DIET = ["Food-wise, I'm {diet}", "Just so you know for the meal plan, I'm {diet}"]
LEADS = ["Quick update: ", "For the log, ", "FYI, ", "Update: ", "", "", "", ""]
TAILS = [" Thanks!", " Cheers.", "", "", "", ""]
# a fact's turn starting with one of these may be lower-cased after a lead-in
LOWER_OK = ("Weighed", "Stepped", "The", "Ran", "Timed", "New", "Tested", "Squat", "Hit", "My", "Resting", "Weekly",
            "Averaging", "Sleep", "Set", "Raised", "Daily", "Blood", "Checked", "Signed", "Goal",
            "Tweaked", "Hurt", "Running", "Food-wise", "Just", "Every", "Evenings", "No", "A", "Swap", "Keep",
            "Anything", "Send", "Skip", "Two")  # fmt: skip

# the coach's reply to a fact: at times it echoes the value, at times it restates the fact
ECHO = ["Logged: {w}.", "Got it, {w}.", "{w}, noted in your log.", "Okay, {w} it is.", "Noted: {w}."]
ACKS = ["Noted.", "Got it.", "Thanks for the update.", "Good to know.", "Noted, thanks."]
ADVICE = ["Good. Remember the basics: sleep, protein, and easy days kept easy.",
          "Thanks. Consistency over weeks matters more than any single session.",
          "Noted. Let's keep building slowly, ten percent more a week at most."]  # fmt: skip
RESTATE = {
    "race": "Great, the {race} on {rdate} goes at the top of the plan.",
    "goal": "Under {goal} at the {race} is realistic if the long runs go well.",
    "target": "{target} kg it is, we'll get there steadily.",
    "injury": "Sorry to hear that. Do what {physio_f} says and we'll lighten the week.",
    "shoes": "The {shoes} are a solid choice for most of your runs.",
    "watch": "Good, I'll read your sessions from the {watch} data you send.",
    "gym": "Got it, {gym} on {days}, I'll put the strength work there.",
    "partner": "Training with {partner_f} keeps you honest, nice.",
    "route": "Round {route} is a good loop for easy runs.",
    "diet": "I'll keep the meal plan {diet_short}.",
}

# filler: a question, scheduling or chatter, and the coach's reply (wordy for the questions)
CHAT = [
    ("Running late today", "No problem, just do the warm-up properly when you get going."),
    ("Can we push today's check-in to tonight?", "Sure, tonight works."),
    ("Session done!", "Great work. How did it feel?"),
    ("Rest day today", "Enjoy it, rest is part of training."),
    ("Legs are wrecked from squats", "That's normal two days after heavy legs. A walk and some gentle mobility "
     "will help more than sitting still."),
    ("How much protein should I eat a day?", "A good target for most people who train is about 1.6 grams per "
     "kilogram of body weight a day, spread across three or four meals. Eggs, yoghurt, beans, fish and lentils all "
     "count."),
    ("Is it normal for my weight to go up a kilo overnight?", "Completely normal. Water, salt, carbs and digestion "
     "move the scale by a kilo or more from day to day; the trend over weeks is what matters."),
    ("How often should I weigh myself?", "Once a week, same day, same time, after the bathroom and before "
     "breakfast works well. Daily is fine too if you look at the weekly average rather than each number."),
    ("What's a good resting heart rate?", "For most adults 60 to 100 beats a minute is the normal range, and "
     "trained runners often sit lower. Your own trend matters more than anyone else's number."),
    ("Should I run when my legs are sore?", "An easy, short run is usually fine with ordinary soreness. Sharp "
     "pain or pain that changes how you run is a reason to stop and rest."),
    ("Slept badly last night", "Keep today easy then. One bad night won't undo your progress."),
    ("Feeling tired this week", "Let's swap tomorrow's hard session for an easy one and see how you feel."),
    ("What should I eat before a morning run?", "Something small and easy to digest: a banana, toast with honey, "
     "or nothing at all if the run is short and easy."),
    ("Is coffee before training okay?", "Yes, for most people a coffee 30 to 60 minutes before helps. Skip it if it "
     "upsets your stomach."),
    ("How many steps a day is actually enough?", "There's no magic number. Health benefits climb steadily up to "
     "around 8,000 to 9,000 steps a day and level off after that."),
    ("Raining again", "Rain makes for character-building runs. Dress light and go."),
    ("Can you explain what zone 2 means?", "Zone 2 is an easy aerobic effort: you can talk in full sentences, "
     "breathing is steady, and you could keep going for a long time. Most of your running should feel like that."),
    ("Why do my knees click when I squat?", "Clicking without pain is almost always harmless. If it comes with "
     "pain or swelling, get it checked."),
    ("Had pizza last night, oops", "One meal doesn't matter. Back to normal today."),
    ("What's the point of a deload week?", "Every few weeks we cut the volume so your body can absorb the work. "
     "You come back fresher and usually stronger."),
    ("How do I stop getting a stitch?", "Slow down, breathe out hard as the foot on the stitch side lands, and "
     "don't eat a big meal in the two hours before."),
    ("Busy week at work, might miss a session", "That's fine, we'll move things around. Two short sessions beat "
     "none."),
    ("Back from holiday, let's get going again", "Welcome back! We'll ease in this week."),
    ("Is it bad to train on an empty stomach?", "For easy sessions it's fine for most people. For hard or long ones "
     "you'll usually perform better with something in the tank."),
    ("How long should a warm-up be?", "Ten minutes of easy movement and a few drills is plenty for most "
     "sessions."),
    ("What counts as an easy run?", "An effort where you could chat the whole way. If you can't talk, slow down."),
    ("Do I need sports drinks?", "For runs under an hour, water is enough. Longer or hotter sessions can use "
     "some carbs and salt."),
    ("My calves are tight", "Some gentle calf raises and stretching after runs will help."),
    ("Thanks, that helps", "Anytime."),
    ("Morning!", "Morning! Ready for today?"),
    ("Done for today", "Nice one. Recover well."),
    ("Quick question about recovery", "Sure, go ahead."),
    ("Should I stretch before or after?", "Dynamic movement before, static stretching after if you enjoy it. "
     "Neither prevents injuries much on its own."),
    ("Skipped yesterday, sorry", "No apology needed. Just pick up with today's session."),
    ("Is it okay to do strength and running on the same day?", "Yes. Put the more important one first, and keep "
     "a few hours between them if you can."),
    ("How fast should I try to lose weight?", "About half a kilo a week is a sustainable pace for most people. "
     "Faster usually costs muscle and energy."),
    ("What's a good snack after training?", "Something with protein and some carbs: yoghurt with fruit, a "
     "sandwich, or milk and a banana."),
    ("Can I have a beer after the race?", "Of course. Celebrate, then rehydrate."),
    ("Why am I hungrier on rest days?", "Your body is refuelling after the harder days. Eat to appetite and keep "
     "protein steady."),
    ("The gym was packed", "Peak hours are rough. Early mornings or late evenings are quieter."),
    ("Need new headphones", "Go for ones that stay put when you sweat."),
    ("How do I know if I'm overtraining?", "Persistent fatigue, a worse mood, poor sleep and performances dropping "
     "for more than a week or two. If that sounds familiar, we back off."),
    ("Heading out now", "Have a good one."),
    ("Hot today, any tips?", "Slow down, drink before you're thirsty, and run early if you can."),
    ("Do I need to count calories?", "Not necessarily. Regular meals built around protein and vegetables get most "
     "people most of the way."),
    ("My watch died mid-run", "Annoying! Just log the time roughly."),
    ("How do I get better at hills?", "Short hill efforts once a week and strong legs from the gym. Keep the "
     "effort even, not the pace."),
    ("Can you move Thursday's session to Friday?", "Done, Thursday is rest now."),
    ("Not feeling it today", "Do the first ten minutes. If you still feel flat, call it a day."),
    ("What's the difference between a PB and a PR?", "Nothing, just British and American habits. Both mean your "
     "best ever."),
    ("Just finished the session, wow", "Sounds like a good one!"),
    ("Weekend plans might get in the way", "We'll fit the key session in wherever it works."),
    ("Tell me something motivating", "Every run you've logged is one your future self is thankful for."),
    ("What's a tempo run for?", "It teaches your body to hold a comfortably hard pace for longer, which helps at "
     "every race distance."),
    ("Should I take a day off when I have a cold?", "If it's above the neck, easy movement is usually fine. Below "
     "the neck or a fever, rest."),
    ("I keep waking up at 4am", "Try keeping the room cool and dark, and skip caffeine after lunch."),
    ("Only 3,000 steps today, desk day", "Tomorrow's another day. A short walk after dinner adds up."),
    ("Do I need to run a 5k every week?", "No. A 5k effort now and then is a useful check, but most weeks easy "
     "running does the job."),
    ("My heart rate shot up on the hills today", "Normal on climbs. Go by effort uphill, not by the watch."),
    ("Squats felt heavy today", "Some days the bar just feels heavier. Keep the form tidy and leave a rep in the "
     "tank."),
    ("Should I weigh myself after a big weekend?", "Wait until midweek; on Monday the scale mostly shows water and "
     "salt."),
    ("How much sleep do I actually need?", "Most adults do best on seven to nine hours. Hard training pushes you "
     "toward the top of that range."),
    ("Pharmacy had a queue, didn't get my blood pressure done", "No rush, next week is fine."),
]  # fmt: skip
# filler naming the partner, the gym, the physio or the route
PERSONAL_CHAT = [
    ("{partner_f} bailed on our session today", "Happens. Go solo and keep it easy."),
    ("Ran with {partner_f} this morning, good chat", "Best kind of run."),
    ("{gym} was packed this morning", "Try a quieter slot next time if you can."),
    ("{gym} is closed for a refurb this week", "Let's do bodyweight sessions at home until it reopens."),
    ("Seeing {physio_f} again next week", "Good, ask about when to add speed back."),
    ("{physio_f} was pleased with the progress", "Great news."),
    ("Nice loop round {route} today", "Lovely. Easy pace?"),
    ("Muddy round {route} after the rain", "Trail shoes weather."),
]  # fmt: skip

# multi-hop pairs of single facts: (keys, (question in the turns' words, paraphrased))
PAIRS = [
    (("shoes", "watch"), ("Which running shoes and which watch does {n} use?",
                          "What footwear and what wrist device does {n} train with?")),
    (("gym", "partner"), ("Which gym does {n} train at, and who does {n} do the {activity} with?",
                          "Where does {n} lift weights, and which friend joins the {activity_p}?")),
    (("injury", "dose:0"), ("Who are {n}'s physio and the doctor who prescribed the {med}?",
                            "Which clinicians look after {n}?")),
    (("race", "target"), ("Which race has {n} signed up for, and what is {n}'s target weight?",
                          "What event is {n} preparing for, and what body mass is {n} aiming for?")),
]  # fmt: skip
SINGLE = {
    "race": ("Which race has {n} signed up for?", "What event is {n} preparing for?"),
    "goal": ("What time is {n} aiming for at the {race}?", "How fast does {n} hope to complete the {race}?"),
    "target": ("What is {n}'s target weight?", "What body mass is {n} aiming for?"),
    "gym": ("Which gym does {n} train at?", "Where does {n} lift weights?"),
    "days": ("Which days does {n} go to {gym}?", "On what weekdays does {n} turn up at {gym}?"),
    "shoes": ("Which running shoes does {n} use?", "What footwear does {n} train in outdoors?"),
    "watch": ("Which watch does {n} use?", "What wrist device records {n}'s workouts?"),
    "partner": ("Who does {n} do the {activity} with?", "Which friend joins {n} for the {activity_p}?"),
    "partner_rev": ("What does {n} do with {partner} every {aday}?", "Which workout does {partner} share with "
                    "{n}?"),
    "route": ("Where is {n}'s usual running route?", "Where does {n} normally go out for a jog?"),
    "diet": ("What does {n} say about food for the meal plan?", "Which dietary restriction applies to {n}?"),
    "physio": ("Who is {n}'s physio?", "Which clinician treats {n}'s {part_p}?"),
    "advice": ("What did {physio_f} tell {n} to do about the {part}?", "What rehab did {physio_f} prescribe {n}?"),
    "doctor": ("Who prescribed {n}'s {med}?", "Which GP writes {n}'s prescriptions?"),
    "reason": ("What does {n} take {med} for?", "Which condition is {n}'s daily tablet treating?"),
}  # fmt: skip
TEMPORAL = {
    "race": ("When is the {race}?", "On what date does the {race} take place?"),
    "injury": ("When did {n} hurt the {part}?", "On what date was {n} injured?"),
}


def past(rng: random.Random, day: date) -> str:
    """An injury's or a change's date as said on ``day``: relative mostly, absolute at times."""
    if rng.random() < 0.3:
        d = day - timedelta(days=rng.randint(2, 6))
        return f"on {d.day} {MONTHS[d.month - 1]}"
    return rng.choice(["yesterday", "this morning", "on Saturday", "at the weekend", "last night"])


def upper_first(text: str) -> str:
    return text[0].upper() + text[1:]


def wrap(rng: random.Random, text: str) -> str:
    """A fact's turn: maybe a lead-in before it (the first word lower-cased if it is an ordinary
    word, never a name or a value) and a word of thanks after it."""
    lead = rng.choice(LEADS)
    if lead:
        keep = text.split()[0] not in LOWER_OK
        text = lead + (text if keep else text[0].lower() + text[1:])
    text = upper_first(text)
    return text.rstrip(".") + ("" if text.endswith(("?", "!")) else ".") + rng.choice(TAILS)


def change(metric: str, values: list[tuple[str, float]], i: int) -> str:
    """How much the ``i``-th value moved from the one before, as the coach says it."""
    d = abs(values[i][1] - values[i - 1][1])
    if metric == "weight":  # 0.8, not 0.7999999999999972
        return f"{d:.1f}"
    return f"{int(d):,}" if metric == "steps" else f"{d:g}"


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    conversations: list[dict[str, Any]] = []
    questions: list[dict[str, Any]] = []
    clients = rng.sample(CLIENTS, CONVERSATIONS)
    people = [f"{f} {s}" for f, s in zip(rng.sample(FIRST, 2 * CONVERSATIONS), rng.sample(LAST, 2 * CONVERSATIONS),
                                         strict=True)]  # fmt: skip
    doctors = [f"Dr {s}" for s in rng.sample(LAST, CONVERSATIONS)]  # may share a surname with a physio elsewhere
    gyms = rng.sample(GYMS, CONVERSATIONS)
    places = rng.sample(PLACES, 2 * CONVERSATIONS)
    for k in range(CONVERSATIONS):
        cid = f"k{k}"
        n = clients[k]
        n_sessions = rng.randint(20, 30)
        start = date(2026, 1, 5) + timedelta(days=rng.randint(0, 30))
        days = [start]
        for _ in range(n_sessions - 1):
            days.append(days[-1] + timedelta(days=rng.randint(3, 8)))
        anywhere = range(n_sessions)
        physio, partner = people[2 * k], people[2 * k + 1]
        race_name, dist, goals, race_open = rng.choice(RACES)
        part, advice, part_p, injury_open = rng.choice(INJURIES)
        diet, diet_open = rng.choice(DIETS)
        med, reason, doses, med_open = rng.choice(MEDS)
        activity, activity_p, aday = rng.choice(ACTIVITIES)
        me: dict[str, Any] = {
            "n": n, "race": f"{places[2 * k]} {race_name}", "dist": dist, "goal": rng.choice(goals),
            "part": part, "advice": advice, "part_p": part_p, "physio": physio, "physio_f": physio.split()[0],
            "diet": diet, "diet_short": diet.split(",")[0], "med": med, "reason": reason, "doc": doctors[k],
            "doc_s": doctors[k], "shoes": rng.choice(SHOES), "watch": rng.choice(WATCHES), "gym": gyms[k],
            "days": rng.choice(GYM_DAYS), "partner": partner, "partner_f": partner.split()[0], "activity": activity,
            "activity_p": activity_p, "aday": aday,
            "route": f"{places[2 * k + 1]} {rng.choice(ROUTES)}",
        }  # fmt: skip
        metrics = ["weight", "dose", *rng.sample(OPTIONAL, MORE_SERIES)]
        series: dict[str, list[tuple[str, float]]] = {}
        for m in metrics:
            series[m] = [(d, 0.0) for d in doses] if m == "dose" else METRICS[m]["draw"](rng)
        weights = series["weight"]
        going_up = weights[-1][1] > weights[0][1]
        target = weights[-1][1] + (1 if going_up else -1) * rng.randint(1, 4)
        me["target"] = f"{target:.0f}"

        # planned[d]: blocks of (speaker or "" for the client, text, key)
        planned: dict[int, list[list[tuple[str, str, str]]]] = {d: [] for d in anywhere}

        def say(d: int, text: str, key: str, echo: str = "", restate: str = "",
                planned: dict = planned) -> None:  # fmt: skip
            """A fact's turn on session ``d`` and maybe the coach's reply (echoing ``echo``,
            restating the fact, or a word of generic advice)."""
            block = [("", wrap(rng, text), key)]
            r = rng.random()
            if echo and r < 0.35:
                block.append((ASSISTANT, rng.choice(ECHO).format(w=echo), ""))
            elif restate and r < 0.65:
                block.append((ASSISTANT, restate, ""))
            elif r < 0.8:
                block.append((ASSISTANT, rng.choice(ACKS), ""))
            elif r < 0.95:
                block.append((ASSISTANT, rng.choice(ADVICE), ""))
            planned[d].append(block)

        # the measurements: each on distinct sessions spread over the months, in order
        when: dict[str, list[int]] = {}
        for m in metrics:
            spec, values = METRICS[m], series[m]
            ds = sorted(rng.sample(anywhere, len(values)))
            when[m] = ds
            for i, ((v, _), d) in enumerate(zip(values, ds, strict=True)):
                slots = {**me, "v": v, "w": past(rng, days[d])}
                text = rng.choice(spec["first"] if i == 0 else spec["later"]).format(**slots)
                unit = f" {spec['unit']}" if spec["unit"] else ""
                restate = ""
                if i:
                    direction = "up" if values[i][1] > values[i - 1][1] else "down"
                    restate = spec["restate"].format(**slots, d=change(m, values, i), dir=direction)
                say(d, text, f"{m}:{i}", echo=f"{v}{unit}", restate=restate)
        # the single facts; the race before its goal time, both before the last session
        d_race = rng.choice(range(n_sessions // 2))
        rdate = days[d_race] + timedelta(days=rng.randint(40, 150))
        me["rdate"] = f"{rdate.day} {MONTHS[rdate.month - 1]}"
        say(d_race, rng.choice(RACE).format(**me), "race", restate=RESTATE["race"].format(**me))
        say(rng.choice(range(d_race, n_sessions)), rng.choice(GOAL).format(**me), "goal", echo=f"under {me['goal']}",
            restate=RESTATE["goal"].format(**me))  # fmt: skip
        say(rng.choice(anywhere), rng.choice(TARGET_UP if going_up else TARGET).format(**me), "target",
            echo=f"{me['target']} kg", restate=RESTATE["target"].format(**me))  # fmt: skip
        d_inj = rng.choice(anywhere)
        say(d_inj, rng.choice(INJURY).format(**me, w=past(rng, days[d_inj])), "injury",
            restate=RESTATE["injury"].format(**me))  # fmt: skip
        for key, templates, echo in (("shoes", SHOE, "shoes"), ("watch", WATCH, "watch"), ("gym", GYM, "gym"),
                                     ("partner", PARTNER, "partner"), ("route", ROUTE, "route"),
                                     ("diet", DIET, "")):  # fmt: skip
            say(rng.choice(anywhere), rng.choice(templates).format(**me), key, echo=me[echo] if echo else "",
                restate=RESTATE[key].format(**me))  # fmt: skip
        prefs = rng.sample(PREFERENCES, PER_CONVERSATION["preference"])
        for j, pref in enumerate(prefs):
            say(rng.choice(anywhere), rng.choice(pref[:2]), f"pref:{j}")
        # the coach's suggestions, never taken up
        suggested = rng.sample(SUGGESTIONS, NEVER_KINDS["coach only"])
        for sug in suggested:
            planned[rng.choice(anywhere)].append([("", rng.choice(ASKS), ""), (ASSISTANT, sug[1], ""),
                                                  ("", rng.choice(DECLINES), "")])  # fmt: skip

        sessions, where = [], {}
        for d, day in enumerate(days):
            blocks = planned[d]
            for line, reply in rng.sample(CHAT + PERSONAL_CHAT, rng.randint(5, 8)):
                chat = [line.format(**me)] + ([reply.format(**me)] if rng.random() < 0.9 else [])
                blocks.append([(s, t, "") for s, t in zip(("", ASSISTANT), chat, strict=False)])
            rng.shuffle(blocks)
            turns: list[dict[str, str]] = []
            for speaker, text, key in (x for b in blocks for x in b):
                tid = f"{cid}:D{d + 1}:{len(turns) + 1}"
                turns.append({"id": tid, "speaker": speaker or n, "text": text})
                if key:
                    where[key] = tid
            sessions.append({"session": d + 1, "date": day.isoformat(), "turns": turns})
        conversations.append({"id": cid, "speakers": [n, ASSISTANT], "sessions": sessions})

        # candidates: (variants: in the turns' words and paraphrased, or one inference question; evidence; tag)
        pool: dict[str, list[Candidate]] = {t: [] for t in PER_CONVERSATION}

        def ask(kind: str, variants: tuple[str, ...], keys: list[str], pool: dict = pool, where: dict = where,
                tag: str = "", **slots: Any) -> None:  # fmt: skip
            """A candidate question with its variants filled in (the wording is chosen when it is kept)."""
            pool[kind].append((tuple(v.format(**slots) for v in variants), [where[x] for x in keys], tag))

        for m in metrics:
            spec, values = METRICS[m], series[m]
            keys = [f"{m}:{i}" for i in range(len(values))]
            ask("single-hop", spec["first_q"], keys[:1], **me)
            months = [days[d].month for d in when[m]]
            for i, month in enumerate(months):
                if months.count(month) == 1:  # "in March" names one turn only
                    ask("single-hop", spec["month_q"], [keys[i]], **me, month=MONTHS[month - 1])
                ask("temporal", spec["when_q"], [keys[i]], **me, v=values[i][0])
            for variants in spec["now_q"]:
                ask("knowledge-update", variants, keys[-1:], tag=m, **me)
            ask("multi-hop", spec["history_q"], keys, tag="history", **me)
        for x, variants in SINGLE.items():
            said = {"days": "gym", "partner_rev": "partner", "physio": "injury", "advice": "injury",
                    "doctor": "dose:0", "reason": "dose:0"}.get(x, x)  # fmt: skip
            ask("single-hop", variants, [said], **me)
        for x, variants in TEMPORAL.items():
            ask("temporal", variants, [x], **me)
        for keys_, variants in PAIRS:
            ask("multi-hop", variants, list(keys_), **me)
        for said, question in (("race", race_open), ("injury", injury_open), ("diet", diet_open),
                               ("dose:0", med_open)):  # fmt: skip
            ask("open-domain", (question.format(**me),), [said])
        for j, pref in enumerate(prefs):
            ask("preference", pref[2], [f"pref:{j}"], n=n)
            ask("open-domain", (pref[3].format(n=n),), [f"pref:{j}"])

        chosen = pick(rng, pool, PER_CONVERSATION)
        never: list[tuple[tuple[str, ...], str]] = []
        for row in rng.sample(NEVER_SAID, NEVER_KINDS["never said"]):
            never.append((tuple(v.format(n=n) for v in row[:2]), "never said"))
        for m in rng.sample(metrics, NEVER_KINDS["other metric"]):
            never.append((tuple(v.format(n=n) for v in METRICS[m]["other"][:2]), "other metric"))
        for sug in suggested:
            never.append((tuple(q.format(n=n) for q in sug[2]), "coach only"))
        for (wordings, kind), style in zip(never, halves(rng, len(never)), strict=True):
            chosen.append(("adversarial", wordings[style], [], kind))
        for i, (kind, text, ev, nv) in enumerate(chosen, 1):
            q = {"id": f"{cid}:q{i}", "conversation": cid, "type": kind, "question": text, "evidence": ev}
            questions.append(q | ({"never": nv} if nv else {}))
    n_turns = sum(len(s["turns"]) for c in conversations for s in c["sessions"])
    about = (
        f"A fitness coach's clients, generated by bench/retrieval/generate_coach.py (seed {seed}): "
        f"{len(conversations)} clients, {n_turns} turns, {len(questions)} questions."
    )
    return {"about": about, "conversations": conversations, "questions": questions}


def main() -> None:
    write(generate(), OUT)


if __name__ == "__main__":
    main()
