"""Accounts: sign-up, account pages, log-in throttling."""
