// wolftable console: shared helpers (no build step, no dependencies).
'use strict';

const WT = {
  csrf: '',

  // el builds an element: attributes, then children (strings become text:
  // nothing the server sends is ever parsed as HTML).
  el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === false || v === null || v === undefined) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else if (k === 'dataset') Object.assign(e.dataset, v);
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  },

  fill(id, ...children) {
    const e = document.getElementById(id);
    if (e) e.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
    return e;
  },

  text(id, t) {
    const e = document.getElementById(id);
    if (e && e.textContent !== t) e.textContent = t;
    return e;
  },

  seat(n) { return n + '號'; },

  lightWord: { green: '綠', red: '紅', blue: '藍', off: '滅' },

  async getJSON(path) {
    const r = await fetch(path, { credentials: 'same-origin', cache: 'no-store' });
    let body = null;
    try { body = await r.json(); } catch (e) { body = null; }
    return { ok: r.ok, status: r.status, body, headers: r.headers };
  },

  async post(path, payload) {
    const r = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': WT.csrf },
      body: JSON.stringify(payload || {}),
    });
    let body = null;
    try { body = await r.json(); } catch (e) { body = null; }
    return { ok: r.ok, status: r.status, body, headers: r.headers };
  },

  // signIn runs a judge page's login (#login with #login-form, #pin,
  // #login-btn and #login-error; the page itself in #app): a page with a
  // session shows #app and calls onApp; else the form, which logs in and
  // then does the same. It returns showLogin(msg), for a session that ends;
  // onLogin (optional) runs before the form is shown.
  signIn(onApp, onLogin) {
    const $ = (id) => document.getElementById(id);
    const showApp = () => {
      $('login').hidden = true;
      $('app').hidden = false;
      onApp();
    };
    const showLogin = (msg) => {
      if (onLogin) onLogin();
      $('app').hidden = true;
      $('login').hidden = false;
      WT.text('login-error', msg || '');
      $('pin').value = '';
      $('pin').focus();
    };
    $('login-form').addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const pin = $('pin').value.trim();
      if (!pin) return;
      $('login-btn').disabled = true;
      try {
        const r = await WT.post('/api/login', { pin });
        if (r.ok) {
          WT.csrf = r.body.csrf;
          $('pin').value = '';
          showApp();
          return;
        }
        WT.text('login-error', (r.body && r.body.error) || ('登入失敗（' + r.status + '）'));
        $('pin').value = '';
        $('pin').focus();
      } catch (e) {
        WT.text('login-error', '連不上桌子');
      } finally {
        $('login-btn').disabled = false;
      }
    });
    (async () => {
      let r = null;
      try { r = await WT.getJSON('/api/judge/session'); } catch (e) { r = null; }
      if (r && r.ok) {
        WT.csrf = r.body.csrf;
        showApp();
      } else {
        showLogin('');
      }
    })();
    return showLogin;
  },

  // refreshCSRF asks for the session's token again (a page from before the
  // table restarted); false when the session is gone.
  async refreshCSRF() {
    const r = await WT.getJSON('/api/judge/session');
    if (r.ok) WT.csrf = r.body.csrf;
    return r.ok;
  },

  // live follows a server-sent state stream and reconnects on its own; when
  // the browser gives up on the stream it reads the state once and opens a
  // new one with a growing delay. onLogout: the session ended.
  live(url, stateURL, onState, onConn, onLogout) {
    let es = null;
    let delay = 1000;
    let stopped = false;
    const open = () => {
      if (stopped) return;
      es = new EventSource(url);
      es.addEventListener('open', () => { onConn(true); });
      es.addEventListener('state', (e) => {
        delay = 1000;
        onConn(true);
        let st = null;
        try { st = JSON.parse(e.data); } catch (err) { return; }
        onState(st);
      });
      es.addEventListener('logout', () => {
        stopped = true;
        es.close();
        if (onLogout) onLogout();
      });
      es.addEventListener('error', () => {
        onConn(false);
        if (es.readyState !== EventSource.CLOSED) return; // the browser retries by itself
        es.close();
        setTimeout(async () => {
          try {
            const r = await WT.getJSON(stateURL);
            if (r.status === 401 && onLogout) { stopped = true; onLogout(); return; }
            if (r.ok) onState(r.body);
          } catch (err) { /* still down */ }
          delay = Math.min(delay * 2, 15000);
          open();
        }, delay);
      });
    };
    open();
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden && !stopped && es && es.readyState === EventSource.CLOSED) open();
    });
    return { stop() { stopped = true; if (es) es.close(); } };
  },

  // Timers count down locally between messages: remaining game seconds at
  // receipt, rate game seconds per second.
  clock: { timer: null, at: 0, rate: 1 },

  setTimer(timer, rate) {
    WT.clock = { timer: timer || null, at: Date.now(), rate: rate || 1 };
    WT.tick();
  },

  tick() {
    const c = WT.clock;
    for (const e of document.querySelectorAll('[data-timer]')) {
      if (!c.timer) { e.textContent = '--:--'; e.classList.remove('low'); continue; }
      let left = c.timer.remaining;
      if (!c.timer.paused) left -= (Date.now() - c.at) / 1000 * c.rate;
      left = Math.max(0, Math.ceil(left));
      const m = Math.floor(left / 60), s = left % 60;
      e.textContent = String(m).padStart(2, '0') + ':' + String(s).padStart(2, '0');
      e.classList.toggle('low', left <= 10);
    }
  },

  // confirm asks in the page (no blocking browser dialog on a phone).
  confirm(text) {
    return new Promise((resolve) => {
      const box = document.getElementById('confirm');
      if (!box) { resolve(true); return; }
      WT.text('confirm-text', text);
      box.hidden = false;
      const yes = document.getElementById('confirm-yes');
      const no = document.getElementById('confirm-no');
      const done = (v) => {
        box.hidden = true;
        yes.onclick = null;
        no.onclick = null;
        resolve(v);
      };
      yes.onclick = () => done(true);
      no.onclick = () => done(false);
      yes.focus();
    });
  },
};

setInterval(() => WT.tick(), 250);
