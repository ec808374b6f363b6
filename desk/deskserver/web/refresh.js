// The desk's page reloads every 5 s (to follow the tables), but not once
// the organiser has started filling a form on it (what was typed would be
// lost), nor while the organiser has paused it (the button, kept for the
// browser tab's session).
(function () {
  "use strict";
  var key = "wolftable-desk-paused";
  var touched = false;
  var btn = document.getElementById("pause");
  function paused() {
    try { return sessionStorage.getItem(key) === "1"; } catch (e) { return false; }
  }
  function show() {
    if (!btn) return;
    btn.hidden = false;
    btn.textContent = paused() ? "恢復自動更新" : "暫停自動更新";
  }
  document.addEventListener("input", function () { touched = true; });
  document.addEventListener("focusin", function (e) {
    if (e.target.matches("input,select,textarea")) touched = true;
  });
  if (btn) btn.addEventListener("click", function () {
    try { sessionStorage.setItem(key, paused() ? "0" : "1"); } catch (e) {}
    show();
  });
  show();
  setInterval(function () { if (!touched && !paused()) location.reload(); }, 5000);
})();
