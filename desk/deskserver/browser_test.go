// The desk's pages in a real browser: headless Chromium driven by
// chromedp (Debian's chromium; scripts/setup installs it):
//
//	go test -run Browser -artifacts -outputdir /tmp/desk-shots ./desk/deskserver/
//
// It skips when no Chromium is installed. Screenshots are the test's
// artefacts (t.ArtifactDir: kept under -outputdir with -artifacts).
package deskserver

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

func chromiumPath() string {
	if p := os.Getenv("WOLFTABLE_CHROMIUM"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// TestBrowserDeskPages (issue 29 item 6): the organiser's pages — the
// desk, the registry, the rounds, a game's page, a seating plan and a
// refusal — and the audience screen at 390 px
// (a phone) and 1920 px, anonymous and logged in: no page is wider than
// the screen, no table column is narrower than two characters, every
// page has the way back; screenshots of each are the test's artefacts.
func TestBrowserDeskPages(t *testing.T) {
	path := chromiumPath()
	if path == "" {
		t.Skip("no Chromium: apt-get install chromium (or set WOLFTABLE_CHROMIUM)")
	}
	d, hash, pin := browserDesk(t)
	srv := httptest.NewServer(d.Handler())
	defer srv.Close()
	b := newDeskBrowser(t, path)
	pages := map[string]string{"desk": "/", "players": "/players", "rounds": "/rounds", "game": "/game/" + hash, "plan": "/rounds/1/plan"}
	order := []string{"desk", "players", "rounds", "game", "plan"}
	for _, width := range []int64{390, 1920} {
		b.do("viewport", chromedp.EmulateViewport(width, 900))
		for _, name := range order {
			b.do("open "+name, chromedp.Navigate(srv.URL+pages[name]), chromedp.WaitReady("body"))
			b.check(name, width)
		}
	}
	for _, width := range []int64{390, 1920} { // the audience screen: pushed, no reload
		b.do("viewport", chromedp.EmulateViewport(width, 1080))
		b.do("open /screen", chromedp.Navigate(srv.URL+"/screen"), chromedp.WaitReady(`body[data-ready="1"]`))
		if n := b.eval(`[document.querySelectorAll('.screen-table').length, document.querySelectorAll('.screen-name').length]`); n[0] != 2 || n[1] != 12 {
			t.Errorf("/screen at %d px: %v tables and names, want 2 and 12", width, n)
		}
		b.check("screen", width)
	}
	b.do("log in", chromedp.EmulateViewport(390, 900), chromedp.Navigate(srv.URL+"/"), chromedp.SendKeys(`input[name="pin"]`, pin),
		chromedp.Click(`form[action="/login"] button`), chromedp.WaitVisible(`form[action="/logout"]`))
	for _, width := range []int64{390, 1920} {
		b.do("viewport", chromedp.EmulateViewport(width, 900))
		for _, name := range order {
			b.do("open "+name, chromedp.Navigate(srv.URL+pages[name]), chromedp.WaitReady("body"))
			b.check("operator-"+name, width)
		}
		b.do("a void without a reason", chromedp.Navigate(srv.URL+pages["game"]), chromedp.WaitReady("body"),
			chromedp.Evaluate[chromedp.Void](`(() => { const f = document.querySelector('form[action$="/void"]'); f.querySelector('input[name=reason]').removeAttribute('required'); f.submit(); })()`),
			chromedp.WaitVisible(`h1.bad`))
		b.check("operator-refusal", width)
	}
}

// browserDesk is TestBrowserDeskPages's desk: twelve registered players
// seated at T1, a round open for T1 and T2 with a proposed plan, T1's
// game stored and T2's refused (the wrong key), T1 playing with a public
// feed an hour old, T2 last seen 26 s ago. It returns the desk, the hash
// of T1's game and the operator's PIN.
func browserDesk(t *testing.T) (*Desk, string, string) {
	t.Helper()
	data, _ := setup(t, 2)
	var csv, seats strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&csv, "P%02d,選手名字%02d號,台北市狼人殺俱樂部,\n", i, i)
		fmt.Fprintf(&seats, "T1,%d,P%02d\n", i, i)
	}
	if _, _, err := desk.ImportPlayers(data, []byte(csv.String())); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(data, "players.csv"), []byte(seats.String()), 0o644)
	st, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.OpenRound([]string{"T1", "T2"}, 0); err != nil {
		t.Fatal(err)
	}
	jdir := t.TempDir()
	for _, c := range []struct {
		table string
		k     ed25519.PrivateKey
		seed  uint64
	}{{"T1", key(1), 11}, {"T2", key(9), 12}} { // T2's record: the wrong key, refused
		b, _ := os.ReadFile(desktest.Play(t, jdir, "seer-witch-hunter-idiot", c.seed, c.k, 2))
		if _, err := st.Ingest(desk.Subject(c.table, desk.KindRecord), "", "x.wtj", b); err != nil {
			t.Fatal(err)
		}
	}
	hash := st.Games()[0].Hash
	if _, err := st.ProposeRoundPlan(1, 12); err != nil {
		t.Fatal(err)
	}
	op, pin, err := openOperator(data)
	if err != nil {
		t.Fatal(err)
	}
	pk, _ := desk.LoadPack("league")
	d := &Desk{opts: Options{Data: data, Title: "2026 冬季狼人殺聯賽"}, Store: st, pack: pk, log: slog.New(slog.DiscardHandler), op: op,
		tables: map[string]*tableState{
			"T1": {name: "T1", lastSeen: time.Now(), status: &desk.Status{Seats: 12, Phase: "night-2", Alive: []int{1, 2, 3}, BoardName: "預女獵愚", LinkUp: true},
				feed: []feedEntry{{time.Now().Add(-time.Hour), desk.Status{Seats: 12, Phase: "day-2", Alive: []int{1, 2, 3, 5, 8, 12}, Sheriff: 5, BoardName: "預女獵愚"}}}},
			"T2": {name: "T2", lastSeen: time.Now().Add(-26 * time.Second)},
		}}
	return d, hash, pin
}

