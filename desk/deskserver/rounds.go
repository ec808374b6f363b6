package deskserver

import (
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"wolftable/desk"
)

// The organiser's rounds (issue 29 item 2): /rounds lists them with each
// table's games; the logged-in operator opens a round (which tables, how
// many games each) and closes it, and voids a game on its page.

type roundRow struct {
	desk.Round
	Progress []tableProgress
}

type tableProgress struct {
	Table       string
	Games, Want int
}

func (d *Desk) roundsPage(w http.ResponseWriter, r *http.Request) {
	var rows []roundRow
	busy := map[string]bool{}
	for _, rd := range d.Store.Rounds() {
		count := d.Store.RoundCount(rd.N)
		row := roundRow{Round: rd}
		for _, t := range rd.Tables {
			row.Progress = append(row.Progress, tableProgress{t, count[t], rd.Games})
			if rd.Open() {
				busy[t] = true
			}
		}
		rows = append(rows, row)
	}
	for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 { // the newest first
		rows[i], rows[j] = rows[j], rows[i]
	}
	type pick struct {
		Name string
		Busy bool
	}
	var tables []pick
	if ts, err := desk.Tables(d.opts.Data); err == nil {
		for _, t := range ts {
			tables = append(tables, pick{t.Name, busy[t.Name]})
		}
	}
	v := map[string]any{"Rounds": rows, "Tables": tables, "Default": desk.DefaultRoundGames, "Title": d.title()}
	if cookie, ok := d.op.session(r); ok {
		v["CSRF"] = d.op.csrf(cookie)
		w.Header().Set("Cache-Control", "no-store")
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := roundsTmpl.Execute(w, v); err != nil {
		d.log.Warn("desk: rounds page", "err", err)
	}
}

func (d *Desk) roundOpenPost(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		d.fail(w, r, http.StatusBadRequest, "輪次沒有開始：", "表單讀不到", "/rounds")
		return
	}
	games := 0
	if v := strings.TrimSpace(r.FormValue("games")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			d.fail(w, r, http.StatusBadRequest, "輪次沒有開始：", "每桌局數要是正整數", "/rounds")
			return
		}
		games = n
	}
	rd, err := d.Store.OpenRound(r.Form["table"], games)
	if err != nil {
		d.fail(w, r, http.StatusBadRequest, "輪次沒有開始：", err.Error(), "/rounds")
		return
	}
	d.log.Warn("desk: round opened", "round", rd.N, "tables", rd.Tables, "games", rd.Games)
	if r.Header.Get("X-CSRF-Token") != "" {
		writeJSON(w, rd)
		return
	}
	http.Redirect(w, r, "/rounds", http.StatusSeeOther)
}

func (d *Desk) roundClosePost(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err == nil {
		_, err = d.Store.CloseRound(n)
	}
	if err != nil {
		d.fail(w, r, http.StatusBadRequest, "輪次沒有結束：", err.Error(), "/rounds")
		return
	}
	d.log.Warn("desk: round closed", "round", n)
	if r.Header.Get("X-CSRF-Token") != "" {
		writeJSON(w, map[string]int{"closed": n})
		return
	}
	http.Redirect(w, r, "/rounds", http.StatusSeeOther)
}

// voidPost voids a game with the operator's reason.
func (d *Desk) voidPost(w http.ResponseWriter, r *http.Request) {
	hash := r.PathValue("hash")
	g, err := d.Store.Void(hash, r.FormValue("reason"))
	if err != nil {
		d.fail(w, r, http.StatusBadRequest, "對局沒有作廢：", err.Error(), "/game/"+hash)
		return
	}
	d.log.Warn("desk: a game voided", "table", g.Table, "game", g.Fingerprint, "reason", g.Void)
	if r.Header.Get("X-CSRF-Token") != "" {
		writeJSON(w, map[string]string{"void": g.Void})
		return
	}
	http.Redirect(w, r, "/game/"+hash, http.StatusSeeOther)
}

var roundsTmpl = template.Must(template.New("rounds").Funcs(funcs).Parse(head + `
<title>輪次・{{.Title}}</title></head><body>` + nav + `
<h1>輪次</h1>
{{if .CSRF}}<h2>開始新的一輪</h2>
<form method="post" action="/rounds"><input type="hidden" name="csrf" value="{{.CSRF}}">
{{range .Tables}}<label><input type="checkbox" name="table" value="{{.Name}}"{{if not .Busy}} checked{{else}} disabled{{end}}> {{.Name}}{{if .Busy}}（進行中）{{end}}</label> {{else}}<span class="dim">尚未登記桌子</span>{{end}}
・每桌 <input name="games" size="3" inputmode="numeric" value="{{.Default}}"> 局 <button>開始這一輪</button></form>
<p class="dim">桌子開局時所在的輪次就是這局的輪次；不在任何進行中輪次的對局、或超過每桌局數的對局，會列在總台首頁「晚到的紀錄」待決定。</p>{{end}}
{{if .Rounds}}<table><tr><th>輪次</th><th>狀態</th><th>開始</th><th>結束</th><th>每桌局數</th><th>各桌進度</th>{{if .CSRF}}<th></th>{{end}}</tr>
{{range .Rounds}}<tr><td>第 {{.N}} 輪</td><td>{{if .Open}}<span class="ok">進行中</span>{{else}}已結束{{end}}</td><td>{{clock .Opened}}</td><td>{{clock .Closed}}</td><td>{{.Games}}</td>
<td>{{range .Progress}}{{.Table}} {{.Games}}／{{.Want}}　{{end}}</td>
{{if $.CSRF}}<td>{{if .Open}}<form method="post" action="/rounds/{{.N}}/close"><input type="hidden" name="csrf" value="{{$.CSRF}}"><button>結束這一輪</button></form>{{end}}</td>{{end}}</tr>{{end}}
</table>{{else}}<p class="dim">還沒有開始任何輪次：各桌的第 n 局就是第 n 輪。{{if not .CSRF}}登入總台後可開始一輪。{{end}}</p>{{end}}
</body></html>`))

// readmitPost verifies a kept refused record again (after the table's
// right key was registered) and counts it.
func (d *Desk) readmitPost(w http.ResponseWriter, r *http.Request) {
	g, err := d.Store.Readmit(r.PathValue("digest"))
	if err != nil {
		d.fail(w, r, http.StatusBadRequest, "沒有重新收錄：", err.Error(), "/")
		return
	}
	d.log.Warn("desk: a refused record readmitted", "table", g.Table, "game", g.Fingerprint)
	if r.Header.Get("X-CSRF-Token") != "" {
		writeJSON(w, map[string]any{"hash": g.Hash, "round": g.Round})
		return
	}
	http.Redirect(w, r, "/game/"+g.Hash, http.StatusSeeOther)
}
