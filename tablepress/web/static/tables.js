/* The lobby on the home page: pick a name, create a table, join an open one (live: the server's event stream
   of open tables, with a slow poll behind it), go to the table once its game begins; your games, your turn first.
   The player's requests carry no token: the browser sends the player's HttpOnly cookie (player.js). A table may
   have a turn clock, whose rule the form and the lists state; your games are marked live where it is your turn
   (turns.js: the same on every device the player signed in on), with the tab's title counting them. */
"use strict";
(() => {
  const {h, api} = TP;
  const $ = (id) => document.getElementById(id);
  const WAITING = "tp:waiting";
  let catalog = {games: []};
  let shownTables = [];
  let invited = null;  // a table opened by an invite link (?table=ID), shown even if private

  const waiting = () => { try { return JSON.parse(localStorage.getItem(WAITING) || "[]"); } catch (err) { return []; } };
  const setWaiting = (ids) => localStorage.setItem(WAITING, JSON.stringify([...new Set(ids)].slice(-10)));
  const title = (name) => (catalog.games.find((g) => g.name === name) || {title: name}).title;
  /** A table's turn clock, for the creation form: none, or minutes to days a turn (seconds). */
  const CLOCKS = [[0, "No clock"], [120, "2 minutes a turn"], [600, "10 minutes a turn"], [3600, "1 hour a turn"],
    [86400, "1 day a turn"], [259200, "3 days a turn"]];
  /** What a table's clock means, in a sentence ("" for none). */
  const clockRule = (seconds) => (seconds && TP.clock ? `${TP.clock.rule(seconds)}.` : "");

  function frame() {
    document.head.append(h("link", {rel: "stylesheet", href: "/static/social.css"}), h("link", {rel: "stylesheet", href: "/static/clock.css"}));
    const section = h("section", {class: "panel", id: "lobby", "aria-label": "the lobby"},
      h("h2", {}, "Play with people"),
      h("div", {id: "lobby-me"}),
      h("div", {class: "lobby-grid"},
        h("div", {}, h("h3", {}, "Open tables"),
          h("table", {id: "open-tables"}, h("tbody")),
          h("p", {id: "no-tables", class: "muted"}, "No open tables — create one.")),
        h("div", {}, h("h3", {}, "Create a table"),
          h("form", {id: "table-form"},
            h("label", {}, "Game ", h("select", {id: "table-game"})),
            h("label", {}, "Players ", h("select", {id: "table-players"})),
            h("div", {id: "table-seats"}),
            h("label", {}, h("input", {type: "checkbox", id: "table-private"}), " Private (invite link only)"),
            h("label", {}, h("input", {type: "checkbox", id: "table-rated", checked: true}), " Rated (the result moves the players' ratings)"),
            h("label", {}, "Turn clock ", h("select", {id: "table-clock", "aria-describedby": "table-clock-rule"},
              CLOCKS.map(([seconds, text]) => h("option", {value: seconds}, text)))),
            h("p", {id: "table-clock-rule", class: "small clock-rule"}, "No clock: a game waits for each player as long as it takes."),
            h("button", {type: "submit", class: "primary", id: "table-create"}, "Create table")),
          h("p", {id: "table-error", class: "error", role: "alert"}),
          h("div", {id: "waiting-tables"}))),
      h("div", {id: "my-games"}),
      h("p", {id: "leaderboards", class: "small"}, "Leaderboards: ", catalog.games.map((g, i) =>
        [i ? " · " : "", h("a", {href: `/games/${encodeURIComponent(g.name)}/ratings`}, g.title)])));
    const anchor = $("games-panel");
    if (anchor) anchor.before(section); else document.querySelector("main").append(section);
  }

  // ----- who I am ------------------------------------------------------------------------------
  function drawMe(player) {
    const box = $("lobby-me");
    if (!player) {
      const input = h("input", {type: "text", id: "player-name", maxlength: 24, required: true, placeholder: "your name", "aria-label": "your display name"});
      const error = h("span", {class: "error", role: "alert"});
      box.replaceChildren(h("form", {id: "name-form", onsubmit: async (event) => {
        event.preventDefault();
        const made = await TP.player.create(input.value);
        if (!made.ok) { error.textContent = " " + made.detail; return; }
        start();
      }}, h("label", {}, "Pick a name to play with others: ", input), " ", h("button", {type: "submit", class: "primary"}, "Choose"), error));
      return;
    }
    const linkOut = h("span", {class: "small"});
    box.replaceChildren(h("p", {}, "You are ", h("b", {id: "me-name"}, player.name), " · ",
      h("button", {type: "button", class: "small", onclick: async () => {
        const reply = await api("POST", "/api/players/me/link");
        if (!reply.ok) { linkOut.textContent = reply.data.detail || "no link"; return; }
        linkOut.replaceChildren(" Open this on your other device within ", String(Math.round(reply.data.seconds / 60)), " minutes (once): ",
          h("input", {type: "text", readonly: true, value: reply.data.url, class: "invite", onclick: (e) => e.target.select()}));
      }}, "Play on another device"), linkOut));
  }

  let news = null;  // the latest word of the player's games from turns.js ({games, your_turn, now, at})

  /** Your games, your turn first and marked, with the time its clock leaves you. */
  function drawMyGames(player) {
    const games = (news ? news.games : (player && player.games)) || [];
    const box = $("my-games");
    if (!games.length) { box.replaceChildren(); return; }
    const mine = games.filter((g) => g.your_turn).length;
    const gone = news ? (performance.now() - news.at) / 1000 : 0;
    box.replaceChildren(h("div", {class: "my-games-head"},
        h("h3", {}, "Your games", mine ? h("span", {class: "turn-count"}, ` — your turn in ${mine}`) : ""),
        TP.turns ? TP.turns.toggle() : ""),
      h("ul", {}, games.map((g) => {
        const state = g.status === "playing" ? (g.your_turn ? "Your turn" : "waiting for the others") : (g.won ? "finished — you won" : "finished");
        const left = g.your_turn && g.deadline && news ? ` · ${TP.clock.left(g.deadline - news.now - gone)} left` : "";
        return h("li", {class: g.your_turn ? "your-turn" : "", dataset: {game: g.id}},
          h("a", {href: `/play/${encodeURIComponent(g.id)}`}, title(g.game)), g.variant ? ` · variant: ${g.variant}` : "",
          " · ", (g.names || []).join(", "), " · ",
          g.your_turn ? h("b", {class: "turn-mark"}, state, left) : h("span", {}, state));
      })));
  }

  /** Your games live (turns.js), their time left redrawn every 15 s. */
  function followMyGames() {
    if (!TP.turns || followMyGames.on) return;
    followMyGames.on = true;
    TP.turns.follow((word) => { news = word; drawMyGames(null); });
    setInterval(() => { if (news && !document.hidden) drawMyGames(null); }, 15000);
  }

  // ----- tables --------------------------------------------------------------------------------
  function drawTables(tables) {
    shownTables = tables;
    const me = TP.player.get();
    const rows = invited && !tables.some((t) => t.id === invited.id) ? [invited, ...tables] : tables;
    const body = document.querySelector("#open-tables tbody");
    body.replaceChildren(...rows.filter((t) => t.open_seats > 0).map((t) => {
      const seated = t.seated.map((name) => name === null ? h("span", {class: "open-seat"}, "open seat") : h("span", {class: "seat-tag"}, name));
      const mine = waiting().includes(t.id);
      return h("tr", {dataset: {table: t.id}},
        h("td", {}, title(t.game), t.private ? " (private)" : "", " ", h("span", {class: t.rated ? "rated-tag" : "rated-tag unrated"}, t.rated ? "rated" : "unrated"),
          t.clock ? h("span", {class: "table-clock small"}, `⏱ ${clockRule(t.clock)}`) : ""),
        h("td", {}, seated),
        h("td", {}, mine ? h("span", {class: "muted"}, "your table") :
          h("button", {type: "button", class: "primary join", disabled: !me, onclick: () => join(t.id)}, "Join")));
    }));
    $("no-tables").hidden = body.children.length > 0;
    followWaiting();
  }

  async function join(id) {
    const me = TP.player.get();
    if (!me) { $("player-name").focus(); return; }
    const reply = await api("POST", `/api/tables/${encodeURIComponent(id)}/join`, {});
    if (!reply.ok) { $("table-error").textContent = reply.data.detail || `error ${reply.status}`; return; }
    if (reply.data.game_id) { enter(reply.data.game_id); return; }
    setWaiting([...waiting(), id]);
    followWaiting();
  }

  /** Go to a game this player sits at (its seat opens by the player's cookie). */
  function enter(gameId) {
    location.href = `/play/${encodeURIComponent(gameId)}`;
  }

  /** Look at the tables I wait at: go to the game once one begins; say who is there meanwhile. */
  async function followWaiting() {
    const me = TP.player.get();
    if (!me) return;
    const ids = waiting();
    const box = $("waiting-tables");
    const items = [];
    for (const id of ids) {
      const reply = await api("GET", `/api/tables/${encodeURIComponent(id)}`);
      if (!reply.ok || reply.data.you === null) { setWaiting(waiting().filter((t) => t !== id)); continue; }
      if (reply.data.game_id) { setWaiting(waiting().filter((t) => t !== id)); enter(reply.data.game_id); return; }
      const invite = `${catalog.public_url || location.origin}/?table=${encodeURIComponent(id)}`;
      items.push(h("div", {class: "waiting", dataset: {table: id}},
        h("p", {}, `${title(reply.data.game)}: waiting for ${reply.data.open_seats} more (`, reply.data.seated.filter(Boolean).join(", "), ")"),
        reply.data.clock ? h("p", {class: "small table-clock"}, `⏱ ${clockRule(reply.data.clock)}`) : "",
        h("label", {class: "small"}, "Invite: ", h("input", {type: "text", readonly: true, value: invite, class: "invite", onclick: (e) => e.target.select()}))));
    }
    box.replaceChildren(...items);
  }

  /** Seats 2 and on: open for a person to join, or one of the game's AI levels ("Casual AI (rated 1480)"). */
  function seatChoices() {
    const info = catalog.games.find((g) => g.name === $("table-game").value) || {levels: []};
    const count = Number($("table-players").value);
    const levels = info.levels || [];
    $("table-seats").replaceChildren(...Array.from({length: Math.max(0, count - 1)}, (_, i) => h("label", {},
      `Seat ${i + 2} `, h("select", {dataset: {seat: i + 1}, "aria-label": `seat ${i + 2}`},
        h("option", {value: ""}, "open seat (a person joins)"),
        levels.map((l) => h("option", {value: l.name}, `${l.title} AI` + (l.rating === null ? "" : ` (rated ${l.rating})`)))))));
  }

  function drawForm() {
    const game = $("table-game"), players = $("table-players");
    game.replaceChildren(...catalog.games.map((g) => h("option", {value: g.name}, g.title)));
    const counts = () => {
      const info = catalog.games.find((g) => g.name === game.value);
      players.replaceChildren();
      for (let n = info.min_players; n <= info.max_players; n++) players.append(h("option", {value: n, selected: n === info.default_players}, String(n)));
      seatChoices();
    };
    game.addEventListener("change", counts);
    players.addEventListener("change", seatChoices);
    counts();
    $("table-clock").addEventListener("change", () => {
      const seconds = Number($("table-clock").value);
      $("table-clock-rule").textContent = seconds ? clockRule(seconds) : "No clock: a game waits for each player as long as it takes.";
    });
    $("table-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      $("table-error").textContent = "";
      const me = TP.player.get();
      if (!me) { $("table-error").textContent = "Pick a name first."; return; }
      const ai = {};
      for (const choice of document.querySelectorAll("#table-seats select")) if (choice.value) ai[choice.dataset.seat] = choice.value;
      const clock = Number($("table-clock").value) || undefined;
      const reply = await api("POST", "/api/tables", {game: game.value, players: Number(players.value), ai, private: $("table-private").checked, rated: $("table-rated").checked, clock});
      if (!reply.ok) { $("table-error").textContent = reply.data.detail || `error ${reply.status}`; return; }
      setWaiting([...waiting(), reply.data.id]);
      followWaiting();
    });
  }

  async function refresh() {
    const reply = await api("GET", "/api/tables");
    if (reply.ok) drawTables(reply.data);
  }

  /** Live: the event stream of open tables (fed by the store in every process); a poll every 30 s behind it. */
  function live() {
    const stream = new EventSource("/api/tables/events");
    stream.addEventListener("tables", (event) => {
      document.body.dataset.lobbyLive = "1";
      drawTables(JSON.parse(event.data));
    });
    setInterval(() => { if (!document.hidden) refresh(); }, 30000);
  }

  let started = false;
  async function start() {
    const player = await TP.player.check();
    drawMe(player);
    drawMyGames(player);
    if (player) followMyGames();
    drawTables(shownTables);
    if (started) return;
    started = true;
    drawForm();
    const wanted = new URLSearchParams(location.search).get("table");
    if (wanted) {
      const reply = await api("GET", `/api/tables/${encodeURIComponent(wanted)}`);
      if (reply.ok && !reply.data.game_id) invited = reply.data;
      else $("table-error").textContent = reply.ok ? "That table's game has begun." : (reply.data.detail || "no such table");
    }
    await refresh();
    live();
    $("lobby").dataset.ready = "1";
  }

  async function boot() {
    const reply = await api("GET", "/api/catalog");
    if (reply.ok) catalog = reply.data;
    frame();
    start();
  }

  if (document.querySelector(".catalogue-page")) boot();
})();
