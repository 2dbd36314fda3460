"""Seeded chance. All randomness in a game comes from its seed, so the same seed and actions give the same game."""

from __future__ import annotations

import hashlib
import random


def derive_seed(*parts: object) -> int:
    """A 63-bit seed derived deterministically from any parts (run seed, game index, ...)."""
    text = "\x1f".join(repr(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def next_rng(rng_state: int) -> tuple[random.Random, int]:
    """A generator for one chance event and the state to keep for the next one.

    Games keep chance as a plain integer in their state (cheap to clone and compare); each chance
    event draws a generator from it and stores the successor state.
    """
    rng = random.Random(rng_state)
    return rng, rng.getrandbits(63)
