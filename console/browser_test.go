// The console in a real browser: headless Chromium driven by chromedp.
// Needs Debian's chromium (scripts/setup installs it):
//
//	go test -run Browser -artifacts -outputdir /tmp/console-shots ./console/
//
// It skips when no Chromium is installed. Screenshots are the test's
// artefacts (t.ArtifactDir: kept under -outputdir with -artifacts).
package console

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

func chromium() string {
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

// browser is a headless Chromium with a fresh profile; tabs share cookies.
type browser struct {
	t      *testing.T
	alloc  context.Context
	first  context.Context
	dir    string
	shots  int
	mu     sync.Mutex
	errors []string
}

func newBrowser(t *testing.T) *browser {
	path := chromium()
	if path == "" {
		t.Skip("no Chromium: apt-get install chromium (or set WOLFTABLE_CHROMIUM)")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.WindowSize(430, 1400), // a phone's width
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	b := &browser{t: t, alloc: alloc, dir: t.ArtifactDir()}
	t.Logf("screenshots in %s", b.dir)
	return b
}

// tab opens a tab (the first one starts the browser) and records the
// page's script errors.
func (b *browser) tab(name string) context.Context {
	parent := b.alloc
	if b.first != nil {
		parent = b.first
	}
	ctx, cancel := chromedp.NewContext(parent)
	b.t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil { // no timeout here: the first call starts the browser
		b.t.Fatal(err)
	}
	err := chromedp.Listen(ctx, func(ev any) {
		var msg string
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			msg = e.ExceptionDetails.Text
			if x := e.ExceptionDetails.Exception; x != nil {
				msg += " " + x.Description
			}
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				for _, a := range e.Args {
					msg += " " + a.Description + string(a.Value)
				}
			}
		}
		if msg != "" {
			b.mu.Lock()
			b.errors = append(b.errors, name+": "+msg)
			b.mu.Unlock()
		}
	})
	if err != nil {
		b.t.Fatal(err)
	}
	if b.first == nil {
		b.first = ctx
	}
	return ctx
}

func (b *browser) run(ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, actions...); err != nil {
		b.failed(ctx, what, err)
	}
}

// failed saves a screenshot of the page as it was, then fails the test.
func (b *browser) failed(ctx context.Context, what string, err error) {
	b.t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if png, err2 := chromedp.Run(sctx, chromedp.FullScreenshot(100)); err2 == nil {
		_ = os.WriteFile(filepath.Join(b.dir, "FAILED.png"), png, 0o644)
	}
	b.t.Fatalf("%s: %v", what, err)
}

func get[T any](b *browser, ctx context.Context, what string, a chromedp.Action[T]) T {
	b.t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(tctx, a)
	if err != nil {
		b.failed(ctx, what, err)
	}
	return v
}

// until waits for a JavaScript condition in the page.
func (b *browser) until(ctx context.Context, what, js string) {
	b.t.Helper()
	get(b, ctx, what, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(15*time.Second), chromedp.WithPollingInterval(50*time.Millisecond)))
}

