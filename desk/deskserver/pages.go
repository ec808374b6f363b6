package deskserver

import (
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"sort"
	"strings"
	"time"

	"wolftable/desk"
)

//go:embed web
var webFS embed.FS

func staticFS() fs.FS { f, _ := fs.Sub(webFS, "web"); return f }

// pageTable is a table's row on the desk's page: live for the operator,
// as late as the feed for everyone else. State is what the table is
// doing, in words (已結束, 對局中, 等待開局, 離線, 從未連線), StateClass its
// colour.
type pageTable struct {
	Name, BoardName, Phase, Result, Link, Age string
	State, StateClass                         string
	Alive, Seats, Outbox, Dropped             int
	HasStatus, LinkUp, Stale                  bool
}

// staleAfter: a table silent for longer (its heartbeat is every 5 s) is
// offline.
const staleAfter = 15 * time.Second

// ageWords is how long ago, in Chinese: 「26 秒前」, 「3 分鐘前」, 「2 小時前」.
func ageWords(d time.Duration) string {
	switch {
	case d < time.Second:
		return "剛剛"
	case d < time.Minute:
		return fmt.Sprintf("%d 秒前", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%d 分鐘前", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d 小時前", int(d/time.Hour))
	}
	return fmt.Sprintf("%d 天前", int(d/(24*time.Hour)))
}

// stateWords: what a table is doing, from its (live or delayed) status.
func (pt *pageTable) stateWords() {
	switch {
	case !pt.HasStatus:
		pt.State, pt.StateClass = "尚無畫面", "dim"
	case pt.Result != "":
		pt.State, pt.StateClass = "已結束："+pt.Result, ""
	case pt.Phase == "等待開局":
		pt.State, pt.StateClass = "等待開局", "dim"
	default:
		pt.State, pt.StateClass = "對局中："+pt.Phase, "ok"
	}
}

func (d *Desk) pageTables(operator bool, now time.Time) []pageTable {
	var out []pageTable
	fill := func(pt *pageTable, s *desk.Status) {
		if s != nil {
			pt.HasStatus, pt.BoardName, pt.Phase, pt.Result = true, s.BoardName, phaseWords(s.Phase), s.Result
			pt.Alive, pt.Seats, pt.LinkUp, pt.Link, pt.Outbox = len(s.Alive), s.Seats, s.LinkUp, s.Link, s.Outbox
		}
		pt.stateWords()
	}
	if !operator {
		for _, p := range d.PublicTables(now) {
			pt := pageTable{Name: p.Name}
			fill(&pt, p.Status)
			out = append(out, pt)
		}
		return out
	}
	for _, l := range d.Tables() {
		pt := pageTable{Name: l.Name, Age: "從未收到", Stale: true, Dropped: l.Dropped}
		fill(&pt, l.Status)
		switch {
		case l.LastSeen.IsZero():
			pt.State, pt.StateClass = "從未連線", "bad"
		default:
			age := now.Sub(l.LastSeen)
			pt.Age, pt.Stale = ageWords(age), age > staleAfter
			if pt.Stale {
				pt.State, pt.StateClass = "離線（最後訊號 "+pt.Age+"）", "bad"
			}
		}
		out = append(out, pt)
	}
	return out
}

type round struct {
	N     int
	Games []PublicGame
}

func (d *Desk) rounds() []round {
	byRound := map[int][]PublicGame{}
	var nums []int
	for _, g := range d.publicGames() {
		if byRound[g.Round] == nil {
			nums = append(nums, g.Round)
		}
		byRound[g.Round] = append(byRound[g.Round], g)
	}
	sort.Ints(nums)
	var rs []round
	for _, n := range nums {
		rs = append(rs, round{n, byRound[n]})
	}
	return rs
}

