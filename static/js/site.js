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

// Keyboard and screen-reader players keep their place: after the board is redrawn (a step of a move,
// a move, or the opponent's move arriving while the focus was on the board), the focus goes to the
// control the board marks with data-autofocus, else its first control, else the board itself.
let boardHadFocus = false;
document.addEventListener("htmx:beforeRequest", (event) => {
  const elt = event.detail.elt;
  if (elt.id !== "board" && elt.closest && elt.closest("#board")) boardHadFocus = true;
});
document.addEventListener("htmx:beforeSwap", (event) => {
  const board = document.getElementById("board");
  if (board && board.contains(document.activeElement) && document.activeElement !== document.body) boardHadFocus = true;
});
document.addEventListener("htmx:afterSettle", (event) => {
  if (!boardHadFocus || !event.detail.target || event.detail.target.id !== "board") return;
  boardHadFocus = false;
  const board = document.getElementById("board");
  if (!board) return;
  const next =
    board.querySelector("[data-autofocus]") ||
    board.querySelector(".move-form button:not([disabled]), .move-form a[href], .move-form select") ||
    board;
  next.focus();
});
