package console

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wolftable/boards"
)

// TestBrowserSeats: tables of 7 and 11 seats (venue boards) in a real
// browser: the new-game form marks the venue's boards and disables those
// of another seat count; the god view, the deal sheet and the public page
// show every seat and nothing wider than a phone. A 12-seat table offers
// the 14-card board's form with its two bottom cards. Screenshots are the
// test's artefacts (go test -run BrowserSeats -artifacts -outputdir DIR).
func TestBrowserSeats(t *testing.T) {
	cat, err := boards.Open("../boards/testdata/venue", true)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{7, 11} {
		t.Run(fmt.Sprintf("seats-%d", n), func(t *testing.T) {
			b := newBrowser(t)
			r := newRig(t, Options{Heartbeat: 200 * time.Millisecond, Boards: cat.All, Venue: cat.IsVenue, Seats: n})
			ts := r.serve()
			judge := b.tab("judge")
			b.run(judge, "open /judge", chromedp.Navigate(ts.URL+"/judge"), chromedp.WaitVisible(chromedp.ID("login")))
			b.run(judge, "log in", chromedp.SendKeys(chromedp.ID("pin"), rigPIN),
				chromedp.Click(chromedp.ID("login-btn")), chromedp.WaitVisible(chromedp.ID("app")))
			id := fmt.Sprintf("house-seats-%d", n)
			// the first board that fits is chosen (a seed-001 board of n seats, or the venue's); choose the venue's
			b.until(judge, "a board that fits chosen", `(o => !!o && !o.disabled)(document.querySelector('#ng-board').selectedOptions[0])`)
			b.run(judge, "choose the venue board", chromedp.SetValue(chromedp.ID("ng-board"), id))
			get(b, judge, "board changed", chromedp.Evaluate[bool](`(document.querySelector('#ng-board').dispatchEvent(new Event('change')), true)`))
			b.until(judge, "the venue board chosen", fmt.Sprintf(`document.querySelector('#ng-board').value === %q`, id))
			b.until(judge, "the venue board marked", fmt.Sprintf(`document.querySelector('#ng-board option[value=%q]').textContent.includes('〔本店〕')`, id))
			b.until(judge, "12-seat boards disabled", `document.querySelector('#ng-board option[value="seer-witch-hunter-idiot"]').disabled`)
			b.run(judge, "a hand-entered deal's form", chromedp.Click(chromedp.ID("ng-manual")))
			b.until(judge, "one pick per seat", fmt.Sprintf(`!!document.querySelector('#deal-seat-%d') && !document.querySelector('#deal-seat-%d')`, n, n+1))
			b.shot(judge, fmt.Sprintf("seats-%d-new-game", n))
			b.run(judge, "random deal", chromedp.Click(chromedp.CSS(`input[name="deal"][value="random"]`)),
				chromedp.SendKeys(chromedp.ID("ng-seed"), "5"), chromedp.Click(chromedp.ID("btn-start")))
			b.until(judge, "night 1", jsText("#phase", "第1夜"))
			b.until(judge, "every seat", fmt.Sprintf(`document.querySelectorAll('#seats .seat').length === %d`, n))
			b.shot(judge, fmt.Sprintf("seats-%d-god-view", n))

			sheet := b.tab("deal")
			b.run(sheet, "open /deal", chromedp.Navigate(ts.URL+"/deal"))
			b.until(sheet, "the deal", fmt.Sprintf(`document.querySelectorAll('#deal-rows tr').length === %d`, n))
			b.shot(sheet, fmt.Sprintf("seats-%d-deal-sheet", n))

			public := b.tab("public")
			b.run(public, "open /", chromedp.Navigate(ts.URL+"/"))
			vb, err := cat.Get(id)
			if err != nil {
				t.Fatal(err)
			}
			b.until(public, "the public page", jsText("#board", vb.Name))
			b.until(public, "every seat", fmt.Sprintf(`document.querySelectorAll('#seats .seat').length === %d`, n))
			b.shot(public, fmt.Sprintf("seats-%d-public", n))
			for name, ctx := range map[string]context.Context{"judge": judge, "public": public} {
				w := get(b, ctx, "widths", chromedp.Evaluate[[]int](`[document.documentElement.scrollWidth, window.innerWidth]`))
				if w[0] > w[1] {
					t.Errorf("%s: the page is %dpx wide on a %dpx screen", name, w[0], w[1])
				}
			}
			b.mu.Lock()
			defer b.mu.Unlock()
			for _, e := range b.errors {
				t.Errorf("script error: %s", e)
			}
		})
	}
	t.Run("bottom-cards", func(t *testing.T) {
		bb, all := bottomBoards(t)
		b := newBrowser(t)
		r := newRig(t, Options{Heartbeat: 200 * time.Millisecond, Boards: all, Seats: 12})
		ts := r.serve()
		judge := b.tab("judge")
		b.run(judge, "open /judge", chromedp.Navigate(ts.URL+"/judge"), chromedp.WaitVisible(chromedp.ID("login")))
		b.run(judge, "log in", chromedp.SendKeys(chromedp.ID("pin"), rigPIN),
			chromedp.Click(chromedp.ID("login-btn")), chromedp.WaitVisible(chromedp.ID("app")))
		b.until(judge, "the boards", `!!document.querySelector('#ng-board option[value="`+bb.ID+`"]')`)
		b.until(judge, "14 cards for 12 seats in the list", `document.querySelector('#ng-board option[value="`+bb.ID+`"]').textContent.includes('12人＋2張底牌')`)
		b.run(judge, "the 14-card board", chromedp.SetValue(chromedp.ID("ng-board"), bb.ID))
		get(b, judge, "board changed", chromedp.Evaluate[bool](`(document.querySelector('#ng-board').dispatchEvent(new Event('change')), true)`))
		b.run(judge, "a hand-entered deal", chromedp.Click(chromedp.ID("ng-manual")))
		b.until(judge, "12 seats and 2 bottom cards", `!!document.querySelector('#deal-seat-12') && !document.querySelector('#deal-seat-13') && !!document.querySelector('#deal-bottom-2') && !document.querySelector('#deal-bottom-3')`)
		b.shot(judge, "bottom-cards-new-game")
		b.run(judge, "random deal", chromedp.Click(chromedp.CSS(`input[name="deal"][value="random"]`)),
			chromedp.SendKeys(chromedp.ID("ng-seed"), "5"), chromedp.Click(chromedp.ID("btn-start")))
		b.until(judge, "night 1", jsText("#phase", "第1夜"))
		sheet := b.tab("deal")
		b.run(sheet, "open /deal", chromedp.Navigate(ts.URL+"/deal"))
		b.until(sheet, "12 seats and 2 bottom cards", `document.querySelectorAll('#deal-rows tr').length === 12 && document.querySelectorAll('#bottom-rows tr').length === 2 && !document.querySelector('#bottom').hidden`)
		b.shot(sheet, "bottom-cards-deal-sheet")
	})
}
