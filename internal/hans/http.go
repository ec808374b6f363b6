package hans

import (
	"bytes"
	"mime"
	"net/http"
	"strings"
)

// Options configure Handler.
type Options struct {
	// Venue is the venue's script ([venue] script): every page's, unless
	// the browser chose.
	Venue Script
	// Switch reports whether a page shows the 繁/简 switch (the public
	// pages); nil = none. A browser's choice (?script=, kept in a cookie)
	// holds on every page of the server.
	Switch func(*http.Request) bool
}

// CookieName keeps a browser's choice of script.
const CookieName = "wolftable_script"

// Choose is the script of a request: its ?script= (hant or hans), else
// its cookie, else the venue's; and whether the query chose.
func (o Options) Choose(r *http.Request) (Script, bool) {
	if q := r.URL.Query().Get("script"); q != "" {
		if sc, err := ParseScript(q); err == nil {
			return sc, true
		}
	}
	if c, err := r.Cookie(CookieName); err == nil {
		if sc, err := ParseScript(c.Value); err == nil && c.Value != "" {
			return sc, false
		}
	}
	if o.Venue == Simplified {
		return Simplified, false
	}
	return Traditional, false
}

// Handler answers with h in the request's script: text (HTML, plain,
// CSV, Markdown, event streams, scripts, styles) and JSON converted as
// they are written, anything else (a journal, audio, an archive, a
// compressed answer) as it is; the public pages get the switch.
func Handler(h http.Handler, o Options) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sc, chosen := o.Choose(r)
		if chosen {
			http.SetCookie(w, &http.Cookie{Name: CookieName, Value: string(sc), Path: "/", MaxAge: 365 * 24 * 3600, SameSite: http.SameSiteLaxMode})
		}
		w.Header().Add("Vary", "Cookie")
		sw := o.Switch != nil && o.Switch(r)
		if sc == Traditional && !sw {
			h.ServeHTTP(w, r)
			return
		}
		if sc == Simplified {
			// a part of a converted answer is not a part of the original
			r.Header.Del("Range")
			r.Header.Del("If-Range")
		}
		cw := &respWriter{ResponseWriter: w, sc: sc, sw: sw}
		h.ServeHTTP(cw, r)
		cw.finish()
	})
}

// respWriter converts an answer's text as it is written; an HTML page is
// held whole, to set its language and place the switch.
type respWriter struct {
	http.ResponseWriter
	sc      Script
	sw      bool
	decided bool
	conv    bool // the body is converted
	page    bool // the body is held (an HTML page: its language, the switch)
	held    bytes.Buffer
	text    *Writer
}

// Unwrap lets http.ResponseController reach the connection.
func (w *respWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *respWriter) decide(body []byte) {
	if w.decided {
		return
	}
	w.decided = true
	h := w.Header()
	ct := h.Get("Content-Type")
	if ct == "" && body != nil {
		ct = http.DetectContentType(body)
		h.Set("Content-Type", ct)
	}
	mt, _, _ := mime.ParseMediaType(ct)
	if h.Get("Content-Encoding") != "" || !(strings.HasPrefix(mt, "text/") || mt == "application/json" || mt == "application/javascript") {
		return
	}
	w.page = mt == "text/html"
	w.conv = w.sc == Simplified || w.page
	if !w.conv {
		return
	}
	h.Del("Content-Length")
	if e := h.Get("ETag"); strings.HasSuffix(e, `"`) {
		h.Set("ETag", strings.TrimSuffix(e, `"`)+"-"+string(w.sc)+`"`)
	}
	w.text = &Writer{w: w.ResponseWriter}
}

func (w *respWriter) WriteHeader(code int) {
	w.decide(nil)
	w.ResponseWriter.WriteHeader(code)
}

func (w *respWriter) Write(p []byte) (int, error) {
	w.decide(p)
	switch {
	case w.page:
		return w.held.Write(p)
	case w.conv && w.sc == Simplified:
		return w.text.Write(p)
	}
	return w.ResponseWriter.Write(p)
}

// Flush sends what is written so far (an event stream's event).
func (w *respWriter) Flush() {
	if w.text != nil && !w.page {
		_ = w.text.Flush()
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// finish writes what is held: the page, with the switch, or an
// unfinished character.
func (w *respWriter) finish() {
	if w.page {
		if w.held.Len() == 0 {
			return // no body: a 304, a redirect
		}
		_, _ = w.ResponseWriter.Write([]byte(w.sc.Text(withSwitch(w.held.String(), w.sc, w.sw))))
		return
	}
	if w.text != nil {
		_ = w.text.Flush()
	}
}

// switchNav is the 繁/简 switch: two links, the page's own script marked.
func switchNav(sc Script) string {
	hant, hans := `<a href="?script=hant" lang="zh-Hant" hreflang="zh-Hant">繁體</a>`, `<a href="?script=hans" lang="zh-Hans" hreflang="zh-Hans">简体</a>`
	if sc == Simplified {
		hans = `<strong lang="zh-Hans">简体</strong>`
	} else {
		hant = `<strong lang="zh-Hant">繁體</strong>`
	}
	return `<nav class="script-switch" aria-label="字體">` + hant + ` · ` + hans + `</nav>`
}

// withSwitch is an HTML page in the script: its language tag, and (sw)
// the switch at the top of its body.
func withSwitch(page string, sc Script, sw bool) string {
	page = strings.Replace(page, `lang="zh-Hant"`, `lang="`+sc.Lang()+`"`, 1)
	if !sw {
		return page
	}
	if i := strings.Index(page, "<body"); i >= 0 {
		if j := strings.IndexByte(page[i:], '>'); j >= 0 {
			k := i + j + 1
			return page[:k] + switchNav(sc) + page[k:]
		}
	}
	return switchNav(sc) + page
}
