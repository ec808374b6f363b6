package console

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"wolftable/engine"
	"wolftable/internal/hans/hanstest"
)

// TestBrowserNewGameOptions (issue 31 item 8): the new-game form names
// the board's options and their values in words (script.OptionName,
// script.OptionValueText): no option key (speaking.clock_rule) and no
// English value (minute_mod_n) reaches the page; a value chosen in words
// is the one the game starts with.
func TestBrowserNewGameOptions(t *testing.T) {
	b := newBrowser(t)
	r := newRig(t, Options{})
	ts := r.serve()
	judge := loginJudge(b, ts.URL)
	b.until(judge, "the board's options", `document.querySelector('#ng-board').value === 'seer-witch-hunter-idiot' && !!document.querySelector('#ng-options label')`)
	b.run(judge, "open 開新局 and its 選項", chromedp.Evaluate[chromedp.Void](`document.querySelector('#newgame').open = true; document.querySelector('#ng-options').parentElement.open = true`))
	if shown := get(b, judge, "the hand deal's seats", chromedp.Evaluate[bool](`document.querySelector('#ng-deal').getClientRects().length > 0`)); shown {
		t.Errorf("the hand deal's seats show with 隨機 chosen")
	}
	// what the judge reads of the form: labels, the choices, the typed
	// values, the tooltips
	shown := get(b, judge, "the options' text", chromedp.Evaluate[string](`Array.from(document.querySelectorAll('#ng-options *')).map((e) =>
		[e.children.length ? '' : e.textContent, e.title || '', e.tagName === 'INPUT' ? e.value : ''].join('\n')).join('\n')`))
	if !strings.Contains(shown, "分鐘數除以人數取餘數") {
		t.Errorf("the clock rule's value is not in words:\n%s", shown)
	}
	for _, l := range strings.Split(shown, "\n") {
		for _, k := range engine.OptionNames() {
			if strings.Contains(l, k) {
				t.Errorf("the raw key %q reaches the page: %q", k, l)
			}
		}
		if en := hanstest.English(strings.ReplaceAll(strings.ReplaceAll(l, "_", " "), ".", " ")); len(en) > 0 {
			t.Errorf("English %q on the form: %q", en, l)
		}
	}
	b.shot(judge, "new-game-options")
	b.run(judge, "choose 分鐘各位數字相加 and start",
		chromedp.SetValue(chromedp.CSS(`#ng-options select[data-key="speaking.clock_rule"]`), "minute_digit_sum"),
		chromedp.Click(chromedp.ID("btn-start")))
	b.until(judge, "night 1", jsText("#phase", "第1夜"))
	if st := r.srv.judgeState(); st.Game == nil || st.Game.Options["speaking.clock_rule"] != "minute_digit_sum" {
		t.Errorf("the game started with %+v, want speaking.clock_rule=minute_digit_sum", st.Game)
	}
	noScriptErrors(t, b)
}
