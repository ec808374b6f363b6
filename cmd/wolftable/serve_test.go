package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"wolftable/audio/alsafile"
	"wolftable/boards"
	"wolftable/engine"
	"wolftable/script"
)

// TestServeEndToEnd runs `wolftable serve` on the emulated seat-panel
// bridge (a real pty) with a journal, and plays a whole scripted game by
// tapping seat keys and pressing the pedal on the emulator, reacting to the
// judge's lines. The game ends with the scripted result, and the journal
// replays to the same judge lines.
func TestServeEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	link := filepath.Join(dir, "bridge")
	emu := exec.Command(bin, "bridge", "emulate", "--link", link, "--seats", "12")
	emuIn, _ := emu.StdinPipe()
	emuOut, _ := emu.StdoutPipe()
	emu.Stderr = os.Stderr
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	defer emu.Process.Kill()
	ready := bufio.NewScanner(emuOut)
	if !ready.Scan() || !strings.HasPrefix(ready.Text(), "ready") {
		t.Fatalf("emulator: %q", ready.Text())
	}
	emuLines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(emuOut)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "{") {
				emuLines <- sc.Text()
			}
		}
	}()
	var emuMu sync.Mutex
	send := func(lines ...string) {
		emuMu.Lock()
		defer emuMu.Unlock()
		for _, l := range lines {
			fmt.Fprintln(emuIn, l)
		}
	}
	// Two short presses closer than the pedal's double-press window (350 ms)
	// are a double press (pause): the judge's foot never presses that fast.
	var lastPedal time.Time
	pedal := func() {
		if d := 600*time.Millisecond - time.Since(lastPedal); d > 0 {
			time.Sleep(d)
		}
		send("pedal short")
		lastPedal = time.Now()
	}
	// settle waits until the emulator has played every command sent so far
	// (it answers "lights" in order), then lets the link carry the keys.
	settle := func() {
		send("lights")
		select {
		case <-emuLines:
		case <-time.After(30 * time.Second):
			t.Fatal("the emulator does not answer")
		}
		time.Sleep(200 * time.Millisecond)
	}
	tap := func(seat, target int) {
		var cmds []string
		for _, c := range fmt.Sprint(target) {
			cmds = append(cmds, fmt.Sprintf("tap %d %c", seat, c))
		}
		send(append(cmds, fmt.Sprintf("tap %d OK", seat))...)
	}

	const seed = 5
	b, _ := boards.Get("seer-witch-hunter-idiot")
	deal := engine.Deal(b, seed)
	var wolves, villagers []int
	witch, seer := 0, 0
	for i, r := range deal {
		switch r {
		case engine.Werewolf:
			wolves = append(wolves, i+1)
		case engine.Villager:
			villagers = append(villagers, i+1)
		case engine.Witch:
			witch = i + 1
		case engine.Seer:
			seer = i + 1
		}
	}
	cfg := filepath.Join(dir, "config.toml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`[table]
seats = 12
mode = "serial"
[serial]
port = %q
[game]
board = "seer-witch-hunter-idiot"
[game.options]
"vote.seconds" = "60"
[journal]
dir = %q
[console]
listen = "127.0.0.1:0"
`, link, filepath.Join(dir, "journals"))), 0o644)
	// The voice goes to a sound card of the test's own: ALSA's default PCM is
	// a file (a FIFO) over null, read here in 10 ms steps.
	fifo := filepath.Join(dir, "sink")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "asound.conf"), []byte(alsafile.Config(fifo, "TestServeEndToEnd")), 0o644)
	var voiced atomic.Int64 // non-silent bytes the sound card got
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			return
		}
		defer f.Close()
		buf := make([]byte, 3840) // every 10 ms: 30 ms of 16 kHz stereo float32, faster than a card
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for range tick.C {
			n, err := io.ReadFull(f, buf)
			for _, b := range buf[:n] {
				if b != 0 {
					voiced.Add(1)
				}
			}
			if err != nil {
				return
			}
		}
	}()
	srv := exec.Command(bin, "serve", "--config", cfg, "--once", "--autostart", "--speed", "10", "--seed", fmt.Sprint(seed))
	srv.Env = append(os.Environ(), "ALSA_CONFIG_PATH="+filepath.Join(dir, "asound.conf"), "HOME="+dir)
	out, _ := srv.StdoutPipe()
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()

	// The script: the witch saves night 1; the wolves knife a villager each
	// night; every seat votes the next wolf each day. Good wins on day 4.
	night := 0
	var said []string
	say := regexp.MustCompile(`^\d\d:\d\d:\d\d  法官：(.*)$`)
	result := ""
	sc := bufio.NewScanner(out)
	lines := make(chan string)
	go func() {
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	timeout := time.After(5 * time.Minute)
	for {
		var line string
		var ok bool
		select {
		case line, ok = <-lines:
		case <-timeout:
		}
		if !ok {
			break
		}
		if strings.HasPrefix(line, "result: ") {
			result = strings.TrimPrefix(line, "result: ")
			break
		}
		m := say.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		text := m[1]
		said = append(said, text)
		switch {
		case text == "狼人請確認同伴並商量戰術，狼人請選擇今晚要擊殺的目標":
			night++
			for _, w := range wolves {
				tap(w, villagers[night-1])
			}
		case text == "是否使用解藥，是否使用毒藥":
			if night == 1 {
				send(fmt.Sprintf("tap %d UP", witch))
			} else {
				send(fmt.Sprintf("tap %d WAVE", witch))
			}
		case text == "預言家請睜眼，請選擇你要查驗的目標":
			tap(seer, wolves[0])
		case strings.HasSuffix(text, "玩家請發言") || strings.HasSuffix(text, "請留遺言"):
			pedal()
		case text == "所有玩家戴盔投票，3~2~1":
			for s := 1; s <= 12; s++ {
				tap(s, wolves[night-1])
			}
			settle()
			pedal()
		}
	}
	if result != "好人" {
		if voiced.Load() == 0 {
			t.Log("the sound card got no voice")
		}
		srv.Process.Signal(syscall.SIGQUIT) // its goroutines, on stderr
		time.Sleep(500 * time.Millisecond)
		t.Fatalf("result %q, want 好人; the judge said:\n%s", result, strings.Join(said, "\n"))
	}
	srv.Wait()
	events := replayJournal(t, filepath.Join(dir, "journals"))
	cat := script.New()
	var replayed []string
	for _, e := range events {
		if e.Refused == nil && e.Effect.Kind == engine.EffSay && e.Effect.Line != "" {
			txt, _ := cat.Render(e.Effect.Line, e.Effect.Args)
			replayed = append(replayed, txt)
		}
	}
	if strings.Join(replayed, "\n") != strings.Join(said, "\n") {
		i := 0
		for i < len(said) && i < len(replayed) && said[i] == replayed[i] {
			i++
		}
		lo := max(0, i-3)
		t.Fatalf("the journal replays to other lines: live %d lines, replay %d; first difference at line %d:\nlive:   %q\nreplay: %q",
			len(said), len(replayed), i, said[lo:min(len(said), i+3)], replayed[lo:min(len(replayed), i+3)])
	}
	if voiced.Load() == 0 {
		t.Fatal("the judge's voice never reached the sound card")
	}
	t.Logf("%d lines, %d journal events, result %s, %d non-silent bytes of voice", len(said), len(events), result, voiced.Load())
}
