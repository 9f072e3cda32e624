"""Nyx, the symbol-dice game (RULES.md part 4)."""
