"""Web Push: `--size` devices (10,000 by default) told of one change, against a local push
service, by the task queue's worker.

A fresh site (SQLite, or with `--database postgres` a PostgreSQL database of its own at
CONFSCHED_BENCH_POSTGRES) gets an event with one session that `--size` people starred, each
with one device whose endpoint is a local HTTPS receiver (a self-signed certificate the sender
is told to trust; CONFSCHED_PUSH_ALLOW_PRIVATE=1 admits its loopback address). The session is
moved to another room (the editor's record_edit): its version's task is queued as the edit
commits (send-alerts' first step, run after, finds it queued already); `confsched worker`
is started and the receiver answers 201 to each message until all have arrived.

Printed: the time from the worker's start to the last message, the time from the first message
to the last, deliveries per second, and the worker's peak RSS (sampled) and VmHWM, in MiB.

    python bench/push_delivery.py [--size 10000] [--threads 8] [--database sqlite|postgres]
        [--json FILE]
"""

from __future__ import annotations

import argparse
import http.server
import json
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from serving import BIN, fresh_site, in_site

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.front import self_signed  # noqa: E402 - the tests' certificate, no pytest there

MIB = 1024

SETUP = """
import base64, os, sys
import django
django.setup()
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.contrib.auth.models import User
from confsched.agenda.models import AgendaItem
from confsched.programme.models import Room, Session
from confsched.programme.services import create_event
from confsched.push.models import PushSubscription
import datetime

size, origin = int(sys.argv[1]), sys.argv[2]
event = create_event(slug="bench", name="Bench", timezone="Europe/Paris")
room = Room.objects.create(event=event, name="Hall B", slug="hall-b")
start = datetime.datetime(2030, 4, 7, 9, 0, tzinfo=datetime.UTC)
session = Session.objects.create(event=event, key="talk", title="A talk", room=room,
                                 starts_at=start, ends_at=start + datetime.timedelta(hours=1))
users = User.objects.bulk_create([User(username=f"u{n}") for n in range(size)], batch_size=1000)
AgendaItem.objects.bulk_create([AgendaItem(user=u, session=session) for u in users], batch_size=1000)
def b64(raw):
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")
point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
    serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
PushSubscription.objects.bulk_create([
    PushSubscription(user=u, event=event, endpoint=f"{origin}/push/{n}", p256dh=b64(point),
                     auth=b64(os.urandom(16)), label="Bench", language="en")
    for n, u in enumerate(users)
], batch_size=1000)
print(PushSubscription.objects.count())
"""

CHANGE = """
import django
django.setup()
from django.db import transaction
from confsched.programme.models import Room, Session
from confsched.programme.services import record_edit, session_facts
from confsched.agenda.alerts import queue_version_pushes
from confsched.push.models import PushedVersion

with transaction.atomic():
    session = Session.objects.get(key="talk")
    before = session_facts(session)
    session.room = Room.objects.create(event=session.event, name="Hall C", slug="hall-c")
    session.save()
    record_edit(session, before, editor="bench")
# What each run of send-alerts does first: a task per version not pushed yet (none: the
# edit's commit queued it).
queue_version_pushes()
print(PushedVersion.objects.count())  # versions queued, once each
"""


class Receiver(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.count = 0
        self.first = self.last = 0.0
        self.lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    server: Receiver
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        now = time.perf_counter()
        with self.server.lock:
            self.server.count += 1
            self.server.first = self.server.first or now
            self.server.last = now
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def memory_kib(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of a process in KiB, (0, 0) once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0, 0
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return (
        int(fields.get("VmRSS", "0 kB").split()[0]),
        int(fields.get("VmHWM", "0 kB").split()[0]),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--json", type=Path)
    options = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="push-bench-"))
    certificate, key = self_signed(work)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    receiver = Receiver()
    receiver.socket = context.wrap_socket(receiver.socket, server_side=True)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    origin = f"https://127.0.0.1:{receiver.server_address[1]}"

    with fresh_site(options.database, name="push_bench") as site:
        env = {**site, "CONFSCHED_PUSH_ALLOW_PRIVATE": "1",
               "CONFSCHED_PUSH_CA_BUNDLE": str(certificate),
               "CONFSCHED_PUSH_THREADS": str(options.threads)}  # fmt: skip
        print(f"{in_site(env, SETUP, str(options.size), origin).strip()} devices", flush=True)
        print(f"{in_site(env, CHANGE).strip()} task queued", flush=True)
        began = time.perf_counter()
        worker = subprocess.Popen(  # noqa: S603 - our own command
            [str(BIN / "confsched"), "worker", "--interval", "0.2"], env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        peak = hwm = 0
        try:
            while receiver.count < options.size and time.perf_counter() - began < options.timeout:
                rss, high = memory_kib(worker.pid)
                peak, hwm = max(peak, rss), max(hwm, high)
                time.sleep(0.1)
            time.sleep(0.5)  # the worker notes the deliveries: its memory then too
            rss, high = memory_kib(worker.pid)
            peak, hwm = max(peak, rss), max(hwm, high)
        finally:
            worker.terminate()
            worker.wait(timeout=30)
    receiver.shutdown()
    total = receiver.last - began
    sending = receiver.last - receiver.first
    result = {
        "devices": options.size, "delivered": receiver.count, "threads": options.threads,
        "database": options.database, "seconds_from_worker_start": round(total, 2),
        "seconds_first_to_last": round(sending, 2),
        "deliveries_per_second": round(receiver.count / sending, 1) if sending else None,
        "worker_peak_rss_mib": round(peak / MIB, 1), "worker_vmhwm_mib": round(hwm / MIB, 1),
    }  # fmt: skip
    for name, value in result.items():
        print(f"{name:28s} {value}")
    if options.json:
        options.json.write_text(json.dumps(result, indent=1) + "\n")
    if receiver.count < options.size:
        sys.exit(f"only {receiver.count} of {options.size} messages arrived")


if __name__ == "__main__":
    main()
