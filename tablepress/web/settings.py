"""The settings that tell the server about the world outside it (docs/reference.md, "Server
settings"): the site's public address and the proxies whose `X-Forwarded-For` it believes.

Each parser takes the text an operator typed (a flag or a `TABLEPRESS_…` variable) and either returns the
value in its one normal form or raises TablepressError with one line saying what is wrong.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from ..core.errors import TablepressError

#: The environment variables of the settings (the flags `--public-url` and `--forwarded-allow-ips`).
PUBLIC_URL_ENV = "TABLEPRESS_PUBLIC_URL"
FORWARDED_ALLOW_IPS_ENV = "TABLEPRESS_FORWARDED_ALLOW_IPS"


def parse_public_url(text: str) -> str:
    """`scheme://host[:port]` (no trailing slash) of an http or https address of the site's root; TablepressError
    for anything else (another scheme, no host, a path, a query, a fragment or a user)."""
    shown = text if len(text) <= 80 else text[:77] + "..."
    example = "like https://games.example.org or http://192.168.1.20:8000"
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        raise TablepressError(f"--public-url {shown!r} is not an address, {example}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TablepressError(f"--public-url needs http:// or https:// and a host, {example}, not {shown!r}")
    if parts.query or parts.fragment or "?" in text or "#" in text:
        raise TablepressError(f"--public-url takes no query or fragment, {example}, not {shown!r}")
    if parts.path not in ("", "/"):
        raise TablepressError(f"--public-url is the site's root address (the site is served at /), {example},"
                              f" not {shown!r}")
    if parts.username is not None or any(ch.isspace() for ch in text.strip()):
        raise TablepressError(f"--public-url takes no user name or spaces, {example}, not {shown!r}")
    host = parts.hostname
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")


def parse_forwarded_allow_ips(text: str | None) -> tuple[str, ...]:
    """The proxies given as comma-separated IP addresses or networks (`10.0.0.1,fd00::/8`; `*` trusts every
    peer), normalised; () for none. TablepressError naming the first entry that is neither."""
    if text is None or not text.strip():
        return ()
    proxies: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if item == "*":
            proxies.append(item)
            continue
        try:
            proxies.append(str(ipaddress.ip_network(item, strict=False)) if "/" in item
                           else str(ipaddress.ip_address(item)))
        except ValueError:
            shown = item if len(item) <= 60 else item[:57] + "..."
            raise TablepressError(f"--forwarded-allow-ips takes IP addresses or networks separated by commas"
                                  f" (like 127.0.0.1,10.0.0.0/8), not {shown!r}") from None
    return tuple(dict.fromkeys(proxies))
