package main

import (
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"wolftable/daemon"
	"wolftable/engine"
	"wolftable/journal"
)

// unsent is how many finished journals wait for the desk: in the outbox,
// or at the top of the journals folder.
func (s *soak) unsent() int {
	n := 0
	q, _ := journal.Queued(s.jdir)
	for _, p := range q {
		if _, err := os.Stat(p + ".sent"); err != nil {
			n++
		}
	}
	top, _ := filepath.Glob(filepath.Join(s.jdir, "*"+journal.Extension))
	for _, p := range top {
		if j, err := journal.Read(p); err == nil && j.Finished() {
			if _, err := os.Stat(p + ".sent"); err != nil {
				n++
			}
		}
	}
	return n
}

// soakJournal is a journal of the day, read back.
type soakJournal struct {
	name     string
	j        *journal.Journal
	finished bool
}

// check is the day's verdict (see TestSoak), with its figures.
func (s *soak) check() {
	t := s.t
	pub := journal.PublicKeyPath(journal.KeyPathFor(s.jdir))
	var all []soakJournal
	finished := 0
	for _, p := range journalFiles(s.jdir) {
		j, err := journal.Read(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		sj := soakJournal{name: filepath.Base(p), j: j, finished: j.Finished()}
		all = append(all, sj)
		if !sj.finished {
			continue
		}
		finished++
		if code := recordArgs([]string{"verify", p, "--pubkey", pub}, io.Discard, io.Discard); code != 0 {
			t.Errorf("%s does not verify as signed by the table's key (exit %d)", p, code)
		}
	}
	sort.Slice(all, func(a, b int) bool { // by start: several games start in one second (the names' resolution)
		return all[a].j.Header.Start.Before(all[b].j.Header.Start)
	})
	if damaged, _ := filepath.Glob(filepath.Join(s.jdir, "*.damaged-*")); len(damaged) > 0 {
		t.Errorf("journals moved aside as damaged: %v", damaged)
	}
	if unfinished := len(all) - finished; unfinished > 1 {
		t.Errorf("%d unfinished journals; only the game in progress at the stop may be", unfinished)
	}
	if finished < s.games {
		t.Errorf("%d finished journals, %d games ended", finished, s.games)
	}
	atDesk, dup := s.checkDesk(all)
	acked, journaled, lost := s.checkInputs(all)
	r := s.rates()
	s.mu.Lock()
	defer s.mu.Unlock()
	f := &s.flood
	t.Logf("soak: %d games (%d finished journals, all verified and signed), %d at the desk (once each; %d sent again after a kill, kept once), "+
		"%d SIGKILLs (%d games resumed), %d desk outages, %d bridge replugs",
		s.games, finished, atDesk, dup, s.kills, s.resumed, s.outages, s.emu.plugs())
	t.Logf("soak: bridge: %d key presses acknowledged, %d journaled as seat inputs (each acknowledged one once; %d never acknowledged, lost in the bridge's reboot at an unplug)", acked, journaled, lost)
	t.Logf("soak: console: %d public streams at most (of 200), %d state messages streamed, %d streams refused or cut; "+
		"%d wrong PINs (401), %d throttled (429), %d judge logins, %d god views read, %d other answers",
		f.maxStreams.Load(), f.streamed.Load(), f.refused.Load(), f.wrongPIN.Load(), f.throttled.Load(), f.logins.Load(), f.godViews.Load(), f.bad.Load())
	w0, c0 := r.first()
	w9, c9 := r.last()
	t.Logf("soak: games per minute, first tenth %.1f, last tenth %.1f (ratio %.2f); per minute of the table's CPU %.1f and %.1f (ratio %.2f)",
		w0, w9, w9/w0, c0, c9, c9/c0)
	t.Logf("soak: games per minute by tenth: %.0f; per CPU minute: %.0f; the day's trend, last tenth over first %.2f ± %.2f (games' CPU time spread %.0f%%)",
		r.wall, r.cpu, r.trend, r.se, 100*r.spread)
	t.Logf("soak: RSS peak, first tenth %d kB, last tenth %d kB (%+d kB)", r.rss[0], r.rss[1], r.rss[1]-r.rss[0])
	// Games per CPU minute, not per wall minute: the machine's other work
	// (other tests, a build) slows the wall clock's games, not the table's
	// own. The day's trend through every game, not two tenths' medians: a
	// short day's tenths are a few games each. The day fails when the
	// slowdown past 10% is beyond three standard errors of the estimate.
	if r.trend+3*r.se < 0.9 {
		t.Errorf("the day's last tenth plays %.2f ± %.2f of the first tenth's games per CPU minute: the table slows down", r.trend, r.se)
	}
	if r.rss[1] > r.rss[0]+2048 {
		t.Errorf("RSS peak of the last tenth %d kB, of the first %d kB: more than 2 MB more", r.rss[1], r.rss[0])
	}
	if f.maxStreams.Load() < 200 || f.streamed.Load() == 0 || f.wrongPIN.Load()+f.throttled.Load() == 0 || f.godViews.Load() == 0 {
		t.Errorf("the console flood did not happen as meant: %d streams, %d messages, %d wrong PINs, %d god views",
			f.maxStreams.Load(), f.streamed.Load(), f.wrongPIN.Load()+f.throttled.Load(), f.godViews.Load())
	}
	if s.kills < 2 || s.outages < 2 || s.emu.plugs() < 2 {
		t.Errorf("too few faults: %d kills, %d desk outages, %d replugs", s.kills, s.outages, s.emu.plugs())
	}
}

// checkDesk: every finished journal is at the desk, once, signed, and
// the desk holds nothing else of this table and refused nothing. dup is
// how many records the table sent again (a kill after the desk's
// acknowledgement and before the marker): the desk answered duplicate.
func (s *soak) checkDesk(all []soakJournal) (atDesk, dup int) {
	t := s.t
	var games []struct {
		Table       string `json:"table"`
		Hash        string `json:"hash"`
		SignatureOK bool   `json:"signature_ok"`
	}
	getJSON(t, s.desk.http+"api/public/games", &games)
	seen := map[string]int{}
	for _, g := range games {
		if g.Table == soakTable {
			seen[g.Hash]++
			if !g.SignatureOK {
				t.Errorf("the desk holds game %s without the table's signature", g.Hash)
			}
		}
	}
	absent := 0
	for _, sj := range all {
		if !sj.finished {
			continue
		}
		h := sj.j.Head()
		hash := hex.EncodeToString(h[:])
		if seen[hash] != 1 {
			t.Errorf("%s is at the desk %d times", sj.name, seen[hash])
			absent++
		}
		delete(seen, hash)
		atDesk++
		if mk, err := os.ReadFile(journal.ArchivePath(s.jdir, sj.name) + ".sent"); err == nil && strings.Contains(string(mk), `"duplicate":true`) {
			dup++
		}
	}
	if absent > 0 { // what the last serve said about the desk, to see why
		s.mu.Lock()
		out := s.serveOut.String()
		s.mu.Unlock()
		var said []string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "desk") || strings.Contains(l, "總台") {
				said = append(said, l)
			}
		}
		t.Logf("the last serve's lines about the desk (%d):\n%s", len(said), strings.Join(said[max(0, len(said)-15):], "\n"))
	}
	if len(seen) > 0 {
		t.Errorf("the desk holds %d games of the table that are no journal of it", len(seen))
	}
	var refused []any
	getJSON(t, s.desk.http+"api/public/refused", &refused)
	if len(refused) > 0 {
		t.Errorf("the desk refused %d records: %v", len(refused), refused)
	}
	return atDesk, dup
}

