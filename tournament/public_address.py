"""The one place absolute links are built: from PUBLIC_URL, else from the request's own host.

QR codes on paper, the hall screen's link and the sign-up link are opened by other devices than
the arbiter's: built from the arbiter's request on the laptop they would say 127.0.0.1, which no
phone can open. Club mode (`make club`) and a club server set PUBLIC_URL; this module is what
every view and PDF asks.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urljoin, urlsplit

from django.conf import settings
from django.http import HttpRequest

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def site_root(request: HttpRequest) -> str:
    """The site's root, absolute, ending in "/": "http://192.168.1.23:8000/"."""
    public = settings.PUBLIC_URL
    if public:
        return public.rstrip("/") + "/"
    return request.build_absolute_uri("/")


def absolute_url(request: HttpRequest, path: str) -> str:
    """`path` (from reverse()) as an absolute link another device can open."""
    return urljoin(site_root(request), path)


def is_loopback(url: str) -> bool:
    """True when `url` points to the machine that opens it (127.0.0.1, localhost, ::1)."""
    host = (urlsplit(url).hostname or "").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def unreachable_from_phones(request: HttpRequest) -> bool:
    """The links printed and shown now would lead phones nowhere: the address is loopback."""
    return is_loopback(site_root(request))
