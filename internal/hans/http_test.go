package hans

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

// traditionalOnly are the characters a Simplified text never has: the
// table's Traditional characters that are no one's Simplified form.
func traditionalOnly() map[rune]bool {
	t := Default()
	simp := map[rune]bool{}
	for _, s := range t.Chars {
		simp[s] = true
	}
	for _, p := range t.Phrases {
		for _, r := range p {
			simp[r] = true
		}
	}
	only := map[rune]bool{}
	for r := range t.Chars {
		if !simp[r] {
			only[r] = true
		}
	}
	return only
}

// TraditionalIn is the Traditional-only characters of s (for the other
// packages' tests: see NoTraditional).
func traditionalIn(s string) string {
	only := traditionalOnly()
	var b strings.Builder
	for _, r := range s {
		if only[r] {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func serve(t *testing.T, h http.Handler, o Options, url string, hdr ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	Handler(h, o).ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const page = `<!doctype html><html lang="zh-Hant"><head><title>狼人殺</title></head><body><h1>開新局</h1><p>預言家 查驗</p></body></html>`

func pageHandler(ct string, text string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		w.Header().Set("Content-Length", "9999")
		w.Header().Set("ETag", `"v1"`)
		// written in pieces cut inside characters
		for b := []byte(text); len(b) > 0; {
			n := min(len(b), 5)
			_, _ = w.Write(b[:n])
			b = b[n:]
		}
	})
}

// TestHandlerConverts: with the venue's script hans, a page, JSON and an
// event stream come in Simplified with no Traditional-only character
// left; a journal comes as it is; hant changes nothing.
func TestHandlerConverts(t *testing.T) {
	hans := Options{Venue: Simplified}
	for _, ct := range []string{"text/html; charset=utf-8", "application/json", "text/event-stream", "text/plain; charset=utf-8", ""} {
		res := serve(t, pageHandler(ct, page), hans, "/")
		got := body(t, res)
		if tr := traditionalIn(got); tr != "" || !strings.Contains(got, "狼人杀") || !strings.Contains(got, "开新局") || !utf8.ValidString(got) {
			t.Errorf("%q: %q (Traditional %q)", ct, got, tr)
		}
		if res.Header.Get("Content-Length") != "" || res.Header.Get("ETag") != `"v1-hans"` {
			t.Errorf("%q: headers %v", ct, res.Header)
		}
		if strings.HasPrefix(ct, "text/html") && !strings.Contains(got, `lang="zh-Hans"`) {
			t.Errorf("html lang: %q", got)
		}
	}
	if got := body(t, serve(t, pageHandler("application/octet-stream", page), hans, "/")); got != page {
		t.Errorf("a journal converted: %q", got)
	}
	if got := body(t, serve(t, pageHandler("text/html", page), Options{}, "/")); got != page {
		t.Errorf("hant: %q", got)
	}
}

// TestBrowserChooses: ?script= chooses and is kept in a cookie; the
// cookie chooses over the venue; the switch is on the public pages only.
func TestBrowserChooses(t *testing.T) {
	o := Options{Venue: Traditional, Switch: func(r *http.Request) bool { return r.URL.Path == "/" }}
	res := serve(t, pageHandler("text/html", page), o, "/?script=hans")
	got := body(t, res)
	if traditionalIn(got) != "" || !strings.Contains(got, `class="script-switch"`) || !strings.Contains(got, `href="?script=hant"`) {
		t.Errorf("?script=hans: %q", got)
	}
	var cookie string
	for _, c := range res.Cookies() {
		if c.Name == CookieName {
			cookie = c.Value
		}
	}
	if cookie != "hans" {
		t.Fatalf("cookie %q", cookie)
	}
	got = body(t, serve(t, pageHandler("text/html", page), o, "/judge", "Cookie", CookieName+"=hans"))
	if traditionalIn(got) != "" || strings.Contains(got, "script-switch") {
		t.Errorf("cookie on /judge: %q", got)
	}
	got = body(t, serve(t, pageHandler("text/html", page), o, "/"))
	if !strings.Contains(got, "開新局") || !strings.Contains(got, `href="?script=hans"`) {
		t.Errorf("venue hant, public page: %q", got)
	}
	got = body(t, serve(t, pageHandler("text/html", page), Options{Venue: Simplified}, "/", "Cookie", CookieName+"=hant"))
	if !strings.Contains(got, "開新局") {
		t.Errorf("cookie hant over venue hans: %q", got)
	}
	if got := body(t, serve(t, pageHandler("text/html", page), o, "/?script=bogus")); !strings.Contains(got, "開新局") {
		t.Errorf("a bad ?script= is the venue's: %q", got)
	}
}

// TestWriterCutCharacters: characters cut between writes come whole.
func TestWriterCutCharacters(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b, Simplified)
	in := []byte("第 3 號發言：預言家查驗 7 號")
	for i := range in {
		if _, err := w.Write(in[i : i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.String(); got != "第 3 号发言：预言家查验 7 号" {
		t.Errorf("%q", got)
	}
	if NewWriter(&b, Traditional) != io.Writer(&b) {
		t.Error("hant wraps")
	}
	_, _ = w.Write([]byte{0xe7})
	_ = w.(*Writer).Flush()
	if !strings.HasSuffix(b.String(), "\xe7") {
		t.Error("Flush dropped a byte")
	}
}
