package deskserver

import (
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"wolftable/desk"
)

// The player registry's page (issue 29 item 1): /players lists the
// registered players; the logged-in operator adds, changes and removes
// them (the CSV import is `wolftable desk players import`).

func (d *Desk) playersPage(w http.ResponseWriter, r *http.Request) {
	list, err := d.Store.Players()
	names := map[string]string{}
	for _, p := range list {
		names[p.ID] = p.Name
	}
	var sanctions []sanctionRow
	for _, sn := range d.Store.Sanctions() {
		sanctions = append(sanctions, sanctionRow{sn, names[sn.Player]})
	}
	v := map[string]any{"Players": list, "Err": err, "Count": len(list), "Title": d.title(), "Sanctions": sanctions}
	if q := r.URL.Query(); q.Has("added") { // back from an import
		v["Imported"] = "匯入完成：新增 " + strconv.Itoa(atoi(q.Get("added"))) + " 位、更新 " + strconv.Itoa(atoi(q.Get("updated"))) + " 位"
	}
	if cookie, ok := d.op.session(r); ok {
		v["CSRF"] = d.op.csrf(cookie)
		v["SeatProblems"] = d.Store.SeatMapProblems()
		w.Header().Set("Cache-Control", "no-store")
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := playersTmpl.Execute(w, v); err != nil {
		d.log.Warn("desk: players page", "err", err)
	}
}

// atoi is a query's count (0 if not one).
func atoi(s string) int { n, _ := strconv.Atoi(s); return max(n, 0) }

// playerPost adds or changes a player (id, name, club, nickname).
func (d *Desk) playerPost(w http.ResponseWriter, r *http.Request) {
	p := desk.Player{ID: strings.TrimSpace(r.FormValue("id")), Name: r.FormValue("name"), Club: r.FormValue("club"), Nickname: r.FormValue("nickname")}
	if err := desk.PutPlayer(d.opts.Data, p); err != nil {
		d.fail(w, r, http.StatusBadRequest, "選手沒有存：", err.Error(), "/players")
		return
	}
	d.log.Warn("desk: player saved", "id", p.ID)
	d.Store.Log("player", p.ID, "選手 "+p.ID+" 存為「"+strings.TrimSpace(p.Name)+"」")
	if r.Header.Get("X-CSRF-Token") != "" {
		writeJSON(w, map[string]string{"id": p.ID})
		return
	}
	http.Redirect(w, r, "/players", http.StatusSeeOther)
}

func (d *Desk) playerRemove(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := desk.RemovePlayer(d.opts.Data, id); err != nil {
		d.fail(w, r, http.StatusBadRequest, "選手沒有移除：", err.Error(), "/players")
		return
	}
	d.log.Warn("desk: player removed", "id", id)
	d.Store.Log("player", id, "選手 "+id+" 從名冊移除")
	http.Redirect(w, r, "/players", http.StatusSeeOther)
}

type sanctionRow struct {
	desk.Sanction
	Name string
}

// sanctionPost gives a player a warning, a deduction or a
// disqualification (kind, points, reason).
func (d *Desk) sanctionPost(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	points := 0.0
	if v := strings.TrimSpace(r.FormValue("points")); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			d.fail(w, r, http.StatusBadRequest, "處分沒有記下：", "扣分要是數字", "/players")
			return
		}
		points = f
	}
	sn, err := d.Store.Sanction(id, r.FormValue("kind"), points, r.FormValue("reason"))
	if err != nil {
		d.fail(w, r, http.StatusBadRequest, "處分沒有記下：", err.Error(), "/players")
		return
	}
	d.log.Warn("desk: a sanction", "player", id, "kind", sn.Kind, "points", sn.Points)
	if r.Header.Get("X-CSRF-Token") != "" {
		writeJSON(w, sn)
		return
	}
	http.Redirect(w, r, "/players#discipline", http.StatusSeeOther)
}

