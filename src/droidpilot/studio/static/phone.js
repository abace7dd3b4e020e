// The phone page: live frames over a WebSocket, manual operation, recording and the agent panel.
const pid = decodeURIComponent(location.pathname.split("/").pop());
const $ = (id) => document.getElementById(id);
const api = (path) => "/api/phones/" + encodeURIComponent(pid) + path;
const state = { client: null, size: [1080, 2400], status: null, frames: [], url: null };
window.__studio = state;  // for tests and benchmarks: frames received, status, last step

function message(text, ok) { $("msg").textContent = text || ""; $("msg").className = ok ? "ok" : "err"; }

async function post(path, body) {
  try { const r = await studio.post(api(path), Object.assign({ client: state.client }, body || {})); message(""); return r; }
  catch (e) { message(e.message); return null; }
}

function showFrame(buffer) {
  const view = new DataView(buffer);
  const n = view.getUint32(0);
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, n)));
  const blob = new Blob([new Uint8Array(buffer, 4 + n)], { type: "image/jpeg" });
  const url = URL.createObjectURL(blob);
  const img = $("frame");
  img.onload = () => {
    if (state.url && state.url !== url) URL.revokeObjectURL(state.url);
    state.url = url;
    state.frames.push({ seq: header.seq, changed: header.changed, sent: header.sent, shown: Date.now() / 1000 });
    if (state.frames.length > 2000) state.frames.shift();
    if (state.inspecting) refreshInspector();
  };
  img.src = url;
  state.size = header.size;
  document.documentElement.style.setProperty("--ar", header.size[0] / header.size[1]);
}

function showStatus(s) {
  state.status = s;
  $("title").textContent = s.phone + " · " + s.serial;
  const mine = s.controller && s.controller === state.client;
  $("control").textContent = mine ? "You control this phone." :
    (s.controller ? "Someone else controls this phone; you watch." : "Nobody controls this phone.");
  $("take").disabled = !!mine; $("release").disabled = !mine;
  $("take").textContent = s.controller && !mine ? "Take control from the other viewer" : "Take control";
  const rec = s.recording;
  $("rec-status").textContent = rec ? "Recording into " + rec.folder : "Not recording.";
  const steps = $("rec-steps"); steps.textContent = "";
  for (const t of (rec ? rec.steps : [])) steps.appendChild(studio.el("li", t));
  const ag = s.agent;
  $("ag-status").textContent = ag ? ("Agent " + ag.state + " · " + ag.steps + " steps · " + ag.folder +
    (ag.result ? " · " + ag.result.termination : "")) : "No agent run.";
  if (ag && ag.state === "finished") {  // a finished run links to its review
    const link = studio.el("a", " review this run"); link.id = "ag-review";
    link.href = "/review?path=" + encodeURIComponent(ag.folder); $("ag-status").appendChild(link);
  }
  const running = ag && ag.state !== "finished";
  $("ag-start").disabled = !!running; $("ag-stop").disabled = !running;
  $("ag-take").disabled = !(ag && ag.state === "running"); $("ag-back").disabled = !(ag && (ag.state === "paused" || ag.state === "pausing"));
}

function showStep(ev) {
  state.lastStep = ev;
  if (state.status && state.status.agent && typeof ev.step === "number") {  // the live step count
    state.status.agent.steps = Math.max(state.status.agent.steps || 0, ev.step); showStatus(state.status);
  }
  const line = studio.el("div");
  line.appendChild(studio.el("b", "step " + ev.step + ": "));
  line.appendChild(studio.el("span", ev.action || ev.outcome || "-"));
  if (ev.thought) line.appendChild(studio.el("div", ev.thought, "muted"));
  if (ev.error) line.appendChild(studio.el("div", ev.error, "err"));
  $("ag-log").prepend(line);
  const cur = $("ag-current"); cur.textContent = "";
  cur.appendChild(studio.el("div", "step " + ev.step + " · " + (ev.action || "-") + " · " + (ev.outcome || "")));
  studio.drawAction($("overlay"), state.size, ev.grounding);
  const caption = $("caption");
  caption.hidden = false;
  caption.textContent = "step " + ev.step + ": " + (ev.action || ev.outcome || "-") + (ev.thought ? "\n" + ev.thought : "");
}

