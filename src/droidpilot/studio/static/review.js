// The review page: open a trace or bench folder, step through frames, see verdicts, label and export.
const $ = (id) => document.getElementById(id);
const view = { trace: null, index: 0, folder: null };
window.__review = view;

function message(text, ok) { $("msg").textContent = text || ""; $("msg").className = ok ? "ok" : "err"; }
async function call(what, body) {
  try { const r = await studio.post("/api/review/" + what, body); message(""); return r; }
  catch (e) { message(e.message); return null; }
}

async function openFolder() {
  const data = await call("open", { path: $("path").value });
  if (!data) return;
  view.folder = data.path;
  const list = $("traces"); list.textContent = "";
  for (const t of data.traces) {
    const li = studio.el("li", t.name + (t.label ? " [" + t.label + "]" : "") +
      (t.su !== undefined && t.su !== null ? " · su " + t.su : ""));
    li.onclick = () => { for (const o of list.children) o.classList.remove("sel"); li.classList.add("sel"); loadTrace(t.path); };
    list.appendChild(li);
  }
  if (data.traces.length) list.firstChild.click();
}

async function loadTrace(path) {
  const data = await call("trace", { path });
  if (!data) return;
  view.trace = data; view.index = 0;
  $("instruction").textContent = data.instruction;
  const label = data.label || {};
  for (const r of document.querySelectorAll("input[name=label]")) r.checked = r.value === label.label;
  $("note").value = label.note || "";
  $("label-status").textContent = label.label ? "Labelled " + label.label + "." : "Not labelled.";
  showVerdict(data.verify);
  showOracle(data.oracle);
  showFrame();
}

function entryGeometry(a) {
  if (!a) return null;
  const g = {};
  if (a.press_position_x !== undefined) { g.point = [a.press_position_x, a.press_position_y]; g.end = [a.release_position_x, a.release_position_y]; }
  else if (a.position_x !== undefined) g.point = [a.position_x, a.position_y];
  if (Array.isArray(a.bounds)) g.box = a.bounds;
  return g;
}

function showFrame() {
  const t = view.trace; if (!t || !t.frames.length) return;
  const f = t.frames[view.index];
  $("counter").textContent = "frame " + f.index + " of " + t.frames.length;
  const img = $("shot");
  img.onload = () => studio.drawAction($("shot-overlay"), [img.naturalWidth, img.naturalHeight], entryGeometry(f.action));
  img.src = "/api/review/image?path=" + encodeURIComponent(t.path) + "&n=" + f.index;
  if (view.inspecting) { if (insp.percBox) insp.percBox.checked = false; insp.extra = null; insp.percNote.textContent = ""; inspector.refresh(insp); }
  const box = $("step"); box.textContent = "";
  const act = (f.step.action && f.step.action.text) || f.action.type;
  box.appendChild(studio.el("div", "action: " + act));
  if (f.step.by === "person") box.appendChild(studio.el("div", "by a person (the agent was paused)", "muted"));
  if (f.action.text) box.appendChild(studio.el("div", "target: " + f.action.text, "muted"));
  if (f.step.thought || f.reasoning) box.appendChild(studio.el("div", "thought: " + (f.step.thought || f.reasoning)));
  if (f.step.outcome) box.appendChild(studio.el("div", "outcome: " + f.step.outcome));
  if (f.step.error) box.appendChild(studio.el("div", f.step.error, "err"));
}

