/* The player of this browser: a display name and its token (the server also keeps it in an HttpOnly cookie;
   this copy opens the player's seats on the table page, as seat tokens do). On a one-time link's page
   (/link/CODE) it takes the player over from the other device. */
"use strict";
(() => {
  const {api} = TP;
  const KEY = "tp:player";

  /** {id, name, token} of this browser's player, or null. */
  function get() {
    try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (err) { return null; }
  }

  function set(player) { localStorage.setItem(KEY, JSON.stringify({id: player.id, name: player.name, token: player.token})); }

  /** Make a player named `name`: resolves to {ok, player} or {ok: false, detail}. */
  async function create(name) {
    const reply = await api("POST", "/api/players", {name});
    if (!reply.ok) return {ok: false, detail: reply.data.detail || `error ${reply.status}`};
    set(reply.data);
    return {ok: true, player: reply.data};
  }

  /** The player still known to the server (null if it forgot this token). */
  async function check() {
    const player = get();
    if (!player) return null;
    const reply = await api("GET", "/api/players/me", undefined, player.token);
    if (reply.status === 403) { localStorage.removeItem(KEY); return null; }
    return reply.ok ? Object.assign(player, {name: reply.data.name, games: reply.data.games}) : player;
  }

  async function redeem() {
    const code = decodeURIComponent(location.pathname.split("/").pop());
    const said = document.getElementById("link-status");
    const reply = await api("POST", "/api/players/link", {code});
    if (!reply.ok) { said.textContent = reply.data.detail || "This link does not work."; return; }
    set(reply.data);
    said.textContent = `You are ${reply.data.name} on this device too. Taking you to the lobby…`;
    setTimeout(() => { location.href = "/#lobby"; }, 800);
  }

  TP.player = {get, set, create, check};
  if (location.pathname.startsWith("/link/")) redeem();
})();