function clearCaption() {
  $("caption").hidden = true; $("caption").textContent = "";
  studio.drawAction($("overlay"), state.size, null);
}

// A touch echo where the pointer went down, as a phone's "show taps" draws it.
function echo(e) {
  const r = $("screen").getBoundingClientRect();
  const dot = studio.el("div", null, "echo");
  dot.style.left = (e.clientX - r.left) + "px"; dot.style.top = (e.clientY - r.top) + "px";
  $("screen").appendChild(dot);
  setTimeout(() => dot.remove(), 450);
}

// Typing on the focused screen: characters are sent in small batches, Enter as the Enter key.
let typed = "", typeTimer = null;
function flushTyped() {
  clearTimeout(typeTimer); typeTimer = null;
  if (!typed) return Promise.resolve();
  const text = typed; typed = "";
  return post("/op", { op: "type", text });
}
$("screen").addEventListener("keydown", async (e) => {
  if (state.inspecting || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "Enter") { e.preventDefault(); await flushTyped(); post("/op", { op: "key", key: "enter" }); return; }
  if (e.key.length !== 1) return;
  e.preventDefault();
  typed += e.key;
  clearTimeout(typeTimer); typeTimer = setTimeout(flushTyped, 250);
});

function connect() {
  const proto = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(proto + location.host + "/ws/phones/" + encodeURIComponent(pid));
  ws.binaryType = "arraybuffer";
  ws.onopen = () => { $("conn").textContent = "live"; };
  ws.onclose = (e) => {
    if (e.code >= 4400 && e.code < 4500) { $("conn").textContent = "refused: " + (e.reason || e.code); return; }
    $("conn").textContent = "disconnected; reconnecting…"; setTimeout(connect, 1000);
  };
  ws.onmessage = (e) => {
    if (typeof e.data !== "string") { showFrame(e.data); return; }
    const ev = JSON.parse(e.data);
    if (ev.type === "hello") { state.client = ev.client; state.size = ev.size; }
    else if (ev.type === "status") showStatus(ev);
    else if (ev.type === "step") showStep(ev);
    else if (ev.type === "agent") {
      if (state.status) showStatus(Object.assign({}, state.status, { agent: ev }));
      if (ev.state === "finished") clearCaption();  // the last step's caption does not outlive the run
    }
    else if (ev.type === "error") message(ev.message);
  };
}

// The inspector: its tree follows the live screen (one request at a time, the latest screen wins).
const insp = inspector.create({
  panel: $("insp-panel"), overlay: $("insp-overlay"), image: $("frame"),
  load: () => studio.get(api("/inspect")),
  find: (selector) => studio.post(api("/inspect/find"), { selector }),
  words: (x, y) => studio.post(api("/inspect/words"), { x, y }),
});
state.inspector = insp;
let inspBusy = false, inspAgain = false;
async function refreshInspector() {
  if (inspBusy) { inspAgain = true; return; }
  inspBusy = true;
  try { await inspector.refresh(insp); state.inspected = (state.inspected || 0) + 1; state.inspectedAt = Date.now() / 1000; }
  finally { inspBusy = false; if (inspAgain) { inspAgain = false; refreshInspector(); } }
}
$("inspect-toggle").onchange = () => {
  state.inspecting = $("inspect-toggle").checked;
  $("inspector").hidden = !state.inspecting;
  if (state.inspecting) refreshInspector(); else { insp.hovered = null; insp.selected = null; inspector.draw(insp); }
};

