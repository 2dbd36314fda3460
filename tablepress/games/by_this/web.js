/* By This at the web table: the Key in play and the two face-up Keys (click one to play By This), the
   shelf read left to right with each thing's number under the Key, the Floor, and your hand. Click a
   thing (in hand or on the Floor) to pick it up; its legal places light up: the shelf's ends and, with
   Same Number, the gaps beside a card of the same number. Specials you can play light up in your hand.
   Drawn only from the view: the public table and your private hand. */
"use strict";
(() => {
  let picked = null;      // {name, floor} of the thing picked up, for this version of the view
  let pickedAt = -1;

  function parse(action) {
    let m = /^place (.+?)(?: (left|right))?( from floor)?$/.exec(action);
    if (m) return {kind: "place", name: m[1], side: m[2] || "any", floor: !!m[3]};
    m = /^samenumber (.+?) (before|after) (.+?)( from floor)?$/.exec(action);
    if (m) return {kind: "same", name: m[1], where: m[2], other: m[3], floor: !!m[4]};
    m = /^floor (.+)$/.exec(action);
    if (m) return {kind: "floor", name: m[1], floor: false};
    m = /^bythis (.+)$/.exec(action);
    if (m) return {kind: "bythis", key: m[1]};
    return {kind: action};
  }

  const W = 84;

  function thing(ui, card, opts = {}) {
    const name = card.card;
    const fallback = () => ui.card({w: W, h: Math.round(W * 88 / 63), color: card.special ? "#b23a48" : "#8a5a3b", title: name,
                                    big: card.special ? "★" : card.number, label: name});
    const img = ui.face(ui.game, name, {w: opts.w || W, fallback, label: name});
    const box = ui.h("div", {class: "stacked bt-card", dataset: {card: name}}, img);
    if (!card.special && card.number !== undefined) box.append(ui.h("span", {class: "count", title: "number under the Key"}, String(card.number)));
    return box;
  }

  function keyCard(ui, key, w) {
    return ui.face(ui.game, key.name, {w, label: key.name,
      fallback: () => ui.card({w, h: Math.round(w * 88 / 63), color: "#e0a526", title: key.word, big: key.ascending ? "↑" : "↓", note: key.plain})});
  }

  function targetsFor(ui, sel) {
    return ui.legal.filter((a) => { const p = parse(a); return (p.kind === "place" || p.kind === "same" || p.kind === "floor") && p.name === sel.name && p.floor === sel.floor; });
  }

  function pickable(ui, node, name, floor) {
    const actions = ui.legal.filter((a) => { const p = parse(a); return p.name === name && p.floor === floor && (p.kind === "place" || p.kind === "same" || p.kind === "floor"); });
    if (!actions.length || !ui.interactive) return node;
    node.classList.add("legal", "pickable");
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "0");
    node.dataset.pick = `${floor ? "floor" : "hand"}:${name}`;
    if (actions.length === 1) { node.dataset.action = actions[0]; return node; }
    if (picked && picked.name === name && picked.floor === floor) node.classList.add("picked");
    node.addEventListener("click", (event) => {
      event.stopPropagation();
      picked = picked && picked.name === name && picked.floor === floor ? null : {name, floor};
      pickedAt = ui.version;
      ui.redraw();
    });
    return node;
  }

  function slot(ui, text, action) {
    const node = ui.h("div", {class: "slot bt-slot", style: `width:${W / 1.6}px;height:${Math.round(W * 88 / 63)}px`}, text);
    return action ? ui.clickable(node, action) : node;
  }

  function shelf(view, ui) {
    const pub = view.public;
    const row = ui.h("div", {class: "row bt-shelf"});
    const sel = picked;
    const targets = sel ? targetsFor(ui, sel) : [];
    const find = (pred) => targets.find((a) => pred(parse(a)));
    if (sel) {
      const left = find((p) => p.kind === "place" && (p.side === "left" || p.side === "any"));
      if (left) row.append(slot(ui, "◀ here", left));
    }
    const room = (ui.board.clientWidth || 900) - 60;
    const shelfW = Math.max(56, Math.min(96, Math.floor(room / (pub.shelf.length + 3)) - 8));
    pub.shelf.forEach((card) => {
      const before = sel && find((p) => p.kind === "same" && p.where === "before" && p.other === card.card);
      const after = sel && find((p) => p.kind === "same" && p.where === "after" && p.other === card.card);
      if (before) row.append(slot(ui, "◆", before));
      row.append(thing(ui, card, {w: shelfW}));
      if (after) row.append(slot(ui, "◆", after));
    });
    if (sel) {
      const right = find((p) => p.kind === "place" && p.side === "right" && p.side !== "any");
      if (right) row.append(slot(ui, "here ▶", right));
    }
    if (!pub.shelf.length && !sel) row.append(ui.h("span", {class: "muted"}, "The shelf is empty."));
    const info = `Shelf · ${pub.shelf.length} thing${pub.shelf.length === 1 ? "" : "s"} · closing scores ${pub.close_score}` +
                 (pub.can_close ? "" : ` (closes from ${pub.close_min})`);
    return ui.h("div", {class: "zone"}, ui.h("div", {class: "zone-title"}, info), row);
  }

  function keys(view, ui) {
    const pub = view.public;
    const row = ui.h("div", {class: "row"});
    row.append(ui.h("div", {class: "pile"}, keyCard(ui, pub.key, 110), `in play${pub.locked ? " · locked" : ""}`));
    pub.face_up_keys.forEach((key) => {
      const node = ui.h("div", {class: "pile"}, keyCard(ui, key, 84), "face up");
      row.append(ui.clickable(node, `bythis ${key.plain}`));
    });
    row.append(ui.h("div", {class: "pile"}, ui.card({w: 60, h: 84, back: true, big: "Keys"}), `${pub.key_deck} keys`));
    row.append(ui.h("div", {class: "pile"}, ui.card({w: 60, h: 84, back: true}), `deck ${pub.deck}`));
    return ui.h("div", {class: "zone"}, ui.h("div", {class: "zone-title"}, `Key: ${pub.key.name} — read ${pub.key.word}`), row);
  }

  function floor(view, ui) {
    const row = ui.h("div", {class: "row"});
    for (const card of view.public.floor) row.append(pickable(ui, thing(ui, card), card.card, true));
    if (!view.public.floor.length) row.append(ui.h("span", {class: "muted"}, "empty"));
    return ui.h("div", {class: "zone"}, ui.h("div", {class: "zone-title"}, "Floor"), row);
  }

  function hand(view, ui) {
    const cards = (view.private && view.private.hand) || [];
    const row = ui.h("div", {class: "row"});
    for (const card of cards) {
      const node = thing(ui, card, {w: 100});
      if (card.special) {
        const effect = card.effect;
        const action = effect === "dump" ? "dump" : effect === "lock" ? "lock" : null;
        row.append(action ? ui.clickable(node, action) : node);
      } else {
        row.append(pickable(ui, node, card.card, false));
      }
    }
    return ui.h("div", {class: "zone mine"}, ui.h("div", {class: "zone-title"}, "Your hand"), row);
  }

  function prompt(view, ui) {
    const pub = view.public;
    if (!ui.interactive) return null;
    if (pub.phase === "close") {
      return ui.h("div", {class: "prompt row"}, `Close the shelf for ${pub.close_score} points?`,
        ui.clickable(ui.h("button", {type: "button"}, "Close"), "close"),
        ui.clickable(ui.h("button", {type: "button"}, "Keep it open"), "keep"));
    }
    if (ui.legalSet.has("pass")) return ui.h("div", {class: "prompt row"}, "Nothing to do:", ui.clickable(ui.h("button", {type: "button"}, "Pass"), "pass"));
    if (ui.legal.some((a) => a.startsWith("floor "))) return ui.h("div", {class: "prompt"}, "You cannot place: click a thing in your hand to put it on the Floor.");
    return ui.h("div", {class: "prompt"}, picked ? `Place ${picked.name}: click a lit spot on the shelf.` : "Click a lit thing (hand or Floor) to pick it up, or a lit special.");
  }

  function players(view, ui) {
    const pub = view.public;
    return ui.h("p", {class: "muted"}, pub.hand_sizes.map((n, seat) =>
      `${ui.names[seat]}: ${n} in hand, ${pub.closes[seat]} closes`).join(" · "),
      ` · closes ${pub.total_closes}/${pub.closes_to_end}`);
  }

  /** Every shelf closed so far: who closed it, for how many points, and what was on it. */
  function closedShelves(view, ui) {
    const shelves = view.public.shelves || [];
    if (!shelves.length) return null;
    const list = ui.h("ol", {class: "bt-shelves"}, shelves.map((entry) => ui.h("li", {},
      ui.h("b", {}, entry.seat === null ? "closed by force" : ui.names[entry.seat]),
      ` — ${entry.points} point${entry.points === 1 ? "" : "s"} for ${entry.cards.length} thing${entry.cards.length === 1 ? "" : "s"}: `,
      ui.h("span", {class: "muted"}, entry.cards.join(", ")))));
    return ui.h("div", {class: "zone"}, ui.h("div", {class: "zone-title"}, `Closed shelves · ${shelves.length} of ${view.public.closes_to_end}`), list);
  }

  TP.registerGame("by-this", {
    /** Draw the table for `view` into ui.board. */
    render(view, ui) {
      if (pickedAt !== ui.version) { picked = null; pickedAt = ui.version; }
      if (picked && !targetsFor(ui, picked).length) picked = null;
      ui.board.append(keys(view, ui), shelf(view, ui));
      const p = prompt(view, ui);
      if (p) ui.board.append(p);
      ui.board.append(floor(view, ui));
      if (ui.seat !== null && ui.seat !== undefined && view.private && view.private.hand) ui.board.append(hand(view, ui));
      ui.board.append(players(view, ui));
      const history = closedShelves(view, ui);
      if (history) ui.board.append(history);
    },
    /** A readable label for a legal action. */
    label(action) {
      const p = parse(action);
      const from = p.floor ? " (from the Floor)" : "";
      if (p.kind === "place") return p.side === "any" ? `place ${p.name}${from}` : `${p.name} → ${p.side} end${from}`;
      if (p.kind === "same") return `Same Number: ${p.name} ${p.where} ${p.other}${from}`;
      if (p.kind === "floor") return `${p.name} to the Floor`;
      if (p.kind === "bythis") return `By This: ${p.key}`;
      return {dump: "Dump the Shelf", lock: "Lock the Key", close: "Close the shelf", keep: "Keep it open", pass: "Pass"}[action] || action;
    },
  });
})();
