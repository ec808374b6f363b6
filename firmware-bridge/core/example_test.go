package core_test

import (
	"fmt"

	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/core/coretest"
	"wolftable/firmware-bridge/protocol"
)

// The firmware's main loop, on a fake board: bytes from USB go to
// HandleBytes, Tick runs every millisecond and what it returns goes back to
// USB.
func ExampleBridge() {
	chain := coretest.NewChain(12, 24, true)
	bridge, err := core.NewBridge(core.Config{
		Firmware: protocol.Version{Major: 1},
		Scan:     core.ScanConfig{Seats: 12, BitsPerSeat: 24, KeyMap: core.DefaultKeyMap(24), ActiveLow: true},
	}, chain)
	if err != nil {
		fmt.Println(err)
		return
	}

	var host protocol.Decoder
	bridge.HandleBytes(protocol.Encode(&protocol.HostHello{Protocol: 1, Seats: 12, Software: "example"}, 0))
	chain.Press(7, int(protocol.KeyOK)) // seat 7 presses OK
	for ms := uint64(0); ms < 10; ms++ {
		for out := bridge.Tick(ms * 1000); len(out) > 0; {
			n, f, _ := host.Feed(out)
			out = out[n:]
			if f.Type == 0 {
				continue
			}
			m, _ := f.Message()
			switch m := m.(type) {
			case *protocol.Hello:
				fmt.Printf("%d ms: Hello: firmware %v, %d seats\n", ms, m.Firmware, m.Seats)
			case *protocol.Ping:
				fmt.Printf("%d ms: Ping %d\n", ms, m.Nonce)
			case *protocol.KeyEvent:
				fmt.Printf("%d ms: seat %d %v %v, press %d (seq %d)\n", ms, m.Seat, m.Key, m.Edge, m.Counter, f.Seq)
			}
		}
	}
	// Output:
	// 0 ms: Hello: firmware 1.0.0, 12 seats
	// 0 ms: Ping 1
	// 5 ms: seat 7 OK down, press 1 (seq 2)
}
