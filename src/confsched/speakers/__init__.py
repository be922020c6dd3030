"""Speakers keep their own sessions: their slides and what is checked before they are kept."""
