"""A saved variant's intro (/games/NAME/intro?variant=ID) gives link previews the variant's own picture: its
og:image is /games/NAME/share.png?variant=ID, a PNG that says "variant: NAME" and draws the cards as the variant
makes them (By This's Rice with Size 2), not the published game's picture; an unknown variant is a 404 and
another game's a 422, one line each."""

from __future__ import annotations

import io
import re

from PIL import Image, ImageChops

from tablepress.web.pages.share_image import HEIGHT, WIDTH

#: By This's Rice is [ABC, Size, Weight, Age] = [8, 1, 1, 7]; this variant makes its Size 2 (Rice is on the cover).
BIG_RICE = "[things]\nRice = [8, 2, 1, 7]\n"


def save(client, game: str, name: str, toml: str) -> str:
    """A saved variant's id."""
    reply = client.post("/api/variants", json={"game": game, "name": name, "toml": toml})
    assert reply.status_code == 201, reply.text
    return reply.json()["id"]


def picture(client, path: str) -> Image.Image:
    """The PNG at `path`, checked to be the preview's size."""
    reply = client.get(path)
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(reply.content)).convert("RGB")
    assert image.size == (WIDTH, HEIGHT)
    return image


def changed(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int]) -> int:
    """How many pixels of `box` differ between the two pictures."""
    diff = ImageChops.difference(a.crop(box), b.crop(box)).convert("L")
    return sum(1 for value in diff.get_flattened_data() if value > 16)


def test_a_variants_intro_previews_the_variants_faces(client):
    vid = save(client, "by-this", "Big rice", BIG_RICE)
    text = client.get(f"/games/by-this/intro?variant={vid}").text
    meta = dict(re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)"', text))
    assert meta["og:image"].endswith(f"/games/by-this/share.png?variant={vid}")
    assert meta["twitter:image"] == meta["og:image"] and "variant: Big rice" in meta["og:image:alt"]
    published = picture(client, "/games/by-this/share.png")
    varied = picture(client, f"/games/by-this/share.png?variant={vid}")
    assert changed(published, varied, (WIDTH // 2, 0, WIDTH, HEIGHT)) > 50  # the cards: Rice's Size differs
    assert changed(published, varied, (0, 0, WIDTH // 2, HEIGHT)) > 50  # the words: "variant: Big rice"
    plain = client.get("/games/by-this/intro").text
    assert f'content="{meta["og:image"].split("?")[0]}"' in plain  # the published intro keeps its picture


def test_a_variant_that_changes_no_cover_card_draws_the_same_cards_and_says_its_name(client):
    vid = save(client, "by-this", "Other", "[things]\nApple = [1, 3, 5, 8]\n")  # Apple is not on the cover
    published = picture(client, "/games/by-this/share.png")
    varied = picture(client, f"/games/by-this/share.png?variant={vid}")
    assert changed(published, varied, (WIDTH // 2, 0, WIDTH, HEIGHT)) == 0
    assert changed(published, varied, (0, 0, WIDTH // 2, HEIGHT)) > 50


def test_an_unknown_variants_preview_is_404_and_another_games_422(client):
    unknown = client.get("/games/by-this/share.png?variant=nope")
    assert unknown.status_code == 404 and unknown.json()["detail"] == "variant: no variant 'nope'"
    flowers = save(client, "flowers", "small", "[scoring]\nregion_min = 3\n")
    other = client.get(f"/games/by-this/share.png?variant={flowers}")
    assert other.status_code == 422 and "is a variant of flowers, not by-this" in other.json()["detail"]
