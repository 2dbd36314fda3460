"""Self-play simulation: many games on a process pool or Ray, balance statistics, A/B variants, reports.

Kept light on purpose: numpy, scipy, matplotlib and ray are imported only by the modules that need them.
"""
