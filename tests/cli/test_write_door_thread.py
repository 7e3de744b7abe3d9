"""The write door's thread ends and can be joined (cli/writedoor.py; docs/architecture.md §4)."""

from __future__ import annotations

import socket

from memrepo.cli.writedoor import Door


def test_a_stopped_door_joins_without_error(tmp_path) -> None:
    """``Door.stop`` then ``join`` returns: the door's own stop flag must not shadow ``Thread._stop``,
    which ``join`` calls once the thread has ended (it raised TypeError: 'Event' object is not callable)."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(tmp_path / "w.sock"))
    listener.listen()
    door = Door(listener, lambda request: True)
    door.start()
    door.stop()
    door.join(timeout=60)  # a hang guard
    assert not door.is_alive()
    door.join()  # a second join of an ended thread runs Thread._stop's path again
    listener.close()
