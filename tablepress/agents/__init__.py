"""AI players. Every agent works for every game through the protocol; none reads hidden state."""

from .base import Agent, SeatInfo, make_agent, parse_seats

__all__ = ["Agent", "SeatInfo", "make_agent", "parse_seats"]
