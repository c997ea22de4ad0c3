# SPDX-License-Identifier: GPL-3.0-or-later
"""Reading torch's schema texts, for the generators of tests/tools that
read them (gen-aten-schema.py, gen-op-packets.py).  Imported by them from
their own folder; needs no torch."""


def split_top(text, sep=","):
    """Split text at sep outside brackets, parentheses and quotes."""
    parts, depth, quote, cur, i = [], 0, None, [], 0
    while i < len(text):
        c = text[i]
        if quote is not None:
            cur.append(c)
            if c == "\\":
                cur.append(text[i + 1])
                i += 1
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
            cur.append(c)
        elif c in "([{":
            depth += 1
            cur.append(c)
        elif c in ")]}":
            depth -= 1
            cur.append(c)
        elif c == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    if "".join(cur).strip() or parts:
        parts.append("".join(cur).strip())
    return parts


def matching_paren(text, start):
    """The index of the parenthesis closing the one at text[start],
    skipping quoted strings."""
    depth, quote, i = 0, None, start
    while i < len(text):
        c = text[i]
        if quote is not None:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError(f"unbalanced: {text}")
