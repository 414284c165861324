"""The wordings of the languages data set (bench/retrieval/generate_languages.py), one module per
language: English (``en``, the reference), French (``fr``), German (``de``) and Spanish (``es``).

Each module holds the same things, index for index the same meaning, so that the four sets the
generator writes are translations of one another (the same people, facts, turns and questions in
the same order) and a difference in recall between two languages is the language's:

- ``SLOTS``: the translatable values (a pet, a job, a food, ...): per slot a list, the i-th entry
  of every module meaning the same thing. An entry is a dict of the grammatical forms that
  language's templates use (``{pet[a]}``: "a dog"; French might use ``{pet[un]}``: "un chien").
- ``FACTS``: per kind of fact, ``say`` (two ways the speaker states it: 0 in the question's own
  words, 1 told indirectly), ``echo`` (the other speaker's reaction) and ``ask`` (two questions:
  0 sharing the fact's content words, 1 paraphrased, sharing none but names).
- ``FILLER``: chatter that states no fact, some of it with the slots' common words.

The proper names (people, pets, companies, cities, brands, titles, flight codes) and numbers are
the generator's and the same in every language; in a template they are ``{S}`` (the person asked
about), ``{O}`` (the other speaker) and the names in ``generate_languages.PROPER``.
:func:`check` says what a module lacks against English's.
"""

from __future__ import annotations

import string
from types import ModuleType


def placeholders(template: str) -> set[str]:
    """The field names a template uses (``pet`` for ``{pet[a]}``), and the forms: ``pet[a]``."""
    names = set()
    for _, field, _, _ in string.Formatter().parse(template):
        if field:
            names.add(field)
            names.add(field.split("[", 1)[0])
    return names


def check(module: ModuleType, reference: ModuleType, proper: set[str]) -> list[str]:
    """What ``module`` lacks or gets wrong against ``reference``: the same slots with as many
    values, the same fact kinds with two ``say``, one ``echo`` and two ``ask`` each, as many filler
    lines, and only placeholders its own slot values (or the proper names) fill."""
    problems = []
    if set(module.SLOTS) != set(reference.SLOTS):
        problems.append(f"slots {sorted(set(module.SLOTS) ^ set(reference.SLOTS))} differ")
    for slot, values in reference.SLOTS.items():
        mine = module.SLOTS.get(slot, [])
        if len(mine) != len(values):
            problems.append(f"slot {slot}: {len(mine)} values, not {len(values)}")
    if set(module.FACTS) != set(reference.FACTS):
        problems.append(f"fact kinds {sorted(set(module.FACTS) ^ set(reference.FACTS))} differ")
    if len(module.FILLER) != len(reference.FILLER):
        problems.append(f"{len(module.FILLER)} filler lines, not {len(reference.FILLER)}")
    for kind, fact in module.FACTS.items():
        if len(fact.get("say", ())) != 2 or len(fact.get("ask", ())) != 2 or not isinstance(fact.get("echo"), str):
            problems.append(f"fact {kind}: two say, one echo and two ask wanted")
            continue
        for template in (*fact["say"], fact["echo"], *fact["ask"]):
            for name in placeholders(template):
                base = name.split("[", 1)[0]
                if base in proper or base in {"S", "O"}:
                    continue
                if base not in module.SLOTS:
                    problems.append(f"fact {kind}: {{{name}}} is no slot or name: {template!r}")
                elif "[" in name:
                    form = name.split("[", 1)[1].rstrip("]")
                    if any(form not in value for value in module.SLOTS[base]):
                        problems.append(f"fact {kind}: a value of slot {base} has no form {form!r}")
    for line in module.FILLER:
        if placeholders(line) - {"O", "S"}:
            problems.append(f"filler has placeholders: {line!r}")
    return problems
