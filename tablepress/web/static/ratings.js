/* The table's rating changes: once the final scores show, a rated game's people and their ratings before and
   after it ("Ada 1500 → 1516"), with a link to the game's leaderboard. Nothing for an unrated game. */
"use strict";
(() => {
  const {h, api} = TP;
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  const TRIES = 5;
  let shown = false;

  function sign(n) { return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0"; }

  function draw(reply, game) {
    const changes = reply.changes.map((c, i) => {
      const moved = c.after - c.before;
      return [i ? " · " : "", h("span", {class: "change", dataset: {seat: c.seat}},
        `${c.name} ${c.before} → ${c.after} `,
        h("span", {class: moved > 0 ? "up" : moved < 0 ? "down" : ""}, `(${sign(moved)})`))];
    });
    const box = h("p", {id: "rating-changes", role: "status"}, h("b", {}, "Ratings: "), changes, " ",
      game ? h("a", {href: `/games/${encodeURIComponent(game)}/ratings`}, "Leaderboard") : "");
    const old = document.getElementById("rating-changes");
    if (old) old.replaceWith(box); else document.getElementById("final-table").after(box);
  }

  /** Ask for the game's changes (the server settles them if it had not yet); a few tries while none show. */
  async function look() {
    if (shown) return;
    shown = true;
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const reply = await api("GET", `/api/games/${encodeURIComponent(gameId)}/ratings`);
      if (!reply.ok || !reply.data.rated) return;
      if (reply.data.changes.length) {
        draw(reply.data, reply.data.game);
        return;
      }
      await new Promise((done) => setTimeout(done, 500 * (attempt + 1)));
    }
  }

  function watch() {
    const final = document.getElementById("final");
    if (!final) return;
    if (!document.querySelector('link[href="/static/social.css"]')) {
      document.head.append(h("link", {rel: "stylesheet", href: "/static/social.css"}));
    }
    const check = () => { if (!final.hidden) look(); };
    new MutationObserver(check).observe(final, {attributes: true, attributeFilter: ["hidden"]});
    check();
  }

  if (document.body.classList.contains("table-page")) watch();
})();
