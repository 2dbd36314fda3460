"""The web app: lobby, table and the HTTP/WebSocket API of docs/reference.md, with every game kept in SQLite."""
