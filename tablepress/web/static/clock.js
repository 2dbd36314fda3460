/* Turn clocks in words (TP.clock: a clock's rule, time left), and on the table page the clock of the seats the
   game waits on: a line pinned under the status bar, counting down each second from what the server said
   (GET /api/games/ID/clock, asked again whenever the table draws a new position), with the rule beside it. */
"use strict";
(() => {
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  /** A clock's length in words, as the server says it: "90 seconds", "10 minutes", "1 hour 30 minutes", "3 days". */
  function duration(seconds) {
    if (seconds < 120 && seconds % 60) return plural(seconds, "second");
    const parts = [];
    let left = seconds;
    for (const [word, size] of [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]]) {
      const count = Math.floor(left / size);
      left -= count * size;
      if (count) parts.push(plural(count, word));
      if (parts.length === 2) break;
    }
    return parts.join(" ") || "0 seconds";
  }

  /** What a clock means: "10 minutes a turn; when time runs out the AI plays that turn". */
  const rule = (seconds) => `${duration(seconds)} a turn; when time runs out the AI plays that turn`;

  /** Time left, short and readable aloud: "2 days 3 h", "5 h 02 min", "9 min 05 s", "42 s". */
  function left(seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    const two = (n) => String(n).padStart(2, "0");
    if (s >= 86400) return `${plural(Math.floor(s / 86400), "day")} ${Math.floor((s % 86400) / 3600)} h`;
    if (s >= 3600) return `${Math.floor(s / 3600)} h ${two(Math.floor((s % 3600) / 60))} min`;
    if (s >= 60) return `${Math.floor(s / 60)} min ${two(s % 60)} s`;
    return `${s} s`;
  }

  TP.clock = {duration, rule, left};

  if (!document.body.classList.contains("table-page")) return;

  // ----- the table page ------------------------------------------------------------------------
  const {h, api} = TP;
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  const st = {clock: null, asked: 0, at: 0, revision: null, seat: null, none: false, timer: null};
  document.head.append(h("link", {rel: "stylesheet", href: "/static/clock.css"}));
  const line = h("div", {id: "clock", class: "clock", role: "timer", "aria-atomic": "true", hidden: true},
    h("span", {class: "clock-left"}), h("span", {class: "clock-rule"}));
  document.getElementById("status").after(line);

  /** Keep the line pinned just under the status bar, however tall that is. */
  function pin() { line.style.top = `${document.getElementById("status").offsetHeight}px`; }

  function draw() {
    const clock = st.clock;
    const waiting = clock && clock.seconds ? clock.waiting : [];
    line.hidden = !waiting.length;
    if (line.hidden) return;
    const gone = (performance.now() - st.at) / 1000;
    const parts = waiting.map((w) => {
      const rest = w.left - gone;
      const who = w.seat === st.seat ? "Your time" : `${w.name}'s time`;
      return rest > 0 ? `${who}: ${left(rest)} left` : `${who} is up — the AI plays this turn…`;
    });
    const mine = waiting.some((w) => w.seat === st.seat);
    const low = waiting.some((w) => w.left - gone < Math.min(60, clock.seconds / 10));
    line.classList.toggle("mine", mine);
    line.classList.toggle("low", low);
    line.querySelector(".clock-left").textContent = `⏱ ${parts.join(" · ")}`;
    line.querySelector(".clock-rule").textContent = `${rule(clock.seconds)}.`;
    pin();
  }

  async function ask() {
    const asked = ++st.asked;
    const reply = await api("GET", `/api/games/${encodeURIComponent(gameId)}/clock`);
    if (asked !== st.asked || !reply.ok) return;
    st.clock = reply.data;
    st.at = performance.now();
    st.none = reply.data.seconds === null;
    draw();
    clearInterval(st.timer);
    st.timer = st.none ? null : setInterval(draw, 1000);
  }

  document.addEventListener("tp:drawn", (event) => {
    const {view, replaying} = event.detail || {};
    if (!view || replaying || st.none) return;
    st.seat = view.seat === undefined ? null : view.seat;
    const revision = view.revision ?? view.version;
    if (view.status === "over") { st.clock = null; clearInterval(st.timer); draw(); return; }
    if (revision !== st.revision) { st.revision = revision; ask(); }
  });
  addEventListener("resize", pin);
})();
