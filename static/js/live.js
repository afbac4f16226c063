// Live events: the server pushes "revision N" for a board and counts for the header over
// Server-Sent Events; this script turns them into the htmx triggers the page already has, so the
// swap, the focus handling and the no-JavaScript pages stay as they are.
// - One stream for the whole browser (body[data-live]): its tabs share it through a SharedWorker
//   (static/js/live-worker.js), or, without one, each tab opens its own. A tab says which board it
//   shows; the stream carries that board's revisions and the user's counts.
// - A board (#board[data-live]): a newer revision of its match triggers its "poll", which GETs its
//   own fragment (?since=), exactly as the interval poll does. While the stream is open the interval
//   polls of the board and the turn count are skipped, except one a minute as a safety net; when the
//   stream is down, they run as before.
// - The header: "bell" and "turns" trigger the bell's and the turn count's "refresh"; "turns" and
//   "lobby" redraw the dashboard (#dashboard).
// No inline script and no eval (see the CSP and htmx's allowEval: false).
(function () {
  "use strict";
  if (!window.EventSource) return; // the interval polls carry on

  const SAFETY_POLL_MS = 60000;
  let isOpen = false;
  let channel = null; // the worker's port, or this tab's own stream
  const lastRequest = new Map(); // element id -> when its last request went out (by id: swaps replace the elements)

  function setOpen(open) {
    if (open && !isOpen) {
      // The stream sends what is newer than the page at once: the next interval polls can wait.
      lastRequest.set("board", Date.now());
      lastRequest.set("turn-count", Date.now());
    }
    isOpen = open;
    // For styles and tests: <html data-live="open"> while the stream is open.
    document.documentElement.dataset.live = open ? "open" : "down";
  }

  function trigger(selector, name) {
    const elt = document.querySelector(selector);
    if (elt && window.htmx) {
      elt.dataset.liveTriggered = "1";
      window.htmx.trigger(elt, name);
    }
  }

  function shownBoards() {
    const board = document.getElementById("board");
    if (!board || !board.dataset.live || !board.dataset.match) return {};
    return { [board.dataset.match]: Number(board.dataset.revision || -1) };
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

  const handlers = {
    revision: (data) => {
      const board = document.getElementById("board"); // swapped since: look it up again
      if (!board || !board.dataset.live || board.dataset.match !== String(data.match)) return;
      if (Number(data.revision) > Number(board.dataset.revision || -1)) trigger("#board", "poll");
    },
    bell: () => trigger("#inbox-bell", "refresh"),
    turns: () => {
      trigger("#turn-count", "refresh");
      refreshDashboard();
    },
    lobby: refreshDashboard,
  };

  function heard(message) {
    if (message.type === "state") setOpen(message.open);
    else if (message.type === "event" && handlers[message.name]) handlers[message.name](message.data);
  }

  // Without a SharedWorker (or where it fails to start) the tab holds its own stream, the same one.
  function ownStream(url) {
    let source = null;
    function watch(boards) {
      if (source) source.close();
      const query = Object.entries(boards).map(([id, revision]) => (revision >= 0 ? `${id}:${revision}` : id));
      source = new EventSource(query.length ? `${url}?boards=${query.join(",")}` : url);
      source.addEventListener("open", () => heard({ type: "state", open: true }));
      source.addEventListener("error", () => {
        if (source.readyState !== EventSource.OPEN) heard({ type: "state", open: false });
      });
      source.addEventListener("close", () => {
        source.close();
        heard({ type: "state", open: false });
      });
      Object.keys(handlers).forEach((name) =>
        source.addEventListener(name, (event) => heard({ type: "event", name, data: JSON.parse(event.data || "{}") })),
      );
    }
    return { watch, bye: () => source && source.close() };
  }

  function sharedStream(url, workerUrl) {
    const worker = new SharedWorker(workerUrl, { name: "dizzysite-live" });
    worker.port.addEventListener("message", (event) => heard(event.data));
    worker.port.start();
    return {
      watch: (boards) => worker.port.postMessage({ type: "watch", url, boards }),
      bye: () => worker.port.postMessage({ type: "bye" }),
    };
  }

  function start() {
    const url = document.body.dataset.live;
    if (!url) return; // not signed in: the page polls
    const workerUrl = document.body.dataset.liveWorker;
    try {
      channel = window.SharedWorker && workerUrl ? sharedStream(url, workerUrl) : ownStream(url);
    } catch (error) {
      channel = ownStream(url);
    }
    channel.watch(shownBoards());
    window.addEventListener("pagehide", () => channel.bye());
    window.addEventListener("pageshow", (event) => {
      if (event.persisted) channel.watch(shownBoards()); // back from the browser's page cache
    });
  }

  // The interval polls are skipped while the stream is open (one a minute still goes through).
  document.addEventListener("htmx:confirm", (event) => {
    const elt = event.detail.elt;
    // Not the bell: reading the inbox (in another tab) marks rows read without an event, so its
    // 30 s poll stays; a new notification still rings it at once.
    if (!isOpen || (elt.id !== "board" && elt.id !== "turn-count") || event.detail.verb !== "get") return;
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

  // A match that ended draws a board with no data-live: this tab follows no board any more.
  let watchedBoard = null;
  document.addEventListener("htmx:afterSettle", () => {
    const board = document.getElementById("board");
    const now = board && board.dataset.live ? board.dataset.match : null;
    if (channel && watchedBoard && now !== watchedBoard) channel.watch(shownBoards());
    watchedBoard = now;
  });

  document.addEventListener("DOMContentLoaded", () => {
    const board = document.getElementById("board");
    watchedBoard = board && board.dataset.live ? board.dataset.match : null;
    start();
  });
})();
