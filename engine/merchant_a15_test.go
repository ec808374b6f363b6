package engine_test

import (
	"fmt"
	"testing"

	"wolftable/boards"
	"wolftable/scenario"
)

// A15 for 黑市商人, 幸運兒 and 村長/長老: a night where the actor lives and
// acts and one where it is dead, used up, a wolf (no gift) or under the
// penalty say the same lines and light the same lights at the same times
// (times from the night's start).

const blackMarket = `board black-market-003
roles 狼人 村民 女巫 白狼王 預言家 村民 守衛 狼人 村長 黑市商人 狼人 村民
`

const elderBoard = `board swhe-12-001
roles 狼人 村民 女巫 狼人 預言家 村民 獵人 長老 狼人 村民 狼人 村民
`

// nightTrace plays a scenario and returns the public events (says, lights)
// of night n, each with its time from the night's start.
func nightTrace(t *testing.T, src string, n int) []string {
	t.Helper()
	f, err := scenario.Parse("a15.wolf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res := scenario.Run(f, boards.Get)
	if res.Err != nil {
		t.Fatalf("line %d: %s\n%s", res.Err.Line, res.Err.Msg, src)
	}
	var out []string
	in, start := false, 0
	for _, e := range res.Events {
		if e.Type == "phase" {
			if e.Phase == fmt.Sprintf("night-%d", n) {
				in, start = true, e.At
				continue
			}
			if in {
				break
			}
		}
		if !in || (e.Type != "say" && e.Type != "light") {
			continue
		}
		seat := 0
		if e.Seat != nil {
			seat = *e.Seat
		}
		out = append(out, fmt.Sprintf("%d %s %s %d %s %v", e.At-start, e.Type, e.Line, seat, e.State, e.Pulse))
	}
	if len(out) == 0 {
		t.Fatalf("night %d has no public event", n)
	}
	return out
}

func TestA15Merchant(t *testing.T) {
	n1 := func(trade, kill string) string {
		return blackMarket + "第1夜\n" + trade + "\n守衛 7\n狼人 " + kill + "\n女巫 不用\n預言家 4\n\n第1天\n"
	}
	n2 := "\n第2夜\n守衛 5\n狼人 12\n女巫 不用\n預言家 8\n"
	// the merchant keys both, or lets time run out (the engine draws)
	sameTrace(t, "merchant keyed vs timeout", nightTrace(t, n1("黑市商人 6 眼鏡", "2"), 1), nightTrace(t, n1("", "2")+"", 1))
	alive := nightTrace(t, n1("黑市商人 6 眼鏡", "2")+n2+"幸運兒 驗 1\n\n第2天\n", 2)
	dead := nightTrace(t, n1("黑市商人 6 眼鏡", "6")+n2+"\n第2天\n", 2)
	wolf := nightTrace(t, n1("黑市商人 8 眼鏡", "2")+n2+"\n第2天\n", 2)
	gun := nightTrace(t, n1("黑市商人 6 獵槍", "2")+n2+"\n第2天\n", 2)
	sameTrace(t, "lucky alive (glasses) vs dead", alive, dead)
	sameTrace(t, "lucky alive (glasses) vs a wolf lucky one", alive, wolf)
	sameTrace(t, "lucky alive (glasses) vs gun status", alive, gun)
	n3 := "\n第3夜\n守衛 7\n狼人 0\n女巫 不用\n預言家 11\n"
	used := nightTrace(t, n1("黑市商人 6 眼鏡", "2")+n2+"幸運兒 驗 1\n\n第2天\n"+n3+"\n第3天\n", 3)
	unused := nightTrace(t, n1("黑市商人 6 毒藥", "2")+n2+"\n第2天\n"+n3+"幸運兒 毒 8\n\n第3天\n", 3)
	sameTrace(t, "lucky used up vs using the poison", used, unused)
}

func TestA15Chief(t *testing.T) {
	n1 := blackMarket + "第1夜\n黑市商人 6 眼鏡\n守衛 7\n狼人 2\n女巫 不用\n預言家 4\n\n第1天\n"
	n2 := "\n第2夜\n狼人 12\n女巫 不用\n\n第2天\n"
	alive := nightTrace(t, n1+n2, 2)
	exiled := nightTrace(t, n1+"放逐投票 1:9 3:9 4:9 5:9 6:9 7:9 8:9 10:9 11:9 12:9\n"+n2, 2)
	sameTrace(t, "村長 alive vs exiled (penalty: every good skill blocked)", alive, exiled)
}

func TestA15Elder(t *testing.T) {
	n1 := elderBoard + "第1夜\n狼人 2\n女巫 不用\n預言家 1\n\n第1天\n"
	n2 := "\n第2夜\n狼人 12\n女巫 不用\n\n第2天\n"
	alive := nightTrace(t, n1+n2, 2)
	exiled := nightTrace(t, n1+"放逐投票 1:8 3:8 4:8 5:8 6:8 7:8 9:8 10:8 11:8 12:8\n"+n2, 2)
	sameTrace(t, "長老 alive vs exiled", alive, exiled)
	// his first hit (hidden from the witch) vs an ordinary victim
	hit := nightTrace(t, elderBoard+"第1夜\n狼人 8\n女巫 不用\n預言家 1\n\n第1天\n", 1)
	other := nightTrace(t, elderBoard+"第1夜\n狼人 2\n女巫 不用\n預言家 1\n\n第1天\n", 1)
	sameTrace(t, "長老's first hit vs a villager knifed", hit, other)
}
