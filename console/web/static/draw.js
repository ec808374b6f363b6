// The seat draw: the roster (from the desk or typed), 抽座位 or the seats
// as the players drew them, for the next game (judge only).
'use strict';
(function () {
  const { el, fill, text, seat } = WT;
  const $ = (id) => document.getElementById(id);
  let view = null;
  const say = (msg) => { $('draw-msg').hidden = !msg; $('draw-msg').textContent = msg || ''; };
  function render(v) {
    view = v;
    text('draw-seats', v.seats ? '下一局 ' + v.seats + ' 人' : '');
    const from = v.from === 'desk' ? '名單來自總台' + (v.round ? '（第 ' + v.round + ' 輪）' : '') :
      v.from === 'typed' ? '名單由法官輸入' : (v.desk ? '還沒有名單：向總台取得，或輸入' : '本桌沒有設定總台：請輸入名單');
    text('roster-from', from);
    fill('manual-rows', v.roster.map((p, i) => el('tr', {},
      el('td', { text: p.name + (p.id ? '（' + p.id + '）' : '') }),
      el('td', {}, el('input', { type: 'number', min: '1', max: String(v.roster.length), 'data-i': String(i), 'aria-label': p.name + ' 的座位' })))));
    fill('draw-rows', v.draw.map((d) => el('tr', {},
      el('td', { text: seat(d.Seat) }), el('td', { text: d.Name }), el('td', { text: d.PlayerID || '' }))));
    if (v.started) say('遊戲已開始：座位要在開局前抽（本局結束後再抽下一局）');
    else if (v.notice) say(v.notice);
    for (const id of ['btn-desk', 'btn-typed', 'btn-random', 'btn-manual', 'btn-clear']) $(id).disabled = v.started;
    $('btn-desk').hidden = !v.desk;
  }
  async function load() {
    const r = await WT.getJSON('/api/judge/draw');
    if (r.ok) render(r.body);
  }
  async function send(path, payload, done) {
    const r = await WT.post(path, payload);
    if (!r.ok) { say((r.body && r.body.error) || '失敗（' + r.status + '）'); return; }
    render(r.body);
    say(done);
  }
  $('btn-desk').addEventListener('click', () => send('/api/judge/draw/roster', { from: 'desk' }, '已取得總台的名單'));
  $('btn-typed').addEventListener('click', () => send('/api/judge/draw/roster', { text: $('roster-text').value }, '已使用輸入的名單'));
  $('btn-random').addEventListener('click', () => send('/api/judge/draw', {}, '座位已抽好：開局時寫入本局的紀錄'));
  $('btn-manual').addEventListener('click', () => {
    const seats = Array.from(document.querySelectorAll('#manual-rows input')).map((i) => Number(i.value) || 0);
    send('/api/judge/draw', { seats }, '座位已照填的記下：開局時寫入本局的紀錄');
  });
  $('btn-clear').addEventListener('click', () => send('/api/judge/draw/clear', {}, '已清除'));
  WT.signIn(load);
})();
