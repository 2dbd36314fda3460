"""Running the web app with uvicorn (`tablepress serve`)."""

from __future__ import annotations

import logging
from pathlib import Path

import uvicorn

from .app import create_app


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | Path = "tablepress.db", ai_delay: float = 0.8,
          announce: bool = True) -> None:
    """Serve the lobby, table and API on host:port until interrupted, storing every game in `db`."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = create_app(db, ai_delay=ai_delay)
    if announce:
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        print(f"tablepress web app: http://{shown}:{port}/  (games stored in {db})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws="websockets-sansio")
