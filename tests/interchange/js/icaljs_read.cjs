// Reads each .ics given in one process as an app on ical.js does: a calendar's VTIMEZONEs are
// registered when no zone of that TZID is known yet (kept: "first"), and prints each event's
// UID, start and end as Unix seconds.
const ICAL = require(process.argv[2]);
const out = {};
for (const path of process.argv.slice(3)) {
  const text = require("fs").readFileSync(path, "utf8");
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents("vtimezone")) {
    const tzid = zone.getFirstPropertyValue("tzid");
    if (!ICAL.TimezoneService.has(tzid)) ICAL.TimezoneService.register(zone);
  }
  out[path] = calendar.getAllSubcomponents("vevent").map((vevent) => {
    const event = new ICAL.Event(vevent);
    return [event.uid, event.startDate.toUnixTime(), event.endDate.toUnixTime(), event.summary,
            event.startDate.zone ? event.startDate.zone.tzid : null];
  });
}
process.stdout.write(JSON.stringify(out));
