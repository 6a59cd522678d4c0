"""Which language a person gets: the one they chose on this device, else the first of
their browser's Accept-Language that has a catalog, else the board's or the venue's."""

from __future__ import annotations

import re

from .catalog import PSEUDO_LANGUAGE, SOURCE_LANGUAGE, UnknownLanguageError, catalog_languages

MAX_ACCEPTED = 20  # language ranges read from one Accept-Language header
WEIGHT = re.compile(r"0(\.[0-9]{0,3})?|1(\.0{0,3})?")  # RFC 9110's qvalue: 0 to 1


def check_language(language: str) -> str:
    """``language`` if it has a catalog (or is the pseudo-language), else
    `UnknownLanguageError`: what ``play --language`` and the configs use."""
    code = language.strip().lower()
    if code == PSEUDO_LANGUAGE or code in catalog_languages():
        return code
    raise UnknownLanguageError(language)


def accepted_languages(header: str | None) -> list[str]:
    """The language ranges of an Accept-Language header, most wanted first (RFC 9110:
    ``ru-RU,ru;q=0.9,en;q=0.5``); a weight that is not the RFC's (``q=inf``, ``q=2``)
    counts as 0, the order of equal weights is kept."""
    ranked = []
    for position, part in enumerate((header or "").split(",")[:MAX_ACCEPTED]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                value = value.strip()
                weight = float(value) if WEIGHT.fullmatch(value) else 0.0
        if tag and weight > 0:
            ranked.append((-weight, position, tag.strip().lower()))
    return [tag for _, _, tag in sorted(ranked)]


def choose_language(asked: str | None, accept_language: str | None, default: str) -> str:
    """The language to answer in: ``asked`` (a choice remembered on the device) when it
    has a catalog, else the first of ``accept_language`` that has one (``ru-RU`` matches
    ``ru``; ``*``, any language, is the default), else ``default``."""
    known = catalog_languages()
    if asked:
        code = asked.strip().lower()
        if code == PSEUDO_LANGUAGE or code in known:
            return code
    for tag in accepted_languages(accept_language):
        if tag == "*":
            break
        primary = tag.split("-")[0]
        if tag in known:
            return tag
        if primary in known:
            return primary
    return default if default in known or default == PSEUDO_LANGUAGE else SOURCE_LANGUAGE
