"""English: the reference wording of the languages data set (see the package's docstring).

Forms: ``a`` the value with its indefinite article ("a dog", "an architect"), ``bare`` without
("dog"); a country's ``bare`` is its name ("Japan").
"""

from __future__ import annotations

CODE = "en"
NAME = "English"


def _a(*words: str) -> list[dict[str, str]]:
    return [{"a": ("an " if w[0] in "aeiou" else "a ") + w, "bare": w} for w in words]


def _bare(*words: str) -> list[dict[str, str]]:
    return [{"bare": w} for w in words]


SLOTS: dict[str, list[dict[str, str]]] = {
    "pet": _a("dog", "cat", "rabbit", "parrot", "tortoise", "hamster", "ferret", "goldfish"),
    "job": _a("nurse", "architect", "accountant", "teacher", "electrician", "pharmacist", "translator", "carpenter"),
    "food": _bare("peanuts", "shellfish", "strawberries", "eggs", "sesame", "walnuts", "celery", "mustard"),
    "job2": _a("pilot", "vet", "lawyer", "chef", "firefighter", "journalist", "engineer", "baker"),
    "color": _bare("red", "blue", "green", "white", "black", "silver", "yellow", "grey"),
    "country": _bare("Japan", "Peru", "Norway", "Morocco", "Vietnam", "Canada", "Greece", "Iceland"),
    "sport": _bare("tennis", "swimming", "climbing", "rowing", "fencing", "judo", "volleyball", "cycling"),
    "dish": _bare("lasagne", "paella", "curry", "risotto", "moussaka", "goulash", "ratatouille", "dumplings"),
    "plant": _bare("roses", "tulips", "sunflowers", "irises", "daffodils", "dahlias", "peonies", "geraniums"),
    "subject": _bare("lighthouses", "old bridges", "birds", "the sea", "mountains", "forests", "harbours", "windmills"),
    "instrument": _bare("piano", "cello", "violin", "guitar", "trumpet", "flute", "clarinet", "saxophone"),
}

FACTS: dict[str, dict] = {
    "pet": {
        "say": (
            "Big news, we adopted {pet[a]} last weekend and named it {petname}.",
            "{petname} slept on my feet all night, I can't believe we waited this long to get {pet[a]}.",
        ),
        "echo": "{petname} is such a sweet name, send me a photo!",
        "ask": ("What did {S} name the {pet[bare]} they adopted?", "What is {S}'s new animal called?"),
    },
    "job": {
        "say": (
            "I start my new job at {company} on Monday, I'll be working there as {job[a]}.",
            "First week done at {company}, everyone there is lovely and I think being {job[a]} suits me.",
        ),
        "echo": "{company}, that's brilliant, congratulations!",
        "ask": ("Which company did {S} start a new job at?", "Who employs {S} these days?"),
    },
    "move": {
        "say": (
            "We finally moved to {city}, the flat is tiny but the view is wonderful.",
            "Still unpacking boxes in our new place in {city}, the whole street smells of bread in the morning.",
        ),
        "echo": "{city} is beautiful, I'm so happy for you.",
        "ask": ("Which city did {S} move to?", "Where does {S} live now?"),
    },
    "instrument": {
        "say": (
            "I've started taking {instrument[bare]} lessons every Tuesday evening.",
            "My teacher says my scales are getting better, I practise the {instrument[bare]} for an hour a day now.",
        ),
        "echo": "I'd love to hear you play one day.",
        "ask": ("Which instrument is {S} taking lessons in?", "What does {S} practise every day?"),
    },
    "allergy": {
        "say": (
            "The doctor confirmed it, I'm allergic to {food[bare]}, so no more of that for me.",
            "I have to read every label now, even a trace of {food[bare]} makes my throat swell up.",
        ),
        "echo": "That must be so annoying at restaurants.",
        "ask": ("What is {S} allergic to?", "Which food makes {S} ill?"),
    },
    "sister": {
        "say": (
            "My sister {sibname} just qualified as {job2[a]}, we're all so proud of her.",
            "{sibname} passed her final exams, so there's {job2[a]} in the family now.",
        ),
        "echo": "Please tell {sibname} congratulations from me.",
        "ask": ("What did {S}'s sister {sibname} qualify as?", "What is {sibname}'s profession?"),
    },
    "car": {
        "say": (
            "I bought a car at last, a {color[bare]} {brand}, second hand but it runs perfectly.",
            "Drove the {brand} to the coast on Sunday, the {color[bare]} paint looks amazing in the sun.",
        ),
        "echo": "Ooh, road trip soon then?",
        "ask": ("What car did {S} buy?", "What does {S} drive now?"),
    },
    "book": {
        "say": (
            "I'm reading a novel called {title} and I honestly can't put it down.",
            "Stayed up until two finishing {title}, the ending made me cry on the sofa.",
        ),
        "echo": "Lend it to me when you're done?",
        "ask": ("Which novel is {S} reading?", "What title kept {S} awake until two?"),
    },
    "trip": {
        "say": (
            "We booked our summer trip, three weeks in {country[bare]} in August.",
            "I've been learning a few phrases for August, we fly to {country[bare]} for three weeks.",
        ),
        "echo": "Three weeks, you lucky thing!",
        "ask": ("Where is {S} going on the summer trip?", "Which country will {S} visit in August?"),
    },
    "sport": {
        "say": (
            "I joined a {sport[bare]} club, we train on Wednesdays and Saturdays.",
            "My legs are so sore after {sport[bare]} training on Saturday, the coach is merciless.",
        ),
        "echo": "Good for you, I can barely get off the sofa.",
        "ask": ("Which club did {S} join?", "What does {S} train for on Wednesdays?"),
    },
    "flight": {
        "say": (
            "My flight next Friday is {code}, it leaves at seven in the morning.",
            "Can you pick me up from the airport on Friday? I'm landing on {code} around noon.",
        ),
        "echo": "Sure, just text me when you land.",
        "ask": ("What is {S}'s flight number next Friday?", "Which plane is {S} catching?"),
    },
    "dish": {
        "say": (
            "I finally learned to cook {dish[bare]} properly, my grandmother's recipe.",
            "Made my grandmother's {dish[bare]} for everyone on Sunday and there were no leftovers at all.",
        ),
        "echo": "Invite me next time, please.",
        "ask": ("Which dish did {S} learn to cook?", "What did {S} make from the grandmother's recipe?"),
    },
    "child": {
        "say": (
            "My son {childname} turns {age} next month and he wants a party with a magician.",
            "{childname} is counting the days until he is {age}, he talks about nothing else.",
        ),
        "echo": "A magician, how fun!",
        "ask": ("How old will {S}'s son {childname} be?", "What birthday is {childname} looking forward to?"),
    },
    "dentist": {
        "say": (
            "I've got a new dentist, Dr {docname}, and for once it didn't hurt at all.",
            "Dr {docname} fixed my tooth in ten minutes, I'm never going back to the old clinic.",
        ),
        "echo": "Give me the name, I need someone too.",
        "ask": ("Who is {S}'s new dentist?", "Which doctor repaired {S}'s tooth?"),
    },
    "garden": {
        "say": (
            "I planted {plant[bare]} all along the garden fence this spring.",
            "The {plant[bare]} by the fence are finally in bloom and the bees love them.",
        ),
        "echo": "You'll have to show me the garden.",
        "ask": ("What did {S} plant along the fence?", "Which flowers bloom in {S}'s garden?"),
    },
    "painting": {
        "say": (
            "I've taken up watercolours, I mostly paint {subject[bare]}.",
            "Sold my first little picture at the market, {subject[bare]} again, it seems to be my thing.",
        ),
        "echo": "An artist now, look at you.",
        "ask": ("What does {S} paint in watercolours?", "What are {S}'s pictures of?"),
    },
}

