// Web push and the installable site; every page works without this file.
// It registers the service worker (/sw.js), subscribes this device when the player asks (the settings
// page's button, or a gentle prompt after their move, never on page load), and refreshes the inbox bell.
(() => {
  const ASKED = "dizzy-push-asked"; // the prompt is offered once per browser
  // Words in the page's language: Django's JavaScript catalogue (/jsi18n/, loaded before this file).
  const gettext = (text) => (window.gettext ? window.gettext(text) : text);
  const canPush = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
    // A push arrived while this page is open: the bell shows it now, not at its next poll.
    navigator.serviceWorker.addEventListener("message", (event) => {
      if (event.data && event.data.type === "push") refreshBell();
    });
  }

  // Fetched by hand, not through htmx: an htmx swap here would run the other htmx:afterSettle
  // handlers (the tab title's count, the live board's title) at moments they do not expect.
  async function refreshBell() {
    const bell = document.getElementById("inbox-bell");
    if (!bell) return;
    const reply = await fetch(bell.getAttribute("hx-get"), { credentials: "same-origin" });
    if (reply.status !== 200) return;
    const holder = document.createElement("div");
    holder.innerHTML = (await reply.text()).trim(); // our own fragment, same origin
    const fresh = holder.firstElementChild;
    if (!fresh || fresh.id !== "inbox-bell" || !bell.isConnected) return;
    bell.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (error) {
      return "";
    }
  }

  function keyBytes(key) {
    const base64 = (key + "=".repeat((4 - (key.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  }

  async function subscribe() {
    // Asked first, while the click still counts as the player's own gesture.
    const permission = await Notification.requestPermission();
    if (permission !== "granted") throw new Error(gettext("Notifications are blocked for this site in your browser's settings."));
    const reply = await fetch("/push/key/", { credentials: "same-origin" });
    if (!reply.ok) throw new Error(gettext("Notifications are not available on this site now."));
    const { key } = await reply.json();
    const registration = await navigator.serviceWorker.register("/sw.js");
    await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(key),
    });
    const saved = await fetch("/push/subscriptions/", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(subscription.toJSON ? subscription.toJSON() : subscription),
    });
    if (!saved.ok) {
      // 409: another account holds this device; the site says so in the page's language.
      const detail = saved.status === 409 ? (await saved.json().catch(() => ({}))).detail : "";
      throw new Error(detail || gettext("The site could not save this device."));
    }
  }

  // The settings page: a button to turn notifications on for this device.
  function setUpSettings() {
    const button = document.querySelector("[data-push-subscribe]");
    const status = document.querySelector("[data-push-status]");
    if (!button || !status) return;
    if (!canPush) {
      status.textContent = gettext("This browser cannot receive notifications from websites.");
      return;
    }
    button.hidden = false;
    button.addEventListener("click", async () => {
      button.disabled = true;
      status.textContent = gettext("Turning notifications on…");
      try {
        await subscribe();
        status.textContent = gettext("Notifications are on for this device.");
        window.location.reload();
      } catch (error) {
        status.textContent = error.message;
        button.disabled = false;
      }
    });
  }

  // After the player's move on a board: offer notifications once, if this browser never decided. The
  // panel is the match page's own (jinja2_templates/games/match.html), hidden, below the board and
  // outside its swapped fragment, so that it never pushes the board down; a finished match has none.
  function offerAfterMove(event) {
    // By the path, not the form: the board (and the form in it) is swapped out by the time this runs.
    const path = (event.detail.pathInfo && event.detail.pathInfo.requestPath) || "";
    if (!/\/matches\/\d+\/move\/$/.test(path) || !event.detail.successful) return;
    const prompt = document.getElementById("push-prompt");
    if (!prompt || !prompt.hidden) return;
    const board = document.getElementById("board");
    if (board && board.hasAttribute("data-over")) return prompt.remove(); // that move ended the match
    if (!canPush || Notification.permission !== "default") return;
    if (!document.getElementById("inbox-bell") || localStorage.getItem(ASKED)) return;
    localStorage.setItem(ASKED, "shown"); // once: not again on a later page, answered or not
    prompt.hidden = false;
    // The question is announced: a live region, filled once it shows, since a screen reader
    // reads a live region's changes, not a region that arrives with its words.
    setTimeout(() => {
      prompt.querySelector("[data-push-question]").textContent = prompt.dataset.question;
    }, 100);
  }

  function setUpPrompt() {
    const prompt = document.getElementById("push-prompt");
    if (!prompt) return;
    prompt.addEventListener("click", async (click) => {
      const answer = click.target.dataset && click.target.dataset.answer;
      if (!answer) return;
      localStorage.setItem(ASKED, answer);
      if (answer === "no") return prompt.remove();
      const result = prompt.querySelector("[data-push-result]");
      try {
        await subscribe();
        result.textContent = gettext("Done: you will be notified on this device.");
      } catch (error) {
        result.textContent = error.message;
      }
    });
  }

  document.addEventListener("DOMContentLoaded", setUpSettings);
  document.addEventListener("DOMContentLoaded", setUpPrompt);
  document.addEventListener("htmx:afterRequest", offerAfterMove);
  // Not refreshed on each board redraw: the live board's own handlers (clock.js) expect that swap
  // alone; the bell polls every 30 s and a push refreshes it at once.
})();
