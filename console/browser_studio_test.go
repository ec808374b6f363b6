package console

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"wolftable/audio/studio"
	"wolftable/engine"
)

// studioRig is a rig whose console has the real voice studio (audio/studio
// on a fresh folder).
func studioRig(t *testing.T) *rig {
	st, err := studio.Open(t.TempDir(), studio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return newRig(t, Options{Studio: st.Handler()})
}

// TestBrowserStudioGameBanner (issue 31 item 3): a game on the table
// (resumed at start, the judge unaware) is on the studio's page as soon as
// it loads, before any take is refused, with the way to end it (流局 on
// the console); the banner goes when the game ends.
func TestBrowserStudioGameBanner(t *testing.T) {
	b := newBrowser(t)
	r := studioRig(t)
	ts := r.serve()
	r.start("seer-witch-hunter-idiot", nil, 3)
	page := b.tab("studio")
	b.run(page, "open /studio", chromedp.Navigate(ts.URL+"/studio"), chromedp.WaitVisible(chromedp.ID("login")))
	b.run(page, "log in", chromedp.SendKeys(chromedp.ID("pin"), rigPIN),
		chromedp.Click(chromedp.ID("login-btn")), chromedp.WaitVisible(chromedp.ID("app")))
	b.until(page, "the banner", `!document.querySelector('#busy').hidden && `+jsText("#busy", "對局進行中（預女獵愚")+
		" && "+jsText("#busy", "流局")+` && !!document.querySelector('#busy a[href="/judge"]')`)
	b.shot(page, "studio-game-on")
	if err := r.Submit(context.Background(), engine.Judge(engine.JudgeVoid, 0, 0), "console:test"); err != nil {
		t.Fatal(err)
	}
	b.until(page, "the banner gone after 流局", `document.querySelector('#busy').hidden`)
	noScriptErrors(t, b)
}

// TestBrowserStudioPage (issue 31 item 4): the studio's 271 sentences are
// grouped by part of the game (the night by role), one part open at a
// time; the progress bar stays on screen while scrolling; the internal
// ids are behind a detail; pinyin has tone marks; at 390 px nothing is
// wider than the screen and the title and the 名稱/錄音者 labels do not
// break. Screenshots at 390 and 1280 px are the test's artefacts.
func TestBrowserStudioPage(t *testing.T) {
	b := newBrowser(t)
	r := studioRig(t)
	ts := r.serve()
	page := b.tab("studio")
	b.run(page, "open /studio", chromedp.Navigate(ts.URL+"/studio"), chromedp.WaitVisible(chromedp.ID("login")))
	b.run(page, "log in", chromedp.SendKeys(chromedp.ID("pin"), rigPIN),
		chromedp.Click(chromedp.ID("login-btn")), chromedp.WaitVisible(chromedp.ID("app")))
	b.until(page, "the clips", `document.querySelectorAll('#clips li.clip').length > 250`)

	for _, w := range []int{390, 1280} {
		b.run(page, "the screen", chromedp.EmulateViewport(int64(w), 844))
		get(b, page, "to the top", chromedp.Evaluate[bool](`(window.scrollTo(0, 0), true)`))
		b.shot(page, "studio-"+strconv.Itoa(w))
		if widths := get(b, page, "widths", chromedp.Evaluate[[]int](`[document.documentElement.scrollWidth, window.innerWidth]`)); widths[0] > widths[1] {
			t.Errorf("%d px: the page is %d px wide", w, widths[0])
		}
		// one line each: the title's two words side by side, each label on one line
		broken := get(b, page, "labels on one line", chromedp.Evaluate[[]string](`(() => {
			const out = [];
			const one = (e) => e.getClientRects().length === 1 && e.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(e).lineHeight);
			for (const sel of ['.bar .phase', '.bar .step', '#progress', 'label[for=pack-name]', 'label[for=pack-by]']) {
				const e = document.querySelector(sel);
				if (!e || !one(e)) out.push(sel);
			}
			const [a, b] = [document.querySelector('.bar .phase'), document.querySelector('.bar .step')];
			if (a && b && Math.abs(a.getBoundingClientRect().bottom - b.getBoundingClientRect().bottom) > 8) out.push('the title on two lines');
			return out;
		})()`))
		if len(broken) > 0 {
			t.Errorf("%d px: broken over lines: %v", w, broken)
		}
	}

	// the parts, in a game's order; one open; the night by role
	parts := get(b, page, "parts", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#clips > details.clip-group')).map((d) => d.id + (d.open ? ':open' : ''))`))
	if len(parts) < 6 || parts[0] != "group-game:open" || parts[1] != "group-night" {
		t.Fatalf("parts %v", parts)
	}
	for _, p := range parts[1:] {
		if strings.HasSuffix(p, ":open") {
			t.Errorf("%s is open too: one part at a time", p)
		}
	}
	b.run(page, "open the night from the links", chromedp.Click(chromedp.CSS(`#group-nav a[href="#group-night"]`)))
	b.until(page, "the night open, by role", `document.querySelector('#group-night').open && `+
		`Array.from(document.querySelectorAll('#group-night .clip-sub h3')).map((h) => h.textContent).join(' ').includes('狼人')`)
	b.shot(page, "studio-night")

	// a card: pinyin with tone marks; the id only behind its detail
	card := `#clips li[data-id="line.game.start.1"]`
	if p := b.text(page, card+" .clip-pinyin"); !strings.HasPrefix(p, "xuǎn shǒu qǐng") {
		t.Errorf("pinyin %q, want tone marks", p)
	}
	shown := get(b, page, "the card's visible text", chromedp.Evaluate[string](`document.querySelector('`+card+`').innerText`))
	if strings.Contains(shown, "line.game.start.1") || strings.Contains(shown, "xuan3") {
		t.Errorf("the card shows an internal id or tone digits: %q", shown)
	}
	if !strings.Contains(shown, "技術細節") {
		t.Errorf("the card has no detail for the id: %q", shown)
	}

	// scrolled far down the night: the progress is still on screen
	get(b, page, "scroll", chromedp.Evaluate[bool](`(window.scrollTo(0, document.documentElement.scrollHeight * 0.6), true)`))
	if !get(b, page, "the progress on screen", chromedp.Evaluate[bool](`(() => {
		const r = document.querySelector('#progress-bar').parentElement.getBoundingClientRect();
		return window.scrollY > 2000 && r.top >= 0 && r.bottom <= 120 && r.width > 100 && document.querySelector('#progress').getBoundingClientRect().top >= 0;
	})()`)) {
		t.Errorf("the progress bar is not on screen once scrolled")
	}
	b.shot(page, "studio-scrolled")

	// a search finds toneless pinyin and opens its part
	b.run(page, "search", chromedp.SendKeys(chromedp.ID("search"), "ben ju liu ju"))
	b.until(page, "the 流局 card found", `!document.querySelector('#clips li[data-id="line.game.over.void.1"]').hidden && document.querySelector('#group-game').open && document.querySelector('#group-seat').hidden`)
	noScriptErrors(t, b)
}