// checkInputs: every key press the bridge had acknowledged (its down
// edge, WAVE or HAND) is in the journals exactly once, known by its
// identity (the driver's hw.KeyEvent.ID, in the input's source:
// daemon.KeySource); no press is journaled twice, a resent one after a
// kill included; every seat input from the bridge carries its identity.
// A press journaled and never acknowledged (lost) is one the bridge had in
// flight when it was unplugged: it rebooted and forgot it, so there are
// at most as many as unplugs. Journaled is acked plus lost, exactly.
func (s *soak) checkInputs(all []soakJournal) (acked, journaled, lost int) {
	t := s.t
	count := map[string]int{}
	anonymous := 0
	for _, sj := range all {
		for _, r := range sj.j.Records {
			if r.Kind != journal.KindInput || r.Input.Kind != engine.InSeat || !strings.HasPrefix(r.Source, "seat-") {
				continue
			}
			if r.Input.Action != engine.ActWave && r.Input.Action != engine.ActHand {
				continue
			}
			journaled++
			id := daemon.SourceKey(r.Source)
			if id == "" {
				anonymous++
				t.Errorf("%s: record %d, a seat's %v from %q: no key event identity", sj.name, r.Index, r.Input.Action, r.Source)
				continue
			}
			count[id]++
			if count[id] == 2 {
				t.Errorf("soak: key event %s journaled twice (%s, record %d)", id, sj.name, r.Index)
			}
		}
	}
	missing := 0
	ackedIDs := map[string]bool{}
	for _, k := range s.emu.ackedKeys() {
		if k.Key != "WAVE" && k.Key != "HAND" || k.Edge != "down" {
			continue
		}
		acked++
		id := k.id()
		ackedIDs[id] = true
		if count[id] == 0 {
			missing++
			t.Errorf("soak: seat %d's %s (key event %s) acknowledged at %s and in no journal; %s", k.Seat, k.Key, id,
				k.at.Format("15:04:05.000"), s.nearestKill(k.at))
		}
	}
	for id, n := range count {
		if n > 1 {
			t.Errorf("soak: key event %s is in the journals %d times, want once", id, n)
		}
		if !ackedIDs[id] {
			lost++
			t.Logf("soak: key event %s journaled and never acknowledged: in flight when the bridge was unplugged", id)
		}
	}
	if unplugs := s.emu.unplugCount(); lost > unplugs {
		t.Errorf("soak: %d key presses journaled and never acknowledged, more than the bridge's %d reboots (unplugs) can lose", lost, unplugs)
	}
	if want := acked - missing + lost + anonymous; journaled != want {
		t.Errorf("soak: %d presses journaled, want %d: the %d acknowledged, once each, and the %d lost in a reboot", journaled, want, acked, lost)
	}
	return acked, journaled, lost
}

