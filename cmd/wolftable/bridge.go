package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"wolftable/drivers/serial"
	"wolftable/firmware-bridge/emulator"
	"wolftable/firmware-bridge/protocol"
	"wolftable/hw"
	"wolftable/internal/cliflag"
)

const bridgeUsage = `usage:
  wolftable bridge emulate --link PATH [--seats N] [--private-leds] [--no-pedal] [--acks]
        run an emulated seat-panel bridge behind a pseudo-terminal linked at
        PATH; prints "ready PATH" (with --acks, then one JSON line per key
        event the host acknowledged: {"acked":{"seat":3,"key":"WAVE","edge":"down","counter":1,"micros":81234}}),
        then reads commands on stdin:
          press S KEY | release S KEY | tap S KEY      seat S (1…N), KEY 0-9 OK CLR UP DOWN WAVE HAND BOOM
          pedal short|long|double
          lights                                       one JSON line: {"1":{"r":0,"g":255,"b":0},…}
          unplug | replug
          fault S KEY ok|missing|bouncy|stuck|worn | dead-led S on|off | hang on|off
          stats                                        one JSON line of counters
          quit
  wolftable bridge probe [--port PATH] [--timeout 3s]
        shake hands and print the bridge's Hello, and why it last started
        (last_reset: power-on, watchdog, reset-pin, software or unknown), as
        one JSON line
  wolftable bridge watch [--port PATH]
        print every key and pedal event as a JSON line until interrupted
  wolftable bridge lights [--port PATH] [--timeout 3s] SEAT=COLOR… [all=COLOR]
        set the lights and exit once the bridge acknowledges them; COLOR is
        off, green, red or blue, optionally +pulse and +private; seats not
        named take all= (default off)

  Without --port the bridge is found by USB ID (--vid 2E8A --pid 000A);
  --baud sets the line speed (115200; never 1200, which reboots the RP2040
  into its bootloader); --seats and --keys check the bridge's seat count
  and keys per seat.
`

func cmdBridge(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, bridgeUsage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch args[0] {
	case "emulate":
		return bridgeEmulate(ctx, args[1:], os.Stdin, stdout, stderr)
	case "probe":
		return bridgeProbe(ctx, args[1:], stdout, stderr)
	case "watch":
		return bridgeWatch(ctx, args[1:], stdout, stderr)
	case "lights":
		return bridgeLights(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, bridgeUsage)
		return 0
	}
	fmt.Fprintf(stderr, "wolftable bridge: unknown command %q\n\n%s", args[0], bridgeUsage)
	return 2
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	return cliflag.New("wolftable bridge "+name, bridgeUsage, stderr)
}

func cliLogger(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// portFlags are the flags that say where the bridge is.
type portFlags struct {
	port, vid, pid    string
	baud, seats, keys int
}

func (p *portFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.port, "port", "", "the bridge's serial device (default: find it by USB ID)")
	fs.StringVar(&p.vid, "vid", serial.DefaultVID, "the bridge's USB vendor ID")
	fs.StringVar(&p.pid, "pid", serial.DefaultPID, "the bridge's USB product ID")
	fs.IntVar(&p.baud, "baud", serial.DefaultBaud, "line speed (never 1200)")
	fs.IntVar(&p.seats, "seats", 0, "seats the bridge must have (default: any)")
	fs.IntVar(&p.keys, "keys", 0, "keys per seat the bridge must have, 1…17 (default: any)")
}

func (p *portFlags) config(stderr io.Writer) serial.Config {
	return serial.Config{
		Port: p.port, VID: p.vid, PID: p.pid, Baud: p.baud, Seats: p.seats, KeysPerSeat: p.keys,
		Software: "wolftable " + version, Logger: cliLogger(stderr),
	}
}

