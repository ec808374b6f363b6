package deskserver

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"wolftable/desk"
)

func sortLive(l []Live) { sort.Slice(l, func(i, j int) bool { return l[i].Name < l[j].Name }) }

// PublicGame is one finished game in /api/public/games.
type PublicGame struct {
	Table       string    `json:"table"`
	Round       int       `json:"round"`
	Game        string    `json:"game"`
	Board       string    `json:"board"`
	BoardName   string    `json:"board_name"`
	Winner      string    `json:"winner"`
	Hash        string    `json:"hash"`
	Fingerprint string    `json:"fingerprint"`
	SignatureOK bool      `json:"signature_ok"`
	Started     time.Time `json:"started"`
	Ended       time.Time `json:"ended"`
	MVP         int       `json:"mvp,omitempty"`
	SVP         int       `json:"svp,omitempty"`
}

// Standings are the standings under the desk's pack.
func (d *Desk) Standings() []desk.Row { return desk.Standings(d.pack, d.Store.Games()) }

// Handler is the desk's web: the page (/), each game's 復盤
// (/game/<hash>), the record itself (/record/<hash>.wtj), and read-only
// JSON and CSV: /api/public/games, /api/public/standings,
// /api/public/tables, /api/public/refused, /games.csv, /standings.csv.
func (d *Desk) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", d.page)
	mux.HandleFunc("GET /game/{hash}", d.review)
	mux.HandleFunc("GET /record/{file}", d.record)
	mux.HandleFunc("GET /api/public/games", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, d.publicGames()) })
	mux.HandleFunc("GET /api/public/standings", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, struct {
			Pack string     `json:"pack"`
			Rows []desk.Row `json:"rows"`
		}{d.pack.ID(), d.Standings()})
	})
	mux.HandleFunc("GET /api/public/tables", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, d.Tables()) })
	mux.HandleFunc("GET /api/public/refused", func(w http.ResponseWriter, r *http.Request) {
		ref := d.Store.Refused()
		if ref == nil {
			ref = []desk.Refusal{}
		}
		writeJSON(w, ref)
	})
	mux.HandleFunc("POST /login", d.loginPost)
	mux.HandleFunc("POST /logout", d.logoutPost)
	mux.HandleFunc("POST /game/{hash}/award", d.guard(d.awardPost))
	mux.HandleFunc("GET /api/public/feed/{table}", d.feedJSON)
	mux.HandleFunc("GET /feed/{table}", d.feedPage)
	mux.HandleFunc("GET /games.csv", d.gamesCSV)
	mux.HandleFunc("GET /standings.csv", d.standingsCSV)
	return mux
}

func (d *Desk) publicGames() []PublicGame {
	out := []PublicGame{}
	for _, g := range d.Store.Games() {
		out = append(out, PublicGame{Table: g.Table, Round: g.Round, Game: g.GameID, Board: g.Board, BoardName: g.BoardName, Winner: g.Winner,
			Hash: g.Hash, Fingerprint: g.Fingerprint, SignatureOK: g.SignatureOK, Started: g.Started, Ended: g.Ended, MVP: g.MVP, SVP: g.SVP})
	}
	return out
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

func csvOut(w http.ResponseWriter, name string, rows [][]string) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Write([]byte("\ufeff")) // Excel reads UTF-8 with its BOM
	c := csv.NewWriter(w)
	c.WriteAll(rows)
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func (d *Desk) gamesCSV(w http.ResponseWriter, r *http.Request) {
	rows := [][]string{{"table", "round", "game", "board", "winner", "started", "ended", "hash", "fingerprint", "signature_ok", "mvp", "svp"}}
	for _, g := range d.publicGames() {
		rows = append(rows, []string{g.Table, strconv.Itoa(g.Round), g.Game, g.Board, g.Winner, g.Started.Format(time.RFC3339), g.Ended.Format(time.RFC3339),
			g.Hash, g.Fingerprint, strconv.FormatBool(g.SignatureOK), strconv.Itoa(g.MVP), strconv.Itoa(g.SVP)})
	}
	csvOut(w, "games.csv", rows)
}

func (d *Desk) standingsCSV(w http.ResponseWriter, r *http.Request) {
	rows := [][]string{{"rank", "player", "points", "games", "wins", "losses", "voids", "mvp", "svp", "penalty"}}
	for _, s := range d.Standings() {
		rows = append(rows, []string{strconv.Itoa(s.Rank), s.Player, num(s.Points), strconv.Itoa(s.Games), strconv.Itoa(s.Wins), strconv.Itoa(s.Losses),
			strconv.Itoa(s.Voids), strconv.Itoa(s.MVP), strconv.Itoa(s.SVP), num(s.Penalty)})
	}
	csvOut(w, "standings.csv", rows)
}

func (d *Desk) review(w http.ResponseWriter, r *http.Request) {
	hash := r.PathValue("hash")
	format := r.URL.Query().Get("format")
	if format != "md" && format != "json" {
		format = "text"
	}
	text, err := d.Store.Review(hash, format)
	if err != nil {
		http.Error(w, "找不到這局的紀錄", http.StatusNotFound)
		return
	}
	if format != "text" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, text)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	v := struct {
		Hash, Text, CSRF string
		Award            desk.Award
	}{Hash: hash, Text: text}
	if cookie, ok := d.op.session(r); ok {
		v.CSRF, v.Award = d.op.csrf(cookie), d.Store.AwardOf(hash)
	}
	reviewTmpl.Execute(w, v)
}

