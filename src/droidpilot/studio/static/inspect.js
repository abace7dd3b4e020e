// The element inspector, shared by the live phone page and the review: the UI tree beside the screen, a
// node's properties, hover to outline and click to select the deepest node, copyable selectors
// (uiautomator2, XPath, droidpilot's words), search with the matches outlined, and (on a recorded step)
// the OCR lines and icon candidates perception saw, with the node the tap hit. Text is set with
// textContent only: every attribute of a dump is untrusted.
const inspector = {
  create(opts) {
    // opts: panel (element), overlay (svg over the screen), image (the <img>), load() -> tree,
    // find(selector) -> {nodes, box?, point?, status?, message?}, words(x, y) -> {words}, perception()?
    const self = { opts, tree: null, size: [1080, 2400], selected: null, hovered: null, matches: [], extra: null };
    const p = opts.panel; p.textContent = "";
    const el = (tag, text, cls) => studio.el(tag, text, cls);
    const search = el("div", null, "row");
    self.query = el("input"); self.query.type = "text"; self.query.className = "insp-query";
    self.query.placeholder = 'd(text="…"), //*[@text="…"] or click text (…)';
    const go = el("button", "Find"); go.className = "insp-find";
    search.append(self.query, go);
    self.count = el("div", "", "muted insp-count");
    self.treeBox = el("div", null, "insp-tree");
    self.props = el("table", null, "insp-props");
    self.sel = el("div", null, "insp-selectors");
    p.append(search, self.count, self.treeBox, el("h3", "Properties"), self.props, el("h3", "Selectors"), self.sel);
    if (opts.perception) {
      const row = el("label", null, "row");
      self.percBox = el("input"); self.percBox.type = "checkbox"; self.percBox.className = "insp-perception";
      row.append(self.percBox, el("span", " show what perception saw (OCR lines, icon candidates, the node hit)"));
      self.percNote = el("div", "", "muted insp-perc-note");
      p.append(row, self.percNote);
      self.percBox.onchange = () => inspector.togglePerception(self);
    }
    go.onclick = () => inspector.search(self);
    self.query.addEventListener("keydown", (e) => { if (e.key === "Enter") inspector.search(self); });
    return self;
  },

  async refresh(self) {
    let data;
    try { data = await self.opts.load(); } catch (e) { self.count.textContent = e.message; return; }
    const keep = self.selected !== null && self.tree ? JSON.stringify(self.tree.nodes[self.selected].bounds) : null;
    self.tree = data; self.size = data.size;
    self.selected = null; self.matches = [];
    if (keep && data.nodes) { const again = data.nodes.find((n) => JSON.stringify(n.bounds) === keep); if (again) self.selected = again.id; }
    inspector.renderTree(self);
    inspector.showNode(self, false);
    if (data.note) self.count.textContent = data.note;
    inspector.draw(self);
  },

  label(n) {
    const a = n.attrs, cls = (a["class"] || "node").split(".").pop();
    const what = a.text || a["content-desc"] || a["resource-id"].split("/").pop() || "";
    return cls + (what ? ' "' + what + '"' : "");
  },

  renderTree(self) {
    const box = self.treeBox; box.textContent = "";
    for (const n of (self.tree ? self.tree.nodes : [])) {
      const row = studio.el("div", inspector.label(n), "insp-node");
      row.dataset.id = n.id; row.style.paddingLeft = (4 + 12 * n.depth) + "px";
      row.onclick = () => { self.selected = n.id; inspector.showNode(self, true); inspector.draw(self); };
      row.onmouseenter = () => { self.hovered = n.id; inspector.draw(self); };
      box.appendChild(row);
    }
  },

  // The deepest node holding a device point (the smallest when siblings overlap), as the server picks it.
  deepestAt(self, x, y) {
    let best = null;
    for (const n of (self.tree ? self.tree.nodes : [])) {
      const b = n.bounds; if (!b || x < b[0] || y < b[1] || x >= b[2] || y >= b[3]) continue;
      const area = (b[2] - b[0]) * (b[3] - b[1]);
      if (!best || n.depth > best.depth || (n.depth === best.depth && (area < best.area || (area === best.area && n.id > best.n.id))))
        best = { n, depth: n.depth, area };
    }
    return best ? best.n.id : null;
  },

  hoverAt(self, x, y) { const id = inspector.deepestAt(self, x, y); if (id !== self.hovered) { self.hovered = id; inspector.draw(self); } },

  async selectAt(self, x, y) {
    self.selected = inspector.deepestAt(self, x, y);
    self.point = [x, y];
    inspector.showNode(self, true);
    inspector.draw(self);
  },

  copyRow(label, text, cls) {
    const row = studio.el("div", null, "row insp-sel " + cls);
    const code = studio.el("code", text); const btn = studio.el("button", "Copy");
    btn.onclick = async () => {
      try { await navigator.clipboard.writeText(code.textContent); btn.textContent = "Copied"; }
      catch (e) { const r = document.createRange(); r.selectNodeContents(code); getSelection().removeAllRanges(); getSelection().addRange(r); btn.textContent = "Selected (Ctrl+C)"; }
    };
    row.append(studio.el("span", label, "muted"), code, btn);
    return row;
  },

  async showNode(self, scroll) {
    self.props.textContent = ""; self.sel.textContent = "";
    for (const r of self.treeBox.children) r.classList.toggle("sel", Number(r.dataset.id) === self.selected);
    if (self.selected === null || !self.tree) return;
    const n = self.tree.nodes[self.selected];
    if (scroll) { const row = self.treeBox.querySelector('[data-id="' + n.id + '"]'); if (row) row.scrollIntoView({ block: "nearest" }); }
    for (const [k, v] of Object.entries(n.attrs).concat([["bounds", JSON.stringify(n.bounds)]])) {
      const tr = studio.el("tr"); tr.append(studio.el("th", k), studio.el("td", v)); self.props.appendChild(tr);
    }
    self.sel.append(inspector.copyRow("uiautomator2", n.selectors.u2, "u2"), inspector.copyRow("XPath", n.selectors.xpath, "xpath"));
    const words = inspector.copyRow("droidpilot", "reading the screen…", "words"); self.sel.appendChild(words);
    const b = n.bounds || [0, 0, 0, 0];
    const at = self.point && self.point[0] >= b[0] && self.point[0] < b[2] && self.point[1] >= b[1] && self.point[1] < b[3]
      ? self.point : [Math.floor((b[0] + b[2]) / 2), Math.floor((b[1] + b[3]) / 2)];
    const asked = self.selected;
    try {
      const r = await self.opts.words(at[0], at[1]);
      if (self.selected === asked) words.querySelector("code").textContent = r.words;
    } catch (e) { words.querySelector("code").textContent = e.message; }
  },

  async search(self) {
    const q = self.query.value;
    self.count.textContent = "searching…"; self.matches = []; self.found = null;
    try {
      const r = await self.opts.find(q);
      self.matches = r.nodes || []; self.found = r.box ? r : null;
      let text = self.matches.length + " match" + (self.matches.length === 1 ? "" : "es");
      if (r.status && r.status !== "found") text += " · grounding " + r.status + (r.message ? ": " + r.message : "");
      self.count.textContent = text;
      if (self.matches.length) { self.selected = self.matches[0]; inspector.showNode(self, true); }
    } catch (e) { self.count.textContent = e.message; }
    inspector.draw(self);
  },

  async togglePerception(self) {
    self.extra = null;
    if (self.percBox.checked) {
      self.percNote.textContent = "reading the screen…";
      try {
        self.extra = await self.opts.perception();
        const hit = self.extra.hit !== null && self.extra.hit !== undefined ? " · the tap hit " + inspector.label(self.tree.nodes[self.extra.hit]) : "";
        const cands = (self.extra.candidates || []).length;
        self.percNote.textContent = self.extra.ocr.length + " OCR lines, " + self.extra.icons.length + " icon candidates" +
          (cands ? ", " + cands + " grounding candidates" : "") + hit;
      } catch (e) { self.percNote.textContent = e.message; }
    } else self.percNote.textContent = "";
    inspector.draw(self);
  },

  rect(svg, b, cls, title) {
    const r = studio.svg("rect", { x: b[0], y: b[1], width: Math.max(1, b[2] - b[0]), height: Math.max(1, b[3] - b[1]), class: cls });
    if (title) { const t = studio.svg("title", {}); t.textContent = title; r.appendChild(t); }
    svg.appendChild(r);
  },

  draw(self) {
    const svg = self.opts.overlay;
    svg.setAttribute("viewBox", "0 0 " + self.size[0] + " " + self.size[1]);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const nodes = self.tree ? self.tree.nodes : [];
    if (self.extra) {
      for (const l of self.extra.ocr) inspector.rect(svg, l.box, "insp-ocr", "OCR: " + l.text);
      for (const i of self.extra.icons) inspector.rect(svg, i.box, "insp-icon", "icon: " + i.description);
      for (const c of (self.extra.candidates || [])) inspector.rect(svg, c.box, c.chosen ? "insp-cand chosen" : "insp-cand", "grounding candidate: " + c.text);
      if (self.extra.hit !== null && self.extra.hit !== undefined && nodes[self.extra.hit]) inspector.rect(svg, nodes[self.extra.hit].bounds, "insp-hit");
      if (self.extra.point) svg.appendChild(studio.svg("circle", { cx: self.extra.point[0], cy: self.extra.point[1], r: 24, class: "pt" }));
    }
    for (const id of self.matches) if (nodes[id] && nodes[id].bounds) inspector.rect(svg, nodes[id].bounds, "insp-match");
    if (self.found && self.found.box) inspector.rect(svg, self.found.box, "insp-match");
    if (self.hovered !== null && nodes[self.hovered] && nodes[self.hovered].bounds) inspector.rect(svg, nodes[self.hovered].bounds, "insp-hover");
    if (self.selected !== null && nodes[self.selected] && nodes[self.selected].bounds) inspector.rect(svg, nodes[self.selected].bounds, "insp-selected");
  },

  // A pointer event on the screen image, in device pixels.
  devicePoint(self, e) {
    const r = self.opts.image.getBoundingClientRect();
    return [Math.floor((e.clientX - r.left) * self.size[0] / r.width), Math.floor((e.clientY - r.top) * self.size[1] / r.height)];
  },
};
