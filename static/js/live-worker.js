// The browser's one live stream, shared by all its tabs (a SharedWorker, static/js/live.js starts it).
// A browser keeps at most 6 HTTP/1.1 connections to a site: a stream per tab and per board would
// use them up at the third tab and freeze the next request. Here one EventSource carries the user's
// events and the revisions of every board the tabs show; each tab says which board it shows
// ("watch") and when it goes ("bye"), and hears every event (it keeps those of its own board).
"use strict";

const tabs = new Map(); // port -> Map(match id -> revision the tab has)
const latest = new Map(); // match id -> the newest revision heard
let base = "/live/";
let source = null;
let following = new Set(); // the match ids the open stream follows
let isOpen = false;

function send(message) {
  for (const port of tabs.keys()) port.postMessage(message);
}

function wanted() {
  const boards = new Map();
  for (const shown of tabs.values()) {
    for (const [id, revision] of shown) {
      boards.set(id, Math.max(revision, boards.get(id) ?? -1, latest.get(id) ?? -1));
    }
  }
  return boards;
}

function close() {
  if (source) source.close();
  source = null;
  following = new Set();
  isOpen = false;
}

function setOpen(open) {
  isOpen = open;
  send({ type: "state", open });
}

// A new board to follow opens the stream again with every board and what the browser has of each
// (the server sends what is newer at once); a board no tab shows any more stays followed until then.
function follow() {
  if (!tabs.size) return close();
  const boards = wanted();
  if (source && [...boards.keys()].every((id) => following.has(id))) return;
  close();
  following = new Set(boards.keys());
  const query = [...boards].map(([id, revision]) => (revision >= 0 ? `${id}:${revision}` : id)).join(",");
  source = new EventSource(query ? `${base}?boards=${query}` : base);
  source.addEventListener("open", () => setOpen(true));
  source.addEventListener("error", () => {
    // EventSource reconnects by itself; a refusal (403, 429) closes it.
    if (source && source.readyState !== EventSource.OPEN) setOpen(false);
  });
  source.addEventListener("close", () => {
    // The server ended it (a logout, a ban): no reconnecting.
    close();
    send({ type: "state", open: false });
  });
  for (const name of ["revision", "turns", "bell", "lobby"]) {
    source.addEventListener(name, (event) => {
      const data = JSON.parse(event.data || "{}");
      if (name === "revision") latest.set(String(data.match), data.revision);
      send({ type: "event", name, data });
    });
  }
}

self.addEventListener("connect", (event) => {
  const port = event.ports[0];
  port.addEventListener("message", (message) => {
    const said = message.data || {};
    if (said.type === "watch") {
      base = said.url || base;
      tabs.set(port, new Map(Object.entries(said.boards || {})));
      follow();
      port.postMessage({ type: "state", open: isOpen });
    } else if (said.type === "bye") {
      tabs.delete(port);
      if (!tabs.size) close();
    }
  });
  port.start();
});
