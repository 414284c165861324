"""Generate bench/retrieval/languages.json: one set of chats in four languages, each a translation
of the others, to say what a language other than English gets from search (the README's claim).

Design (its own, not another generator's): 8 conversations between two friends, 8 weekly sessions
each; each friend tells 10 of 16 kinds of fact (a pet, a new job, a move, an allergy, a flight...)
in one turn, worded in the question's own words or indirectly, half of them answered by the other
friend, among about 11 lines of chatter per session. Each fact is asked twice: once in the words
of its direct statement ("keyword") and once paraphrased, sharing no content word with that
statement but names ("paraphrase"); the fact itself is told either directly, in those words, or
indirectly (``"told"``), half and half at random.

One skeleton (who says what, when, with which values) is drawn from the seed, then written in
English, French, German and Spanish (bench/retrieval/languages/): the conversations ``en0`` and
``fr0`` are the same chat, turn for turn (``en0:D3:7`` says in English what ``fr0:D3:7`` says in
French), and so are their questions. Proper names and numbers are the same in every language.

Usage: .venv/bin/python -m bench.retrieval.generate_languages  (writes languages.json, prints its sha256)
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

from bench.retrieval import languages
from bench.retrieval.generated import write
from bench.retrieval.languages import de, en, es, fr

HERE = Path(__file__).resolve().parent
OUT = HERE / "languages.json"
SEED = 5309
CONVERSATIONS = 8
SESSIONS = 8
FACTS_PER_SPEAKER = 10
FIRST_DAY = date(2026, 1, 5)
#: The languages, English (the reference) first.
LANGUAGES: tuple[ModuleType, ...] = (en, fr, de, es)

SPEAKERS = [
    "Amara", "Bruno", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hiroshi", "Ines", "Jonas", "Kalani", "Lucia",
    "Mateo", "Nadia", "Olek", "Priya", "Quentin", "Rosa", "Soren", "Tariq", "Ursula", "Viktor", "Wanjiru", "Yusuf",
]  # fmt: skip
#: The proper names a template may use, the same in every language.
PROPER: dict[str, list[str]] = {
    "petname": ["Biscuit", "Pepper", "Mochi", "Ziggy", "Nala", "Pippin", "Luna", "Kiwi", "Waffles", "Tofu"],
    "company": [
        "Norvik Solar",
        "Castell Logistics",
        "Brightwater Labs",
        "Keller & Sons",
        "Alto Design",
        "Meridian Health",
        "Tessera Games",
        "Orla Foods",
    ],  # fmt: skip
    "city": ["Porto", "Bergen", "Utrecht", "Graz", "Leeds", "Bilbao", "Bordeaux", "Aarhus", "Tampere", "Galway"],
    "brand": ["Volvo", "Toyota", "Fiat", "Skoda", "Renault", "Kia", "Mazda", "Peugeot"],
    "title": ["Saltmarrow", "Ashgrove", "Quillon", "Vendrake", "Thornwick", "Lumenfall", "Corrigan", "Blackwater"],
    "code": ["LX 1742", "KL 2281", "IB 3307", "AF 1146", "LH 2093", "TP 575", "SK 4410", "OS 862"],
    "sibname": ["Marta", "Zoe", "Ilse", "Noor", "Carla", "Freya", "Hana", "Leonie"],
    "childname": ["Theo", "Milo", "Felix", "Hugo", "Leo", "Oscar", "Emil", "Max"],
    "docname": ["Okafor", "Lindqvist", "Moreau", "Haddad", "Brennan", "Sato", "Novak", "Ferreira"],
    "age": [str(n) for n in range(4, 13)],
}
#: What each kind of fact's questions ask for: the slot or name whose value the evidence holds.
ANSWER = {
    "pet": "petname", "job": "company", "move": "city", "instrument": "instrument", "allergy": "food",
    "sister": "job2", "car": "brand", "book": "title", "trip": "country", "sport": "sport", "flight": "code",
    "dish": "dish", "child": "age", "dentist": "docname", "garden": "plant", "painting": "subject",
}  # fmt: skip
WORDINGS = ("keyword", "paraphrase")


def _fills(kind: str) -> set[str]:
    """The slots and names a kind of fact's English templates use (every language's use the same)."""
    fact = en.FACTS[kind]
    return {n for t in (*fact["say"], fact["echo"], *fact["ask"]) for n in languages.placeholders(t) if "[" not in n}


def draw_values(rng: random.Random, kind: str) -> dict[str, int]:
    """A fact's values: per slot or name its templates use, the index of one (the same in every language)."""
    return {name: rng.randrange(len(PROPER.get(name) or en.SLOTS[name])) for name in sorted(_fills(kind) - {"S", "O"})}