func (b *browser) shot(ctx context.Context, name string) {
	b.t.Helper()
	png := get(b, ctx, "screenshot "+name, chromedp.FullScreenshot(100))
	b.shots++
	file := filepath.Join(b.dir, fmt.Sprintf("%02d-%s.png", b.shots, name))
	if err := os.WriteFile(file, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) text(ctx context.Context, sel string) string {
	b.t.Helper()
	return get(b, ctx, "text of "+sel, chromedp.Text(chromedp.CSS(sel)))
}

func jsText(sel, want string) string {
	return fmt.Sprintf(`(document.querySelector(%q)||{textContent:""}).textContent.includes(%q)`, sel, want)
}

// TestBrowserJudgeConsole: log in, start a 預女獵愚 game on the virtual table
// with a hand-entered deal, undo an input, see the seer's cue after a
// scripted check, DQ a seat, and watch a vote tally update live on a
// second tab while the public page shows only public facts.
func TestBrowserJudgeConsole(t *testing.T) {
	b := newBrowser(t)
	r := newRig(t, Options{Heartbeat: 200 * time.Millisecond})
	ts := r.serve()
	judge := b.tab("judge")

	// log in: a wrong PIN first
	b.run(judge, "open /judge", chromedp.Navigate(ts.URL+"/judge"), chromedp.WaitVisible(chromedp.ID("login")))
	b.run(judge, "wrong PIN", chromedp.SendKeys(chromedp.ID("pin"), "111111"), chromedp.Click(chromedp.ID("login-btn")))
	b.until(judge, "the PIN error", jsText("#login-error", "PIN 錯誤")+` && document.querySelector('#pin').value === ''`)
	b.shot(judge, "login-wrong-pin")
	b.run(judge, "log in", chromedp.SendKeys(chromedp.ID("pin"), rigPIN),
		chromedp.Click(chromedp.ID("login-btn")), chromedp.WaitVisible(chromedp.ID("app")))

	// start 預女獵愚 with the deal entered by hand
	b.until(judge, "the boards", `document.querySelector('#ng-board').value === 'seer-witch-hunter-idiot' && !!document.querySelector('#deal-seat-12')`)
	deal := []string{"werewolf", "werewolf", "werewolf", "werewolf", "seer", "witch", "hunter", "idiot",
		"villager", "villager", "villager", "villager"}
	actions := []chromedp.Action[chromedp.Void]{chromedp.Click(chromedp.ID("ng-manual"))}
	for i, role := range deal {
		actions = append(actions, chromedp.SetValue(chromedp.ID("deal-seat-"+strconv.Itoa(i+1)), role))
	}
	actions = append(actions, chromedp.SendKeys(chromedp.ID("ng-seed"), "7"))
	b.run(judge, "enter the deal", actions...)
	b.shot(judge, "new-game-manual-deal")
	b.run(judge, "start", chromedp.Click(chromedp.ID("btn-start")))
	b.until(judge, "night 1", jsText("#phase", "第1夜"))
	r.until("the wolves' step", atNight("wolves"))
	b.until(judge, "the wolves woken", jsText("#wake", "狼人")+" && "+jsText("#wake", "1號、2號、3號、4號"))
	b.shot(judge, "night1-wolves")

	// the deal sheet
	sheet := b.tab("deal")
	b.run(sheet, "open /deal", chromedp.Navigate(ts.URL+"/deal"))
	b.until(sheet, "the deal", jsText("#deal-rows", "預言家"))
	b.shot(sheet, "deal-sheet")

	// the wolves point on their keys; wolf 4 changes to 10 and the judge undoes it on the page
	for s := 1; s <= 4; s++ {
		press(t, r, s, 9)
	}
	r.wait("four wolves", func(st JudgeState) bool { return len(st.Inputs) == 4 })
	press(t, r, 4, 10)
	r.wait("wolf 4 changes", func(st JudgeState) bool { return hasInput(st, 4, 10) })
	b.until(judge, "the input shown", jsText("#inputs", "4號→10"))
	b.shot(judge, "before-undo")
	b.run(judge, "undo", chromedp.Click(chromedp.ID("btn-undo")))
	b.until(judge, "the input undone", "!("+jsText("#inputs", "4號→10")+") && "+jsText("#power-msg", "✓"))
	if st := r.srv.judgeState(); len(st.Inputs) != 4 || hasInput(st, 4, 10) {
		t.Fatalf("after undo on the page: %+v", st.Inputs)
	}

	// the witch waves: the judge enters it on the page (a broken key)
	r.until("the witch's step", atNight("witch"))
	b.until(judge, "the witch's cue", jsText("#night", "女巫6號：昨晚倒牌9號"))
	b.run(judge, "enter the witch's wave",
		chromedp.SetValue(chromedp.ID("fix-seat"), "6"), chromedp.SetValue(chromedp.ID("fix-action"), "wave"),
		chromedp.Click(chromedp.ID("btn-fix")))
	b.until(judge, "the wave accepted", jsText("#power-msg", "✓ 代6號"))

	// the seer checks seat 1 on the keys: the judge sees 狼爪 in large type
	r.until("the seer's step", atNight("seer"))
	press(t, r, 5, 1)
	r.wait("the seer's check", func(st JudgeState) bool { return hasInput(st, 5, 1) })
	r.until("the seer's cue", func(st JudgeState) bool { return cueOf(st, "cue.seer.wolf") != nil })
	b.until(judge, "the seer's cue on the page", jsText("#night", "預言家5號查驗1號：狼人（比狼爪）")+" && "+jsText("#night", "狼爪"))
	b.shot(judge, "night1-seer-cue")

	// DQ seat 12: tap its tile, 點殺, confirm
	tile12 := `#seats .seat[data-seat="12"]`
	get(b, judge, "seat 12 into view", chromedp.Evaluate[bool](`(document.querySelector('`+tile12+`').scrollIntoView({block: 'center'}), true)`))
	b.run(judge, "tap seat 12", chromedp.Click(chromedp.CSS(tile12)))
	b.until(judge, "seat 12 picked", `document.querySelector('#dq-seat').value === '12' && document.querySelector('#seats .seat[data-seat="12"]').classList.contains('selected')`)
	b.run(judge, "DQ 12", chromedp.Click(chromedp.ID("btn-dq")), chromedp.WaitVisible(chromedp.ID("confirm")))
	b.until(judge, "the DQ question", jsText("#confirm-text", "點殺12號？"))
	b.shot(judge, "dq-confirm")
	b.run(judge, "confirm", chromedp.Click(chromedp.ID("confirm-yes")))
	b.until(judge, "seat 12 out", `document.querySelector('#seats .seat[data-seat="12"]').classList.contains('out')`)
	b.shot(judge, "after-dq")

	// a second judge tab (the same browser: already logged in) and the public page
	second := b.tab("judge-2")
	b.run(second, "open /judge in a second tab", chromedp.Navigate(ts.URL+"/judge"), chromedp.WaitVisible(chromedp.ID("app")))
	public := b.tab("public")
	b.run(public, "open /", chromedp.Navigate(ts.URL+"/"))
	b.until(public, "the public page", jsText("#board", "預女獵愚"))

	// every live stream drops (a Wi-Fi hiccup): the pages reconnect on their own
	r.srv.dropStreams()
	b.until(judge, "the judge's page sees the drop", `document.querySelector('#conn').classList.contains('down')`)
	b.until(judge, "the judge's page back", `!document.querySelector('#conn').classList.contains('down')`)

	// day 1, the exile vote: seats vote on their keys; the second tab follows
	r.until("the exile vote", func(st JudgeState) bool {
		return st.Step != nil && st.Step.Step == "vote" && st.Step.Kind == "exile"
	})
	b.until(second, "the vote on the second tab", jsText("#live-vote", "放逐投票（投票中）"))
	for n, s := range []int{1, 2, 3} {
		press(t, r, s, 5)
		want := fmt.Sprintf("5號 %d票", n+1)
		b.until(second, "the tally "+want, jsText(`#live-vote .tally-item[data-seat="5"]`, want))
	}
	b.shot(second, "second-tab-live-tally")
	if pub := b.text(public, "body"); strings.Contains(pub, "投票中") || strings.Contains(pub, "1→5") {
		t.Fatalf("the public page shows the vote while it runs: %q", pub)
	}
	// the judge closes the vote with the pedal button; the public page shows the 票型
	b.run(judge, "close the vote", chromedp.Click(chromedp.ID("btn-next")))
	b.until(public, "the public 票型", jsText("#votes", "放逐投票")+" && "+jsText("#votes", "1→5"))
	b.shot(public, "public-after-vote")
	b.shot(judge, "judge-after-vote")
	// usable on a phone: nothing wider than the screen
	for name, ctx := range map[string]context.Context{"judge": judge, "public": public, "judge-2": second} {
		w := get(b, ctx, "widths", chromedp.Evaluate[[]int](`[document.documentElement.scrollWidth, window.innerWidth]`))
		if w[0] > w[1] {
			t.Errorf("%s: the page is %dpx wide on a %dpx screen", name, w[0], w[1])
		}
	}

	// nothing hidden on the public page: no role, no cue
	pub := b.text(public, "body")
	lines := b.text(public, "#lines")
	rest := strings.ReplaceAll(pub, lines, "")
	for _, hidden := range []string{"查驗1號", "狼爪", "倒牌9號", "可以開槍", "預言家", "女巫", "獵人", "愚者", "村民"} {
		if strings.Contains(rest, hidden) {
			t.Errorf("the public page shows %q outside the spoken lines", hidden)
		}
	}
	if n := b.text(public, "#deaths"); !strings.Contains(n, "12號") || strings.Contains(n, "狼刀") {
		t.Errorf("public deaths %q: want 12 (DQ) and 9 without its cause", n)
	}

	// log out on the second tab: the first learns it at its next request
	b.run(second, "log out", chromedp.Click(chromedp.ID("btn-logout")), chromedp.WaitVisible(chromedp.ID("login")))
	b.until(judge, "the first tab logged out", `!document.querySelector('#login').hidden`)
	b.shot(judge, "logged-out")

	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errors {
		if !strings.Contains(e, "401") { // a stream refused after logout is expected
			t.Errorf("script error: %s", e)
		}
	}
}
