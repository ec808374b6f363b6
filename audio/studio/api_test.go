package studio

import (
	"bytes"
	"encoding/json"

	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type answer struct {
	status int
	body   map[string]any
	raw    []byte
	ctype  string
}

func call(t *testing.T, h http.Handler, method, path string, body []byte) answer {
	t.Helper()
	r := httptest.NewRequest(method, path, bytes.NewReader(body))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	a := answer{status: w.Code, raw: w.Body.Bytes(), ctype: w.Header().Get("Content-Type")}
	if strings.HasPrefix(a.ctype, "application/json") {
		if err := json.Unmarshal(a.raw, &a.body); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, a.raw)
		}
	}
	return a
}

// TestAPI: each endpoint's answer, and each refusal's status and code;
// no refusal changes the studio's folder.
func TestAPI(t *testing.T) {
	dir := t.TempDir()
	s := openStudio(t, dir, Options{})
	h := s.Handler()
	const id = "line.game.over.void.1"

	a := call(t, h, "PUT", "/api/judge/voice/clips/"+id, goodTake(t, id))
	if a.status != 200 || a.body["ok"] != true || a.body["state"] != "ok" || a.body["clip"] != id {
		t.Fatalf("PUT a good take: %d %v", a.status, a.body)
	}
	if notes, _ := a.body["notes"].([]any); len(notes) == 0 || !strings.Contains(notes[0].(map[string]any)["message"].(string), "音量") {
		t.Errorf("the take's notes: %v", a.body["notes"])
	}
	good, _ := os.ReadFile(filepath.Join(dir, "studio", id+".wav"))

	a = call(t, h, "GET", "/api/judge/voice/clips", nil)
	if a.status != 200 || a.body["recorded"] != 1.0 || a.body["usable"] != 1.0 || a.body["active"] != nil {
		t.Errorf("GET clips: %d recorded %v usable %v active %v", a.status, a.body["recorded"], a.body["usable"], a.body["active"])
	}
	clips, _ := a.body["clips"].([]any)
	if len(clips) < 250 {
		t.Fatalf("%d clips listed", len(clips))
	}
	first := clips[0].(map[string]any)
	for _, k := range []string{"id", "text", "pinyin", "state", "suggested", "kind", "lines", "notes"} {
		if _, ok := first[k]; !ok {
			t.Errorf("a clip lacks %q: %v", k, first)
		}
	}

	a = call(t, h, "GET", "/api/judge/voice/clips/"+id+"/audio", nil)
	if a.status != 200 || a.ctype != "audio/wav" || !bytes.Equal(a.raw, good) {
		t.Errorf("GET the take: %d %s", a.status, a.ctype)
	}
	a = call(t, h, "GET", "/api/judge/voice/clips/"+id+"/audio?pack=default", nil)
	if a.status != 200 || a.ctype != "audio/mpeg" || len(a.raw) < 1000 {
		t.Errorf("GET the default's clip: %d %s %d bytes", a.status, a.ctype, len(a.raw))
	}

	ten := recording(16000, 1, 0, 10*time.Minute, 0, -20)                     // 19 MB
	tenOpus, err := os.ReadFile(filepath.Join("testdata", "ten-minutes.ogg")) // 46 kB
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, method, path string
		body               []byte
		status             int
		code               string
	}{
		{"empty", "PUT", "/api/judge/voice/clips/" + id, nil, 422, "bad_upload"},
		{"not audio", "PUT", "/api/judge/voice/clips/" + id, []byte("<html>hello</html>"), 422, "bad_upload"},
		{"ten minutes", "PUT", "/api/judge/voice/clips/" + id, ten, 413, "too_large"},
		{"ten minutes of Opus", "PUT", "/api/judge/voice/clips/" + id, tenOpus, 422, "bad_upload"},
		{"forty seconds", "PUT", "/api/judge/voice/clips/" + id, recording(16000, 1, 0, 40*time.Second, 0, -20), 422, "bad_upload"},
		{"8 kHz", "PUT", "/api/judge/voice/clips/" + id, recording(8000, 1, 0, time.Second, 0, -20), 422, "bad_upload"},
		{"silence", "PUT", "/api/judge/voice/clips/" + id, recording(16000, 1, 2*time.Second, 0, 0, -20), 422, "bad_upload"},
		{"clipped", "PUT", "/api/judge/voice/clips/" + id, recording(48000, 1, 0, time.Second, 0, 3), 422, "check_failed"},
		{"no such clip", "PUT", "/api/judge/voice/clips/line.no.such.1", goodTake(t, id), 404, "unknown_clip"},
		{"no such clip's audio", "GET", "/api/judge/voice/clips/line.no.such.1/audio", nil, 404, "unknown_clip"},
		{"a clip not recorded", "GET", "/api/judge/voice/clips/seat.9/audio", nil, 404, "no_take"},
		{"incomplete", "POST", "/api/judge/voice/activate", []byte(`{"fill":false}`), 409, "incomplete"},
		{"bad json", "POST", "/api/judge/voice/activate", []byte(`{`), 400, "bad_request"},
		{"bad name", "POST", "/api/judge/voice/name", []byte(`{"name":"a\nb"}`), 400, "bad_request"},
		{"not an archive", "POST", "/api/judge/voice/import", []byte("hello"), 422, "bad_archive"},
		{"unknown endpoint", "POST", "/api/judge/voice/format", nil, 404, "not_found"},
	} {
		a := call(t, h, c.method, c.path, c.body)
		if a.status != c.status || a.body["code"] != c.code || a.body["error"] == "" {
			t.Errorf("%s: %d %v, want %d %s", c.name, a.status, a.body, c.status, c.code)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "studio", id+".wav")); !bytes.Equal(b, good) {
			t.Fatalf("%s changed the take", c.name)
		}
		if _, err := os.Stat(filepath.Join(dir, activeName)); err == nil {
			t.Fatalf("%s activated a pack", c.name)
		}
	}

	a = call(t, h, "POST", "/api/judge/voice/name", []byte(`{"name":"小梁","recorded_by":"梁"}`))
	if a.status != 200 || a.body["name"] != "小梁" || a.body["recorded_by"] != "梁" {
		t.Errorf("name: %d %v", a.status, a.body)
	}
	a = call(t, h, "POST", "/api/judge/voice/activate", []byte(`{"fill":true}`))
	act, _ := a.body["active"].(map[string]any)
	if a.status != 200 || act == nil || act["fill"] != true || act["clips"] != 1.0 || act["name"] != "小梁" {
		t.Errorf("activate: %d %v", a.status, a.body["active"])
	}
	a = call(t, h, "GET", "/api/judge/voice/export", nil)
	if a.status != 200 || a.ctype != "application/zip" {
		t.Fatalf("export: %d %s", a.status, a.ctype)
	}
	other := openStudio(t, t.TempDir(), Options{})
	b := call(t, other.Handler(), "POST", "/api/judge/voice/import", a.raw)
	if b.status != 200 || len(b.body["clips"].([]any)) != 1 {
		t.Errorf("import: %d %v", b.status, b.body)
	}
	a = call(t, h, "POST", "/api/judge/voice/deactivate", nil)
	if a.status != 200 || a.body["active"] != nil {
		t.Errorf("deactivate: %d %v", a.status, a.body["active"])
	}

}
