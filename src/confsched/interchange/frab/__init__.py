"""frab/pentabarf schedule.xml: the reader (`read`) and the writer (`write`)."""
