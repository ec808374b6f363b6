// The judge's console: the god view and the judge's powers. It uses only
// /api/ (login, the judge's state and live stream, the powers).
'use strict';
(function () {
  const { el, fill, text, seat } = WT;
  const $ = (id) => document.getElementById(id);
  let st = null; // the last state
  let live = null;
  let boards = [];
  let selected = 0; // the seat tapped last
  let players = 0;
  let wasOver = null; // the last state's over (null: no state yet, so a page opened after the end does not jump)

  function sourceLabel(src) {
    if (!src) return '';
    if (src.startsWith('seat-')) return '座位鍵';
    if (src.startsWith('console:')) return '法官代按';
    if (src.startsWith('bot')) return '機器人';
    return src;
  }

  // ---- login ----

  let showLogin = null;

  function boot() {
    wire();
    showLogin = WT.signIn(showApp, () => { if (live) { live.stop(); live = null; } });
  }

  function showApp() {
    live = WT.live('/api/judge/events', '/api/judge/state', render, conn, () => showLogin('登入已過期，請重新登入'));
    loadBoards();
  }

  function conn(up) { $('conn').classList.toggle('down', !up); }



  // ---- powers ----

  function say(msg, bad) {
    const e = $('power-msg');
    e.textContent = msg;
    e.classList.toggle('bad', !!bad);
  }

  async function power(name, payload, what, confirmText) {
    if (st && st.game && st.over && !(name === 'pedal' && st.dealt)) { say('× 遊戲已結束', true); return false; }
    if (confirmText && !(await WT.confirm(confirmText))) return false;
    let r;
    try {
      r = await WT.post('/api/judge/' + name, payload);
      if (r.status === 403 && (await WT.refreshCSRF())) r = await WT.post('/api/judge/' + name, payload);
    } catch (e) {
      say('× 連不上桌子', true);
      return false;
    }
    if (r.status === 401) { showLogin('登入已過期，請重新登入'); return false; }
    say(r.ok ? '✓ ' + what : '× ' + what + '：' + ((r.body && r.body.error) || r.status), !r.ok);
    return r.ok;
  }

  function pick(n) {
    selected = n;
    for (const id of ['dq-seat', 'penalty-seat', 'fix-seat']) $(id).value = String(n);
    for (const e of document.querySelectorAll('#seats .seat')) e.classList.toggle('selected', Number(e.dataset.seat) === n);
  }

  function wire() {
    for (const b of document.querySelectorAll('[data-power]')) {
      b.addEventListener('click', () => {
        const press = b.dataset.press;
        power(b.dataset.power, press ? { press } : {}, b.textContent.trim());
      });
    }
    $('btn-void').addEventListener('click', () => power('void', {}, '流局', '宣告流局？遊戲立即結束。'));
    const chosen = (id) => {
      const n = Number($(id).value);
      if (!n) say('× 請先選座位（點座位或用選單）', true);
      return n;
    };
    $('dq-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const n = chosen('dq-seat');
      if (!n) return;
      power('dq', { seat: n }, '點殺' + seat(n), '點殺' + seat(n) + '？立即出局，沒有技能、沒有遺言。');
    });
    $('penalty-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const n = chosen('penalty-seat');
      if (!n) return;
      const p = Number($('penalty-points').value);
      power('penalty', { seat: n, points: p }, seat(n) + '扣' + p + '分');
    });
    $('seat-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const n = chosen('fix-seat');
      if (!n) return;
      const action = $('fix-action').value;
      const target = action === 'target' ? Number($('fix-target').value) : 0;
      const what = '代' + seat(n) + (action === 'target' ? '按 ' + target : ' ' + $('fix-action').selectedOptions[0].textContent);
      power('seat', { seat: n, action, target }, what, action === 'boom' ? '代' + seat(n) + '自爆？' : null);
    });
    $('btn-logout').addEventListener('click', async () => {
      try { await WT.post('/api/judge/logout', {}); } catch (e) { /* gone anyway */ }
      showLogin('已登出');
    });
    $('ng-board').addEventListener('change', boardChanged);
    $('ng-random').addEventListener('change', dealMode);
    $('ng-manual').addEventListener('change', dealMode);
    $('start-form').addEventListener('submit', start);
  }

  // ---- the view ----

  function seatOptions(n) {
    if (n === players) return;
    players = n;
    for (const s of document.querySelectorAll('.seat-select')) {
      const keep = s.value;
      s.replaceChildren(el('option', { value: '', text: '座位' }),
        ...Array.from({ length: n }, (_, i) => el('option', { value: i + 1, text: seat(i + 1) })));
      if (keep && Number(keep) <= n) s.value = keep;
    }
    $('fix-target').max = String(n);
  }

  function renderNight(s) {
    const night = (s.phase || '').startsWith('night');
    $('night').hidden = !(night || s.cues.length);
    document.body.classList.toggle('is-night', night);
    if (s.wake) {
      const holders = s.wake.seats.map((w) => seat(w.seat) + (w.out ? '（已出局）' : ''));
      fill('wake',
        el('span', { class: 'wake-label', text: '請睜眼' }),
        el('span', { class: 'wake-role', text: s.wake.role_name }),
        el('span', { class: 'wake-seats', text: holders.length ? holders.join('、') : '（本局無此身分）' }),
        s.wake.actors.length ? null : el('span', { class: 'hint', text: '照常念完，無人睜眼' }));
    } else {
      fill('wake');
    }
    // Tonight's cues, newest first, all in large type: the voice is still
    // saying one step's lines when the next step's cue arrives.
    const cues = s.cues.slice().reverse();
    fill('cue-now', cues.length ? el('div', { class: 'cue-card', dataset: { line: cues[0].line } },
      el('div', { class: 'gesture', text: cues[0].gesture }),
      el('div', { class: 'cue-text', text: cues[0].text })) : null);
    fill('cue-list', cues.slice(1).map((c) => el('li', { class: 'cue-card', dataset: { line: c.line } },
      el('span', { class: 'gesture', text: c.gesture }), el('span', { class: 'cue-text', text: c.text }))));
  }

  // The seat tiles are made once and updated in place: a tile rebuilt while
  // a finger is on it would swallow the tap.
  function renderSeats(s) {
    const box = $('seats');
    if (box.children.length !== s.seats.length) {
      box.replaceChildren(...s.seats.map((x) => el('button', { type: 'button', class: 'seat', dataset: { seat: x.seat }, onclick: () => pick(x.seat) },
        el('span', { class: 'num', text: x.seat }), el('span', { class: 'role' }), el('span', { class: 'status' }),
        el('span', { class: 'star', text: '警長', hidden: true }))));
    }
    s.seats.forEach((x, i) => {
      const tile = box.children[i];
      const causes = x.causes.length ? '（' + x.causes.join('、') + '）' : '';
      let status = '存活';
      if (x.out) status = '出局' + causes;
      else if (x.dying) status = '今夜死亡' + causes;
      else if (x.revealed) status = '已翻牌';
      if (x.status && x.status.length) status += '・' + x.status.join('・'); // 幸運兒's gift, 村長's lives
      if (x.lovers && x.lovers.length) status += ' 情侶' + x.lovers.join('、') + (x.third ? '（第三方）' : '');
      const cls = ['seat', 'light-' + x.light, 'camp-' + x.camp];
      if (x.pulse) cls.push('pulse');
      if (x.out) cls.push('out');
      if (x.dying) cls.push('dying');
      if (x.sheriff) cls.push('sheriff');
      if (x.seat === selected) cls.push('selected');
      const c = cls.join(' ');
      if (tile.className !== c) tile.className = c;
      const [role, st, star] = [tile.querySelector('.role'), tile.querySelector('.status'), tile.querySelector('.star')];
      // the thief's kept card (盜賊→狼人), a wild child's turn, a follower's model
      const roleText = (x.dealt_name ? x.dealt_name + '→' + x.role_name : x.role_name + (x.plays ? '→' + x.plays : '')) +
        (x.model ? '（榜樣' + x.model + '號）' : '');
      if (role.textContent !== roleText) role.textContent = roleText;
      if (st.textContent !== status) st.textContent = status;
      star.hidden = !x.sheriff;
    });
  }

  function voteBlock(v, live) {
    return el('div', { class: 'vote' + (live ? ' live' : '') },
      el('h3', { text: (v.day ? '第' + v.day + '天 ' : '') + v.label + (live ? '（投票中）' : '') }),
      el('p', { class: 'ballots' }, v.ballots.map((b) => el('span', { class: 'ballot' + (b.target ? '' : ' none'), dataset: { voter: b.voter } },
        b.target ? b.voter + '→' + b.target : b.voter + (live ? ' 未投' : ' 棄票')))),
      el('p', { class: 'tally' }, v.tally.length ? v.tally.map((t) => el('span', { class: 'tally-item', dataset: { seat: t.seat } }, seat(t.seat) + ' ' + t.votes + '票')) : '（尚無票）'));
  }

  function render(s) {
    st = s;
    seatOptions(s.seats.length);
    // a dealt game waits for the pedal: 下一步 starts it, the same as the pedal
    const dealt = s.dealt && (!s.game || s.over) ? s.dealt : null;
    text('phase', dealt ? '已發牌：' + dealt.name : (s.phase_label || (s.game ? s.game.name : '尚未開局')));
    text('step', dealt ? '等待開始' : (s.step ? s.step.label : (s.over ? '遊戲結束' : '')));
    const waiting = $('dealt');
    waiting.hidden = !dealt;
    waiting.textContent = dealt ? '新的一局已發牌（' + dealt.name + '）。踩踏板，或按「開始本局（短按）」開始（與踩踏板相同）；要換板子或手動發牌，用下方的「開新局」。' : '';
    WT.setTimer(s.timer, s.rate);
    $('paused').hidden = !s.paused;
    const notice = $('notice');
    notice.hidden = !s.notice;
    notice.textContent = s.notice || '';
    // the game's end: the result card comes into view (the judge's finger
    // is on 流局 or 點殺, far down the page) and the powers are disabled
    const over = !!(s.game && s.over);
    const res = $('result');
    res.hidden = !over;
    fill('result', over ? [
      el('span', { class: 'result-main', text: s.result === '流局' ? '本局流局' : (s.result ? '遊戲結束：' + s.result + '勝利' : '遊戲結束') }),
      el('small', { class: 'result-sub', text: '本局已結束：點殺、流局等控制已停用。' + (dealt ? '下一局已發牌，踩踏板或按「開始本局」開始。' : '開下一局用下方的「開新局」。') }),
    ] : []);
    if (over && wasOver === false) res.scrollIntoView({ block: 'center' });
    wasOver = over;
    for (const id of ['btn-dq', 'btn-void', 'btn-penalty', 'btn-fix', 'btn-repeat', 'btn-pause', 'btn-resume', 'btn-double', 'btn-long']) {
      $(id).disabled = over || !s.game;
    }
    const link = $('link');
    link.hidden = !s.link || s.link.up;
    link.textContent = s.link ? '硬體連線中斷：' + s.link.detail : '';
    renderNight(s);
    text('line', s.line || '');
    renderSeats(s);
    const bottom = (s.game && s.game.bottom) || [];
    $('bottom').hidden = !bottom.length;
    const pick = (c) => c.kept ? '（盜賊' + c.thief + '號拿走）' : c.buried ? '（埋牌）' : '';
    text('bottom', bottom.length ? '底牌：' + bottom.map((c) => c.role_name + pick(c)).join('、') : '');
    fill('live-vote', s.live_vote ? voteBlock(s.live_vote, true) : null);
    fill('inputs', s.inputs.map((i) => el('li', {}, i.label, ' ', el('small', { text: sourceLabel(i.source) }))));
    fill('votes', s.votes.slice().reverse().map((v) => voteBlock(v, false)));
    fill('deaths', s.deaths.map((d) => el('li', {}, seat(d.seat) + ' ' + d.cause_label + ' ' + d.when_label)));
    $('refused-box').hidden = !s.refused.length;
    fill('refused', s.refused.slice().reverse().map((r) => el('li', {}, sourceLabel(r.source) + ' ' + r.input + '：' + r.error)));
    fill('records', s.records.slice().reverse().map((r) => el('li', { class: 'rec-' + r.type, text: r.text })));
    fill('lines', s.lines.slice().reverse().map((l) => el('li', { class: l.cue ? 'cue' : '' }, l.cue ? '〔手勢〕' + l.text : l.text)));
    $('btn-next').disabled = !dealt && (!(s.step && s.step.pedal) || s.paused);
    $('btn-next').textContent = dealt ? '開始本局（短按）' : '下一步（短按）';
    $('btn-pause').hidden = s.paused;
    $('btn-resume').hidden = !s.paused;
    $('btn-undo').disabled = !s.inputs.length || over;
    $('newgame').open = $('newgame').open || (!s.game && !dealt);
  }

  // ---- a new game ----

  async function loadBoards() {
    const r = await WT.getJSON('/api/judge/boards');
    if (!r.ok) return;
    boards = r.body.boards;
    // each option's name and values in words: the judge never reads a key
    const info = {};
    for (const o of r.body.options) info[o.key] = o;
    boards.info = info;
    // a venue's own board is marked 本店; a board of another seat count
    // than the table's is shown but cannot be chosen
    const label = (b) => b.name + '（' + b.players + '人' +
      (b.roles.length > b.players ? '＋' + (b.roles.length - b.players) + '張底牌' : '') + '）' +
      (b.venue ? '〔本店〕' : '') + (b.fits === false ? '〔座位數不合〕' : '');
    fill('ng-board', boards.map((b) => el('option', { value: b.id, text: label(b), disabled: b.fits === false })));
    const first = boards.find((b) => b.id === 'seer-witch-hunter-idiot' && b.fits !== false) || boards.find((b) => b.fits !== false);
    if (first) $('ng-board').value = first.id;
    boardChanged();
  }

  function board() { return boards.find((b) => b.id === $('ng-board').value); }

  function boardChanged() {
    const b = board();
    if (!b) return;
    fill('ng-options', Object.keys(b.options).sort().map((k) => optionField(k, b.options[k])));
    const names = [];
    for (const r of b.roles) if (!names.some((x) => x.id === r.id)) names.push(r);
    const cardPick = (id, label) => el('label', { class: 'deal-seat' },
      el('span', { text: label }),
      el('select', { id, onchange: dealCheck },
        el('option', { value: '', text: '—' }),
        names.map((r) => el('option', { value: r.id, text: r.name }))));
    fill('ng-deal', [
      ...Array.from({ length: b.players }, (_, i) => cardPick('deal-seat-' + (i + 1), seat(i + 1))),
      ...Array.from({ length: b.roles.length - b.players }, (_, i) => cardPick('deal-bottom-' + (i + 1), '底牌' + (i + 1))),
    ]);
    dealMode();
  }

  // optionField is one option of the board: a choice of its values in
  // words, or a number to type.
  function optionField(k, value) {
    const o = boards.info[k] || { name: '未知選項' };
    const data = { key: k, def: value };
    let input;
    if (o.values && o.values.length) {
      const vals = o.values.some((c) => c.value === value) ? o.values : [...o.values, { value, text: value }];
      input = el('select', { dataset: data }, vals.map((c) => el('option', { value: c.value, text: c.text })));
      input.value = value;
    } else {
      input = el('input', { type: 'text', inputmode: 'numeric', value, dataset: data });
    }
    return el('label', { class: 'option' }, el('span', { text: o.name }), input);
  }

  function dealMode() {
    $('ng-deal').hidden = !$('ng-manual').checked;
    dealCheck();
  }

  // dealCards is the hand-entered deal: seats 1.. first, then the bottom cards.
  function dealCards(b) {
    return [
      ...Array.from({ length: b.players }, (_, i) => $('deal-seat-' + (i + 1)).value),
      ...Array.from({ length: b.roles.length - b.players }, (_, i) => $('deal-bottom-' + (i + 1)).value),
    ];
  }

  // dealCheck compares the hand-entered deal with the composition.
  function dealCheck() {
    const b = board();
    if (!b || !$('ng-manual').checked) { text('ng-deal-check', ''); return true; }
    const need = {};
    const names = {};
    for (const r of b.roles) { need[r.id] = (need[r.id] || 0) + 1; names[r.id] = r.name; }
    for (const v of dealCards(b)) {
      if (v) need[v] = (need[v] || 0) - 1;
    }
    const miss = [];
    const extra = [];
    for (const [id, n] of Object.entries(need)) {
      if (n > 0) miss.push(names[id] + '×' + n);
      if (n < 0) extra.push(names[id] + '×' + (-n));
    }
    const ok = !miss.length && !extra.length;
    text('ng-deal-check', ok ? '✓ 配置正確' : (miss.length ? '還差：' + miss.join('、') + ' ' : '') + (extra.length ? '多了：' + extra.join('、') : ''));
    return ok;
  }

  async function start(ev) {
    ev.preventDefault();
    const b = board();
    if (!b) return;
    const payload = { board: b.id, deal: 'random' };
    const opts = {};
    for (const i of document.querySelectorAll('#ng-options input, #ng-options select')) {
      if (i.value !== i.dataset.def) opts[i.dataset.key] = i.value;
    }
    if (Object.keys(opts).length) payload.options = opts;
    if ($('ng-manual').checked) {
      if (!dealCheck()) { text('ng-msg', '× 發牌與板子配置不符'); return; }
      payload.deal = dealCards(b);
    }
    const seed = $('ng-seed').value.trim();
    if (seed) payload.seed = seed;
    if (st && st.game && !st.over) {
      if (!(await WT.confirm('遊戲進行中。結束它並開新局？'))) return;
      payload.replace = true;
    }
    $('btn-start').disabled = true;
    try {
      let r = await WT.post('/api/judge/start', payload);
      if (r.status === 403 && (await WT.refreshCSRF())) r = await WT.post('/api/judge/start', payload);
      if (r.status === 401) { showLogin('登入已過期，請重新登入'); return; }
      text('ng-msg', r.ok ? '✓ 已開局：' + r.body.game.name : '× ' + ((r.body && r.body.error) || r.status));
      if (r.ok) $('newgame').open = false;
    } finally {
      $('btn-start').disabled = false;
    }
  }

  boot();
})();
