/* Your-turn notices: the player's games live from the server's stream (GET /api/players/me/events, worked out
   from the store, so every device the player signed in on is told alike), the tab's title counting the games
   that wait on the player ("(2) Your turn — …"), and, if the player allows it, a browser notification when a
   game comes to wait on them while the tab is hidden. TP.turns.follow(draw) calls draw({games, your_turn, now})
   at once and on every change; TP.turns.toggle() is the "Tell me when it is my turn" box (one setting with the
   table page's). */
"use strict";
(() => {
  const {h} = TP;
  const NOTIFY = "tp-notify";
  const plainTitle = document.title;
  let stream = null;
  let waitingOn = null;  // ids of the games that waited on the player at the last news (null: none yet)

  const allowed = () => localStorage.getItem(NOTIFY) === "1";

  /** The tab's title with the count of games waiting on the player: "(1) Your turn — Table Press". */
  function title(count) {
    document.title = count ? `(${count}) Your turn — ${plainTitle}` : plainTitle;
  }

  /** A notification for each game that came to wait on the player since the last news (tab hidden, allowed). */
  function notify(games) {
    const now = games.filter((g) => g.your_turn).map((g) => g.id);
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
      title(news.your_turn);
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

  TP.turns = {follow, toggle, title};
})();
