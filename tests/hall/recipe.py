"""docs/hall.md's one-machine recipe, run as the doc says: its shell block read from the
doc, line by line in one bash (``set -eu``: a line that fails stops it, and the test says
which), with a temporary directory for ``/srv/draughtsboard`` and free ports for the
doc's, so that tests can run side by side. mosquitto is Debian's, started by the recipe's
own line: as root it drops to the ``mosquitto`` user, as the doc says.

Every process the recipe starts runs in the recipe's own session; `Recipe.stop` ends
that session's processes, and no other."""

from __future__ import annotations

import json
import os
import pwd
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from ..web.helpers import free_port, wait_until

DOC = Path(__file__).resolve().parents[2] / "docs" / "hall.md"
MARK = "<!-- recipe: tests/hall/recipe.py runs this block line by line -->"
PORTS = ("1884", "8090", "8081", "8082", "8083")
ROOMS_MARK = "<!-- recipe: tests/hall/recipe.py runs this block line by line (rooms) -->"
ROOMS_PORTS = ("1884", "1885", "1886", "8090", "8081", "8083")
MIRROR_MARK = "<!-- recipe: tests/hall/recipe.py runs this block line by line (public mirror) -->"
MIRROR_PORTS = ("1884", "1887", "8090", "8091", "8081")
MATCH_MARK = "<!-- recipe: tests/hall/recipe.py runs this block line by line (match) -->"
MATCH_PORTS = ("1888", "1889", "8084", "8085")


def recipe_lines(mark: str = MARK, doc: Path = DOC) -> list[str]:
    """The commands of the doc's recipe block (the one after ``mark``), as written."""
    text = doc.read_text(encoding="utf-8")
    block = text[text.index(mark):].split("```sh\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


class Recipe:
    def __init__(self, mark: str = MARK, ports: tuple[str, ...] = PORTS,
                 doc: Path = DOC) -> None:
        # a directory the mosquitto user can enter, as /srv is
        self.root = Path(tempfile.mkdtemp(prefix="draughtsboard-recipe-"))
        os.chmod(self.root, 0o755)
        self.ports = {port: str(free_port()) for port in ports}
        lines = []
        for line in recipe_lines(mark, doc):
            line = line.replace("/srv/draughtsboard", str(self.root / "srv"))
            for doc_port, port in self.ports.items():
                line = re.sub(rf":{doc_port}\b", f":{port}", line)
            lines.append(line)
        self.lines = lines
        self.log = self.root / "recipe.log"
        script = "set -eu\n" + "".join(f"echo '+ line {n}' >&2\n{line}\n"
                                         for n, line in enumerate(lines, 1))
        env = dict(os.environ, PYTHONUNBUFFERED="1",
                   PATH=f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}")
        for name in ("DRAUGHTSBOARD_HALL_TOKEN", "DRAUGHTSBOARD_TOKEN",
                     "DRAUGHTSBOARD_HALL_PASSWORD", "DRAUGHTSBOARD_HALL_PASSWORD_FILE"):
            env.pop(name, None)
        printed = self.root / "recipe.out"
        with self.log.open("wb") as log, printed.open("wb") as out:
            self.shell = subprocess.Popen(["bash", "-c", script], stdin=subprocess.DEVNULL,
                                          stdout=out, stderr=log, env=env,
                                          start_new_session=True)
        self.shell.wait(120)  # the lines ending in & run on in the recipe's session
        if self.shell.returncode:
            self.sessions = [self.shell.pid]
            self.stop()
            raise AssertionError(f"the recipe stopped (exit {self.shell.returncode}):\n"
                                 + self.output)
        self.token = printed.read_text().strip().splitlines()[-1]  # `draughtsboard token`
        self.env = env
        self.sessions = [self.shell.pid]
        self.hall_url = f"http://127.0.0.1:{self.ports.get('8090', '0')}"  # (a match: none)
        self.board_urls = {int(doc[3:]): f"http://127.0.0.1:{port}"
                           for doc, port in self.ports.items() if doc.startswith("808")}
        self.venue = self.root / "srv" / "venue"

    @property
    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def get(self, path: str, base: str | None = None):
        with urllib.request.urlopen((base or self.hall_url) + path, timeout=5) as answer:
            return json.loads(answer.read())

    def post(self, path: str, body, *, base: str | None = None, token: str | None = None,
             content_type: str = "application/json"):
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        request = urllib.request.Request((base or self.hall_url) + path, data, method="POST")
        request.add_header("Content-Type", content_type)
        request.add_header("Authorization", f"Bearer {token or self.token}")
        with urllib.request.urlopen(request, timeout=15) as answer:
            return json.loads(answer.read())

    def hall_ready(self, boards: int = 3) -> None:
        def online() -> bool:
            try:
                listed = self.get("/api/hall")["boards"]
            except OSError:
                return False
            return sum(1 for b in listed if b["online"]) >= boards

        wait_until(online, timeout=60, interval=0.2, what="the hall with its boards online")

    def board_ready(self, number: int) -> None:
        def up() -> bool:
            try:
                return bool(self.get("/api/state", self.board_urls[number]))
            except OSError:
                return False

        wait_until(up, timeout=60, interval=0.2, what=f"board {number}'s page")

    def run_again(self, pattern: str) -> None:
        """The recipe's line matching ``pattern`` once more (a board switched on again),
        in a session of its own that `stop` ends too."""
        line = next(line for line in self.lines if re.search(pattern, line))
        exports = [line for line in self.lines if line.startswith("export ")]
        with self.log.open("ab") as log:
            again = subprocess.Popen(["bash", "-c", "\n".join(["set -eu", *exports, line])],
                                     env=self.env, stdin=subprocess.DEVNULL, stdout=log,
                                     stderr=log, start_new_session=True)
        self.sessions.append(again.pid)
        if again.wait(30):
            raise AssertionError(f"the recipe's line {line!r} failed:\n{self.output}")

    def processes(self) -> list[tuple[int, str, str]]:
        """(pid, user, command) of every process of the recipe's sessions."""
        listed = subprocess.run(["ps", "-ww", "-o", "pid=,sid=,uid=,args=", "-e"],
                                capture_output=True, text=True).stdout
        out = []
        for line in listed.splitlines():
            pid, sid, uid, args = line.split(None, 3)
            if int(sid) in self.sessions:
                try:
                    user = pwd.getpwuid(int(uid)).pw_name
                except KeyError:
                    user = uid
                out.append((int(pid), user, args))
        return out

    def stop(self, pattern: str | None = None, sig: int = signal.SIGTERM) -> None:
        """Signal the recipe's processes whose command matches ``pattern`` (all: None)
        and wait until they are gone."""
        chosen = [pid for pid, _, args in self.processes()
                  if pattern is None or re.search(pattern, args)]
        for pid in chosen:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(
                pid in chosen for pid, _, _ in self.processes()):
            time.sleep(0.1)
        for pid, _, _ in self.processes():
            if pid in chosen:
                os.kill(pid, signal.SIGKILL)
