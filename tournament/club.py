"""Club mode (`make club`): the laptop serves every phone of the room on the club's Wi-Fi.

Run as `python -m tournament.club --port 8000`, before Django is set up: the settings are read
from the environment this module builds (the laptop's LAN addresses and name as allowed hosts,
PUBLIC_URL for every printed QR code, DEBUG off with a secret key kept in a file, plain http).
It prepares the database and the static files, prints the arbiter's login and the address
phones must open (with a QR code), then becomes gunicorn on every interface.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import socket
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Gitignored; made once and kept, so that a restart logs nobody out.
SECRET_FILE = Path(os.environ.get("CLUB_SECRET_FILE", "") or ROOT / ".club-secret-key")
# Connecting a UDP socket sends nothing: it only asks the kernel which interface would carry a
# packet there. One probe per private range finds the LAN address whichever the club uses.
PROBES = ("192.168.1.1", "10.0.0.1", "172.16.0.1")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def lan_addresses(probes: Iterable[str] = PROBES) -> list[str]:
    """The laptop's IPv4 addresses on its networks, most likely first; no packet is sent."""
    found: list[str] = []
    for probe in probes:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect((probe, 9))
                address = sock.getsockname()[0]
            except OSError:  # no route there: no network of that kind
                continue
        if _usable(address) and address not in found:
            found.append(address)
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        if _usable(address) and address not in found:
            found.append(address)
    return found


def _usable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def host_names() -> list[str]:
    """The laptop's own name, and its mDNS form (phones on the same Wi-Fi often resolve it)."""
    name = socket.gethostname().strip().lower()
    if not name or name == "localhost":
        return []
    short = name.split(".")[0]
    return list(dict.fromkeys([name, short, f"{short}.local"]))


def public_url(addresses: Sequence[str], names: Sequence[str], port: int) -> str:
    """The address phones open: the first LAN address (an IP needs no name service)."""
    host = addresses[0] if addresses else (names[0] if names else "127.0.0.1")
    return f"http://{host}" + ("" if port == 80 else f":{port}")


def secret_key(path: Path = SECRET_FILE) -> str:
    """The club file's SECRET_KEY, made on first start (a new key would log everyone out).
    The file is left readable by its owner only, whatever mode it had: os.open's mode binds a
    new file only, so an existing one (empty, 0644) is narrowed before the key is written."""
    if path.exists():
        os.chmod(path, 0o600)
        key = path.read_text().strip()
        if key:
            return key
    key = secrets.token_urlsafe(50)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w") as file:
        file.write(key + "\n")
    return key


def club_env(
    port: int,
    *,
    addresses: Sequence[str],
    names: Sequence[str],
    base: dict[str, str] | None = None,
    secret_file: Path = SECRET_FILE,
) -> dict[str, str]:
    """The environment of every step of club mode: production settings for plain http."""
    env = dict(os.environ if base is None else base)
    url = env.get("PUBLIC_URL", "").strip() or public_url(addresses, names, port)
    suffix = "" if port == 80 else f":{port}"
    hosts = [*addresses, *names, *LOOPBACK_HOSTS]
    extra_hosts = [h.strip() for h in env.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    origins = [f"http://{host}{suffix}" for host in [*addresses, *names, *LOOPBACK_HOSTS]]
    extra_origins = [o.strip() for o in env.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]
    env.update(
        DEBUG="false",
        SECRET_KEY=env.get("SECRET_KEY", "").strip() or secret_key(secret_file),
        PUBLIC_URL=url,
        ALLOWED_HOSTS=",".join(dict.fromkeys([*hosts, *extra_hosts])),
        CSRF_TRUSTED_ORIGINS=",".join(dict.fromkeys([*origins, *extra_origins])),
        # Plain http on the LAN: no https to redirect to, cookies must travel without TLS.
        SECURE_SSL_REDIRECT="false",
        SECURE_COOKIES="false",
        SECURE_HSTS_SECONDS="0",
        # The admin edits every club's data: on the LAN's plain http it answers the laptop only.
        ADMIN_LOOPBACK_ONLY="true",
    )
    return env


class AdminLoopbackOnlyMiddleware:
    """With ADMIN_LOOPBACK_ONLY (club mode), /admin/ is a 404 to any address but the laptop's
    own: its login would otherwise cross the Wi-Fi in clear. The socket address is read, never
    X-Forwarded-For (club mode has no proxy, and anybody can send that header)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.conf import settings
        from django.http import Http404

        admin = request.path == "/admin" or request.path.startswith("/admin/")
        if admin and getattr(settings, "ADMIN_LOOPBACK_ONLY", False):
            if not is_loopback(request.META.get("REMOTE_ADDR", "")):
                raise Http404
        return self.get_response(request)


def is_loopback(address: str) -> bool:
    """127.0.0.0/8 and ::1 (an IPv4-mapped loopback too); anything unreadable is not."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return bool(ip.is_loopback or (mapped is not None and mapped.is_loopback))


# What prepare runs, in this order: (command, options).
PREPARE_STEPS: tuple[tuple[str, dict], ...] = (
    ("compilemessages", {"verbosity": 0, "ignore_patterns": [".venv"]}),
    ("migrate", {"interactive": False, "verbosity": 0}),
    ("collectstatic", {"interactive": False, "verbosity": 0}),
    ("ensure_arbiter", {}),
)


def prepare(env: dict[str, str], *, quiet: bool = False) -> None:
    """Translations, database, static files and the arbiter's login (printed), in one Django
    process on `env`'s settings (a process per step paid a Django start each)."""
    subprocess.run(
        [sys.executable, "-m", "tournament.club", "--prepare"],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL if quiet else None,
    )


def _prepare_here() -> None:
    """prepare's steps, in this process (`python -m tournament.club --prepare`)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    import django
    from django.core.management import call_command

    django.setup()
    for command, options in PREPARE_STEPS:
        call_command(command, **options)


def gunicorn_command(port: int, workers: int = 2) -> list[str]:
    """gunicorn on every interface; threads so a slow PDF doesn't hold the phones up."""
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "tournament.wsgi",
        "--bind",
        f"0.0.0.0:{port}",
        "--workers",
        str(workers),
        "--threads",
        "4",
        "--timeout",
        "120",
        "--access-logfile",
        "-",
    ]


