"""The board's web page: live view, simulator hands and arbiter actions (see `app`)."""
