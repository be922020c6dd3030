"""iCalendar (.ics) and xCal (RFC 6321 and the frab/pentabarf dialect): readers and writers."""
