"""A calculator's ``=`` key: works out an arithmetic expression as typed or tapped on a keypad.

Numbers (``12``, ``3.5``), ``+ - * /`` and the keypad's ``× ÷ −``, parentheses and a leading minus, in
decimal arithmetic (``0.1+0.2`` is ``0.3``). The result reads as a calculator shows it: no trailing zeros,
at most ten decimals; anything that is not a well-formed expression, or a division by zero, is ``Error``.
"""

from __future__ import annotations

import re
from decimal import Decimal, DivisionByZero, InvalidOperation, localcontext

ERROR = "Error"
_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d*)?|\.\d+)|(.))")
_SIGNS = str.maketrans({"×": "*", "x": "*", "X": "*", "÷": "/", "−": "-", "–": "-", ",": ""})


class _Bad(Exception):
    """The expression is not well formed."""


class _Parser:
    """Recursive descent over tokens: expr := term (+|- term)*, term := factor (*|/ factor)*."""

    def __init__(self, text: str) -> None:
        self.tokens: list[str | Decimal] = []
        for number, other in _TOKEN.findall(text):
            if number:
                self.tokens.append(Decimal(number))
            elif other.strip():
                if other not in "+-*/()":
                    raise _Bad(other)
                self.tokens.append(other)
        self.pos = 0

    def peek(self) -> str | Decimal | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str | Decimal:
        token = self.peek()
        if token is None:
            raise _Bad("end")
        self.pos += 1
        return token

    def expr(self) -> Decimal:
        value = self.term()
        while self.peek() in ("+", "-"):
            value = value + self.term() if self.take() == "+" else value - self.term()
        return value

    def term(self) -> Decimal:
        value = self.factor()
        while self.peek() in ("*", "/"):
            value = value * self.factor() if self.take() == "*" else value / self.factor()
        return value

    def factor(self) -> Decimal:
        token = self.take()
        if token == "-":
            return -self.factor()
        if token == "+":
            return self.factor()
        if token == "(":
            value = self.expr()
            if self.take() != ")":
                raise _Bad(")")
            return value
        if isinstance(token, Decimal):
            return token
        raise _Bad(str(token))


def calculate(text: str) -> str:
    """The result of ``text`` as a calculator shows it, or ``Error``."""
    with localcontext() as ctx:
        ctx.prec = 28
        ctx.traps[DivisionByZero] = True
        ctx.traps[InvalidOperation] = True
        try:
            parser = _Parser(text.translate(_SIGNS))
            if not parser.tokens:
                return ERROR
            value = parser.expr()
            if parser.peek() is not None:
                return ERROR
        except (_Bad, DivisionByZero, InvalidOperation):
            return ERROR
        value = value.quantize(Decimal("1e-10")).normalize()
    text = f"{value:f}"
    return "0" if text in ("-0", "0") else text
