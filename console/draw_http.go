package console

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"wolftable/journal"
)

// The seat draw's endpoints (judge only; every POST with the CSRF token):
//
//	GET  /api/judge/draw          the roster, the draw for the next game, the running game's draw
//	POST /api/judge/draw/roster   {"from":"desk"} the desk's roster, or {"text":"…"} typed names
//	POST /api/judge/draw          {} 抽座位 at random, or {"seats":[…]} as the players drew (manual)
//	POST /api/judge/draw/clear    forget the roster and the draw
//
// The draw is for the next game: the judge's 開局 (POST /api/judge/start)
// and the dealt game's start (serve's TakeDraw) carry it into the game's
// journal header, where it is signed. While a game runs, the draw is
// refused: the seats are drawn before the game.

// DeskRoster is the desk's answer to the table's roster question: the
// open round and the table's players, or Reason (Chinese) and none.
type DeskRoster struct {
	Round   int
	Players []Player
	Reason  string
}

// drawState is the roster and the draw waiting for the next game.
type drawState struct {
	mu     sync.Mutex
	roster []Player
	from   string // "desk" or "typed"
	round  int    // the desk's round (0: typed)
	draw   []journal.Drawn
	manual bool
}

// DrawView is GET /api/judge/draw.
type DrawView struct {
	Seats   int             `json:"seats"`            // the seats the next game has (0: not known yet)
	Desk    bool            `json:"desk"`             // a desk is configured
	Roster  []Player        `json:"roster"`           // the players of the next game
	From    string          `json:"from,omitempty"`   // "desk" or "typed"
	Round   int             `json:"round,omitempty"`  // the desk's round
	Draw    []journal.Drawn `json:"draw"`             // the next game's draw, by seat (none yet: empty)
	Manual  bool            `json:"manual,omitempty"` // the draw was entered as drawn on paper
	Started bool            `json:"started"`          // a game runs: no draw until it ends
	Game    []journal.Drawn `json:"game"`             // the current (or last) game's draw, by seat
	Notice  string          `json:"notice,omitempty"` // the draw is not for the board dealt
}

func (s *Server) drawRoutes() []route {
	return []route{
		{"GET", "/api/judge/draw", s.getDraw},
		{"POST", "/api/judge/draw/roster", s.postRoster},
		{"POST", "/api/judge/draw", s.postDraw},
		{"POST", "/api/judge/draw/clear", s.postDrawClear},
	}
}

// drawSeats is the next game's seat count: the table's, else the dealt
// game's, else the last game's (0: not known).
func (s *Server) drawSeats() int {
	if s.opt.Seats > 0 {
		return s.opt.Seats
	}
	if d := s.dealt.get(); d != nil {
		return d.spec.Board.Players
	}
	players, _ := s.running()
	return players
}

func (s *Server) drawView() DrawView {
	v := DrawView{Seats: s.drawSeats(), Desk: s.opt.Roster != nil, Roster: []Player{}, Draw: []journal.Drawn{}, Game: []journal.Drawn{}}
	s.mu.RLock()
	if sp := s.judge.spec; sp != nil {
		v.Game = append(v.Game, sp.Draw...)
		v.Started = !s.judge.over
	}
	s.mu.RUnlock()
	s.draws.mu.Lock()
	defer s.draws.mu.Unlock()
	v.Roster = append(v.Roster, s.draws.roster...)
	v.From, v.Round, v.Manual = s.draws.from, s.draws.round, s.draws.manual
	v.Draw = append(v.Draw, s.draws.draw...)
	if n := len(v.Draw); n > 0 && v.Seats > 0 && n != v.Seats {
		v.Notice = fmt.Sprintf("抽籤是 %d 人，這局是 %d 人局：請重新輸入名單", n, v.Seats)
	}
	return v
}

func (s *Server) getDraw(w http.ResponseWriter, r *http.Request, _ []byte) {
	writeJSON(w, http.StatusOK, s.drawView())
}

var errDrawStarted = &requestError{status: http.StatusConflict, code: "started", msg: "遊戲已開始：座位要在開局前抽（本局結束後再抽下一局）"}

// drawOpen refuses a change to the draw while a game runs.
func (s *Server) drawOpen(ctx context.Context) error {
	s.settle(ctx)
	if _, on := s.running(); on {
		return errDrawStarted
	}
	return nil
}

type rosterRequest struct {
	From string `json:"from"` // "desk" or "" (typed)
	Text string `json:"text"` // the typed names, one a line
}

func (s *Server) postRoster(w http.ResponseWriter, r *http.Request, body []byte) {
	var req rosterRequest
	err := decodeBody(body, &req)
	if err == nil {
		err = s.drawOpen(r.Context())
	}
	var roster []Player
	round, from := 0, "typed"
	if err == nil {
		switch req.From {
		case "desk":
			from = "desk"
			roster, round, err = s.deskRoster(r.Context())
		case "":
			roster, err = ParseRoster(req.Text)
			if err != nil {
				err = badRequest("%s", err.Error())
			}
		default:
			err = badRequest("from 要是 \"desk\" 或不填（輸入名單）")
		}
	}
	if err == nil {
		err = s.checkCount(roster)
	}
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	s.draws.mu.Lock()
	s.draws.roster, s.draws.from, s.draws.round, s.draws.draw, s.draws.manual = roster, from, round, nil, false
	s.draws.mu.Unlock()
	s.log.Info("console: the draw's roster", "from", from, "round", round, "players", len(roster), "source", source(r))
	writeJSON(w, http.StatusOK, s.drawView())
}

