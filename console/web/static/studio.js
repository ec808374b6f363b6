// The voice studio (錄音室): the venue records its judge clip by clip. It
// uses only /api/login, /api/judge/session and /api/judge/voice/.
'use strict';
(function () {
  const { el, text } = WT;
  const $ = (id) => document.getElementById(id);
  const MAX_SECONDS = 30; // the table refuses longer takes
  let list = null; // the last listing
  let cards = new Map(); // clip id -> its <li>
  let mic = null; // { ctx, stream, analyser }
  let rec = null; // the take being recorded: { id, chunks, started, timer }
  let messages = new Map(); // clip id -> the last upload's words, kept across renders
  let filled = false; // the fill box proposed once; the judge's choice stands

  const stateWord = { missing: '未錄', ok: '通過', warning: '可用，有提醒', error: '不能用' };

  // ---- login ----

  let showLogin = null;

  function boot() {
    wire();
    showLogin = WT.signIn(showApp);
  }

  function showApp() {
    if (!canRecord()) {
      const https = 'https://' + location.hostname + ':8443/studio';
      text('insecure', '這個網址不是安全連線，瀏覽器不讓網頁使用麥克風：請改開 HTTPS 的網址（serve 啟動時印出，通常是 ' + https +
        '；見說明：讓手機信任桌子的憑證），或在每一句按「用手機錄音機」。');
      $('insecure').hidden = false;
      $('mic-btn').disabled = true;
    }
    load();
    follow();
  }

  // ---- a game on the table ----

  // The table refuses recording and activating while a game is on (it
  // may have been resumed at start from an earlier run, unknown to the
  // judge): the page says so at once, and how to end it, and follows the
  // judge's state until the game ends.
  let live = null;
  function follow() {
    if (live) return;
    live = WT.live('/api/judge/events', '/api/judge/state', gameBanner, () => {}, () => { live = null; showLogin('登入已過期，請重新登入'); });
  }

  function gameBanner(s) {
    const on = !!(s.game && !s.over);
    const box = $('busy');
    box.hidden = !on;
    document.body.classList.toggle('game-on', on);
    if (!on) { box.replaceChildren(); return; }
    const where = s.phase_label ? '・' + s.phase_label : '';
    box.replaceChildren(
      el('strong', { text: '對局進行中（' + s.game.name + where + '）' }),
      '：這局結束前不能錄音、匯入或切換語音（試聽可以）。若這局不該進行（例如桌子重新啟動時接續了上次沒打完的局），請到',
      el('a', { href: '/judge', text: '法官控制台' }),
      '按「流局」結束它；流局會記入這局的紀錄。');
  }

  function canRecord() {
    return window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia;
  }

  // ---- the list ----

  async function load() {
    let r = null;
    try { r = await WT.getJSON('/api/judge/voice/clips'); } catch (e) { r = null; }
    if (!r) { text('progress', '連不上桌子'); return; }
    if (r.status === 401) { showLogin('登入已過期，請重新登入'); return; }
    if (!r.ok) { text('progress', (r.body && r.body.error) || ('讀取失敗（' + r.status + '）')); return; }
    list = r.body;
    render();
  }

  // The clips by part of the script (list.groups: as a game goes), the
  // night's by role: one <details> per part, a link to each at the top.
  let groupBoxes = new Map(); // group id -> { box, count, link, lists: Map(sub -> <ol>) }
  let groupOpened = false;

  function groupBox(c) {
    let g = groupBoxes.get(c.group);
    if (!g) {
      const info = (list.groups || []).find((x) => x.id === c.group) || { id: c.group, label: c.group };
      const count = el('span', { class: 'group-count' });
      const body = el('div', { class: 'group-body' });
      // one part open at a time to start with: the first with clips still to record
      const open = !groupOpened && info.recorded < info.total;
      if (open) groupOpened = true;
      const box = el('details', { class: 'clip-group', id: 'group-' + c.group, open },
        el('summary', {}, el('span', { class: 'group-label', text: info.label }), ' ', count), body);
      const linkCount = el('small', {});
      const link = el('a', { href: '#group-' + c.group, class: 'group-link', onclick: () => { box.open = true; } }, info.label, ' ', linkCount);
      g = { box, body, count, link, linkCount, lists: new Map() };
      groupBoxes.set(c.group, g);
      $('clips').append(box);
      $('group-nav').append(link);
    }
    const sub = c.sub || '';
    let ol = g.lists.get(sub);
    if (!ol) {
      ol = el('ol', { class: 'clips', dataset: { sub } });
      if (sub) g.body.append(el('section', { class: 'clip-sub' }, el('h3', { text: sub }), ol));
      else g.body.append(ol);
      g.lists.set(sub, ol);
    }
    return ol;
  }

  function render() {
    text('progress', '已錄 ' + list.recorded + ' / ' + list.total + ' 句（可用 ' + list.usable + '）');
    $('progress-bar').style.width = (list.total ? 100 * list.recorded / list.total : 0) + '%';
    for (const gr of list.groups || []) {
      const g = groupBoxes.get(gr.id);
      if (!g) continue;
      g.count.textContent = '已錄 ' + gr.recorded + ' / ' + gr.total;
      g.linkCount.textContent = gr.recorded + '/' + gr.total;
      g.link.classList.toggle('done', gr.recorded === gr.total);
    }
    const a = list.active;
    if (list.override) {
      text('active', '桌子現在用設定檔指定的語音包 ' + list.override + '：這裡啟用的語音要等設定檔的 [voice] pack 改為空白（""）才會生效');
    } else if (!a) {
      text('active', '桌子現在用：內建語音（合成）');
    } else if (a.fill) {
      text('active', '桌子現在用：錄音室語音「' + a.name + '」，自錄 ' + a.clips + ' 句，' + a.filled + ' 句由內建語音補上');
    } else {
      text('active', '桌子現在用：錄音室語音「' + a.name + '」（' + a.clips + ' 句全部自錄）');
    }
    if (document.activeElement !== $('pack-name')) $('pack-name').value = list.name || '';
    if (document.activeElement !== $('pack-by')) $('pack-by').value = list.recorded_by || '';
    if (!filled) { $('fill').checked = list.usable < list.total; filled = true; }
    let fresh = false;
    for (const c of list.clips) {
      let li = cards.get(c.id);
      if (!li) {
        li = card(c);
        cards.set(c.id, li);
        groupBox(c).append(li);
        fresh = true;
      }
      update(li, c);
    }
    if (fresh) render(); // the counts of the parts just made
    filter();
  }

  function card(c) {
    const li = el('li', { class: 'clip', dataset: { id: c.id } });
    const rb = el('button', { type: 'button', class: 'rec-btn primary', onclick: () => toggle(c.id) }, '錄音');
    const pb = el('button', { type: 'button', class: 'play-btn', onclick: () => play(c.id, false) }, '重聽');
    const db = el('button', { type: 'button', class: 'ref-btn', onclick: () => play(c.id, true) }, '聽內建');
    const input = el('input', { type: 'file', accept: 'audio/*', capture: '', class: 'file-input' });
    input.addEventListener('change', () => { if (input.files[0]) uploadFile(c.id, input.files[0]); input.value = ''; });
    const fb = el('label', { class: 'file-btn' }, '用手機錄音機', input);
    const kind = c.kind === 'seat' ? '座位' : c.kind === 'count' ? '倒數' : '台詞';
    li.append(
      el('div', { class: 'clip-head' },
        el('span', { class: 'clip-text' }, c.text),
        el('span', { class: 'clip-state' })),
      el('div', { class: 'clip-meta hint' },
        c.zhuyin ? el('span', { class: 'clip-pinyin', lang: 'zh-Bopo' }, c.zhuyin)
          : el('span', { class: 'clip-pinyin', lang: 'zh-Latn-pinyin' }, c.pinyin_marks || c.pinyin), ' · ',
        el('span', {}, '建議約 ' + c.suggested.toFixed(1) + ' 秒')),
      // the internal names, for the technician: out of the way
      el('details', { class: 'clip-detail hint' },
        el('summary', { text: '技術細節' }),
        el('p', {}, kind + '編號：', el('code', { text: c.id })),
        (c.lines && c.lines.length) ? el('p', {}, '用在：', c.lines.map((l) => el('code', { text: l })).reduce((a, x) => a.concat(a.length ? ['、', x] : [x]), [])) : null,
        el('p', {}, '數字標調：' + c.pinyin)),
      el('div', { class: 'buttons' }, rb, pb, db, fb),
      el('ul', { class: 'clip-notes plain' }),
      el('p', { class: 'clip-msg', role: 'status' }));
    return li;
  }

  function update(li, c) {
    li.dataset.state = c.state;
    li.dataset.search = (c.text + ' ' + c.pinyin + ' ' + (c.pinyin_marks || '') + ' ' + toneless(c.pinyin_marks || '') + ' ' + (c.zhuyin || '') + ' ' + c.id).toLowerCase();
    const st = li.querySelector('.clip-state');
    st.textContent = stateWord[c.state] + (c.seconds ? '（' + c.seconds.toFixed(1) + ' 秒）' : '');
    st.className = 'clip-state state-' + c.state;
    li.querySelector('.play-btn').disabled = c.state === 'missing';
    notes(li, c.notes);
    li.querySelector('.clip-msg').textContent = messages.get(c.id) || '';
  }

  function notes(li, ns) {
    const ul = li.querySelector('.clip-notes');
    ul.replaceChildren(...(ns || []).map((n) => el('li', { class: 'note-' + n.severity }, n.message)));
  }

  // toneless is pinyin without its tone marks: a search for "xuan" finds xuǎn.
  function toneless(p) { return p.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ü/g, 'u'); }

  function filter() {
    const f = $('filter').value;
    const q = toneless($('search').value.trim().toLowerCase());
    for (const li of cards.values()) {
      const s = li.dataset.state;
      let show = f === 'all' || (f === 'missing' && s === 'missing') || (f === 'failed' && (s === 'warning' || s === 'error')) ||
        (f === 'recorded' && (s === 'ok' || s === 'warning'));
      if (q && !li.dataset.search.includes(q)) show = false;
      li.hidden = !show;
    }
    // a part or a role with nothing to show is hidden too
    for (const g of groupBoxes.values()) {
      let any = false;
      for (const ol of g.lists.values()) {
        const some = Array.from(ol.children).some((li) => !li.hidden);
        (ol.closest('.clip-sub') || ol).hidden = !some;
        any = any || some;
      }
      g.box.hidden = !any;
      if (q || f !== 'all') g.box.open = any; // a search shows what it found
    }
  }

  function say(id, msg) {
    messages.set(id, msg);
    const li = cards.get(id);
    if (li) li.querySelector('.clip-msg').textContent = msg;
  }

  // ---- the microphone ----

  async function openMic() {
    if (mic) return true;
    if (!canRecord()) return false;
    text('mic-state', '開啟中…');
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      });
      const ctx = new (window.AudioContext || window.webkitAudioContext)();
      await ctx.resume();
      const src = ctx.createMediaStreamSource(stream);
      const analyser = ctx.createAnalyser();
      analyser.fftSize = 2048;
      src.connect(analyser);
      const silent = ctx.createGain();
      silent.gain.value = 0;
      silent.connect(ctx.destination);
      const take = (samples) => { if (rec) rec.chunks.push(samples); };
      if (ctx.audioWorklet && window.AudioWorkletNode) {
        await ctx.audioWorklet.addModule('/static/recorder.js');
        const node = new AudioWorkletNode(ctx, 'wolftable-tap', { numberOfInputs: 1, numberOfOutputs: 1, outputChannelCount: [1] });
        node.port.onmessage = (e) => take(e.data);
        src.connect(node);
        node.connect(silent);
      } else { // browsers without AudioWorklet
        const node = ctx.createScriptProcessor(4096, 1, 1);
        node.onaudioprocess = (e) => take(new Float32Array(e.inputBuffer.getChannelData(0)));
        src.connect(node);
        node.connect(silent);
      }
      mic = { ctx, stream, analyser };
      text('mic-state', '麥克風已開啟（' + Math.round(ctx.sampleRate) + ' Hz）');
      $('mic-btn').textContent = '麥克風已開啟';
      $('mic-btn').disabled = true;
      meter();
      return true;
    } catch (e) {
      text('mic-state', '無法開啟麥克風：' + (e && e.message ? e.message : e) + '（可改用「用手機錄音機」）');
      return false;
    }
  }

  function meter() {
    const buf = new Float32Array(mic.analyser.fftSize);
    const bar = $('meter-bar');
    const step = () => {
      mic.analyser.getFloatTimeDomainData(buf);
      let peak = 0;
      for (const v of buf) peak = Math.max(peak, Math.abs(v));
      const db = peak > 0 ? 20 * Math.log10(peak) : -90;
      bar.style.width = Math.max(0, Math.min(100, (db + 60) / 60 * 100)) + '%';
      bar.classList.toggle('hot', peak > 0.9);
      if (rec) {
        const secs = mic.ctx.currentTime - rec.started;
        cards.get(rec.id).querySelector('.rec-btn').textContent = '停止（' + secs.toFixed(1) + ' 秒）';
        if (secs >= MAX_SECONDS) stop();
      }
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  // ---- recording ----

  async function toggle(id) {
    if (rec && rec.id === id) { stop(); return; }
    if (rec) stop();
    if (!(await openMic())) return;
    rec = { id, chunks: [], started: mic.ctx.currentTime };
    const li = cards.get(id);
    li.classList.add('recording');
    say(id, '錄音中…說完按「停止」');
  }

  function stop() {
    const r = rec;
    rec = null;
    const li = cards.get(r.id);
    li.classList.remove('recording');
    li.querySelector('.rec-btn').textContent = '錄音';
    let n = 0;
    for (const c of r.chunks) n += c.length;
    const samples = new Float32Array(n);
    let at = 0;
    for (const c of r.chunks) { samples.set(c, at); at += c.length; }
    if (n < mic.ctx.sampleRate * 0.2) { say(r.id, '錄音太短，請再錄一次'); return; }
    upload(r.id, wav(samples, mic.ctx.sampleRate), 'audio/wav');
  }

  // wav is 16-bit PCM mono: the table's own format to read.
  function wav(samples, rate) {
    const b = new ArrayBuffer(44 + samples.length * 2);
    const v = new DataView(b);
    const str = (o, s) => { for (let i = 0; i < s.length; i++) v.setUint8(o + i, s.charCodeAt(i)); };
    str(0, 'RIFF'); v.setUint32(4, 36 + samples.length * 2, true); str(8, 'WAVE');
    str(12, 'fmt '); v.setUint32(16, 16, true); v.setUint16(20, 1, true); v.setUint16(22, 1, true);
    v.setUint32(24, rate, true); v.setUint32(28, rate * 2, true); v.setUint16(32, 2, true); v.setUint16(34, 16, true);
    str(36, 'data'); v.setUint32(40, samples.length * 2, true);
    for (let i = 0; i < samples.length; i++) {
      const s = Math.max(-1, Math.min(1, samples[i]));
      v.setInt16(44 + i * 2, s < 0 ? s * 32768 : s * 32767, true);
    }
    return new Blob([b], { type: 'audio/wav' });
  }

  // uploadFile sends a file from the phone's own recorder: the browser
  // decodes what it can (AAC, Opus, MP3…) and sends WAV; the table decodes
  // the rest itself (WAV, WebM/Opus, Ogg/Opus, MP3) or says why not.
  async function uploadFile(id, file) {
    say(id, '讀取檔案…');
    const raw = await file.arrayBuffer();
    try {
      const Ctx = window.OfflineAudioContext || window.webkitOfflineAudioContext;
      const ctx = new Ctx(1, 1, 48000);
      const audio = await ctx.decodeAudioData(raw.slice(0));
      const mono = new Float32Array(audio.length);
      for (let c = 0; c < audio.numberOfChannels; c++) {
        const d = audio.getChannelData(c);
        for (let i = 0; i < d.length; i++) mono[i] += d[i] / audio.numberOfChannels;
      }
      await upload(id, wav(mono, audio.sampleRate), 'audio/wav');
    } catch (e) {
      await upload(id, new Blob([raw]), file.type || 'application/octet-stream');
    }
  }

  async function send(method, path, body, type) {
    const opts = () => ({
      method, credentials: 'same-origin', cache: 'no-store', body,
      headers: { 'Content-Type': type, 'X-CSRF-Token': WT.csrf },
    });
    let r = await fetch(path, opts());
    if (r.status === 403 && (await WT.refreshCSRF())) r = await fetch(path, opts()); // a token from before a restart
    let json = null;
    try { json = await r.json(); } catch (e) { json = null; }
    if (r.status === 401) showLogin('登入已過期，請重新登入');
    return { ok: r.ok, status: r.status, body: json };
  }

  async function upload(id, blob, type) {
    say(id, '上傳中…');
    let r = null;
    try { r = await send('PUT', '/api/judge/voice/clips/' + encodeURIComponent(id), blob, type); } catch (e) { r = null; }
    if (!r) { say(id, '連不上桌子：錄音沒有存'); return; }
    if (r.ok) {
      const warn = r.body.state === 'warning' ? '，有提醒' : '';
      say(id, '已存（' + r.body.seconds.toFixed(1) + ' 秒，音量調整 ' + r.body.gain_db.toFixed(1) + ' dB' + warn + '）');
    } else {
      let msg = (r.body && r.body.error) || ('上傳失敗（' + r.status + '）');
      if (r.body && r.body.result && r.body.result.notes) {
        msg += ' ' + r.body.result.notes.filter((n) => n.severity !== 'info').map((n) => n.message).join('；');
      }
      say(id, msg);
    }
    await load();
  }

  function play(id, fromDefault) {
    const url = '/api/judge/voice/clips/' + encodeURIComponent(id) + '/audio' + (fromDefault ? '?pack=default' : '?t=' + Date.now());
    const a = new Audio(url);
    a.play().catch((e) => say(id, '無法播放：' + e.message));
  }

  // ---- the pack ----

  async function packAction(path, payload, done) {
    text('pack-msg', '處理中…');
    const r = await send('POST', path, JSON.stringify(payload || {}), 'application/json');
    if (r.ok) {
      list = r.body;
      render();
      text('pack-msg', done);
    } else {
      text('pack-msg', (r.body && r.body.error) || ('失敗（' + r.status + '）'));
    }
  }

  async function importArchive(file) {
    text('pack-msg', '匯入中（每一句都要處理，請稍候）…');
    let r = null;
    try { r = await send('POST', '/api/judge/voice/import', file, 'application/zip'); } catch (e) { r = null; }
    if (!r) { text('pack-msg', '連不上桌子'); return; }
    const b = r.body || {};
    const skipped = (b.skipped || []).map((s) => s.file + '：' + s.reason);
    let msg = r.ok ? '匯入 ' + b.clips.length + ' 句' : (b.error || ('匯入失敗（' + r.status + '）'));
    if (b.code === 'cancelled') msg += '；中止前已存 ' + (b.clips || []).length + ' 句，其餘請在這局結束後再匯入一次';
    if (skipped.length) msg += '；略過 ' + skipped.length + ' 個檔案：' + skipped.slice(0, 5).join('；') + (skipped.length > 5 ? '…' : '');
    text('pack-msg', msg);
    await load();
  }

  function wire() {
    $('mic-btn').addEventListener('click', openMic);
    $('filter').addEventListener('change', filter);
    $('search').addEventListener('input', filter);
    $('name-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      packAction('/api/judge/voice/name', { name: $('pack-name').value, recorded_by: $('pack-by').value }, '已儲存');
    });
    $('btn-activate').addEventListener('click', () => {
      packAction('/api/judge/voice/activate', { fill: $('fill').checked }, '已啟用：桌子載入這套語音（幾秒）後就用它說話');
    });
    $('btn-deactivate').addEventListener('click', () => packAction('/api/judge/voice/deactivate', {}, '已改回內建語音'));
    $('import-file').addEventListener('change', () => {
      const f = $('import-file').files[0];
      $('import-file').value = '';
      if (f) importArchive(f);
    });
  }

  boot();
})();