// deskBrowser is a headless Chromium for the desk's pages, and where
// its screenshots go (the test's artefacts).
type deskBrowser struct {
	t     *testing.T
	ctx   context.Context
	dir   string
	shots int
}

// newDeskBrowser starts the Chromium at path (headless, no sandbox, no
// GPU); the test's cleanup stops it.
func newDeskBrowser(t *testing.T, path string) *deskBrowser {
	t.Helper()
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(t.TempDir()), chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.WindowSize(1920, 1080))
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatal(err)
	}
	b := &deskBrowser{t: t, ctx: ctx, dir: t.ArtifactDir()}
	t.Logf("screenshots in %s", b.dir)
	return b
}

// do runs actions, the test failing on an error.
func (b *deskBrowser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	tctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates js, an array of numbers, in the page.
func (b *deskBrowser) eval(js string) []float64 {
	b.t.Helper()
	tctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[[]float64](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// check saves the page's screenshot as name at width and fails the test
// if the page is wider than the window, has no way back to the desk (but
// the projector's /screen), or a table column under two characters.
func (b *deskBrowser) check(name string, width int64) {
	t := b.t
	t.Helper()
	tctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	png, err := chromedp.Run(tctx, chromedp.FullScreenshot(100))
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	b.shots++
	os.WriteFile(filepath.Join(b.dir, fmt.Sprintf("%02d-%s-%d.png", b.shots, name, width)), png, 0o644)
	w := b.eval(`[document.documentElement.scrollWidth, window.innerWidth, document.querySelectorAll('nav a[href="/"]').length]`)
	if w[0] > w[1] {
		t.Errorf("%s at %d px: the page is %.0f px wide", name, width, w[0])
	}
	if w[2] == 0 && !strings.HasSuffix(name, "screen") { // the projector's page has no nav
		t.Errorf("%s at %d px: no way back to the desk", name, width)
	}
	em := b.eval(`[parseFloat(getComputedStyle(document.body).fontSize), Math.min(1e9, ...[...document.querySelectorAll('td,th')].filter(e => e.offsetParent).map(e => e.getBoundingClientRect().width))]`)
	if em[1] < 2*em[0] {
		t.Errorf("%s at %d px: a table column %.0f px wide (under two characters of %.0f px)", name, width, em[1], em[0])
	}
}