#: Chatter that states no fact; some lines carry the slots' common words (club, flight, garden,
#: doctor, dog, book...) as traps for the keyword arm.
FILLER: list[str] = [
    "The weather has been so grey all week, I've forgotten what the sun looks like.",
    "I spent the whole evening sorting out old photos and didn't get through half of them.",
    "Work was chaos today, three meetings about one meeting.",
    "I tried a new café near the station, the coffee was fine but the cake was amazing.",
    "My neighbour's dog barked for an hour this morning, I'm running on no sleep.",
    "I need a holiday, even just a long weekend somewhere quiet.",
    "We watched a documentary about octopuses last night, they are far too clever.",
    "I finally cleaned the kitchen cupboards, you would not believe what I found.",
    "The bus was late again, I stood in the rain for twenty minutes.",
    "I keep meaning to call my aunt and then it's ten at night.",
    "There's a market on Saturday mornings now, mostly cheese and candles.",
    "My phone screen cracked, I dropped it on the stairs like an idiot.",
    "The book club picked something so long that nobody has finished it.",
    "I walked past the old school yesterday, it looks so small now.",
    "Somebody at the office brought cakes and the whole floor went quiet.",
    "Our flight home last year was delayed six hours, I still haven't recovered.",
    "I went to the garden centre for one pot and came out with twelve things.",
    "The doctor's waiting room had magazines from ten years ago.",
    "We had a power cut and played cards by candlelight, it was actually nice.",
    "I've been sleeping badly, too much screen time probably.",
    "The gym changed its opening hours again, nobody told anyone.",
    "My cousin got engaged, the family chat has gone completely mad.",
    "I burnt the toast twice this morning, it's that kind of day.",
    "I'm thinking of repainting the bathroom but I can't choose a colour.",
    "The train was so full I read someone else's newspaper over their shoulder.",
    "I tried meditation for a week and mostly thought about lunch.",
    "Our street is being dug up again, the noise starts at seven.",
    "I found a twenty in an old coat pocket, best day of the month.",
    "The music at the wedding was terrible but everyone danced anyway.",
    "I ordered a lamp online and it arrived in five separate boxes.",
    "My friend's car broke down on the motorway and I had to go and rescue her.",
    "The library is closing early on Fridays now, which is a shame.",
    "I spent an hour on hold with the bank, the same tune over and over.",
    "We're trying to eat less meat, so far it's going well.",
    "The kids next door have a trampoline and they are on it from dawn.",
    "I'm so behind on emails that I've stopped opening them.",
    "There was a fox in the road last night, just sitting there.",
    "I bought new running shoes and haven't run once in them.",
    "The sports club down the road is having an open day on Sunday.",
    "I watched the whole series in two days, no regrets.",
]
