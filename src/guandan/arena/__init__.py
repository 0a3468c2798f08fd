"""The arena (擂台): duplicate-deal comparison of two agents with honest statistics."""