func (d *Desk) revokePost(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err == nil {
		_, err = d.Store.Revoke(n, r.FormValue("reason"))
	}
	if err != nil {
		d.fail(w, r, http.StatusBadRequest, "處分沒有撤銷：", err.Error(), "/players#discipline")
		return
	}
	http.Redirect(w, r, "/players#discipline", http.StatusSeeOther)
}

// fail answers an operator's request that changed nothing: a page with
// the reason and the way back (a script's request, X-CSRF-Token: text).
func (d *Desk) fail(w http.ResponseWriter, r *http.Request, code int, what, why, back string) {
	if r.Header.Get("X-CSRF-Token") != "" {
		http.Error(w, what+why, code)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	errorTmpl.Execute(w, map[string]string{"What": what, "Why": why, "Back": back, "Title": d.title()})
}

// title is the tournament's name for the pages.
func (d *Desk) title() string {
	if d.opts.Title != "" {
		return d.opts.Title
	}
	return "賽事總台"
}

const nav = `<nav class="dim"><strong>{{.Title}}</strong>・<a href="/">總台</a>・<a href="/players">選手名冊</a>・<a href="/rounds">輪次</a>・<a href="/log">總台紀錄</a>・<a href="/screen">轉播畫面</a></nav>`

// logPage is the organiser's log, newest first (the operator's).
func (d *Desk) logPage(w http.ResponseWriter, r *http.Request) {
	entries, err := d.Store.LogEntries("")
	for i, j := 0, len(entries)-1; i < j; i, j = i+1, j-1 {
		entries[i], entries[j] = entries[j], entries[i]
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := logTmpl.Execute(w, map[string]any{"Entries": entries, "Err": err, "Title": d.title()}); err != nil {
		d.log.Warn("desk: log page", "err", err)
	}
}

var logTmpl = template.Must(template.New("log").Funcs(funcs).Parse(head + `
<title>總台紀錄・{{.Title}}</title></head><body>` + nav + `
<h1>總台紀錄</h1>
<p class="dim">總台每一次變更（輪次、座位表、作廢、晚到紀錄的決定、獎項、處分、選手名冊、重新收錄），最新的在上面；檔案是資料夾裡的 organiser.jsonl。</p>
{{if .Err}}<p class="bad">讀不到紀錄：{{.Err}}</p>{{end}}
{{if .Entries}}<table><tr><th>時間</th><th>事項</th></tr>
{{range .Entries}}<tr><td>{{clock .At}}</td><td class="long">{{.Text}}</td></tr>{{end}}</table>{{else}}<p class="dim">還沒有。</p>{{end}}
</body></html>`))

var errorTmpl = template.Must(template.New("error").Parse(head + `
<title>沒有完成・{{.Title}}</title></head><body>` + nav + `
<h1 class="bad">{{.What}}</h1><p>{{.Why}}</p><p><a href="{{.Back}}">← 回上一頁</a></p></body></html>`))

var playersTmpl = template.Must(template.New("players").Funcs(funcs).Parse(head + `
<title>選手名冊・{{.Title}}</title></head><body>` + nav + `
<h1>選手名冊</h1>
{{if .Err}}<p class="bad">名冊檔讀不到：{{.Err}}（顯示的是上次讀到的名冊）</p>{{end}}
{{range .SeatProblems}}<p class="bad">{{.}}（照原字顯示；若是編號打錯，請改正 players.csv 後重新啟動總台）</p>{{end}}
{{if .Imported}}<p class="ok" id="imported">{{.Imported}}</p>{{end}}
<p class="dim">共 {{.Count}} 位選手。從 CSV 匯入（Excel 另存「CSV UTF-8」即可），欄位為「編號,名字,俱樂部,暱稱」：{{if .CSRF}}用下面的表單，或{{end}}<code>wolftable desk players import 檔案.csv --data 資料夾</code>。</p>
{{if .CSRF}}<form method="post" action="/players/import" enctype="multipart/form-data"><input type="hidden" name="csrf" value="{{.CSRF}}">
匯入 CSV <input type="file" name="csv" accept=".csv,text/csv" required> <button>匯入</button>
<span class="dim">（同編號的選手會被更新；有任何一行有問題就整個不匯入，並列出行號）</span></form>{{end}}
<table><tr><th>編號</th><th>名字</th><th>俱樂部</th><th>暱稱</th>{{if $.CSRF}}<th></th>{{end}}</tr>
{{range .Players}}{{if $.CSRF}}<tr><td>{{.ID}}</td><td><input form="p-{{.ID}}" name="name" value="{{.Name}}" size="10" required></td>
<td><input form="p-{{.ID}}" name="club" value="{{.Club}}" size="10"></td><td><input form="p-{{.ID}}" name="nickname" value="{{.Nickname}}" size="8"></td>
<td><form id="p-{{.ID}}" method="post" action="/players" class="inline"><input type="hidden" name="csrf" value="{{$.CSRF}}"><input type="hidden" name="id" value="{{.ID}}"><button>儲存</button></form>
<form method="post" action="/players/{{.ID}}/remove" class="inline"><input type="hidden" name="csrf" value="{{$.CSRF}}"><button>移除</button></form></td></tr>
{{else}}<tr><td>{{.ID}}</td><td>{{.Name}}</td><td>{{.Club}}</td><td>{{.Nickname}}</td></tr>{{end}}
{{else}}<tr><td colspan="5" class="dim">名冊還是空的</td></tr>{{end}}
</table>
{{if .CSRF}}<h2>新增選手</h2>
<form method="post" action="/players"><input type="hidden" name="csrf" value="{{.CSRF}}">
編號 <input name="id" size="6" required> 名字 <input name="name" size="10" required> 俱樂部 <input name="club" size="10"> 暱稱 <input name="nickname" size="8"> <button>新增</button></form>
{{else}}<p class="dim">登入總台後可在此新增、修改選手。</p>{{end}}
<h2 id="discipline">警告、扣分與取消資格</h2>
<p class="dim">裁判在對局中的扣分隨該局的紀錄計入；這裡是總台記下的處分。</p>
{{if .CSRF}}{{if .Players}}<table><tr><th>選手</th><th>處分</th></tr>{{range .Players}}<tr><td>{{.ID}} {{.Name}}</td><td><form method="post" action="/players/{{.ID}}/sanction" class="inline"><input type="hidden" name="csrf" value="{{$.CSRF}}">
<select name="kind"><option value="warning">警告</option><option value="deduction">扣分</option><option value="dq">取消資格</option></select>
<input name="points" size="3" inputmode="decimal" placeholder="分數"> 原因 <input name="reason" size="14" required> <button>記下</button></form></td></tr>{{end}}</table>{{end}}{{end}}
{{if not .CSRF}}<p class="dim">處分的明細只給登入的總台看；積分榜列出每位選手的扣分、警告與取消資格。</p>
{{else if .Sanctions}}<table><tr><th>時間</th><th>選手</th><th>處分</th><th>原因</th><th>狀態</th></tr>
{{range .Sanctions}}<tr><td>{{clock .At}}</td><td>{{.Name}} <span class="dim">{{.Player}}</span></td><td>{{.KindWords}}</td><td class="long">{{.Reason}}</td>
<td>{{if .Revoked}}已撤銷：{{.Revoked}}{{else if $.CSRF}}<form method="post" action="/discipline/{{.ID}}/revoke" class="inline"><input type="hidden" name="csrf" value="{{$.CSRF}}"><input name="reason" size="10" required placeholder="撤銷原因"> <button>撤銷</button></form>{{else}}有效{{end}}</td></tr>{{end}}
</table>{{else}}<p class="dim">沒有。</p>{{end}}
</body></html>`))