// Gestures on the screen image: a click, a hold (long press) or a drag (swipe), in view pixels; while
// inspecting, a hover outlines and a click selects the deepest element instead.
let down = null;
const screen = $("screen");
screen.addEventListener("pointermove", (e) => {
  if (state.inspecting && insp.tree) { const [x, y] = inspector.devicePoint(insp, e); inspector.hoverAt(insp, x, y); }
});
screen.addEventListener("pointerdown", (e) => {
  screen.focus({ preventScroll: true });  // for typing; scrolling now would move the point under the finger
  if (!state.inspecting) echo(e);
  const r = $("frame").getBoundingClientRect();
  down = { x: e.clientX - r.left, y: e.clientY - r.top, t: Date.now(), w: r.width, h: r.height };
  e.preventDefault();
});
screen.addEventListener("pointerup", (e) => {
  if (!down) return;
  if (state.inspecting) { const [x, y] = inspector.devicePoint(insp, e); inspector.selectAt(insp, x, y); down = null; return; }
  const r = $("frame").getBoundingClientRect();
  const x = Math.min(Math.max(e.clientX - r.left, 0), r.width - 1), y = Math.min(Math.max(e.clientY - r.top, 0), r.height - 1);
  const moved = Math.hypot(x - down.x, y - down.y) > 12;
  const base = { x: down.x, y: down.y, view_w: down.w, view_h: down.h };
  if (moved) post("/op", Object.assign(base, { op: "swipe", x2: x, y2: y }));
  else post("/op", Object.assign(base, { op: Date.now() - down.t > 600 ? "long_press" : "click" }));
  down = null;
});
for (const b of document.querySelectorAll("[data-key]")) b.onclick = () => post("/op", { op: "key", key: b.dataset.key });
$("type").onclick = async () => { if (await post("/op", { op: "type", text: $("text").value })) $("text").value = ""; };
$("open").onclick = () => post("/op", { op: "open_app", app: $("app").value });
$("take").onclick = () => {  // a tab left open elsewhere must not lock the phone: take it from that tab
  const other = !!(state.status && state.status.controller && state.status.controller !== state.client);
  post("/control", { action: "take", force: other });
};
$("release").onclick = () => post("/control", { action: "release" });
$("rec-start").onclick = () => { $("rec-replay").textContent = ""; post("/record/start", {
  instruction: $("rec-instruction").value, task_file: $("rec-task").value || undefined,
  start: $("rec-fresh").checked ? "fresh" : "current" }); };
$("rec-stop").onclick = async () => {
  $("rec-replay").textContent = "Stopping and replaying on a fresh phone…"; $("rec-replay").className = "muted";
  const r = await post("/record/stop");
  if (!r) { $("rec-replay").textContent = ""; return; }
  message("Saved " + r.steps.length + " steps in " + r.folder, true);
  showReplay(r);
};
// After Stop: "replays cleanly N/N" or the first step that diverged, and a link to the review.
function showReplay(r) {
  const box = $("rec-replay"); box.textContent = "";
  const rep = r.replay || {};
  box.className = rep.clean === true ? "ok" : (rep.clean === false ? "err" : "muted");
  box.appendChild(studio.el("span", rep.text || ""));
  const link = studio.el("a", " review this recording");
  link.href = "/review?path=" + encodeURIComponent(r.folder);
  box.appendChild(link);
}
$("ag-start").onclick = () => { $("ag-log").textContent = ""; post("/agent/start", {
  instruction: $("ag-instruction").value, brain: $("ag-brain").value, loop: $("ag-loop").value, max_steps: parseInt($("ag-steps").value, 10),
  model: $("ag-model").value, base_url: $("ag-url").value, responses: $("ag-responses").value }); };
$("ag-stop").onclick = () => post("/agent/stop");
$("ag-take").onclick = () => post("/agent/take_over");
$("ag-back").onclick = () => post("/agent/hand_back");
connect();
