package console

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"wolftable/boards"
	"wolftable/engine"
)

// FuzzPowerInputInRange: whatever the body, parsePower never panics, and an
// input it accepts is well-formed for the table: seats and targets in range,
// known actions, pedal presses and commands, penalties in half points.
func FuzzPowerInputInRange(f *testing.F) {
	for _, s := range []struct {
		name, body string
		players    int
	}{
		{"seat", `{"seat":5,"action":"target","target":9}`, 12},
		{"seat", `{"seat":5,"action":"wave"}`, 12},
		{"seat", `{"seat":0,"action":"target","target":9}`, 12},
		{"seat", `{"seat":5,"action":"target","target":-1}`, 12},
		{"seat", `{"seat":5,"action":"boom","target":99}`, 12},
		{"dq", `{"seat":12}`, 12},
		{"dq", `{"seat":1e9}`, 12},
		{"penalty", `{"seat":3,"points":0.5}`, 12},
		{"penalty", `{"seat":3,"points":0.3}`, 12},
		{"penalty", `{"seat":3,"points":1e308}`, 12},
		{"pedal", `{"press":"short"}`, 12},
		{"pedal", `{"press":"triple"}`, 12},
		{"undo", ``, 12},
		{"void", `{} {}`, 12},
		{"pause", `{"x":1}`, 12},
		{"resume", `[]`, 12},
		{"repeat", `null`, 12},
		{"seat", `{"seat":5,"action":"target","target":9}`, 0},
		{"nothing", `{}`, 12},
	} {
		f.Add(s.name, []byte(s.body), s.players)
	}
	f.Fuzz(func(t *testing.T, name string, body []byte, players int) {
		players = ((players % 19) + 19) % 19
		in, err := parsePower(name, body, players)
		if err != nil {
			var re *requestError
			if !errors.As(err, &re) || re.status < 400 || re.status > 499 {
				t.Fatalf("error %v is not a request error", err)
			}
			return
		}
		seatOK := func(n int) bool { return n >= 1 && n <= players }
		switch in.Kind {
		case engine.InSeat:
			if !seatOK(in.Seat) || in.Action < engine.ActTarget || in.Action > engine.ActBoom || in.Target < 0 || in.Target > players {
				t.Fatalf("seat input out of range: %+v (players %d)", in, players)
			}
		case engine.InPedal:
			if in.Pedal < engine.PedalShort || in.Pedal > engine.PedalDouble {
				t.Fatalf("pedal %+v", in)
			}
		case engine.InJudge:
			switch in.Judge {
			case engine.JudgeDQ:
				if !seatOK(in.Seat) {
					t.Fatalf("DQ %+v", in)
				}
			case engine.JudgePenalty:
				if !seatOK(in.Seat) || in.Points < 0.5 || in.Points > 3 || in.Points*2 != float64(int(in.Points*2)) {
					t.Fatalf("penalty %+v", in)
				}
			case engine.JudgeVoid, engine.JudgeUndo, engine.JudgeRepeat, engine.JudgePause, engine.JudgeResume:
			default:
				t.Fatalf("command %+v", in)
			}
		default:
			t.Fatalf("input kind %+v", in)
		}
	})
}

// FuzzStartDealIsComposition: a start request parseStart accepts deals the
// board's composition to its seats, with valid options: the engine takes it.
func FuzzStartDealIsComposition(f *testing.F) {
	all, err := boards.All()
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		`{"board":"seer-witch-hunter-idiot","deal":"random"}`,
		`{"board":"預女獵愚","deal":["werewolf","狼人","werewolf","werewolf","預言家","witch","hunter","白痴","villager","villager","村民","villager"],"seed":"7"}`,
		`{"board":"預女獵愚","deal":["werewolf","werewolf","werewolf","werewolf","werewolf","witch","hunter","白痴","villager","villager","村民","villager"]}`,
		`{"board":"seer-witch-hunter-idiot","options":{"witch.self_save":"first_night","speech.seconds":"60"},"seed":12}`,
		`{"board":"seer-witch-hunter-idiot","options":{"nope":"1"}}`,
		`{"board":"seer-witch-hunter-idiot","seed":"-1"}`,
		`{"board":"seer-witch-hunter-idiot","seed":"18446744073709551616"}`,
		`{"board":"nightmare","deal":{}}`,
		`{"board":"","replace":true}`,
		`{"board":"wolfking-guard","deal":"random","replace":true}`,
		`not json`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		spec, _, err := parseStart(body, all)
		if err != nil {
			var re *requestError
			if !errors.As(err, &re) {
				t.Fatalf("error %v is not a request error", err)
			}
			return
		}
		if len(spec.Deal) != spec.Board.Players || spec.Seed == 0 {
			t.Fatalf("spec %+v", spec)
		}
		if _, err := engine.New(spec.Config()); err != nil {
			t.Fatalf("the engine refuses an accepted start: %v", err)
		}
	})
}

