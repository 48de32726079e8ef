"""A receipt printer on 127.0.0.1 for the tests: a TCP listener on a free port, in a thread,
that keeps the bytes of each connection (one connection is one print), and the ESC/POS reader
that turns them back into lines of text and the commands between them."""

import socket
import threading
import time
from dataclasses import dataclass

ESC, GS = 0x1B, 0x1D
# ESC t n: the code page python-escpos selects, by its number in the printer's table.
CODE_PAGES = {18: "cp852", 45: "cp1250", 39: "iso8859_2", 19: "cp858"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class StandInPrinter:
    """Switch it on (`start`) and off (`stop`) on the same port; `prints` are the byte streams
    received, one per connection."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.prints: list[bytes] = []
        self._server: socket.socket | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> "StandInPrinter":
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", self.port))
        server.listen(5)
        server.settimeout(0.1)
        self._server = server
        self._thread = threading.Thread(target=self._serve, args=(server,), daemon=True)
        self._thread.start()
        return self

    def _serve(self, server: socket.socket) -> None:
        while self._server is server:
            try:
                connection, _address = server.accept()
            except (TimeoutError, OSError):
                continue
            with connection:
                connection.settimeout(5)
                received = bytearray()
                while chunk := connection.recv(4096):
                    received += chunk
                self.prints.append(bytes(received))

    def stop(self) -> None:
        server, self._server = self._server, None
        if self._thread is not None:
            self._thread.join(timeout=5)
        if server is not None:
            server.close()

    def wait_for(self, count: int, timeout: float = 5.0) -> list[bytes]:
        deadline = time.monotonic() + timeout
        while len(self.prints) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.prints


@dataclass
class Printout:
    lines: list[str]
    commands: list[bytes]

    def has(self, command: bytes) -> bool:
        return command in self.commands


def read_escpos(stream: bytes) -> Printout:
    """The text lines (decoded with the code page the stream selected) and every ESC and GS
    command, in order."""
    commands: list[bytes] = []
    text = bytearray()
    encoding = "ascii"
    i = 0
    while i < len(stream):
        byte = stream[i]
        if byte == ESC:
            second = stream[i + 1]
            length = {ord("p"): 5, ord("@"): 2}.get(second, 3)
        elif byte == GS:
            length = 4 if stream[i + 1] == ord("V") and stream[i + 2] in (65, 66) else 3
        else:
            text.append(byte)
            i += 1
            continue
        command = stream[i : i + length]
        if command[:2] == b"\x1bt":
            encoding = CODE_PAGES[command[2]]
        commands.append(command)
        i += length
    return Printout(lines=text.decode(encoding).split("\n"), commands=commands)
