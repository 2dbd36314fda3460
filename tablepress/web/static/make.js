/* The Make page (/make/{name}[?variant=ID]): edit a game's card data with checks as you type, save it as a
   named variant (public or private), then compare it with the published cards, play it, or print it; list,
   unlist or delete your own saved variants. Someone not signed in is known by the maker token the first save
   answers with, kept in localStorage and sent as X-Maker-Token. */
"use strict";

(() => {
  const {h, api} = TP;
  const $ = (id) => document.getElementById(id);
  const name = decodeURIComponent(location.pathname.split("/").pop());
  const CHECK_DELAY = 400;  // ms after the last keystroke
  const RETRY_DELAY = 3000;  // ms before checking again after the server said 429
  let info = null;          // the catalogue's entry for the game
  let published = "";       // the published cards.toml
  let saved = null;         // {id, name, toml} of the variant the Try it panel uses
  let checked = 0;          // the number of the newest check sent (older replies are dropped)
  let timer = null;
  let stopWatching = null;
  const MAKER_KEY = "tp:maker-token";
  let pageToken = null;     // the maker token, where localStorage is refused

  function makerToken() {
    try { return localStorage.getItem(MAKER_KEY) || pageToken; } catch (err) { return pageToken; }
  }

  /** TP.api with this browser's maker token (the player cookie goes along by itself). */
  function call(method, path, body) {
    const token = makerToken();
    return TP.api(method, path, body, null, token ? {"X-Maker-Token": token} : {});
  }

  /** The saved variants listed to this browser: the start menu (everyone's listed ones and yours) and
      "Your saved variants", each with its visibility switch and Delete button. */
  async function listVariants() {
    const reply = await call("GET", `/api/variants?game=${encodeURIComponent(name)}`);
    if (!reply.ok) return;
    const chosen = $("start").value;
    const variants = reply.data.variants;
    $("start").replaceChildren(h("option", {value: ""}, "the published cards"),
      ...variants.map((v) => h("option", {value: v.id}, v.public ? v.name : `${v.name} (private)`)));
    if (chosen && !variants.some((v) => v.id === chosen)) $("start").append(h("option", {value: chosen}, saved && saved.id === chosen ? saved.name : chosen));
    $("start").value = chosen;
    const mine = variants.filter((v) => v.mine);
    $("my-variants").replaceChildren(...mine.map(myVariant));
    $("mine").hidden = !mine.length;
  }

  function myVariant(variant) {
    const box = h("input", {type: "checkbox"});
    box.checked = variant.public;
    box.addEventListener("change", () => setPublic(variant, box));
    return h("li", {"data-id": variant.id},
      h("span", {class: "v-name"}, variant.name),
      h("label", {}, box, " Public (listed)", h("span", {class: "sr-only"}, ` — ${variant.name}`)),
      h("button", {type: "button", class: "delete", onclick: () => remove(variant)},
        "Delete", h("span", {class: "sr-only"}, ` ${variant.name}`)));
  }

  async function setPublic(variant, box) {
    box.disabled = true;
    const reply = await call("PATCH", `/api/variants/${encodeURIComponent(variant.id)}`, {public: box.checked});
    box.disabled = false;
    if (!reply.ok) {
      box.checked = !box.checked;
      $("mine-status").textContent = reply.data.detail || `error ${reply.status}`;
      return;
    }
    await listVariants();
    $("mine-status").textContent = reply.data.public ? `“${variant.name}” is listed for everyone.`
      : `“${variant.name}” is private: only its link opens it.`;
  }

  async function remove(variant) {
    if (!confirm(`Delete the variant “${variant.name}”? Games already played with it keep their cards.`)) return;
    const reply = await call("DELETE", `/api/variants/${encodeURIComponent(variant.id)}`);
    if (!reply.ok) { $("mine-status").textContent = reply.data.detail || `error ${reply.status}`; return; }
    if (saved && saved.id === variant.id) {
      saved = null;
      $("tools").hidden = true;
      $("saved").textContent = "Save the variant to compare, play or print it.";
      $("start").value = "";
      const url = new URL(location.href);
      url.searchParams.delete("variant");
      history.replaceState(null, "", url);
    }
    await listVariants();
    $("mine-status").textContent = `Deleted “${variant.name}”.`;
  }

  function gutter(bad) {
    const lines = $("toml").value.split("\n").length;
    const nodes = [];
    for (let n = 1; n <= lines; n++) nodes.push(n === bad ? h("span", {class: "bad"}, String(n)) : String(n), "\n");
    $("gutter").replaceChildren(...nodes);
    $("gutter").scrollTop = $("toml").scrollTop;
  }

  function show(kind, text, line) {
    $("check").className = `check ${kind}`;
    $("check").replaceChildren(text);
    if (line) $("check").append(" ", h("button", {type: "button", class: "small", id: "show-line", onclick: () => goToLine(line)}, `Show line ${line}`));
    gutter(line);
  }

  function goToLine(line) {
    const box = $("toml");
    const lines = box.value.split("\n");
    const start = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0);
    box.focus();
    box.setSelectionRange(start, start + (lines[line - 1] || "").length);
    box.scrollTop = Math.max(0, (line - 4) * parseFloat(getComputedStyle(box).lineHeight));
    $("gutter").scrollTop = box.scrollTop;
  }

  function shown(value) {
    return typeof value === "string" ? value : JSON.stringify(value);
  }

  function listChanges(changes) {
    const body = $("changes").querySelector("tbody");
    body.replaceChildren(...changes.map((c) => h("tr", {},
      h("td", {}, c.field), h("td", {class: "num"}, c.old === null ? "—" : shown(c.old)), h("td", {class: "num"}, shown(c.new)))));
    $("changes").hidden = !changes.length;
  }

  async function check() {
    const number = ++checked;
    if ($("toml").value === published) {
      show("busy", "These are the published cards: change any value to make a variant.");
      listChanges([]);
      markUnsaved();
      return;
    }
    show("busy", "Checking…");
    const reply = await api("POST", "/api/variants?dry_run=1", {game: name, toml: $("toml").value});
    if (number !== checked) return;
    if (reply.status === 429) {  // many checks in a row: wait, then check the text as it is then
      show("busy", "Many checks in a row: checking again in a moment…");
      clearTimeout(timer);
      timer = setTimeout(check, RETRY_DELAY);
      return;
    }
    if (reply.ok) {
      const count = reply.data.changes.length;
      show("ok", `✓ The variant checks: ${count} change${count === 1 ? "" : "s"} from the published cards.`);
      listChanges(reply.data.changes);
    } else {
      const line = reply.data.line;
      const detail = reply.data.detail || `error ${reply.status}`;
      show("bad", line && !detail.startsWith("line ") ? `Line ${line}: ${detail}` : detail.replace(/^line/, "Line"), line);
      listChanges([]);
    }
    markUnsaved();
  }

  function edited() {
    gutter();
    clearTimeout(timer);
    timer = setTimeout(check, CHECK_DELAY);
  }

  function markUnsaved() {
    if (!saved) return;
    const same = $("toml").value === saved.toml;
    $("saved").textContent = same ? `Variant “${saved.name}” (saved).`
      : `Variant “${saved.name}” is saved; your newer edits are not — save them to try them.`;
  }

  function useSaved(variant) {
    saved = variant;
    $("tools").hidden = false;
    $("print").href = `/games/${encodeURIComponent(name)}/print.pdf?variant=${encodeURIComponent(variant.id)}`;
    $("share-variant").href = `/games/${encodeURIComponent(name)}/intro?variant=${encodeURIComponent(variant.id)}`;
    const url = new URL(location.href);
    url.searchParams.set("variant", variant.id);
    history.replaceState(null, "", url);
    markUnsaved();
  }

  async function save(event) {
    event.preventDefault();
    $("save-error").textContent = "";
    $("save").disabled = true;
    const body = {game: name, name: $("name").value, toml: $("toml").value, public: $("public").checked};
    const reply = await call("POST", "/api/variants", body);
    $("save").disabled = false;
    if (!reply.ok) {
      $("save-error").textContent = reply.data.detail || `error ${reply.status}`;
      return;
    }
    if (reply.data.maker_token) {
      pageToken = reply.data.maker_token;
      try { localStorage.setItem(MAKER_KEY, pageToken); } catch (err) { /* kept for this page only */ }
    }
    const variant = {id: reply.data.id, name: $("name").value.trim(), toml: body.toml};
    $("start").append(h("option", {value: variant.id}, variant.name));
    $("start").value = variant.id;
    useSaved(variant);
    await listVariants();
  }

  async function start() {
    const id = $("start").value;
    if (!id) {
      $("toml").value = published;
      edited();
      return;
    }
    const reply = await api("GET", `/api/variants/${encodeURIComponent(id)}`);
    if (!reply.ok) { show("bad", reply.data.detail || `error ${reply.status}`); return; }
    $("toml").value = reply.data.toml;
    $("name").value = reply.data.name;
    useSaved({id: reply.data.id, name: reply.data.name, toml: reply.data.toml});
    edited();
  }

  function seatsOf(players, ai) {
    return Array.from({length: players}, () => ai);
  }

  async function compare() {
    $("compare-error").textContent = "";
    const body = {game: name, games: Number($("sim-games").value), players: Number($("sim-players").value),
      seats: seatsOf(Number($("sim-players").value), $("sim-seats").value), compare: saved.id};
    if ($("sim-seed").value !== "") body.seed = Number($("sim-seed").value);
    $("compare").disabled = true;
    const reply = await api("POST", "/api/simulations", body);
    $("compare").disabled = false;
    if (!reply.ok) { $("compare-error").textContent = reply.data.detail || `error ${reply.status}`; return; }
    const id = reply.data.id;
    $("compare-run").hidden = false;
    $("compare-report").hidden = true;
    $("compare-report").href = `/simulations/${id}`;
    if (stopWatching) stopWatching();
    stopWatching = watchSimulation(id, (status) => {
      $("compare-progress").max = status.games;
      $("compare-progress").value = status.done;
      $("compare-status").textContent = simulationText(status);
      if (status.status === "failed") $("compare-error").textContent = status.error;
      $("compare-report").hidden = status.status !== "done";
    });
  }

  async function play() {
    $("play-error").textContent = "";
    const players = Number($("play-players").value);
    const seats = ["human", ...seatsOf(players - 1, $("play-ai").value)];
    $("play").disabled = true;
    const reply = await api("POST", "/api/games", {game: name, seats, variant: saved.id});
    $("play").disabled = false;
    if (!reply.ok) { $("play-error").textContent = reply.data.detail || `error ${reply.status}`; return; }
    TP.saveTokens(reply.data.id, reply.data.tokens);
    location.href = `/play/${reply.data.id}`;
  }

  function playerChoices(select, low, preferred) {
    select.replaceChildren();
    for (let n = low; n <= info.max_players; n++) select.append(h("option", {value: n}, String(n)));
    select.value = String(Math.max(low, Math.min(info.max_players, preferred)));
  }

  async function init() {
    const [catalog, cards] = await Promise.all([
      api("GET", "/api/catalog"), api("GET", `/api/cards/${encodeURIComponent(name)}`)]);
    info = catalog.ok ? catalog.data.games.find((g) => g.name === name) : null;
    if (!info || !cards.ok) {
      show("bad", (cards.data && cards.data.detail) || `no game ${name}`);
      $("toml").disabled = true;
      $("save").disabled = true;
      return;
    }
    document.title = `Make ${info.title} — tablepress`;
    $("title").textContent = info.title;
    $("game-link").href = `/games/${encodeURIComponent(name)}`;
    published = cards.data.toml;
    await listVariants();
    playerChoices($("sim-players"), info.min_players, info.default_players);
    playerChoices($("play-players"), info.min_players, info.default_players);
    $("toml").addEventListener("input", edited);
    $("toml").addEventListener("scroll", () => { $("gutter").scrollTop = $("toml").scrollTop; });
    $("start").addEventListener("change", start);
    $("save-form").addEventListener("submit", save);
    $("compare").addEventListener("click", compare);
    $("play").addEventListener("click", play);
    const wanted = new URLSearchParams(location.search).get("variant");
    if (wanted && ![...$("start").options].some((o) => o.value === wanted)) {
      $("start").append(h("option", {value: wanted}, wanted));
    }
    $("start").value = wanted || "";
    await start();
  }

  init();
})();