def skeleton(rng: random.Random) -> list[dict[str, Any]]:
    """The conversations without words: per session its turns, each a filler line's index or a
    fact (kind, speaker, values, how it is said) or the echo of one."""
    convs = []
    for _ in range(CONVERSATIONS):
        pair = rng.sample(SPEAKERS, 2)
        facts = []
        for who in pair:
            for kind in rng.sample(sorted(en.FACTS), FACTS_PER_SPEAKER):
                facts.append(
                    {
                        "kind": kind,
                        "speaker": who,
                        "values": draw_values(rng, kind),
                        "say": rng.randint(0, 1),
                        "echo": rng.random() < 0.5,
                        "session": rng.randint(1, SESSIONS),
                    }
                )
        sessions = []
        for s in range(1, SESSIONS + 1):
            # a session's chatter lines are all different (a conversation repeats some)
            lines = rng.sample(range(len(en.FILLER)), rng.randint(9, 13))
            items: list[dict[str, Any]] = [{"filler": i} for i in lines]
            for fact in (f for f in facts if f["session"] == s):
                items.insert(rng.randint(0, len(items)), {"fact": fact})
            turns = []
            who = pair[rng.randint(0, 1)]
            for item in items:
                if "fact" in item:
                    fact = item["fact"]
                    turns.append({"speaker": fact["speaker"], "fact": fact})
                    if fact["echo"]:
                        other = pair[1 - pair.index(fact["speaker"])]
                        turns.append({"speaker": other, "echo": fact})
                    who = pair[1 - pair.index(turns[-1]["speaker"])]
                else:
                    turns.append({"speaker": who, "filler": item["filler"]})
                    who = pair[1 - pair.index(who)]
            sessions.append({"session": s, "date": (FIRST_DAY + timedelta(weeks=s - 1)).isoformat(), "turns": turns})
        convs.append({"pair": pair, "facts": facts, "sessions": sessions})
    return convs


def fill(module: ModuleType, fact: dict[str, Any], speaker: str, other: str) -> dict[str, Any]:
    """The values a template of ``module`` formats with: slot values (dicts of forms) and names."""
    values: dict[str, Any] = {"S": speaker, "O": other}
    for name, i in fact["values"].items():
        values[name] = PROPER[name][i] if name in PROPER else module.SLOTS[name][i]
    return values


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    shape = skeleton(rng)
    conversations, questions = [], []
    for module in LANGUAGES:
        for c, conv in enumerate(shape):
            cid = f"{module.CODE}{c}"
            pair = conv["pair"]
            where: dict[int, str] = {}
            sessions = []
            for session in conv["sessions"]:
                turns = []
                for t, turn in enumerate(session["turns"], 1):
                    tid = f"{cid}:D{session['session']}:{t}"
                    speaker = turn["speaker"]
                    other = pair[1 - pair.index(speaker)]
                    if "filler" in turn:
                        text = module.FILLER[turn["filler"]]
                    elif "fact" in turn:
                        fact = turn["fact"]
                        text = module.FACTS[fact["kind"]]["say"][fact["say"]].format(
                            **fill(module, fact, speaker, other)
                        )
                        where[id(fact)] = tid
                    else:
                        fact = turn["echo"]
                        text = module.FACTS[fact["kind"]]["echo"].format(**fill(module, fact, fact["speaker"], speaker))
                    turns.append({"id": tid, "speaker": speaker, "text": text})
                sessions.append({"session": session["session"], "date": session["date"], "turns": turns})
            conversations.append({"id": cid, "language": module.CODE, "speakers": pair, "sessions": sessions})
            n = 0
            for fact in conv["facts"]:
                speaker = fact["speaker"]
                values = fill(module, fact, speaker, pair[1 - pair.index(speaker)])
                for wording, template in zip(WORDINGS, module.FACTS[fact["kind"]]["ask"], strict=True):
                    n += 1
                    questions.append(
                        {
                            "id": f"{cid}:q{n}",
                            "conversation": cid,
                            "type": "single-hop",
                            "language": module.CODE,
                            "fact": fact["kind"],
                            "wording": wording,
                            "told": ("direct", "indirect")[fact["say"]],
                            "question": template.format(**values),
                            "evidence": [where[id(fact)]],
                        }
                    )
    n_turns = sum(len(s["turns"]) for c in conversations for s in c["sessions"])
    about = (
        f"Two friends' chats in {', '.join(m.NAME for m in LANGUAGES)}, each a translation of the others, generated "
        f"by bench/retrieval/generate_languages.py (seed {seed}): {len(conversations)} conversations, {n_turns} turns, "
        f"{len(questions)} questions."
    )
    return {"about": about, "conversations": conversations, "questions": questions}


def main() -> None:
    for module in LANGUAGES[1:]:
        problems = languages.check(module, en, set(PROPER))
        if problems:
            raise SystemExit(f"{module.__name__}: {problems}")
    write(generate(), OUT)


if __name__ == "__main__":
    main()