// id is the key event's identity as the serial driver gives it
// (hw.KeyEvent.ID) and the daemon journals it (daemon.KeySource).
func (k ackedKey) id() string {
	return fmt.Sprintf("%d.%s.%s.%d.%d", k.Seat, k.Key, k.Edge, k.Counter, k.Micros)
}

// unplugs is how many times the bridge was unplugged.
func (e *soakEmu) unplugCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.unplugs)
}

// soakRates are each tenth's games per wall minute and per minute of
// serve's CPU, and the first and last tenth's RSS peaks (kB).
type soakRates struct {
	wall, cpu [10]float64
	rss       [2]int64
	// trend is the CPU games per minute of the last tenth over the
	// first's as a least-squares line through every game of the day gives
	// them (a tenth's own median is a few games' on a short day), se its
	// standard error; spread is the games' CPU time's coefficient of
	// variation around that line.
	trend, se, spread float64
}

func (r *soakRates) first() (wall, cpu float64) { return r.wall[0], r.cpu[0] }
func (r *soakRates) last() (wall, cpu float64)  { return r.wall[9], r.cpu[9] }

// rates measures the tenths of the day's games by their median game: a
// game's time is from the end of the game before it to its own, in one
// process (the game after a restart is not counted: its time is the
// restart's), on the wall clock and on serve's CPU. The median, not the
// mean: a game that paid for a desk's return or a burst of the machine's
// other work is not the table slowing down.
func (s *soak) rates() soakRates {
	ended := s.day() // serve plays on while the desk gets the last records: those are not the day's
	s.mu.Lock()
	defer s.mu.Unlock()
	var r soakRates
	n := len(ended)
	tenth := max(1, n/10)
	for k := range 10 {
		var wall, cpu []float64
		for i := max(k*tenth, 1); i < (k+1)*tenth && i < n; i++ {
			a, b := ended[i-1], ended[i]
			if a.pid != b.pid || a.cpu < 0 || b.cpu < 0 {
				continue
			}
			wall = append(wall, b.at.Sub(a.at).Minutes())
			cpu = append(cpu, float64(b.cpu-a.cpu)/float64(time.Minute))
		}
		if m := median(wall); m > 0 {
			r.wall[k] = 1 / m
		}
		if m := median(cpu); m > 0 {
			r.cpu[k] = 1 / m
		}
	}
	r.trend, r.se, r.spread = trend(ended)
	for _, x := range s.rss {
		switch {
		case x.game < tenth:
			r.rss[0] = max(r.rss[0], x.kB)
		case x.game >= 9*tenth && x.game < n:
			r.rss[1] = max(r.rss[1], x.kB)
		}
	}
	return r
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	if n := len(v); n%2 == 0 {
		return (v[n/2-1] + v[n/2]) / 2
	}
	return v[len(v)/2]
}

