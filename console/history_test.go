package console

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wolftable/desk/desktest"
	"wolftable/journal"
)

// TestHistoryPages: the judge's history lists the table's games a page at
// a time, newest first, across the archive's months and the game at the
// top of the folder, behind the session; each game's 復盤 and journal are
// served by its file name, and nothing else of the machine is.
func TestHistoryPages(t *testing.T) {
	dir := t.TempDir()
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{3}, 32))
	played := desktest.Play(t, t.TempDir(), "seer-witch-hunter-idiot", 5, key, 0)
	data, err := os.ReadFile(played)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 24; i++ {
		name := fmt.Sprintf("2026-%02d-%02dT20-00-00_%06x%s", 1+i%6, 1+i/6, i, journal.Extension)
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	if tidy, err := journal.ArchiveFinished(dir, nil); err != nil || len(tidy.Archived) != 24 {
		t.Fatalf("archived %d: %v", len(tidy.Archived), err)
	}
	newest := "2026-12-01T20-00-00_ffffff" + journal.Extension // at the top: finished, not yet tidied
	os.WriteFile(filepath.Join(dir, newest), data, 0o644)

	r := newRig(t, Options{Journals: dir})
	ts := r.serve()
	c := newClient(t, ts.URL)
	if code, _ := c.do("GET", "/api/judge/history", nil, nil); code != http.StatusUnauthorized {
		t.Fatalf("the history without a session: %d", code)
	}
	c.login(rigPIN)
	var names []string
	for page := 1; ; page++ {
		code, b := c.do("GET", fmt.Sprintf("/api/judge/history?page=%d&per=10", page), nil, nil)
		var p HistoryPage
		if code != http.StatusOK || json.Unmarshal(b, &p) != nil {
			t.Fatalf("page %d: %d %s", page, code, b)
		}
		for _, g := range p.Games {
			if !g.Finished || !g.Signed || g.Result == "" || g.BoardName == "" || g.Error != "" {
				t.Fatalf("page %d: %+v", page, g)
			}
			names = append(names, g.Name)
		}
		if !p.More {
			if page != 3 || len(p.Games) != 5 {
				t.Fatalf("the last page is %d with %d games", page, len(p.Games))
			}
			break
		}
	}
	if len(names) != 25 || names[0] != newest {
		t.Fatalf("listed %d, first %s", len(names), names[0])
	}
	for i := 1; i < len(names); i++ {
		if names[i-1] <= names[i] {
			t.Fatalf("not newest first: %s then %s", names[i-1], names[i])
		}
	}
	old := names[len(names)-1] // in the archive
	if code, b := c.do("GET", "/api/judge/history/"+old+"?format=text", nil, nil); code != http.StatusOK || !strings.Contains(string(b), "指紋") {
		t.Fatalf("the 復盤 of an archived game: %d %.200s", code, b)
	}
	if code, b := c.do("GET", "/api/judge/history/"+old+"?format=wtj", nil, nil); code != http.StatusOK || !bytes.Equal(b, data) {
		t.Fatalf("the journal of an archived game: %d, %d bytes", code, len(b))
	}
	for path, want := range map[string]int{
		"/api/judge/history/..%2Fconfig.toml":          http.StatusNotFound,
		"/api/judge/history/" + old + "?format=pdf":    http.StatusBadRequest,
		"/api/judge/history/2020-01-01T00-00-00_x.wtj": http.StatusNotFound,
		"/api/judge/history?page=0":                    http.StatusBadRequest,
		"/api/judge/history?per=1000":                  http.StatusBadRequest,
		"/history":                                     http.StatusOK,
	} {
		if code, b := c.do("GET", path, nil, nil); code != want {
			t.Errorf("GET %s: %d, want %d: %.200s", path, code, want, b)
		}
	}
	none := newRig(t, Options{})
	cn := newClient(t, none.serve().URL)
	cn.login(rigPIN)
	if code, _ := cn.do("GET", "/api/judge/history", nil, nil); code != http.StatusNotFound {
		t.Fatalf("a console without a journals folder: %d", code)
	}
}