// bridgeEmulate runs an emulated bridge and obeys commands from stdin.
func bridgeEmulate(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("emulate", stderr)
	link := fs.String("link", "", "where to link the pseudo-terminal (required)")
	seats := fs.Int("seats", 12, "seats on the bridge (6…18)")
	private := fs.Bool("private-leds", false, "each seat has a private indicator LED")
	noPedal := fs.Bool("no-pedal", false, "the pedal is not wired to the bridge")
	acks := fs.Bool("acks", false, "print a JSON line for each key event the host acknowledged")
	pos, err := cliflag.Interspersed(fs, args)
	if err != nil {
		return 2
	}
	if *link == "" || len(pos) > 0 {
		fmt.Fprint(stderr, bridgeUsage)
		return 2
	}
	stdout = &lockedWriter{w: stdout} // the acks come from the emulator's loop
	cfg := emulator.Config{Link: *link, Seats: *seats, PrivateLEDs: *private, NoPedal: *noPedal, Logger: cliLogger(stderr)}
	ready := make(chan struct{})
	if *acks {
		cfg.OnKeyAcked = func(ev protocol.KeyEvent, _ time.Time) {
			<-ready // after the "ready" line
			fmt.Fprintf(stdout, "{\"acked\":{\"seat\":%d,\"key\":%q,\"edge\":%q,\"counter\":%d,\"micros\":%d}}\n", ev.Seat, ev.Key.String(), ev.Edge.String(), ev.Counter, ev.Micros)
		}
	}
	e, err := emulator.Start(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "wolftable bridge emulate:", err)
		return 1
	}
	defer e.Close()
	fmt.Fprintln(stdout, "ready", e.Path())
	close(ready)

	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdin)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return 0
		case line, ok := <-lines:
			if !ok {
				return 0 // end of input: as quit
			}
			quit, err := emulateCommand(ctx, e, line, stdout)
			if err != nil {
				fmt.Fprintln(stderr, "emulate:", err)
			}
			if quit {
				return 0
			}
		}
	}
}

// emulateCommand obeys one line of bridge emulate's input.
func emulateCommand(ctx context.Context, e *emulator.Emulator, line string, stdout io.Writer) (quit bool, err error) {
	f := strings.Fields(line)
	if len(f) == 0 || strings.HasPrefix(f[0], "#") {
		return false, nil
	}
	arg := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	seatKey := func() (int, protocol.Key, error) {
		if len(f) != 3 {
			return 0, 0, fmt.Errorf("usage: %s SEAT KEY", f[0])
		}
		seat, err := strconv.Atoi(f[1])
		if err != nil {
			return 0, 0, fmt.Errorf("seat %q: not a number", f[1])
		}
		key, ok := protocol.ParseKey(strings.ToUpper(f[2]))
		if !ok || key == protocol.KeyPedal {
			return 0, 0, fmt.Errorf("unknown key %q (0-9 OK CLR UP DOWN WAVE HAND BOOM)", f[2])
		}
		return seat, key, nil
	}
	onOff := func(s string) (bool, error) {
		switch s {
		case "on":
			return true, nil
		case "off":
			return false, nil
		}
		return false, fmt.Errorf("%s: want on or off, not %q", f[0], s)
	}

	switch f[0] {
	case "press", "release", "tap":
		seat, key, err := seatKey()
		if err != nil {
			return false, err
		}
		switch f[0] {
		case "press":
			return false, e.Press(seat, key)
		case "release":
			return false, e.Release(seat, key)
		}
		return false, e.Tap(seat, key)
	case "pedal":
		p, err := emulator.ParsePedalPress(arg(1))
		if err != nil {
			return false, err
		}
		return false, e.Pedal(ctx, p)
	case "lights":
		_, err := fmt.Fprintln(stdout, lightsJSON(e.Lights()))
		return false, err
	case "stats":
		b, err := json.Marshal(e.Stats())
		if err != nil {
			return false, err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return false, err
	case "unplug":
		return false, e.Unplug()
	case "replug":
		return false, e.Replug()
	case "fault":
		seat, key, err := seatKeyOf(f)
		if err != nil {
			return false, err
		}
		fault, err := parseFault(arg(3))
		if err != nil {
			return false, err
		}
		return false, e.SetKeyFault(seat, key, fault)
	case "dead-led":
		seat, err := strconv.Atoi(arg(1))
		if err != nil {
			return false, fmt.Errorf("usage: dead-led SEAT on|off")
		}
		dead, err := onOff(arg(2))
		if err != nil {
			return false, err
		}
		return false, e.SetDeadLED(seat, dead)
	case "hang":
		hung, err := onOff(arg(1))
		if err != nil {
			return false, err
		}
		e.Hang(hung)
		return false, nil
	case "quit", "exit":
		return true, nil
	case "help":
		_, err := fmt.Fprint(stdout, bridgeUsage)
		return false, err
	}
	return false, fmt.Errorf("unknown command %q (press release tap pedal lights unplug replug fault dead-led hang stats quit)", f[0])
}

// seatKeyOf reads "fault SEAT KEY FAULT"'s seat and key.
func seatKeyOf(f []string) (int, protocol.Key, error) {
	if len(f) != 4 {
		return 0, 0, errors.New("usage: fault SEAT KEY ok|missing|bouncy|stuck|worn")
	}
	seat, err := strconv.Atoi(f[1])
	if err != nil {
		return 0, 0, fmt.Errorf("seat %q: not a number", f[1])
	}
	key, ok := protocol.ParseKey(strings.ToUpper(f[2]))
	if !ok || key == protocol.KeyPedal {
		return 0, 0, fmt.Errorf("unknown key %q", f[2])
	}
	return seat, key, nil
}

func parseFault(s string) (emulator.KeyFault, error) {
	for f := emulator.NoFault; f <= emulator.KeyWorn; f++ {
		if f.String() == s {
			return f, nil
		}
	}
	return 0, fmt.Errorf("unknown fault %q (ok missing bouncy stuck worn)", s)
}

// lightsJSON writes the lights as {"1":{"r":0,"g":255,"b":0},…}, in seat
// order.
func lightsJSON(lights []emulator.RGB) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, l := range lights {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%d":{"r":%d,"g":%d,"b":%d}`, i+1, l.R, l.G, l.B)
	}
	b.WriteByte('}')
	return b.String()
}

