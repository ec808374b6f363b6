package console

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"wolftable/boards"
	"wolftable/daemon"
	"wolftable/engine"
	"wolftable/internal/jsonreply"
	"wolftable/internal/webguard"
)

//go:embed web
var webFS embed.FS

// Options configure New. Table is required; everything else has a default.
type Options struct {
	// Table starts games and takes the judge's inputs.
	Table Table
	// PINHash is console.pin_hash ("sha256:<hex>"). Empty: the hash kept in
	// StateDir (PINFile; a new one from NewPIN is taken at the next login),
	// or, when there is none yet, New draws a 6-digit PIN, stores its hash
	// there and GeneratedPIN returns it for the caller to show once. The
	// PIN is never logged.
	PINHash string
	// StateDir keeps the PIN's hash and the sessions (only the hashes of
	// their cookies), so that they survive a restart; "" = memory only.
	StateDir string
	// Speed is the daemon's timer speed (sim --speed); 0 = 1.
	Speed float64
	// SessionTTL is how long a judge stays logged in; 0 = 12 hours.
	SessionTTL time.Duration
	// Allow are the remote addresses served (every endpoint, pages too);
	// nil = DefaultAllow, the table's LAN. Others get 403.
	Allow []netip.Prefix
	// Log receives the console's log; nil = slog.Default().
	Log *slog.Logger
	// Now is the clock for sessions, the PIN throttle and the timers shown;
	// nil = time.Now. It should be the daemon's clock.
	Now func() time.Time
	// Boards lists the boards a game may be started on; nil = boards.All.
	Boards func() ([]*engine.Board, error)
	// Heartbeat is the live streams' keep-alive period; 0 = 15 s.
	Heartbeat time.Duration
	// Hosts are host names the console answers to (console.hosts) besides
	// localhost, the machine's host name and its addresses; a request for
	// any other Host gets 421 (DNS rebinding).
	Hosts []string
	// Seats is the table's seat count: a game on a board of another size
	// is refused (0 = any board).
	Seats int
	// Venue reports the venue's own boards (marked 本店 in the new-game
	// form); nil = none.
	Venue func(id string) bool
	// Studio serves the voice studio's API under /api/judge/voice/ (see
	// studio.go; audio/studio's Handler); nil = no studio (404).
	Studio http.Handler
	// Journals is the table's journals folder, for the judge's history
	// of games (history.go); "" = none (404).
	Journals string
	// Roster asks the desk for the table's players of the round (the seat
	// draw, draw_http.go); nil = no desk: the judge types the names.
	Roster func(ctx context.Context) (DeskRoster, error)
}

// Server is the judge console: an http.Handler serving the pages and the
// API, fed by the daemon's events through the function Attach returns.
type Server struct {
	opt   Options
	log   *slog.Logger
	now   func() time.Time
	speed float64
	auth  *auth
	mux   *http.ServeMux
	pin   string // generated this run ("" when configured)

	// the queue between the daemon's goroutine and the views
	qmu   sync.Mutex
	queue []item
	enq   uint64
	gen   uint64
	wake  chan struct{}

	mu      sync.RWMutex // guards the views
	judge   judgeModel
	public  publicModel
	applied uint64
	version uint64 // the judge's view: bumped by every batch of events
	// pubVersion is the public view's own version, bumped only when what
	// it shows changes: a hidden event (a wolf's press, a refused key, a
	// cue, a check) bumps nothing and wakes no public stream (A15).
	pubVersion uint64
	progress   chan struct{} // closed and replaced whenever applied moves

	hub       hub // the judge's live streams
	pubHub    hub // the public live streams
	streams   streamSlots
	conns     webguard.ConnCount
	lim       limits
	hosts     map[string]bool
	own       ownAddrs
	rejects   webguard.RejectLog
	startMu   sync.Mutex
	quit      chan struct{}
	closeOnce sync.Once
	wg        sync.WaitGroup
	onApplied atomic.Pointer[func()] // tests: after each batch is applied

	dealt dealtSlot // a dealt game waiting for the pedal (dealt.go)
	draws drawState // the seat draw for the next game (draw_http.go)

	studioChanges studioChanges // the studio's changes in flight, cancelled by a game's start (studio.go)
}

