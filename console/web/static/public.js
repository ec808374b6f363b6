// The public view: what players and the audience may see. It reads only
// /api/public/ (no login).
'use strict';
(function () {
  const { el, fill, text, seat } = WT;

  function renderVotes(votes) {
    return votes.slice().reverse().map((v) => el('div', { class: 'vote' },
      el('h3', { text: (v.day ? '第' + v.day + '天 ' : '') + v.label }),
      el('p', { class: 'ballots' }, v.ballots.map((b) => el('span', { class: 'ballot' },
        b.target ? b.voter + '→' + b.target : b.voter + ' 棄票'))),
      el('p', { class: 'tally' }, v.tally.map((t) => el('span', { class: 'tally-item' }, seat(t.seat) + ' ' + t.votes + '票')))));
  }

  function render(st) {
    text('board', st.game ? st.game.name : '等待開局');
    text('phase', st.phase_label || '');
    document.body.classList.toggle('is-night', (st.phase || '').startsWith('night'));
    WT.setTimer(st.timer, st.rate);
    document.getElementById('paused').hidden = !st.paused;
    const res = document.getElementById('result');
    res.hidden = !st.ended;
    res.textContent = st.result === '流局' ? '本局流局' : (st.result ? st.result + '勝利' : '');
    const notice = document.getElementById('notice');
    notice.hidden = !st.notice;
    notice.textContent = st.notice || '';
    text('line', st.line || '');
    fill('seats', st.seats.map((s) => el('div', {
      class: 'seat light-' + s.light + (s.pulse ? ' pulse' : '') + (s.out ? ' out' : '') + (s.sheriff ? ' sheriff' : ''),
      dataset: { seat: s.seat },
    }, el('span', { class: 'num', text: s.seat }), s.name ? el('span', { class: 'name', text: s.name }) : null,
    s.sheriff ? el('span', { class: 'star', text: '警長' }) : null)));
    fill('lines', st.lines.slice().reverse().map((l) => el('li', { text: l })));
    fill('deaths', st.deaths.map((d) => el('li', {},
      seat(d.seat) + ' ' + d.when_label + (d.cause_label ? '（' + d.cause_label + '）' : ''))));
    fill('exiles', st.exiles.map((x) => el('li', {}, '第' + x.day + '天：' + (x.seat ? seat(x.seat) + '出局' : '無人出局'))));
    fill('reveals', st.reveals.map((r) => el('li', {}, seat(r.seat) + ' 翻牌為' + r.role_name)));
    fill('votes', renderVotes(st.votes));
  }

  function conn(up) { document.getElementById('conn').classList.toggle('down', !up); }

  WT.live('/api/public/events', '/api/public/state', render, conn, null);
})();