function showVerdict(v) {
  const box = $("verdict"); box.textContent = "";
  const table = $("decisions"); table.textContent = "";
  if (!v) { box.appendChild(studio.el("div", "No verdict yet.", "muted")); return; }
  box.appendChild(studio.el("div", (v.ok ? "PASS" : "FAIL") + (v.manual_review_needed ? " (manual review needed)" : ""), v.ok ? "ok" : "err"));
  if (v.reason) box.appendChild(studio.el("div", v.reason, "muted"));
  for (const m of (v.matched || [])) box.appendChild(studio.el("div", "✓ " + (m.name || m.node) + " at frame " + m.frame));
  const head = studio.el("tr"); for (const h of ["node", "frame", "result", "checker", "reason"]) head.appendChild(studio.el("th", h));
  table.appendChild(head);
  for (const d of (v.decisions || [])) {
    const tr = studio.el("tr"); const c = d.check || {};
    for (const cell of [d.node, d.frame, d.result, c.checker, c.reason]) tr.appendChild(studio.el("td", cell === undefined ? "" : cell));
    table.appendChild(tr);
  }
}

function showOracle(o) {
  const box = $("oracle"); box.textContent = "";
  if (!o) { box.appendChild(studio.el("div", "No oracle for this trace.", "muted")); return; }
  box.appendChild(studio.el("div", o.ok ? "state check passed" : "state check failed", o.ok ? "ok" : "err"));
  for (const c of (o.checks || [])) box.appendChild(studio.el("div", (c.ok ? "✓ " : "✗ ") + c.path + " " + c.op + " " +
    JSON.stringify(c.expected) + " (got " + JSON.stringify(c.actual) + ")"));
}

// The inspector on the frame shown: its UI dump, selectors, and what perception saw at this step.
const frameBody = (extra) => Object.assign({ path: view.trace.path, n: view.trace.frames[view.index].index }, extra || {});
const insp = inspector.create({
  panel: $("insp-panel"), overlay: $("insp-overlay"), image: $("shot"),
  load: () => studio.post("/api/review/inspect", frameBody()),
  find: (selector) => studio.post("/api/review/find", frameBody({ selector })),
  words: (x, y) => studio.post("/api/review/words", frameBody({ x, y })),
  perception: () => studio.post("/api/review/perception", frameBody()),
});
view.inspector = insp;
$("inspect-toggle").onchange = () => {
  view.inspecting = $("inspect-toggle").checked;
  $("inspector").hidden = !view.inspecting;
  if (view.inspecting && view.trace) inspector.refresh(insp);
  else { insp.tree = null; inspector.draw(insp); }
};
$("shot-box").addEventListener("pointermove", (e) => {
  if (view.inspecting && insp.tree) { const [x, y] = inspector.devicePoint(insp, e); inspector.hoverAt(insp, x, y); }
});
$("shot-box").addEventListener("click", (e) => {
  if (view.inspecting && insp.tree) { const [x, y] = inspector.devicePoint(insp, e); inspector.selectAt(insp, x, y); }
});

$("open").onclick = openFolder;
$("path").addEventListener("keydown", (e) => { if (e.key === "Enter") openFolder(); });
$("prev").onclick = () => { if (view.trace && view.index > 0) { view.index--; showFrame(); } };
$("next").onclick = () => { if (view.trace && view.index < view.trace.frames.length - 1) { view.index++; showFrame(); } };
$("verify").onclick = async () => {
  if (!view.trace) return;
  const v = await call("verify", { path: view.trace.path, rule: $("rule").value });
  if (v) showVerdict(v);
};
$("save-label").onclick = async () => {
  if (!view.trace) return;
  const chosen = document.querySelector("input[name=label]:checked");
  const r = await call("label", { path: view.trace.path, label: chosen ? chosen.value : null, note: $("note").value });
  if (r) $("label-status").textContent = "Labelled " + r.label + ".";
};
$("export").onclick = async () => {
  const r = await call("export", { path: view.folder || (view.trace && view.trace.path) });
  if (r) message("Exported " + r.count + " labels to " + r.path, true);
};
$("save-task").onclick = async () => {
  if (!view.trace) return;
  const r = await call("save-task", { path: view.trace.path, task_file: $("task-file").value, out: $("task-out").value });
  if (r) message("Wrote " + r.path, true);
};
const initial = new URLSearchParams(location.search).get("path");
if (initial) { $("path").value = initial; openFolder(); }
