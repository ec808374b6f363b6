package console

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserSeatDraw (issue 29 item 3): on /draw the judge types the
// names (no desk), a manual draw with a seat twice is refused in Chinese
// and changes nothing, 抽座位 draws every seat, and the console's line says
// so; the game started then
// carries the draw: the deal sheet names each seat's player and the public
// page shows the names once the game runs.
func TestBrowserSeatDraw(t *testing.T) {
	b := newBrowser(t)
	r := newRig(t, Options{Seats: 12})
	ts := r.serve()
	judge := loginJudge(b, ts.URL)
	b.run(judge, "open /draw", chromedp.Navigate(ts.URL+"/draw"), chromedp.WaitVisible(chromedp.ID("app")))
	b.until(judge, "no desk said", jsText("#roster-from", "本桌沒有設定總台"))
	var names []string
	for i := 1; i <= 12; i++ {
		names = append(names, fmt.Sprintf("玩家%02d", i))
	}
	b.run(judge, "type the roster", chromedp.SendKeys(chromedp.ID("roster-text"), strings.Join(names, "\n")),
		chromedp.Click(chromedp.ID("btn-typed")))
	b.until(judge, "the roster's rows", `document.querySelectorAll('#manual-rows input').length === 12`)
	for i := 0; i < 12; i++ {
		seat := i + 1
		if i == 11 {
			seat = 1 // 玩家12 says he drew seat 1 too
		}
		b.run(judge, "a paper number", chromedp.SendKeys(chromedp.CSS(fmt.Sprintf(`#manual-rows input[data-i="%d"]`, i)), fmt.Sprint(seat)))
	}
	b.run(judge, "the manual draw", chromedp.Click(chromedp.ID("btn-manual")))
	b.until(judge, "the refusal", jsText("#draw-msg", "1號座位重複"))
	if n := b.text(judge, "#draw-rows"); n != "" {
		t.Fatalf("a refused draw shown: %q", n)
	}
	b.run(judge, "抽座位", chromedp.Click(chromedp.ID("btn-random")))
	b.until(judge, "twelve seats drawn", `document.querySelectorAll('#draw-rows tr').length === 12`)
	b.shot(judge, "draw")
	v := r.srv.drawView()
	b.run(judge, "the console", chromedp.Navigate(ts.URL+"/judge"), chromedp.WaitVisible(chromedp.ID("app")))
	b.until(judge, "the waiting draw on the console", jsText("#draw-note", "下一局座位已抽好")+" && "+jsText("#draw-note", "1號 "+v.Draw[0].Name))
	c := newClient(t, ts.URL)
	c.login(rigPIN)
	c.power("start", map[string]any{"board": "預女獵愚"})
	r.settle()
	b.run(judge, "the console", chromedp.Navigate(ts.URL+"/judge"), chromedp.WaitVisible(chromedp.ID("app")))
	b.until(judge, "the game's seats on the console", jsText("#draw-note", "本局座位：1號 "+v.Draw[0].Name))
	b.run(judge, "open /deal", chromedp.Navigate(ts.URL+"/deal"))
	b.until(judge, "the deal sheet names the seats", jsText("#deal-rows", v.Draw[0].Name)+" && "+jsText("#deal-rows", v.Draw[11].Name))
	first := b.text(judge, "#deal-rows tr:first-child")
	if !strings.Contains(first, "1號") || !strings.Contains(first, v.Draw[0].Name) {
		t.Fatalf("the deal sheet's first row %q, seat 1 drew %s", first, v.Draw[0].Name)
	}
	pub := b.tab("public")
	b.run(pub, "open /", chromedp.Navigate(ts.URL+"/"))
	b.until(pub, "the public names", jsText("#seats", v.Draw[0].Name)+" && "+jsText("#seats", v.Draw[5].Name))
	noScriptErrors(t, b)
}
