/* Planted at the web table: the Nursery row (lit to buy when you called it), your hand (pick a card,
   then play it or call the Nursery with it — everyone chooses at once, hidden until all have), feeding
   as a prompt with the best choice first, and every player's board: plants with growth tokens,
   resources, tools, decorations, propagation. Drawn only from the view. */
"use strict";
(() => {
  let picked = null;
  let at = -1;
  const RES = {L: "Light", W: "Water", F: "Plant Food", G: "Green Thumb"};

  /** A card's name as people say it: a resource card's letters spelt out ("2 Water and Light"). */
  function said(name) {
    if (!/^[LWFG]+$/.test(name || "")) return name;
    const parts = Object.keys(RES).map((k) => [k, [...name].filter((c) => c === k).length]).filter(([, n]) => n)
      .map(([k, n]) => (n > 1 ? `${n} ${RES[k]}` : RES[k]));
    return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}` : parts[0];
  }

  function face(ui, key, w, label) {
    return ui.h("div", {class: "stacked", dataset: {card: label || key}},
      ui.face(ui.game, String(key), {w, label: label || String(key),
        fallback: () => ui.card({w, h: Math.round(w * 88 / 63), color: "#3f7d4e", title: label || String(key), big: "❦"})}));
  }

  function nursery(view, ui) {
    const row = ui.h("div", {class: "row"});
    for (const plant of view.public.row || []) {
      const buys = ui.legal.filter((a) => a === `buy ${plant.name}` || a.startsWith(`buy ${plant.name} +`));
      const node = face(ui, plant.name, 90, plant.name);
      if (buys.length === 1) ui.clickable(node, buys[0]);
      else if (buys.length > 1) {
        node.classList.add("legal", "pickable");
        node.setAttribute("role", "button");
        node.addEventListener("click", (e) => { e.stopPropagation(); picked = {buy: plant.name}; ui.redraw(); });
      }
      row.append(node);
    }
    return ui.h("div", {class: "zone"}, ui.h("div", {class: "zone-title"}, `Nursery · ${view.public.plant_deck} plants in the deck`), row);
  }

  function hand(view, ui) {
    const cards = (view.private && view.private.hand) || [];
    const row = ui.h("div", {class: "row"});
    for (const card of cards) {
      const actions = ui.legal.filter((a) => new RegExp(`^(play|nursery) ${card.number} `).test(a));
      const node = face(ui, card.number, 96, card.name);
      if (actions.length === 1) ui.clickable(node, actions[0]);
      else if (actions.length > 1) {
        node.classList.add("legal", "pickable");
        node.setAttribute("role", "button");
        if (picked && picked.card === card.number) node.classList.add("picked");
        node.addEventListener("click", (e) => { e.stopPropagation(); picked = {card: card.number}; ui.redraw(); });
      }
      row.append(node);
    }
    if (!cards.length) row.append(ui.h("span", {class: "muted"}, "empty"));
    return ui.h("div", {class: "zone mine"}, ui.h("div", {class: "zone-title"}, "Your hand"), row);
  }

  function prompt(view, ui) {
    if (!ui.interactive) {
      const me = ui.seat !== null && ui.seat !== undefined ? view.public.boards[ui.seat] : null;
      if (me && view.public.phase === "choose" && me.chosen) return ui.h("div", {class: "prompt"}, "Chosen — waiting for the others.");
      return null;
    }
    const phase = view.public.phase;
    if (picked && picked.card !== undefined) {
      const options = ui.legal.filter((a) => new RegExp(`^(play|nursery) ${picked.card} `).test(a));
      return ui.h("div", {class: "prompt row"}, `Card ${picked.card}:`, options.map((a) =>
        ui.clickable(ui.h("button", {type: "button"}, a.startsWith("play") ? "Play it" : "Call the Nursery with it"), a)));
    }
    if (picked && picked.buy) {
      const options = ui.legal.filter((a) => a === `buy ${picked.buy}` || a.startsWith(`buy ${picked.buy} +`));
      return ui.h("div", {class: "prompt row"}, `Buy ${picked.buy}:`, options.map((a) => ui.clickable(ui.h("button", {type: "button"}, label(a)), a)));
    }
    if (phase === "feed") {
      return ui.h("div", {class: "prompt row"}, "Feed your plants:", ui.legal.map((a, i) =>
        ui.clickable(ui.h("button", {type: "button", class: i === 0 ? "primary" : ""}, label(a) + (i === 0 ? " (best)" : "")), a)));
    }
    if (phase === "buy") return ui.h("div", {class: "prompt"}, "You called the Nursery: click a lit plant to buy it.");
    if (phase === "choose") return ui.h("div", {class: "prompt"}, "Choose a card from your hand: play it, or call the Nursery with it.");
    return null;
  }

  function board(view, ui, seat) {
    const b = view.public.boards[seat];
    const plants = ui.h("div", {class: "row"}, b.plants.map((p) => {
      const spaces = p.spaces.map((points, i) => (i < p.tokens ? "■" : "□") + points).join(" ");
      return ui.h("div", {class: "pl-plant", style: "display:flex;flex-direction:column;align-items:center;gap:2px;max-width:92px"},
        face(ui, p.name, 84, p.name),
        ui.h("span", {class: "small", style: "text-align:center;font-size:.78rem;line-height:1.2",
                      title: `grown ${p.tokens} of ${p.spaces.length} spaces, bottom first (■ covered, □ empty): ${p.points} points`},
          spaces, ui.h("br"), ui.h("b", {}, `${p.points} point${p.points === 1 ? "" : "s"}`)));
    }));
    const res = Object.entries(b.resources).filter(([, n]) => n).map(([k, n]) => `${RES[k] || k} ×${n}`).join(" · ") || "no resources";
    const pts = b.points || {};
    const decor = (pts.each_decoration || []).map((d) => `${d.decoration} ${d.points}`).join(", ");
    const facts = [`${b.score} points = plants ${pts.plants ?? "?"} + propagation ${pts.propagation ?? "?"} + decorations ${pts.decorations ?? "?"}` +
      (decor ? ` (${decor})` : ""), `propagation tokens ${b.propagation}`, res,
      b.tools.length ? `tools: ${b.tools.join(", ")}` : null, b.decorations.length ? `decorations: ${b.decorations.join(", ")}` : null,
      `holds ${b.hand.resource} resource + ${b.hand.item} item cards` + (b.chosen ? " (one chosen face down)" : ""),
      view.public.phase === "choose" ? (b.chosen ? "has chosen" : "choosing…") : null,
      b.feeding ? `last fed: ${b.feeding.replace(/^feed /, "")}` : null].filter(Boolean);
    const moving = view.to_move.includes(seat);
    return ui.h("div", {class: `zone${seat === ui.seat ? " mine" : ""}${moving ? " moving" : ""}`, dataset: {board: seat}},
      ui.h("div", {class: "zone-title"}, ui.names[seat]), plants, ui.h("p", {class: "muted small"}, facts.join(" · ")));
  }

  function revealed(view, ui) {
    const list = view.public.revealed || [];
    if (!list.length) return null;
    return ui.h("p", {class: "muted"}, "Revealed: ", list.map((r) => `${ui.names[r.seat]} ${r.nursery ? "called the Nursery with" : "played"} ${said(r.name)}`).join(" · "));
  }

  function label(action) {
    let m = /^(play|nursery) (\d+) (.+)$/.exec(action);
    if (m) return m[1] === "play" ? `play ${said(m[3])} (no. ${m[2]})` : `Nursery with ${said(m[3])} (no. ${m[2]})`;
    m = /^buy (.+?)(?: \+(\w))?$/.exec(action);
    if (m) return `buy ${m[1]}${m[2] ? ` and take ${RES[m[2]] || m[2]}` : ""}`;
    m = /^feed (.+)$/.exec(action);
    if (m) return m[1] === "none" ? "feed nothing" : `feed ${m[1].split("+").join(" + ")}`;
    return action;
  }

  TP.registerGame("planted", {
    /** Draw the table for `view` into ui.board. */
    render(view, ui) {
      if (at !== ui.version) { picked = null; at = ui.version; }
      const pub = view.public;
      ui.board.append(ui.h("p", {class: "muted"}, `Round ${pub.round} of ${pub.rounds} · step ${pub.step} · passing ${pub.direction}`));
      const p = prompt(view, ui);
      if (p) ui.board.append(p);
      ui.board.append(nursery(view, ui));
      const r = revealed(view, ui);
      if (r) ui.board.append(r);
      if (ui.seat !== null && ui.seat !== undefined && view.private && view.private.hand) ui.board.append(hand(view, ui));
      const order = [...pub.boards.keys()];
      if (ui.seat !== null && ui.seat !== undefined) order.sort((a, b) => (a === ui.seat ? -1 : b === ui.seat ? 1 : a - b));
      for (const seat of order) ui.board.append(board(view, ui, seat));
      const known = (view.private && view.private.known_hands) || [];
      for (const k of known) ui.board.append(ui.h("p", {class: "muted small"}, `You saw ${ui.names[k.seat]}'s hand: ${k.cards.map((c) => said(c.name)).join("; ")}`));
    },
    label,
    /** Points so far, from each public board (the sidebar's scores while the game runs). */
    scores(view) { return view.public.boards.map((b) => b.score); },
  });
})();
