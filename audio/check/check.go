package check

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strings"
	"testing/fstest"
	"time"

	"wolftable/audio/pack"
)

// Severity says how much a finding matters.
type Severity int

const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// Kind names what a finding is about.
type Kind string

const (
	Missing         Kind = "missing"          // an expected clip has no file
	Unknown         Kind = "unknown"          // a clip file the pack does not expect
	Duplicate       Kind = "duplicate"        // a clip id given by two files
	Unrelated       Kind = "unrelated"        // a file or folder that is not a clip
	Manifest        Kind = "manifest"         // pack.txt missing or invalid
	Unreadable      Kind = "unreadable"       // damaged or truncated file
	Format          Kind = "format"           // a format the table does not play
	SampleRate      Kind = "sample-rate"      // plays, but at a low rate
	Silent          Kind = "silent"           // no voice at all
	Clipping        Kind = "clipping"         // flattened peaks
	LeadingSilence  Kind = "leading-silence"  // too much silence before the voice
	TrailingSilence Kind = "trailing-silence" // too much silence after it
	Length          Kind = "length"           // far longer or shorter than its text needs
	Level           Kind = "level"            // the clip's level (Info)
	Loudness        Kind = "loudness"         // a clip much louder or quieter than the rest
	Spread          Kind = "spread"           // the pack's loudness spread (Info)
)

// Finding is one thing the checker has to say.
type Finding struct {
	Severity Severity
	Kind     Kind
	Clip     string  // clip id, if about one clip
	File     string  // file name(s), if about files
	Value    float64 // the measure, in Unit
	Unit     string  // "dBFS", "dB", "ms", "Hz", "runs"; empty if no measure
	Message  string
}

func (f Finding) String() string {
	where := f.Clip
	switch {
	case where == "" && f.File == "":
		where = "pack"
	case where == "":
		where = f.File
	case f.File != "" && f.File != f.Clip:
		where += " (" + f.File + ")"
	}
	return fmt.Sprintf("%s: %s: %s", f.Severity, where, f.Message)
}

// Worst is the highest severity among fs, Info if there are none.
func Worst(fs []Finding) Severity {
	w := Info
	for _, f := range fs {
		w = max(w, f.Severity)
	}
	return w
}

type limits struct {
	maxSilence   time.Duration
	spread       float64 // dB from the median
	floor        float64 // dBFS
	minRate      int
	clipRun      int
	clipFraction float64
	suggested    func(id string) time.Duration // 0: no length check
}

// Option changes a threshold.
type Option func(*limits)

// WithMaxSilence sets the longest silence allowed before or after the voice;
// default 150 ms.
func WithMaxSilence(d time.Duration) Option { return func(l *limits) { l.maxSilence = d } }

// WithLevelSpread sets how far (dB) a clip's level may be from the pack's
// median; default 6 dB.
func WithLevelSpread(db float64) Option { return func(l *limits) { l.spread = db } }

// WithSilenceFloor sets the level (dBFS, negative) below which a 10 ms window
// counts as silence; default -45 dBFS.
func WithSilenceFloor(dbfs float64) Option { return func(l *limits) { l.floor = dbfs } }

// WithSuggested gives each clip's suggested length (what its text takes
// at the table's pace; audio/voice's Clip.Suggested): a clip whose voice
// lasts more than three times that plus a second (something else was
// recorded with it), or less than 30% of it (cut off), gets a Length
// warning. A clip for which it returns 0 is not measured.
func WithSuggested(f func(id string) time.Duration) Option {
	return func(l *limits) { l.suggested = f }
}

const window = 10 * time.Millisecond

// defaultLimits are the thresholds, changed by opts.
func defaultLimits(opts []Option) limits {
	l := limits{
		maxSilence:   150 * time.Millisecond,
		spread:       6,
		floor:        -45,
		minRate:      16000,
		clipRun:      3,
		clipFraction: 0.999,
	}
	for _, o := range opts {
		o(&l)
	}
	return l
}

