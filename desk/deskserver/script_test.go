package deskserver

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"wolftable/desk"
	"wolftable/desk/desktest"
	"wolftable/internal/hans"
	"wolftable/internal/hans/hanstest"
)

// TestNoEnglishForReaders (issue 31 items 8 and 9): a desk with a game
// stored, in both scripts (--script): every page shows Chinese only; in
// hans no page, script, style, JSON or CSV answer has a Traditional-only
// character left, while the signed journal comes byte for byte; the
// pages but the big screen carry the 繁/简 switch; a bad script is
// refused at start.
func TestNoEnglishForReaders(t *testing.T) {
	if _, err := Start(Options{Data: t.TempDir(), NATS: "127.0.0.1:0", HTTP: "127.0.0.1:0", Script: "zh-CN"}); err == nil || !strings.Contains(err.Error(), "简体") {
		t.Fatalf("a bad script: %v", err)
	}
	for _, sc := range []hans.Script{hans.Traditional, hans.Simplified} {
		t.Run(string(sc), func(t *testing.T) {
			data, cs := setup(t, 1)
			d, err := Start(Options{Data: data, NATS: "127.0.0.1:0", HTTP: "127.0.0.1:0", Script: sc})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			jdir := t.TempDir()
			path := desktest.Play(t, jdir, "seer-witch-hunter-idiot", 11, key(1), 2)
			p, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: cs[0], JournalDir: jdir})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			flush(t, p)
			waitFor(t, "the record stored", func() bool { return len(d.Store.Games()) == 1 })
			hash := d.Store.Games()[0].Hash
			base := strings.TrimSuffix(d.HTTPURL(), "/")
			for _, pg := range []string{"/", "/game/" + hash, "/feed/T1", "/screen", "/players", "/rounds"} {
				code, page := getWith(t, http.DefaultClient, base+pg)
				if code != http.StatusOK {
					t.Fatalf("%s: %d", pg, code)
				}
				// default: the scoring pack's id; desktest: the test journals' software
				if en := hanstest.English(hanstest.Visible(page), "default", "desktest"); len(en) > 0 {
					t.Errorf("%s shows English: %q", pg, en)
					if os.Getenv("DBG") != "" {
						t.Log(hanstest.Visible(page))
					}
				}
				if sw := strings.Contains(page, `class="script-switch"`); sw == (pg == "/screen") {
					t.Errorf("%s: the switch shown %v", pg, sw)
				}
				inScript(t, sc, pg, page)
			}
			for _, pg := range []string{"/static/desk.css", "/static/screen.js", "/api/public/games", "/api/public/standings", "/api/public/tables", "/games.csv", "/standings.csv", "/seats.csv", "/api/public/feed/T1", "/game/" + strings.Repeat("0", 64)} {
				_, body := getWith(t, http.DefaultClient, base+pg)
				inScript(t, sc, pg, body)
			}
			resp, err := http.Get(base + "/record/" + hash + ".wtj")
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if want, _ := os.ReadFile(path); !bytes.Equal(got, want) {
				t.Errorf("the journal served is not the table's (%d bytes, want %d)", len(got), len(want))
			}
		})
	}
}

// inScript: a text in hans has no Traditional-only character, one in
// hant is not Simplified.
func inScript(t *testing.T, sc hans.Script, name, text string) {
	t.Helper()
	tr := hanstest.Traditional(text)
	if sc == hans.Simplified && tr != "" {
		t.Errorf("%s in hans has Traditional characters %q", name, tr)
	}
	if sc == hans.Traditional && hans.String(text) != text && tr == "" {
		t.Errorf("%s in hant is not in Traditional", name)
	}
}
