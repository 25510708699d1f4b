/* Lists of orders open to the player (operations, standing instructions): a click on one adds
   its line to the orders box, as typing it would; the box stays the source of truth and the
   live check (htmx, on "input") reads the line as usual. Buttons: keyboard-usable as they are. */
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".add-lines [data-add-line]");
    var box = document.getElementById("id_text");
    if (!button || !box) return;
    box.value = box.value.replace(/\s*$/, "") + (box.value.trim() ? "\n" : "") + button.getAttribute("data-add-line") + "\n";
    box.dispatchEvent(new Event("input", {bubbles: true}));
    box.focus();
  });
})();
