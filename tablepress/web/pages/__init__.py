"""The Table Press site's pages: server-rendered HTML from each game's package (intro.toml, rules.md,
card faces), the print-and-play PDF a visitor downloads, and the share QR code. `web/site.py` routes them."""
