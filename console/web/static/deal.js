// The deal sheet: the current game's deal, to print (judge only).
'use strict';
(async function () {
  const { el, fill, text, seat } = WT;
  document.getElementById('print').addEventListener('click', () => window.print());
  const r = await WT.getJSON('/api/judge/state');
  const err = document.getElementById('error');
  if (r.status === 401) {
    err.hidden = false;
    err.replaceChildren('請先', el('a', { href: '/judge', text: '登入法官控制台' }), '。');
    return;
  }
  if (!r.ok || !r.body.game) {
    err.hidden = false;
    err.textContent = '目前沒有遊戲。';
    return;
  }
  const g = r.body.game;
  text('title', '發牌表：' + g.name);
  const started = new Date(g.started_at);
  text('meta', g.players + '人局 · ' + (g.manual ? '手動發牌' : '隨機發牌') + ' · 種子 ' + g.seed + ' · ' + started.toLocaleString('zh-TW'));
  const dr = await WT.getJSON('/api/judge/draw'); // the seat draw: the player of each seat
  const names = {};
  for (const x of (dr.ok && dr.body.game) || []) names[x.Seat] = x.Name;
  fill('deal-rows', g.deal.map((d) => el('tr', { class: 'camp-' + d.camp },
    el('td', { text: seat(d.seat) }), el('td', { text: names[d.seat] || '' }), el('td', { text: d.role_name }), el('td', { text: d.camp_label }), el('td', {}))));
  const bottom = g.bottom || [];
  document.getElementById('bottom').hidden = !bottom.length;
  fill('bottom-rows', bottom.map((c, i) => el('tr', { class: 'camp-' + c.camp },
    el('td', { text: '第' + (i + 1) + '張' }), el('td', { text: c.role_name }), el('td', { text: c.camp_label }), el('td', {}))));
})();
