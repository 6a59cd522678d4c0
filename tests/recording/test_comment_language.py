"""What happened in a game (an illegal attempt, a resume, a takeback, an amendment, the
arbiter's tags, a withdrawn result) is journalled as English text with its message
beside it, and the PDN says it in the board's language: a Russian file has no English
sentence in its comments, an English one reads as every earlier file did, and a record
older than messages is written as recorded."""

from __future__ import annotations

import re

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.message import Message
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.recording import Recorder
from draughtsboard.recording.journal import decode_line, encode_record
from draughtsboard.words import words_for

RUSSIAN = get_variant("russian")


def a_recorded_game(tmp_path) -> tuple[Recorder, str]:
    recorder = Recorder(tmp_path, sync=False)
    game_id = recorder.start_game(RUSSIAN, {"White": "Ann", "Black": "Bea"}, mode="training")
    recorder.record_move(game_id, "c3-d4", 1.0, 1_000_001.0)
    recorder.record_illegal(game_id, "illegal move f6-e4", t_monotonic=2.0, t_wall=1_000_002.0,
                            message=Message.of("log.illegal_move", move="f6-e4"))
    recorder.record_resume(game_id, 3.0, 1_000_003.0)
    recorder.record_takeback(game_id, 4.0, 1_000_004.0)
    recorder.record_move(game_id, "c3-b4", 5.0, 1_000_005.0)
    recorder.record_takeback(game_id, 6.0, 1_000_006.0, amended_by="c3-d4")
    recorder.record_move(game_id, "c3-d4", 6.5, 1_000_006.5)
    recorder.record_tags(game_id, {"Round": "2"}, 7.0, 1_000_007.0)
    recorder.record_result(game_id, "1-0", "resigned", 8.0, 1_000_008.0)
    recorder.record_result_withdrawn(game_id, t_monotonic=9.0, t_wall=1_000_009.0)
    return recorder, game_id


def comments(pdn: str) -> list[str]:
    return re.findall(r"\{([^}]*)\}", pdn)


def test_a_russian_file_says_what_happened_in_russian(tmp_path):
    recorder, game_id = a_recorded_game(tmp_path)
    russian = recorder.export_pdn(game_id, say=words_for("ru"))
    said = comments(russian)
    for words in ["недопустимый ход f6-e4", "игра продолжена после перезапуска",
                  "ход c3-d4 взят назад", "ход c3-b4 исправлен на c3-d4",
                  "теги изменены судьёй: Round=2", "результат 1-0 отменён судьёй"]:
        assert any(words in comment for comment in said), (words, said)
    english_words = re.compile(r"\b(illegal|resumed|taken back|amended|tags set|withdrawn)\b")
    assert [c for c in said if english_words.search(c)] == []
    again = read_pdn(russian).games[0].game
    assert [m.text for m in again.moves] == ["c3-d4"]


def test_an_english_file_reads_as_before_and_an_old_record_as_recorded(tmp_path):
    recorder, game_id = a_recorded_game(tmp_path)
    english = comments(recorder.export_pdn(game_id))
    for words in ["illegal move f6-e4", "play resumed after a restart", "c3-d4 taken back",
                  "c3-b4 amended to c3-d4: the piece slid on before it was let go",
                  "tags set by the arbiter: Round=2", "result 1-0 withdrawn by the arbiter"]:
        assert any(words in comment for comment in english), (words, english)
    recorder.close()
    # the same journal without its messages (as written before they were kept), and one
    # with a damaged message: each event is written as its text was recorded
    journal = next(tmp_path.rglob("*.jsonl"))
    records = [decode_line(line) for line in journal.read_bytes().splitlines()]
    for record in records:
        if record.get("type") == "illegal":
            record["message"] = {"id": "no such shape!", "params": {}}
        elif "message" in record:
            del record["message"]
    journal.write_bytes(b"".join(encode_record(record) for record in records))
    older = comments(Recorder(tmp_path, sync=False).export_pdn(game_id, say=words_for("ru")))
    assert any("illegal move f6-e4" in c for c in older)
    assert any("play resumed after a restart" in c for c in older)


def test_an_arbiters_correction_is_said_in_the_boards_language(tmp_path):
    """The correction carries its message as a takeback does: a Russian PDN says «судья
    принял позицию», an English one what every earlier file said, and a journal written
    before the message was kept (no ``message`` in its correction) reads as recorded."""
    recorder = Recorder(tmp_path, sync=False)
    game_id = recorder.start_game(RUSSIAN, {"White": "Ann", "Black": "Bea"}, mode="training")
    recorder.record_move(game_id, "c3-d4", 1.0, 1_000_001.0)
    fen = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    text = f"position accepted by the arbiter, Black to move: {fen}"
    recorder.record_correction(game_id, fen, text, 2.0, 1_000_002.0,
                               message=Message.of("log.position_accepted.black", fen=fen))
    russian = [c for c in comments(recorder.export_pdn(game_id, say=words_for("ru")))
               if "исправление судьи" in c]
    assert len(russian) == 1 and f"судья принял позицию, ход чёрных: {fen}" in russian[0]
    assert "accepted" not in russian[0] and "[%setup " in russian[0]
    assert any(text in c for c in comments(recorder.export_pdn(game_id)))
    recorder.close()
    journal = next(tmp_path.rglob("*.jsonl"))
    records = [decode_line(line) for line in journal.read_bytes().splitlines()]
    correction = next(record for record in records if record.get("type") == "correction")
    assert correction["message"] == {"id": "log.position_accepted.black",
                                     "params": {"fen": fen}}
    del correction["message"]
    journal.write_bytes(b"".join(encode_record(record) for record in records))
    older = comments(Recorder(tmp_path, sync=False).export_pdn(game_id, say=words_for("ru")))
    assert any(text in c for c in older)