// FuzzHandlersNeverFail: any request to the console, with a live session
// and its CSRF token, is answered without a panic or a 5xx of its own; the
// API answers JSON; whatever reaches the table is in range for the game.
func FuzzHandlersNeverFail(f *testing.F) {
	for _, s := range []struct{ method, path, ctype, body string }{
		{"POST", "/api/judge/seat", "application/json", `{"seat":5,"action":"target","target":9}`},
		{"POST", "/api/judge/start", "application/json", `{"board":"seer-witch-hunter-idiot","deal":"random","replace":true}`},
		{"POST", "/api/judge/dq", "application/json; charset=utf-8", `{"seat":3}`},
		{"POST", "/api/judge/penalty", "application/json", `{"seat":3,"points":"1"}`},
		{"POST", "/api/judge/pedal", "text/plain", `{"press":"short"}`},
		{"POST", "/api/login", "application/json", `{"pin":"000000"}`},
		{"POST", "/api/login", "application/json", `{"pin":` + strings.Repeat("9", 100) + `}`},
		{"POST", "/api/judge/draw/roster", "application/json", `{"text":"P01,甲\n乙\n丙"}`},
		{"POST", "/api/judge/draw", "application/json", `{"seats":[3,1,2]}`},
		{"POST", "/api/judge/draw/roster", "application/json", `{"from":"desk"}`},
		{"GET", "/api/judge/state", "", ""},
		{"GET", "/api/judge/record?format=text", "", ""},
		{"GET", "/api/public/events", "", ""},
		{"GET", "/api/judge/events", "", ""},
		{"PUT", "/api/judge/dq", "application/json", `{"seat":3}`},
		{"GET", "/api/judge/../public/state", "", ""},
		{"GET", "/static/../../etc/passwd", "", ""},
		{"DELETE", "/judge", "", ""},
	} {
		f.Add(s.method, s.path, s.ctype, []byte(s.body))
	}
	tab := &nopTable{}
	s, err := New(Options{Table: tab, PINHash: HashPIN(rigPIN), Hosts: []string{"table.local", testHost},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	lr := httptest.NewRequest("POST", "/api/login", strings.NewReader(`{"pin":"`+rigPIN+`"}`))
	lr.RemoteAddr = "127.0.0.1:1"
	lr.Header.Set("Content-Type", "application/json")
	lw := httptest.NewRecorder()
	s.ServeHTTP(lw, lr)
	var rep sessionReply
	if err := json.Unmarshal(lw.Body.Bytes(), &rep); err != nil {
		f.Fatal(err)
	}
	cookie := lw.Result().Cookies()[0]
	done, cancel := context.WithCancel(context.Background())
	cancel() // live streams send one state and return
	f.Fuzz(func(t *testing.T, method, path, ctype string, body []byte) {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		r, err := http.NewRequestWithContext(done, method, "http://table.local"+path, bytes.NewReader(body))
		if err != nil {
			return
		}
		r.RemoteAddr = "127.0.0.1:2"
		r.Header.Set("Content-Type", ctype)
		r.Header.Set(csrfHeader, rep.CSRF)
		r.AddCookie(cookie)
		tab.inputs = tab.inputs[:0]
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code >= 500 {
			t.Fatalf("%s %q: %d %s", method, path, w.Code, w.Body)
		}
		if strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") && !json.Valid(w.Body.Bytes()) {
			t.Fatalf("%s %q: invalid JSON %q", method, path, w.Body)
		}
		players, _ := s.running()
		for _, in := range tab.inputs {
			seated := in.Kind == engine.InSeat ||
				(in.Kind == engine.InJudge && (in.Judge == engine.JudgeDQ || in.Judge == engine.JudgePenalty))
			if seated && (in.Seat < 1 || in.Seat > players) {
				t.Fatalf("%s %q: input %+v for %d players", method, path, in, players)
			}
		}
	})
}

// FuzzStateFiles: the sessions file and the stored PIN hash, whatever their
// bytes, give at most maxSessions live sessions with 32-byte keys, all of
// the PIN's generation, or an error; never a panic.
func FuzzStateFiles(f *testing.F) {
	f.Add([]byte(`{"sessions":[{"hash":"`+strings.Repeat("ab", 32)+`","expires":"2030-01-01T00:00:00Z","remote":"192.168.1.2:5"}]}`), []byte(HashPIN("1234")+"\n"))
	f.Add([]byte(`{"sessions":[{"hash":"zz","expires":"2000-01-01T00:00:00Z"}]}`), []byte("sha256:"))
	f.Add([]byte(`{"sessions":null}`), []byte(" sha256:"+strings.Repeat("F", 64)+" \n"))
	f.Add([]byte(`[]`), []byte(""))
	f.Add([]byte(`{"sessions":[{"hash":"`+strings.Repeat("ab", 32)+`","expires":"2030-01-01T00:00:00Z","pin":"x","tls":true}]}`), pinFileText("123456"))
	f.Add([]byte(`{}`), []byte(HashPIN("1")+"\ngeneration zz\n"))
	f.Fuzz(func(t *testing.T, sessions, pin []byte) {
		h, gen, perr := parsePINFile(pin)
		m, err := parseSessions(sessions, rigStart, gen)
		if err == nil {
			if len(m) > maxSessions {
				t.Fatalf("%d sessions", len(m))
			}
			for _, s := range m {
				if !rigStart.Before(s.expires) || s.pinGen != gen {
					t.Fatalf("an expired session or one of another PIN: %v %q", s.expires, s.pinGen)
				}
			}
		}
		first, _, _ := strings.Cut(string(pin), "\n")
		if h1, err := parsePINHash(first); perr == nil && (err != nil || h1 != h) {
			t.Fatalf("%q: the file's hash %x, its first line's %x (%v)", pin, h, h1, err)
		}
		if h, err := parsePINHash(string(pin)); err == nil {
			if want := strings.ToLower(strings.TrimSpace(string(pin))); pinPrefix+hex.EncodeToString(h[:]) != want {
				t.Fatalf("%q parsed as %x", pin, h)
			}
		}
	})
}

// FuzzHostHeader: whatever the Host header, hostOK never panics and
// accepts only localhost, a configured or own name, or an address that is
// loopback or the machine's; the redirect it allows stays on that host.
func FuzzHostHeader(f *testing.F) {
	for _, h := range []string{"localhost:8080", "127.0.0.1", "[::1]:80", "table7.local", "evil.example", "[fe80::1%eth0]:8080",
		"TABLE7.LOCAL.", "127.0.0.1:8080@evil.example", "[::ffff:127.0.0.1]", "", ":80", "[", "a:b:c"} {
		f.Add(h)
	}
	s, err := New(Options{Table: &nopTable{}, PINHash: HashPIN(rigPIN), Hosts: []string{"table7.local"},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	redirect := s.Redirect("8443")
	f.Fuzz(func(t *testing.T, host string) {
		r := httptest.NewRequest("GET", "/judge", nil)
		r.Host = host
		r.RemoteAddr = "192.168.1.2:5"
		if !s.hostOK(r) {
			return
		}
		h := splitHost(host)
		ip, err := netip.ParseAddr(h)
		if !s.hosts[h] && (err != nil || !(ip.Unmap().IsLoopback() || s.own.has(ip.Unmap().WithZone("")))) {
			t.Fatalf("Host %q accepted", host)
		}
		w := httptest.NewRecorder()
		redirect.ServeHTTP(w, r)
		u, err := url.Parse(w.Header().Get("Location"))
		want := h
		if ip, err := netip.ParseAddr(h); err == nil {
			want = ip.WithZone("").String()
		}
		if w.Code != http.StatusPermanentRedirect || err != nil || u.Scheme != "https" || !strings.EqualFold(u.Hostname(), want) ||
			u.Port() != "8443" || u.Path != "/judge" {
			t.Fatalf("Host %q: %d %q", host, w.Code, w.Header().Get("Location"))
		}
	})
}
