/* Pressed at the web table: the Flower Bed as columns (pick up a card from your hand, then click the
   lit space under a column; a Tulip or Baby's Breath then asks what it chooses or copies), the Anemone's
   swap as a prompt, picking a whole column, and pressing 4 of your picked cards by ticking them.
   Drawn only from the view: the public bed, picks and scores; your private hand and pressed cards. */
"use strict";
(() => {
  let picked = null;        // code of the hand card picked up
  let column = null;        // column clicked while a choice is pending
  let pressing = new Set(); // indices of to_press cards ticked
  let at = -1;
  /* Bed cards are sized to the board (the bed's columns over its width, within bounds); a bed card under
     another shows its top part (name and table), the last card of a column in full. */
  let W = 72;
  const HAND_W = 100, PICK_W = 84, SHOWN = 0.46;

  function names(view) {
    const map = {};
    for (const c of view.public.cards || []) map[c.code] = c.name;
    return map;
  }

  function parse(action) {
    let m = /^plant (\S+) (\d+)(.*)$/.exec(action);
    if (m) return {kind: "plant", code: m[1], column: Number(m[2]), extra: m[3].trim()};
    m = /^pick (\d+)$/.exec(action);
    if (m) return {kind: "pick", column: Number(m[1])};
    return {kind: action.split(" ")[0]};
  }

  function face(ui, code, opts = {}) {
    const w = opts.w || W;
    const box = ui.h("div", {class: "stacked", dataset: {card: code}},
      ui.face(ui.game, code, {w, label: opts.label || code,
        fallback: () => ui.card({w, h: Math.round(w * 88 / 63), color: "#6b8f3a", title: code, big: code})}));
    return box;
  }

  function bed(view, ui, nm) {
    const pub = view.public;
    const room = (ui.board.clientWidth || 900) - 40;
    W = Math.max(60, Math.min(100, Math.floor(room / (pub.bed.length + 0.5)) - 12));
    const grid = ui.h("div", {class: "row pr-bed", style: "align-items:flex-start"});
    const plants = picked ? ui.legal.filter((a) => { const p = parse(a); return p.kind === "plant" && p.code === picked; }) : [];
    pub.bed.forEach((cards, index) => {
      const col = index + 1;
      const stack = ui.h("div", {class: "pr-column", dataset: {column: col}});
      stack.append(ui.h("div", {class: "pile"}, pub.taken && pub.taken[index] !== null && pub.taken[index] !== undefined
        ? `taken by ${ui.names[pub.taken[index]]}` : `column ${col}`));
      cards.forEach((code, row) => {
        const node = face(ui, code, {label: `${nm[code] || code}, row ${row + 1}`});
        node.classList.add("pr-card");
        if (row > 0) node.style.marginTop = `-${Math.round(W * 88 / 63 * (1 - SHOWN))}px`;
        if (pub.swap_row === row + 1) node.classList.add("pr-swaprow");
        if (pub.last && pub.last.column === col && pub.last.row === row + 1) node.classList.add("last-move");
        stack.append(node);
      });
      const here = plants.filter((a) => parse(a).column === col);
      if (here.length) {
        const space = ui.h("div", {class: "slot", style: `width:${W}px;height:${Math.round(W * 0.8)}px`}, "plant");
        if (here.length === 1) ui.clickable(space, here[0]);
        else {
          space.classList.add("legal");
          space.setAttribute("role", "button");
          space.addEventListener("click", (event) => { event.stopPropagation(); column = col; ui.redraw(); });
        }
        stack.append(space);
      }
      const pick = `pick ${col}`;
      if (ui.legalSet.has(pick)) ui.clickable(stack, pick);
      grid.append(stack);
    });
    return ui.h("div", {class: "zone"}, ui.h("div", {class: "zone-title"}, `Flower Bed — round ${pub.round} of ${pub.rounds}`), grid);
  }

  function choices(view, ui, nm) {
    if (!picked || column === null) return null;
    const options = ui.legal.filter((a) => { const p = parse(a); return p.kind === "plant" && p.code === picked && p.column === column; });
    if (options.length < 2) return null;
    const word = (extra) => extra.replace(/(copy|choose) (\S+)/g, (_m, verb, code) => `${verb} ${nm[code] || code}`);
    return ui.h("div", {class: "prompt row"}, `${nm[picked] || picked} in column ${column}:`,
      options.map((a) => ui.clickable(ui.h("button", {type: "button"}, word(parse(a).extra)), a)));
  }

  function hand(view, ui, nm) {
    const cards = (view.private && view.private.hand) || [];
    const row = ui.h("div", {class: "row"});
    for (const code of cards) {
      const node = face(ui, code, {w: HAND_W, label: nm[code] || code});
      const mine = ui.legal.filter((a) => { const p = parse(a); return p.kind === "plant" && p.code === code; });
      if (mine.length && ui.interactive) {
        node.classList.add("legal", "pickable");
        node.setAttribute("role", "button");
        if (picked === code) node.classList.add("picked");
        node.addEventListener("click", (event) => {
          event.stopPropagation();
          picked = picked === code ? null : code;
          column = null;
          ui.redraw();
        });
      }
      row.append(node);
    }
    if (!cards.length) row.append(ui.h("span", {class: "muted"}, "empty"));
    return ui.h("div", {class: "zone mine"}, ui.h("div", {class: "zone-title"}, "Your hand"), row);
  }

  function press(view, ui, nm) {
    const cards = (view.private && view.private.to_press) || [];
    if (!cards.length || !ui.legal.some((a) => a.startsWith("press "))) return null;
    const row = ui.h("div", {class: "row"});
    cards.forEach((code, index) => {
      const node = face(ui, code, {w: PICK_W, label: nm[code] || code});
      node.classList.add("legal", "pickable");
      node.setAttribute("role", "button");
      if (pressing.has(index)) node.classList.add("picked");
      node.addEventListener("click", (event) => {
        event.stopPropagation();
        if (pressing.has(index)) pressing.delete(index); else pressing.add(index);
        ui.redraw();
      });
      row.append(node);
    });
    const action = "press " + [...pressing].sort((a, b) => a - b).map((i) => cards[i]).join(" ");
    const button = ui.h("button", {type: "button", disabled: !ui.legalSet.has(action)}, `Press ${pressing.size} card${pressing.size === 1 ? "" : "s"}`);
    return ui.h("div", {class: "prompt"}, "Tick the cards to press (4), then press them:", row, ui.clickable(button, action));
  }

  function swaps(view, ui, nm) {
    const options = ui.legal.filter((a) => a.startsWith("swap ") || a === "noswap");
    if (!options.length) return null;
    const bedCards = view.public.bed;
    const cell = (rc) => { const [r, c] = rc.split(",").map(Number); return `${nm[bedCards[c - 1][r - 1]] || "?"} (column ${c})`; };
    return ui.h("div", {class: "prompt row"}, "Anemone: swap two cards of its row?",
      options.map((a) => {
        const m = /^swap (\S+) (\S+)$/.exec(a);
        return ui.clickable(ui.h("button", {type: "button"}, m ? `${cell(m[1])} ↔ ${cell(m[2])}` : "No swap"), a);
      }));
  }

  function others(view, ui, nm) {
    const pub = view.public;
    const lines = ui.names.map((name, seat) => {
      const picks = (pub.picks || []).map((round) => round[seat]).filter(Boolean);
      const last = picks.length ? picks[picks.length - 1] : null;
      return ui.h("li", {}, ui.h("b", {}, name), `: ${pub.scores[seat]} points · ${pub.hand_sizes[seat]} in hand · ${pub.pressed_counts[seat]} pressed`,
        last ? ` · picked column ${last.column}: ${last.cards.map((c) => nm[c] || c).join(", ")}` : "");
    });
    const last = pub.last ? ui.h("p", {class: "muted"}, `Last: ${ui.names[pub.last.seat]} planted ${nm[pub.last.flower] || pub.last.flower} in column ${pub.last.column} for ${pub.last.points}.`) : null;
    const mine = view.private && view.private.pressed && view.private.pressed.length
      ? ui.h("p", {}, "Your pressed collection: ", view.private.pressed.map((c) => nm[c] || c).join(", ")) : null;
    return [last, ui.h("ul", {class: "pr-players"}, lines), mine];
  }

  TP.registerGame("pressed", {
    /** Draw the table for `view` into ui.board. */
    render(view, ui) {
      if (at !== ui.version) { picked = null; column = null; pressing = new Set(); at = ui.version; }
      const nm = names(view);
      const pub = view.public;
      const phase = {plant: "Plant a card from your hand", swap: "Anemone swap", pick: "Pick a whole column", press: "Press 4 cards", over: "Game over"}[pub.phase] || pub.phase;
      ui.board.append(ui.h("p", {class: "prompt"}, `${phase}.`, ui.interactive && pub.phase === "plant" ? (picked ? " Now click a lit space under a column." : " Click a card in your hand.") : ""));
      const extra = choices(view, ui, nm) || swaps(view, ui, nm) || press(view, ui, nm);
      if (extra) ui.board.append(extra);
      ui.board.append(bed(view, ui, nm));
      if (view.private && view.private.hand !== undefined && ui.seat !== null) ui.board.append(hand(view, ui, nm));
      ui.board.append(...others(view, ui, nm).filter(Boolean));
    },
    /** A readable label for a legal action. */
    label(action, view) {
      const nm = names(view);
      const w = (code) => nm[code] || code;
      const p = parse(action);
      if (p.kind === "plant") return `${w(p.code)} → column ${p.column}${p.extra ? " (" + p.extra.replace(/(copy|choose) (\S+)/g, (_m, v, c) => `${v} ${w(c)}`) + ")" : ""}`;
      if (p.kind === "press") return "press " + action.split(" ").slice(1).map(w).join(", ");
      if (action === "noswap") return "no swap";
      return action;
    },
  });
})();
