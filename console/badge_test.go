package console

import (
	"net/http"
	"strings"
	"testing"

	"wolftable/engine"
)

// TestBadgeRefusedToRevealedIdiot ([003] 警长 "警徽也不能移交给已被票死一次的白痴",
// rules-more.md I1): the dying sheriff's hand-over to a revealed 白痴 is
// refused through the judge's console (a 422 in Chinese) and through the
// seat's keys alike (the refusal in the judge's list, in Chinese); the
// sheriff then passes it to another player.
func TestBadgeRefusedToRevealedIdiot(t *testing.T) {
	r := newRig(t, Options{})
	ts := r.serve()
	judge := newClient(t, ts.URL)
	judge.login(rigPIN)
	// 1狼 2狼 3預 4女 5獵 6白 7狼 8狼 9村 10村 11村 12村
	deal := []engine.Role{engine.Werewolf, engine.Werewolf, engine.Seer, engine.Witch, engine.Hunter, engine.Idiot,
		engine.Werewolf, engine.Werewolf, engine.Villager, engine.Villager, engine.Villager, engine.Villager}
	r.start("swhi-003", deal, 1)
	at := func(step, kind string) func(JudgeState) bool {
		return func(st JudgeState) bool {
			return st.Step != nil && st.Step.Step == step && (kind == "" || st.Step.Kind == kind)
		}
	}
	seat := func(s int, action string, target int) {
		t.Helper()
		judge.power("seat", map[string]any{"seat": s, "action": action, "target": target})
	}
	r.until("the sign-up", at("signup", ""))
	seat(3, "hand", 0) // 3 runs alone and is elected
	r.until("day 1's exile vote", at("vote", "exile"))
	for s := 1; s <= 12; s++ {
		if s != 6 {
			seat(s, "target", 6) // the idiot is voted out and revealed
		}
	}
	r.until("night 2's wolves", func(st JudgeState) bool { return st.Phase == "night-2" && atNight(string(engine.StepWolves))(st) })
	for _, w := range []int{1, 2, 7, 8} {
		seat(w, "target", 3)
	}
	st := r.until("the sheriff's badge", at("badge", ""))
	if st.Sheriff != 3 || st.Step.Seat != 3 {
		t.Fatalf("sheriff %d, badge step of seat %d", st.Sheriff, st.Step.Seat)
	}

	// the judge's console
	code, body := judge.do("POST", "/api/judge/seat", map[string]any{"seat": 3, "action": "target", "target": 6}, nil)
	if code != http.StatusUnprocessableEntity {
		t.Fatalf("the badge to the revealed idiot: %d %s", code, body)
	}
	if msg := checkChinese(t, "badge", body); !strings.Contains(msg, "6號") || !strings.Contains(msg, "不能接任警長") {
		t.Errorf("refusal %q", msg)
	}
	// the seat's keys
	if err := r.table().Press(3, target(6)...); err != nil {
		t.Fatal(err)
	}
	st = r.wait("the keys' refusal", func(st JudgeState) bool { return len(st.Refused) >= 2 })
	if got := st.Refused[len(st.Refused)-1].Error; !strings.Contains(got, "不能接任警長") || !hasHan(got) {
		t.Errorf("the keys' refusal: %q", got)
	}
	if st.Step == nil || st.Step.Step != "badge" {
		t.Fatalf("the badge step closed on a refused hand-over: %+v", st.Step)
	}
	seat(3, "target", 9)
	if st = r.wait("the badge passed", func(st JudgeState) bool { return st.Sheriff == 9 }); st.Sheriff != 9 {
		t.Fatalf("sheriff %d", st.Sheriff)
	}
}