// nearestKill says how far the nearest SIGKILL was from at.
func (s *soak) nearestKill(at time.Time) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.killedAt) == 0 {
		return "no kill"
	}
	best := time.Duration(1 << 62)
	for _, k := range s.killedAt {
		if d := k.Sub(at); d.Abs() < best.Abs() {
			best = d
		}
	}
	return fmt.Sprintf("the nearest SIGKILL %v after it", best)
}

// trend fits a line to the CPU time of each game of the day (those not
// after a restart) against its place in the day, and returns the line's
// games per CPU minute at the last tenth's middle over the first's, the
// ratio's standard error (the delta method over the fit's residuals) and
// the residuals' spread relative to the mean game.
func trend(ended []gameEnd) (ratio, se, spread float64) {
	var xs, ys []float64
	for i := 1; i < len(ended); i++ {
		a, b := ended[i-1], ended[i]
		if a.pid == b.pid && a.cpu >= 0 && b.cpu >= 0 {
			xs, ys = append(xs, float64(i)/float64(len(ended))), append(ys, float64(b.cpu-a.cpu))
		}
	}
	n := float64(len(xs))
	if n < 3 {
		return 0, 0, 0
	}
	var sx, sy float64
	for i := range xs {
		sx, sy = sx+xs[i], sy+ys[i]
	}
	mx, my := sx/n, sy/n
	var sxx, sxy float64
	for i := range xs {
		sxx, sxy = sxx+(xs[i]-mx)*(xs[i]-mx), sxy+(xs[i]-mx)*(ys[i]-my)
	}
	slope := sxy / sxx
	var ss float64
	for i := range xs {
		d := ys[i] - (my + slope*(xs[i]-mx))
		ss += d * d
	}
	v := ss / (n - 2) // the residuals' variance
	at := func(x float64) float64 { return my + slope*(x-mx) }
	x1, x9 := 0.05, 0.95
	f1, f9 := at(x1), at(x9)
	if f1 <= 0 || f9 <= 0 {
		return 0, 0, 0
	}
	v1, v9 := v*(1/n+(x1-mx)*(x1-mx)/sxx), v*(1/n+(x9-mx)*(x9-mx)/sxx)
	c := v * (1/n + (x1-mx)*(x9-mx)/sxx)
	ratio = f1 / f9 // CPU per game first over last = games per CPU minute last over first
	se = ratio * math.Sqrt(max(0, v1/(f1*f1)+v9/(f9*f9)-2*c/(f1*f9)))
	return ratio, se, math.Sqrt(v) / my
}
