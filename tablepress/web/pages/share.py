"""The QR code of a game's intro address, as SVG (segno)."""

from __future__ import annotations

import io
from functools import lru_cache

import segno

from ..requests import BadRequest

#: The QR's dark colour: the site's header blue (dark enough for every phone camera).
DARK = "#1f3340"


@lru_cache(maxsize=64)
def qr_svg(url: str) -> bytes:
    """An SVG QR code of `url` (error correction M, a quiet zone of 4 modules); BadRequest if it cannot hold it."""
    try:
        code = segno.make(url, error="m", micro=False)
    except segno.DataOverflowError:
        raise BadRequest("the address is too long for a QR code") from None
    out = io.BytesIO()
    code.save(out, kind="svg", scale=4, border=4, dark=DARK, light="#ffffff", xmldecl=False,
              title=f"QR code: {url}")
    return out.getvalue()
