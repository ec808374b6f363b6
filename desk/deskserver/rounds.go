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
<td>{{range .Progress}}{{.Table}} {{.Games}}／{{.Want}}　{{end}}<a href="/rounds/{{.N}}/plan">座位表</a>{{if .Locked}}（已鎖定）{{end}}</td>
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

type planSheet struct {
	Table string
	Seats []planSeat
}

type planSeat struct {
	N              int
	ID, Name, Club string
}

// planPage is round n's seating plan: a sheet per table (printable), and
// for the operator the proposal, the swaps and the lock.
func (d *Desk) planPage(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.PathValue("n"))
	var rd desk.Round
	found := false
	for _, x := range d.Store.Rounds() {
		if x.N == n {
			rd, found = x, true
		}
	}
	if !found {
		d.fail(w, r, http.StatusNotFound, "找不到輪次：", "沒有第 "+r.PathValue("n")+" 輪", "/rounds")
		return
	}
	list, _ := d.Store.Players()
	byID := map[string]desk.Player{}
	for _, p := range list {
		byID[p.ID] = p
	}
	var sheets []planSheet
	for _, t := range rd.Tables {
		sh := planSheet{Table: t}
		for k, id := range rd.Plan[t] {
			p := byID[id]
			sh.Seats = append(sh.Seats, planSeat{N: k + 1, ID: id, Name: p.Name, Club: p.Club})
		}
		sheets = append(sheets, sh)
	}
	v := map[string]any{"Round": rd, "Sheets": sheets, "Title": d.title(), "HasPlan": len(rd.Plan) > 0}
	if cookie, ok := d.op.session(r); ok {
		v["CSRF"] = d.op.csrf(cookie)
		w.Header().Set("Cache-Control", "no-store")
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := planTmpl.Execute(w, v); err != nil {
		d.log.Warn("desk: plan page", "err", err)
	}
}

func (d *Desk) planPost(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.PathValue("n"))
	back := "/rounds/" + r.PathValue("n") + "/plan"
	var err error
	switch r.FormValue("do") {
	case "propose":
		seats := 12
		if v := strings.TrimSpace(r.FormValue("seats")); v != "" {
			if seats, err = strconv.Atoi(v); err != nil {
				d.fail(w, r, http.StatusBadRequest, "座位表沒有排：", "每桌人數要是數字", back)
				return
			}
		}
		_, err = d.Store.ProposeRoundPlan(n, seats)
	case "swap":
		_, err = d.Store.SwapPlan(n, r.FormValue("a"), r.FormValue("b"))
	case "lock":
		_, err = d.Store.LockPlan(n)
	default:
		d.fail(w, r, http.StatusBadRequest, "座位表沒有改：", "不認得的動作", back)
		return
	}
	if err != nil {
		d.fail(w, r, http.StatusBadRequest, "座位表沒有改：", err.Error(), back)
		return
	}
	d.log.Warn("desk: seating plan", "round", n, "do", r.FormValue("do"))
	http.Redirect(w, r, back, http.StatusSeeOther)
}

var planTmpl = template.Must(template.New("plan").Funcs(funcs).Parse(head + `
<title>第 {{.Round.N}} 輪座位表・{{.Title}}</title></head><body>` + nav + `
<h1>第 {{.Round.N}} 輪座位表{{if .Round.Locked}}（已鎖定）{{end}}</h1>
{{if .CSRF}}{{if not .Round.Locked}}{{if .Round.Open}}
<form method="post" action="/rounds/{{.Round.N}}/plan" class="noprint"><input type="hidden" name="csrf" value="{{.CSRF}}"><input type="hidden" name="do" value="propose">
每桌 <input name="seats" size="3" inputmode="numeric" value="12"> 人 <button>{{if .HasPlan}}重新排座位{{else}}排座位{{end}}</button>
<span class="dim">（名冊裡未取消資格的選手，避開已同桌過的對手，再避開坐過的座位）</span></form>
{{if .HasPlan}}<form method="post" action="/rounds/{{.Round.N}}/plan" class="noprint"><input type="hidden" name="csrf" value="{{.CSRF}}"><input type="hidden" name="do" value="swap">
對調 <select name="a">{{range .Sheets}}{{$t := .Table}}{{range .Seats}}<option value="{{.ID}}">{{$t}} {{.N}} 號 {{.Name}}</option>{{end}}{{end}}</select>
與 <select name="b">{{range .Sheets}}{{$t := .Table}}{{range .Seats}}<option value="{{.ID}}">{{$t}} {{.N}} 號 {{.Name}}</option>{{end}}{{end}}</select> <button>對調</button></form>
<form method="post" action="/rounds/{{.Round.N}}/plan" class="noprint"><input type="hidden" name="csrf" value="{{.CSRF}}"><input type="hidden" name="do" value="lock"><button>鎖定座位表</button>
<span class="dim">鎖定後，本輪各局的選手名字照座位表</span></form>{{end}}{{end}}{{end}}{{end}}
{{range .Sheets}}<section class="sheet"><h2>{{.Table}}・第 {{$.Round.N}} 輪</h2>
{{if .Seats}}<table><tr><th>座位</th><th>選手</th><th>編號</th><th>俱樂部</th></tr>
{{range .Seats}}<tr><td>{{.N}}</td><td>{{.Name}}</td><td>{{.ID}}</td><td>{{.Club}}</td></tr>{{end}}</table>
{{else}}<p class="dim">還沒有座位表</p>{{end}}</section>{{end}}
</body></html>`))
