/* Orders by clicks on the map, and the side's sent orders drawn on its own map.

   The map follows the SVG contract of every rule set's drawing: the root has data-map
   ("table", "hex" or "graph"); units are ".unit" with data-id (the id orders use), data-side,
   and on tables data-x/data-y (inches), data-reach and data-range (inches); hexes carry data-hex,
   places on a graph map data-node. The order line itself is never written here: the server asks
   the rule set (htmx request to the page's "compose" URL) and checks it with the rule set's own
   parser; this script only says what was clicked and appends the line it gets back to the
   orders box, which stays the source of truth. Keyboard: Tab to a unit, Enter selects it, type
   the target ("24,18", "0507", "C5" or an enemy's id) and Enter; Esc lets go. */
(function () {
  "use strict";
  var config = document.getElementById("map-orders");
  var svg = document.querySelector("section.map .map-frame svg");
  if (!config || !svg) return;
  var cfg = JSON.parse(config.textContent || "{}");
  var root = svg.hasAttribute("data-map") ? svg : (svg.querySelector("[data-map]") || svg);
  var kind = root.getAttribute("data-map") || "";
  var NS = "http://www.w3.org/2000/svg";
  var box = document.getElementById("id_text");
  var status = document.getElementById("compose-status");
  var readout = document.getElementById("compose-distance");
  var selected = null;

  function units() { return Array.prototype.slice.call(svg.querySelectorAll(".unit[data-id]")); }
  // Ids are each side's own (both sides may have a "gun1"): ``own`` true or false picks the side.
  function unitById(id, own) {
    var want = String(id).toLowerCase();
    return units().filter(function (u) {
      return u.getAttribute("data-id").toLowerCase() === want && (own === undefined || mine(u) === own);
    })[0] || null;
  }
  function mine(el) { return el && el.getAttribute("data-side") === cfg.side; }

  // --- where things are, in the SVG's own units --------------------------------------------
  function toSvg(clientX, clientY) {
    var p = svg.createSVGPoint(); p.x = clientX; p.y = clientY;
    return p.matrixTransform(svg.getScreenCTM().inverse());
  }
  function centre(el) {
    if (kind === "table" && el.hasAttribute("data-x")) return inchesToSvg(+el.getAttribute("data-x"), +el.getAttribute("data-y"));
    var r = el.getBoundingClientRect();
    return toSvg(r.left + r.width / 2, r.top + r.height / 2);
  }
  // Inches on a table to the SVG's units (MAPS.md): x as drawn, y up from the south edge, so
  // an order's point x,y is drawn at (x, data-depth - y).
  function frame() {
    var depth = parseFloat(root.getAttribute("data-depth"));
    return isNaN(depth) ? {x0: 0, y0: 0, sx: 1, sy: 1} : {x0: 0, y0: depth, sx: 1, sy: -1};
  }
  function inchesToSvg(x, y) { var f = frame(); return {x: f.x0 + f.sx * x, y: f.y0 + f.sy * y}; }
  function svgToInches(p) { var f = frame(); return {x: (p.x - f.x0) / f.sx, y: (p.y - f.y0) / f.sy}; }
  function placeOf(target) {
    if (target.x !== undefined) return inchesToSvg(+target.x, +target.y);
    var el = target.hex ? svg.querySelector('[data-hex="' + CSS.escape(target.hex) + '"]')
      : target.node ? svg.querySelector('[data-node="' + CSS.escape(target.node) + '"]')
      : target.unit ? unitById(target.unit, false) : null;
    return el ? centre(el) : null;
  }

  // --- drawing: reach, range, lit targets, ghosts and arrows --------------------------------
  function layer(name) {
    var g = svg.querySelector("g." + name);
    if (!g) {
      g = document.createElementNS(NS, "g");
      g.setAttribute("class", name);
      g.setAttribute("pointer-events", "none");
      svg.appendChild(g);
    }
    return g;
  }
  function shape(parent, tag, attrs) {
    var el = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(function (k) { el.setAttribute(k, attrs[k]); });
    parent.appendChild(el);
    return el;
  }
  function unitSize() {
    var b = svg.viewBox.baseVal;
    return Math.max(b.width, b.height) / 400;  // strokes that read at any map size
  }
  function arrow(parent, from, to, cls) {
    var s = unitSize();
    shape(parent, "line", {x1: from.x, y1: from.y, x2: to.x, y2: to.y, "class": cls,
      stroke: cls.indexOf("fire") >= 0 ? "#b42318" : "#1f2328", "stroke-width": 1.2 * s,
      "stroke-dasharray": (4 * s) + " " + (2 * s), "marker-end": "url(#kb-arrowhead)"});
  }
  function ensureMarker() {
    if (svg.querySelector("#kb-arrowhead")) return;
    var defs = shape(svg, "defs", {});
    var m = shape(defs, "marker", {id: "kb-arrowhead", viewBox: "0 0 10 10", refX: 9, refY: 5,
      markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse"});
    shape(m, "path", {d: "M0,0 L10,5 L0,10 z", fill: "#1f2328"});
  }
  function ghost(parent, unit, from, to, cls) {
    var copy = unit.cloneNode(true);
    copy.removeAttribute("tabindex");
    copy.setAttribute("class", cls + " ghost");
    copy.setAttribute("opacity", "0.4");
    copy.setAttribute("transform", "translate(" + (to.x - from.x) + " " + (to.y - from.y) + ")");
    copy.querySelectorAll("[id]").forEach(function (el) { el.removeAttribute("id"); });
    copy.removeAttribute("id");
    parent.appendChild(copy);
  }
  function drawMark(parent, mark, cls) {
    var unit = unitById(mark.unit, true), to = placeOf(mark.to || {});
    if (!unit || !to) return;
    var from = centre(unit);
    ensureMarker();
    var moving = mark.verb !== "fire" && mark.verb !== "shoot" && !mark.to.unit;
    if (moving) ghost(parent, unit, from, to, cls);
    arrow(parent, from, to, cls + " " + (moving ? "move" : "fire"));
  }
  function drawPending() {
    var g = layer("kb-pending");
    g.textContent = "";
    (cfg.marks || []).forEach(function (m) { drawMark(g, m, "pending-order"); });
  }
  function clearSelection() {
    if (selected) selected.el.classList.remove("kb-selected");
    selected = null;
    layer("kb-select").textContent = "";
    svg.querySelectorAll(".kb-target").forEach(function (el) { el.classList.remove("kb-target"); el.removeAttribute("tabindex"); });
    if (readout) readout.textContent = "";
  }
  function drawReach(unit) {
    var g = layer("kb-select"), c = centre(unit), f = frame(), s = unitSize();
    var r = unit.getBoundingClientRect(), ctm = svg.getScreenCTM();
    g.textContent = "";
    shape(g, "circle", {cx: c.x, cy: c.y, r: Math.max(r.width, r.height) / 2 / ctm.a + 2 * s, fill: "none",
      stroke: "#e0a100", "stroke-width": 2 * s, "class": "kb-ring"});  // the unit selected
    [["data-reach", "#1a7f37", "reach"], ["data-range", "#b42318", "range"]].forEach(function (r) {
      var inches = parseFloat(unit.getAttribute(r[0]));
      if (!(inches > 0) || kind !== "table") return;
      shape(g, "circle", {cx: c.x, cy: c.y, r: inches * Math.abs(f.sx), fill: "none", stroke: r[1],
        "stroke-width": s, "stroke-dasharray": (3 * s) + " " + (2 * s), "class": "kb-" + r[2]});
    });
  }

  // --- talking to the server ----------------------------------------------------------------
  function send(values) {
    if (!cfg.compose || !window.htmx) return;
    values.text = box ? box.value : "";
    values.map = kind;
    htmx.ajax("POST", cfg.compose, {target: "#compose-status", swap: "innerHTML", values: values,
      headers: {"X-CSRFToken": csrf()}});
  }
  function csrf() {
    var field = document.querySelector("#orders [name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }
  function select(el, id) {
    clearSelection();
    selected = {el: el, id: id};
    el.classList.add("kb-selected");
    drawReach(el);
    send({select: id});
  }
  function target(t) {
    if (!selected) return;
    var verb = document.getElementById("compose-verb");
    if (verb && verb.value) t.verb = verb.value;
    t.select = selected.id;
    selected.lastTarget = t;
    send(t);
  }
  function append(line) {
    box.value = box.value.replace(/\s*$/, "") + (box.value.trim() ? "\n" : "") + line + "\n";
    box.dispatchEvent(new Event("input", {bubbles: true}));
  }
  if (status) status.addEventListener("click", function (e) {  // one of several orders the server offered
    var line = e.target.getAttribute && e.target.getAttribute("data-add-line");
    if (!line || !box) return;
    append(line);
    status.textContent = "";
    clearSelection();
  });
  document.body.addEventListener("htmx:afterSwap", function (e) {
    if (!status || e.detail.target !== status) return;
    var chosen = status.querySelector("[data-selected]");
    if (chosen) {
      (chosen.getAttribute("data-targets") || "").split(" ").filter(Boolean).forEach(function (t) {
        svg.querySelectorAll('[data-node="' + CSS.escape(t) + '"], [data-hex="' + CSS.escape(t) + '"]').forEach(function (el) {
          el.classList.add("kb-target");
          el.setAttribute("tabindex", "0");
        });
      });
      return;
    }
    if (status.querySelector(".compose-bad") && selected && !selected.lastTarget) { clearSelection(); return; }
    var added = status.querySelector("[data-line]");
    if (added && box) {
      append(added.getAttribute("data-line"));
      if (selected && selected.lastTarget) drawMark(layer("kb-drafts"), {unit: selected.id, verb: selected.lastTarget.verb || "move", to: selected.lastTarget}, "draft-order");
      clearSelection();
    }
  });

  // --- clicks, keys and the pointer ---------------------------------------------------------
  function clicked(el, e) {
    if (!cfg.compose) return;  // no orders to give now: the map only shows
    var unit = el.closest(".unit[data-id]");
    var node = el.closest("[data-node]"), hex = el.closest("[data-hex]");
    if (unit && mine(unit) && !(selected && selected.el === unit && kind === "graph")) {
      if (selected && selected.el === unit) { clearSelection(); return; }
      select(unit, unit.getAttribute("data-id"));
      return;
    }
    if (!selected) {
      if (node) select(node, node.getAttribute("data-node"));  // a place of one's own: form, evacuate
      return;
    }
    if (unit && !mine(unit)) target({unit: unit.getAttribute("data-id")});
    else if (kind === "graph" && (node || unit)) target({node: node ? node.getAttribute("data-node") : unit.getAttribute("data-id")});
    else if (hex) target({hex: hex.getAttribute("data-hex")});
    else if (kind === "table" && e) {
      var p = svgToInches(toSvg(e.clientX, e.clientY));
      target({x: p.x.toFixed(1), y: p.y.toFixed(1)});
    }
  }
  svg.addEventListener("click", function (e) {
    if (svg.getAttribute("data-dragged")) { svg.removeAttribute("data-dragged"); return; }
    clicked(e.target, e);
  });
  svg.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    clicked(e.target, null);
  });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") clearSelection(); });
  svg.addEventListener("pointermove", function (e) {
    if (!selected || kind !== "table" || !readout || !selected.el.hasAttribute("data-x")) return;
    var p = svgToInches(toSvg(e.clientX, e.clientY));
    var d = Math.hypot(p.x - selected.el.getAttribute("data-x"), p.y - selected.el.getAttribute("data-y"));
    readout.textContent = (cfg.words.distance || "").replace("%(d)s", d.toFixed(1)).replace("%(x)s", p.x.toFixed(1)).replace("%(y)s", p.y.toFixed(1));
  });
  var typed = document.getElementById("compose-target");
  if (typed) typed.addEventListener("keydown", function (e) {
    if (e.key !== "Enter") return;
    e.preventDefault();
    var v = typed.value.trim(), xy = v.match(/^\(?\s*(-?\d+(?:[.]\d+)?)\s*[,;\s]\s*(-?\d+(?:[.]\d+)?)\s*\)?$/);
    if (!v) return;
    if (!selected) {
      var u = unitById(v, true);
      if (u) select(u, u.getAttribute("data-id"));
      else { var n = svg.querySelector('[data-node="' + CSS.escape(v.toUpperCase()) + '"]'); if (n) select(n, n.getAttribute("data-node")); }
    } else if (xy && kind === "table") target({x: xy[1], y: xy[2]});
    else if (/^\d{4}$/.test(v)) target({hex: v});
    else if (unitById(v, false)) target({unit: unitById(v, false).getAttribute("data-id")});
    else target({node: v.toUpperCase()});
    typed.value = "";
  });

  if (cfg.compose) {
    units().filter(mine).forEach(function (u) {
      u.setAttribute("tabindex", "0");
      u.setAttribute("role", "button");
      u.setAttribute("aria-label", (cfg.words.select || "%(id)s").replace("%(id)s", u.getAttribute("data-id")));
    });
    svg.classList.add("kb-orderable");
  }
  drawPending();
})();
