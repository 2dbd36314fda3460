/* A game's page: the Play / Simulate / Print / Share panels open from the buttons (and the address's
   #hash), the print form shows the matching `tablepress print` command, the share panel copies the
   intro link, and the simulate form starts a job (POST /api/simulations) and opens its report page.
   Without scripts every panel simply shows and the print form still downloads. */
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const panels = [...document.querySelectorAll(".action-panel")];
  const buttons = [...document.querySelectorAll("[data-panel]")];

  /** Show the panel `id` (none if it is not one) and mark its button. */
  function show(id, focus) {
    for (const panel of panels) panel.hidden = panel.id !== id;
    for (const button of buttons) {
      const open = button.dataset.panel === id;
      button.classList.toggle("active", open);
      button.setAttribute("aria-expanded", String(open));
    }
    const panel = $(id);
    if (panel && focus) {
      const heading = panel.querySelector("h2");
      heading.tabIndex = -1;
      heading.focus({preventScroll: true});
      panel.scrollIntoView({behavior: "smooth", block: "start"});
    }
  }

  function fromHash(focus) {
    const id = location.hash.slice(1);
    if (panels.some((p) => p.id === id)) show(id, focus);
  }

  function startPanels() {
    if (!panels.length) return;
    const wanted = location.hash.slice(1) || (new URLSearchParams(location.search).has("from") ? "play" : "");
    show(wanted, Boolean(wanted));
    window.addEventListener("hashchange", () => fromHash(true));
    for (const button of buttons) {
      button.addEventListener("click", (event) => {
        if (location.hash === "#" + button.dataset.panel) { event.preventDefault(); show(button.dataset.panel, true); }
      });
    }
  }

  /** The `tablepress print` command that writes the same PDF as the form's choices. */
  function printCommand(form) {
    const name = form.dataset.game;
    const parts = ["tablepress print", name, "-o", `${name}.pdf`];
    const paper = form.elements.paper.value;
    if (paper !== "a4") parts.push("--paper", paper);
    if (form.elements.backs.checked) {
      parts.push("--backs");
      if (form.elements.duplex.value !== "long") parts.push("--duplex", form.elements.duplex.value);
    }
    const bleed = Number(form.elements.bleed.value || 0);
    if (bleed) parts.push("--bleed", String(bleed));
    if (form.elements.ink_saver.checked) parts.push("--ink-saver");
    return parts.join(" ");
  }

  function startPrint() {
    const form = $("print-form");
    if (!form) return;
    const sync = () => {
      form.elements.duplex.disabled = !form.elements.backs.checked;  // duplex only matters for backs
      $("print-command").textContent = printCommand(form);
    };
    form.addEventListener("input", sync);
    form.addEventListener("change", sync);
    sync();
  }

  function startShare() {
    const button = $("copy-link");
    if (!button) return;
    const input = $("share-url");
    button.addEventListener("click", async () => {
      let copied = false;
      try {
        if (navigator.clipboard) { await navigator.clipboard.writeText(input.value); copied = true; }
      } catch (err) { copied = false; }
      if (!copied) {
        input.select();
        try { copied = document.execCommand("copy"); } catch (err) { copied = false; }
      }
      $("copy-done").textContent = copied ? "Copied." : "Select the link and copy it.";
    });
    input.addEventListener("focus", () => input.select());
  }

  /** Seat specs from "greedy, ismcts:200": one a player, the last repeated. */
  function seatSpecs(text, players) {
    const given = text.split(",").map((spec) => spec.trim()).filter(Boolean);
    if (!given.length) return [];
    return Array.from({length: players}, (_, i) => given[Math.min(i, given.length - 1)]);
  }

  function startSimulate() {
    const form = $("simulate-form");
    if (!form) return;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      $("sim-error").textContent = "";
      const players = Number($("sim-players").value);
      const seats = seatSpecs($("sim-seats").value, players);
      if (!seats.length) { $("sim-error").textContent = "seats: name at least one AI player, e.g. greedy"; return; }
      const body = {game: form.dataset.game, games: Number($("sim-games").value), players, seats};
      if ($("sim-seed").value !== "") body.seed = Number($("sim-seed").value);
      $("sim-start").disabled = true;
      const reply = await TP.api("POST", "/api/simulations", body);
      $("sim-start").disabled = false;
      if (!reply.ok) { $("sim-error").textContent = (reply.data && reply.data.detail) || `error ${reply.status}`; return; }
      location.href = `/simulations/${encodeURIComponent(reply.data.id)}`;
    });
  }

  startPanels();
  startPrint();
  startShare();
  startSimulate();
})();