// probeJSON is bridge probe's output.
type probeJSON struct {
	Port         string   `json:"port"`
	Firmware     string   `json:"firmware"`
	Protocol     int      `json:"protocol"`
	Seats        int      `json:"seats"`
	KeysPerSeat  int      `json:"keys_per_seat"`
	Capabilities []string `json:"capabilities"`
	LastReset    string   `json:"last_reset"`
}

func bridgeProbe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("probe", stderr)
	var pf portFlags
	pf.register(fs)
	timeout := fs.Duration("timeout", serial.DefaultProbeTimeout, "how long to wait for the bridge")
	pos, err := cliflag.Interspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) > 0 {
		fmt.Fprint(stderr, bridgeUsage)
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	info, err := serial.Probe(ctx, pf.config(stderr))
	if err != nil {
		fmt.Fprintln(stderr, "wolftable bridge probe:", err)
		return 1
	}
	b, err := json.Marshal(probeJSON{
		Port: info.Port, Firmware: info.Firmware.String(), Protocol: info.Protocol, Seats: info.Seats,
		KeysPerSeat: info.KeysPerSeat, Capabilities: info.Capabilities(), LastReset: info.LastReset.String(),
	})
	if err != nil {
		fmt.Fprintln(stderr, "wolftable bridge probe:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return 0
}

// watchJSON is one line of bridge watch's output.
type watchJSON struct {
	Seat  int    `json:"seat"`
	Key   string `json:"key,omitempty"`
	Edge  string `json:"edge,omitempty"`
	Pedal string `json:"pedal,omitempty"`
}

func bridgeWatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("watch", stderr)
	var pf portFlags
	pf.register(fs)
	pos, err := cliflag.Interspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) > 0 {
		fmt.Fprint(stderr, bridgeUsage)
		return 2
	}
	cfg := pf.config(stderr)
	cfg.RawPedal, cfg.LeaveLights = true, true
	// watch prints the link's comings and goings itself.
	cfg.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	tb, err := serial.Open(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "wolftable bridge watch:", err)
		return 1
	}
	defer tb.Close()
	enc := json.NewEncoder(stdout)
	for ev := range tb.Events() {
		var line watchJSON
		switch ev.Kind {
		case hw.EventLink:
			state := "down"
			if ev.Link.Up {
				state = "up"
			}
			fmt.Fprintf(stderr, "link %s: %s\n", state, ev.Link.Detail)
			continue
		case hw.EventKey:
			line = watchJSON{Seat: ev.Key.Seat, Key: ev.Key.Key.String(), Edge: ev.Key.Edge.String()}
			if ev.Key.Seat == 0 {
				line.Key = protocol.KeyPedal.String()
			}
		case hw.EventPedal:
			line = watchJSON{Seat: 0, Key: protocol.KeyPedal.String(), Pedal: ev.Pedal.String()}
		default:
			continue
		}
		if err := enc.Encode(line); err != nil {
			fmt.Fprintln(stderr, "wolftable bridge watch:", err)
			return 1
		}
	}
	return 0 // interrupted
}

