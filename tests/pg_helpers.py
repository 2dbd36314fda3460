"""A throwaway PostgreSQL cluster for the tests (tablepress/bench/postgres.py, shared with the load
benchmark): one fresh database a test, the cluster stopped and deleted at the end; `missing()` says why no
cluster can run here, and then the tests skip."""

from __future__ import annotations

from tablepress.bench.postgres import FAST, Cluster, binary, free_port, missing

__all__ = ["FAST", "Cluster", "binary", "free_port", "missing"]