func (d *Desk) page(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	cookie, operator := d.op.session(r)
	v := map[string]any{"Tables": d.pageTables(operator, now), "Rounds": d.rounds(), "Standings": d.Standings(), "Pack": d.pack,
		"Refused": d.Store.Refused(), "Now": now.Format("15:04:05"), "Operator": operator, "Delay": int(d.feedDelay() / time.Second),
		"LoginURL": d.loginURL(r), "HasRounds": len(d.Store.Rounds()) > 0, "Title": d.title()}
	if operator {
		var late []desk.Game // an accepted late game is counted: no longer waiting
		for _, g := range d.Store.Late() {
			if g.Decision != "accepted" {
				late = append(late, g)
			}
		}
		v["CSRF"], v["Late"] = d.op.csrf(cookie), late
		w.Header().Set("Cache-Control", "no-store")
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := pageTmpl.Execute(w, v); err != nil {
		d.log.Warn("desk: page", "err", err)
	}
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

var funcs = template.FuncMap{"num": num, "clock": func(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format("01-02 15:04")
}}

const head = `<!doctype html>
<html lang="zh-Hant"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/desk.css">`

var pageTmpl = template.Must(template.New("page").Funcs(funcs).Parse(head + `
<noscript><meta http-equiv="refresh" content="5"></noscript><script src="/static/refresh.js" defer></script>
<title>{{.Title}}</title></head><body>
` + nav + `
<h1>{{.Title}}</h1>
{{if .Operator}}<form method="post" action="/logout" class="dim">已登入：桌況為即時，可在每局的復盤頁填 MVP／SVP・<button>登出</button></form>
{{else if .LoginURL}}<p class="dim"><a href="{{.LoginURL}}">總台登入（HTTPS）</a>：即時桌況、MVP／SVP</p>
{{else}}<form method="post" action="/login" class="dim">總台登入（即時桌況、MVP／SVP）：<input name="pin" type="password" inputmode="numeric" size="8" autocomplete="off"> <button>登入</button></form>{{end}}
<p class="dim">更新於 {{.Now}}（每 5 秒自動更新，填表時暫停）<button type="button" id="pause" hidden>暫停自動更新</button>・計分包：{{.Pack.Title}}（{{.Pack.ID}}）・匯出：
<a href="/games.csv">賽果 CSV</a>、<a href="/standings.csv">積分 CSV</a>、<a href="/seats.csv">選手逐局 CSV</a>、<a href="/api/public/games">賽果 JSON</a>、<a href="/api/public/standings">積分 JSON</a></p>
<h2>桌況{{if not .Operator}}（轉播延遲 {{.Delay}} 秒）{{end}}</h2>
{{if .Operator}}<table><tr><th>桌</th><th>板子</th><th>狀態</th><th>存活</th><th>座位連線</th><th>最後訊號</th><th>待送紀錄</th><th>丟棄的訊息</th></tr>
{{range .Tables}}<tr><td>{{.Name}} <a href="/feed/{{.Name}}">轉播</a></td><td>{{.BoardName}}</td>
<td><span class="{{.StateClass}}">{{.State}}</span></td>
<td>{{if .HasStatus}}{{.Alive}}／{{.Seats}}{{end}}</td>
<td>{{if .HasStatus}}{{if .LinkUp}}<span class="ok">正常</span>{{else}}<span class="bad">中斷</span> {{.Link}}{{end}}{{end}}</td>
<td>{{if .Stale}}<span class="bad">{{.Age}}</span>{{else}}{{.Age}}{{end}}</td>
<td>{{if .HasStatus}}{{.Outbox}}{{end}}</td><td>{{if .Dropped}}<span class="bad">{{.Dropped}}</span>{{else}}0{{end}}</td></tr>
{{else}}<tr><td colspan="8" class="dim">尚未登記桌子（wolftable desk table add 桌名 --data 資料夾）</td></tr>{{end}}
</table>
{{else}}<table><tr><th>桌</th><th>板子</th><th>狀態</th><th>存活</th></tr>
{{range .Tables}}<tr><td>{{.Name}} <a href="/feed/{{.Name}}">轉播</a></td><td>{{.BoardName}}</td>
<td><span class="{{.StateClass}}">{{.State}}</span></td>
<td>{{if .HasStatus}}{{.Alive}}／{{.Seats}}{{end}}</td></tr>
{{else}}<tr><td colspan="4" class="dim">尚未登記桌子</td></tr>{{end}}
</table>{{end}}
{{if .Late}}<h2 class="bad">晚到的紀錄（待總台決定，尚未計分）</h2>
<table><tr><th>桌</th><th>板子</th><th>結果</th><th>開局</th><th>指紋</th><th>原因</th><th>決定</th></tr>
{{range .Late}}<tr><td>{{.Table}} <a href="/game/{{.Hash}}">復盤</a></td><td>{{.BoardName}}</td><td>{{.Winner}}</td><td>{{clock .Started}}</td><td>{{.Fingerprint}}</td><td class="long">{{.Late}}</td>
<td>{{if eq .Decision "set_aside"}}已擱置{{if .DecisionNote}}（{{.DecisionNote}}）{{end}} {{end}}<form method="post" action="/game/{{.Hash}}/decide"><input type="hidden" name="csrf" value="{{$.CSRF}}">
併入第 <input name="round" size="3" placeholder="{{if $.HasRounds}}最近{{else}}下一{{end}}"> 輪・原因 <input name="note" size="12"> <button name="decision" value="accept">計分</button>
{{if ne .Decision "set_aside"}}<button name="decision" value="set_aside">擱置</button>{{end}}</form></td></tr>{{end}}
</table>{{end}}
<h2>賽果</h2>
{{range .Rounds}}<h3>第 {{.N}} 輪</h3>
<table><tr><th>桌</th><th>板子</th><th>結果</th><th>結束</th><th>指紋</th><th>簽章</th><th>復盤</th></tr>
{{range .Games}}<tr{{if .Void}} class="void"{{end}}><td>{{.Table}}</td><td>{{.BoardName}}</td><td>{{.Winner}}{{if .Void}} <span class="bad">已作廢：{{.Void}}</span>{{end}}</td><td>{{clock .Ended}}</td><td>{{.Fingerprint}}</td>
<td>{{if .SignatureOK}}<span class="ok">本桌金鑰 ✓</span>{{else}}<span class="bad">✗</span>{{end}}</td>
<td><a href="/game/{{.Hash}}">復盤</a>・<a href="/record/{{.Hash}}.wtj">日誌</a></td></tr>{{end}}
</table>{{else}}<p class="dim">還沒有收到賽果。</p>{{end}}
<h2>積分榜</h2>
<table><tr><th>名次</th><th>選手</th><th>積分</th><th>場數</th><th>勝</th><th>負</th><th>流局</th><th>MVP</th><th>SVP</th><th>扣分</th><th>警告</th></tr>
{{range .Standings}}<tr><td>{{if .DQ}}<span class="bad">取消資格</span>{{else}}{{if .Tied}}並列 {{end}}{{.Rank}}{{end}}</td><td>{{.Player}}{{if .PlayerID}} <span class="dim">{{.PlayerID}}</span>{{end}}</td><td>{{num .Points}}</td><td>{{.Games}}</td><td>{{.Wins}}</td><td>{{.Losses}}</td><td>{{.Voids}}</td><td>{{.MVP}}</td><td>{{.SVP}}</td><td>{{num .Penalty}}</td><td>{{if .Warnings}}{{.Warnings}}{{end}}</td></tr>
{{else}}<tr><td colspan="11" class="dim">沒有資料</td></tr>{{end}}
</table>
<h2>拒收的紀錄</h2>
{{if .Operator}}<p class="dim">登記了正確的公鑰（wolftable desk table rekey 桌名 --pubkey …）之後，可在此重新收錄留有內容的紀錄。</p>{{end}}
{{if .Refused}}<table><tr><th>時間</th><th>桌</th><th>主題</th><th>原因</th>{{if .Operator}}<th></th>{{end}}</tr>
{{range .Refused}}<tr><td>{{clock .At}}</td><td>{{.Table}}</td><td>{{.Subject}}</td><td class="bad long">{{.Reason}}</td>
{{if $.Operator}}<td>{{if .Readmitted}}<span class="ok">已重新收錄</span> <a href="/game/{{.Readmitted}}">復盤</a>{{else if .Kept}}<form method="post" action="/refused/{{.Digest}}/readmit"><input type="hidden" name="csrf" value="{{$.CSRF}}"><button>重新收錄</button></form>{{end}}</td>{{end}}</tr>{{end}}
</table>{{else}}<p class="dim">沒有。</p>{{end}}
</body></html>
`))

var reviewTmpl = template.Must(template.New("review").Funcs(funcs).Parse(head + `
<title>復盤・{{.Title}}</title></head><body>` + nav + `
<p><a href="/game/{{.Hash}}?format=md">Markdown</a>・<a href="/game/{{.Hash}}?format=json">JSON</a>・<a href="/record/{{.Hash}}.wtj">日誌檔</a></p>
{{with .Game}}{{if .Void}}<p class="bad void-note">本局已作廢（{{clock .VoidedAt}}）：{{.Void}}。不計入積分。</p>{{end}}
{{if .Late}}<p class="bad">{{if eq .Decision "accepted"}}晚到的紀錄，總台已併入第 {{.Round}} 輪{{else if eq .Decision "set_aside"}}晚到的紀錄，總台已擱置，不計分{{else}}晚到的紀錄，待總台決定，尚未計分{{end}}{{if .DecisionNote}}（{{.DecisionNote}}）{{end}}：{{.Late}}</p>{{end}}
{{if .Seats}}<h2>{{.Table}}{{if .Round}} 第 {{.Round}} 輪{{end}}・{{.BoardName}}・{{.Winner}}</h2>
<table><tr><th>座位</th><th>選手</th><th>角色</th><th>出局</th><th>扣分</th><th>獎項</th></tr>
{{range .Seats}}<tr><td>{{.Seat}}</td><td>{{.Player}}{{if .PlayerID}} <span class="dim">{{.PlayerID}}</span>{{end}}</td><td>{{.RoleName}}</td><td>{{if .Out}}出局{{else}}存活{{end}}</td>
<td>{{if .Penalty}}{{num .Penalty}}{{end}}</td><td>{{if eq .Seat $.Award.MVP}}MVP{{end}}{{if eq .Seat $.Award.SVP}}SVP{{end}}</td></tr>{{end}}
</table>{{end}}{{end}}
{{if .CSRF}}{{if .Game.Seats}}<form method="post" action="/game/{{.Hash}}/award">MVP <select name="mvp"><option value="0">（無）</option>{{range .Game.Seats}}<option value="{{.Seat}}"{{if eq .Seat $.Award.MVP}} selected{{end}}>{{.Seat}} 號 {{.Player}}</option>{{end}}</select>
・SVP <select name="svp"><option value="0">（無）</option>{{range .Game.Seats}}<option value="{{.Seat}}"{{if eq .Seat $.Award.SVP}} selected{{end}}>{{.Seat}} 號 {{.Player}}</option>{{end}}</select>
<input type="hidden" name="csrf" value="{{.CSRF}}"> <button>儲存</button></form>
{{if and .Game.Late (ne .Game.Decision "accepted")}}<form method="post" action="/game/{{.Hash}}/decide">晚到的紀錄：併入第 <input name="round" size="3" inputmode="numeric"> 輪・原因 <input name="note" size="16">
<input type="hidden" name="csrf" value="{{.CSRF}}"><input type="hidden" name="back" value="game"> <button name="decision" value="accept">計分</button>{{if ne .Game.Decision "set_aside"}} <button name="decision" value="set_aside">擱置</button>{{end}}</form>{{end}}
{{if not .Game.Void}}<form method="post" action="/game/{{.Hash}}/void">作廢本局，原因 <input name="reason" size="24" required placeholder="例：裁判失誤，重賽"><input type="hidden" name="csrf" value="{{.CSRF}}"> <button>作廢</button></form>{{end}}{{end}}{{end}}
{{if .Log}}<h2>總台紀錄</h2><ul>{{range .Log}}<li>{{clock .At}} {{.Text}}</li>{{end}}</ul>{{end}}
<pre>{{.Text}}</pre></body></html>
`))

var feedTmpl = template.Must(template.New("feed").Parse(head + `
<meta http-equiv="refresh" content="5">
<title>{{.Table}} 轉播</title></head><body class="feed">
<h1>{{.Table}}</h1>
<p>轉播延遲 {{.Delay}} 秒</p>
{{with .Status}}
<p>{{.BoardName}}　{{.PhaseWords}}{{if .Result}}　結果：{{.Result}}{{end}}</p>
<div>{{range .Seats}}<span class="seat{{if not .Lit}} off{{end}}{{if .Sheriff}} sheriff{{end}}">{{.N}}</span>{{end}}</div>
{{range .Exiles}}<p class="exile">{{.Words}}</p>{{end}}
{{range .Votes}}<h2>{{.Title}}</h2>{{range .Lines}}<p>{{.}}</p>{{end}}{{end}}
{{else}}<p>尚無畫面（還沒有比延遲更早的狀態）</p>{{end}}
</body></html>`))
