"""A site with one faulty view beside the real ones, for the served tests of what a failing
request leaves behind (tests/test_served_database_errors.py): run with
DJANGO_SETTINGS_MODULE=tests.faulty.settings."""
