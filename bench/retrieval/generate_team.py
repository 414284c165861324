"""A fifth retrieval benchmark: work teams' channels and meeting notes (team.json).

Written by the Mnemo team for this repository (no outside data; the repository's licence) on
2026-11-26, after the four other sets had all been read; nothing is fitted on it and nobody has
searched it. It is read once, as search ships (``holdout.py --dataset team``), to judge the next
search choice; a choice made after looking at it makes it a tuning set.

How it differs from the four others: the domain is work, not personal life.

- **Team channels**: 8 teams, one namespace each, 3 to 5 members, 15 to 20 dated sessions
  (stand-ups, planning meetings, channel chat, retros); speaker-prefixed turns ("Name: text").
- **Projects with attributes**: three per team, each with an owner, a deadline and a vendor, and
  five of budget, customer, decision, blocker, launch office, ticket and codename. The projects of a
  team share vocabulary (each has a "deadline" and a "vendor": keyword traps), members echo rare
  words in replies ("Tamarind, nice"), and most turns are status chatter ("sounds good", "will
  check after lunch"), some of it with the same words ("budget spreadsheets are due to finance").
- **Facts said directly or indirectly** ("Orla owns the billing migration" or, from Orla, "I'll be
  the one answering for the billing migration at the review"); numbers and codes matter ("budget
  is 42k", "tracked in OPS-4417").
- **Knowledge updates**: per team one deadline moves, one owner changes and one vendor is swapped
  (first said in the first third of the sessions, changed in the last third); the question asks
  the current value, the evidence is the later turn only.
- Question types as holdout.TYPES: single-hop, multi-hop (over sessions or projects), temporal (a
  session's date), open-domain, knowledge-update, preference (a member's working preference), and
  never stored (``adversarial``, no evidence; ``never`` names the kind: "never said"; "other
  project's", an attribute only another project of the team has; "nearby attribute", an attribute
  of a stored project or person that nobody stated). In each team, half the questions of each type
  are in the turns' words and half paraphrased (open-domain ones are inferences, worded apart).

Names, places, companies, products and codenames are disjoint from the four other sets (a test
checks both ways). Seeded and deterministic (sha256 printed).

    .venv/bin/python -m bench.retrieval.generate_team
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from bench.retrieval.generated import halves, write

OUT = Path(__file__).with_name("team.json")
SEED = 5026
TEAMS = 8
PROJECTS = 3  # per team
#: questions per team and type (8 teams: 448 in all)
PER_TEAM = {"single-hop": 14, "multi-hop": 6, "temporal": 7, "open-domain": 7, "knowledge-update": 6,
            "preference": 4}  # fmt: skip
NEVER_KINDS = {"never said": 5, "other project's": 4, "nearby attribute": 3}

TEAM_NAMES = ["payments", "platform", "growth", "data", "mobile", "support tools", "identity", "logistics"]
NAMES = ["Orla", "Ciaran", "Niamh", "Declan", "Grainne", "Padraig", "Roisin", "Cormac", "Yusuf", "Farida", "Ekene",
         "Zeynep", "Emre", "Selin", "Kerem", "Aylin", "Bongani", "Thandiwe", "Sipho", "Nomvula", "Ekow", "Abena",
         "Kobina", "Haruto", "Sora", "Mateus", "Thiago", "Bruna", "Larissa", "Bjarni", "Sigrid", "Torbjorn", "Dagny",
         "Eero", "Aino", "Mikko", "Jussi", "Priyanka"]  # fmt: skip
PROJECT_NAMES = ["the billing migration", "the onboarding revamp", "the search rewrite", "the warehouse move",
                 "the mobile checkout", "the partner API", "the support bot", "the audit log", "the pricing page",
                 "the single sign-on rollout", "the invoice export", "the status page", "the fraud rules engine",
                 "the scanner app", "the reporting dashboard", "the SDK release", "the load balancer upgrade",
                 "the accessibility audit", "the referral programme", "the localisation push",
                 "the shipping-rate calculator", "the churn model", "the backup overhaul",
                 "the notification service", "the consent manager", "the returns portal"]  # fmt: skip
CODENAMES = ["Tamarind", "Nightjar", "Basalt", "Ptarmigan", "Galingale", "Marram", "Feverfew", "Quokka",
             "Pangolin", "Chinook", "Vellum", "Sandpiper", "Lodestar", "Halcyon", "Bramblewick", "Cormorant",
             "Hornbeam", "Lapwing", "Wolfsbane", "Carnelian", "Kittiwake", "Mandrake", "Sorrel",
             "Quillwort"]  # fmt: skip
VENDORS = ["Datastrand", "Cloudmere", "Tallyforge", "Pinefold", "Brightlark", "Nimbusway", "Ledgerly", "Quorumly",
           "Stackhaven", "Hexalune", "Vantafold", "Skybrook", "Ironleaf", "Mossgate", "Copperwick",
           "Zinnwald Systems"]  # fmt: skip
# (customer, open-domain question that needs knowing who they are)
CUSTOMERS = [("Larkspur Clinics", "Will {p} have to handle patient records?"),
             ("Pemberton Freight", "Does {p} have to deal with lorry shipments?"),
             ("Ashcombe Hotels", "Is {p} built for the hospitality trade?"),
             ("Quenby Academies", "Will teachers be among {p}'s users?"),
             ("Dunmore Breweries", "Is {p} for a drinks maker?"),
             ("Fallowfield Energy", "Is {p} for a utility company?"),
             ("Caldermoor Council", "Is {p} for a public-sector client?"),
             ("Whitlock Pharmacies", "Will {p} deal with prescriptions?"),
             ("Ormsby Airways", "Will {p} be used by an airline?"),
             ("Penhallow Dental", "Will dentists use {p}?")]  # fmt: skip
# (office city, its country, a country it is not in)
OFFICES = [("Bergen", "Norway", "Sweden"), ("Udine", "Italy", "Austria"), ("Braga", "Portugal", "Spain"),
           ("Lyon", "France", "Belgium"), ("Dundee", "Scotland", "Wales"), ("Cork", "Ireland", "England"),
           ("Odense", "Denmark", "Norway"), ("Koper", "Slovenia", "Croatia"), ("Dresden", "Germany", "Poland"),
           ("Basel", "Switzerland", "Germany"), ("Winnipeg", "Canada", "the United States"),
           ("Adelaide", "Australia", "New Zealand"), ("Osaka", "Japan", "South Korea"), ("Pune", "India", "Nepal"),
           ("Montevideo", "Uruguay", "Argentina")]  # fmt: skip
TICKET_PREFIXES = ["OPS", "PAY", "INFRA", "DATA", "WEB", "SEC", "APP", "GROW"]
DAY = ["2", "6", "9", "13", "16", "20", "23", "27"]
DUE_MONTHS = ["June", "July", "August", "September", "October", "November"]
# (kind, direct turn, indirect turn, open-domain question that needs it)
BLOCKERS = [
    ("security review", "{p} is blocked on the security review", "Still no sign-off from security on {p}, so "
     "nothing merges", "Can {p} merge its changes before security signs off?"),
    ("vendor credentials", "{p} is blocked: we still have no API keys from the vendor", "Chased the vendor again for "
     "credentials for {p}, nothing yet", "Can the team test {p} against the live vendor system yet?"),
    ("migration script", "{p} is blocked on the data migration script", "The migration script for {p} died at 60% "
     "again overnight", "Is {p}'s old data already in the new system?"),
    ("legal approval", "{p} is blocked until legal approves the contract", "Legal still has the contract for {p} "
     "on their desk", "Can the team sign purchase orders for {p} today?"),
    ("hiring gap", "{p} is blocked: nobody can do the frontend until the new hire starts", "We lost our only "
     "frontend person, so the screens for {p} are on hold", "Is {p}'s user interface being built right now?"),
    ("staging environment", "{p} is blocked by the staging environment falling over",
     "Staging died again under the load test for {p}", "Has {p} passed its load test?"),
]  # fmt: skip
DECISIONS = [
    ("a web-first launch", "We decided {p} ships web-only first; the mobile app comes later",
     "So no app store submission for {p} at launch, browser only", "Will {p} be in the app stores on launch day?"),
    ("a pilot", "Decision for {p}: a two-week pilot with ten users before the full rollout", "Only ten pilot users "
     "get {p} at first, everyone else waits two weeks", "Will every user get {p} on day one?"),
    ("a parallel run", "We agreed to keep the old system running beside {p} for a month", "The legacy one stays "
     "switched on next to {p} until the month is out", "Can the old system be switched off the day {p} goes live?"),
    ("a one-region launch", "Decision: {p} launches in one region only",
     "{p} goes to a single region first, the rest after the numbers look fine",
     "Will {p} be available worldwide at launch?"),
    ("cutting the export", "We cut the export feature from the first release of {p}",
     "CSV export for {p} is parked until after launch",
     "Will users of {p} be able to download their data as a spreadsheet at launch?"),
    ("a code freeze", "We agreed on a code freeze for {p} a week before launch", "No merges to {p} in the final week, "
     "only fixes", "Can a new feature land in {p} the day before launch?"),
]  # fmt: skip
# (kind, direct turn (the member's own), indirect turn, preference question (in the turns' words,
# paraphrased), open-domain question)
PREFERENCES = [
    ("async", "I prefer async updates in the channel to status calls", "Can we skip the call and just post updates "
     "here? Written is easier for me", ("Does {n} prefer async updates or status calls?",
     "How does {n} prefer to get status updates?"),
     "Would {n} welcome a daily 30-minute status call?"),
    ("mornings", "I like meetings in the morning, my afternoons are for deep work", "Put anything that needs me "
     "before lunch, after two I'm heads-down", ("Does {n} like meetings in the morning or the afternoon?",
     "When does {n} like to have meetings?"),
     "Is a 4pm review a good slot for {n}?"),
    ("fridays", "I keep Fridays free of meetings", "Please don't book me on Fridays, that's my focus day",
     ("Which day does {n} keep free of meetings?", "On which weekday should nobody book {n}?"),
     "Should the retro be booked on a Friday if {n} must attend?"),
    ("specs", "I want a written spec before I start building anything", "Send me a doc first, I don't start on "
     "anything from a hallway chat", ("Does {n} want a written spec before building anything?",
     "What does {n} want before starting on a piece of work?"),
     "Should {n} be handed a feature on a sticky note from a corridor chat?"),
    ("pairing", "I prefer pairing on tricky changes to long review threads", "Grab me for a pairing session rather "
     "than forty review comments", ("Does {n} prefer pairing on tricky changes?",
     "How does {n} like to work through hard pieces of code?"),
     "Would {n} enjoy a mob-programming session on the hard bug?"),
    ("camera", "I keep my camera off in meetings, audio only", "Not turning video on, I'm on audio as always",
     ("Does {n} keep the camera off in meetings?", "How does {n} like to join video meetings?"),
     "Will {n} be happy with a cameras-on rule for the all-hands?"),
    ("email", "For anything important, email me rather than pinging here", "Channel pings get lost for me, send a "
     "proper email if it matters", ("Does {n} want important things by email?",
     "How does {n} want to be told important things?"),
     "Is a quick channel ping the best way to tell {n} about a contract change?"),
]  # fmt: skip

# the facts' turns: direct (anyone) and indirect (the owner's own words for owners)
OWNER = (["{o} owns {p}", "{o} is the owner of {p}, questions go to them"],
         ["I'll be the one answering for {p} at the review",
          "Put me down as the person on the hook for {p}"])  # fmt: skip
OWNER_CHANGE = (["{o2} takes over {p} from {o} starting Monday", "New owner for {p}: {o2}, since {o} moved to "
                 "the infra rotation"],
                ["I've got {p} now that {o} has moved to the infra rotation", "Handover done, {p} is mine from "
                 "today, thanks {o}"])  # fmt: skip
DEADLINE = ["The deadline for {p} is {d}", "{p} is due on {d}", "Legal wants {p} in their hands by {d}",
            "Finance gave us until {d} to finish {p}"]  # fmt: skip
DEADLINE_MOVE = ["The deadline for {p} moved to {d2}", "{p} is now due on {d2}", "We got more time on {p}: the "
                 "new date is {d2}", "Finance pushed the date for {p} back to {d2}"]  # fmt: skip
VENDOR = ["We're going with {v} for {p}", "The vendor for {p} is {v}", "Signed the {v} contract for {p} this "
          "morning", "{v} won the tender for {p}"]  # fmt: skip
VENDOR_SWAP = ["We're dropping {v} for {p}; {v2} it is", "The new vendor for {p} is {v2}, {v} is out",
               "Moved {p} off {v} and onto {v2} this week", "Cancelled the {v} contract, {p} runs on {v2} "
               "from now"]  # fmt: skip
BUDGET = ["The budget for {p} is {b}", "Budget for {p}: {b}, approved", "Finance approved {b} for {p}, not a "
          "penny more", "We have {b} to spend on {p} this year"]  # fmt: skip
CUSTOMER = ["{p} is for {c}", "The customer for {p} is {c}", "{c} asked again when they can see {p}",
            "Demoed {p} to {c} today, they liked it"]  # fmt: skip
OFFICE = ["{p} launches first in the {x} office", "The {x} office gets {p} first", "Booked the trip to {x} for "
          "the go-live week of {p}", "The {x} team will be the first to use {p}"]  # fmt: skip
TICKET = ["{p} is tracked in {t}", "The ticket for {p} is {t}", "I put the notes for {p} in {t}",
          "Everything about {p} goes in {t}, please"]  # fmt: skip
CODENAME = ["The codename for {p} is {k}", "{p} is called {k} from now on", "Let's call {p} {k} in here so sales "
            "stops asking", "Internally {p} is {k}, the real name comes at launch"]  # fmt: skip
ECHO = ["{w}, nice", "Oh, {w}? ok", "noted: {w}", "{w} works for me", "so {w} then", "+1 on {w}", "{w}, got it",
        "wait, {w}? fine by me"]  # fmt: skip
WRAP_BEFORE = ["Quick one before I forget: ", "Update: ", "From the call with finance: ", "FYI ", "For the notes: "]
WRAP_AFTER = [" Also, who took my charger?", " Anyway, back to the PR queue.", " More at planning.",
              " Sorry for the wall of text."]  # fmt: skip

FILLER = {
    "stand-up": ["Yesterday: code review and the flaky test. Today: more of the same.", "No blockers from me",
                 "Same as yesterday, still on the refactor", "I'm out Thursday afternoon, dentist",
                 "Today: tests for {p}, nothing exciting", "Still chasing that flaky test", "Nothing new, heads-down",
                 "Pairing with {m} after this", "Reviewing the PR for {p} this morning", "All good here",
                 "Small thing: CI took 40 minutes again", "Will check after lunch", "Wrapping up the docs today",
                 "Working on {p} all day, ping me if needed"],  # fmt: skip
    "planning": ["Let's go project by project", "Can we timebox this to 30 minutes?", "I'll update the board after",
                 "Any vendor news? No? Moving on", "Budget questions go to finance, not here",
                 "Deadlines are on the board as usual", "Who owns the notes today?", "Let's park that for next week",
                 "Estimates for {p} look fine to me", "Can someone share the board link?",
                 "Let's not reopen the discussion about {p} today", "Every team's budget spreadsheet is due to finance "
                 "on Friday", "The vendor list needs a tidy-up at some point",
                 "Owner column on the board is out of date, can everyone check?"],  # fmt: skip
    "chat": ["sounds good", "will check after lunch", "+1", "lol", "thanks!", "ok", "coffee run in 5, anyone?",
             "link?", "pushed a fix", "CI is red again", "who broke main", "back in 10", "on it",
             "can someone review my PR?", "@{m} got a sec?", "that demo for {p} went fine", "nice",
             "the wifi on the third floor is down again", "lunch?", "merged", "thanks {m}",
             "I'll look at the alerts for {p} tomorrow"],  # fmt: skip
    "retro": ["What went well: fewer pages at night", "Too many meetings this sprint", "The release checklist helped",
              "We should write down decisions somewhere", "Handovers were messy", "Good sprint overall",
              "Let's keep the demo slot", "Estimates were off again", "The vendor calls ran long",
              "Deadlines felt tight on {p}"],  # fmt: skip
}  # fmt: skip
KINDS = ["stand-up", "stand-up", "chat", "chat", "planning", "retro"]

# questions: (in the turns' words, paraphrased)
SINGLE = {
    "owner": ("Who owns {p}?", "Who is responsible for {p}?"),
    "deadline": ("What is the deadline for {p}?", "By what date must {p} be finished?"),
    "vendor": ("Which vendor did the team choose for {p}?", "Whose product is {p} built on?"),
    "budget": ("What is the budget for {p}?", "How much money is set aside for {p}?"),
    "customer": ("Which customer is {p} for?", "Which client is {p} being built for?"),
    "decision": ("What did the team decide about {p}?", "How did the team agree to roll out {p}?"),
    "blocker": ("What is {p} blocked on?", "What is holding up {p}?"),
    "office": ("Which office does {p} launch in first?", "Where will {p} go live first?"),
    "ticket": ("Which ticket tracks {p}?", "Under which reference number is the work on {p} filed?"),
    "codename": ("What is the codename for {p}?", "What internal name does the team use for {p}?"),
}
EXTRAS = ["budget", "customer", "decision", "blocker", "office", "ticket", "codename"]
#: the value before a change, asked only of the deadline: a handover and a vendor swap name the old value
#: in the later turn too ("dropping Tallyforge"), a moved deadline does not
BEFORE = {"deadline": ("What was the original deadline for {p}?", "Which date was {p} first due on?")}
UPDATE = {
    "deadline": [("What is the deadline for {p} now?", "By when does {p} have to be done at present?"),
                 ("What date is {p} due on now?", "What is the latest due date for {p}?")],
    "owner": [("Who owns {p} now?", "Who is currently in charge of {p}?"),
              ("Who is the current owner of {p}?", "Whom should questions about {p} go to today?")],
    "vendor": [("Which vendor is {p} using now?", "Which supplier does {p} rely on at present?"),
               ("What is the current vendor for {p}?", "After the change, whose product runs {p}?")],
}  # fmt: skip
HISTORY = {
    "deadline": ("How has the deadline for {p} changed?", "What dates has {p} been due on?"),
    "owner": ("Who has owned {p}?", "Which people have led {p} over time?"),
    "vendor": ("Which vendors has {p} used?", "Whose products has {p} been built on over time?"),
}
AGGREGATE = {
    "budget": ("What are the budgets of the team's projects?", "How much money does each of the team's projects have?"),
    "customer": ("Which customers are the team's projects for?", "Which clients is the team building things for?"),
    "office": ("In which offices do the team's projects launch first?", "Which cities see the team's launches first?"),
    "blocker": ("What is blocking the team's projects?", "What hold-ups does the team have across its work?"),
    "codename": ("What codenames do the team's projects have?", "What nicknames do the team's projects go by?"),
    "ticket": ("Which tickets track the team's projects?", "Where is the team's project work filed?"),
    "decision": ("What decisions did the team make about its projects?", "What has the team agreed on for its work?"),
}  # fmt: skip
TEMPORAL = {
    "vendor:2": ("When did the team decide to drop {v}?", "When did {p} change suppliers?"),
    "deadline:2": ("When was the deadline for {p} moved?", "When did {p} get a new due date?"),
    "owner:2": ("When did {o2} take over {p}?", "When did {p} change hands?"),
    "decision": ("When did the team decide on {what} for {p}?", "When was the launch plan for {p} agreed?"),
    "blocker": ("When was {p} reported blocked on the {what}?", "When was the hold-up on {p} first raised?"),
    "vendor": ("When did the team choose {v} for {p}?", "When was the supplier for {p} picked?"),
    "codename": ("When did {p} get the codename {k}?", "When did the team start using a nickname for {p}?"),
    "office": ("When was the {x} office named for the launch of {p}?", "When was the first launch site of {p} set?"),
}  # fmt: skip
NEVER_SAID = [("Where is the team's offsite this year?", "Which city hosts the team's away-day?"),
              ("Which on-call tool does the team use?", "What paging system wakes the team at night?"),
              ("Who is the team's manager?", "Whom does the team report to?"),
              ("What was last month's outage caused by?", "Why did production go down last month?"),
              ("Which conference is the team presenting at?", "Where is the team giving a talk this year?"),
              ("How much did the team spend on its holiday party?", "What did the end-of-year celebration cost?"),
              ("Which intern joins the team in spring?", "Who is the team's new trainee?"),
              ("What is the team's quarterly objective?", "What goal was the team set for the quarter?"),
              ("Which programming language is the team moving to?", "What language will the team rewrite its "
               "services in?"),
              ("What is the name of the team's chat bot?", "What is the channel's bot called?")]  # fmt: skip
NEARBY = [("How many engineers are working on {p}?", "How big is the crew on {p}?"),
          ("What test coverage target did the team set for {p}?", "How much of {p}'s code must the tests cover?"),
          ("Who is the designer on {p}?", "Who draws the screens for {p}?"),
          ("Which time zone does {n} work from?", "In which time zone is {n} based?"),
          ("What is {n}'s job title?", "What role does {n} have on the team?"),
          ("Which city does {n} live in?", "Where is {n}'s home?"),
          ("How many users does {p} have?", "How many people use {p} today?")]  # fmt: skip


def deadline(rng: random.Random, after: int = -1) -> tuple[int, str]:
    """A (sortable index, "13 June") due date, later than ``after``."""
    last = len(DUE_MONTHS) * len(DAY) - (12 if after < 0 else 0)  # a first date leaves room to move
    i = rng.choice([i for i in range(last) if i > after + 2])
    return i, f"{DAY[i % len(DAY)]} {DUE_MONTHS[i // len(DAY)]}"


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    conversations: list[dict[str, Any]] = []
    questions: list[dict[str, Any]] = []
    names = rng.sample(NAMES, len(NAMES))
    projects_all = rng.sample(PROJECT_NAMES, TEAMS * PROJECTS)
    codenames = rng.sample(CODENAMES, TEAMS * PROJECTS)
    for t in range(TEAMS):
        cid = f"t{t}"
        members = [names.pop() for _ in range(rng.randint(3, 5))]
        n_sessions = rng.randint(15, 20)
        start = date(2026, 1, 5) + timedelta(days=rng.randint(0, 40))
        weekdays = [start + timedelta(days=d) for d in range(150) if (start + timedelta(days=d)).weekday() < 5]
        days = sorted(rng.sample(weekdays, n_sessions))
        early, late, anywhere = range(0, n_sessions // 3), range(2 * n_sessions // 3, n_sessions), range(n_sessions)
        planned: dict[int, list[list[tuple[str, str, str]]]] = {d: [] for d in range(n_sessions)}

        def say(days_: range, speaker: str, text: str, key: str = "", echo: str = "", planned: dict = planned,
                members: list = members) -> None:  # fmt: skip
            """A fact's turn (sometimes wrapped in other talk) on one of ``days_``, and maybe a reply
            from someone else echoing its rare word ``echo``."""
            text = text[0].upper() + text[1:]
            wrap = rng.random()
            if wrap < 0.15:
                lower = text.startswith(("The ", "We "))  # not a name
                text = rng.choice(WRAP_BEFORE) + (text[0].lower() + text[1:] if lower else text)
            elif wrap < 0.3:
                text = text + "." + rng.choice(WRAP_AFTER)
            block = [(speaker, text, key)]
            if echo and rng.random() < 0.6:
                block.append((rng.choice([m for m in members if m != speaker]), rng.choice(ECHO).format(w=echo), ""))
            planned[rng.choice(days_)].append(block)

        def anyone(but: str = "", members: list = members) -> str:
            return rng.choice([m for m in members if m != but])

        projects = projects_all[t * PROJECTS : (t + 1) * PROJECTS]
        vendors = rng.sample(VENDORS, PROJECTS + 1)
        customers = rng.sample(CUSTOMERS, PROJECTS)
        offices = rng.sample(OFFICES, PROJECTS)
        blockers = rng.sample(BLOCKERS, PROJECTS)
        decisions = rng.sample(DECISIONS, PROJECTS)
        prefix = rng.choice(TICKET_PREFIXES)
        tickets = [f"{prefix}-{n}" for n in rng.sample(range(1000, 9999), PROJECTS)]
        missing = rng.sample(EXTRAS, 2 * PROJECTS)  # each extra attribute is missing from one project at most
        has = [[x for x in EXTRAS if x not in missing[2 * i : 2 * i + 2]] for i in range(PROJECTS)]
        changes = rng.sample(["deadline", "owner", "vendor"], PROJECTS)  # which project's what changes
        facts: list[dict[str, Any]] = []
        for i, p in enumerate(projects):
            owner, owner2 = rng.sample(members, 2)
            di, due = deadline(rng)
            _, due2 = deadline(rng, di)
            budget = f"{rng.randint(12, 180)}k"
            f = {"p": p, "o": owner, "o2": owner2, "d": due, "d2": due2, "v": vendors[i], "v2": vendors[-1],
                 "b": budget, "c": customers[i][0], "x": offices[i][0], "t": tickets[i], "k": codenames[t * 3 + i],
                 "change": changes[i], "has": has[i], "blocker": blockers[i], "decision": decisions[i],
                 "customer": customers[i], "office": offices[i]}  # fmt: skip
            facts.append(f)
            ch = changes[i]
            first = early if ch == "owner" else anywhere
            if rng.random() < 0.5:
                say(first, anyone(owner), rng.choice(OWNER[0]).format(**f), "owner:1" + f":{i}")
            else:
                say(first, owner, rng.choice(OWNER[1]).format(**f), "owner:1" + f":{i}")
            if ch == "owner":
                if rng.random() < 0.5:
                    say(late, anyone(owner2), rng.choice(OWNER_CHANGE[0]).format(**f), f"owner:2:{i}", owner2)
                else:
                    say(late, owner2, rng.choice(OWNER_CHANGE[1]).format(**f), f"owner:2:{i}")
            say(early if ch == "deadline" else anywhere, anyone(), rng.choice(DEADLINE).format(**f),
                f"deadline:1:{i}", due)  # fmt: skip
            if ch == "deadline":
                say(late, anyone(), rng.choice(DEADLINE_MOVE).format(**f), f"deadline:2:{i}", due2)
            say(early if ch == "vendor" else anywhere, anyone(), rng.choice(VENDOR).format(**f), f"vendor:1:{i}",
                vendors[i])  # fmt: skip
            if ch == "vendor":
                say(late, anyone(), rng.choice(VENDOR_SWAP).format(**f), f"vendor:2:{i}", vendors[-1])
            for x in has[i]:
                text = {"budget": BUDGET, "customer": CUSTOMER, "office": OFFICE, "ticket": TICKET,
                        "codename": CODENAME}.get(x)  # fmt: skip
                echo = {"budget": budget, "customer": f["c"], "office": f["x"], "ticket": f["t"], "codename": f["k"]}
                if text is not None:
                    say(anywhere, anyone(), rng.choice(text).format(**f), f"{x}:{i}", echo[x])
                else:  # a blocker or a decision: direct or indirect
                    item = f[x]
                    say(anywhere, anyone(), rng.choice(item[1:3]).format(p=p), f"{x}:{i}")
        # the members' working preferences: in their own words
        prefs = []
        for j, pref in enumerate(rng.sample(PREFERENCES, 4)):
            who = members[j % len(members)]
            prefs.append((who, pref))
            say(anywhere, who, rng.choice(pref[1:3]), f"pref:{j}")

        sessions, where = [], {}
        for d, day in enumerate(days):
            kind = rng.choice(KINDS)
            blocks = []
            for text in rng.sample(sorted(set(FILLER[kind] + FILLER["chat"])), rng.randint(12, 20)):
                speaker = rng.choice(members)
                blocks.append([(speaker, text.format(p=rng.choice(projects), m=anyone(speaker)), "")])
            blocks += planned[d]
            rng.shuffle(blocks)
            turns = []
            for speaker, text, key in (x for b in blocks for x in b):
                tid = f"{cid}:D{d + 1}:{len(turns) + 1}"
                turns.append({"id": tid, "speaker": speaker, "text": text})
                if key:
                    where[key] = tid
            sessions.append({"session": d + 1, "date": day.isoformat(), "kind": kind, "turns": turns})
        conversations.append({"id": cid, "team": TEAM_NAMES[t], "speakers": members, "sessions": sessions})

        # candidates: (variants: in the turns' words and paraphrased, or one inference question; evidence; tag)
        pool: dict[str, list[tuple[tuple[str, ...], list[str], str]]] = {k: [] for k in PER_TEAM}

        def ask(kind: str, variants: tuple[str, ...], keys: list[str], pool: dict = pool, where: dict = where,
                tag: str = "", **slots: str) -> None:  # fmt: skip
            """A candidate question with its variants filled in (the wording is chosen when it is kept)."""
            pool[kind].append((tuple(v.format(**slots) for v in variants), [where[k] for k in keys], tag))

        for i, f in enumerate(facts):
            p, ch = f["p"], f["change"]
            for a in ("owner", "deadline", "vendor"):
                if a == ch:
                    if a in BEFORE:
                        ask("single-hop", BEFORE[a], [f"{a}:1:{i}"], p=p)
                    for variants in UPDATE[a]:
                        ask("knowledge-update", variants, [f"{a}:2:{i}"], p=p)
                    # the history: earlier turn, then the later one
                    ask("multi-hop", HISTORY[a], [f"{a}:1:{i}", f"{a}:2:{i}"], tag="history", p=p)
                    ask("temporal", TEMPORAL[f"{a}:2"], [f"{a}:2:{i}"], p=p, v=f["v"], o2=f["o2"])
                else:
                    ask("single-hop", SINGLE[a], [f"{a}:1:{i}"], p=p)
            if ch != "vendor":
                ask("temporal", TEMPORAL["vendor"], [f"vendor:1:{i}"], p=p, v=f["v"])
            for x in f["has"]:
                ask("single-hop", SINGLE[x], [f"{x}:{i}"], p=p)
                if x in TEMPORAL:
                    what = f[x][0] if x in ("blocker", "decision") else ""
                    ask("temporal", TEMPORAL[x], [f"{x}:{i}"], p=p, k=f["k"], x=f["x"], what=what)
                if x in ("blocker", "decision"):
                    ask("open-domain", (f[x][3],), [f"{x}:{i}"], p=p)
                elif x == "customer":
                    ask("open-domain", (f["customer"][1],), [f"customer:{i}"], p=p)
                elif x == "office":
                    country = rng.choice(f["office"][1:])
                    ask("open-domain", (f"Does {p} launch first in {country}?",), [f"office:{i}"])
                elif x == "budget":
                    q = f"Could {p} pay for a {rng.choice([60, 90, 150, 200])}k licence out of its own budget?"
                    ask("open-domain", (q,), [f"budget:{i}"])
        for x, variants in AGGREGATE.items():
            holders = [i for i, f in enumerate(facts) if x in f["has"]]
            if len(holders) >= 2:
                ask("multi-hop", variants, [f"{x}:{i}" for i in holders])
        for j, (who, pref) in enumerate(prefs):
            ask("preference", pref[3], [f"pref:{j}"], n=who)
            ask("open-domain", (pref[4],), [f"pref:{j}"], n=who)

        chosen: list[tuple[str, str, list[str], str]] = []
        for kind, n in PER_TEAM.items():
            cands = pool[kind]
            if kind == "multi-hop":  # every history (the knowledge updates' check), then aggregates
                keep = [c for c in cands if c[2]] + rng.sample([c for c in cands if not c[2]], n - PROJECTS)
            else:
                keep = rng.sample(cands, n)
            chosen += [(kind, variants[style % len(variants)], ev, "") for (variants, ev, _), style in
                       zip(keep, halves(rng, n), strict=True)]  # fmt: skip
        never = [(variants, "never said") for variants in rng.sample(NEVER_SAID, NEVER_KINDS["never said"])]
        other = [(f["p"], x) for f in facts for x in EXTRAS if x not in f["has"]]
        for p, x in rng.sample(other, NEVER_KINDS["other project's"]):
            never.append((tuple(v.format(p=p) for v in SINGLE[x]), "other project's"))
        for variants in rng.sample(NEARBY, NEVER_KINDS["nearby attribute"]):
            slots = {"p": rng.choice(projects), "n": rng.choice(members)}
            never.append((tuple(v.format(**slots) for v in variants), "nearby attribute"))
        for (variants, kind), style in zip(never, halves(rng, len(never)), strict=True):
            chosen.append(("adversarial", variants[style], [], kind))
        for i, (kind, text, ev, never) in enumerate(chosen, 1):
            q = {"id": f"{cid}:q{i}", "conversation": cid, "type": kind, "question": text, "evidence": ev}
            questions.append(q | ({"never": never} if never else {}))
    turns = sum(len(s["turns"]) for c in conversations for s in c["sessions"])
    about = (
        f"Work teams' channels and meeting notes, generated by bench/retrieval/generate_team.py (seed {seed}): "
        f"{len(conversations)} teams, {turns} turns, {len(questions)} questions."
    )
    return {"about": about, "conversations": conversations, "questions": questions}


def main() -> None:
    write(generate(), OUT)


if __name__ == "__main__":
    main()
