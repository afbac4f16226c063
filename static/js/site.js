// Small progressive enhancements; every page works without this file.
document.addEventListener("htmx:beforeRequest", (event) => {
  // A move form is sent once: a double click does not post twice.
  const form = event.target.closest && event.target.closest("form.move-form");
  if (form) form.querySelectorAll("button").forEach((b) => (b.disabled = true));
});
