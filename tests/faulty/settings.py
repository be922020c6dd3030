"""The site's settings, with tests.faulty.urls as its address book."""

from confsched.settings import *  # noqa: F403 - the site's settings, one of them replaced

ROOT_URLCONF = "tests.faulty.urls"
