"""Sched schedule pages saved as text: a reader only (`read`)."""
