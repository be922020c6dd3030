"""The production front (deploy/nginx/) as the tests and the benchmarks run it: Debian's own
`/etc/nginx/nginx.conf` as the outer file (its `sendfile on; tcp_nopush on;`, its gzip, its
mime types), with the site's files where a server's would be, pointed at a folder of the run's
own. No pytest here: the benchmarks import it from a plain install (bench/cache_front.py,
bench/reservations.py).

Debian's file is read and changed only where it names the machine's own places: the user (root
runs the workers as root, shut out of nothing), the pid file, the logs, the number of workers,
and its two includes of sites (`conf.d/*.conf`, `sites-enabled/*`), which become one include of
this run's site: the upload and proxy temporary folders, the upstream, the cache's path, the
deploy's http-level file and a plain-HTTP server with the deploy's locations (in place of the
TLS server of deploy/nginx/confsched.conf). Where there is no Debian file, one with its
defaults stands in.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

NGINX = Path("/usr/sbin/nginx")
DEBIAN_CONF = Path("/etc/nginx/nginx.conf")
DEPLOY = Path(__file__).resolve().parent.parent / "deploy" / "nginx"
TEMPS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")

# Debian's nginx.conf as packaged (bookworm), for machines without one.
DEBIAN_DEFAULTS = """user www-data;
worker_processes auto;
pid /run/nginx.pid;
error_log /var/log/nginx/error.log;
include /etc/nginx/modules-enabled/*.conf;
events {
	worker_connections 768;
}
http {
	sendfile on;
	tcp_nopush on;
	types_hash_max_size 2048;
	include /etc/nginx/mime.types;
	default_type application/octet-stream;
	ssl_protocols TLSv1 TLSv1.1 TLSv1.2 TLSv1.3;
	ssl_prefer_server_ciphers on;
	access_log /var/log/nginx/access.log;
	error_log /var/log/nginx/error.log;
	gzip on;
	include /etc/nginx/conf.d/*.conf;
	include /etc/nginx/sites-enabled/*;
}
"""


def outer_conf(work: Path, *, site: Path, workers: int) -> str:
    """Debian's nginx.conf with its machine's places pointed into `work` and its sites' includes
    replaced by one of `site`."""
    text = DEBIAN_CONF.read_text() if DEBIAN_CONF.exists() else DEBIAN_DEFAULTS
    # As root, nginx's workers would be another user, shut out of this run's folders.
    user = "user root;" if os.geteuid() == 0 else ""
    changes = [
        (r"(?m)^\s*user\s+[^;]+;", user),
        (r"(?m)^\s*worker_processes\s+[^;]+;", f"worker_processes {workers};"),
        (r"(?m)^\s*pid\s+[^;]+;", f"pid {work}/nginx.pid;"),
        (r"(?m)^(\s*)error_log\s+[^;]+;", rf"\1error_log {work}/logs/error.log warn;"),
        (r"(?m)^(\s*)access_log\s+[^;]+;", rf"\1access_log {work}/logs/access.log;"),
        (r"(?m)^\s*include\s+/etc/nginx/sites-enabled/\*;\n?", ""),
        (r"(?m)^(\s*)include\s+/etc/nginx/conf\.d/\*\.conf;", rf"\1include {site};"),
    ]
    for pattern, replacement in changes:
        text, found = re.subn(pattern, replacement, text)
        if not found and "sites-enabled" not in pattern and "user" not in pattern:
            raise AssertionError(f"Debian's nginx.conf has no line like {pattern!r}")
    return "daemon off;\n" + text


def nginx_conf(
    work: Path, *, static: Path, app_port: int = 0, port: int, workers: int = 1, extra: str = "",
    keepalive: int = 8, media: Path | None = None, apps: list[str] | None = None,
    tls_port: int | None = None,
) -> Path:  # fmt: skip
    """The deploy files, their paths pointed here, in a plain-HTTP server inside Debian's
    nginx.conf (with `extra` locations: bench/cache_front.py adds one serving files;
    `keepalive` connections kept to the app: deploy/nginx/confsched.conf keeps 32; uploaded
    files from `media`, else beside `static` as in the data folder). The app is at
    127.0.0.1:`app_port`, or at each "address:port" of `apps` (several hosts, as in
    deploy/README.md). `tls_port`: the same server over HTTPS too, on that port, with a
    certificate for 127.0.0.1 made for the run (self_signed)."""
    (work / "cache").mkdir()
    (work / "logs").mkdir()
    media = media or static.parent / "media"
    for name in ("confsched-http.conf", "confsched-locations.conf", "confsched-media.conf"):
        text = (
            (DEPLOY / name).read_text()
            .replace("/srv/confsched/var/static/", f"{static}/")
            .replace("/srv/confsched/var/media/", f"{media}/")
            .replace("/etc/nginx/confsched/", f"{work}/")
        )  # fmt: skip
        (work / name).write_text(text)
    servers = " ".join(f"server {app};" for app in apps or [f"127.0.0.1:{app_port}"])
    temp = "\n".join(f"{kind}_temp_path {work / ('temp_' + kind)};" for kind in TEMPS)
    tls = ""
    if tls_port is not None:
        certificate, key = self_signed(work)
        # As deploy/nginx/confsched.conf's TLS server, less http2 (wrk speaks HTTP/1.1).
        tls = f"""server {{
    listen 127.0.0.1:{tls_port} ssl;
    server_name 127.0.0.1;
    ssl_certificate {certificate};
    ssl_certificate_key {key};
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:confsched_tls:10m;
    include {work}/confsched-locations.conf;
    {extra}
}}"""
    site = work / "site.conf"
    site.write_text(f"""{temp}
upstream confsched {{ {servers} keepalive {keepalive}; }}
proxy_cache_path {work}/cache levels=1:2 keys_zone=confsched:10m max_size=100m
                 inactive=1h use_temp_path=off;
include {work}/confsched-http.conf;
server {{
    listen 127.0.0.1:{port};
    server_name 127.0.0.1;
    include {work}/confsched-locations.conf;
    {extra}
}}
{tls}
""")
    conf = work / "nginx.conf"
    conf.write_text(outer_conf(work, site=site, workers=workers))
    return conf


def self_signed(work: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 (P-256, a day) and its key, made with openssl in `work`."""
    certificate, key = work / "tls.crt", work / "tls.key"
    subprocess.run(  # noqa: S603 - openssl with our own arguments
        ["/usr/bin/openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(certificate)],
        check=True, capture_output=True,
    )  # fmt: skip
    return certificate, key


@contextmanager
def running_nginx(work: Path, conf: Path) -> Iterator[subprocess.Popen]:
    """Debian's nginx on `conf` (from nginx_conf) for the benchmarks, given a second to listen,
    stopped on leaving."""
    nginx = subprocess.Popen(  # noqa: S603 - Debian's nginx, our config
        [str(NGINX), "-p", str(work), "-c", str(conf)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        time.sleep(1)
        yield nginx
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
