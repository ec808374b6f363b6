package selftest

import (
	"fmt"
	"strconv"
	"strings"

	"wolftable/hw"
)

// FaultKind is a defect the emulated table can be given (--fault).
type FaultKind string

// The fault kinds.
const (
	FaultDeadLED    FaultKind = "dead-led"    // dead-led:SEAT — the seat's LEDs stay dark
	FaultMissingKey FaultKind = "missing-key" // missing-key:SEAT:KEY — the key's contact never closes
	FaultBouncyKey  FaultKind = "bouncy-key"  // bouncy-key:SEAT:KEY — a worn contact: one touch, several presses
	FaultStuckKey   FaultKind = "stuck-key"   // stuck-key:SEAT:KEY — the key's contact is closed from the start
	FaultNoLink     FaultKind = "no-link"     // no-link — the bridge is unplugged
	FaultNoSpeaker  FaultKind = "no-speaker"  // no-speaker — ALSA's default device does not exist
)

// FaultKinds lists the fault kinds.
func FaultKinds() []FaultKind {
	return []FaultKind{FaultDeadLED, FaultMissingKey, FaultBouncyKey, FaultStuckKey, FaultNoLink, FaultNoSpeaker}
}

func (k FaultKind) needsSeat() bool { return k != FaultNoLink && k != FaultNoSpeaker }

func (k FaultKind) needsKey() bool {
	return k == FaultMissingKey || k == FaultBouncyKey || k == FaultStuckKey
}

// Fault is one defect of the emulated table.
type Fault struct {
	Kind FaultKind
	Seat int    // 1…seats, for the seat faults
	Key  hw.Key // for the key faults
}

func (f Fault) String() string {
	switch {
	case f.Kind.needsKey():
		return fmt.Sprintf("%s:%d:%v", f.Kind, f.Seat, f.Key)
	case f.Kind.needsSeat():
		return fmt.Sprintf("%s:%d", f.Kind, f.Seat)
	}
	return string(f.Kind)
}

// ParseFault reads KIND[:SEAT[:KEY]] as --fault takes it: "dead-led:5",
// "missing-key:3:7", "bouncy-key:4:OK", "stuck-key:2:UP", "no-link",
// "no-speaker". Key names are case-insensitive.
func ParseFault(s string) (Fault, error) {
	parts := strings.Split(s, ":")
	f := Fault{Kind: FaultKind(parts[0])}
	known := false
	for _, k := range FaultKinds() {
		known = known || k == f.Kind
	}
	if !known {
		names := make([]string, 0, 6)
		for _, k := range FaultKinds() {
			names = append(names, string(k))
		}
		return Fault{}, fmt.Errorf("故障 %q：沒有 %q 這種故障（%s）", s, parts[0], strings.Join(names, ", "))
	}
	want := 1
	usage := string(f.Kind)
	switch {
	case f.Kind.needsKey():
		want, usage = 3, usage+":SEAT:KEY"
	case f.Kind.needsSeat():
		want, usage = 2, usage+":SEAT"
	}
	if len(parts) != want {
		return Fault{}, fmt.Errorf("故障 %q：要寫成 %s", s, usage)
	}
	if want >= 2 {
		n, err := strconv.Atoi(parts[1])
		if err != nil || n < 1 || n > hw.MaxSeats {
			return Fault{}, fmt.Errorf("故障 %q：%q 不是座位號碼", s, parts[1])
		}
		f.Seat = n
	}
	if want == 3 {
		k, err := hw.ParseKey(strings.ToUpper(parts[2]))
		if err != nil {
			return Fault{}, fmt.Errorf("故障 %q：%q 不是按鍵（0-9 OK CLR UP DOWN WAVE HAND BOOM）", s, parts[2])
		}
		f.Key = k
	}
	return f, nil
}
