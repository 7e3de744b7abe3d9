"""A fake JSON HTTP endpoint on 127.0.0.1 for the model providers' real client code."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Handler = Callable[[dict, dict], tuple[int, dict]]


class FakeEndpoint:
    """A JSON HTTP server in a thread; ``answer(path_and_headers, body) -> (status, json)``.

    ``hold``: an event each answer waits for (set it, or close the endpoint, to let them go);
    ``answered`` counts the answers sent, so a test can tell a client gave up before one came.
    """

    def __init__(self, answer: Handler, delay: float = 0.0, hold: threading.Event | None = None) -> None:
        self.requests: list[tuple[str, dict, dict]] = []
        self.answered = 0
        self.hold = hold
        outer = self

        class _H(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                if delay:
                    time.sleep(delay)
                if hold is not None:
                    hold.wait(60)
                status, payload = answer({"path": self.path, **dict(self.headers)}, body)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    outer.answered += 1
                except OSError:
                    pass  # the client gave up (timeout test)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _H)
        self.server.daemon_threads = True
        self.server.block_on_close = False
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        if self.hold is not None:
            self.hold.set()
        self.server.shutdown()
        self.server.server_close()
