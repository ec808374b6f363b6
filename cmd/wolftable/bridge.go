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

const bridgeUsage = `用法：
  wolftable bridge emulate --link PATH [--seats N] [--private-leds] [--no-pedal] [--acks]
        在偽終端後面跑一塊模擬的座位面板橋接板，偽終端連結在 PATH；先印出
        ` + "`ready PATH`" + `（加 --acks 時，之後主機每確認一筆按鍵事件就印一行 JSON：
        ` + "`" + `{"acked":{"seat":3,"key":"WAVE","edge":"down","counter":1,"micros":81234}}` + "`" + `），
        然後從標準輸入讀指令：
          ` + "`press S KEY` | `release S KEY` | `tap S KEY`" + `      按下、放開、按一下：座位 S（1…N），KEY 為 0-9 OK CLR UP DOWN WAVE HAND BOOM
          ` + "`pedal short|long|double`" + `                   踏板短按、長按、連按兩下
          ` + "`lights`" + `                                    一行 JSON：{"1":{"r":0,"g":255,"b":0},…}
          ` + "`unplug` | `replug`" + `                         拔掉、插回
          ` + "`fault S KEY ok|missing|bouncy|stuck|worn` | `dead-led S on|off` | `hang on|off`" + `
                                                      按鍵故障、燈壞掉、當機
          ` + "`stats`" + `                                     一行 JSON 的計數
          ` + "`quit`" + `                                      結束
  wolftable bridge probe [--port PATH] [--timeout 3s]
        握手，以一行 JSON 印出橋接板的自我介紹（` + "`Hello`" + `）與上次啟動的原因
        （` + "`last_reset`" + `：` + "`power-on`、`watchdog`、`reset-pin`、`software` 或 `unknown`" + `）
  wolftable bridge watch [--port PATH]
        把每筆按鍵與踏板事件印成一行 JSON，直到被中斷
  wolftable bridge lights [--port PATH] [--timeout 3s] SEAT=COLOR… [all=COLOR]
        設定燈號，橋接板確認後結束；COLOR 為 ` + "`off`、`green`、`red` 或 `blue`" + `，
        可加 ` + "`+pulse`" + `（閃動）與 ` + "`+private`" + `（私密燈）；沒有指名的座位
        用 all= 的顏色（預設熄燈）

  不給 --port 時以 USB ID 尋找橋接板（--vid 2E8A --pid 000A）。
  --baud 設定傳輸速率（預設 115200；絕不可用 1200：那會讓 RP2040 重開
  進入開機載入程式）。
  --seats 與 --keys 檢查橋接板的座位數與每座按鍵數。
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
	fmt.Fprintf(stderr, "wolftable bridge：沒有 %q 這個指令\n\n%s", args[0], bridgeUsage)
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
	fs.StringVar(&p.port, "port", "", "橋接板的序列埠裝置（預設：以 USB ID 尋找）")
	fs.StringVar(&p.vid, "vid", serial.DefaultVID, "橋接板的 USB 廠商 ID")
	fs.StringVar(&p.pid, "pid", serial.DefaultPID, "橋接板的 USB 產品 ID")
	fs.IntVar(&p.baud, "baud", serial.DefaultBaud, "傳輸速率（絕不可用 1200）")
	fs.IntVar(&p.seats, "seats", 0, "橋接板必須有的座位數（預設：不限）")
	fs.IntVar(&p.keys, "keys", 0, "橋接板每座必須有的按鍵數，1…17（預設：不限）")
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
	link := fs.String("link", "", "偽終端連結的位置（必填）")
	seats := fs.Int("seats", 12, "橋接板的座位數（6…18）")
	private := fs.Bool("private-leds", false, "每個座位有私密指示燈")
	noPedal := fs.Bool("no-pedal", false, "踏板沒有接在橋接板上")
	acks := fs.Bool("acks", false, "主機每確認一筆按鍵事件就印一行 JSON")
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
			return 0, 0, fmt.Errorf("用法：%s SEAT KEY", f[0])
		}
		seat, err := strconv.Atoi(f[1])
		if err != nil {
			return 0, 0, fmt.Errorf("座位 %q：不是數字", f[1])
		}
		key, ok := protocol.ParseKey(strings.ToUpper(f[2]))
		if !ok || key == protocol.KeyPedal {
			return 0, 0, fmt.Errorf("沒有 %q 這個按鍵（0-9 OK CLR UP DOWN WAVE HAND BOOM）", f[2])
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
		return false, fmt.Errorf("%s：要 on 或 off，不是 %q", f[0], s)
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
			return false, fmt.Errorf("用法：dead-led SEAT on|off")
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
	return false, fmt.Errorf("沒有 %q 這個指令（press release tap pedal lights unplug replug fault dead-led hang stats quit）", f[0])
}

// seatKeyOf reads "fault SEAT KEY FAULT"'s seat and key.
func seatKeyOf(f []string) (int, protocol.Key, error) {
	if len(f) != 4 {
		return 0, 0, errors.New("用法：fault SEAT KEY ok|missing|bouncy|stuck|worn")
	}
	seat, err := strconv.Atoi(f[1])
	if err != nil {
		return 0, 0, fmt.Errorf("座位 %q：不是數字", f[1])
	}
	key, ok := protocol.ParseKey(strings.ToUpper(f[2]))
	if !ok || key == protocol.KeyPedal {
		return 0, 0, fmt.Errorf("沒有 %q 這個按鍵", f[2])
	}
	return seat, key, nil
}

func parseFault(s string) (emulator.KeyFault, error) {
	for f := emulator.NoFault; f <= emulator.KeyWorn; f++ {
		if f.String() == s {
			return f, nil
		}
	}
	return 0, fmt.Errorf("沒有 %q 這種故障（ok missing bouncy stuck worn）", s)
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
	timeout := fs.Duration("timeout", serial.DefaultProbeTimeout, "等橋接板多久")
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
			state := "中斷"
			if ev.Link.Up {
				state = "已接上"
			}
			fmt.Fprintf(stderr, "連線%s：%s\n", state, ev.Link.Detail)
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
		return l, fmt.Errorf("沒有 %q 這個顏色（off green red blue）", parts[0])
	}
	for _, m := range parts[1:] {
		switch m {
		case "pulse":
			l.Pulse = true
		case "private":
			l.Private = true
		default:
			return l, fmt.Errorf("沒有 %q 這個修飾（pulse private）", m)
		}
	}
	return l, nil
}

func bridgeLights(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("lights", stderr)
	var pf portFlags
	pf.register(fs)
	timeout := fs.Duration("timeout", 3*time.Second, "等橋接板與其確認多久")
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
			fmt.Fprintf(stderr, "wolftable bridge lights：%q：要寫成 SEAT=COLOR 或 all=COLOR\n", a)
			return 2
		}
		l, err := parseLight(value)
		if err != nil {
			fmt.Fprintf(stderr, "wolftable bridge lights：%s：%v\n", a, err)
			return 2
		}
		if name == "all" {
			all = l
			continue
		}
		seat, err := strconv.Atoi(name)
		if err != nil || seat < 1 || seat > protocol.MaxSeats {
			fmt.Fprintf(stderr, "wolftable bridge lights：%q：座位要是 1…%d 或 all\n", name, protocol.MaxSeats)
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
			fmt.Fprintf(stderr, "wolftable bridge lights：座位 %d：橋接板只有 %d 個座位\n", seat, len(lights))
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
