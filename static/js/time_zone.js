// The sign-up form's hidden time zone field (accounts.forms.SignupForm) gets the browser's own zone,
// so a new account's first pages show the player's clock. The server checks the name; without this
// file the account starts in the default zone.
(function () {
  "use strict";

  function fill() {
    let zone = "";
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (error) {
      return; // no Intl: the default zone
    }
    document.querySelectorAll("input[data-browser-time-zone]").forEach((input) => {
      input.value = zone;
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fill);
  else fill();
})();
