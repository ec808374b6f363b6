// The judge console's line about the seat draw: the next game's draw
// waiting, or the running game's players by seat (the /draw page takes it).
'use strict';
(function () {
  const note = document.getElementById('draw-note');
  if (!note) return;
  const names = (d) => d.map((x) => x.Seat + '號 ' + x.Name).join('、');
  async function load() {
    if (document.hidden) return;
    const r = await WT.getJSON('/api/judge/draw');
    if (!r.ok || !r.body) { note.hidden = true; return; }
    const v = r.body;
    let t = '';
    if (v.draw.length) t = '下一局座位已抽好（開局時寫入紀錄）：' + names(v.draw);
    else if (v.started && v.game.length) t = '本局座位：' + names(v.game);
    else if (!v.started) t = '下一局還沒抽座位：到「座位抽籤」頁抽（不抽也可以開局）';
    note.hidden = !t;
    note.textContent = t;
  }
  load();
  setInterval(load, 5000);
  document.addEventListener('visibilitychange', load);
})();
