// The judge's history (歷史對局): the table's games, newest first, a page
// at a time. It uses only /api/login, /api/judge/session and
// /api/judge/history.
'use strict';
(function () {
  const { el, text } = WT;
  const $ = (id) => document.getElementById(id);
  let page = 1;
  let showLogin = null;

  const resultWord = { '好人': '好人勝', '狼人': '狼人勝', '流局': '流局', '第三方': '第三方勝' };
  const deskWord = { sent: '已送', refused: '總台拒收', queued: '待送', '': '—' };

  function boot() {
    $('prev').addEventListener('click', () => { if (page > 1) { page--; load(); } });
    $('next').addEventListener('click', () => { page++; load(); });
    showLogin = WT.signIn(load);
  }

  async function load() {
    let r = null;
    try { r = await WT.getJSON('/api/judge/history?page=' + page); } catch (e) { r = null; }
    if (!r) { text('history-msg', '連不上桌子'); return; }
    if (r.status === 401) { showLogin('登入已過期，請重新登入'); return; }
    if (!r.ok) { text('history-msg', (r.body && r.body.error) || ('讀取失敗（' + r.status + '）')); return; }
    render(r.body);
  }

  function when(iso) {
    const d = new Date(iso);
    const two = (n) => String(n).padStart(2, '0');
    return d.getFullYear() + '-' + two(d.getMonth() + 1) + '-' + two(d.getDate()) + ' ' + two(d.getHours()) + ':' + two(d.getMinutes());
  }

  function row(g) {
    const link = (fmt, label) => el('a', { href: '/api/judge/history/' + encodeURIComponent(g.name) + '?format=' + fmt,
      target: fmt === 'text' ? '_blank' : false, rel: 'noopener', download: fmt === 'wtj' ? g.name : false }, label);
    if (g.error) {
      return el('tr', { class: 'damaged' }, el('td', {}, g.name), el('td', { colspan: '4' }, '日誌無法讀取：' + g.error),
        el('td', {}, link('wtj', '日誌檔')));
    }
    let result = g.finished ? (resultWord[g.result] || g.result || '無結果') : '未結束';
    return el('tr', {},
      el('td', {}, when(g.start)),
      el('td', {}, g.board_name || g.board),
      el('td', {}, result),
      el('td', {}, g.finished ? (g.signed ? '已簽章' : '未簽章') : '—'),
      el('td', {}, deskWord[g.desk] || g.desk),
      el('td', {}, g.finished ? link('text', '復盤') : null, ' ', link('wtj', '日誌檔')));
  }

  function render(p) {
    page = p.page;
    text('page-no', '第 ' + p.page + ' 頁');
    WT.fill('games', p.games.map(row));
    text('history-msg', p.games.length ? '' : (p.page > 1 ? '沒有更舊的對局' : '這張桌子還沒有對局'));
    $('prev').disabled = p.page <= 1;
    $('next').disabled = !p.more;
  }

  boot();
})();
