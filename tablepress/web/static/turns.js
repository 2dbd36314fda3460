/* Your-turn notices: the player's games live from the server's stream (GET /api/players/me/events, worked out
   from the store, so every device the player signed in on is told alike), the tab's title counting the games
   that wait on the player ("(2) Your turn — …"), and, if the player allows it, a browser notification when a
   game comes to wait on them while the tab is hidden. TP.turns.follow(draw) calls draw({games, your_turn, now})
   at once and on every change; TP.turns.toggle() is the "Tell me when it is my turn" box (one setting with the
   table page's). On a table page TP.turns.atTable(id, mine, plain) says which game the page shows, whether it
   waits on this browser's seat now (told by the table's own live view, ahead of the stream) and the page's
   title; the count is then that game's (0 or 1) and the stream's other games', and the table notifies of its own. */
"use strict";
(() => {
  const {h} = TP;
  const NOTIFY = "tp-notify";
  const st = {plain: document.title, game: null, mine: false, news: null};
  let stream = null;
  let waitingOn = null;  // ids of the games that waited on the player at the last news (null: none yet)

  const allowed = () => localStorage.getItem(NOTIFY) === "1";

  /** How many of the player's games wait on the player: the page's own game as its table says, the others as
   * the stream says. */
  function waiting() {
    const others = st.news ? st.news.games.filter((g) => g.your_turn && g.id !== st.game).length : 0;
    return others + (st.mine ? 1 : 0);
  }

  /** The tab's title with the count of games waiting on the player: "(1) Your turn — Table Press". */
  function title(count = waiting()) {
    document.title = count ? `(${count}) Your turn — ${st.plain}` : st.plain;
  }

  /** On a table page: the game it shows, whether that game waits on this browser's seat, and the page's title. */
  function atTable(gameId, mine, plain) {
    Object.assign(st, {game: gameId, mine, plain});
    title();
  }

  /** A notification for each game that came to wait on the player since the last news (tab hidden, allowed). */
  function notify(games) {
    const now = games.filter((g) => g.your_turn && g.id !== st.game).map((g) => g.id);
    const fresh = waitingOn === null ? [] : now.filter((id) => !waitingOn.includes(id));
    waitingOn = now;
    if (!fresh.length || !allowed() || !document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
    try {
      new Notification(fresh.length > 1 ? `Your turn in ${fresh.length} games` : "Your turn", {
        body: "A game at Table Press is waiting for your move.", tag: "tp-your-turn"});
    } catch (err) { /* this browser shows none */ }
  }

  /** Follow the player's games: `draw(news)` now and whenever they change (the browser reconnects by itself). */
  function follow(draw) {
    if (stream) stream.close();
    stream = new EventSource("/api/players/me/events");
    stream.addEventListener("games", (event) => {
      const news = JSON.parse(event.data);
      news.at = performance.now();
      document.body.dataset.turnsLive = "1";
      st.news = news;
      title();
      notify(news.games);
      draw(news);
    });
  }

  /** The "Tell me when it is my turn" box: a browser notification (asked for once) when the tab is hidden. */
  function toggle() {
    const box = h("input", {type: "checkbox", id: "turn-notify", checked: allowed()});
    box.addEventListener("change", async () => {
      localStorage.setItem(NOTIFY, box.checked ? "1" : "0");
      if (box.checked && "Notification" in window && Notification.permission === "default") {
        try { await Notification.requestPermission(); } catch (err) { /* refused */ }
      }
    });
    return h("label", {class: "turn-notify small"}, box, " Tell me when it is my turn");
  }

  TP.turns = {follow, toggle, title, atTable};
})();
