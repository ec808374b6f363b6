package console

import (
	"context"
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
