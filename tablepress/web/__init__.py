"""The web app: lobby, table and the HTTP/WebSocket API of contract.md, with every game kept in SQLite."""
