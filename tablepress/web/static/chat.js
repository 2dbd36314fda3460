/* The table's chat panel: messages oldest first, live over the game's WebSocket (`{"chat": MESSAGE}` pushes;
   a connection without a token, so the signed-in player's cookie decides its seat), text always shown as text;
   seated players write (with their seat's token, or as the player by the cookie the browser sends) and send
   quick emotes; anyone may mute a seat (its lines' "mute" button) and unmute it again ("Unmute NAME" under the
   messages), kept in this browser (localStorage). */
"use strict";
(() => {
  const {h, api} = TP;
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  const MUTED = `tp:muted:${gameId}`;
  const EMOTES = {hello: "👋", gg: "🤝 gg", nice: "👏", think: "🤔", oops: "😅", thanks: "🙏"};
  let last = 0;
  const seen = new Set();
  let names = [];

  const muted = () => { try { return new Set(JSON.parse(localStorage.getItem(MUTED) || "[]")); } catch (err) { return new Set(); } };

  /** The seat token this browser writes with for this game, or null: then the player cookie speaks. */
  function token() {
    const seats = TP.tokens(gameId);
    const first = Object.keys(seats)[0];
    return first !== undefined ? seats[first] : null;
  }

  /** Show the writing form to a seated player (a seat token here, or the cookie's player seated: `seated`). */
  function canWrite(seated) {
    const writes = Boolean(token()) || seated;
    document.getElementById("chat-form").hidden = !writes;
    document.getElementById("chat-emotes").hidden = !writes;
    document.getElementById("chat-spectating").hidden = writes;
  }

  function panel() {
    document.head.append(h("link", {rel: "stylesheet", href: "/static/social.css"}));
    const input = h("input", {type: "text", id: "chat-text", maxlength: 300, placeholder: "Say something", "aria-label": "chat message"});
    const error = h("p", {class: "error small", id: "chat-error", role: "alert"});
    const form = h("form", {id: "chat-form", onsubmit: (event) => { event.preventDefault(); send({text: input.value}, input); }},
      input, h("button", {type: "submit"}, "Send"));
    const emotes = h("div", {class: "emotes", id: "chat-emotes"}, Object.entries(EMOTES).map(([name, face]) =>
      h("button", {type: "button", class: "small", title: name, dataset: {emote: name}, onclick: () => send({emote: name})}, face)));
    const spectating = h("p", {class: "muted small", id: "chat-spectating"}, "Spectators read the chat; players at the table write.");
    const unmute = h("p", {id: "chat-muted", class: "chat-muted small", hidden: true});
    const box = h("section", {class: "panel", id: "chat-panel"}, h("h3", {}, "Chat"),
      h("ol", {id: "chat-log", class: "chat-log", "aria-live": "polite", tabindex: 0, "aria-label": "chat messages"}),
      unmute, form, emotes, spectating, error);
    const side = document.querySelector(".side");
    side.insertBefore(box, side.children[1] || null);
    canWrite(false);
  }

  async function send(body, input) {
    const reply = await api("POST", `/api/games/${encodeURIComponent(gameId)}/chat`, body, token());
    document.getElementById("chat-error").textContent = reply.ok ? "" : (reply.data.detail || `error ${reply.status}`);
    if (!reply.ok) return;
    if (input) input.value = "";
    show(reply.data);
  }

  function show(message) {
    if (seen.has(message.n)) return;
    seen.add(message.n);
    last = Math.max(last, message.n);
    const log = document.getElementById("chat-log");
    const hidden = muted().has(message.seat);
    const who = names[message.seat] || message.name;
    log.append(h("li", {dataset: {seat: message.seat, n: message.n}, hidden},
      h("span", {class: "who"}, who + ":"), h("span", {class: "text"}, message.text),
      h("button", {type: "button", class: "mute", title: `mute ${who}`, onclick: () => mute(message.seat)}, "mute")));
    log.scrollTop = log.scrollHeight;
  }

  function mute(seat) {
    const set = muted();
    set.add(seat);
    keepMuted(set);
  }

  function unmute(seat) {
    const set = muted();
    set.delete(seat);
    keepMuted(set);
  }

  /** Keep the muted seats, hide or show their lines, and offer "Unmute NAME" for each muted seat. */
  function keepMuted(set) {
    localStorage.setItem(MUTED, JSON.stringify([...set]));
    for (const item of document.querySelectorAll("#chat-log li")) item.hidden = set.has(Number(item.dataset.seat));
    drawMuted();
  }

  function drawMuted() {
    const box = document.getElementById("chat-muted");
    const seats = [...muted()].sort((a, b) => a - b);
    box.hidden = !seats.length;
    box.replaceChildren(...seats.map((seat) => h("button", {type: "button", class: "unmute", dataset: {seat},
      onclick: () => unmute(seat)}, `Unmute ${names[seat] || `seat ${seat + 1}`}`)));
  }

  async function catchUp() {
    const reply = await api("GET", `/api/games/${encodeURIComponent(gameId)}/chat?after=${last}`);
    if (reply.ok) reply.data.forEach(show);
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${proto}//${location.host}/ws/games/${encodeURIComponent(gameId)}`);
    socket.onopen = () => { document.getElementById("chat-panel").dataset.live = "1"; catchUp(); };
    socket.onmessage = (event) => {
      const data = JSON.parse(event.data);
      if (data.chat) show(data.chat);
      else if (data.names) { names = data.names; canWrite(Number.isInteger(data.seat)); drawMuted(); }
    };
    socket.onclose = (event) => {
      delete document.getElementById("chat-panel").dataset.live;
      if (event.code !== 4404) setTimeout(connect, 2000);
    };
  }

  if (document.querySelector(".side")) { panel(); drawMuted(); connect(); }
})();
