"""Intents as `am start|broadcast` take them: the -a/-c/-d/-n flags and extras, and how am echoes them."""

from __future__ import annotations


def intent_args(args: list[str]) -> tuple[dict[str, str | list[str]], dict[str, str]]:
    """Intent flags (-a, -c, -n, -d, ...) and string/int extras of `am start|broadcast`."""
    intent: dict[str, str | list[str]] = {"cat": []}
    extras: dict[str, str] = {}
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-a", "-d", "-t", "-n", "-f", "--user", "-p") and i + 1 < len(args):
            intent[a] = args[i + 1]
            i += 2
        elif a == "-c" and i + 1 < len(args):
            cats = intent["cat"]
            assert isinstance(cats, list)
            cats.append(args[i + 1])
            i += 2
        elif a in ("--es", "--ei", "--ez", "--el", "--ef", "--eu", "--esa", "--eia") and i + 2 < len(args):
            extras[args[i + 1]] = args[i + 2]
            i += 3
        elif a.startswith("-"):
            i += 1
        else:
            intent.setdefault("-n", a) if "/" in a else intent.setdefault("-p", a)
            i += 1
    return intent, extras


def describe(intent: dict[str, str | list[str]], extras: bool) -> str:
    parts = []
    if "-a" in intent:
        parts.append(f"act={intent['-a']}")
    if intent["cat"]:
        parts.append("cat=[" + ",".join(intent["cat"]) + "]")
    if "-d" in intent:
        parts.append(f"dat={intent['-d']}")
    if "-n" in intent:
        parts.append(f"cmp={intent['-n']}")
    if extras:
        parts.append("(has extras)")
    return "Intent { " + " ".join(parts) + " }"
