// The review page: open a trace or bench folder, step through frames, see verdicts, label and export.
const $ = (id) => document.getElementById(id);
const view = { trace: null, index: 0, folder: null };
window.__review = view;

function message(text, ok) { $("msg").textContent = text || ""; $("msg").className = ok ? "ok" : "err"; }
async function call(what, body, method) {
  try { const r = method === "GET" ? await studio.get("/api/review/" + what) : await studio.post("/api/review/" + what, body); message(""); return r; }
  catch (e) { message(e.message); return null; }
}

async function openFolder(path) {
  if (typeof path === "string") $("path").value = path;
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
  view.trace = data; view.index = 0; view.verifying = false;
  $("rule").value = "";  // a rule typed for the previous trace is not this trace's rule
  $("instruction").textContent = data.instruction;
  $("scrub").max = Math.max(0, data.frames.length - 1); $("scrub").value = 0;
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
  $("scrub").value = view.index;
  const img = $("shot");
  img.onload = () => studio.drawAction($("shot-overlay"), [img.naturalWidth, img.naturalHeight], entryGeometry(f.action));
  img.src = "/api/review/image?path=" + encodeURIComponent(t.path) + "&n=" + f.index;
  if (view.inspecting) { if (insp.percBox) insp.percBox.checked = false; insp.extra = null; insp.percNote.textContent = ""; inspector.refresh(insp); }
  const box = $("step"); box.textContent = "";
  const act = (f.step.action && f.step.action.text) || f.action.type;
  box.appendChild(studio.el("div", "action: " + act));
  if (f.step.by === "person") box.appendChild(studio.el("div", "a person's step (manual step " + f.step.manual + ")", "muted"));
  if (f.action.text) box.appendChild(studio.el("div", "target: " + f.action.text, "muted"));
  if (f.step.thought || f.reasoning) box.appendChild(studio.el("div", "thought: " + (f.step.thought || f.reasoning)));
  if (f.step.outcome) box.appendChild(studio.el("div", "outcome: " + f.step.outcome));
  if (f.step.error) box.appendChild(studio.el("div", f.step.error, "err"));
}

function goToFrame(n) {  // n: a frame number as shown (from 1)
  const t = view.trace; if (!t) return;
  const i = t.frames.findIndex((f) => f.index === n);
  if (i >= 0) { view.index = i; showFrame(); }
}

// verify.json's frame fields are MobiFlow's 0-based frame_index: shown here from 1, like N.jpg.
function showVerdict(v) {
  const box = $("verdict"); box.textContent = ""; box.className = "";
  const table = $("decisions"); table.textContent = "";
  if (!v) { box.appendChild(studio.el("div", "No verdict yet.", "muted")); return; }
  box.appendChild(studio.el("div", (v.ok ? "PASS" : "FAIL") + (v.manual_review_needed ? " (manual review needed)" : ""), v.ok ? "ok" : "err"));
  if (v.rule && v.rule.name) box.appendChild(studio.el("div", "verified against " + v.rule.name, "muted rule-used"));
  if (v.reason) box.appendChild(studio.el("div", v.reason, "muted"));
  for (const m of (v.matched || [])) {
    const line = studio.el("div", "✓ " + (m.name || m.node) + " at frame " + (m.frame + 1), "matched");
    line.onclick = () => goToFrame(m.frame + 1);
    box.appendChild(line);
  }
  const head = studio.el("tr"); for (const h of ["node", "frame", "result", "checker", "reason"]) head.appendChild(studio.el("th", h));
  table.appendChild(head);
  for (const d of (v.decisions || [])) {
    const tr = studio.el("tr"); const c = d.check || {};
    const frame = typeof d.frame === "number" ? d.frame + 1 : "";
    for (const cell of [d.node, frame, d.result, c.checker, c.reason]) tr.appendChild(studio.el("td", cell === undefined ? "" : cell));
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

$("open").onclick = () => openFolder();
$("path").addEventListener("keydown", (e) => { if (e.key === "Enter") openFolder(); });
$("prev").onclick = () => { if (view.trace && view.index > 0) { view.index--; showFrame(); } };
$("next").onclick = () => { if (view.trace && view.index < view.trace.frames.length - 1) { view.index++; showFrame(); } };
$("verify").onclick = async () => {
  if (!view.trace || view.verifying) return;
  const path = view.trace.path;
  view.verifying = true; $("verify").disabled = true;
  const box = $("verdict"); box.textContent = ""; box.className = "busy"; $("decisions").textContent = "";
  box.appendChild(studio.el("div", "Verifying " + view.trace.frames.length + " frames against " +
    ($("rule").value ? $("rule").value : "the rule found for this trace") + "…", "muted"));
  const v = await call("verify", { path, rule: $("rule").value });
  view.verifying = false; $("verify").disabled = false; box.className = "";
  if (view.trace && view.trace.path === path) { if (v) showVerdict(v); else box.textContent = ""; }
};
$("scrub").oninput = () => { if (view.trace) { view.index = Number($("scrub").value); showFrame(); } };
document.addEventListener("keydown", (e) => {
  if (!view.trace || ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName)) return;
  const last = view.trace.frames.length - 1;
  const to = { ArrowLeft: view.index - 1, ArrowRight: view.index + 1, Home: 0, End: last }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  view.index = Math.min(Math.max(to, 0), last); showFrame();
});
let zoom = 320;
const setZoom = (w) => { zoom = Math.min(Math.max(w, 200), 1080); $("shot-box").style.width = zoom + "px"; };
$("zoom-in").onclick = () => setZoom(zoom * 1.25);
$("zoom-out").onclick = () => setZoom(zoom / 1.25);

// The trace browser: recent recordings, agent runs and bench runs, and a walk through any folder.
async function showRecent() {
  const r = await call("recent", undefined, "GET"); if (!r) return;
  const list = $("recent"); list.textContent = "";
  for (const t of r.traces.concat(r.bench)) {
    const li = studio.el("li", null);
    li.append(studio.el("span", t.kind + " · ", "muted"), studio.el("span", t.instruction || t.suite || t.name));
    li.title = t.path;
    li.onclick = () => openFolder(t.path);
    list.appendChild(li);
  }
  if (!list.children.length) list.appendChild(studio.el("li", "nothing recorded or run yet under " + r.out_root, "muted"));
}
async function browseTo(path) {
  const r = await call("browse", { path }); if (!r) return;
  $("browser").hidden = false; $("browse-path").textContent = r.path;
  const list = $("browse-list"); list.textContent = "";
  if (r.parent) { const up = studio.el("li", "⬑ ..", "muted"); up.onclick = () => browseTo(r.parent); list.appendChild(up); }
  for (const e of r.entries) {
    const li = studio.el("li", (e.kind === "folder" ? "📁 " : e.kind === "trace" ? "▶ " : "📊 ") + e.name);
    li.className = "browse-" + e.kind;
    li.onclick = () => (e.kind === "folder" ? browseTo(e.path) : openFolder(e.path));
    list.appendChild(li);
  }
}
$("browse").onclick = () => browseTo($("path").value);
showRecent();
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
