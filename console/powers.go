package console

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"wolftable/daemon"
	"wolftable/engine"
)

// The judge's powers: POST /api/judge/{name} with a JSON body.
//
//	pedal    {"press": "short" | "long" | "double"}
//	dq       {"seat": 7}                       點殺
//	penalty  {"seat": 7, "points": 0.5}        扣分
//	void     {}                                流局
//	undo     {}                                the last seat input of the step
//	repeat   {}                                say the last line again
//	pause    {}
//	resume   {}
//	seat     {"seat": 5, "action": "target", "target": 9}
//	         a seat's input entered by the judge (a broken key); action is
//	         target | up | down | wave | hand | boom
var powerNames = []string{"pedal", "dq", "penalty", "void", "undo", "repeat", "pause", "resume", "seat"}

const maxBody = 64 << 10

// requestError is a request the console refuses before the table sees it.
type requestError struct {
	status int
	code   string
	msg    string
}

func (e *requestError) Error() string { return "console: " + e.msg }

func badRequest(format string, a ...any) error {
	return &requestError{status: http.StatusBadRequest, code: "bad_request", msg: fmt.Sprintf(format, a...)}
}

var errNoGame = &requestError{status: http.StatusConflict, code: "no_game", msg: "沒有進行中的遊戲"}

// decodeBody reads exactly one JSON object with known fields; an empty body
// is {}.
func decodeBody(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("JSON 格式錯誤")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return badRequest("JSON 之後還有多餘的內容")
	}
	return nil
}

type seatRequest struct {
	Seat   int    `json:"seat"`
	Action string `json:"action"`
	Target int    `json:"target"`
}

type penaltyRequest struct {
	Seat   int     `json:"seat"`
	Points float64 `json:"points"`
}

type pedalRequest struct {
	Press string `json:"press"`
}

var actionByName = map[string]engine.Action{
	"target": engine.ActTarget, "up": engine.ActUp, "down": engine.ActDown,
	"wave": engine.ActWave, "hand": engine.ActHand, "boom": engine.ActBoom,
}

var pedalByName = map[string]engine.PedalPress{
	"short": engine.PedalShort, "long": engine.PedalLong, "double": engine.PedalDouble,
}

// parsePower turns a power's body into the engine input it stands for, for
// a game of players seats (0 = no game). Seats and targets are checked
// against the table; the rules are the engine's to check.
func parsePower(name string, body []byte, players int) (engine.Input, error) {
	if players <= 0 {
		return engine.Input{}, errNoGame
	}
	seatOK := func(n int) error {
		if n < 1 || n > players {
			return badRequest("座位 %d 不在 1..%d", n, players)
		}
		return nil
	}
	switch name {
	case "pedal":
		var req pedalRequest
		if err := decodeBody(body, &req); err != nil {
			return engine.Input{}, err
		}
		p, ok := pedalByName[req.Press]
		if !ok {
			return engine.Input{}, badRequest("press 要是 short、long 或 double")
		}
		return engine.Pedal(p), nil
	case "dq":
		var req struct {
			Seat int `json:"seat"`
		}
		if err := decodeBody(body, &req); err != nil {
			return engine.Input{}, err
		}
		if err := seatOK(req.Seat); err != nil {
			return engine.Input{}, err
		}
		return engine.Judge(engine.JudgeDQ, req.Seat, 0), nil
	case "penalty":
		var req penaltyRequest
		if err := decodeBody(body, &req); err != nil {
			return engine.Input{}, err
		}
		if err := seatOK(req.Seat); err != nil {
			return engine.Input{}, err
		}
		if math.IsNaN(req.Points) || req.Points < 0.5 || req.Points > 3 || req.Points*2 != math.Trunc(req.Points*2) {
			return engine.Input{}, badRequest("扣分要是 0.5 到 3，每 0.5 一級")
		}
		return engine.Judge(engine.JudgePenalty, req.Seat, req.Points), nil
	case "void", "undo", "repeat", "pause", "resume":
		var req struct{}
		if err := decodeBody(body, &req); err != nil {
			return engine.Input{}, err
		}
		c := map[string]engine.JudgeCommand{"void": engine.JudgeVoid, "undo": engine.JudgeUndo,
			"repeat": engine.JudgeRepeat, "pause": engine.JudgePause, "resume": engine.JudgeResume}[name]
		return engine.Judge(c, 0, 0), nil
	case "seat":
		var req seatRequest
		if err := decodeBody(body, &req); err != nil {
			return engine.Input{}, err
		}
		if err := seatOK(req.Seat); err != nil {
			return engine.Input{}, err
		}
		a, ok := actionByName[req.Action]
		if !ok {
			return engine.Input{}, badRequest("action 要是 target、up、down、wave、hand 或 boom")
		}
		if a != engine.ActTarget {
			return engine.SeatGesture(req.Seat, a), nil
		}
		if req.Target < 0 || req.Target > players {
			return engine.Input{}, badRequest("目標 %d 不在 0..%d", req.Target, players)
		}
		return engine.SeatTarget(req.Seat, req.Target), nil
	}
	return engine.Input{}, &requestError{status: http.StatusNotFound, code: "not_found", msg: "沒有這個功能"}
}

