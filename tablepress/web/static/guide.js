/* The guide panel of a guided first game: the step for the newcomer's view (GET /api/games/ID/guide, worked out
   on the server from that seat's view alone), its rules link, Back / Next through the steps of one moment, Hide,
   and the suggested move marked on the table. It sits in the page's flow above the board, so it never covers a
   control; new steps are read out by screen readers (a polite live region). Only a game started as a guided first
   game (its table opened with guide=1) shows it. */
"use strict";
(() => {
  const {h, api} = TP;
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  const FLAG = `tp-guide-${gameId}`, HIDDEN = `tp-guide-hidden-${gameId}`;
  const st = {point: null, page: 0, revision: null, asked: null, view: null, label: (a) => a, panel: null};

  if (new URLSearchParams(location.hash.slice(1)).get("guide") === "1") localStorage.setItem(FLAG, "1");
  if (localStorage.getItem(FLAG) !== "1") return;

  const $ = (id) => document.getElementById(id);

  function panel() {
    if (st.panel) return st.panel;
    const hidden = localStorage.getItem(HIDDEN) === "1";
    st.panel = h("section", {id: "guide", class: "panel guide", "aria-labelledby": "guide-h"},
      h("div", {class: "guide-head"},
        h("h2", {id: "guide-h"}, "Guide"),
        h("span", {id: "guide-count", class: "guide-count"}),
        h("button", {type: "button", id: "guide-toggle", "aria-expanded": String(!hidden), "aria-controls": "guide-body",
                     onclick: toggle}, hidden ? "Show the guide" : "Hide")),
      h("div", {id: "guide-body", hidden},
        h("div", {id: "guide-live", "aria-live": "polite"},
          h("h3", {id: "guide-title", tabindex: "-1"}),
          h("div", {id: "guide-text"}),
          h("p", {id: "guide-suggest", hidden: true})),
        h("p", {id: "guide-rules-line", class: "guide-rules", hidden: true}, "Rules: ",
          h("a", {id: "guide-rules", href: "#", target: "_blank", rel: "noopener"}),
          h("span", {class: "sr-only"}, " (opens in a new tab)")),
        h("div", {class: "guide-nav"},
          h("button", {type: "button", id: "guide-back", onclick: () => turn(-1)}, "Back"),
          h("button", {type: "button", id: "guide-next", class: "primary", onclick: () => turn(1)}, "Next"),
          h("button", {type: "button", id: "guide-show", onclick: showMove}, "Show the move"))),
      h("p", {id: "guide-pick-note", class: "sr-only"}, "The guide suggests this move."));
    const wrap = $("board-wrap");
    wrap.insertBefore(st.panel, $("board"));
    return st.panel;
  }

  function toggle() {
    const body = $("guide-body"), button = $("guide-toggle");
    body.hidden = !body.hidden;
    localStorage.setItem(HIDDEN, body.hidden ? "1" : "0");
    button.textContent = body.hidden ? "Show the guide" : "Hide";
    button.setAttribute("aria-expanded", String(!body.hidden));
  }

  /** The pages of the moment: the guide's steps there, or a short line of its own when it has none. */
  function pages() {
    const point = st.point, view = st.view;
    if (!point) return [];
    const opponent = view ? view.names.filter((_, seat) => seat !== point.seat).join(", ") : "The other player";
    if (!point.on_path) {
      const undo = view && view.can_undo ? " You can still take your last move back with Undo." : "";
      const end = point.point === "end";
      return [{title: end ? "The game is over" : "You left the guide's line",
               text: end ? "The final scores are above. Start the guided game again from the game's page to follow its line."
                         : `${point.reason}. The guide's steps follow one line of play, so from here you play on your own: `
                           + `each move still says what it would score, and the rules are linked below.${undo}`,
               rules: point.rules}];
    }
    if (point.steps.length) return point.steps;
    if (point.point === "waiting") {
      return [{title: "The other player's turn", text: `${opponent} is playing. The guide goes on when it is your turn again; `
               + "the status bar and the move log say what happened.", rules: point.rules}];
    }
    return [{title: `Your move ${point.move + 1}`, text: "Play the suggested move, marked on the table and in Your moves, "
             + "or choose your own.", rules: point.rules}];
  }

  function turn(by) {
    const all = pages();
    st.page = Math.max(0, Math.min(all.length - 1, st.page + by));
    render();
    if (document.activeElement && document.activeElement.disabled) $("guide-title").focus();
  }

  function render() {
    panel();
    const point = st.point, all = pages();
    const page = all[st.page] || all[0];
    if (!page) return;
    const total = point.moves;
    $("guide-count").textContent = point.point === "end" ? "the end"
      : `move ${Math.min(point.move + 1, total)} of ${total}` + (all.length > 1 ? ` · ${st.page + 1}/${all.length}` : "");
    $("guide-title").textContent = page.title;
    $("guide-text").replaceChildren(...String(page.text).split(/\n+/).map((line) => h("p", {}, line)));
    const rules = page.rules || point.rules;
    $("guide-rules-line").hidden = !rules;
    if (rules) { $("guide-rules").href = rules.url; $("guide-rules").textContent = rules.heading; }
    const suggest = point.suggest && point.on_path && point.point === "move" && st.page === all.length - 1;
    $("guide-suggest").hidden = !suggest;
    if (suggest) {
      const hint = ((st.view && st.view.hints) || {})[point.suggest];
      $("guide-suggest").replaceChildren("Suggested move: ", h("strong", {}, st.label(point.suggest)),
        hint && hint.text ? ` (${hint.text})` : "");
    }
    $("guide-back").disabled = st.page === 0;
    $("guide-next").disabled = st.page >= all.length - 1;
    $("guide-show").hidden = !suggest;
    mark();
  }

  /** The controls of the suggested move on the table (the board's and the moves list's). */
  function controls() {
    const point = st.point;
    if (!point || !point.suggest || !point.on_path || point.point !== "move") return [];
    const wanted = point.suggest;
    return [...document.querySelectorAll("#board [data-action], #moves [data-action]")]
      .filter((node) => node.dataset.action === wanted && !node.closest("[hidden]"));
  }

  /** Mark the suggested move (again after every redraw of the table). */
  function mark() {
    for (const node of document.querySelectorAll(".guide-pick")) {
      node.classList.remove("guide-pick");
      if (node.getAttribute("aria-describedby") === "guide-pick-note") node.removeAttribute("aria-describedby");
    }
    for (const node of controls()) {
      node.classList.add("guide-pick");
      if (!node.hasAttribute("aria-describedby")) node.setAttribute("aria-describedby", "guide-pick-note");
    }
  }

  function showMove() {
    const [target] = controls();
    if (!target) return;
    target.scrollIntoView({block: "center", behavior: "smooth"});
    target.focus({preventScroll: true});
  }

  async function ask(view) {
    const token = TP.tokens(gameId)[view.seat] || null;  // none: the seat is the signed-in player's, by its cookie
    if (st.asked === view.revision) return;
    st.asked = view.revision;
    const reply = await api("GET", `/api/games/${encodeURIComponent(gameId)}/guide`, undefined, token);
    if (!reply.ok) {
      if (reply.status === 404) { localStorage.removeItem(FLAG); if (st.panel) st.panel.remove(); st.panel = null; }
      return;
    }
    const point = reply.data;
    if (st.revision !== null && point.revision !== null && point.revision < st.revision) return;  // overtaken
    const moment = (p) => p && `${p.point}:${p.move}:${p.on_path}`;
    if (moment(point) !== moment(st.point)) st.page = 0;
    st.point = point;
    st.revision = point.revision;
    render();
  }

  document.addEventListener("tp:drawn", (event) => {
    const {view, replaying, label} = event.detail;
    if (replaying || view.seat === null || view.seat === undefined) return;
    st.view = view;
    st.label = label;
    if (st.point) mark();
    ask(view);
  });
})();
