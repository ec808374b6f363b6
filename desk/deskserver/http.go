package deskserver

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"wolftable/desk"
	"wolftable/internal/webguard"
)

func sortByName[T any](l []T, name func(T) string) {
	sort.Slice(l, func(i, j int) bool { return name(l[i]) < name(l[j]) })
}

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
	// Void is why the organiser voided the game ("": counted).
	Void string `json:"void,omitempty"`
	// MVPPlayer and SVPPlayer name the awarded seats' players.
	MVPPlayer string `json:"mvp_player,omitempty"`
	SVPPlayer string `json:"svp_player,omitempty"`
}

// seatName is the player of a game's seat ("" for none).
func seatName(g desk.Game, seat int) string {
	for _, s := range g.Seats {
		if s.Seat == seat && seat > 0 {
			return s.Player
		}
	}
	return ""
}

// Standings are the standings under the desk's pack.
func (d *Desk) Standings() []desk.Row { return d.Store.Standings(d.pack) }

// Handler is the desk's web: the page (/), each game's 復盤
// (/game/<hash>), the record itself (/record/<hash>.wtj), and read-only
// JSON and CSV: /api/public/games, /api/public/standings,
// /api/public/tables (as late as the feed), /api/public/refused,
// /games.csv, /standings.csv; the operator's live view /api/desk/tables.
// Every answer carries the console's security headers; a request body is
// bounded.
func (d *Desk) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(staticFS())))
	mux.HandleFunc("GET /api/desk/tables", d.operatorOnly(func(w http.ResponseWriter, r *http.Request) { writeJSON(w, d.Tables()) }))
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
	mux.HandleFunc("GET /api/public/tables", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, d.PublicTables(time.Now())) })
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
	mux.HandleFunc("POST /game/{hash}/decide", d.guard(d.decidePost))
	mux.HandleFunc("GET /api/public/feed/{table}", d.feedJSON)
	mux.HandleFunc("GET /feed/{table}", d.feedPage)
	mux.HandleFunc("GET /players", d.playersPage)
	mux.HandleFunc("GET /log", func(w http.ResponseWriter, r *http.Request) {
		if _, ok := d.op.session(r); !ok {
			d.fail(w, r, http.StatusUnauthorized, "請先登入總台", "總台紀錄只給登入的總台看。", "/")
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		d.logPage(w, r)
	})
	mux.HandleFunc("POST /players", d.guard(d.playerPost))
	mux.HandleFunc("POST /players/import", d.importBounded(d.guard(d.playerImport)))
	mux.HandleFunc("POST /players/{id}/remove", d.guard(d.playerRemove))
	mux.HandleFunc("POST /players/{id}/sanction", d.guard(d.sanctionPost))
	mux.HandleFunc("POST /discipline/{n}/revoke", d.guard(d.revokePost))
	mux.HandleFunc("GET /rounds", d.roundsPage)
	mux.HandleFunc("POST /rounds", d.guard(d.roundOpenPost))
	mux.HandleFunc("POST /rounds/{n}/close", d.guard(d.roundClosePost))
	mux.HandleFunc("GET /rounds/{n}/plan", d.planPage)
	mux.HandleFunc("POST /rounds/{n}/plan", d.guard(d.planPost))
	mux.HandleFunc("POST /game/{hash}/void", d.guard(d.voidPost))
	mux.HandleFunc("POST /refused/{digest}/readmit", d.guard(d.readmitPost))
	mux.HandleFunc("GET /screen", d.screenPage)
	mux.HandleFunc("GET /screen/events", d.screenEvents)
	mux.HandleFunc("GET /games.csv", d.gamesCSV)
	mux.HandleFunc("GET /standings.csv", d.standingsCSV)
	mux.HandleFunc("GET /seats.csv", d.seatsCSV)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		webguard.SecurityHeaders(w.Header())
		if r.Body != nil {
			limit := int64(maxForm)
			if r.URL.Path == "/players/import" {
				limit = maxImport + maxForm
			}
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		mux.ServeHTTP(w, r)
	})
}

// maxForm bounds a request's body (a login, an award, a decision).
const maxForm = 16 << 10

// operatorOnly answers 401 without the operator's session.
func (d *Desk) operatorOnly(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if _, ok := d.op.session(r); !ok {
			http.Error(w, "請先登入總台 / log in first", http.StatusUnauthorized)
			return
		}
		h(w, r)
	}
}

