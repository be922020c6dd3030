"""Several app hosts on one machine, as deploy/README.md's "Several hosts" runs them: each its
own `confsched serve` with a data folder of its own, all on one PostgreSQL and one Redis, for
tests/test_multi_host.py. No pytest here.

As root each host is a network namespace of its own (`ip netns`, a veth pair to this one): it
has its own loopback and address, reaches PostgreSQL and Redis over its link (through a relay
here, since the machine's servers listen on the loopback only), and killing the host is
killing every process in its namespace at once, as a machine that loses its power. Without
root each host is a loopback address of its own (127.0.0.11, .12, ...) and killing it is
killing its process group.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from tests.relay import Relay

BIN = Path(sys.executable).parent
IP = "/usr/sbin/ip"
APP_PORT = 8000
# Each wait for a host has its bound: the test ends in minutes whatever goes wrong.
START_SECONDS = 120


def can_make_namespaces() -> bool:
    """Whether this process may make network namespaces (root, with iproute2)."""
    if os.geteuid() != 0 or not Path(IP).exists():
        return False
    name = f"cs-probe-{secrets.token_hex(3)}"
    made = subprocess.run([IP, "netns", "add", name], capture_output=True, check=False)  # noqa: S603
    if made.returncode != 0:
        return False
    subprocess.run([IP, "netns", "delete", name], capture_output=True, check=False)  # noqa: S603
    return True


@dataclass
class Host:
    """One app host: where it answers, and how to stop it as a crash would."""

    name: str
    address: str
    server: subprocess.Popen
    namespace: str | None

    @property
    def upstream(self) -> str:
        return f"{self.address}:{APP_PORT}"

    def kill(self) -> None:
        """Every process of the host, at once and without warning (SIGKILL)."""
        if self.namespace:
            pids = subprocess.run(  # noqa: S603 - iproute2, our namespace
                [IP, "netns", "pids", self.namespace], capture_output=True, text=True, check=True
            ).stdout.split()
            for pid in pids:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except ProcessLookupError:
                    pass
        else:
            try:
                os.killpg(self.server.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.server.wait(timeout=30)


def _stop(hosts: list[Host]) -> None:
    """Every host still running asked to stop at once (gunicorn's graceful stop takes up to
    10 s), then waited for; killed if it did not."""
    running = [host for host in hosts if host.server.poll() is None]
    for host in running:
        os.killpg(host.server.pid, signal.SIGTERM)
    for host in running:
        try:
            host.server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            host.kill()


def _ip(*args: str, namespace: str | None = None) -> None:
    inside = ["netns", "exec", namespace, IP] if namespace else []
    subprocess.run([IP, *inside, *args], check=True, capture_output=True)  # noqa: S603


@contextmanager
def _namespace(number: int, subnet: str) -> Iterator[tuple[str, str, str]]:
    """A network namespace joined to this one by a veth pair on `subnet`.<number>.0/24: its
    name, the address on this side (.1) and the host's (.2); deleted on leaving."""
    tag = secrets.token_hex(2)
    name, outside, inside = f"cs-host{number}-{tag}", f"csv{number}{tag}", f"csi{number}{tag}"
    near, far = f"{subnet}.{number}.1", f"{subnet}.{number}.2"
    _ip("netns", "add", name)
    try:
        _ip("link", "add", outside, "type", "veth", "peer", "name", inside)
        _ip("link", "set", inside, "netns", name)
        _ip("addr", "add", f"{near}/24", "dev", outside)
        _ip("link", "set", outside, "up")
        _ip("link", "set", "lo", "up", namespace=name)
        _ip("addr", "add", f"{far}/24", "dev", inside, namespace=name)
        _ip("link", "set", inside, "up", namespace=name)
        _ip("route", "add", "default", "via", near, namespace=name)
        yield name, near, far
    finally:
        subprocess.run([IP, "link", "delete", outside], capture_output=True, check=False)  # noqa: S603
        subprocess.run([IP, "netns", "delete", name], capture_output=True, check=False)  # noqa: S603


def _pointed_at(url: str, address: str) -> str:
    """`url` with its host replaced by `address` (its port kept)."""
    parts = urlsplit(url)
    port = f":{parts.port}" if parts.port else ""
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=f"{user}{address}{port}"))


def _answers(url: str) -> bool:
    """Whether `url` answers 200 (a host in a namespace is reached over its link from here, as
    nginx reaches it)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as page:  # noqa: S310 - our own host
            return page.status == 200
    except OSError:
        return False


@contextmanager
def app_hosts(env: dict[str, str], *, count: int = 3, workers: int = 2) -> Iterator[list[Host]]:
    """`count` hosts, each `confsched serve --workers workers` with its own data folder on the
    database and Redis `env` names (both on this machine's loopback), answering once each has
    served its front page; stopped on leaving. Each host's data folder is host<n> in the
    site's. Namespaces when this process may make them, unless CONFSCHED_TEST_LOOPBACK_HOSTS
    is set."""
    namespaces = can_make_namespaces() and not os.environ.get("CONFSCHED_TEST_LOOPBACK_HOSTS")
    subnet = f"10.{200 + secrets.randbelow(50)}"
    hosts: list[Host] = []
    with ExitStack() as stack:
        for number in range(1, count + 1):
            data = Path(env["CONFSCHED_DATA_DIR"]) / f"host{number}"
            data.mkdir(exist_ok=True)
            host_env = {**env, "CONFSCHED_DATA_DIR": str(data)}
            namespace = None
            if namespaces:
                namespace, near, address = stack.enter_context(_namespace(number, subnet))
                for variable, port in (("DATABASE_URL", 5432), ("REDIS_URL", 6379)):
                    relay = Relay((near, port), ("127.0.0.1", port))
                    relay.start()
                    stack.callback(relay.stop)
                    host_env[variable] = _pointed_at(env[variable], near)
                command = [IP, "netns", "exec", namespace, str(BIN / "confsched")]
                bind = "0.0.0.0"  # noqa: S104 - every address of its own namespace
            else:
                address = bind = f"127.0.0.{10 + number}"
                command = [str(BIN / "confsched")]
            host_env["ALLOWED_HOSTS"] = ",".join(
                filter(None, [env.get("ALLOWED_HOSTS", ""), address, "127.0.0.1"])
            )
            log = stack.enter_context((data / "serve.log").open("wb"))
            server = subprocess.Popen(  # noqa: S603 - our own command
                [*command, "serve", "--host", bind, "--port", str(APP_PORT),
                 "--workers", str(workers), "--no-worker"],
                env=host_env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
            host = Host(f"host{number}", address, server, namespace)
            hosts.append(host)
            # Before its namespace goes (callbacks run last first): all hosts stop together.
            stack.callback(_stop, hosts)
        for host in hosts:
            deadline = time.monotonic() + START_SECONDS
            while not _answers(f"http://{host.upstream}/"):
                if host.server.poll() is not None or time.monotonic() > deadline:
                    said = (Path(env["CONFSCHED_DATA_DIR"]) / host.name / "serve.log").read_text(
                        errors="replace"
                    )
                    last = "\n".join(said.splitlines()[-15:])
                    raise RuntimeError(f"{host.name} at {host.upstream} did not start:\n{last}")
                time.sleep(0.3)
        yield hosts
