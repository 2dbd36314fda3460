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
  if (status.status === "done") return `done: ${status.games.toLocaleString()} games`;
  return `failed: ${status.error}`;
}

if (document.body.classList.contains("sim-page")) {
  const id = location.pathname.split("/").pop();
  const $ = (key) => document.getElementById(key);
  watchSimulation(id, (status) => {
    const arms = status.arms.length > 1 ? `${status.arms[0]} against ${status.arms[1]}` : status.arms[0];
    $("title").textContent = `${status.game}: ${arms}`;
    const plan = status.plan;
    const played = plan && plan.arms > 1
      ? `${plan.games_per_arm.toLocaleString()} games for each of ${plan.arms} variants` +
        (plan.skill_gap_games ? ` and ${plan.skill_gap_games.toLocaleString()} greedy-against-random games for the skill gap` : "")
      : `${status.games.toLocaleString()} games`;
    $("what").textContent = `${played}, ${status.players} players, seats ` +
      `${status.seats.join(", ")}, seed ${status.seed}`;
    $("progress").max = status.games;
    $("progress").value = status.done;
    $("status").textContent = simulationText(status);
    $("status").className = status.status === "failed" ? "error" : "";
    $("back").href = `/games/${status.game}`;
    if (status.status === "done") location.reload();
  });
}