// source is how the journal names the judge's requests.
func source(r *http.Request) string { return "console:judge@" + r.RemoteAddr }

func (s *Server) postPower(name string) judgeHandler {
	return func(w http.ResponseWriter, r *http.Request, body []byte) {
		players, _ := s.running()
		if d := s.dealt.get(); d != nil && players == 0 && name == "pedal" {
			players = d.spec.Board.Players // the first game, dealt: the pedal starts it
		}
		in, err := parsePower(name, body, players)
		if err != nil {
			s.writeFailure(w, err)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		src := source(r)
		if ok, err := s.startDealt(ctx, in); ok {
			s.log.Info("console: judge power: the dealt game starts", "power", name, "source", src, "err", err)
			if err != nil {
				s.writeFailure(w, err)
				return
			}
			writeJSON(w, http.StatusOK, map[string]any{"ok": true, "version": s.judgeVersion(), "started": true})
			return
		}
		err = s.opt.Table.Submit(ctx, in, src)
		s.log.Info("console: judge power", "power", name, "input", describeInput(in), "source", src, "err", err)
		if err != nil {
			s.writeFailure(w, err)
			return
		}
		s.settle(ctx)
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "version": s.judgeVersion()})
	}
}

func (s *Server) judgeVersion() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.version
}

// writeFailure answers a refused request: 400-class for the request, 409
// when the game is not at a point that takes it, 422 when a rule refuses it.
// The body is the judge's words (script.Refusals for the engine's
// refusals); any other error is logged and answered with a short Chinese
// message, never its Go text (file paths, the daemon's internals).
func (s *Server) writeFailure(w http.ResponseWriter, err error) {
	var re *requestError
	var ee *engine.Error
	switch {
	case errors.As(err, &re):
		writeError(w, re.status, re.code, re.msg)
	case errors.As(err, &ee):
		status, code := http.StatusUnprocessableEntity, "rule"
		switch ee.Code {
		case engine.ErrNotNow, engine.ErrGameOver, engine.ErrPaused, engine.ErrUnknownTimer:
			status, code = http.StatusConflict, "not_now"
		}
		writeError(w, status, code, refusalText(ee))
	case errors.Is(err, daemon.ErrStopped):
		writeError(w, http.StatusConflict, "no_game", "遊戲已結束")
	case errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusGatewayTimeout, "timeout", "桌子沒有回應")
	default:
		s.log.Error("console: the table failed a request", "err", err)
		writeError(w, http.StatusBadGateway, "table", "桌子出錯，詳情見系統日誌")
	}
}

// startRequest is POST /api/judge/start:
//
//	{"board": "seer-witch-hunter-idiot",        id or name
//	 "options": {"witch.self_save": "first_night"},
//	 "deal": "random" | ["werewolf", "預言家", ...],   seat 1 first, then the bottom cards (底牌) if the board has any; id or name
//	 "seed": "123",                               optional: the engine's (and a random deal's) seed
//	 "replace": true}                             end a game still running
type startRequest struct {
	Board   string            `json:"board"`
	Options map[string]string `json:"options"`
	Deal    json.RawMessage   `json:"deal"`
	Seed    json.Number       `json:"seed"`
	Replace bool              `json:"replace"`
}

