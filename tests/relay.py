"""A TCP relay the tests control: a served confsched's database reached through it
(tests/test_resilience.py: restarts, outages), or PostgreSQL and Redis reached from a host in a
network namespace of its own (tests/hosts.py). No pytest here."""

from __future__ import annotations

import socket
import threading


class Relay:
    """Forwards connections to `listen` (address, port) to `target`, both ways; `restart`
    drops every connection (as a database's restart does), `stop` also stops listening,
    `start` listens again on the same port."""

    def __init__(self, listen: tuple[str, int], target: tuple[str, int]) -> None:
        self.listen, self.target = listen, target
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        self.listener: socket.socket | None = None

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(self.listen)
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            with self.lock:
                self.sockets += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def restart(self) -> None:
        with self.lock:
            for end in self.sockets:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()
            self.sockets = []

    def stop(self) -> None:
        if self.listener is not None:
            # shutdown wakes the thread blocked in accept(); close alone would not.
            self.listener.shutdown(socket.SHUT_RDWR)
            self.listener.close()
            self.listener = None
        self.restart()
