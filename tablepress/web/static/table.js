/* The table: live views over a WebSocket per held seat (polling if it drops), the game drawn by its
   renderer (its folder's web.js) or generically, every legal move clickable, scores, log, rules,
   hot-seat curtain between human seats, the final breakdown and a step-by-step replay.

   Seats this page holds: a seat token from a share link (#seat=N&token=T) or from creating the game is
   anonymous — the link is the seat — so it is kept in localStorage to come back to the game. A signed-in
   player's seat is held by the player's HttpOnly cookie instead: the server answers a request without a
   token with the cookie's seat (web/seats.py), so that seat is marked here with a null token, only in
   memory, and its requests and WebSocket simply carry no token. The player's token is never stored. */
"use strict";
(() => {
  const {h, api} = TP;
  const $ = (id) => document.getElementById(id);
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());

  const st = {
    tokens: {},          // seat -> token held by this browser
    views: {},           // seat (or "spectator") -> latest view
    shown: null,         // the seat whose view is on screen (null: spectator)
    curtain: false,
    busy: false,
    renderer: null,
    replay: null,        // {step, steps, view} while replaying
    playTimer: null,
    lastVersion: -1,
    sockets: [],
  };

  // ----- seats and tokens --------------------------------------------------------------------
  function readFragment() {
    const params = new URLSearchParams(location.hash.slice(1));
    if (params.has("seat") && params.has("token")) {
      TP.saveTokens(gameId, {[params.get("seat")]: params.get("token")});
      history.replaceState(null, "", location.pathname);
    }
  }

  const mySeats = () => Object.keys(st.tokens).map(Number).sort((a, b) => a - b);
  const key = (seat) => (seat === null ? "spectator" : String(seat));

  function latest() {
    let best = null;
    for (const view of Object.values(st.views)) if (!best || (view.revision || 0) > (best.revision || 0)) best = view;
    return best;
  }

  function pickSeat(view) {
    const seats = mySeats();
    if (!seats.length) return null;
    if (st.shown !== null && view.to_move.includes(st.shown)) return st.shown;
    const moving = seats.find((s) => view.to_move.includes(s));
    if (moving !== undefined) return moving;
    return st.shown !== null ? st.shown : seats[0];
  }

  // ----- live connection -----------------------------------------------------------------------
  function connect(seat) {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const query = seat === null || !st.tokens[seat] ? "" : `?token=${encodeURIComponent(st.tokens[seat])}`;
    let socket;
    const open = () => {
      socket = new WebSocket(`${proto}//${location.host}/ws/games/${encodeURIComponent(gameId)}${query}`);
      socket.onopen = () => {
        $("conn").classList.add("live");
        if (!$("offline").hidden) { $("offline").hidden = true; toast("Reconnected."); poll(seat); }
      };
      socket.onmessage = (event) => {
        try {
          const data = JSON.parse(event.data);
          receive(seat, data);
        } catch (err) { console.error(err); }
      };
      socket.onclose = (event) => {
        $("conn").classList.remove("live");
        if (event.code === 4404) { status("No such game."); return; }
        if (event.code === 4403) { dropSeat(seat); return; }
        $("offline").hidden = false;
        setTimeout(() => { poll(seat); open(); }, 1500);
      };
    };
    open();
    st.sockets.push(() => socket);
  }

  async function poll(seat) {
    const reply = await api("GET", `/api/games/${encodeURIComponent(gameId)}`, undefined, seat === null ? null : st.tokens[seat]);
    if (reply.ok) receive(seat, reply.data);
    else if (reply.status === 404) status("No such game.");
    else if (reply.status === 403 && seat !== null) dropSeat(seat);
  }

  /** A seat's token no longer works (a wrong link, or the seat went to an AI): forget it and watch instead. */
  function dropSeat(seat) {
    if (!(seat in st.tokens) || st.leaving === seat) return;
    TP.forgetToken(gameId, seat);
    sessionStorage.setItem(`tp-broken-${gameId}`, String(seat));
    location.replace(location.pathname);
  }

  function receive(seat, view) {
    const old = st.views[key(seat)];
    if (old && (old.revision || 0) > (view.revision || 0)) return;  // an older answer overtaken by a push
    st.views[key(seat)] = view;
    update();
    if (!view.rematch) st.beforeRematch = true;  // a rematch begun while this page is open takes its seats along
    else if (view.status === "over" && st.beforeRematch) rematchOffered(view.rematch);
  }

  // ----- acting --------------------------------------------------------------------------------
  async function act(action) {
    if (st.busy || st.replay || st.curtain || st.shown === null) return;
    st.busy = true;
    document.body.classList.add("busy");
    const reply = await api("POST", `/api/games/${encodeURIComponent(gameId)}/actions`, {action}, st.tokens[st.shown]);
    st.busy = false;
    document.body.classList.remove("busy");
    if (reply.ok) { receive(st.shown, reply.data); return; }
    toast(reply.data && reply.data.detail ? reply.data.detail : `error ${reply.status}`);
  }

  async function undo() {
    if (st.busy || st.replay || st.curtain || st.shown === null) return;
    st.busy = true;
    const reply = await api("POST", `/api/games/${encodeURIComponent(gameId)}/undo`, undefined, st.tokens[st.shown]);
    st.busy = false;
    if (reply.ok) { st.lastVersion = reply.data.version; receive(st.shown, reply.data); return; }
    toast(reply.data && reply.data.detail ? reply.data.detail : `error ${reply.status}`);
  }

  function toast(text) {
    const node = $("toast");
    node.textContent = text;
    node.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { node.hidden = true; }, 3500);
  }

  /** A seat link that did not work, said once after the page reloaded as a spectator. */
  function sayBrokenLink() {
    const seat = sessionStorage.getItem(`tp-broken-${gameId}`);
    if (seat === null) return;
    sessionStorage.removeItem(`tp-broken-${gameId}`);
    const lent = JSON.parse(localStorage.getItem(`tp-lent-${gameId}`) || "null");
    if (lent && String(lent.seat) === seat) return;  // handed to an AI on purpose: "Take my seat back" says so
    $("broken").textContent = `The link for seat ${Number(seat) + 1} does not work: it is mistyped, or that seat was handed to an AI. ` +
      "You are watching the game; ask whoever created it for a fresh link.";
    $("broken").hidden = false;
  }

  // ----- your turn: a sound and a notification (opt-in), and scrolling to what changed -------------
  const turn = {was: false};

  function beep() {
    try {
      const audio = new (window.AudioContext || window.webkitAudioContext)();
      const tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = 660; gain.gain.value = 0.08;
      tone.connect(gain).connect(audio.destination);
      tone.start(); tone.stop(audio.currentTime + 0.18);
    } catch (err) { /* no audio here */ }
  }

  function yourTurn(view, mine) {
    const became = mine && !turn.was;
    turn.was = mine;
    if (became && $("notify").checked) {
      beep();
      if (document.hidden && "Notification" in window && Notification.permission === "granted") {
        new Notification(`Your turn — ${view.title}`, {body: `${view.names[view.seat]}, it is your move.`, tag: gameId});
      }
    }
    if (became) {
      const target = document.querySelector("#board .last-move") || document.querySelector("#board .prompt");
      if (target && target.getBoundingClientRect().top > innerHeight) target.scrollIntoView({block: "center", behavior: "smooth"});
    }
    if (view.status === "over" && !turn.ended) {
      turn.ended = true;
      setTimeout(() => {
        $("final").style.scrollMarginTop = `${$("status").offsetHeight + 8}px`;  // not under the pinned bar
        $("final").scrollIntoView({block: "start", behavior: "smooth"});
      }, 50);
    }
  }

  function setupNotify() {
    const box = $("notify");
    box.checked = localStorage.getItem("tp-notify") === "1";
    box.addEventListener("change", async () => {
      localStorage.setItem("tp-notify", box.checked ? "1" : "0");
      if (box.checked && "Notification" in window && Notification.permission === "default") {
        try { await Notification.requestPermission(); } catch (err) { /* refused */ }
      }
    });
  }

  function status(text, cls) {
    const node = $("status");
    node.textContent = text;
    node.className = "status" + (cls ? " " + cls : "");
  }

  // ----- drawing -------------------------------------------------------------------------------
  function update() {
    if (st.replay) return;
    const view0 = latest();
    if (!view0) return;
    const seat = pickSeat(view0);
    if (mySeats().length > 1 && st.shown !== null && seat !== st.shown && view0.status !== "over") {
      st.curtain = true;
      $("curtain-text").textContent = `Pass the screen to ${view0.names[seat]}.`;
      $("curtain-go").textContent = `I am ${view0.names[seat]} — show my cards`;
      $("curtain").dataset.seat = seat;
    }
    if (!st.curtain) st.shown = seat;
    $("curtain").hidden = !st.curtain;
    document.body.classList.toggle("curtained", st.curtain);
    if (st.curtain) {  // nothing of the previous seat stays on the page
      $("board").replaceChildren();
      $("moves").replaceChildren();
      return;
    }
    const view = st.views[key(st.shown)] || view0;
    draw(view, false);
  }

  /** An AI seat's name, with its level when it plays one and its name does not say so ("Ann (Strong)"). */
  function thinker(view, s) {
    const name = view.names[s], spec = view.seats[s] || "";
    if (!spec.startsWith("level:")) return name;
    const level = spec.slice(6);
    const title = level.charAt(0).toUpperCase() + level.slice(1).replace(/-/g, " ");
    return name.toLowerCase().includes(level) ? name : `${name} (${title})`;
  }

  /** " (variant: NAME)" for a game played with a variant's cards, else "". */
  const variantNote = (view) => (view.variant ? ` (variant: ${view.variant.name})` : "");

  /** The header's game facts: "Pressed · variant: NAME · rated · ID · Ana" ("watching" for a spectator). */
  function drawHeader(view) {
    const facts = [view.title];
    if (view.variant) facts.push(`variant: ${view.variant.name}`);
    if (typeof view.rated === "boolean") {
      facts.push(h("span", {id: "rated-mark", dataset: {rated: view.rated ? "1" : "0"},
        title: view.rated ? "this game's end moves its people's ratings" : "this game moves no rating"},
        view.rated ? "rated" : "unrated"));
    }
    facts.push(view.id, view.seat !== null && view.seat !== undefined ? view.names[view.seat] : "watching");
    $("title").replaceChildren(...facts.flatMap((fact, i) => (i ? [" · ", fact] : [fact])));
  }

  /** Whether the game as `view` shows it waits on a seat this browser holds. */
  const waitsOnMe = (view) => !!view && view.status === "playing" &&
    view.to_move.some((s) => view.seats[s] === "human" && mySeats().includes(s));

  /** The tab's title, as on the rest of the site: "Pressed — Table Press", and "(2) Your turn — Pressed —
   * Table Press" while 2 of the player's games wait on the player, this one (live) among them (turns.js). */
  function pageTitle(view, replaying) {
    const plain = `${view.title} — Table Press`;
    const mine = waitsOnMe(replaying ? latest() : view);
    if (TP.turns) TP.turns.atTable(gameId, mine, plain);
    else document.title = mine ? `(1) Your turn — ${plain}` : plain;
  }

  /** A signed-in player's other games count in the title too: follow them (a cookie seat here, or a player
   * this browser knows). */
  function followMyGames() {
    const player = TP.player && TP.player.get();
    if (TP.turns && (player || Object.values(st.tokens).includes(null))) TP.turns.follow(() => {});
  }

  function describe(view) {
    if (view.status === "over") {
      const winners = (view.winners || []).map((s) => view.names[s]);
      return (winners.length ? `Game over — ${winners.join(" and ")} ${winners.length > 1 ? "share the win" : "wins"}` : "Game over") +
        `${variantNote(view)}.`;
    }
    const mine = view.seat !== null && view.to_move.includes(view.seat);
    const others = view.to_move.filter((s) => s !== view.seat).map((s) => view.seats[s] !== "human" ? thinker(view, s) + " is thinking…" : view.names[s]);
    if (mine) return `Your turn, ${view.names[view.seat]}` + (others.length ? ` (also to move: ${others.join(", ")})` : "") + ".";
    const ai = view.to_move.filter((s) => view.seats[s] !== "human");
    if (ai.length && ai.length === view.to_move.length) return `${ai.map((s) => thinker(view, s)).join(", ")} ${ai.length > 1 ? "are" : "is"} thinking…`;
    return `Waiting for ${view.to_move.map((s) => view.names[s]).join(", ")}.`;
  }

  function label(action, view) {
    try { if (st.renderer && st.renderer.label) return st.renderer.label(action, view) || action; } catch (err) { console.error(err); }
    return action;
  }

  function draw(view, replaying) {
    drawHeader(view);
    const mine = !replaying && view.status === "playing" && view.seat !== null && view.to_move.includes(view.seat);
    pageTitle(view, replaying);
    const news = replaying || view.status === "over" ? "" : othersMove(view);
    status(replaying ? `Replay — step ${view.step} of ${view.steps}` : news + describe(view), mine ? "your-turn" : (view.status === "over" ? "over" : ""));
    if (!replaying) yourTurn(view, mine);
    const legal = replaying ? [] : view.legal_actions || [];
    const ui = {
      seat: view.seat, names: view.names, legal, legalSet: new Set(legal), interactive: mine && !st.curtain,
      h, s: TP.s, card: TP.card, tree: TP.tree, game: view.game,
      /** A card's face as this game plays it: a variant's cards are drawn from the variant's data. */
      face: (game, key, opts = {}) => TP.face(game, key, view.variant ? Object.assign({}, opts, {gameId: view.id}) : opts),
      act, label: (a) => label(a, view), redraw: () => draw(view, replaying), version: view.revision ?? view.version,
      /** Mark `node` as the control for `action` when that action is legal now. */
      clickable(node, action) {
        if (this.legalSet.has(action)) {
          node.dataset.action = action; node.classList.add("legal"); node.setAttribute("tabindex", "0"); node.setAttribute("role", "button");
          const hint = this.hint(action);
          if (hint) { node.dataset.hint = hint; node.setAttribute("aria-label", `${label(action, view)}: ${hint}`); }
        }
        return node;
      },
      /** What `action` would do for this seat ("+3", "shelf worth 7"), worked out by the game; "" if unknown. */
      hint(action) {
        const found = (view.hints || {})[action];
        return found ? found.text : "";
      },
    };
    const board = $("board");
    const focus = focusOnTable();
    board.replaceChildren();
    board.classList.toggle("interactive", ui.interactive);
    try {
      if (st.renderer) st.renderer.render(view, Object.assign(ui, {board}));
      else board.append(genericBoard(view));
    } catch (err) {
      console.error(err);
      board.replaceChildren(h("p", {class: "error"}, "This game's drawing failed; the generic view follows."), genericBoard(view));
    }
    $("leave").hidden = replaying || view.status !== "playing" || view.seat === null || view.seat === undefined;
    drawMoves(view, legal, mine);
    nameShowsText(board);
    nameShowsText($("moves"));
    drawScores(view);
    drawLog(view);
    drawFinal(view, replaying);
    keepFocus(focus);
    document.dispatchEvent(new CustomEvent("tp:drawn", {detail: {view, replaying, label: (a) => label(a, view)}}));
  }

  /** Each control's spoken name holds the words it shows (WCAG 2.5.3, "label in name"): a name a game gave
   * that lacks the control's visible text ("By This: New to Old: shelf worth 1" on a pile reading "face up")
   * gets it added ("…, face up"). */
  function nameShowsText(root) {
    for (const node of root.querySelectorAll("[data-action][aria-label]")) {
      const shown = (node.innerText || "").replace(/\s+/g, " ").trim();
      const name = node.getAttribute("aria-label");
      if (shown && !name.toLowerCase().includes(shown.toLowerCase())) node.setAttribute("aria-label", `${name}, ${shown}`);
    }
  }

  /** Where the keyboard focus is, if on the table (the board or the moves), before they are drawn again. */
  function focusOnTable() {
    const node = document.activeElement;
    if (!node || !($("board").contains(node) || $("moves").contains(node))) return null;
    return {node, action: node.dataset ? node.dataset.action : undefined};
  }

  /** After a redraw the focus stays on the table: on the same move if it is still there, else on the first
      legal move, else on the board itself (never back at the top of the page). */
  function keepFocus(focus) {
    if (!focus || document.body.contains(focus.node) && !focus.node.closest("[hidden]")) return;
    const same = focus.action && [...document.querySelectorAll("#board [data-action], #moves [data-action]")]
      .find((node) => node.dataset.action === focus.action && !node.closest("[hidden]"));
    const next = same || document.querySelector("#board [data-action]") || $("board");
    next.focus({preventScroll: true});
  }

  /** The last move when another seat made it since this page last drew: "Bo picked column 1. " (else ""). */
  function othersMove(view) {
    if (st.news && st.news.version === view.version) return st.news.text;
    const entries = view.log || [];
    const last = entries[entries.length - 1];
    let text = "";
    if (st.lastVersion >= 0 && last && last.seat !== view.seat) {
      text = logLines(last, view.names).map((line) => line.text).join(" — ");
      text = /[.!?]$/.test(text) ? `${text} ` : `${text}. `;
    }
    st.news = {version: view.version, text};
    return text;
  }

  function genericBoard(view) {
    const zones = Array.isArray((view.public || {}).zones) ? view.public.zones : null;
    const rest = (part) => Object.fromEntries(Object.entries(part || {}).filter(([k]) => !zones || k !== "zones"));
    const mine = rest(view.private);
    return h("div", {class: "generic"}, zones ? zones.map((zone) => zoneRow(view, zone)) : null,
      h("h3", {}, "Table"), TP.tree(rest(view.public)),
      Object.keys(mine).length ? [h("h3", {}, "Yours only"), TP.tree(mine)] : null);
  }

  /** One pile of a game with zones (core/zones.py) as the seat sees it: a face for each card it may see,
      backs for the rest (counted past six); its private view's copy where it sees more. */
  function zoneRow(view, zone) {
    const place = (z) => `${z.zone}|${z.seat ?? ""}|${z.pile ?? ""}`;
    const own = ((view.private || {}).zones || []).find((z) => place(z) === place(zone));
    const cards = (own || zone).cards;
    const hidden = cards.filter((c) => c === null).length;
    const faces = cards.filter((c) => c !== null).map((name) => TP.face(view.game, name,
      {w: 72, label: name, fallback: () => TP.card({title: name, w: 72, h: 101, label: name})}));
    const backs = Array.from({length: Math.min(hidden, 6)}, () => TP.card({back: true, w: 48, h: 67}));
    const who = Number.isInteger(zone.seat) ? ` · ${view.names[zone.seat] ?? `seat ${zone.seat + 1}`}` : "";
    const title = `${zone.zone[0].toUpperCase()}${zone.zone.slice(1)}${zone.pile ? ` ${zone.pile}` : ""}${who}`;
    return h("section", {class: "zone" + (own ? " mine" : "")}, h("div", {class: "zone-title"}, title),
      h("div", {class: "row"}, faces, backs, hidden > 6 ? h("span", {class: "muted"}, `${hidden} face down`) : null,
        cards.length ? null : h("span", {class: "muted"}, "empty")));
  }

  function drawMoves(view, legal, mine) {
    const box = $("moves");
    box.replaceChildren();
    $("moves-panel").hidden = !mine;
    if (!mine) return;
    for (const action of legal) {
      const hint = ((view.hints || {})[action] || {}).text;
      box.append(h("button", {type: "button", class: "move", dataset: {action}, title: action}, label(action, view),
        hint ? h("span", {class: "hint"}, hint) : null));
    }
    if (view.can_undo) box.append(h("button", {type: "button", id: "undo", class: "undo", onclick: undo}, "↶ Undo"));
  }

  function drawScores(view) {
    const table = $("scores");
    table.replaceChildren();
    let scores = view.scores;
    if (!Array.isArray(scores) && st.renderer && st.renderer.scores) {
      try { scores = st.renderer.scores(view); } catch (err) { scores = null; }
    }
    view.names.forEach((name, seat) => {
      const score = Array.isArray(scores) ? scores[seat] : "—";
      const moving = view.status === "playing" && view.to_move.includes(seat);
      const win = (view.winners || []).includes(seat);
      table.append(h("tr", {class: (moving ? "moving " : "") + (seat === view.seat ? "me" : "")},
        h("td", {}, moving ? "▶" : ""), h("td", {}, name, seat === view.seat ? " (you)" : "", win ? " ★" : ""),
        h("td", {class: "num", dataset: {seat}}, String(score ?? "—"))));
    });
  }

  /* The log reads as sentences the server narrated from views ("Ana planted Hydrangea in column 5 for 15");
     reveals, round ends and the end of the game stand out. */
  function logLines(entry, names) {
    if (entry.lines && entry.lines.length) return entry.lines;
    return [{kind: "move", seat: entry.seat, text: `${names[entry.seat]} ${entry.text}`}];
  }

  /** Above the log, for a game played with a variant: "Variant: NAME" and what it changes. */
  function drawVariant(view) {
    let note = $("log-variant");
    if (!view.variant) { if (note) note.remove(); return; }
    if (!note) { note = h("p", {id: "log-variant", class: "log-variant"}); $("log").before(note); }
    const changes = (view.variant.changes || []).map((c) => c.text);
    const named = h("b", {}, `variant: ${view.variant.name}`);
    note.replaceChildren(view.variant.id
      ? h("a", {href: `/games/${encodeURIComponent(view.game)}/intro?variant=${encodeURIComponent(view.variant.id)}`}, named) : named,
      changes.length ? ` — ${changes.slice(0, 6).join("; ")}${changes.length > 6 ? `; and ${changes.length - 6} more` : ""}` : "");
  }

  function drawLog(view) {
    drawVariant(view);
    const list = $("log");
    list.replaceChildren();
    const entries = view.log || [];
    entries.forEach((entry, i) => {
      for (const line of logLines(entry, view.names)) {
        list.append(h("li", {class: `log-${line.kind}` + (i === entries.length - 1 ? " last" : ""), dataset: {move: entry.n}}, line.text));
      }
    });
    list.scrollTop = list.scrollHeight;
    if (!st.replay) st.lastVersion = view.version;
  }

  function drawFinal(view, replaying) {
    const panel = $("final");
    panel.hidden = view.status !== "over" || replaying;
    if (panel.hidden) return;
    const parts = view.breakdown || [];
    const keys = [];
    for (const part of parts) for (const [k, v] of Object.entries(part)) {
      if (k !== "total" && (typeof v === "number" || typeof v === "string") && !keys.includes(k)) keys.push(k);
    }
    const table = h("table", {class: "breakdown", id: "final-scores"},
      h("thead", {}, h("tr", {}, h("th", {}, "player"), keys.map((k) => h("th", {}, k.replace(/_/g, " "))), h("th", {}, "total"))),
      h("tbody", {}, parts.map((part, seat) => h("tr", {class: (view.winners || []).includes(seat) ? "winner" : ""},
        h("td", {}, view.names[seat], (view.winners || []).includes(seat) ? " ★" : ""),
        keys.map((k) => h("td", {class: typeof part[k] === "number" ? "num" : ""}, part[k] === undefined ? "" : String(part[k]))),
        h("td", {class: "num total"}, String(part.total))))));
    const nested = (part) => Object.entries(part).filter(([, v]) => v && typeof v === "object");
    const details = parts.some((p) => nested(p).length)
      ? h("details", {}, h("summary", {}, "Details"), h("div", {class: "detail-grid"}, parts.map((part, seat) =>
          h("div", {class: "detail"}, h("h4", {}, view.names[seat]), nested(part).map(([k, v]) => [h("h5", {}, k.replace(/_/g, " ")), detailTable(v)])))))
      : null;
    $("final-table").replaceChildren(table, details || "");
    $("rematch").href = `/?game=${encodeURIComponent(view.game)}&from=${encodeURIComponent(view.id)}`;
    $("rematch").textContent = mySeats().length ? (view.rematch ? "Go to the rematch" : "Rematch (same players)") : "Play again";
    $("rematch").onclick = mySeats().length ? (event) => { event.preventDefault(); askRematch(); } : null;
  }

  /** A list of records as a small table (other values as a tree). */
  function detailTable(value) {
    if (!Array.isArray(value) || !value.length || !value.every((v) => v && typeof v === "object" && !Array.isArray(v))) return TP.tree(value);
    const keys = [...new Set(value.flatMap((v) => Object.keys(v)))];
    return h("table", {class: "detail-table"},
      h("thead", {}, h("tr", {}, keys.map((k) => h("th", {}, k.replace(/_/g, " "))))),
      h("tbody", {}, value.map((row) => h("tr", {}, keys.map((k) => h("td", {class: typeof row[k] === "number" ? "num" : ""},
        row[k] === undefined || row[k] === null ? "" : typeof row[k] === "object" ? JSON.stringify(row[k]) : String(row[k])))))));
  }

  // ----- replay --------------------------------------------------------------------------------
  async function replayTo(step) {
    const token = st.shown === null ? null : st.tokens[st.shown];
    const reply = await api("GET", `/api/games/${encodeURIComponent(gameId)}/replay?step=${step}`, undefined, token);
    if (!reply.ok) { toast(reply.data.detail || "replay unavailable"); return; }
    st.replay = reply.data;
    $("replay-bar").hidden = false;
    $("rp-step").textContent = `${reply.data.step} / ${reply.data.steps}`;
    draw(reply.data, true);
  }

  function stopPlay() { clearInterval(st.playTimer); st.playTimer = null; $("rp-play").textContent = "Play"; }

  function setupReplay() {
    $("replay-start").addEventListener("click", () => replayTo(0));
    $("browse").addEventListener("click", () => { stopPlay(); replayTo(1e6); });
    $("rp-first").addEventListener("click", () => { stopPlay(); replayTo(0); });
    $("rp-prev").addEventListener("click", () => { stopPlay(); replayTo(Math.max(0, st.replay.step - 1)); });
    $("rp-next").addEventListener("click", () => { stopPlay(); replayTo(st.replay.step + 1); });
    $("rp-last").addEventListener("click", () => { stopPlay(); replayTo(st.replay.steps); });
    $("rp-play").addEventListener("click", () => {
      if (st.playTimer) { stopPlay(); return; }
      $("rp-play").textContent = "Pause";
      st.playTimer = setInterval(() => {
        if (!st.replay || st.replay.step >= st.replay.steps) { stopPlay(); return; }
        replayTo(st.replay.step + 1);
      }, 700);
    });
    $("rp-exit").addEventListener("click", () => { stopPlay(); st.replay = null; $("replay-bar").hidden = true; update(); });
  }

  // ----- reclaim: take back a seat handed to an AI (its old token still proves whose it was) -------
  function offerReclaim(view) {
    const lent = JSON.parse(localStorage.getItem(`tp-lent-${gameId}`) || "null");
    const button = $("reclaim");
    if (!lent || view.status !== "playing") { button.hidden = true; if (lent) localStorage.removeItem(`tp-lent-${gameId}`); return; }
    button.textContent = `Take my seat back (${view.names[lent.seat] || "seat " + (lent.seat + 1)})`;
    button.hidden = false;
    button.onclick = async () => {
      const reply = await api("POST", `/api/games/${encodeURIComponent(gameId)}/reclaim`, {}, lent.token);
      if (!reply.ok) { toast(reply.data.detail || "could not take the seat back"); return; }
      localStorage.removeItem(`tp-lent-${gameId}`);
      if (lent.token) TP.saveTokens(gameId, {[lent.seat]: lent.token});  // a player's seat comes back by its cookie
      location.reload();
    };
  }

  // ----- rematch: one click, every human seat gets its new link over its live connection ----------
  async function askRematch() {
    // each seat asks with its own old token (a hot-seat screen holds several) and gets its own new one
    st.rematchOffered = true;
    const mine = {};
    let id = null;
    for (const seat of mySeats()) {
      const reply = await api("POST", `/api/games/${encodeURIComponent(gameId)}/rematch`, {}, st.tokens[seat]);
      if (!reply.ok) { st.rematchOffered = false; toast(reply.data.detail || "could not start a rematch"); return; }
      id = reply.data.id;
      Object.assign(mine, reply.data.tokens);
    }
    goToRematch(id, mine);
  }

  function goToRematch(id, tokens) {
    TP.saveTokens(id, tokens);
    const [seat] = Object.keys(tokens);
    location.href = `/play/${encodeURIComponent(id)}` + (seat === undefined ? "" : `#seat=${seat}&token=${encodeURIComponent(tokens[seat])}`);
  }

  /** Someone started the rematch (the view names it): this table's seats ask for their own way in. */
  function rematchOffered(id) {
    if (st.rematchOffered || !mySeats().length) return;
    st.rematchOffered = true;
    toast("A rematch has started — taking you to the new game…");
    setTimeout(askRematch, 1500);
  }

  // ----- zoom: any card opens large on hover, long-press, or Z on a focused card; Esc closes -------
  function setupZoom() {
    const box = h("div", {id: "zoom", class: "zoom", hidden: true, role: "dialog", "aria-label": "the card, large"});
    document.body.append(box);
    let timer = null;
    const cardOf = (node) => (node && node.closest ? node.closest("img.face, svg.card-svg") : null);
    const show = (card) => {
      const big = card.tagName.toLowerCase() === "img"
        ? h("img", {src: card.src, alt: card.alt, width: 280, height: Math.round(280 * 88 / 63)})
        : card.cloneNode(true);
      if (big.tagName.toLowerCase() === "svg") { big.setAttribute("width", 280); big.setAttribute("height", Math.round(280 * 88 / 63)); }
      box.replaceChildren(big, h("p", {}, card.getAttribute("alt") || card.getAttribute("aria-label") || ""));
      box.hidden = false;
    };
    const hide = () => { clearTimeout(timer); box.hidden = true; };
    document.addEventListener("mouseover", (event) => {
      const card = cardOf(event.target);
      clearTimeout(timer);
      if (card && !box.contains(card)) timer = setTimeout(() => show(card), 300);
      else if (!card) hide();
    });
    document.addEventListener("touchstart", (event) => {
      const card = cardOf(event.target);
      clearTimeout(timer);
      if (card) timer = setTimeout(() => show(card), 450);
    }, {passive: true});
    document.addEventListener("touchend", () => clearTimeout(timer));
    box.addEventListener("click", hide);
    document.addEventListener("click", (event) => {  // a click on a card that is no move opens it large
      const card = cardOf(event.target);
      if (!card || box.contains(card) || card.closest("[data-action], .legal, .pickable, button, a")) return;
      if (box.hidden) show(card); else hide();
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape") { hide(); return; }
      if (event.key !== "z" && event.key !== "Z") return;
      const focused = document.activeElement;
      const card = focused && (cardOf(focused) || (focused.querySelector && focused.querySelector("img.face, svg.card-svg")));
      if (card) { event.preventDefault(); if (box.hidden) show(card); else hide(); }
    });
  }

  // ----- start ---------------------------------------------------------------------------------
  async function start() {
    readFragment();
    st.tokens = TP.tokens(gameId);
    const first = await api("GET", `/api/games/${encodeURIComponent(gameId)}`);
    if (!first.ok) { status(first.status === 404 ? "No such game." : (first.data.detail || "error")); return; }
    if (Number.isInteger(first.data.seat) && !(first.data.seat in st.tokens)) st.tokens[first.data.seat] = null;  // the player cookie's seat
    st.renderer = await TP.loadRenderer(first.data.game);
    const catalog = await api("GET", "/api/catalog");
    if (catalog.ok) {
      const info = catalog.data.games.find((g) => g.name === first.data.game);
      if (info) $("rules-text").replaceChildren(TP.rules(info.rules, info.rules_html));
    }
    $("board").addEventListener("click", (event) => {
      const target = event.target.closest("[data-action]");
      if (target && $("board").classList.contains("interactive")) act(target.dataset.action);
    });
    $("board").addEventListener("keydown", (event) => {
      const target = event.target.closest("[data-action]");
      if (target && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); act(target.dataset.action); }
    });
    $("moves").addEventListener("click", (event) => {
      const target = event.target.closest("[data-action]");
      if (target) act(target.dataset.action);
    });
    $("curtain-go").addEventListener("click", () => {
      st.shown = Number($("curtain").dataset.seat);
      st.curtain = false;
      update();
    });
    setupReplay();
    setupZoom();
    setupNotify();
    followMyGames();
    sayBrokenLink();
    offerReclaim(first.data);
    $("bot-takeover").addEventListener("click", async () => {
      const seat = st.shown;
      if (seat === null || !confirm("Hand your seat to an AI player for the rest of the game?")) return;
      st.leaving = seat;  // the seat's connection closes with "token no longer works": no broken link
      const reply = await api("POST", `/api/games/${encodeURIComponent(gameId)}/bot`, {agent: "greedy"}, st.tokens[seat]);
      if (!reply.ok) { st.leaving = undefined; toast(reply.data.detail || "could not hand the seat over"); return; }
      localStorage.setItem(`tp-lent-${gameId}`, JSON.stringify({seat, token: st.tokens[seat]}));
      TP.forgetToken(gameId, seat);
      location.reload();
    });
    const seats = mySeats();
    if (!seats.length) { receive(null, first.data); connect(null); }
    for (const seat of seats) { await poll(seat); connect(seat); }
  }

  start();
})();