const maxOptions = 64

// parseStart checks a start request against the boards: the board exists
// the options are known and valid, a hand-entered deal is
// the board's composition. A random deal is drawn here (crypto/rand seed).
func parseStart(body []byte, all []*engine.Board) (GameSpec, bool, error) {
	var req startRequest
	if err := decodeBody(body, &req); err != nil {
		return GameSpec{}, false, err
	}
	var b *engine.Board
	name := strings.TrimSpace(req.Board)
	for _, x := range all {
		if x.ID == name || x.Name == name {
			c := *x
			c.Roles = append([]engine.Role(nil), x.Roles...)
			b = &c
			break
		}
	}
	if b == nil {
		return GameSpec{}, false, badRequest("沒有板子 %q", req.Board)
	}
	if len(req.Options) > maxOptions {
		return GameSpec{}, false, badRequest("選項太多")
	}
	for k, v := range req.Options {
		if err := b.Options.Set(k, v); err != nil {
			return GameSpec{}, false, badRequest("選項 %s=%s 無效", k, v)
		}
	}
	spec := GameSpec{Board: b}
	if req.Seed != "" {
		n, err := strconv.ParseUint(req.Seed.String(), 10, 64)
		if err != nil || n == 0 {
			return GameSpec{}, false, badRequest("seed 要是正整數")
		}
		spec.Seed = n
	} else {
		var buf [8]byte
		_, _ = rand.Read(buf[:])
		spec.Seed = binary.LittleEndian.Uint64(buf[:]) | 1
	}
	deal := bytes.TrimSpace(req.Deal)
	switch {
	case len(deal) == 0 || string(deal) == "null" || string(deal) == `"random"`:
		spec.Deal, spec.Bottom = engine.DealCards(b, spec.Seed)
	case deal[0] == '[':
		var names []string
		if err := json.Unmarshal(deal, &names); err != nil {
			return GameSpec{}, false, badRequest("deal 要是 \"random\" 或每個座位的身分")
		}
		if len(names) != len(b.Cards()) {
			if b.Bottom() > 0 {
				return GameSpec{}, false, badRequest("發牌有 %d 張牌，%s 要 %d 個座位加 %d 張底牌", len(names), b.Name, b.Players, b.Bottom())
			}
			return GameSpec{}, false, badRequest("發牌有 %d 個身分，%s 要 %d 個", len(names), b.Name, b.Players)
		}
		want := map[engine.Role]int{}
		cards := b.Cards()
		for _, r := range cards {
			want[r]++
		}
		for i, n := range names {
			ri, ok := engine.LookupRole(n)
			if !ok && i >= b.Players {
				return GameSpec{}, false, badRequest("第 %d 張底牌 %q 不認識", i-b.Players+1, n)
			}
			if !ok {
				return GameSpec{}, false, badRequest("%d號的身分 %q 不認識", i+1, n)
			}
			want[ri.ID]--
			if i >= b.Players {
				spec.Bottom = append(spec.Bottom, ri.ID)
				continue
			}
			spec.Deal = append(spec.Deal, ri.ID)
		}
		for _, r := range cards {
			if want[r] != 0 {
				return GameSpec{}, false, badRequest("發牌與 %s 的配置不符（%s）", b.Name, r.Name())
			}
		}
		spec.Manual = true
	default:
		return GameSpec{}, false, badRequest("deal 要是 \"random\" 或每個座位的身分")
	}
	if _, err := engine.New(spec.Config()); err != nil { // options the engine cannot play yet
		return GameSpec{}, false, badRequest("開局設定無效：%s", refusalText(err))
	}
	return spec, req.Replace, nil
}

