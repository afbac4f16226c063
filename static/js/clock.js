// The board's clocks tick in the browser. Each <time class="clock"> counts down to the server's
// deadline (data-deadline, ms since the epoch), corrected by how far this device's clock is from the
// server's (data-now, the server's time when it drew the board). When a deadline passes, the board
// asks the server at once, so the reserve period or the consequence shows without a reload.
(function () {
  "use strict";

  function two(n) {
    return String(n).padStart(2, "0");
  }

  // The page's language gives the words (data-units="day|days|hour|hours" on the clock).
  function inWords(ms, units) {
    const [day, days, hour, hours] = (units || "day|days|hour|hours").split("|");
    const seconds = Math.max(0, Math.ceil(ms / 1000));
    const d = Math.floor(seconds / 86400);
    const h = Math.floor((seconds % 86400) / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    if (d) return `${d} ${d > 1 ? days : day} ${h} ${h !== 1 ? hours : hour}`;
    if (h) return `${h}:${two(minutes)}:${two(seconds % 60)}`;
    return `${minutes}:${two(seconds % 60)}`;
  }

  function tick() {
    document.querySelectorAll("time.clock[data-deadline]").forEach((clock) => {
      if (!clock.dataset.offset) clock.dataset.offset = String(Number(clock.dataset.now) - Date.now());
      const left = Number(clock.dataset.deadline) - (Date.now() + Number(clock.dataset.offset));
      clock.querySelector(".clock-left").textContent = inWords(left, clock.dataset.units);
      clock.classList.toggle("clock-low", left <= 10000);
      if (left <= 0 && !clock.dataset.expired) {
        clock.dataset.expired = "1";
        const board = document.getElementById("board");
        if (board && window.htmx) setTimeout(() => window.htmx.trigger(board, "poll"), 1000);
      }
    });
  }

  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);

  // When the board swaps in with "It is your turn" (it was not before): the tab's title says so, and
  // with the player's setting in a live match (data-turn-sound="on") a short beep plays (WebAudio, no
  // file; a browser may keep it silent until the player has clicked on the page once).
  let wasMine = null;
  let audio = null;

  function beep() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.2, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain);
    gain.connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  }

  function turnChanged() {
    const board = document.getElementById("board");
    if (!board) return;
    const mine = Boolean(board.querySelector(".turn-banner.mine"));
    // The server's title already starts with "Your turn · " on the player's turn, and site.js puts
    // the "(2) " count in front: both are kept or taken off here, never added twice.
    const words = `${board.dataset.yourTurn || "Your turn"} · `;
    const count = (document.title.match(/^\(\d+\) /) || [""])[0];
    let rest = document.title.slice(count.length);
    while (rest.startsWith(words)) rest = rest.slice(words.length);
    const wanted = count + (mine ? words : "") + rest;
    if (document.title !== wanted) document.title = wanted;
    if (mine && wasMine === false && board.dataset.turnSound === "on") beep();
    wasMine = mine;
  }

  document.addEventListener("DOMContentLoaded", turnChanged);
  document.addEventListener("htmx:afterSettle", turnChanged);

  // No polling while the tab is hidden; one poll as soon as it is shown again.
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (document.hidden && event.detail.elt.id === "board" && event.detail.requestConfig.verb === "get") {
      event.preventDefault();
    }
  });
  document.addEventListener("visibilitychange", () => {
    const board = document.getElementById("board");
    if (!document.hidden && board && window.htmx) window.htmx.trigger(board, "poll");
  });
})();
