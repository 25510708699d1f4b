/* Asks before a form does what cannot be taken back: a form with data-confirm (the question) asks
   on submit; with data-confirm-when (a checkbox's selector) only while that box is ticked. */
document.addEventListener("submit", function (e) {
  "use strict";
  var form = e.target, question = form.getAttribute && form.getAttribute("data-confirm");
  if (!question) return;
  var when = form.getAttribute("data-confirm-when"), box = when ? form.querySelector(when) : null;
  if (when && !(box && box.checked)) return;
  if (!window.confirm(question)) e.preventDefault();
}, true);
