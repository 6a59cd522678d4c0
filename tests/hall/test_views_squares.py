"""The variants the hall's pages draw from name each square as the variant writes it, so
a screen reader says "c3, white man" (or "17, white man" in the international game)."""

from __future__ import annotations

from draughtsboard.hall.views import variants_view


def test_each_square_comes_with_its_name_and_columns_are_told():
    view = variants_view()
    russian = {number: name for number, _file, _rank, name in view["russian"]["squares"]}
    assert russian[1] == "b8" and russian[22] == "c3" and russian[32] == "g1"
    international = view["international"]["squares"]
    assert [name for *_, name in international][:3] == ["1", "2", "3"]
    assert view["lasca"]["columns"] is True and view["russian"]["columns"] is False
