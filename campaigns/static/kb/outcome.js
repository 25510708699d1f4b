// The outcome of what was just sent (a message, or the page's refusal with its line errors) is the
// first thing on the page; move the focus there, so a screen reader reads it and the viewport shows
// it on a phone as on a desktop (issue 31: the errors sat 1,700 px below the top on a phone).
document.addEventListener("DOMContentLoaded", function () {
  var outcome = document.getElementById("outcome");
  if (!outcome || !outcome.textContent.trim()) return;
  outcome.focus({ preventScroll: true });
  outcome.scrollIntoView({ block: "start" });
});