func (d *Desk) publicGames() []PublicGame {
	out := []PublicGame{}
	for _, g := range d.Store.Games() {
		out = append(out, PublicGame{Table: g.Table, Round: g.Round, Game: g.GameID, Board: g.Board, BoardName: g.BoardName, Winner: g.Winner,
			Hash: g.Hash, Fingerprint: g.Fingerprint, SignatureOK: g.SignatureOK, Started: g.Started, Ended: g.Ended, MVP: g.MVP, SVP: g.SVP, Void: g.Void,
			MVPPlayer: seatName(g, g.MVP), SVPPlayer: seatName(g, g.SVP)})
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
	rows := [][]string{{"桌", "輪次", "對局編號", "板子代號", "板子", "結果", "開局", "結束", "紀錄雜湊", "指紋", "簽章有效", "MVP 座位", "MVP", "SVP 座位", "SVP", "作廢原因"}}
	yes := map[bool]string{true: "是", false: "否"}
	seat := func(n int) string {
		if n == 0 {
			return ""
		}
		return strconv.Itoa(n)
	}
	for _, g := range d.publicGames() {
		rows = append(rows, []string{g.Table, strconv.Itoa(g.Round), g.Game, g.Board, g.BoardName, g.Winner, g.Started.Format(time.RFC3339), g.Ended.Format(time.RFC3339),
			g.Hash, g.Fingerprint, yes[g.SignatureOK], seat(g.MVP), g.MVPPlayer, seat(g.SVP), g.SVPPlayer, g.Void})
	}
	csvOut(w, "games.csv", rows)
}

// seatsCSV is every seat of every counted game, by player: what each
// player played and how it ended (voided games marked).
func (d *Desk) seatsCSV(w http.ResponseWriter, r *http.Request) {
	rows := [][]string{{"輪次", "桌", "對局編號", "座位", "選手編號", "選手", "角色", "陣營", "勝負", "出局", "裁判扣分", "獎項", "作廢原因", "指紋"}}
	sides := map[string]string{"好人": "好人", "狼人": "狼人", "第三方": "第三方"}
	for _, g := range d.Store.Games() {
		for _, s := range g.Seats {
			side := s.Side
			if side == "" {
				side = map[string]string{"villager": "好人", "god": "好人", "wolf": "狼人"}[s.Camp]
				if side == "" {
					side = "第三方"
				}
			}
			res := "負"
			switch {
			case g.Winner == "流局":
				res = "流局"
			case sides[g.Winner] == side:
				res = "勝"
			}
			award := ""
			if g.MVP == s.Seat {
				award = "MVP"
			} else if g.SVP == s.Seat {
				award = "SVP"
			}
			out := "否"
			if s.Out {
				out = "是"
			}
			pen := ""
			if s.Penalty != 0 {
				pen = num(s.Penalty)
			}
			rows = append(rows, []string{strconv.Itoa(g.Round), g.Table, g.GameID, strconv.Itoa(s.Seat), s.PlayerID, s.Player, s.RoleName, side, res, out, pen, award, g.Void, g.Fingerprint})
		}
	}
	csvOut(w, "seats.csv", rows)
}

func (d *Desk) standingsCSV(w http.ResponseWriter, r *http.Request) {
	rows := [][]string{{"名次", "選手編號", "選手", "積分", "場數", "勝", "負", "流局", "MVP", "SVP", "扣分", "警告"}}
	for _, s := range d.Standings() {
		rank := strconv.Itoa(s.Rank)
		if s.Tied {
			rank = "並列 " + rank
		}
		if s.DQ {
			rank = "取消資格"
		}
		rows = append(rows, []string{rank, s.PlayerID, s.Player, num(s.Points), strconv.Itoa(s.Games), strconv.Itoa(s.Wins), strconv.Itoa(s.Losses),
			strconv.Itoa(s.Voids), strconv.Itoa(s.MVP), strconv.Itoa(s.SVP), num(s.Penalty), strconv.Itoa(s.Warnings)})
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
		d.fail(w, r, http.StatusNotFound, "找不到對局：", "總台沒有這局的紀錄", "/")
		return
	}
	if format != "text" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, text)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	g, _ := d.Store.Game(hash)
	log, _ := d.Store.LogEntries(hash)
	v := struct {
		Hash, Text, CSRF, Title string
		Award                   desk.Award
		Game                    desk.Game
		Log                     []desk.LogEntry
	}{Hash: hash, Text: text, Title: d.title(), Game: g, Award: desk.Award{MVP: g.MVP, SVP: g.SVP}, Log: log}
	if cookie, ok := d.op.session(r); ok {
		v.CSRF = d.op.csrf(cookie)
		w.Header().Set("Cache-Control", "no-store")
	}
	if err := reviewTmpl.Execute(w, v); err != nil {
		d.log.Warn("desk: review page", "err", err)
	}
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
