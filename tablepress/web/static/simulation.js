/* Simulation progress: `watchSimulation` follows a job's server-sent events (falling back to polling);
   on the page /simulations/{id} it drives the progress bar, and reloads into the report when done. */
"use strict";

/** Follow simulation `id`: onUpdate(status) on every change, until it is done or failed. Returns a stop function. */
function watchSimulation(id, onUpdate) {
  let stopped = false;
  let source = null;
  const finished = (status) => status.status === "done" || status.status === "failed";
  const poll = async () => {
    while (!stopped) {
      const reply = await TP.api("GET", `/api/simulations/${encodeURIComponent(id)}`);
      if (reply.ok) { onUpdate(reply.data); if (finished(reply.data)) return; }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  if (window.EventSource) {
    source = new EventSource(`/api/simulations/${encodeURIComponent(id)}/events`);
    source.onmessage = (event) => {
      const status = JSON.parse(event.data);
      onUpdate(status);
      if (finished(status)) source.close();
    };
    source.onerror = () => { if (source.readyState === EventSource.CLOSED && !stopped) poll(); };
  } else {
    poll();
  }
  return () => { stopped = true; if (source) source.close(); };
}

/** The words for a status: "120 of 500 games", "waiting: 2 ahead", the failure's reason. */
function simulationText(status) {
  if (status.status === "queued") return status.ahead ? `waiting for a worker (${status.ahead} ahead)` : "waiting for a worker";
  if (status.status === "running") return `${status.done.toLocaleString()} of ${status.games.toLocaleString()} games`;
  if (status.status === "done") return `done: ${playedText(status)}`;
  return `failed: ${status.error}`;
}

/** What a run plays: "500 games", or for a comparison "30 games for each of 2 variants and 60 for the skill gap". */
function playedText(status) {
  const plan = status.plan;
  if (!plan || plan.arms < 2) return `${status.games.toLocaleString()} games`;
  return `${plan.games_per_arm.toLocaleString()} games for each of ${plan.arms} variants` +
    (plan.skill_gap_games ? ` and ${plan.skill_gap_games.toLocaleString()} for the skill gap` : "");
}

if (document.body.classList.contains("sim-page")) {
  const id = location.pathname.split("/").pop();
  const $ = (key) => document.getElementById(key);
  watchSimulation(id, (status) => {
    const arms = status.arms.length > 1 ? `${status.arms[0]} against ${status.arms[1]}` : status.arms[0];
    $("title").textContent = `${status.game}: ${arms}`;
    $("what").textContent = `${playedText(status)}, ${status.players} players, seats ` +
      `${status.seats.join(", ")}, seed ${status.seed}`;
    $("progress").max = status.games;
    $("progress").value = status.done;
    $("status").textContent = simulationText(status);
    $("status").className = status.status === "failed" ? "error" : "";
    $("back").href = `/games/${status.game}`;
    if (status.status === "done") location.reload();
  });
}
