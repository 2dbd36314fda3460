/* Flowers at the web table: the three stacks (click one to draw), the drawn card, and each player's
   area as a grid; on your placing step the cells the card may go are highlighted and clickable.
   Drawn only from the view: public stacks/areas, and the private face-down draw of the drawer. */
"use strict";
(() => {
  const COLORS = {Y: "#d9a21b", R: "#c8413a", B: "#3c6fc9", G: "#3f8f4a", V: "#8a4fbf"};
  const NAMES = {Y: "Yellow", R: "Red", B: "Blue", G: "Green", V: "Violet"};
  const W = 50, H = 70;

  function parse(code) {
    const m = /^([A-Z])(\d*)([a-z]?)$/.exec(code || "");
    return m ? {colour: m[1], value: m[2], wing: m[3] ? m[3].toUpperCase() : ""} : {colour: "?", value: "", wing: ""};
  }

  function drawn(ui, code, covered) {
    if (!code) return ui.card({w: W, h: H, back: true, label: "face-down card"});
    const c = parse(code);
    return ui.card({w: W, h: H, color: COLORS[c.colour] || "#777", title: NAMES[c.colour] || c.colour,
                    big: c.value || "✿", corner: c.value, badge: c.wing ? "🦋" : null,
                    badgeColor: c.wing ? COLORS[c.wing] : "#555", label: code});
  }

  /** A card: its printed face (faces model), a simple drawing if there is none; +N for covered cards. */
  function face(ui, code, covered) {
    const img = code ? ui.face(ui.game, code, {w: W, label: code, fallback: () => drawn(ui, code)})
                     : ui.face(ui.game, "Y1", {w: W, back: true, label: "face-down card", fallback: () => drawn(ui, null)});
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
        if (stack) node = ui.h("div", {class: "cell", dataset: {cell: k}, title: `${k}: ${stack.join(" / ")}`}, face(ui, stack[stack.length - 1], stack.length - 1));
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
      ui.h("div", {class: "zone-title"}, `${ui.names[seat]} — ${score} points`), ui.h("div", {style: "overflow-x:auto;padding:8px 8px 2px 0"}, table));
  }

  TP.registerGame("flowers", {
    /** Draw the whole table for `view` into ui.board. */
    render(view, ui) {
      const pub = view.public;
      ui.board.append(stacks(view, ui));
      if (pub.step === "place" && pub.current !== null) {
        const drawn = (view.private && view.private.drawn) || pub.drawn;
        const who = pub.current === ui.seat ? "You drew" : `${ui.names[pub.current]} drew`;
        ui.board.append(ui.h("div", {class: "prompt row"}, face(ui, drawn),
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
