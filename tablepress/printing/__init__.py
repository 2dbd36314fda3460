"""Print-and-play: 9-up PDF card sheets (`sheets`) and the one-page intro (`intro`), from the card data."""
