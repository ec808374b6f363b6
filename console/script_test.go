package console

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"wolftable/internal/hans"
	"wolftable/internal/hans/hanstest"
)

// readerPages are the console's pages (the public page first).
var readerPages = []string{"/", "/judge", "/deal", "/studio", "/history"}

// TestNoEnglishForReaders (issue 31 items 8 and 9): in both scripts,
// every page of the console shows its reader Chinese only (no English
// word but the names of things: PIN, HTTPS…); with the venue's script
// hans, no page, script, style or JSON answer of a game in progress has a
// Traditional-only character left; the public page has the 繁/简 switch.
func TestNoEnglishForReaders(t *testing.T) {
	for _, sc := range []hans.Script{hans.Traditional, hans.Simplified} {
		t.Run(string(sc), func(t *testing.T) {
			r := newRig(t, Options{})
			r.start("seer-witch-hunter-idiot", nil, 7)
			ts := httptest.NewServer(InScript(r.srv, sc))
			t.Cleanup(func() { _ = r.srv.Close(); ts.Close() })
			c := newClient(t, ts.URL)
			c.login(rigPIN)
			for _, p := range readerPages {
				code, b := c.do("GET", p, nil, nil)
				page := string(b)
				if code != http.StatusOK {
					t.Fatalf("%s: %d", p, code)
				}
				if en := hanstest.English(hanstest.Visible(page), "no-script"); len(en) > 0 {
					t.Errorf("%s shows English: %q", p, en)
				}
				if sw := strings.Contains(page, `class="script-switch"`); sw != (p == "/") {
					t.Errorf("%s: the switch shown %v", p, sw)
				}
				checkScript(t, sc, p, page)
			}
			static, _ := fs.Sub(webFS, "web/static")
			files, _ := fs.ReadDir(static, ".")
			for _, f := range files {
				_, b := c.do("GET", "/static/"+f.Name(), nil, nil)
				checkScript(t, sc, f.Name(), string(b))
			}
			for _, p := range []string{"/api/public/state", "/api/judge/state", "/api/judge/boards", "/api/judge/record?format=text", "/api/judge/nothing"} {
				_, b := c.do("GET", p, nil, nil)
				checkScript(t, sc, p, string(b))
			}
		})
	}
}

// checkScript: a text in hans has no Traditional-only character and one
// in hant some Traditional when it has Chinese.
func checkScript(t *testing.T, sc hans.Script, name, text string) {
	t.Helper()
	tr := hanstest.Traditional(text)
	if sc == hans.Simplified && tr != "" {
		t.Errorf("%s in hans has Traditional characters %q", name, tr)
	}
	if sc == hans.Traditional && hans.String(text) != text && tr == "" {
		t.Errorf("%s in hant is not in Traditional", name)
	}
}
