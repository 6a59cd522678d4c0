"""The arbiter's token file: kept across restarts, rotated, and followed by a running
board at once; a file that cannot be read refuses every token."""

from __future__ import annotations

import stat

from draughtsboard.play.token import ArbiterToken

from ..web.helpers import TOKEN


def test_the_arbiter_token_is_kept_and_rotated_in_the_data_directory(tmp_path):
    store = ArbiterToken(tmp_path)
    first = store.current()
    assert len(first) >= 12 and ArbiterToken(tmp_path).current() == first  # a restart
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    other = ArbiterToken(tmp_path).rotate()  # `draughtsboard token --rotate`, elsewhere
    assert other != first and store.current() == other  # the running board follows
    store.path.write_text("short\n")
    try:
        store.current()
    except OSError as error:
        assert "--rotate" in str(error)
    else:
        raise AssertionError("a bad token file was accepted")


def test_a_running_session_follows_the_token_file(start_session, tmp_path):
    store = ArbiterToken(tmp_path / "tokens")
    session = start_session(token=store.current)
    old = store.current()
    assert session.check_token(old)
    new = ArbiterToken(tmp_path / "tokens").rotate()
    assert session.check_token(new) and not session.check_token(old)
    store.path.unlink()
    store.path.mkdir()  # unreadable as a token: every token is refused, nothing breaks
    assert not session.check_token(new) and not session.check_token(TOKEN)
