// The replay page: arrow keys step through the moves by following the page's own links (it works
// without this file). Keys typed into a field, or with a modifier, are left alone.
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target && target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
  const which = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
  if (!which) return;
  const link = document.querySelector(`a[data-replay="${which}"]`);
  if (!link) return;
  event.preventDefault();
  window.location.assign(link.href);
});

// The moves list shows the move on the board: scrolled (within its own box) to the current one.
document.addEventListener("DOMContentLoaded", () => {
  const current = document.querySelector(".replay-history [aria-current]");
  const list = current && current.closest(".replay-history");
  if (list) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
});
