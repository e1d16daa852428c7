"""Peers of the launch benchmark: one module per peer, each running one trial (see common.py)."""
