package console

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"wolftable/engine"
	"wolftable/scenario"
)

// englishSentence finds two English words in a row: the start of a Go
// error's sentence ("seat 3 does not act", "open /var/lib/...: no such
// file"). Single words and keys the judge types (short, random,
// witch.self_save) may appear.
var englishSentence = regexp.MustCompile(`[A-Za-z]{2,}[ ,:;]+[A-Za-z]{2,}`)

func hasHan(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

// checkChinese fails if an error body is not the judge's words.
func checkChinese(t *testing.T, what string, body []byte) string {
	t.Helper()
	var rep errorReply
	if err := json.Unmarshal(body, &rep); err != nil {
		t.Fatalf("%s: body %q: %v", what, body, err)
	}
	if !hasHan(rep.Error) || englishSentence.MatchString(rep.Error) || strings.Contains(rep.Error, "/") {
		t.Errorf("%s: error %q is not a short Chinese message", what, rep.Error)
	}
	return rep.Error
}

// engineCodes are every engine.ErrorCode: the scenario format's names of
// them end where CodeName falls back on a number.
func engineCodes(t *testing.T) []engine.ErrorCode {
	var out []engine.ErrorCode
	for c := engine.ErrorCode(1); ; c++ {
		if strings.HasPrefix(scenario.CodeName(c), "ErrorCode(") {
			break
		}
		out = append(out, c)
	}
	if len(out) < 8 {
		t.Fatalf("only %d engine error codes", len(out))
	}
	return out
}

// TestRefusalInChineseForEveryCode: a refusal of every engine error code
// answers a Chinese sentence, never the engine's English message.
func TestRefusalInChineseForEveryCode(t *testing.T) {
	s := newTestServer(t, &fakeClock{now: rigStart}, nil)
	for _, c := range engineCodes(t) {
		if engine.ReasonOf(c) == "" {
			t.Errorf("engine code %s has no reason", scenario.CodeName(c))
		}
		err := &engine.Error{Code: c, Reason: engine.ReasonOf(c), Msg: "seat 3 does not act in this step (night wolves)"}
		w := httptest.NewRecorder()
		s.writeFailure(w, fmt.Errorf("wrapped: %w", err))
		if w.Code != http.StatusConflict && w.Code != http.StatusUnprocessableEntity {
			t.Errorf("%s: status %d", scenario.CodeName(c), w.Code)
		}
		got := checkChinese(t, scenario.CodeName(c), w.Body.Bytes())
		if got == "操作被拒絕" {
			t.Errorf("%s: only the generic refusal", scenario.CodeName(c))
		}
	}
}

// TestRawErrorsNeverReachAPage: Go errors (file paths, the daemon's
// internals) are logged; the judge reads a short Chinese message.
func TestRawErrorsNeverReachAPage(t *testing.T) {
	s := newTestServer(t, &fakeClock{now: rigStart}, nil)
	raw := []error{
		&fs.PathError{Op: "open", Path: "/var/lib/wolftable/journal/game.wtj", Err: syscall.ENOSPC},
		errors.New("daemon: journal: write failed: disk full"),
		fmt.Errorf("table: serial: %w", syscall.EIO),
	}
	for _, err := range raw {
		w := httptest.NewRecorder()
		s.writeFailure(w, err)
		checkChinese(t, err.Error(), w.Body.Bytes())

		s.noteStartFailure(err)
		if n := s.judgeState().Notice; englishSentence.MatchString(n) || strings.Contains(n, "/var") {
			t.Errorf("start failure notice %q shows the Go error", n)
		}
	}
	// requests the console refuses before the table: bad JSON, bad options
	for _, body := range []string{`{"board":`, `{"board": "預女獵愚", "options": {"witch.self_save": "sometimes"}}`,
		`{"board": "預女獵愚", "options": {"no.such.option": "1"}}`} {
		_, _, err := parseStart([]byte(body), mustBoards(t))
		if err == nil {
			t.Fatalf("%s: no error", body)
		}
		w := httptest.NewRecorder()
		s.writeFailure(w, err)
		checkChinese(t, body, w.Body.Bytes())
	}
}

func mustBoards(t *testing.T) []*engine.Board {
	t.Helper()
	s := newTestServer(t, &fakeClock{now: rigStart}, nil)
	all, err := s.opt.Boards()
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// TestCommonRefusalsInChinese plays the common refusals through the
// console: a seat that does not act, a target that is out, the pedal where
// it does not advance. The API answer and the judge's list of refused
// inputs say them in Chinese, with the seat and the step.
func TestCommonRefusalsInChinese(t *testing.T) {
	r := newRig(t, Options{})
	ts := r.serve()
	judge := newClient(t, ts.URL)
	judge.login(rigPIN)
	judge.power("start", map[string]any{"board": "預女獵愚", "deal": scriptDeal, "seed": "7"})
	r.until("the wolves' step", atNight("wolves"))

	code, b := judge.do("POST", "/api/judge/seat", map[string]any{"seat": 5, "action": "target", "target": 9}, nil)
	if code != http.StatusUnprocessableEntity {
		t.Fatalf("seer during the wolves: %d %s", code, b)
	}
	if got, want := checkChinese(t, "not an actor", b), "5號現在不行動（夜間：狼人）"; got != want {
		t.Errorf("not an actor: %q, want %q", got, want)
	}
	st := r.wait("the refusal in the judge's list", func(st JudgeState) bool { return len(st.Refused) > 0 })
	if got := st.Refused[len(st.Refused)-1].Error; got != "5號現在不行動（夜間：狼人）" {
		t.Errorf("the judge's list of refusals shows %q", got)
	}

	code, b = judge.do("POST", "/api/judge/pause", nil, nil)
	if code != http.StatusOK {
		t.Fatalf("pause: %d %s", code, b)
	}
	code, b = judge.do("POST", "/api/judge/pause", nil, nil)
	if got, want := checkChinese(t, "paused twice", b), "遊戲已經暫停"; code != http.StatusConflict || got != want {
		t.Errorf("pause twice: %d %q, want 409 %q", code, got, want)
	}
}
