"""Measure cosine similarities of duplicate and distinct fact pairs to choose
MNEMO_NEAR_DUPLICATE_THRESHOLD. Run: .venv/bin/python bench/near_duplicate_threshold.py
"""

import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

import django  # noqa: E402

django.setup()

import numpy as np  # noqa: E402

from memories.embedding import embed_texts  # noqa: E402
from memories.services import same_specifics  # noqa: E402

# The same fact said again: punctuation, case, word order, a synonym, a filler word.
DUPLICATES = [
    ("User prefers meetings in the afternoon.", "User prefers meetings in the afternoon"),
    ("User prefers meetings in the afternoon.", "The user prefers afternoon meetings."),
    ("My son Colby lives in Los Angeles.", "My son Colby lives in LA."),
    ("My son Colby lives in Los Angeles.", "Colby, my son, lives in Los Angeles."),
    ("User's GitHub username is @johndoe.", "The user's GitHub username is @johndoe"),
    ("John Smith is user's manager at Acme Corp", "John Smith is the user's manager at Acme Corp."),
    ("User is allergic to peanuts.", "The user has a peanut allergy."),
    ("User has a standing meeting with Sarah every Monday at 10am", "Every Monday at 10am the user meets Sarah."),
    (
        "User prefers Slack over email for urgent notifications",
        "For urgent notifications the user prefers Slack to email",
    ),
    ("User's Linear team ID is TEAM-123", "The user's Linear team id is TEAM-123."),
    ("User works from home on Fridays.", "On Fridays the user works from home."),
    ("User's wife is named Ananya.", "The user's wife's name is Ananya."),
]
# Different facts about the same thing: storing one must not swallow the other.
DISTINCT = [
    ("User's manager is John Smith.", "User's manager is Jane Doe."),
    ("User prefers meetings in the afternoon.", "User prefers meetings in the morning."),
    (
        "User has a standing meeting with Sarah every Monday at 10am",
        "User has a standing meeting with Sarah every Tuesday at 3pm",
    ),
    ("User's Linear team ID is TEAM-123", "User's Linear team ID is TEAM-456"),
    ("My son Colby lives in Los Angeles.", "My daughter Ava lives in Chicago."),
    ("User is allergic to peanuts.", "User is allergic to shellfish."),
    ("User works from home on Fridays.", "User works from the office on Fridays."),
    ("User's GitHub username is @johndoe.", "User's GitLab username is @johndoe."),
    ("User prefers email summaries in the morning.", "User prefers Slack summaries in the evening."),
    ("User flies to Lisbon on June 22.", "User flies to Ljubljana on May 3."),
    ("User drinks oat milk lattes.", "User drinks black coffee."),
    ("User's dog is named Biscuit.", "User's cat is named Pickles."),
]


def similarities(pairs):
    vectors = embed_texts([t for pair in pairs for t in pair])
    return [float(np.dot(vectors[2 * i], vectors[2 * i + 1])) for i in range(len(pairs))]


def main() -> None:
    dup, dis = similarities(DUPLICATES), similarities(DISTINCT)
    print(f"duplicates: min {min(dup):.3f} median {statistics.median(dup):.3f} max {max(dup):.3f}")
    print(f"distinct:   min {min(dis):.3f} median {statistics.median(dis):.3f} max {max(dis):.3f}")
    for name, pairs, sims in (("duplicate", DUPLICATES, dup), ("distinct", DISTINCT, dis)):
        for (a, b), s in sorted(zip(pairs, sims, strict=True), key=lambda x: x[1]):
            print(f"  {name:9} {s:.3f}  {a!r} ~ {b!r}")
    for threshold in (0.80, 0.85, 0.88, 0.90, 0.92, 0.93, 0.95):
        caught = sum(s >= threshold for s in dup)
        wrong = sum(s >= threshold for s in dis)
        guarded_caught = sum(s >= threshold and same_specifics(*p) for s, p in zip(dup, DUPLICATES, strict=True))
        guarded_wrong = sum(s >= threshold and same_specifics(*p) for s, p in zip(dis, DISTINCT, strict=True))
        print(
            f"threshold {threshold:.2f}: duplicates caught {caught}/{len(dup)}, distinct facts wrongly merged "
            f"{wrong}/{len(dis)}; with the numbers-and-codes check: {guarded_caught}/{len(dup)} and "
            f"{guarded_wrong}/{len(dis)}"
        )


if __name__ == "__main__":
    main()
