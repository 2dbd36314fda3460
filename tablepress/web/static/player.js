/* The player of this browser: a display name, and a token the server keeps in an HttpOnly cookie.

   Scripts never hold the player's token: the API answers it once (POST /api/players, a one-time link) and
   this file drops it, keeping only {id, name} in localStorage to draw the page before the server answers.
   Every request the site's pages make carries the cookie, which the server takes for the player wherever a
   seat token is taken (web/seats.py), so the table opens a player's seat from the cookie alone. A token an
   older page stored is taken out of localStorage, with any seat-token copy of it, the first time this runs.
   On a one-time link's page (/link/CODE) it takes the player over from the other device (the answer sets
   the cookie here). */
"use strict";
(() => {
  const {api} = TP;
  const KEY = "tp:player";

  /** Forget a player token an older version of this page kept in localStorage (and its seat copies). */
  function purgeStoredToken() {
    let stored = null;
    try { stored = JSON.parse(localStorage.getItem(KEY) || "null"); } catch (err) { stored = null; }
    if (!stored || !stored.token) return;
    for (const key of Object.keys(localStorage)) {
      if (!key.startsWith("tp:tokens:")) continue;
      let seats = {};
      try { seats = JSON.parse(localStorage.getItem(key) || "{}"); } catch (err) { continue; }
      const kept = Object.fromEntries(Object.entries(seats).filter(([, token]) => token !== stored.token));
      if (!Object.keys(kept).length) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(kept));
    }
    localStorage.setItem(KEY, JSON.stringify({id: stored.id, name: stored.name}));
  }

  /** {id, name} of this browser's player as last known, or null. */
  function get() {
    try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (err) { return null; }
  }

  function set(player) { localStorage.setItem(KEY, JSON.stringify({id: player.id, name: player.name})); }

  /** Make a player named `name` (the server sets its cookie): resolves to {ok, player} or {ok: false, detail}. */
  async function create(name) {
    const reply = await api("POST", "/api/players", {name});
    if (!reply.ok) return {ok: false, detail: reply.data.detail || `error ${reply.status}`};
    set(reply.data);
    return {ok: true, player: get()};
  }

  /** The player the server knows this browser's cookie as, with its games (null if it knows none). */
  async function check() {
    const reply = await api("GET", "/api/players/me");
    if (reply.status === 403) { localStorage.removeItem(KEY); return null; }
    if (!reply.ok) return get();
    set(reply.data);
    return Object.assign(get(), {games: reply.data.games});
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

  purgeStoredToken();
  TP.player = {get, set, create, check};
  if (location.pathname.startsWith("/link/")) redeem();
})();
