"""Words as data: the message catalogs and the one renderer that turns a `Message` into
words in a language (docs/languages.md).

`words_for(language)` is a language's renderer; `choose_language` picks a person's
language; `routes` serve the catalog and ``words.js`` to the board's page and the hall's.
"""

from .catalog import (
    PSEUDO_LANGUAGE,
    SOURCE_LANGUAGE,
    Catalog,
    UnknownLanguageError,
    catalog_languages,
    load_catalog,
)
from .choose import accepted_languages, check_language, choose_language
from .render import Words, english, words_for

__all__ = ["PSEUDO_LANGUAGE", "SOURCE_LANGUAGE", "Catalog", "UnknownLanguageError",
           "Words", "accepted_languages", "catalog_languages", "check_language",
           "choose_language", "english", "load_catalog", "words_for"]
