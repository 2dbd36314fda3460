"""Who made a saved variant, and whether the one asking is its maker.

A variant's maker is kept in the store's `variants.owner` as a key: `p:PLAYER_ID` for a signed-in player
(the HttpOnly player cookie, or `Authorization: Bearer PLAYER_TOKEN`), `t:SHA256` for someone not signed
in, whose **maker token** the server makes at their first save and returns once (`"maker_token"` in the
201 answer); they send it back as the `X-Maker-Token` header with later saves, lists, deletions and
visibility switches. Only the token's hash is stored. Variants saved before makers were kept have no
owner: nobody may delete them.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from fastapi import Request

from .players import COOKIE
from .requests import Forbidden, bearer_token
from .store import hash_token

#: The header that carries a maker token.
MAKER_HEADER = "x-maker-token"
#: What a maker token looks like (the server makes them with `secrets.token_urlsafe(24)`: 32 characters).
MAKER_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,100}")


def signed_in(request: Request) -> str | None:
    """The key (`p:ID`) of the request's player: its bearer token's (Forbidden if that is no player's), else
    its cookie's (None if the cookie is no player's any more), else None."""
    store = request.app.state.hub.store
    token = bearer_token(request.headers.get("authorization"))
    if token is not None:
        found = store.player_by_token(hash_token(token))
        if found is None:
            raise Forbidden("wrong player token")
        return f"p:{found['id']}"
    cookie = request.cookies.get(COOKIE)
    found = store.player_by_token(hash_token(cookie)) if cookie else None
    return None if found is None else f"p:{found['id']}"


def maker_token(request: Request) -> str | None:
    """The request's `X-Maker-Token`, if it sends one; Forbidden if it is not a maker token's shape."""
    token = request.headers.get(MAKER_HEADER)
    if token is None:
        return None
    if not MAKER_TOKEN.fullmatch(token.strip()):
        raise Forbidden("X-Maker-Token: not a maker token (give the one a save of yours answered with)")
    return token.strip()


def asking(request: Request) -> list[str]:
    """Every maker key the request speaks for: its player's and its maker token's (none, one or both)."""
    keys = [key for key in (signed_in(request),) if key is not None]
    token = maker_token(request)
    if token is not None:
        keys.append(f"t:{hash_token(token)}")
    return keys


def new_maker(request: Request) -> tuple[str, str | None]:
    """(owner key, new maker token or None) for a variant being saved: the signed-in player's, else the maker
    token the request sends, else a new maker token (to hand back once)."""
    player = signed_in(request)
    if player is not None:
        return player, None
    token = maker_token(request)
    if token is not None:
        return f"t:{hash_token(token)}", None
    token = secrets.token_urlsafe(24)
    return f"t:{hash_token(token)}", token


def described(variant: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    """A stored variant's fields for an answer: its owner replaced by `"mine"` (whether `keys` include it)."""
    shown = {key: value for key, value in variant.items() if key != "owner"}
    shown["mine"] = variant.get("owner") is not None and variant["owner"] in keys
    return shown


def check_maker(variant: dict[str, Any], keys: list[str]) -> str:
    """The variant's owner key if the asker (`keys`) made it; Forbidden otherwise."""
    owner = variant.get("owner")
    if owner is None:
        raise Forbidden("this variant was saved before variants had makers: nobody may change or delete it")
    if owner not in keys:
        raise Forbidden("only this variant's maker may change or delete it (sign in as them, or send their"
                        " X-Maker-Token)")
    return owner
