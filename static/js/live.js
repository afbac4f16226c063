// Live events (issue 25): the server pushes "revision N" for a board and counts for the header over
// Server-Sent Events; this script turns them into the htmx triggers the page already has, so the
// swap, the focus handling and the no-JavaScript pages stay as they are.
// - A board (#board[data-live]) listens to its match: a newer revision triggers its "poll", which GETs
//   its own fragment (?since=), exactly as the interval poll does. While the stream is open the
//   interval poll is skipped, except one a minute as a safety net; when the stream is down, the
//   interval poll runs as before.
// - The header (body[data-live-me]) listens to the user's stream: "bell" and "turns" trigger the
//   bell's and the turn count's "refresh"; "lobby" triggers "refresh" on [data-live-lobby].
// No inline script and no eval (see the CSP and htmx's allowEval: false).
(function () {
  "use strict";
  if (!window.EventSource) return; // the interval polls carry on

  const SAFETY_POLL_MS = 60000;
  const open = new Set(); // the streams now open
  const lastRequest = new Map(); // element id -> when its last request went out (by id: swaps replace the elements)

  function listen(url, handlers) {
    const source = new EventSource(url);
    source.addEventListener("open", () => open.add(source));
    source.addEventListener("error", () => {
      // EventSource reconnects by itself (with Last-Event-ID); a refusal (403, 429) closes it.
      if (source.readyState !== EventSource.OPEN) open.delete(source);
    });
    source.addEventListener("close", () => {
      // The server ended it (a logout, a ban): no reconnecting.
      open.delete(source);
      source.close();
    });
    Object.entries(handlers).forEach(([name, handler]) =>
      source.addEventListener(name, (event) => handler(JSON.parse(event.data || "{}"), event)),
    );
    return source;
  }

  function trigger(selector, name) {
    const elt = document.querySelector(selector);
    if (elt && window.htmx) {
      elt.dataset.liveTriggered = "1";
      window.htmx.trigger(elt, name);
    }
  }

  // The interval polls are skipped while a stream is open (one a minute still goes through).
  document.addEventListener("htmx:confirm", (event) => {
    const elt = event.detail.elt;
    const live = elt.id === "board" || elt.id === "inbox-bell" || elt.id === "turn-count";
    if (!live || open.size === 0 || event.detail.verb !== "get") return;
    const triggered = event.detail.triggeringEvent;
    if (triggered && triggered.type !== "every") return; // a "poll"/"refresh" or the first load
    const last = lastRequest.get(elt.id) || 0;
    if (Date.now() - last < SAFETY_POLL_MS) event.preventDefault();
  });
  document.addEventListener("htmx:configRequest", (event) => {
    const elt = event.detail.elt;
    if (elt.id) lastRequest.set(elt.id, Date.now());
    if (elt.dataset && elt.dataset.liveTriggered) {
      event.detail.headers["X-Dizzy-Live"] = "1"; // asked for by an event, not by a timer
      delete elt.dataset.liveTriggered;
    }
  });

  function startBoard() {
    const board = document.getElementById("board");
    if (!board || !board.dataset.live) return;
    listen(board.dataset.live, {
      revision: (data) => {
        const current = document.getElementById("board"); // swapped since: look it up again
        if (!current || !current.dataset.live) return;
        if (Number(data.revision) > Number(current.dataset.revision || -1)) trigger("#board", "poll");
      },
    });
  }

  function startMe() {
    const url = document.body.dataset.liveMe;
    if (!url) return;
    listen(url, {
      bell: () => trigger("#inbox-bell", "refresh"),
      turns: () => trigger("#turn-count", "refresh"),
      lobby: () => trigger("[data-live-lobby]", "refresh"),
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    startBoard();
    startMe();
  });
})();