func (d *Desk) record(w http.ResponseWriter, r *http.Request) {
	hash, ok := strings.CutSuffix(r.PathValue("file"), ".wtj")
	data, err := d.Store.Record(hash)
	if !ok || err != nil {
		http.Error(w, "找不到這份紀錄", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(data)
}

type pageTable struct {
	Live
	Alive  int
	Age    string
	Stale  bool
	Phase  string
	Result string
}

func (d *Desk) page(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	var tabs []pageTable
	for _, l := range d.Tables() {
		pt := pageTable{Live: l, Age: "—", Stale: true}
		if !l.LastSeen.IsZero() {
			age := now.Sub(l.LastSeen).Round(time.Second)
			pt.Age, pt.Stale = fmt.Sprintf("%v 前", age), age > 15*time.Second
		}
		if s := l.Status; s != nil {
			pt.Alive = len(s.Alive)
			pt.Phase = phaseWords(s.Phase)
			pt.Result = s.Result
		}
		tabs = append(tabs, pt)
	}
	games := d.publicGames()
	rounds := map[int][]PublicGame{}
	var nums []int
	for _, g := range games {
		if rounds[g.Round] == nil {
			nums = append(nums, g.Round)
		}
		rounds[g.Round] = append(rounds[g.Round], g)
	}
	sort.Ints(nums)
	type round struct {
		N     int
		Games []PublicGame
	}
	var rs []round
	for _, n := range nums {
		rs = append(rs, round{n, rounds[n]})
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	err := pageTmpl.Execute(w, map[string]any{"Tables": tabs, "Rounds": rs, "Standings": d.Standings(), "Pack": d.pack,
		"Refused": d.Store.Refused(), "Now": now.Format("15:04:05"), "Operator": d.loggedIn(r)})
	if err != nil {
		d.log.Warn("desk: page", "err", err)
	}
}

func (d *Desk) loggedIn(r *http.Request) bool {
	_, ok := d.op.session(r)
	return ok
}

// phaseWords: night-2 → 第2夜, day-3 → 第3天.
func phaseWords(p string) string {
	if n, ok := strings.CutPrefix(p, "night-"); ok {
		return "第" + n + "夜"
	}
	if n, ok := strings.CutPrefix(p, "day-"); ok {
		return "第" + n + "天"
	}
	if p == "" {
		return "等待開局"
	}
	return p
}

var funcs = template.FuncMap{"num": num, "short": func(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}, "clock": func(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("01-02 15:04")
}}

var pageTmpl = template.Must(template.New("page").Funcs(funcs).Parse(`<!doctype html>
<html lang="zh-Hant"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="5">
<title>賽事總台</title>
<style>
body{font-family:system-ui,"Noto Sans TC","PingFang TC",sans-serif;margin:1em;background:#111;color:#eee}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #444;padding:.3em .6em;text-align:left}
th{background:#222}.bad{color:#f66}.ok{color:#6d6}.dim{color:#999}a{color:#8cf}h2{margin-top:1.2em}
</style></head><body>
<h1>賽事總台</h1>
{{if .Operator}}<form method="post" action="/logout" class="dim">已登入，可在每局的復盤頁填 MVP／SVP・<button>登出</button></form>
{{else}}<form method="post" action="/login" class="dim">總台登入（填 MVP／SVP）：<input name="pin" type="password" inputmode="numeric" size="8" autocomplete="off"> <button>登入</button></form>{{end}}
<p class="dim">更新於 {{.Now}}（每 5 秒自動更新）・計分包：{{.Pack.Title}}（{{.Pack.ID}}）・匯出：
<a href="/games.csv">賽果 CSV</a>、<a href="/standings.csv">積分 CSV</a>、<a href="/api/public/games">賽果 JSON</a>、<a href="/api/public/standings">積分 JSON</a></p>
<h2>桌況</h2>
<table><tr><th>桌</th><th>板子</th><th>階段</th><th>存活</th><th>座位連線</th><th>最後訊號</th><th>待送紀錄</th></tr>
{{range .Tables}}<tr><td>{{.Name}} <a href="/feed/{{.Name}}">轉播</a></td>
<td>{{with .Status}}{{.BoardName}}{{end}}</td>
<td>{{if .Result}}已結束：{{.Result}}{{else}}{{.Phase}}{{end}}</td>
<td>{{with .Status}}{{len .Alive}}／{{.Seats}}{{end}}</td>
<td>{{with .Status}}{{if .LinkUp}}<span class="ok">正常</span>{{else}}<span class="bad">中斷</span> {{.Link}}{{end}}{{end}}</td>
<td>{{if .Stale}}<span class="bad">{{.Age}}</span>{{else}}{{.Age}}{{end}}</td>
<td>{{with .Status}}{{.Outbox}}{{end}}</td></tr>
{{else}}<tr><td colspan="7" class="dim">尚未登記桌子（wolftable desk table add 桌名 --data 資料夾）</td></tr>{{end}}
</table>
<h2>賽果</h2>
{{range .Rounds}}<h3>第 {{.N}} 輪</h3>
<table><tr><th>桌</th><th>板子</th><th>結果</th><th>結束</th><th>指紋</th><th>簽章</th><th>復盤</th></tr>
{{range .Games}}<tr><td>{{.Table}}</td><td>{{.BoardName}}</td><td>{{.Winner}}</td><td>{{clock .Ended}}</td><td>{{.Fingerprint}}</td>
<td>{{if .SignatureOK}}<span class="ok">本桌金鑰 ✓</span>{{else}}<span class="bad">✗</span>{{end}}</td>
<td><a href="/game/{{.Hash}}">復盤</a>・<a href="/record/{{.Hash}}.wtj">日誌</a></td></tr>{{end}}
</table>{{else}}<p class="dim">還沒有收到賽果。</p>{{end}}
<h2>積分榜</h2>
<table><tr><th>名次</th><th>選手</th><th>積分</th><th>場數</th><th>勝</th><th>負</th><th>流局</th><th>MVP</th><th>SVP</th><th>扣分</th></tr>
{{range .Standings}}<tr><td>{{.Rank}}</td><td>{{.Player}}</td><td>{{num .Points}}</td><td>{{.Games}}</td><td>{{.Wins}}</td><td>{{.Losses}}</td><td>{{.Voids}}</td><td>{{.MVP}}</td><td>{{.SVP}}</td><td>{{num .Penalty}}</td></tr>
{{else}}<tr><td colspan="10" class="dim">沒有資料</td></tr>{{end}}
</table>
<h2>拒收的紀錄</h2>
{{if .Refused}}<table><tr><th>時間</th><th>桌</th><th>主題</th><th>原因</th></tr>
{{range .Refused}}<tr><td>{{clock .At}}</td><td>{{.Table}}</td><td>{{.Subject}}</td><td class="bad">{{.Reason}}</td></tr>{{end}}
</table>{{else}}<p class="dim">沒有。</p>{{end}}
</body></html>
`))

var reviewTmpl = template.Must(template.New("review").Parse(`<!doctype html>
<html lang="zh-Hant"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>復盤</title><style>body{font-family:system-ui,"Noto Sans TC",sans-serif;margin:1em;background:#111;color:#eee}pre{white-space:pre-wrap}a{color:#8cf}</style>
</head><body><p><a href="/">← 總台</a>・<a href="/game/{{.Hash}}?format=md">Markdown</a>・<a href="/game/{{.Hash}}?format=json">JSON</a>・<a href="/record/{{.Hash}}.wtj">日誌檔</a></p>
{{if .CSRF}}<form method="post" action="/game/{{.Hash}}/award">MVP 座位 <input name="mvp" size="3" value="{{if .Award.MVP}}{{.Award.MVP}}{{end}}">・SVP 座位 <input name="svp" size="3" value="{{if .Award.SVP}}{{.Award.SVP}}{{end}}">
<input type="hidden" name="csrf" value="{{.CSRF}}"> <button>儲存</button>（空白或 0 為無）</form>{{end}}
<pre>{{.Text}}</pre></body></html>
`))