var _ http.Handler = (*Server)(nil)

type item struct {
	gen   uint64
	begin *GameSpec // a new game (Attach)
	at    time.Time
	ev    daemon.Event
	probe *probe
}

// New makes a console. Close it to end its live streams and its worker.
func New(opt Options) (*Server, error) {
	if opt.Table == nil {
		return nil, errors.New("console: a Table is required")
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Speed <= 0 {
		opt.Speed = 1
	}
	if opt.SessionTTL <= 0 {
		opt.SessionTTL = 12 * time.Hour
	}
	if opt.Allow == nil {
		opt.Allow = DefaultAllow()
	}
	if opt.Boards == nil {
		opt.Boards = boards.All
	}
	if opt.Heartbeat <= 0 {
		opt.Heartbeat = 15 * time.Second
	}
	s := &Server{opt: opt, log: opt.Log, now: opt.Now, speed: opt.Speed, wake: make(chan struct{}, 1),
		progress: make(chan struct{}), quit: make(chan struct{}), hub: hub{subs: map[chan struct{}]struct{}{}},
		pubHub: hub{subs: map[chan struct{}]struct{}{}}, lim: defaultLimits, hosts: hostNames(opt.Hosts)}
	s.rejects = webguard.RejectLog{Log: s.log, Every: time.Minute, Name: "console"}
	var hash [32]byte
	var gen, pinFile string
	var pinStat os.FileInfo
	switch {
	case opt.PINHash != "":
		h, err := parsePINHash(opt.PINHash)
		if err != nil {
			return nil, err
		}
		hash, gen = h, pinGeneration([]byte(strings.TrimSpace(opt.PINHash)))
	case opt.StateDir != "" && fileExists(PINFile(opt.StateDir)):
		pinFile = PINFile(opt.StateDir)
		pinStat, _ = os.Stat(pinFile)
		h, g, err := readPINFile(pinFile)
		if err != nil {
			return nil, pinFileError(pinFile, err)
		}
		hash, gen = h, g
	default:
		pin, err := generatePIN()
		if err != nil {
			return nil, err
		}
		s.pin = pin
		text := pinFileText(pin)
		hash, gen, _ = parsePINFile(text)
		if opt.StateDir != "" {
			if err := writeState(opt.StateDir, pinFileName, text); err != nil {
				s.log.Error("console: the new PIN's hash is not stored; the PIN holds for this run only", "err", err)
			} else {
				pinFile = PINFile(opt.StateDir)
				pinStat, _ = os.Stat(pinFile)
				s.log.Info("console: a judge's PIN was drawn and its hash stored", "file", pinFile)
			}
		}
	}
	s.auth = newAuth(hash, opt.SessionTTL, opt.Now)
	s.auth.log, s.auth.pinFile, s.auth.pinStat, s.auth.pinGen = s.log, pinFile, pinStat, gen
	if opt.StateDir != "" {
		s.auth.store = filepath.Join(opt.StateDir, sessionsFileName)
		s.auth.load()
	}
	s.routes()
	s.wg.Add(1)
	go s.work()
	return s, nil
}

// GeneratedPIN returns the PIN New drew when no hash was configured or
// stored, and its hash; ok is false when there was one.
func (s *Server) GeneratedPIN() (pin, hash string, ok bool) {
	if s.pin == "" {
		return "", "", false
	}
	return s.pin, HashPIN(s.pin), true
}

// PedalHeld tells the console that the judge held the table's pedal (a
// long press): for two minutes a login is not held by the throttle's
// global limit, and an address locked out by its own failures may still
// try three PINs (doc.go "Security"). The pedal is at the judge's feet;
// an attacker flooding the login from the LAN cannot press it.
func (s *Server) PedalHeld() {
	s.auth.openPresence()
	s.log.Info("console: pedal held: logins pass the throttle for a while", "for", presenceWindow)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Close ends the live streams and the worker. The handler still answers
// afterwards, from the last state.
func (s *Server) Close() error {
	s.closeOnce.Do(func() { close(s.quit) })
	s.rejects.Stop()
	s.wg.Wait()
	return nil
}

// Attach tells the console about a newly dealt game g (not started: the
// daemon's Run starts it) and returns the function to chain into that
// game's daemon.Config.OnEvent. The function runs on the daemon's
// goroutine: it reads what g waits for there, copies the event and hands
// it to the console's worker without blocking. Events of a game attached
// before are dropped from then on. g may be nil (no step shown).
func (s *Server) Attach(spec GameSpec, g *engine.Game) func(daemon.Event) {
	if spec.Board == nil {
		s.log.Error("console: Attach without a board; the game is not shown")
		return func(daemon.Event) {}
	}
	spec = spec.clone()
	s.dealt.set(nil) // a game is attached: nothing waits any more
	s.qmu.Lock()
	s.gen++
	gen := s.gen
	s.push(item{gen: gen, begin: &spec, at: s.now()})
	s.qmu.Unlock()
	if n := s.studioChanges.cancelAll(errGameStarted); n > 0 { // after the push: see studioAPI
		s.log.Warn("console: a game started: the studio's changes in flight are cancelled", "requests", n)
	}
	return func(e daemon.Event) {
		it := item{gen: gen, ev: copyEvent(e)}
		if g != nil {
			it.probe = takeProbe(g)
		}
		s.qmu.Lock()
		if gen == s.gen {
			s.push(it)
		}
		s.qmu.Unlock()
	}
}

// push queues an item; s.qmu is held. After Close nothing is queued.
func (s *Server) push(it item) {
	select {
	case <-s.quit:
		return
	default:
	}
	s.queue = append(s.queue, it)
	s.enq++
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func copyEvent(e daemon.Event) daemon.Event {
	c := e
	if e.Effect != nil {
		x := *e.Effect
		x.Args = append([]int(nil), e.Effect.Args...)
		if r := e.Effect.Record; r != nil {
			rc := *r
			if r.Ballots != nil {
				rc.Ballots = &engine.Ballots{Votes: append([]engine.Vote(nil), r.Ballots.Votes...),
					Tally: append([]engine.Tally(nil), r.Ballots.Tally...)}
			}
			x.Record = &rc
		}
		c.Effect = &x
	}
	if e.Input != nil {
		in := *e.Input
		c.Input = &in
	}
	if e.Link != nil {
		l := *e.Link
		c.Link = &l
	}
	return c
}

// work applies queued events to the views, then wakes the live streams.
func (s *Server) work() {
	defer s.wg.Done()
	for {
		select {
		case <-s.quit:
			return
		case <-s.wake:
		}
		s.qmu.Lock()
		batch, gen := s.queue, s.gen
		s.queue = nil
		s.qmu.Unlock()
		s.mu.Lock()
		public := false
		for _, it := range batch {
			if it.gen != gen {
				continue // a game replaced since
			}
			if it.begin != nil {
				s.judge.begin(*it.begin, it.at)
				s.public.begin(it.begin.Board)
				s.public.names = drawNames(it.begin.Draw, it.begin.Board.Players)
				public = true
				continue
			}
			s.judge.apply(it.ev, it.probe, s.speed)
			for _, f := range publicFacts(it.ev) {
				if s.public.apply(f, s.speed) {
					public = true
				}
			}
		}
		s.version++
		if public {
			s.pubVersion++
		}
		s.mu.Unlock()
		s.hub.notify()
		if public {
			s.pubHub.notify()
		}
		if f := s.onApplied.Load(); f != nil {
			(*f)()
		}
		// settle returns from here on: after the hook has seen the batch
		s.mu.Lock()
		s.applied += uint64(len(batch))
		close(s.progress)
		s.progress = make(chan struct{})
		s.mu.Unlock()
	}
}

// settle waits until everything queued so far is in the views.
func (s *Server) settle(ctx context.Context) {
	s.qmu.Lock()
	target := s.enq
	s.qmu.Unlock()
	for {
		s.mu.RLock()
		done, ch := s.applied >= target, s.progress
		s.mu.RUnlock()
		if done {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		case <-s.quit:
			return
		}
	}
}

// noteStartFailure shows the judge why the game did not start.
func (s *Server) noteStartFailure(err error) {
	s.settle(context.Background())
	s.mu.Lock()
	s.log.Error("console: the game did not start", "err", err)
	s.judge.notice = "開局失敗：" + refusalText(err)
	public := s.public.notice != "等待開局"
	s.public.notice = "等待開局"
	s.version++
	if public {
		s.pubVersion++
	}
	s.mu.Unlock()
	s.hub.notify()
	if public {
		s.pubHub.notify()
	}
}

func (s *Server) publicState() PublicState {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := s.public.state(s.now(), s.speed)
	st.Version = s.pubVersion
	return st
}

func (s *Server) judgeState() JudgeState {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := s.judge.state(s.now(), s.speed)
	st.Version = s.version
	st.Dealt = s.dealtInfo()
	return st
}

// running reports the current game's seat count and whether it is still on.
func (s *Server) running() (players int, on bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.judge.spec == nil {
		return 0, false
	}
	return s.judge.spec.Board.Players, !s.judge.over
}

// The routes. Every /api/judge/ endpoint needs a session; every POST there
// also the CSRF token (judgeRoutes lists them for the security tests).

type judgeHandler func(w http.ResponseWriter, r *http.Request, body []byte)

type route struct {
	method, path string
	h            judgeHandler
}

func (s *Server) judgeRoutes() []route {
	rs := []route{
		{"GET", "/api/judge/session", s.getSession},
		{"GET", "/api/judge/state", s.getJudgeState},
		{"GET", "/api/judge/events", s.judgeEvents},
		{"GET", "/api/judge/boards", s.getBoards},
		{"GET", "/api/judge/record", s.getRecord},
		{"GET", "/api/judge/history", s.getHistory},
		{"GET", "/api/judge/history/{name}", s.getHistoryGame},
		{"POST", "/api/judge/logout", s.postLogout},
		{"POST", "/api/judge/start", s.postStart},
	}
	for _, p := range powerNames {
		rs = append(rs, route{"POST", "/api/judge/" + p, s.postPower(p)})
	}
	return append(rs, s.drawRoutes()...)
}

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /api/public/state", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.publicState())
	})
	m.HandleFunc("GET /api/public/events", s.publicEvents)
	m.HandleFunc("POST /api/login", s.postLogin)
	for _, rt := range s.judgeRoutes() {
		m.Handle(rt.method+" "+rt.path, s.judgeOnly(rt.method, rt.h))
	}
	m.Handle("/api/judge/voice/", s.studioAPI())
	m.Handle("/api/judge/", s.judgeOnly("", func(w http.ResponseWriter, r *http.Request, _ []byte) {
		writeError(w, http.StatusNotFound, "not_found", "沒有這個功能")
	}))
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "沒有這個功能")
	})
	pages := map[string]string{"/{$}": "web/index.html", "/judge": "web/judge.html", "/deal": "web/deal.html", "/studio": "web/studio.html", "/history": "web/history.html", "/draw": "web/draw.html"}
	for path, file := range pages {
		m.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
			b, err := webFS.ReadFile(file)
			if err != nil {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			_, _ = w.Write(b)
		})
	}
	static, _ := fs.Sub(webFS, "web/static")
	m.Handle("GET /static/", http.StripPrefix("/static/", staticFiles(static)))
	s.mux = m
}

