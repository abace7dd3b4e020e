"""Behaviour cloning on SimPhone, end to end on a CPU in a minute: a tiny numpy policy learns to act in
``droidpilot/World-v0`` (structured actions) from the reference brain's demonstrations.

1. Demonstrations: the reference policy plays the training seeds (text actions); each tap it performs is
   matched to the UI-tree element under it, so a step becomes (screen, instruction, chosen option).
2. The policy scores the options of a screen (every element with a text or a description, page down,
   stop) with one linear function of hand-made features (word overlap with the instruction, hashed word
   pairs, position, checked state, what was tapped before), trained by softmax regression.
3. Evaluation: the policy acts alone on held-out seeds, before and after training; the oracle judges.

Run: ``python examples/bc_structured.py [--train 0-39] [--eval 1000-1019] [--templates ...]``.
Needs droidpilot's ``gym`` extra (gymnasium) and nothing else beyond numpy.
"""

from __future__ import annotations

import argparse
import re
import zlib
from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree

import gymnasium
import numpy as np

import droidpilot.gym  # noqa: F401  (registers the environments)
from droidpilot.gym import STRUCTURED_TYPES
from droidpilot.gym.demos import parse_seeds
from droidpilot.gym.reference import ReferencePolicy

TEMPLATES = "settings-switch,settings-open,clock-turn-off,clock-turn-on"
SIZE = (540, 1200)
HASH = 256  # hashed (instruction word, element word) pairs
SPECIAL = ("page_down", "stop")
DIM = 8 + HASH + 2 * len(SPECIAL)
_WORD = re.compile(r"[\w:.'-]+")


@dataclass(frozen=True)
class Element:
    """A UI-tree node the policy may tap: its words, box and state."""

    text: str
    box: tuple[int, int, int, int]
    checked: bool
    clickable: bool


def words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def elements(xml: str) -> list[Element]:
    """The nodes with a text or a content description, in the dump's order."""
    out = []
    for node in ElementTree.fromstring(xml).iter("node"):
        text = node.get("text") or node.get("content-desc") or ""
        x1, y1, x2, y2 = (int(v) for v in re.findall(r"-?\d+", node.get("bounds", "[0,0][0,0]")))
        if text.strip() and x2 > x1 and y2 > y1:
            out.append(Element(text.strip(), (x1, y1, x2, y2), node.get("checked") == "true",
                               node.get("clickable") == "true"))
    return out


def _hashed(goal: set[str], mine: set[str]) -> np.ndarray:
    vec = np.zeros(HASH)
    for a in goal:
        for b in mine:
            vec[zlib.crc32(f"{a}|{b}".encode()) % HASH] += 1.0
    return vec / max(1.0, np.sqrt(len(goal) * max(len(mine), 1)))


def options(obs: dict[str, Any], tapped: list[str]) -> tuple[list[Element | str], np.ndarray]:
    """The options of a screen and their feature rows (elements first, then page down and stop)."""
    goal = words(obs["instruction"])
    found = elements(obs["ui_tree"])
    rows, best, done = [], 0.0, 0.0
    for el in found:
        mine = words(el.text)
        overlap = len(goal & mine) / max(len(mine), 1)
        best = max(best, overlap)
        done = max(done, overlap * el.checked)
        row = np.zeros(DIM)
        row[:8] = (1.0, overlap, float(mine <= goal), el.box[1] / SIZE[1], float(el.clickable),
                   float(el.checked), float(el.text in tapped), float(len(mine) > 4))
        row[8:8 + HASH] = _hashed(goal, mine)
        rows.append(row)
    for i, _ in enumerate(SPECIAL):
        row = np.zeros(DIM)
        row[8 + HASH + 2 * i:8 + HASH + 2 * i + 2] = (1.0, best if i == 0 else done + 0.5 * bool(tapped))
        rows.append(row)
    return [*found, *SPECIAL], np.array(rows)


def to_action(choice: Element | str, text: str = "") -> dict[str, Any]:
    """The structured action of an option (a tap at the element's centre, normalised)."""
    coords = np.zeros(4, dtype=np.float32)
    if isinstance(choice, Element):
        x1, y1, x2, y2 = choice.box
        coords[:2] = ((x1 + x2) / 2 / SIZE[0], (y1 + y2) / 2 / SIZE[1])
        return {"action_type": STRUCTURED_TYPES.index("tap"), "coords": coords, "text": ""}
    return {"action_type": STRUCTURED_TYPES.index(choice), "coords": coords, "text": text}


