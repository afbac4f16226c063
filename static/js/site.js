// Small progressive enhancements; every page works without this file.
document.addEventListener("htmx:beforeRequest", (event) => {
  // A move form is sent once: a double click does not post twice.
  const form = event.target.closest && event.target.closest("form.move-form");
  if (form) form.querySelectorAll("button").forEach((b) => (b.disabled = true));
});

// The tab title carries the "your turn" count: "(2) Dizzysite".
function showTurnCount() {
  const counter = document.getElementById("turn-count");
  if (!counter) return;
  const count = Number(counter.dataset.count || 0);
  document.title = (count ? `(${count}) ` : "") + document.title.replace(/^\(\d+\) /, "");
}
document.addEventListener("DOMContentLoaded", showTurnCount);
document.addEventListener("htmx:afterSettle", showTurnCount);
