// Shared helpers of the studio's pages. Every untrusted string is shown with textContent, never as HTML.
const studio = {
  async call(method, url, body) {
    const opts = { method, headers: {} };
    if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
    const res = await fetch(url, opts);
    let data = null;
    try { data = await res.json(); } catch (e) { data = { error: "HTTP " + res.status }; }
    if (!res.ok) throw new Error((data && data.error) || ("HTTP " + res.status));
    return data;
  },
  get(url) { return this.call("GET", url); },
  post(url, body) { return this.call("POST", url, body || {}); },
  el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  },
  svg(tag, attrs) {
    const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  },
  // Draw a point, a box and a swipe (device pixels) on an <svg> whose viewBox is the device size.
  drawAction(svg, size, g) {
    svg.setAttribute("viewBox", "0 0 " + size[0] + " " + size[1]);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (!g) return;
    const n = (v) => Number(v) || 0;
    if (g.box) svg.appendChild(this.svg("rect", { x: n(g.box[0]), y: n(g.box[1]), width: n(g.box[2]) - n(g.box[0]),
      height: n(g.box[3]) - n(g.box[1]), class: "bx" }));
    if (g.point && g.end) svg.appendChild(this.svg("line", { x1: n(g.point[0]), y1: n(g.point[1]),
      x2: n(g.end[0]), y2: n(g.end[1]), class: "sw" }));
    if (g.point) svg.appendChild(this.svg("circle", { cx: n(g.point[0]), cy: n(g.point[1]), r: 30, class: "pt" }));
  },
};
