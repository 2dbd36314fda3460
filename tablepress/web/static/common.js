/* tablepress web — shared helpers: DOM and SVG builders (no innerHTML with data), the API, tokens,
   card faces and the registry of per-game renderers (each game's folder has a web.js calling
   TP.registerGame). Nothing game-specific lives here. */
"use strict";

const TP = (() => {
  const SVG_NS = "http://www.w3.org/2000/svg";
  const renderers = {};

  /** Build an HTML element: h("div", {class: "x", onclick: fn}, "text", child, [more]). */
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  /** Build an SVG element the same way. */
  function s(tag, attrs, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  function setAttrs(node, attrs) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
  }

  function append(node, children) {
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }

  /** Call the API (`more`: extra request headers); resolves to {ok, status, data} (data {} for a 204). */
  async function api(method, path, body, token, more) {
    const headers = Object.assign({}, more || {});
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers["Authorization"] = "Bearer " + token;
    let response;
    try {
      response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
    } catch (err) {
      return {ok: false, status: 0, data: {detail: "the server cannot be reached"}};
    }
    let data = {};
    if (response.status !== 204) {
      try { data = await response.json(); } catch (err) { data = {detail: response.statusText}; }
    }
    return {ok: response.ok, status: response.status, data};
  }

  /** Seat tokens this browser holds for a game: {seat: token}. */
  function tokens(gameId) {
    try { return JSON.parse(localStorage.getItem("tp:tokens:" + gameId) || "{}"); } catch (err) { return {}; }
  }

  function saveTokens(gameId, map) {
    const merged = Object.assign(tokens(gameId), map);
    localStorage.setItem("tp:tokens:" + gameId, JSON.stringify(merged));
    return merged;
  }

  /** Forget a seat's token (the seat went to an AI). */
  function forgetToken(gameId, seat) {
    const map = tokens(gameId);
    delete map[seat];
    localStorage.setItem("tp:tokens:" + gameId, JSON.stringify(map));
  }

  /** The rules as DOM nodes: the server's HTML of the game's rules.md when it has one (its raw HTML
      escaped there), else the summary text with [b]bold[/b] kept and other console markup dropped. */
  function rules(text, html) {
    const out = h("div", {class: "rules-text"});
    if (html) {
      out.append(new DOMParser().parseFromString(html, "text/html").body.cloneNode(true));
      return out;
    }
    for (const line of String(text || "").split("\n")) {
      const p = h("p");
      const parts = line.split(/(\[\/?b\]|\[\/?[a-z ]+\]|\[\/\])/);
      let bold = false;
      for (const part of parts) {
        if (part === "[b]") { bold = true; continue; }
        if (part === "[/b]") { bold = false; continue; }
        if (/^\[\/?[a-z ]*\]$/.test(part)) continue;
        if (part) p.append(bold ? h("b", {}, part) : document.createTextNode(part));
      }
      out.append(p);
    }
    return out;
  }

  /** A card face in the print sheets' design language: cream card, colour band, big mark, small corner marks.
      opts: {w, h, color, title, big, corner, badge, badgeColor, note, back, dim, label} */
  function card(opts) {
    const w = opts.w || 60, ht = opts.h || 84, r = Math.round(w * 0.1);
    const svg = s("svg", {viewBox: `0 0 ${w} ${ht}`, width: w, height: ht, class: "card-svg",
                          role: "img", "aria-label": opts.label || opts.title || (opts.back ? "face-down card" : "card")});
    if (opts.back) {
      svg.append(s("rect", {x: 1, y: 1, width: w - 2, height: ht - 2, rx: r, fill: opts.color || "#2f4858", stroke: "#1d2d38", "stroke-width": 1.5}));
      svg.append(s("rect", {x: 6, y: 6, width: w - 12, height: ht - 12, rx: r / 2, fill: "none", stroke: "#f4e9d0", "stroke-width": 1, "stroke-dasharray": "3 3"}));
      svg.append(s("text", {x: w / 2, y: ht / 2 + 5, "text-anchor": "middle", "font-size": w * 0.28, fill: "#f4e9d0", "font-family": "Georgia, serif"}, opts.big || "✿"));
      return svg;
    }
    const color = opts.color || "#777";
    svg.append(s("rect", {x: 1, y: 1, width: w - 2, height: ht - 2, rx: r, fill: "#fbf7ee", stroke: color, "stroke-width": 2}));
    svg.append(s("path", {d: `M1 ${r + 1} a${r - 1} ${r - 1} 0 0 1 ${r - 1} ${-r + 1} h${w - 2 * r} a${r - 1} ${r - 1} 0 0 1 ${r - 1} ${r - 1} v${ht * 0.16 - r} h${-(w - 2)} z`, fill: color}));
    if (opts.title) {
      svg.append(s("text", {x: w / 2, y: ht * 0.13, "text-anchor": "middle", "font-size": Math.min(w * 0.16, 11), fill: "#fff",
                            "font-family": "system-ui, sans-serif", "font-weight": 600}, String(opts.title).slice(0, 14)));
    }
    if (opts.big !== undefined && opts.big !== null) {
      svg.append(s("text", {x: w / 2, y: ht * 0.62, "text-anchor": "middle", "font-size": w * (String(opts.big).length > 2 ? 0.3 : 0.5),
                            fill: color, "font-family": "Georgia, serif", "font-weight": 700}, String(opts.big)));
    }
    if (opts.corner) {
      svg.append(s("text", {x: 5, y: ht - 6, "font-size": w * 0.16, fill: color, "font-family": "system-ui, sans-serif", "font-weight": 700}, opts.corner));
    }
    if (opts.note) {
      svg.append(s("text", {x: w / 2, y: ht * 0.82, "text-anchor": "middle", "font-size": Math.min(w * 0.13, 10), fill: "#444",
                            "font-family": "system-ui, sans-serif"}, String(opts.note).slice(0, 16)));
    }
    if (opts.badge) {
      svg.append(s("circle", {cx: w - 11, cy: ht - 11, r: 7, fill: opts.badgeColor || "#444", stroke: "#fff", "stroke-width": 1}));
      svg.append(s("text", {x: w - 11, y: ht - 7.5, "text-anchor": "middle", "font-size": 9, fill: "#fff", "font-family": "system-ui, sans-serif"}, opts.badge));
    }
    if (opts.dim) svg.classList.add("dim");
    return svg;
  }

  /** A card face from the print faces model (/faces/GAME/KEY.svg) as an image `w` pixels wide — with
      opts.gameId, as that game plays it (a variant's cards); if the game has no face for it, `fallback()`
      (e.g. a TP.card drawing) takes its place. */
  function face(game, key, opts = {}) {
    const w = opts.w || 60;
    const query = new URLSearchParams();
    if (opts.back) query.set("back", "1");
    if (opts.gameId) query.set("game", opts.gameId);
    const img = h("img", {src: `/faces/${encodeURIComponent(game)}/${encodeURIComponent(key)}.svg${String(query) ? "?" + query : ""}`,
                          width: w, height: Math.round(w * 88 / 63), alt: opts.label || key, title: opts.title || opts.label || key,
                          class: "face" + (opts.dim ? " dim" : ""), draggable: "false"});
    img.addEventListener("error", () => { if (opts.fallback) img.replaceWith(opts.fallback()); }, {once: true});
    return img;
  }

  /** Register a game's renderer: {render(view, ui), label?(action, view)}. */
  function registerGame(name, renderer) { renderers[name] = renderer; }

  function renderer(name) { return renderers[name] || null; }

  /** Load a game's renderer script (/games/NAME/web.js) once. */
  function loadRenderer(name) {
    if (renderers[name]) return Promise.resolve(renderers[name]);
    return new Promise((resolve) => {
      const script = document.createElement("script");
      script.src = `/games/${encodeURIComponent(name)}/web.js`;
      script.onload = () => resolve(renderers[name] || null);
      script.onerror = () => resolve(null);
      document.head.append(script);
    });
  }

  /** A generic, readable drawing of any JSON value (used when a game has no renderer, and for details). */
  function tree(value, depth = 0) {
    if (value === null || value === undefined) return h("span", {class: "muted"}, "—");
    if (Array.isArray(value)) {
      if (value.every((v) => v === null || typeof v !== "object")) return h("span", {}, value.map((v) => v === null ? "—" : String(v)).join(", ") || "—");
      return h("ol", {class: "tree", start: 0}, value.map((v) => h("li", {}, tree(v, depth + 1))));
    }
    if (typeof value === "object") {
      return h("dl", {class: "tree"}, Object.entries(value).map(([k, v]) => [h("dt", {}, k.replace(/_/g, " ")), h("dd", {}, tree(v, depth + 1))]));
    }
    return h("span", {}, String(value));
  }

  return {h, s, api, tokens, saveTokens, forgetToken, rules, card, face, registerGame, renderer, loadRenderer, tree};
})();
window.TP = TP;
