"""Dashboard pages still waiting to move into their game's folder (`nessus/games/<name>/page.py`)."""
