// A tutorial step, or a practice match's hint, points out what to click: the button that submits the
// move (data-taught), or the link to the next selection on the way to it (data-look: the selections
// in click order). The words beside the board say the same, so this only helps the eye.
function selectionOf(link) {
  return new URL(link.href, document.baseURI).searchParams.get("select");
}
function pointOut() {
  const board = document.getElementById("board");
  if (!board || !board.dataset.taught) return;
  const taught = board.dataset.taught;
  const looks = (board.dataset.look || "").split(" ").filter(Boolean);
  const buttons = [...board.querySelectorAll(".move-form button[name=move]")].filter((b) => taught && b.value === taught);
  buttons.forEach((b) => b.classList.add("pointed-out"));
  if (buttons.length) return;
  const links = [...board.querySelectorAll(".move-form a[href*='select=']")];
  const here = board.dataset.select || "";
  const next = looks.slice(looks.indexOf(here) + 1).find((look) => links.some((a) => selectionOf(a) === look));
  links.filter((a) => selectionOf(a) === next).forEach((a) => a.classList.add("pointed-out"));
}
document.addEventListener("DOMContentLoaded", pointOut);
document.addEventListener("htmx:afterSettle", pointOut);
