/* Zoom and pan for the map of any rule set: only the SVG's viewBox changes, so every map drawn
   in its own units (inches, pixels) zooms alike. Wheel, buttons, one-finger drag and two-finger
   pinch (pointer events, so mouse, pen and touch alike). Plain JavaScript, nothing fetched. Each
   "section.map" with a ".map-tools" toolbar (hidden until this runs) and its SVG in ".map-frame".
   A drag shorter than a few pixels stays a click, for the click-to-order script (orders.js). */
(function () {
  "use strict";
  var MAX = 16, CLICK_SLOP = 4;

  function setUp(section) {
    var svg = section.querySelector(".map-frame svg"), tools = section.querySelector(".map-tools");
    if (!svg || !tools || !svg.viewBox || !svg.viewBox.baseVal || !svg.viewBox.baseVal.width) return;
    var b = svg.viewBox.baseVal, home = {x: b.x, y: b.y, w: b.width, h: b.height};
    var view = Object.assign({}, home), label = tools.querySelector("[data-zoom-level]");

    // The frame's own shape: the map's on a desktop (its height follows its width), a fixed height
    // on a phone, where the view then fills the frame instead of leaving a tall strip tiny.
    function aspect() {
      var r = svg.getBoundingClientRect(), a = r.width ? r.height / r.width : home.h / home.w;
      return Math.abs(a - home.h / home.w) < 0.01 * home.h / home.w ? home.h / home.w : a;
    }
    function whole() {  // the whole map, centred in the frame's shape
      var a = aspect(), w = Math.max(home.w, home.h / a);
      return {x: home.x + (home.w - w) / 2, y: home.y + (home.h - w * a) / 2, w: w, h: w * a};
    }
    function clamp(pos, size, lo, span) {  // inside the map, or centred on it when the view is larger
      return size >= span ? lo + (span - size) / 2 : Math.min(lo + span - size, Math.max(lo, pos));
    }
    function show() {
      var full = whole();
      view.w = Math.min(full.w, Math.max(full.w / MAX, view.w));
      view.h = view.w * aspect();
      view.x = clamp(view.x, view.w, home.x, home.w);
      view.y = clamp(view.y, view.h, home.y, home.h);
      svg.setAttribute("viewBox", [view.x, view.y, view.w, view.h].map(function (v) { return +v.toFixed(3); }).join(" "));
      label.textContent = "\u00d7" + Math.round(full.w / view.w * 10) / 10;
    }
    function zoom(factor, fx, fy) {  // fx, fy: the point that stays put, as fractions of the view
      var full = whole(), w = Math.min(full.w, Math.max(full.w / MAX, view.w / factor)), h = w * aspect();
      view.x += (view.w - w) * fx; view.y += (view.h - h) * fy; view.w = w; view.h = h; show();
    }
    function fraction(x, y) {
      var r = svg.getBoundingClientRect();
      return {fx: (x - r.left) / r.width, fy: (y - r.top) / r.height};
    }
    // "My troops": the box the map marks as the viewer's own (data-mine, in the SVG's units).
    function showBox(box) {
      var p = box.split(/\s+/).map(Number), a = aspect();
      if (p.length !== 4 || p.some(isNaN)) return;
      var w = Math.max(p[2], p[3] / a) * 1.1;
      view = {x: p[0] + p[2] / 2 - w / 2, y: p[1] + p[3] / 2 - w * a / 2, w: w, h: w * a};
      show();
    }
    var mine = svg.getAttribute("data-mine") || (svg.querySelector("[data-mine]") || {getAttribute: function () { return null; }}).getAttribute("data-mine");
    var mineButton = tools.querySelector("[data-zoom=mine]");
    if (mineButton) mineButton.hidden = !mine;

    tools.addEventListener("click", function (e) {
      var how = e.target.getAttribute("data-zoom");
      if (how === "in") zoom(1.5, .5, .5); else if (how === "out") zoom(1 / 1.5, .5, .5);
      else if (how === "reset") { view = whole(); show(); }
      else if (how === "mine" && mine) showBox(mine);
    });
    svg.addEventListener("wheel", function (e) {
      var f = fraction(e.clientX, e.clientY);
      e.preventDefault();
      zoom(e.deltaY < 0 ? 1.25 : 0.8, f.fx, f.fy);
    }, {passive: false});

    var pointers = {}, drag = null, pinch = null;
    function ids() { return Object.keys(pointers); }
    svg.addEventListener("pointerdown", function (e) {
      pointers[e.pointerId] = {x: e.clientX, y: e.clientY};
      if (ids().length === 2) {
        var a = pointers[ids()[0]], c = pointers[ids()[1]];
        pinch = {d: Math.hypot(a.x - c.x, a.y - c.y) || 1, w: view.w};
        drag = null;
      } else if (ids().length === 1) {
        drag = {x: e.clientX, y: e.clientY, vx: view.x, vy: view.y, moved: false};
      }
    });
    svg.addEventListener("pointermove", function (e) {
      if (!pointers[e.pointerId]) return;
      pointers[e.pointerId] = {x: e.clientX, y: e.clientY};
      if (pinch && ids().length === 2) {
        var a = pointers[ids()[0]], c = pointers[ids()[1]], f = fraction((a.x + c.x) / 2, (a.y + c.y) / 2);
        zoom(view.w / (pinch.w * pinch.d / (Math.hypot(a.x - c.x, a.y - c.y) || 1)), f.fx, f.fy);
        return;
      }
      if (!drag) return;
      if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < CLICK_SLOP) return;
      if (!drag.moved) { drag.moved = true; svg.setPointerCapture(e.pointerId); }
      var r = svg.getBoundingClientRect();
      view.x = drag.vx - (e.clientX - drag.x) * view.w / r.width;
      view.y = drag.vy - (e.clientY - drag.y) * view.h / r.height;
      show();
    });
    function up(e) {
      delete pointers[e.pointerId];
      if (ids().length < 2) pinch = null;
      if (drag && drag.moved) svg.setAttribute("data-dragged", "1");  // the click that ends a drag orders nothing
      drag = null;
    }
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
    tools.hidden = false;  // the controls show only where the script runs
    view = whole(); show();
    // On a narrow screen a large table starts on the viewer's own troops, where labels can be read.
    if (mine && svg.getBoundingClientRect().width < 600) showBox(mine);
  }

  document.querySelectorAll("section.map").forEach(setUp);
})();
