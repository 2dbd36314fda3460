/* Flowers at the web table: the three stacks (click one to draw), the drawn card, and each player's
   area as a grid; on your placing step the cells the card may go are highlighted and clickable.
   Drawn only from the view: public stacks/areas, and the private face-down draw of the drawer. */
"use strict";
(() => {
  const COLORS = {Y: "#d9a21b", R: "#c8413a", B: "#3c6fc9", G: "#3f8f4a", V: "#8a4fbf"};
  const NAMES = {Y: "Yellow", R: "Red", B: "Blue", G: "Green", V: "Violet"};
  /* Cards are sized to the space: the board's width over the widest area's columns, within these bounds. */
  const MIN_W = 56, MAX_W = 104, HAND_W = 110;
  let W = 64, H = 90;
  const GROUP_TEXT = {exact: "exact group: stays", short: "group too small: discarded if the game ended now",
                      over: "group too big: discarded unless covered"};

  const STYLE = `
    .flowers-grid .cell { position: relative; }
    .flowers-grid .cell.group-short img, .flowers-grid .cell.group-short .card-svg { opacity: .8; box-shadow: 0 0 0 3px #e0a526; border-radius: 6px; }
    .flowers-grid .cell.group-over img, .flowers-grid .cell.group-over .card-svg { opacity: .55; box-shadow: 0 0 0 3px #b3362c; border-radius: 6px; }
    .flowers-grid .cell.region-scores { background: #2f7d5b22; border-radius: 8px; }
    .flowers-grid .mark { position: absolute; left: 2px; bottom: 2px; font: 600 .68rem/1.2 system-ui, sans-serif; color: #fff; padding: 1px 4px; border-radius: 6px; }
    .flowers-grid .mark.need { background: #8a5d10; } .flowers-grid .mark.over { background: #b3362c; }
    .flowers-grid .mark.butterfly { left: auto; right: 2px; top: 2px; bottom: auto; background: #2f7d5b; }
    .flowers-why { display: flex; flex-wrap: wrap; gap: 6px 12px; font-size: .85rem; margin: 4px 0; align-items: center; }
    .flowers-why .bad { color: #b3362c; font-weight: 600; }
    .flowers-why .region-chip { border: 2px solid; border-radius: 10px; padding: 0 6px; }
    .flowers-why .region-chip.scores { font-weight: 600; }`;

  function addStyle() {
    if (document.getElementById("flowers-style")) return;
    const node = document.createElement("style");
    node.id = "flowers-style";
    node.textContent = STYLE;
    document.head.append(node);
  }

  function sizeCards(view, ui) {
    let cols = 1;
    for (const cells of view.public.areas) {
      if (!cells.length) continue;
      const xs = cells.map((c) => c.x);
      cols = Math.max(cols, Math.max(...xs) - Math.min(...xs) + 3);  // a free column each side for placing
    }
    const room = (ui.board.clientWidth || 900) - 40;
    W = Math.max(MIN_W, Math.min(MAX_W, Math.floor(room / cols) - 6));
    H = Math.round(W * 1.4);
  }

  function parse(code) {
    const m = /^([A-Z])(\d*)([a-z]?)$/.exec(code || "");
    return m ? {colour: m[1], value: m[2], wing: m[3] ? m[3].toUpperCase() : ""} : {colour: "?", value: "", wing: ""};
  }

  function drawn(ui, code, covered) {
    if (!code) return ui.card({w: W, h: H, back: true, label: "face-down card"});
    const c = parse(code);
    return ui.card({w: W, h: H, color: COLORS[c.colour] || "#777", title: NAMES[c.colour] || c.colour,
                    big: c.value || "✿", corner: c.value, badge: c.wing ? "B" : null,
                    badgeColor: c.wing ? COLORS[c.wing] : "#555", label: code});
  }

  /** A card: its printed face (faces model), a simple drawing if there is none; +N for covered cards. */
  function face(ui, code, covered, width) {
    const w = width || W;
    const img = code ? ui.face(ui.game, code, {w, label: code, fallback: () => drawn(ui, code)})
                     : ui.face(ui.game, "Y1", {w, back: true, label: "face-down card", fallback: () => drawn(ui, null)});
    const box = ui.h("div", {class: "stacked", dataset: code ? {card: code} : {}}, img);
    if (covered) box.append(ui.h("span", {class: "count", title: `${covered} covered`}, `+${covered}`));
    return box;
  }

  function stacks(view, ui) {
    const row = ui.h("div", {class: "row"});
    for (const stack of view.public.stacks) {
      const action = `draw ${stack.stack}`;
      let card;
      if (!stack.cards) card = ui.h("div", {class: "slot", style: `width:${W}px;height:${H}px`}, "empty");
      else if (stack.top) card = face(ui, stack.top);
      else if (stack.face_up) card = ui.h("div", {class: "slot", style: `width:${W}px;height:${H}px`}, "next");
      else card = face(ui, null);
      const pile = ui.h("div", {class: "pile", dataset: {stack: stack.stack}}, card, `stack ${stack.stack} · ${stack.cards}`);
      row.append(ui.clickable(pile, action));
    }
    return ui.h("div", {class: "zone"}, ui.h("div", {class: "zone-title"}, "Stacks"), row);
  }

  function area(view, ui, seat) {
    const cells = view.public.areas[seat] || [];
    const marks = (view.public.marks || [])[seat] || {cells: {}, regions: [], points: null};
    const grid = new Map(cells.map((c) => [`${c.x},${c.y}`, c.cards]));
    const places = new Map();
    for (const action of ui.legal) {
      const m = /^place \S+ (-?\d+),(-?\d+)$/.exec(action);
      if (m && seat === ui.seat) places.set(`${m[1]},${m[2]}`, action);
    }
    const xs = [], ys = [];
    for (const k of [...grid.keys(), ...places.keys()]) { const [x, y] = k.split(",").map(Number); xs.push(x); ys.push(y); }
    const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
    const log = view.log || [];
    const lastEntry = log.length ? log[log.length - 1] : null;
    const lastMatch = lastEntry && lastEntry.seat === seat ? /^place \S+ (-?\d+,-?\d+)$/.exec(lastEntry.text) : null;
    const lastCell = lastMatch ? lastMatch[1] : null;
    const table = ui.h("div", {class: "flowers-grid", style: `display:grid;grid-template-columns:repeat(${maxX - minX + 1}, ${W + 4}px);gap:2px`});
    for (let y = minY; y <= maxY; y++) {
      for (let x = minX; x <= maxX; x++) {
        const k = `${x},${y}`;
        const stack = grid.get(k);
        let node;
        const mark = marks.cells[k];
        if (stack) {
          node = ui.h("div", {class: `cell${mark && mark.group ? " group-" + mark.group : ""}${mark && mark.region !== null && marks.regions[mark.region].points ? " region-scores" : ""}`,
                              dataset: {cell: k}, title: `${k}: ${stack.join(" / ")}${mark && mark.group ? " — " + GROUP_TEXT[mark.group] : ""}`},
            face(ui, stack[stack.length - 1], stack.length - 1));
          if (mark && mark.group === "short") node.append(ui.h("span", {class: "mark need"}, `needs ${mark.need}`));
          if (mark && mark.group === "over") node.append(ui.h("span", {class: "mark over"}, "too many"));
          if (mark && mark.butterfly) node.append(ui.h("span", {class: "mark butterfly", title: "this butterfly scores 1"}, "+1"));
        }
        else if (places.has(k)) node = ui.h("div", {class: "cell slot", dataset: {cell: k}, style: `width:${W}px;height:${H}px`}, k);
        else node = ui.h("div", {class: "cell", style: `width:${W}px;height:${H}px`});
        if (places.has(k)) ui.clickable(node, places.get(k));
        if (k === lastCell) node.classList.add("last-move");
        table.append(node);
      }
    }
    const moving = view.public.current === seat;
    const score = view.public.scores ? view.public.scores[seat] : "";
    return ui.h("div", {class: `zone${seat === ui.seat ? " mine" : ""}${moving ? " moving" : ""}`, dataset: {area: seat}},
      ui.h("div", {class: "zone-title"}, `${ui.names[seat]} — ${score} points`), why(ui, marks),
      ui.h("div", {class: "area-scroll", role: "region", tabindex: 0, "aria-label": `${ui.names[seat]}'s area`,
                   style: "overflow-x:auto;padding:8px 8px 2px 0"}, table));
  }

  /** Why the area scores what it does: each colour region, the butterflies and the discards (the engine's marks). */
  function why(ui, marks) {
    if (!marks.points) return null;
    const p = marks.points;
    const regions = marks.regions.filter((r) => r.cards > 1).sort((a, b) => b.cards - a.cards).map((r) =>
      ui.h("span", {class: `region-chip${r.points ? " scores" : ""}`, style: `border-color:${COLORS[r.colour[0]] || "#777"}`},
        r.points ? `${r.colour} ${r.cards} cards: +${r.points}` : `${r.colour} ${r.cards} (needs ${r.short_by} more)`));
    return ui.h("div", {class: "flowers-why"},
      ui.h("span", {}, `regions +${p.regions}`), ui.h("span", {}, `butterflies +${p.butterflies}`),
      ui.h("span", {class: p.discards ? "bad" : ""}, `discards ${p.discards} (${marks.discards} card${marks.discards === 1 ? "" : "s"})`),
      regions);
  }

  TP.registerGame("flowers", {
    /** Draw the whole table for `view` into ui.board. */
    render(view, ui) {
      const pub = view.public;
      addStyle();
      sizeCards(view, ui);
      ui.board.append(stacks(view, ui));
      if (pub.step === "place" && pub.current !== null) {
        const drawn = (view.private && view.private.drawn) || pub.drawn;
        const who = pub.current === ui.seat ? "You drew" : `${ui.names[pub.current]} drew`;
        ui.board.append(ui.h("div", {class: "prompt row"}, face(ui, drawn, 0, HAND_W),
          ui.h("span", {}, `${who} from stack ${pub.drawn_from}`, pub.current === ui.seat ? " — click a highlighted cell to place it." : ".")));
      } else if (pub.current === ui.seat && !pub.over) {
        ui.board.append(ui.h("div", {class: "prompt"}, "Draw: click a stack."));
      }
      if (pub.removed && pub.removed.length) {
        ui.board.append(ui.h("p", {class: "muted"}, `Removed by the timer: ${pub.removed.length} (last ${pub.removed[pub.removed.length - 1]})`));
      }
      const order = [...pub.areas.keys()];
      if (ui.seat !== null && ui.seat !== undefined) order.sort((a, b) => (a === ui.seat ? -1 : b === ui.seat ? 1 : a - b));
      for (const seat of order) ui.board.append(area(view, ui, seat));
    },
    /** A readable label for a legal action. */
    label(action) {
      const m = /^place (\S+) (-?\d+,-?\d+)$/.exec(action);
      if (m) return `place ${m[1]} at ${m[2]}`;
      return action.replace(/^draw (\d)$/, "draw from stack $1");
    },
  });
})();
