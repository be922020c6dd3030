"""The admin: Django's admin screens for every domain, above them all.

Each screen belongs to a domain (programme.py, teams.py) but lives here, because the admin asks
the teams' rights of every row (scoped.py) and search's progress: were the screens inside each
domain, programme/ would import teams/ and search/, which import programme/ (a circle)."""
