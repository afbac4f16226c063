// Live events: the server pushes "revision N" for a board and counts for the header over
// Server-Sent Events; this script turns them into the htmx triggers the page already has, so the
// swap, the focus handling and the no-JavaScript pages stay as they are.
// - A board (#board[data-live]) listens to its match: a newer revision triggers its "poll", which GETs
//   its own fragment (?since=), exactly as the interval poll does. While the stream is open the
//   interval polls of the board and the turn count are skipped, except one a minute as a safety net;
//   when the stream is down, they run as before.
// - The header (body[data-live-me]) listens to the user's stream: "bell" and "turns" trigger the
//   bell's and the turn count's "refresh"; "turns" and "lobby" redraw the dashboard (#dashboard).
// No inline script and no eval (see the CSP and htmx's allowEval: false).
(function () {
  "use strict";
  if (!window.EventSource) return; // the interval polls carry on

  const SAFETY_POLL_MS = 60000;
  const open = new Set(); // the streams now open
  let boardSource = null; // the board's stream, if this page has a live board
  let meSource = null; // the user's own stream
  const lastRequest = new Map(); // element id -> when its last request went out (by id: swaps replace the elements)

  function showState() {
    // For styles and tests: <html data-live="open"> while a stream is open.
    document.documentElement.dataset.live = open.size ? "open" : "down";
  }

  function listen(url, handlers) {
    const source = new EventSource(url);
    source.addEventListener("open", () => {
      open.add(source);
      // The stream sends what is newer than the page at once: the next interval poll can wait.
      lastRequest.set(source === boardSource ? "board" : "turn-count", Date.now());
      showState();
    });
    source.addEventListener("error", () => {
      // EventSource reconnects by itself (with Last-Event-ID); a refusal (403, 429) closes it.
      if (source.readyState !== EventSource.OPEN) open.delete(source);
      showState();
    });
    source.addEventListener("close", () => {
      // The server ended it (a logout, a ban): no reconnecting.
      open.delete(source);
      source.close();
      showState();
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
    // Not the bell: reading the inbox (in another tab) marks rows read without an event, so its
    // 30 s poll stays; a new notification still rings it at once.
    // Each by its own stream: a board whose stream was refused (429) polls on, whatever else is open.
    const source = elt.id === "board" ? boardSource : elt.id === "turn-count" ? meSource : null;
    if (!source || !open.has(source) || event.detail.verb !== "get") return;
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

  // A match that ended draws a board with no data-live: its stream has nothing more to say.
  document.addEventListener("htmx:afterSettle", () => {
    const board = document.getElementById("board");
    if (boardSource && board && !board.dataset.live) {
      boardSource.close();
      open.delete(boardSource);
      boardSource = null;
      showState();
    }
  });

  function startBoard() {
    const board = document.getElementById("board");
    if (!board || !board.dataset.live) return;
    boardSource = listen(board.dataset.live, {
      revision: (data) => {
        const current = document.getElementById("board"); // swapped since: look it up again
        if (!current || !current.dataset.live) return;
        if (Number(data.revision) > Number(current.dataset.revision || -1)) trigger("#board", "poll");
      },
    });
  }

  // The dashboard is redrawn at most every few seconds, and never under the reader's focus (a
  // keyboard user on one of its links keeps it): it waits until the focus leaves it.
  const DASHBOARD_MS = 3000;
  let dashboardDue = false;
  let dashboardAt = 0;
  let dashboardTimer = null;
  function refreshDashboard() {
    const dashboard = document.getElementById("dashboard");
    if (!dashboard) return;
    dashboardDue = true;
    if (dashboardTimer) return; // one redraw is already on its way
    const wait = dashboardAt + DASHBOARD_MS - Date.now();
    if (wait > 0) {
      dashboardTimer = setTimeout(() => {
        dashboardTimer = null;
        if (dashboardDue) refreshDashboard();
      }, wait);
      return;
    }
    if (dashboard.contains(document.activeElement)) return; // see the focusout listener
    dashboardDue = false;
    dashboardAt = Date.now();
    trigger("#dashboard", "refresh");
  }
  document.addEventListener("focusout", (event) => {
    const dashboard = document.getElementById("dashboard");
    if (dashboardDue && dashboard && dashboard.contains(event.target)) setTimeout(refreshDashboard, 0);
  });

  function startMe() {
    const url = document.body.dataset.liveMe;
    if (!url) return;
    meSource = listen(url, {
      bell: () => trigger("#inbox-bell", "refresh"),
      turns: () => {
        trigger("#turn-count", "refresh");
        refreshDashboard();
      },
      lobby: refreshDashboard,
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    startBoard();
    startMe();
  });
})();