// ServeHTTP serves the table's LAN only, with strict security headers.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	webguard.SecurityHeaders(w.Header())
	if r.TLS != nil {
		w.Header().Set("Strict-Transport-Security", hstsValue)
	}
	ip, ok := remoteIP(r)
	if !ok || !allowed(s.opt.Allow, ip) {
		writeError(w, http.StatusForbidden, "not_lan", "只服務本桌的區域網路")
		return
	}
	if !s.hostOK(r) {
		writeError(w, http.StatusMisdirectedRequest, "host", "網址不是本桌主控台的位址")
		return
	}
	s.mux.ServeHTTP(w, r)
}

// judged checks the session (401) and, for a request that changes
// something, the origin and the CSRF token (403); false when it has
// answered.
func (s *Server) judged(w http.ResponseWriter, r *http.Request) bool {
	w.Header().Set("Cache-Control", "no-store")
	sess, ok := s.auth.session(r)
	if !ok {
		clearCookie(w, r)
		writeError(w, http.StatusUnauthorized, "login", "請先登入")
		return false
	}
	if changes(r) && (!sameOrigin(r) || !csrfOK(sess, r)) {
		writeError(w, http.StatusForbidden, "csrf", "CSRF 驗證失敗，請重新整理頁面")
		return false
	}
	return true
}

