// The audience screen: the desk pushes its state over server-sent events
// (/screen/events); nothing reloads. Everything in it is already as late
// as the desk's feed delay.
(function () {
  "use strict";
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function render(s) {
    document.getElementById("title").textContent = s.title;
    document.title = s.title + "・轉播";
    document.getElementById("delay").textContent = "轉播延遲 " + s.delay_seconds + " 秒・" + s.pack;
    var tables = document.getElementById("tables");
    tables.textContent = "";
    (s.tables || []).forEach(function (t) {
      var card = el("article", "screen-table");
      card.appendChild(el("h2", "", t.name + (t.board_name ? "　" + t.board_name : "")));
      card.appendChild(el("p", "screen-state", t.state));
      var seats = el("div", "screen-seats");
      (t.seats || []).forEach(function (st) {
        var c = "screen-seat" + (st.lit ? "" : " off") + (st.sheriff ? " sheriff" : "");
        var seat = el("div", c);
        seat.appendChild(el("span", "screen-n", String(st.n)));
        if (st.player) seat.appendChild(el("span", "screen-name", st.player));
        seats.appendChild(seat);
      });
      card.appendChild(seats);
      if (t.exiles && t.exiles.length) {
        var ex = el("ul", "screen-exiles");
        t.exiles.forEach(function (e) { ex.appendChild(el("li", "screen-exile", e.words)); });
        card.appendChild(ex);
      }
      (t.votes || []).forEach(function (v) {
        var box = el("div", "screen-vote");
        box.appendChild(el("h3", "", v.title));
        (v.lines || []).forEach(function (l) { box.appendChild(el("p", "", l)); });
        card.appendChild(box);
      });
      if (t.fingerprint) card.appendChild(el("p", "dim", "指紋 " + t.fingerprint));
      tables.appendChild(card);
    });
    var body = document.querySelector("#standings tbody");
    body.textContent = "";
    (s.standings || []).forEach(function (r) {
      var tr = el("tr");
      [r.dq ? "取消資格" : (r.tied ? "並列 " : "") + r.rank, r.player, String(r.points), String(r.games), String(r.wins)].forEach(function (v) {
        tr.appendChild(el("td", "", v));
      });
      body.appendChild(tr);
    });
  }
  var link = document.getElementById("link");
  var src = new EventSource("/screen/events");
  src.addEventListener("screen", function (ev) {
    render(JSON.parse(ev.data));
    link.textContent = "";
    document.body.setAttribute("data-ready", "1");
  });
  src.onerror = function () { link.textContent = "與總台的連線中斷，重新連線中…"; };
})();
