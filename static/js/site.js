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
// (in Flower Field the focus once fell to the body after a move).
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

// A dashboard row's start is written as a date (<time class="ago">); said here as "3 days ago" in the
// page's language, the date kept as its title. Without Intl.RelativeTimeFormat the date stays.
const AGO_UNITS = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60]];
function sayAgo(root) {
  if (!window.Intl || !Intl.RelativeTimeFormat) return;
  const words = new Intl.RelativeTimeFormat(document.documentElement.lang || undefined, { numeric: "auto" });
  root.querySelectorAll("time.ago[datetime]").forEach((time) => {
    const seconds = (Date.parse(time.getAttribute("datetime")) - Date.now()) / 1000;
    if (Number.isNaN(seconds)) return;
    const [unit, size] = AGO_UNITS.find(([, length]) => Math.abs(seconds) >= length) || ["second", 1];
    if (!time.title) time.title = time.textContent;
    time.textContent = words.format(Math.trunc(seconds / size), unit);
  });
}
document.addEventListener("DOMContentLoaded", () => sayAgo(document));
document.addEventListener("htmx:afterSettle", (event) => sayAgo(event.target));
