// The private notes on a board (only their writer reads them) are saved as the player types:
// a second after the last key, posted like the form's own Save button (which works without this file),
// with the form's CSRF token. The words come from the form's data- attributes, in the page's language.
//
// Nothing typed is lost when the page goes away: leaving (pagehide, or the tab hidden) sends what is
// left at once with a keepalive request, which outlives the page. A reload may fetch the new page
// before that request lands, so until the server has the words they are also kept in this tab's
// sessionStorage, with the text the server had; the next page of this board puts them back and saves.
(function () {
  "use strict";

  const WAIT_MS = 1000;

  function setUp(form) {
    const text = form.querySelector("textarea");
    const status = form.querySelector("[data-notes-status]");
    const draftKey = `dizzy-notes:${form.action}`;
    let timer = null;
    let sent = text.value; // what the server holds, as far as this page knows

    function say(words) {
      if (status.textContent !== words) status.textContent = words;
    }

    function keepDraft() {
      try {
        sessionStorage.setItem(draftKey, JSON.stringify({ base: sent, text: text.value }));
      } catch (error) {
        // No storage (private mode, full): the keepalive save still runs.
      }
    }

    function dropDraft() {
      try {
        sessionStorage.removeItem(draftKey);
      } catch (error) {
        // Nothing kept.
      }
    }

    function post(body, keepalive) {
      return fetch(form.action, {
        method: "POST",
        body,
        credentials: "same-origin",
        keepalive,
        headers: { Accept: "application/json", "X-CSRFToken": body.get("csrfmiddlewaretoken") },
      });
    }

    function saved(value) {
      sent = value;
      if (text.value === sent) {
        dropDraft();
        say(form.dataset.saved);
      }
    }

    async function save() {
      timer = null;
      if (text.value === sent) return;
      const body = new FormData(form);
      say(form.dataset.saving);
      try {
        const reply = await post(body, false);
        if (!reply.ok) throw new Error(String(reply.status));
        saved(body.get("text"));
      } catch (error) {
        say(form.dataset.failed);
      }
    }

    // The page is going away (or may be, once hidden): send what is left now.
    function saveNow() {
      if (timer) clearTimeout(timer);
      timer = null;
      if (text.value === sent) return;
      const body = new FormData(form);
      try {
        post(body, true)
          .then((reply) => {
            if (reply.ok) saved(body.get("text"));
          })
          .catch(() => {});
      } catch (error) {
        // The browser refused the request (too big for keepalive): the draft is kept for the next page.
      }
    }

    function changed() {
      keepDraft();
      say(form.dataset.unsaved);
    }

    // A draft this tab kept, written on the text the server still has: put back and saved.
    try {
      const draft = JSON.parse(sessionStorage.getItem(draftKey) || "null");
      if (draft && draft.base === text.value && draft.text !== text.value) {
        text.value = draft.text;
        changed();
        timer = setTimeout(save, 0);
      } else {
        dropDraft();
      }
    } catch (error) {
      dropDraft();
    }

    text.addEventListener("input", () => {
      if (timer) clearTimeout(timer);
      if (text.value === sent) {
        dropDraft();
        say("");
        return;
      }
      changed();
      timer = setTimeout(save, WAIT_MS);
    });
    window.addEventListener("pagehide", saveNow);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") saveNow();
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("form[data-notes]").forEach(setUp);
  });
})();
