package console

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wolftable/audio/studio"
	"wolftable/internal/hans"
	"wolftable/internal/hans/hanstest"
)

// publicScript is the public page as the browser shows it: its language
// tag and its text.
func publicScript(b *browser, ctx context.Context) (lang, text string) {
	b.t.Helper()
	v := get(b, ctx, "the page's script", chromedp.Evaluate[[]string](`[document.documentElement.lang, document.body.innerText]`))
	return v[0], v[1]
}

// follow clicks the switch's link sel and waits for the page it opens.
func follow(b *browser, ctx context.Context, what, sel string) {
	b.t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.RunResponse(tctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		b.failed(ctx, what, err)
	}
}

// checkPublic: the public page is in sc, the switch marks it, the live
// part (the board's name, from the API) too.
func checkPublic(t *testing.T, b *browser, ctx context.Context, sc hans.Script, when string) {
	t.Helper()
	board := map[hans.Script]string{hans.Traditional: "預女獵愚", hans.Simplified: "预女猎愚"}[sc]
	b.until(ctx, when+": the board's name in "+string(sc), `document.documentElement.lang === '`+sc.Lang()+`' && `+jsText("#board", board))
	lang, text := publicScript(b, ctx)
	tr := hanstest.Traditional(text)
	switch {
	case sc == hans.Simplified && tr != "":
		t.Errorf("%s: %s page (%s) has Traditional characters %q:\n%s", when, sc, lang, tr, text)
	case sc == hans.Traditional && tr == "":
		t.Errorf("%s: %s page (%s) has no Traditional character:\n%s", when, sc, lang, text)
	}
	marked := map[hans.Script]string{hans.Traditional: "繁體", hans.Simplified: "简体"}[sc]
	if got := b.text(ctx, "nav.script-switch strong"); got != marked {
		t.Errorf("%s: the switch marks %q, want %q", when, got, marked)
	}
}

// TestBrowserPublicScriptSwitch (issue 31 item 9): on the public page the
// 繁/简 switch turns the page (its words and the live state) into
// Simplified and back; the choice holds over a reload and a visit without
// ?script=, for this browser only: another browser gets the venue's.
func TestBrowserPublicScriptSwitch(t *testing.T) {
	b := newBrowser(t)
	r := newRig(t, Options{})
	ts := httptest.NewServer(InScript(r.srv, hans.Traditional))
	t.Cleanup(func() { _ = r.srv.Close(); ts.Close() })
	r.start("seer-witch-hunter-idiot", nil, 3)

	page := b.tab("public")
	b.run(page, "open /", chromedp.Navigate(ts.URL+"/"))
	checkPublic(t, b, page, hans.Traditional, "first visit")
	b.shot(page, "public-hant")

	follow(b, page, "switch to 简体", `nav.script-switch a[href="?script=hans"]`)
	checkPublic(t, b, page, hans.Simplified, "after 简体")
	b.shot(page, "public-hans")
	b.run(page, "reload", chromedp.Reload())
	checkPublic(t, b, page, hans.Simplified, "reloaded")
	b.run(page, "open / again", chromedp.Navigate(ts.URL+"/"))
	checkPublic(t, b, page, hans.Simplified, "without ?script=")

	other := newBrowser(t) // a browser of its own: the venue's script
	op := other.tab("public")
	other.run(op, "open /", chromedp.Navigate(ts.URL+"/"))
	checkPublic(t, other, op, hans.Traditional, "another browser")

	follow(b, page, "switch back to 繁體", `nav.script-switch a[href="?script=hant"]`)
	checkPublic(t, b, page, hans.Traditional, "after 繁體")
	b.run(page, "reload", chromedp.Reload())
	checkPublic(t, b, page, hans.Traditional, "reloaded after 繁體")
	b.shot(page, "public-hant-again")
	noScriptErrors(t, b)
	noScriptErrors(t, other)
}

// TestBrowserStudioZhuyin (issue 31 item 4): where the venue reads zhuyin
// ([venue] phonetic = "zhuyin"), the studio's cards show 注音, not pinyin.
func TestBrowserStudioZhuyin(t *testing.T) {
	b := newBrowser(t)
	st, err := studio.Open(t.TempDir(), studio.Options{Phonetic: "zhuyin"})
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, Options{Studio: st.Handler()})
	ts := r.serve()
	page := b.tab("studio")
	b.run(page, "open /studio", chromedp.Navigate(ts.URL+"/studio"), chromedp.WaitVisible(chromedp.ID("login")))
	b.run(page, "log in", chromedp.SendKeys(chromedp.ID("pin"), rigPIN),
		chromedp.Click(chromedp.ID("login-btn")), chromedp.WaitVisible(chromedp.ID("app")))
	b.until(page, "the clips", `document.querySelectorAll('#clips li.clip').length > 250`)
	b.run(page, "390 px", chromedp.EmulateViewport(390, 844))
	card := `#clips li[data-id="line.game.start.1"]`
	got := get(b, page, "the reading aid", chromedp.Evaluate[[]string](`(() => {
		const p = document.querySelector('`+card+` .clip-pinyin');
		return [p.lang, p.textContent, document.querySelector('`+card+`').innerText];
	})()`))
	if got[0] != "zh-Bopo" || !strings.HasPrefix(got[1], "ㄒㄩㄢˇ ㄕㄡˇ") {
		t.Errorf("the card's reading aid is %s %q, want zhuyin (ㄒㄩㄢˇ ㄕㄡˇ…)", got[0], got[1])
	}
	if shown := got[2]; strings.Contains(shown, "xuǎn") || strings.Contains(shown, "xuan3") {
		t.Errorf("the card shows pinyin: %q", shown)
	}
	b.shot(page, "studio-zhuyin-390")
	noScriptErrors(t, b)
}
