"""The Legendary Inventors reveal (rules spec 6.1) as a sequence of small chance steps.

A reveal puts K = players + 3 of the age's 12 cards on the table, each with two tokens from the
bag. Its joint outcomes are far too many to list, so the OpenSpiel adapter plays it as 2K chance
nodes, following the spec's own sequential procedure:

1. K **card steps**. The chosen set is drawn smallest card first (edition order): with the last
   chosen card at index L (-1 before the first) and r cards still to choose, the next chosen card
   is index j (L < j <= 12 - r) with probability C(11 - j, r - 1) / C(11 - L, r). The product
   over the K steps telescopes to 1 / C(12, K): every set equally likely (6.1.1).
2. K **token steps**, the chosen cards in edition order (6.1.2): the card draws an unordered pair
   of kinds {a, b} from the bag without replacement, probability 2 c_a c_b / (B (B - 1)) for
   a != b and c_a (c_a - 1) / (B (B - 1)) for a == b (c_k the kind's count, B the bag's size, both
   before this card). The product is the spec's 2^u Π ff(c_k, m_k) / ff(B, 2K) (6.1.3).

The assembled text `reveal:CARD=K+K,...` is then applied to the core state (`apply_reveal`);
its `reveal_probability` equals the product of the step probabilities (tests/test_openspiel.py).

Chance action ids: a card step's outcome is the card's index among the age's cards (0..11);
a token step's outcome is PAIR_BASE + the index of the pair in PAIRS. Pure Python, no pyspiel.
"""
from __future__ import annotations

from math import comb

KINDS = ("P2", "P3", "P4", "VP1", "VP2", "VP3", "AV", "AK", "ST")   # token kinds, notation order
PAIRS = tuple((a, b) for a in range(len(KINDS)) for b in range(a, len(KINDS)))   # 45 unordered pairs
AGE_CARDS = 12
PAIR_BASE = 16
MAX_CHANCE_OUTCOMES = PAIR_BASE + len(PAIRS)   # 61: every chance action id is below it


def age_cards(game, age: int) -> list[str]:
    """The card ids of `age` in edition order."""
    ed = game.edition
    cards = ed.to_dict()["cards"]
    return [cid for cid, c in zip(ed.card_ids, cards) if c["age"] == age]


class Reveal:
    """One reveal in progress: the cards chosen so far (indices into `cards`), then the pairs."""

    __slots__ = ("cards", "k", "bag", "chosen", "pairs")

    def __init__(self, cards: list[str], k: int, bag: list[int]):
        if len(cards) != AGE_CARDS:
            raise ValueError(f"reveal: expected {AGE_CARDS} cards of the age, got {len(cards)}")
        self.cards = list(cards)
        self.k = k
        self.bag = list(bag)       # counts per kind before the next token step
        self.chosen: list[int] = []
        self.pairs: list[int] = []   # indices into PAIRS, one per chosen card so far

    @classmethod
    def of_state(cls, core_state) -> "Reveal":
        """The reveal due at a core state in CHANCE_REVEAL."""
        from .. import position_dict

        d = position_dict(core_state)
        game = core_state.game
        bag = [int(d["bag"].get(kind, 0)) for kind in KINDS]
        return cls(age_cards(game, int(d["age"])), int(game.k), bag)

    def __getstate__(self):
        return {s: getattr(self, s) for s in self.__slots__}

    def __setstate__(self, st):
        for s in self.__slots__:
            setattr(self, s, st[s])

    def __deepcopy__(self, memo):
        other = Reveal.__new__(Reveal)
        other.cards, other.k, other.bag = self.cards, self.k, list(self.bag)   # cards: never mutated
        other.chosen, other.pairs = list(self.chosen), list(self.pairs)
        return other

    @property
    def step(self) -> str:
        return "card" if len(self.chosen) < self.k else "tokens"

    def done(self) -> bool:
        return len(self.pairs) == self.k

    def outcomes(self) -> list[tuple[int, float]]:
        """[(action, probability)] of the next step, actions ascending, zero-probability ones left out."""
        if len(self.chosen) < self.k:
            last = self.chosen[-1] if self.chosen else -1
            r = self.k - len(self.chosen)
            den = comb(AGE_CARDS - 1 - last, r)
            return [(j, comb(AGE_CARDS - 1 - j, r - 1) / den) for j in range(last + 1, AGE_CARDS - r + 1)]
        c = self.bag
        b = sum(c)
        den = b * (b - 1)
        out = []
        for i, (x, y) in enumerate(PAIRS):
            num = c[x] * (c[x] - 1) if x == y else 2 * c[x] * c[y]
            if num:
                out.append((PAIR_BASE + i, num / den))
        return out

    def apply(self, action: int) -> None:
        if not any(a == action for a, _ in self.outcomes()):
            raise ValueError(f"reveal step: action {action} is not a possible outcome of this {self.step} step")
        if len(self.chosen) < self.k:
            self.chosen.append(action)
            return
        x, y = PAIRS[action - PAIR_BASE]
        self.bag[x] -= 1
        self.bag[y] -= 1
        self.pairs.append(action - PAIR_BASE)

    def action_text(self, action: int) -> str:
        """`card:I04` for a card step, `tokens:I04=P2+AV` for a token step."""
        if len(self.chosen) < self.k:
            return f"card:{self.cards[action]}" if 0 <= action < AGE_CARDS else f"card:#{action}"
        i = action - PAIR_BASE
        if not 0 <= i < len(PAIRS):
            return f"tokens:#{action}"
        x, y = PAIRS[i]
        return f"tokens:{self.cards[self.chosen[len(self.pairs)]]}={KINDS[x]}+{KINDS[y]}"

    def text(self) -> str:
        """The assembled reveal in notation (complete or not: the steps taken so far)."""
        parts = []
        for n, j in enumerate(self.chosen):
            if n < len(self.pairs):
                x, y = PAIRS[self.pairs[n]]
                parts.append(f"{self.cards[j]}={KINDS[x]}+{KINDS[y]}")
            else:
                parts.append(self.cards[j])
        return "reveal:" + ",".join(parts)

    def summary(self) -> dict:
        """What is public of the reveal so far (for observations)."""
        return {"cards": [self.cards[j] for j in self.chosen],
                "tokens": [[KINDS[x], KINDS[y]] for x, y in (PAIRS[p] for p in self.pairs)]}


def outcome_count_text(core_state) -> str:
    """How many joint outcomes the reveal at `core_state` has, in words (for error messages)."""
    rv = Reveal.of_state(core_state)
    sets = comb(AGE_CARDS, rv.k)
    pairs = sum(1 for x, y in PAIRS if (rv.bag[x] >= 2 if x == y else rv.bag[x] and rv.bag[y]))
    return f"{sets} card sets times up to {pairs}^{rv.k} = {pairs ** rv.k:.3g} token assignments"
