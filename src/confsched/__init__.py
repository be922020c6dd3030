"""confsched: open, self-hostable conference schedules."""

__version__ = "0.1.0"
