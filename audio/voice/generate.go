package voice

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"wolftable/audio/pack"
)

// How the default pack is made (see Generate). They are part of SourceHash:
// changing one makes the embedded pack stale.
const (
	EspeakVoice = "cmn-latn-pinyin" // the only voice that reads Mandarin well: from pinyin
	EspeakSpeed = 200               // words (syllables) a minute; espeak-ng's default 175 drags
	GenRate     = 48000             // MP3 rate: MPEG-1 (go-mp3 garbles some MPEG-2 files); loading resamples it to pack.SampleRate
	GenBitrate  = 40                // kbit/s, mono, CBR: lowpass at 10 kHz, about the synthesizer's band
	GenLevel    = -20.0             // dBFS, RMS of the voiced windows
	GenPeak     = -3.0              // dBFS, the most a sample may reach (MP3 overshoots a little)
	GenTrim     = -50.0             // dBFS: silence is cut below this level, in 2.5 ms windows
	GenLead     = 2 * time.Millisecond
	GenTrail    = 10 * time.Millisecond
)

// GenLanguage is the default pack's language tag: Mandarin.
const GenLanguage = "cmn"

// GenName is the default pack's name.
const GenName = "wolftable default voice (espeak-ng)"

// SourceHash identifies what a generated pack says and how it was made: a
// hash of every clip's id, text and pinyin and of the generator's settings.
// Generate writes it in the manifest's notes ("source <hash>"); the tests
// compare it with the embedded pack's to catch a stale pack.
func SourceHash(b *Binding) string {
	h := sha256.New()
	fmt.Fprintf(h, "espeak-ng %s %d; mp3 %d Hz %d kbit/s mono; level %g peak %g trim %g lead %v trail %v\n",
		EspeakVoice, EspeakSpeed, GenRate, GenBitrate, GenLevel, GenPeak, GenTrim, GenLead, GenTrail)
	for _, c := range b.clips {
		fmt.Fprintf(h, "%s\t%s\t%s\n", c.ID, c.Text, c.Pinyin)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

var sourceRE = regexp.MustCompile(`\bsource ([0-9a-f]{16})\b`)

// ManifestSource returns the source hash a generated pack's manifest
// records, or "" if it records none (a recorded pack).
func ManifestSource(m pack.Manifest) string {
	if s := sourceRE.FindStringSubmatch(m.Notes); s != nil {
		return s[1]
	}
	return ""
}

// GenerateOptions configures Generate.
type GenerateOptions struct {
	// Binding is what to generate; nil is the default binding.
	Binding *Binding
	// Jobs is how many clips are made at once; 0 is GOMAXPROCS.
	Jobs int
	// Progress, when set, gets a line per clip.
	Progress io.Writer
	// Espeak and Lame are the programs; "" looks up espeak-ng and lame on
	// PATH.
	Espeak, Lame string
}

// ErrTools is returned by Generate when espeak-ng or lame is missing.
var ErrTools = errors.New("voice: generating a pack needs espeak-ng and lame (apt-get install espeak-ng lame)")

// Generate makes a voice pack in dir from the catalogue with espeak-ng's
// cmn-latn-pinyin voice, the way the embedded default pack is made:
//
//  1. each clip's pinyin (Clip.Pinyin: the catalogue's override, or
//     Pinyin(text)) is synthesized by espeak-ng at EspeakSpeed;
//  2. its level is set (GenLevel over the voiced windows, peaks at most
//     GenPeak) and its silence cut to GenLead before and GenTrail after the
//     voice (espeak-ng leaves about 300 ms), with 3 ms fades at the cuts;
//  3. it is resampled to GenRate and encoded by lame as MPEG-1 Layer III,
//     mono, GenBitrate kbit/s, with no Xing/LAME tag frame (which the table's
//     decoder would play as 24 ms of silence).
//
// The decoder's delay adds about 23 ms before the voice, so a clip starts
// within 30 ms and ends within 50 ms of its voice. The output depends only
// on the catalogue, the settings and the tools' versions: the same tools
// make the same bytes.
//
// dir is created, or must hold nothing but a pack (pack.txt and clip
// files), which is replaced; if a clip cannot be made, dir is left as it
// was.
func Generate(ctx context.Context, dir string, o GenerateOptions) error {
	b := o.Binding
	if b == nil {
		var err error
		if b, err = Default(); err != nil {
			return err
		}
	}
	espeak, lame, err := tools(o)
	if err != nil {
		return err
	}
	if err := checkPackDir(dir); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "wolftable-voice-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	clips := b.Clips()
	out := make([][]byte, len(clips))
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next = make(chan int)
	)
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				mp3, err := synthesize(ctx, espeak, lame, tmp, clips[i])
				if err != nil {
					cancel(fmt.Errorf("voice: clip %s (%s): %w", clips[i].ID, clips[i].Pinyin, err))
					continue
				}
				out[i] = mp3
				if o.Progress != nil {
					mu.Lock()
					fmt.Fprintf(o.Progress, "%-36s %6d bytes  %s\n", clips[i].ID, len(mp3), clips[i].Text)
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for i := range clips {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return err
	}

	files := map[string][]byte{}
	for i, c := range clips {
		files[c.ID+".mp3"] = out[i]
	}
	m := pack.Manifest{
		Name:       GenName,
		Language:   GenLanguage,
		RecordedBy: "espeak-ng " + toolVersion(espeak, "--version") + " (" + EspeakVoice + "), by wolftable voice generate",
		Notes: fmt.Sprintf("%d Hz mono %d kbit/s MP3 by LAME %s on %s; level %g dBFS; source %s",
			GenRate, GenBitrate, toolVersion(lame, "--version"), runtime.GOARCH, GenLevel, SourceHash(b)),
	}
	mb, err := m.MarshalText()
	if err != nil {
		return err
	}
	files[pack.ManifestName] = mb
	return writePack(dir, files)
}

func tools(o GenerateOptions) (espeak, lame string, err error) {
	espeak, lame = o.Espeak, o.Lame
	if espeak == "" {
		espeak = "espeak-ng"
	}
	if lame == "" {
		lame = "lame"
	}
	var errs []error
	for _, p := range []*string{&espeak, &lame} {
		path, err := exec.LookPath(*p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		*p = path
	}
	if len(errs) > 0 {
		return "", "", fmt.Errorf("%w: %v", ErrTools, errors.Join(errs...))
	}
	return espeak, lame, nil
}

var versionRE = regexp.MustCompile(`\d+\.\d+(\.\d+)?`)

// toolVersion is the first version number a program prints, or "?".
func toolVersion(prog, arg string) string {
	out, _ := exec.Command(prog, arg).CombinedOutput()
	if v := versionRE.Find(out); v != nil {
		return string(v)
	}
	return "?"
}

// synthesize makes one clip's MP3.
func synthesize(ctx context.Context, espeak, lame, tmp string, c Clip) ([]byte, error) {
	wav := filepath.Join(tmp, c.ID+".wav")
	cmd := exec.CommandContext(ctx, espeak, "-v", EspeakVoice, "-s", strconv.Itoa(EspeakSpeed), "-w", wav, c.Pinyin)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("espeak-ng: %v: %s", err, bytes.TrimSpace(out))
	}
	raw, err := os.ReadFile(wav)
	if err != nil {
		return nil, err
	}
	a, err := pack.DecodeWAV(raw)
	if err != nil {
		return nil, fmt.Errorf("espeak-ng's output: %w", err)
	}
	s := shape(a.Mono(), a.Rate, GenLevel, GenPeak, GenTrim, GenLead, GenTrail)
	if len(s) == 0 {
		return nil, errors.New("espeak-ng said nothing")
	}
	s = pack.Resample(s, a.Rate, GenRate)
	in := pack.EncodeWAV(pack.Audio{Rate: GenRate, Channels: 1, Samples: s})
	var stdout, stderr bytes.Buffer
	cmd = exec.CommandContext(ctx, lame, "--quiet", "-t", "--noreplaygain", "-q", "2", "-m", "m",
		"-b", strconv.Itoa(GenBitrate), "--resample", strconv.Itoa(GenRate/1000), "-", "-")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("lame: %v: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	return stdout.Bytes(), nil
}

// isPackFile tells whether a file name belongs to a pack: the manifest or a
// clip.
func isPackFile(name string) bool {
	if name == pack.ManifestName {
		return true
	}
	_, ok := pack.ClipID(name)
	return ok
}

// checkPackDir accepts a folder that does not exist yet, or holds nothing
// but a pack's files: Generate and Export replace those, and must not mix
// two packs nor delete anything else.
func checkPackDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var other []string
	for _, e := range entries {
		if e.IsDir() || !isPackFile(e.Name()) {
			other = append(other, e.Name())
		}
	}
	if len(other) > 0 {
		sort.Strings(other)
		return fmt.Errorf("voice: %s holds files that are not a voice pack's (%s); give a new or empty folder, or a pack folder to replace",
			dir, strings.Join(other, ", "))
	}
	return nil
}

// writePack replaces the pack in dir with files (name → content).
func writePack(dir string, files map[string][]byte) error {
	if err := checkPackDir(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if _, keep := files[e.Name()]; !keep && isPackFile(e.Name()) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), files[n], 0o644); err != nil {
			return err
		}
	}
	return nil
}