def qr_text(url: str) -> str:
    """A big QR code of `url` in terminal characters, readable by a phone across the desk.

    Two full blocks per module make it square in a terminal's tall cells; light modules are
    drawn (a terminal's background is usually dark), with a light margin all round.
    """
    import qrcode

    qr = qrcode.QRCode(border=2)
    qr.add_data(url)
    qr.make(fit=True)
    return "".join(
        "".join("  " if dark else "██" for dark in row) + "\n" for row in qr.get_matrix()
    )


def banner(url: str, addresses: Sequence[str], names: Sequence[str]) -> str:
    """What the arbiter reads in the terminal before the first phone connects (in French, as
    the site speaks to the arbiter)."""
    lines = [
        "",
        "=" * 72,
        "  TAROT DESK — MODE CLUB",
        "",
        f"  Les téléphones ouvrent :   {url}/table/",
        f"  Classements et cockpit :   {url}/",
        "",
        "  Wi-Fi : les téléphones doivent être sur le même réseau que cet ordinateur :",
        "   - le Wi-Fi du club (s'il isole les appareils entre eux, utilisez plutôt :)",
        "   - le point d'accès de cet ordinateur (Paramètres → Wi-Fi → Point d'accès),",
        "     puis relancez `make club` pour qu'il trouve la nouvelle adresse.",
    ]
    if not addresses:
        lines += [
            "",
            "  ATTENTION : aucun réseau trouvé. Connectez cet ordinateur au Wi-Fi puis",
            "  relancez `make club` : sans réseau, aucun téléphone ne peut l'atteindre.",
        ]
    elif len(addresses) > 1:
        lines += ["", "  Autres adresses de cet ordinateur : " + ", ".join(addresses[1:])]
    if names:
        lines += [f"  Nom de cet ordinateur (selon les téléphones) : {names[-1]}"]
    lines += ["", "  Scannez pour ouvrir la saisie à la table :", ""]
    text = "\n".join(lines) + "\n" + qr_text(f"{url}/table/") + "\n" + "=" * 72 + "\n"
    return text


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.prepare:  # prepare's own process, on the environment it was given
        _prepare_here()
        return
    addresses = lan_addresses()
    names = host_names()
    env = club_env(args.port, addresses=addresses, names=names)
    prepare(env)
    sys.stdout.write(banner(env["PUBLIC_URL"], addresses, names))
    sys.stdout.flush()
    command = gunicorn_command(args.port, args.workers)
    os.chdir(ROOT)
    os.execve(command[0], command, env)  # gunicorn takes this process: Ctrl-C stops it


if __name__ == "__main__":
    main()
