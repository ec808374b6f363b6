package deskserver

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"wolftable/desk"
	"wolftable/desk/desktest"
	"wolftable/internal/webguard"
)

// TestOperatorLogin: MVP/SVP are set only by a logged-in operator with the
// CSRF token; no session, no token, a wrong PIN, a bad seat or an unknown
// game change nothing; wrong PINs are throttled; the standings follow a set
// award, and the PIN drawn at the first start is not drawn again.
func TestOperatorLogin(t *testing.T) {
	data, _ := setup(t, 1)
	st, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := desktest.Play(t, t.TempDir(), "seer-witch-hunter-idiot", 11, key(1), 2)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := st.Ingest(desk.Subject("T1", desk.KindRecord), "", filepath.Base(path), b); out != desk.Stored || err != nil {
		t.Fatalf("ingest: %v %v", out, err)
	}
	hash := st.Games()[0].Hash
	op, pin, err := openOperator(data)
	if err != nil || len(pin) != 6 {
		t.Fatalf("first start: PIN %q, %v", pin, err)
	}
	if _, again, err := openOperator(data); err != nil || again != "" {
		t.Fatalf("second start drew a PIN again (%q, %v)", again, err)
	}
	pk, _ := desk.LoadPack("league")
	d := &Desk{opts: Options{Data: data}, Store: st, pack: pk, log: slog.New(slog.DiscardHandler), tables: map[string]*tableState{}, op: op}
	srv := httptest.NewServer(d.Handler())
	defer srv.Close()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(path string, form url.Values, hdr map[string]string) int {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	mvp := func() int { return st.AwardOf(hash).MVP }
	award := "/game/" + hash + "/award"

	if code := post(award, url.Values{"mvp": {"3"}}, nil); code != 401 || mvp() != 0 {
		t.Errorf("no session: %d, MVP %d", code, mvp())
	}
	if code := post("/login", url.Values{"pin": {"000000x"}}, nil); code != 401 {
		t.Errorf("wrong PIN: %d", code)
	}
	if code := post("/login", url.Values{"pin": {pin}}, nil); code != 303 {
		t.Fatalf("login: %d", code)
	}
	if code := post(award, url.Values{"mvp": {"3"}}, nil); code != 403 || mvp() != 0 {
		t.Errorf("no CSRF token: %d, MVP %d", code, mvp())
	}
	// the token is on the game's page once logged in
	resp, err := c.Get(srv.URL + "/game/" + hash)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("no award form on the game page:\n%s", page)
	}
	tok := string(m[1])
	for _, bad := range []url.Values{{"mvp": {"13"}, "csrf": {tok}}, {"mvp": {"x"}, "csrf": {tok}}, {"mvp": {"3"}, "csrf": {"00" + tok[2:]}}} {
		if code := post(award, bad, nil); code == 303 || mvp() != 0 {
			t.Errorf("%v: %d, MVP %d", bad, code, mvp())
		}
	}
	if code := post("/game/"+strings.Repeat("0", 64)+"/award", url.Values{"mvp": {"3"}, "csrf": {tok}}, nil); code != 400 {
		t.Errorf("unknown game: %d", code)
	}
	points := func() map[string]float64 {
		out := map[string]float64{}
		for _, r := range d.Standings() {
			out[r.Player] = r.Points
		}
		return out
	}
	before := points()
	if code := post(award, url.Values{"mvp": {"3"}, "svp": {"5"}, "csrf": {tok}}, nil); code != 303 || mvp() != 3 || st.AwardOf(hash).SVP != 5 {
		t.Fatalf("award: %d, %+v", code, st.AwardOf(hash))
	}
	after := points()
	for pl, p := range after {
		want := before[pl]
		switch pl {
		case "T1/3":
			want += pk.MVP
		case "T1/5":
			want += pk.SVP
		}
		if p != want {
			t.Errorf("%s: %v points after the award, want %v", pl, p, want)
		}
	}
	// kept across a restart of the store
	if st2, err := desk.OpenStore(data, nil); err != nil || st2.AwardOf(hash).MVP != 3 {
		t.Errorf("awards.json: %v %+v", err, st2.AwardOf(hash))
	}
	if code := post("/logout", nil, nil); code != 303 {
		t.Errorf("logout: %d", code)
	}
	if code := post(award, url.Values{"mvp": {"4"}, "csrf": {tok}}, nil); code != 401 || mvp() != 3 {
		t.Errorf("after logout: %d, MVP %d", code, mvp())
	}
	// the throttle: after five wrong PINs even the right one waits
	for range webguard.FailLimit {
		post("/login", url.Values{"pin": {"999999"}}, nil)
	}
	if code := post("/login", url.Values{"pin": {pin}}, nil); code != 429 {
		t.Errorf("throttled login: %d", code)
	}
}