func (s *Server) postStart(w http.ResponseWriter, r *http.Request, body []byte) {
	all, err := s.opt.Boards()
	if err != nil {
		s.log.Error("console: the boards cannot be read", "err", err)
		writeError(w, http.StatusInternalServerError, "boards", "讀不到板子資料，詳情見系統日誌")
		return
	}
	spec, replace, err := parseStart(body, all)
	if err == nil {
		err = seatsFit(spec.Board, s.opt.Seats)
	}
	if err == nil {
		err = s.drawInto(&spec) // the seat draw goes into the journal's header
	}
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	s.startMu.Lock()
	defer s.startMu.Unlock()
	s.settle(r.Context())
	if _, on := s.running(); on && !replace {
		writeError(w, http.StatusConflict, "running", "遊戲進行中：要結束它並開新局嗎？")
		return
	}
	g, err := engine.New(spec.Config())
	if err != nil {
		s.writeFailure(w, badRequest("開局設定無效：%s", refusalText(err)))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	src := source(r)
	err = s.opt.Table.StartGame(ctx, NewGame{Spec: spec, Game: g, OnEvent: s.Attach(spec, g)})
	s.log.Info("console: new game", "board", spec.Board.ID, "seed", spec.Seed, "manual", spec.Manual, "source", src, "err", err)
	if err != nil {
		s.noteStartFailure(err)
		s.writeFailure(w, err)
		return
	}
	s.drawUsed(spec)
	s.settle(ctx)
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "game": gameInfo(&spec, s.now())})
}

// BoardInfo is a board the judge may start: GET /api/judge/boards.
type BoardInfo struct {
	ID      string            `json:"id"`
	Name    string            `json:"name"`
	Players int               `json:"players"`
	Roles   []RoleInfo        `json:"roles"` // the composition
	Options map[string]string `json:"options"`
	// Venue marks the venue's own boards (game.boards_dir).
	Venue bool `json:"venue,omitempty"`
	// Fits is false for a board whose seat count is not the table's.
	Fits bool `json:"fits"`
}

// seatsFit refuses a board whose seat count is not the table's (seats 0 =
// any): the judge reads why.
func seatsFit(b *engine.Board, seats int) error {
	if seats == 0 || b.Players == seats {
		return nil
	}
	return badRequest("這張桌子有 %d 個座位，%s 是 %d 人局：請選 %d 人的板子（或由技術人員改設定檔的 [table] seats）", seats, b.Name, b.Players, seats)
}

// RoleInfo names a role.
type RoleInfo struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// OptionInfo documents an option key: its name and, for an option of a
// fixed set (on/off, an enum), its values in words (script.OptionName,
// script.OptionValueText), which the new-game form shows instead of the
// keys (optionInfo). Doc is the engine's English note, for programs.
type OptionInfo struct {
	Key    string         `json:"key"`
	Name   string         `json:"name"`
	Values []OptionChoice `json:"values,omitempty"`
	Doc    string         `json:"doc"`
}

func (s *Server) getBoards(w http.ResponseWriter, r *http.Request, _ []byte) {
	all, err := s.opt.Boards()
	if err != nil {
		s.log.Error("console: the boards cannot be read", "err", err)
		writeError(w, http.StatusInternalServerError, "boards", "讀不到板子資料，詳情見系統日誌")
		return
	}
	reply := struct {
		Boards  []BoardInfo  `json:"boards"`
		Options []OptionInfo `json:"options"`
	}{Boards: []BoardInfo{}, Options: []OptionInfo{}}
	for _, b := range all {
		bi := BoardInfo{ID: b.ID, Name: b.Name, Players: b.Players, Options: map[string]string{},
			Venue: s.opt.Venue != nil && s.opt.Venue(b.ID), Fits: s.opt.Seats == 0 || b.Players == s.opt.Seats}
		for _, r := range b.Cards() { // the cards of the deal: seats, then bottom cards
			bi.Roles = append(bi.Roles, RoleInfo{ID: string(r), Name: r.Name()})
		}
		for _, k := range engine.OptionNames() {
			if v, ok := b.Options.Get(k); ok {
				bi.Options[k] = v
			}
		}
		reply.Boards = append(reply.Boards, bi)
	}
	for _, k := range engine.OptionNames() {
		reply.Options = append(reply.Options, optionInfo(k))
	}
	writeJSON(w, http.StatusOK, reply)
}