// Check reads the pack at the top of fsys and reports what is wrong with it,
// most severe first. expected lists the clip ids the table needs (from the
// script catalogue); nil skips the missing and unknown checks.
func Check(fsys fs.FS, expected []string, opts ...Option) []Finding {
	l := defaultLimits(opts)
	var out []Finding
	add := func(f Finding) { out = append(out, f) }

	listing, err := pack.List(fsys)
	if err != nil {
		add(Finding{Severity: Error, Kind: Unreadable, Message: err.Error()})
		return out
	}
	checkManifest(fsys, listing, add)
	for _, name := range listing.Unrelated {
		add(Finding{Severity: Info, Kind: Unrelated, File: name, Message: "not a clip (.wav or .mp3) nor " + pack.ManifestName + "; ignored"})
	}

	if expected != nil {
		want := map[string]bool{}
		for _, id := range expected {
			want[id] = true
			if _, ok := listing.Clips[id]; !ok {
				add(Finding{Severity: Error, Kind: Missing, Clip: id, Message: fmt.Sprintf("no recording: add %s.wav", id)})
			}
		}
		for id, files := range listing.Clips {
			if !want[id] {
				add(Finding{Severity: Warning, Kind: Unknown, Clip: id, File: strings.Join(files, ", "), Message: "the table never plays this clip (misspelt name?)"})
			}
		}
	}

	var levels []clipLevel
	for id, files := range listing.Clips {
		if len(files) > 1 {
			slices.Sort(files)
			add(Finding{Severity: Error, Kind: Duplicate, Clip: id, File: strings.Join(files, ", "), Message: "recorded in more than one file; keep one"})
			continue
		}
		if lv, ok := checkClip(fsys, id, files[0], l, add); ok {
			levels = append(levels, lv)
		}
	}
	checkLoudness(levels, l, add)

	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(b.Severity, a.Severity),
			cmp.Compare(a.Clip, b.Clip),
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Kind, b.Kind),
		)
	})
	return out
}

func checkManifest(fsys fs.FS, l pack.Listing, add func(Finding)) {
	if !l.Manifest {
		add(Finding{Severity: Error, Kind: Manifest, File: pack.ManifestName, Message: "missing: write a " + pack.ManifestName + " with name, language, recorded-by and date"})
		return
	}
	b, err := pack.ReadFile(fsys, pack.ManifestName, pack.MaxManifestSize)
	if err == nil {
		_, err = pack.ParseManifest(b)
	}
	if err != nil {
		add(Finding{Severity: Error, Kind: Manifest, File: pack.ManifestName, Message: err.Error()})
	}
}

type clipLevel struct {
	id   string
	dbfs float64
}

// Clip reports on one clip file's bytes with voice check's rules and default
// thresholds (the pack-wide loudness spread aside): the studio's check of an
// upload (audio/studio).
func Clip(id, file string, data []byte, opts ...Option) []Finding {
	l := defaultLimits(opts)
	var out []Finding
	checkClip(fstest.MapFS{file: &fstest.MapFile{Data: data}}, id, file, l, func(f Finding) { out = append(out, f) })
	return out
}

// Recording reports the clipping rule on a recording as it was made, before
// anything changed its level: the studio levels a take to the pack's
// loudness, which lowers flattened peaks below the clipping threshold
// without making them sound any better.
func Recording(id, file string, a pack.Audio) []Finding {
	if runs := clippedRuns(a, defaultLimits(nil)); runs > 0 {
		return []Finding{{Severity: Error, Kind: Clipping, Clip: id, File: file, Value: float64(runs), Unit: "runs",
			Message: fmt.Sprintf("clipped in %d place(s): record again with less input gain", runs)}}
	}
	return nil
}

// checkClip reports on one clip file and returns its level if it has a voice.
func checkClip(fsys fs.FS, id, file string, l limits, add func(Finding)) (clipLevel, bool) {
	b, err := pack.ReadFile(fsys, file, pack.MaxClipFileSize)
	var a pack.Audio
	if err == nil {
		a, err = pack.DecodeFile(file, b)
	}
	if err != nil {
		kind := Unreadable
		if errors.Is(err, pack.ErrUnsupported) {
			kind = Format
		}
		add(Finding{Severity: Error, Kind: kind, Clip: id, File: file, Message: err.Error() + "; re-export as 16-bit PCM WAV"})
		return clipLevel{}, false
	}
	if a.Rate < l.minRate {
		add(Finding{Severity: Warning, Kind: SampleRate, Clip: id, File: file, Value: float64(a.Rate), Unit: "Hz",
			Message: fmt.Sprintf("recorded at %d Hz: telephone quality; record at 44100 or 48000 Hz", a.Rate)})
	}

	if runs := clippedRuns(a, l); runs > 0 {
		add(Finding{Severity: Error, Kind: Clipping, Clip: id, File: file, Value: float64(runs), Unit: "runs",
			Message: fmt.Sprintf("clipped in %d place(s): record again with less input gain", runs)})
	}

	win := windowRMS(a)
	floor := pack.FromDB(l.floor)
	first := slices.IndexFunc(win, func(r float64) bool { return r > floor })
	if first < 0 {
		add(Finding{Severity: Error, Kind: Silent, Clip: id, File: file,
			Message: fmt.Sprintf("no voice above %.0f dBFS", l.floor)})
		return clipLevel{}, false
	}
	last := len(win) - 1
	for win[last] <= floor {
		last--
	}
	frames := a.Frames()
	wf := windowFrames(a.Rate)
	lead := (time.Duration(first*wf) * time.Second / time.Duration(a.Rate)).Round(time.Millisecond)
	trail := (time.Duration(frames-min((last+1)*wf, frames)) * time.Second / time.Duration(a.Rate)).Round(time.Millisecond)
	if lead > l.maxSilence {
		add(Finding{Severity: Warning, Kind: LeadingSilence, Clip: id, File: file, Value: ms(lead), Unit: "ms",
			Message: fmt.Sprintf("%v of silence before the voice (over %v): it becomes a gap in the sentence; trim it", lead, l.maxSilence)})
	}
	if trail > l.maxSilence {
		add(Finding{Severity: Warning, Kind: TrailingSilence, Clip: id, File: file, Value: ms(trail), Unit: "ms",
			Message: fmt.Sprintf("%v of silence after the voice (over %v): it becomes a gap in the sentence; trim it", trail, l.maxSilence)})
	}

	var sum float64
	n := 0
	for _, r := range win[first : last+1] {
		if r > floor {
			sum += r * r
			n++
		}
	}
	level := pack.DB(math.Sqrt(sum / float64(n)))
	if l.suggested != nil {
		checkLength(id, file, time.Duration((last+1-first)*wf)*time.Second/time.Duration(a.Rate), l.suggested(id), add)
	}
	add(Finding{Severity: Info, Kind: Level, Clip: id, File: file, Value: round1(level), Unit: "dBFS",
		Message: fmt.Sprintf("level %.1f dBFS, %v, %d Hz %s", level, a.Duration().Round(time.Millisecond), a.Rate, channelsName(a.Channels))})
	return clipLevel{id: id, dbfs: level}, true
}

