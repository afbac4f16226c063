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
// A control of the board that loses the focus to nothing (disabled while its move is sent, or swapped
// out by a poll that came first) leaves it on the page's body: the next board swap brings it back
// (issue 27: in Flower Field the focus once fell to the body after a move).
// A click elsewhere on the page is the player's own choice: that loss is not brought back.
let focusLostFromBoard = false;
let pointerOutsideBoard = false;
document.addEventListener("pointerdown", (event) => {
  const board = document.getElementById("board");
  pointerOutsideBoard = Boolean(board && !board.contains(event.target));
});
document.addEventListener("focusout", (event) => {
  const board = document.getElementById("board");
  if (board && event.target !== board && board.contains(event.target) && !event.relatedTarget) {
    focusLostFromBoard = !pointerOutsideBoard;
  }
  pointerOutsideBoard = false;
});
document.addEventListener("focusin", () => {
  focusLostFromBoard = false;
});
document.addEventListener("htmx:afterSettle", (event) => {
  if (!event.detail.target || event.detail.target.id !== "board") return;
  const onBody = !document.activeElement || document.activeElement === document.body;
  if (!boardHadFocus && !(focusLostFromBoard && onBody)) return;
  boardHadFocus = false;
  focusLostFromBoard = false;
  const board = document.getElementById("board");
  if (!board) return;
  const next =
    board.querySelector("[data-autofocus]") ||
    board.querySelector(".move-form button:not([disabled]), .move-form a[href], .move-form select") ||
    board;
  next.focus();
});