// parseLight reads COLOR[+pulse][+private].
func parseLight(s string) (hw.SeatLight, error) {
	parts := strings.Split(s, "+")
	var l hw.SeatLight
	found := false
	for c := hw.Off; c <= hw.Blue; c++ {
		if c.String() == parts[0] {
			l.Color, found = c, true
		}
	}
	if !found {
		return l, fmt.Errorf("unknown colour %q (off green red blue)", parts[0])
	}
	for _, m := range parts[1:] {
		switch m {
		case "pulse":
			l.Pulse = true
		case "private":
			l.Private = true
		default:
			return l, fmt.Errorf("unknown modifier %q (pulse private)", m)
		}
	}
	return l, nil
}

func bridgeLights(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("lights", stderr)
	var pf portFlags
	pf.register(fs)
	timeout := fs.Duration("timeout", 3*time.Second, "how long to wait for the bridge and its ack")
	pos, err := cliflag.Interspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) == 0 {
		fmt.Fprint(stderr, bridgeUsage)
		return 2
	}
	all := hw.SeatLight{}
	seatLights := map[int]hw.SeatLight{}
	for _, a := range pos {
		name, value, ok := strings.Cut(a, "=")
		if !ok {
			fmt.Fprintf(stderr, "wolftable bridge lights: %q: want SEAT=COLOR or all=COLOR\n", a)
			return 2
		}
		l, err := parseLight(value)
		if err != nil {
			fmt.Fprintf(stderr, "wolftable bridge lights: %s: %v\n", a, err)
			return 2
		}
		if name == "all" {
			all = l
			continue
		}
		seat, err := strconv.Atoi(name)
		if err != nil || seat < 1 || seat > protocol.MaxSeats {
			fmt.Fprintf(stderr, "wolftable bridge lights: %q: seat must be 1…%d or all\n", name, protocol.MaxSeats)
			return 2
		}
		seatLights[seat] = l
	}

	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	cfg := pf.config(stderr)
	cfg.LeaveLights, cfg.WaitLink = true, *timeout
	tb, err := serial.Open(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "wolftable bridge lights:", err)
		return 1
	}
	defer tb.Close()
	lights := make([]hw.SeatLight, tb.Seats())
	for i := range lights {
		lights[i] = all
	}
	for seat, l := range seatLights {
		if seat > len(lights) {
			fmt.Fprintf(stderr, "wolftable bridge lights: seat %d: the bridge has %d seats\n", seat, len(lights))
			return 2
		}
		lights[seat-1] = l
	}
	if err := tb.SetLightsAcked(ctx, lights); err != nil {
		fmt.Fprintln(stderr, "wolftable bridge lights:", err)
		return 1
	}
	return 0
}

// lockedWriter serialises the lines of several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

var bridgeCommand = &cliflag.Command{
	Name: "bridge",
	ShortUsage: "bridge emulate --link PATH [--seats N]\nbridge probe --port PATH\nbridge watch --port PATH\n" +
		"bridge lights --port PATH 3=red 5=green all=off",
	ShortHelp: "座位面板的橋接板：`emulate`：在虛擬終端（`pty`）後面跑它的模擬器；`probe`：握手，以 JSON\n" +
		"印出橋接板的自我介紹；`watch`：按鍵與踏板事件，每行一筆 JSON；`lights`：設定燈號，確認後結束\n" +
		"（每個選項：`wolftable bridge help`）",
	Exec: cmdBridge,
}