// checkLength flags a clip whose voice is far longer or shorter than its
// text takes (see WithSuggested).
func checkLength(id, file string, voiced, suggested time.Duration, add func(Finding)) {
	if suggested <= 0 {
		return
	}
	voiced = voiced.Round(100 * time.Millisecond)
	switch {
	case voiced > 3*suggested+time.Second:
		add(Finding{Severity: Warning, Kind: Length, Clip: id, File: file, Value: ms(voiced), Unit: "ms",
			Message: fmt.Sprintf("the voice lasts %v, about %v is expected: was something else recorded with it?", voiced, suggested)})
	case voiced*10 < 3*suggested:
		add(Finding{Severity: Warning, Kind: Length, Clip: id, File: file, Value: ms(voiced), Unit: "ms",
			Message: fmt.Sprintf("the voice lasts only %v, about %v is expected: cut off?", voiced, suggested)})
	}
}

// checkLoudness flags clips far from the pack's median level.
func checkLoudness(levels []clipLevel, l limits, add func(Finding)) {
	if len(levels) < 3 {
		return
	}
	db := make([]float64, len(levels))
	for i, lv := range levels {
		db[i] = lv.dbfs
	}
	slices.Sort(db)
	median := db[len(db)/2]
	if len(db)%2 == 0 {
		median = (db[len(db)/2-1] + db[len(db)/2]) / 2
	}
	add(Finding{Severity: Info, Kind: Spread, Value: round1(db[len(db)-1] - db[0]), Unit: "dB",
		Message: fmt.Sprintf("levels from %.1f to %.1f dBFS, median %.1f", db[0], db[len(db)-1], median)})
	for _, lv := range levels {
		d := lv.dbfs - median
		if math.Abs(d) <= l.spread {
			continue
		}
		word := "louder"
		if d < 0 {
			word = "quieter"
		}
		add(Finding{Severity: Warning, Kind: Loudness, Clip: lv.id, Value: round1(d), Unit: "dB",
			Message: fmt.Sprintf("%.1f dB %s than the pack's median (%.1f dBFS); over %.0f dB stands out at the table", math.Abs(d), word, median, l.spread)})
	}
}

// clippedRuns counts runs of clipRun or more equal samples near full scale in
// any one channel.
func clippedRuns(a pack.Audio, l limits) int {
	limit := int(math.Ceil(32767 * l.clipFraction))
	runs := 0
	for c := 0; c < a.Channels; c++ {
		n, prev := 0, 0
		for i := c; i < len(a.Samples); i += a.Channels {
			v := int(a.Samples[i])
			switch {
			case v < limit && v > -limit:
				n = 0
			case n > 0 && v == prev:
				n++
			default:
				n = 1
			}
			if n == l.clipRun {
				runs++
			}
			prev = v
		}
	}
	return runs
}

func windowFrames(rate int) int {
	return max(1, int(int64(rate)*int64(window)/int64(time.Second)))
}

// windowRMS is the RMS of each 10 ms window (all channels), in full-scale
// units; a short last window counts.
func windowRMS(a pack.Audio) []float64 {
	return pack.WindowRMS(a.Samples, a.Channels, windowFrames(a.Rate))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func round1(v float64) float64 { return math.Round(v*10) / 10 }

func channelsName(n int) string {
	if n == 1 {
		return "mono"
	}
	return "stereo"
}
