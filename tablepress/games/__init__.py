"""The games. Each folder holds everything about one game: card data, rules engine, notation, faces."""