// changes reports a request that may change something (not GET or HEAD).
func changes(r *http.Request) bool { return r.Method != http.MethodGet && r.Method != http.MethodHead }

// judgeOnly checks the session (401), then for a POST the origin and the
// CSRF token (403) and the JSON body (415, 413), in that order.
func (s *Server) judgeOnly(method string, h judgeHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.judged(w, r) {
			return
		}
		var body []byte
		if changes(r) {
			if method == "" {
				h(w, r, nil) // unknown endpoint
				return
			}
			if !isJSON(r) {
				writeError(w, http.StatusUnsupportedMediaType, "content_type", "需要 application/json")
				return
			}
			b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
			if err != nil {
				writeError(w, http.StatusRequestEntityTooLarge, "too_large", "請求太大")
				return
			}
			body = b
		}
		h(w, r, body)
	})
}

func isJSON(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "application/json"
}

func clearCookie(w http.ResponseWriter, r *http.Request) {
	if _, err := r.Cookie(sessionCookie); err == nil {
		http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
			SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	}
}

type loginRequest struct {
	PIN string `json:"pin"`
}

type sessionReply struct {
	CSRF    string    `json:"csrf"`
	Expires time.Time `json:"expires"`
}

func (s *Server) postLogin(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if !sameOrigin(r) {
		writeError(w, http.StatusForbidden, "origin", "來源不符")
		return
	}
	if !isJSON(r) {
		writeError(w, http.StatusUnsupportedMediaType, "content_type", "需要 application/json")
		return
	}
	ip, _ := remoteIP(r)
	if wait := s.auth.admit(ip); wait > 0 {
		secs := int((wait + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		s.rejects.Note(false, r.RemoteAddr, ip)
		writeError(w, http.StatusTooManyRequests, "throttled", fmt.Sprintf("嘗試太多次，請 %d 秒後再試", secs))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4<<10))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", "請求太大")
		return
	}
	var req loginRequest
	if err := decodeBody(body, &req); err != nil || req.PIN == "" || len(req.PIN) > maxPINLen {
		writeError(w, http.StatusBadRequest, "bad_request", "請輸入 PIN")
		return
	}
	if !s.auth.check(ip, req.PIN) {
		s.rejects.Note(true, r.RemoteAddr, ip)
		writeError(w, http.StatusUnauthorized, "pin", "PIN 錯誤")
		return
	}
	token, sess := s.auth.newSession(r.RemoteAddr, r.TLS != nil)
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: token, Path: "/", MaxAge: int(s.opt.SessionTTL / time.Second),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	s.log.Info("console: judge logged in", "remote", r.RemoteAddr)
	writeJSON(w, http.StatusOK, sessionReply{CSRF: sess.csrf, Expires: sess.expires})
}

func (s *Server) postLogout(w http.ResponseWriter, r *http.Request, _ []byte) {
	s.auth.logout(r)
	clearCookie(w, r)
	s.log.Info("console: judge logged out", "remote", r.RemoteAddr)
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request, _ []byte) {
	sess, ok := s.auth.session(r)
	if !ok { // expired since judgeOnly looked
		writeError(w, http.StatusUnauthorized, "login", "請先登入")
		return
	}
	writeJSON(w, http.StatusOK, sessionReply{CSRF: sess.csrf, Expires: sess.expires})
}

func (s *Server) getJudgeState(w http.ResponseWriter, r *http.Request, _ []byte) {
	writeJSON(w, http.StatusOK, s.judgeState())
}

type errorReply = jsonreply.Error

func writeJSON(w http.ResponseWriter, status int, v any) { jsonreply.Write(w, status, v) }

func writeError(w http.ResponseWriter, status int, code, msg string) {
	jsonreply.Refuse(w, status, code, msg)
}
