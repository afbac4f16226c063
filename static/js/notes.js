// The private notes on a board (only their writer reads them) are saved as the player types:
// a second after the last key, posted like the form's own Save button (which works without this file),
// with the form's CSRF token. The words come from the form's data- attributes, in the page's language.
(function () {
  "use strict";

  const WAIT_MS = 1000;

  function setUp(form) {
    const text = form.querySelector("textarea");
    const status = form.querySelector("[data-notes-status]");
    let timer = null;
    let sent = text.value;

    async function save() {
      timer = null;
      if (text.value === sent) return;
      const body = new FormData(form);
      status.textContent = form.dataset.saving;
      try {
        const reply = await fetch(form.action, {
          method: "POST",
          body,
          credentials: "same-origin",
          headers: { Accept: "application/json", "X-CSRFToken": body.get("csrfmiddlewaretoken") },
        });
        if (!reply.ok) throw new Error(String(reply.status));
        sent = body.get("text");
        status.textContent = form.dataset.saved;
      } catch (error) {
        status.textContent = form.dataset.failed;
      }
    }

    text.addEventListener("input", () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(save, WAIT_MS);
    });
    // Leaving the page soon after typing: what is left is sent at once.
    window.addEventListener("pagehide", () => {
      if (timer) save();
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("form[data-notes]").forEach(setUp);
  });
})();
