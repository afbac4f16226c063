// The new-match form shows only what the chosen settings need: the seats of the chosen number of
// players, the username box of an "Invite" seat, the custom clock's fields. Without this file every
// field shows and the form works the same.
(function () {
  "use strict";

  function setUp(form) {
    const players = form.querySelector("select[name=players]");
    const preset = form.querySelector("select[name=time_preset]");

    function update() {
      const count = players ? Number(players.value) : Infinity;
      form.querySelectorAll("[data-seat]").forEach((row) => {
        row.hidden = Number(row.dataset.seat) > count;
      });
      form.querySelectorAll("[data-invite-for]").forEach((row) => {
        const seat = document.getElementById(row.dataset.inviteFor);
        row.hidden = !seat || seat.value !== "invite";
      });
      form.querySelectorAll("[data-custom-clock]").forEach((part) => {
        part.hidden = !preset || preset.value !== "custom";
      });
    }

    form.querySelectorAll("[data-without-script]").forEach((note) => {
      note.hidden = true;
    });
    form.addEventListener("change", update);
    update();
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("form[data-new-match]").forEach(setUp);
  });
})();