def demonstrations(seeds: list[int], templates: str) -> list[tuple[np.ndarray, int]]:
    """(option features, index of the option the reference took) for every step it took that the
    options can express (taps on an element, page down, the final stop)."""
    env = gymnasium.make("droidpilot/World-v0", templates=templates, ui_tree=True, size=SIZE).unwrapped
    env.trace_info = True
    samples = []
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        teacher, tapped, over = ReferencePolicy(env.task), [], False
        while not over:
            found, rows = options(obs, tapped)
            reply = teacher(env)
            obs_next, _, terminated, truncated, info = env.step(reply)
            over = terminated or truncated
            entry = (info.get("performed") or {}).get("entry", {})
            label = _label(found, entry, reply)
            if label is not None:
                samples.append((rows, label))
                if isinstance(found[label], Element):
                    tapped.append(found[label].text)
            obs = obs_next
    env.close()
    return samples


def _label(found: list[Element | str], entry: dict[str, Any], reply: str) -> int | None:
    if entry.get("type") == "click":
        x, y = entry["position_x"], entry["position_y"]
        under = [i for i, el in enumerate(found) if isinstance(el, Element)
                 and el.box[0] <= x < el.box[2] and el.box[1] <= y < el.box[3]]
        return min(under, key=lambda i: _area(found[i])) if under else None
    if entry.get("type") == "swipe" and "page down" in reply:
        return found.index("page_down")
    if re.search(r"\b(stop|answer)\b", reply):
        return found.index("stop")
    return None


def _area(el: Element | str) -> int:
    assert isinstance(el, Element)
    return (el.box[2] - el.box[0]) * (el.box[3] - el.box[1])


def train(samples: list[tuple[np.ndarray, int]], epochs: int = 300, rate: float = 0.5, l2: float = 1e-3
          ) -> np.ndarray:
    """Softmax regression over each screen's options, full-batch gradient descent from zero weights."""
    weights = np.zeros(DIM)
    for _ in range(epochs):
        grad = l2 * weights
        for rows, label in samples:
            scores = rows @ weights
            p = np.exp(scores - scores.max())
            p /= p.sum()
            p[label] -= 1.0
            grad += rows.T @ p / len(samples)
        weights -= rate * grad
    return weights


def evaluate(weights: np.ndarray, seeds: list[int], templates: str, max_steps: int = 8) -> float:
    """The share of ``seeds`` the policy wins, acting alone (greedy; ties go to the first option)."""
    env = gymnasium.make("droidpilot/World-v0", templates=templates, action="structured", ui_tree=True,
                         size=SIZE, max_steps=max_steps).unwrapped
    wins = 0
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        tapped, over, info = [], False, {}
        while not over:
            found, rows = options(obs, tapped)
            choice = found[int(np.argmax(rows @ weights))]
            if isinstance(choice, Element):
                tapped.append(choice.text)
            obs, _, terminated, truncated, info = env.step(to_action(choice))
            over = terminated or truncated
        wins += bool(info.get("success"))
    env.close()
    return wins / len(seeds)


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", default="0-39", help="training seeds (demonstrations)")
    parser.add_argument("--eval", default="1000-1019", help="held-out seeds the policy is judged on")
    parser.add_argument("--templates", default=TEMPLATES)
    parser.add_argument("--epochs", type=int, default=300)
    args = parser.parse_args(argv)
    train_seeds, eval_seeds = parse_seeds(args.train), parse_seeds(args.eval)
    before = evaluate(np.zeros(DIM), eval_seeds, args.templates)
    samples = demonstrations(train_seeds, args.templates)
    weights = train(samples, args.epochs)
    fit = float(np.mean([int(np.argmax(rows @ weights)) == label for rows, label in samples]))
    after = evaluate(weights, eval_seeds, args.templates)
    print(f"{len(samples)} demonstration steps from {len(train_seeds)} seeds; training accuracy {fit:.0%}")
    print(f"success on {len(eval_seeds)} held-out seeds: {before:.0%} before training, {after:.0%} after")
    return {"before": before, "after": after, "fit": fit, "samples": float(len(samples))}


if __name__ == "__main__":
    main()
