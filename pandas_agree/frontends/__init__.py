"""Adapters between the statistics and the people who use them: pages, commands, accessors."""

__all__: list[str] = []