// checkCount refuses a roster that is not the next game's seat count.
func (s *Server) checkCount(roster []Player) error {
	n := s.drawSeats()
	if n == 0 {
		n = len(roster)
	}
	if err := checkRoster(roster, n); err != nil {
		return badRequest("%s", err.Error())
	}
	return nil
}

// deskRoster asks the desk for the table's roster; when it is away or has
// no locked plan, the judge types the names.
func (s *Server) deskRoster(ctx context.Context) ([]Player, int, error) {
	if s.opt.Roster == nil {
		return nil, 0, &requestError{status: http.StatusConflict, code: "no_desk", msg: "本桌沒有設定總台：請在下面輸入選手名單"}
	}
	ctx, cancel := context.WithTimeout(ctx, 8*time.Second)
	defer cancel()
	ro, err := s.opt.Roster(ctx)
	if err != nil {
		s.log.Warn("console: the desk's roster", "err", err)
		return nil, 0, &requestError{status: http.StatusBadGateway, code: "desk_away", msg: "連不上總台，拿不到名單：請在下面輸入選手名單"}
	}
	if len(ro.Players) == 0 {
		reason := ro.Reason
		if reason == "" {
			reason = "總台沒有本桌的名單"
		}
		return nil, ro.Round, &requestError{status: http.StatusConflict, code: "no_plan", msg: reason + "：請在下面輸入選手名單"}
	}
	return ro.Players, ro.Round, nil
}

type drawRequest struct {
	Seats []int `json:"seats"` // Seats[i] is the seat roster[i] drew; none: drawn at random
}

func (s *Server) postDraw(w http.ResponseWriter, r *http.Request, body []byte) {
	var req drawRequest
	err := decodeBody(body, &req)
	if err == nil {
		err = s.drawOpen(r.Context())
	}
	s.draws.mu.Lock()
	roster := append([]Player(nil), s.draws.roster...)
	s.draws.mu.Unlock()
	if err == nil && len(roster) == 0 {
		err = &requestError{status: http.StatusConflict, code: "no_roster", msg: "還沒有選手名單：請先向總台取得，或輸入名單"}
	}
	if err == nil {
		err = s.checkCount(roster)
	}
	var d []journal.Drawn
	manual := req.Seats != nil
	if err == nil {
		if manual {
			d, err = ManualDraw(roster, req.Seats)
		} else {
			d, err = RandomDraw(roster)
		}
		if err != nil {
			err = badRequest("%s", err.Error())
		}
	}
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	s.draws.mu.Lock()
	s.draws.draw, s.draws.manual = d, manual
	s.draws.mu.Unlock()
	s.log.Info("console: seats drawn", "manual", manual, "players", len(d), "source", source(r))
	s.bump()
	writeJSON(w, http.StatusOK, s.drawView())
}

func (s *Server) postDrawClear(w http.ResponseWriter, r *http.Request, _ []byte) {
	if err := s.drawOpen(r.Context()); err != nil {
		s.writeFailure(w, err)
		return
	}
	s.draws.mu.Lock()
	s.draws.roster, s.draws.from, s.draws.round, s.draws.draw, s.draws.manual = nil, "", 0, nil, false
	s.draws.mu.Unlock()
	s.bump()
	writeJSON(w, http.StatusOK, s.drawView())
}

// bump wakes the judge's live streams (the page reloads the draw).
func (s *Server) bump() {
	s.mu.Lock()
	s.version++
	s.mu.Unlock()
	s.hub.notify()
}

// drawInto puts the waiting draw into a game the judge starts: refused
// when it is not for the board's seat count.
func (s *Server) drawInto(spec *GameSpec) error {
	s.draws.mu.Lock()
	defer s.draws.mu.Unlock()
	if len(s.draws.draw) == 0 {
		return nil
	}
	if n := len(s.draws.draw); n != spec.Board.Players {
		return badRequest("抽好的座位是 %d 人，%s 是 %d 人局：請重新輸入名單、抽座位", n, spec.Board.Name, spec.Board.Players)
	}
	spec.Draw, spec.DrawManual = append([]journal.Drawn(nil), s.draws.draw...), s.draws.manual
	return nil
}

// drawUsed forgets the draw a game started with: the next game is drawn
// again (the roster stays).
func (s *Server) drawUsed(spec GameSpec) {
	if len(spec.Draw) == 0 {
		return
	}
	s.draws.mu.Lock()
	s.draws.draw, s.draws.manual = nil, false
	s.draws.mu.Unlock()
}

// ErrDrawSize is TakeDraw's error for a draw not of the game's seats.
var ErrDrawSize = errors.New("console: the seat draw is not for this game's seats")

// TakeDraw hands the waiting draw to the dealt game of players seats that
// starts now (serve writes it into that game's journal header) and forgets
// it; none waiting: nil. A draw of another size is kept and refused.
func (s *Server) TakeDraw(players int) ([]journal.Drawn, bool, error) {
	s.draws.mu.Lock()
	defer s.draws.mu.Unlock()
	d, manual := s.draws.draw, s.draws.manual
	if len(d) == 0 {
		return nil, false, nil
	}
	if len(d) != players {
		return nil, false, fmt.Errorf("%w: %d drawn, %d seats", ErrDrawSize, len(d), players)
	}
	s.draws.draw, s.draws.manual = nil, false
	return append([]journal.Drawn(nil), d...), manual, nil
}

// drawNames are the names of a draw by seat, for a board of players seats
// (none when there is no draw, or it is not the board's).
func drawNames(d []journal.Drawn, players int) []string {
	if len(d) != players {
		return nil
	}
	out := make([]string, players)
	for i, x := range d {
		out[i] = x.Name
	}
	return out
}
