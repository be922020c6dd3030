"""Shared page machinery: kept pages (stencils), compression, middleware, static storage,
the event page helpers, zones, languages, rich text, template tags, and the site chrome (home,
about, the icon, error pages, base templates, app.css and app.js)."""
