/* The new-game form of a game's page (player count, options, seats; share links or hot-seat) and the
   list of open and finished games on the catalogue: each part runs where its markup is. */
"use strict";
(() => {
  const {h, api} = TP;
  let catalog = {games: [], agents: []};
  let listTab = "playing";
  let playerGames = new Set();  // games the signed-in player sits at (its seats open by the player cookie)

  const $ = (id) => document.getElementById(id);

  function currentGame() { return catalog.games.find((g) => g.name === $("game").value); }

  /** An option's words for a person: the help's lead-in before a colon ("Young table: no By This ...")
      as the label and the rest as the hint, else the name in words and the whole help. */
  function optionWords(opt) {
    const help = opt.help || "";
    const colon = help.indexOf(": ");
    const named = opt.name.replace(/_/g, " ");
    if (colon > 0 && colon <= 40) return {label: help[0].toUpperCase() + help.slice(1, colon), hint: help.slice(colon + 2)};
    return {label: named[0].toUpperCase() + named.slice(1), hint: help};
  }

  function optionControl(opt) {
    const id = "opt-" + opt.name;
    const words = optionWords(opt);
    const help = h("span", {class: "muted small"}, words.hint);
    if (opt.kind === "bool") {
      return h("label", {class: "inline option"}, h("input", {type: "checkbox", id, name: opt.name, checked: !!opt.default, dataset: {kind: "bool"}}), " ", words.label, words.hint ? " — " : "", help);
    }
    if (opt.kind === "int") {
      return h("label", {class: "option"}, words.label, " ", h("input", {type: "number", id, name: opt.name, value: opt.default, dataset: {kind: "int"}}), " ", help);
    }
    if (opt.kind === "choice") {
      return h("label", {class: "option"}, words.label, " ",
        h("select", {id, name: opt.name, dataset: {kind: "choice"}}, opt.choices.map((c) => h("option", {value: c, selected: c === opt.default}, c))), " ", help);
    }
    // a set: checkboxes, with the required size in the legend
    const chosen = new Set(opt.default || []);
    const box = h("fieldset", {class: "option set", id, dataset: {kind: "set", name: opt.name, size: opt.size || ""}},
      h("legend", {}, words.label, opt.size ? ` (choose ${opt.size})` : ""), help, h("br"),
      opt.choices.map((c) => h("label", {class: "inline"}, h("input", {type: "checkbox", value: c, checked: chosen.has(c)}), " ", c)),
      h("span", {class: "set-count muted small", "aria-live": "polite"}));
    box.addEventListener("change", () => limitSet(box));
    limitSet(box);
    return box;
  }

  /** A set of size N: once N are ticked the others cannot be, and the count says how many are left. */
  function limitSet(box) {
    const size = Number(box.dataset.size || 0);
    if (!size) return;
    const boxes = [...box.querySelectorAll("input[type=checkbox]")];
    const ticked = boxes.filter((b) => b.checked).length;
    for (const b of boxes) b.disabled = !b.checked && ticked >= size;
    box.querySelector(".set-count").textContent = ticked === size ? " ✓" : ` ${ticked} of ${size} chosen`;
    box.classList.toggle("incomplete", ticked !== size);
  }

  /** What a budget means for each AI, shown beside its box. */
  const BUDGET_HELP = {
    greedy: "greedy: how many guesses of the hidden cards it averages each move (default 4)",
    ismcts: "ismcts: search iterations each move (default 300; more plays stronger and slower; at most 5000)",
  };

  function drawOptions() {
    const game = currentGame();
    const box = $("options");
    box.replaceChildren(h("legend", {}, "Options"));
    if (!game.options.length) box.append(h("p", {class: "muted"}, "This game has no options."));
    for (const opt of game.options) box.append(optionControl(opt));
  }

  function drawPlayers() {
    const game = currentGame();
    const select = $("players");
    select.replaceChildren();
    for (let n = game.min_players; n <= game.max_players; n++) {
      select.append(h("option", {value: n, selected: n === game.default_players}, String(n)));
    }
    drawSeats();
  }

  function drawSeats() {
    const count = Number($("players").value);
    const box = $("seats");
    const old = [...box.querySelectorAll(".seat")].map((row) => ({
      kind: row.querySelector("select").value, budget: row.querySelector(".budget").value, name: row.querySelector(".name").value}));
    box.replaceChildren(h("legend", {}, "Seats"));
    for (let i = 0; i < count; i++) {
      const levels = (currentGame() || {}).levels || [];
      const ai = levels.some((l) => l.name === "casual") ? "level:casual" : (catalog.agents.includes("greedy") ? "greedy" : "random");
      const prev = old[i] || {kind: i === 0 ? "human" : ai, budget: "", name: ""};
      const kinds = [...catalog.agents.slice(0, 1).map((a) => [a, "Human"]),
        ...levels.map((l) => [`level:${l.name}`, `AI level: ${l.title}` + (l.rating === null ? "" : ` (rated ${l.rating})`)]),
        ...catalog.agents.slice(1).map((a) => [a, "AI: " + a])];
      const select = h("select", {class: "kind", "aria-label": `seat ${i + 1} player`}, kinds.map(([a, text]) => h("option", {value: a, selected: a === prev.kind}, text)));
      const budget = h("input", {type: "number", min: 1, max: 5000, class: "budget", placeholder: "budget", value: prev.budget, "aria-label": `seat ${i + 1} AI budget`});
      const name = h("input", {type: "text", maxlength: 24, class: "name", placeholder: `name (seat ${i + 1})`, value: prev.name, "aria-label": `seat ${i + 1} name`});
      const sync = () => {
        budget.hidden = !BUDGET_HELP[select.value];
        budget.title = BUDGET_HELP[select.value] || "";
        budget.placeholder = select.value === "ismcts" ? "300" : select.value === "greedy" ? "4" : "budget";
        drawBudgetHelp();
      };
      select.addEventListener("change", sync);
      sync();
      box.append(h("div", {class: "seat", dataset: {seat: i}}, h("span", {class: "seat-no"}, `${i + 1}`), select, budget, name));
    }
    drawBudgetHelp();
  }

  function drawBudgetHelp() {
    const used = new Set([...document.querySelectorAll("#seats select.kind")].map((s) => s.value));
    let note = document.getElementById("budget-help");
    if (!note) {
      note = h("p", {id: "budget-help", class: "muted small"});
      $("seats").after(note);
    }
    note.textContent = [...used].map((kind) => BUDGET_HELP[kind]).filter(Boolean).join(" · ") +
      (used.has("random") ? (used.has("greedy") || used.has("ismcts") ? " · " : "") + "random: any legal move, no budget" : "");
  }

  function readOptions() {
    const options = {};
    for (const opt of currentGame().options) {
      const node = document.getElementById("opt-" + opt.name);
      if (opt.kind === "bool") options[opt.name] = node.checked;
      else if (opt.kind === "int") options[opt.name] = Number(node.value);
      else if (opt.kind === "choice") options[opt.name] = node.value;
      else options[opt.name] = [...node.querySelectorAll("input:checked")].map((c) => c.value);
    }
    return options;
  }

  async function create(event) {
    event.preventDefault();
    $("create-error").textContent = "";
    const unfinished = [...document.querySelectorAll("#options fieldset.set.incomplete")];
    if (unfinished.length) {
      const set = unfinished[0];
      $("create-error").textContent = `${set.querySelector("legend").textContent}: tick exactly ${set.dataset.size}.`;
      return;
    }
    const rows = [...document.querySelectorAll("#seats .seat")];
    const seats = rows.map((row) => {
      const kind = row.querySelector(".kind").value;
      const budget = row.querySelector(".budget").value.trim();
      return kind !== "human" && !kind.includes(":") && budget ? `${kind}:${budget}` : kind;
    });
    const names = rows.map((row, i) => row.querySelector(".name").value.trim() || (seats[i] === "human" ? `Player ${i + 1}` : `Bot ${i + 1} (${seats[i]})`));
    const body = {game: $("game").value, seats, names, options: readOptions()};
    if ($("seed").value !== "") body.seed = Number($("seed").value);
    if ($("variant").value.trim()) body.variant = $("variant").value;
    $("create").disabled = true;
    const reply = await api("POST", "/api/games", body);
    $("create").disabled = false;
    if (!reply.ok) { $("create-error").textContent = reply.data.detail || `error ${reply.status}`; return; }
    const {id, tokens} = reply.data;
    const humans = Object.keys(tokens);
    const hotseat = document.querySelector("input[name=mode]:checked").value === "hotseat";
    if (hotseat || humans.length <= 1) {
      TP.saveTokens(id, tokens);
      location.href = `/play/${id}`;
      return;
    }
    // share links: this browser keeps the first human seat; the others go to friends
    TP.saveTokens(id, {[humans[0]]: tokens[humans[0]]});
    const list = $("share-links");
    list.replaceChildren();
    for (const seat of humans) {
      const url = `${catalog.public_url || location.origin}/play/${id}#seat=${seat}&token=${encodeURIComponent(tokens[seat])}`;
      list.append(h("li", {}, h("b", {}, names[Number(seat)]), seat === humans[0] ? " (you)" : "", ": ",
        h("input", {type: "text", readonly: true, value: url, class: "share-url", dataset: {seat}, onclick: (e) => e.target.select()}),
        h("button", {type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(url)}, "copy")));
    }
    $("open-game").href = `/play/${id}`;
    $("seat-links").hidden = false;
    $("create-form").hidden = true;
  }

  async function refresh() {
    if (document.hidden) return;
    const reply = await api("GET", "/api/games");
    if (!reply.ok) return;
    const rows = reply.data.games.filter((g) => (listTab === "over") === (g.status === "over"));
    const body = document.querySelector("#games tbody");
    body.replaceChildren();
    $("games-empty").hidden = rows.length > 0;
    for (const g of rows) {
      const mine = Object.keys(TP.tokens(g.id)).length > 0 || playerGames.has(g.id);
      const seats = g.names.map((n, i) => {
        const moving = g.status !== "over" && g.to_move.includes(i);
        const score = g.scores ? ` ${g.scores[i]}` : "";
        const star = g.winners && g.winners.includes(i) ? " ★" : "";
        return h("span", {class: "seat-tag" + (moving ? " moving" : "")}, n + score + star);
      });
      const link = g.status === "over" ? "Replay" : (mine ? "Resume" : "Watch");
      body.append(h("tr", {dataset: {id: g.id}},
        h("td", {}, g.title, g.variant ? h("span", {class: "variant-tag"}, ` · variant: ${g.variant}`) : null), h("td", {}, seats),
        h("td", {}, g.status === "over" ? "finished" : `playing · ${g.actions} moves`),
        h("td", {}, h("a", {href: `/play/${g.id}`, class: "button"}, link))));
    }
  }

  function tab(which) {
    listTab = which;
    $("tab-open").classList.toggle("active", which === "playing");
    $("tab-over").classList.toggle("active", which === "over");
    document.querySelector("#games tbody").replaceChildren();  // no rows of the other tab while it loads
    refresh();
  }

  /** "Play again": the same game, seats, names and options as a finished game (a new shuffle). */
  async function prefill(fromId) {
    if (!fromId) return;
    const reply = await api("GET", `/api/games/${encodeURIComponent(fromId)}`);
    if (!reply.ok || !catalog.games.some((g) => g.name === reply.data.game)) return;
    const view = reply.data;
    if (view.game !== $("game").value) return;
    $("players").value = String(view.seats.length);
    drawSeats();
    const rows = [...document.querySelectorAll("#seats .seat")];
    view.seats.forEach((spec, i) => {
      const [kind, budget] = spec.startsWith("level:") ? [spec, ""] : spec.split(":");
      rows[i].querySelector(".kind").value = kind;
      rows[i].querySelector(".kind").dispatchEvent(new Event("change"));
      rows[i].querySelector(".budget").value = budget || "";
      rows[i].querySelector(".name").value = view.names[i] || "";
    });
    for (const opt of currentGame().options) {
      const value = (view.options || {})[opt.name];
      const node = document.getElementById("opt-" + opt.name);
      if (value === undefined || !node) continue;
      if (opt.kind === "bool") node.checked = !!value;
      else if (opt.kind === "set") node.querySelectorAll("input").forEach((box) => { box.checked = value.includes(box.value); });
      else node.value = String(value);
    }
    const humans = view.seats.filter((s) => s === "human").length;
    const held = Object.keys(TP.tokens(fromId)).length;
    if (humans > 1 && held > 1) document.querySelector("input[name=mode][value=hotseat]").checked = true;
  }

  /** The new-game form of the game named by the hidden #game field. */
  async function startForm() {
    const reply = await api("GET", "/api/catalog");
    if (!reply.ok) { $("create-error").textContent = "cannot load the games list"; return; }
    catalog = reply.data;
    if (!currentGame()) { $("create-error").textContent = "this game is not in the catalog"; return; }
    drawOptions();
    drawPlayers();
    $("players").addEventListener("change", drawSeats);
    $("create-form").addEventListener("submit", create);
    await prefill(new URLSearchParams(location.search).get("from"));
    $("create-form").dataset.ready = "1";  // drawn (and filled for "Play again"): tests wait for this
  }

  /** The list of games on the server, refreshed every few seconds while the page is shown. */
  async function startList() {
    $("tab-open").addEventListener("click", () => tab("playing"));
    $("tab-over").addEventListener("click", () => tab("over"));
    if (localStorage.getItem("tp:player")) {  // signed in here (player.js keeps the name, never the token)
      const me = await api("GET", "/api/players/me");
      if (me.ok) playerGames = new Set(me.data.games.map((g) => g.id));
    }
    refresh();
    setInterval(refresh, 4000);
  }

  if ($("create-form")) startForm();
  if ($("games")) startList();
})();
