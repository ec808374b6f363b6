package voice

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"time"

	"wolftable/audio/check"
	"wolftable/audio/pack"
	"wolftable/internal/cliflag"
	"wolftable/script"
)

// CommandUsage is the help of `wolftable voice`.
const CommandUsage = `用法：
  wolftable voice script [--format md|csv]
        錄音清單：每段錄音的代號、文字、拼音、用到它的句子、建議長度
  wolftable voice check [-v] DIR
        以本桌需要的錄音檢查一個語音包資料夾；有錯誤時結束碼為 1
        （-v：另印出每段錄音的音量與長度）
  wolftable voice say [--config FILE] [--pack DIR [--fill]] [--volume V] LINE [SEAT...]
        在音效裝置上以本桌的語音說出語音目錄中的一句（設定檔的語音包，
        否則錄音室啟用的語音包，否則內建語音），或以 --pack 的語音包
        （--fill：它缺的錄音由內建語音補上）；音量 --volume 為 0 到 1
  wolftable voice render [--config FILE] [--pack DIR [--fill]] [--volume V] LINE [SEAT...] --out FILE.wav
        把本桌為這一句交給音效裝置的取樣（與 ` + "`say`" + ` 同一個語音）寫成
        WAV 檔：用來預聽一句，或比較
  wolftable voice export OUTDIR
        把內建的預設語音包寫成一個語音包資料夾
  wolftable voice generate [-v] OUTDIR
        由語音目錄產生預設語音包（需要 ` + "`espeak-ng`" + ` 與 ` + "`lame`" + `）
`

// Choice is a voice to speak with: a pack folder ("" = the embedded
// default), whether the default fills its gaps (Options.Fill), and how to
// call it to a person.
type Choice struct {
	Pack  string
	Fill  bool
	Label string
}

// Env is what the command needs from the table's binary.
type Env struct {
	// TableVoice is the voice the table speaks with under the config file
	// at path ("" = the default config): voice say's voice without --pack.
	// nil: the embedded default pack.
	TableVoice func(path string) (Choice, error)
}

// Command runs `wolftable voice ARGS...` and returns the exit code: 0, 1 when
// the work failed (a pack with errors, a line that cannot be said), 2 for a
// usage error.
func Command(args []string, stdout, stderr io.Writer) int {
	return CommandWith(args, stdout, stderr, Env{})
}

// CommandWith is Command with the table's Env.
func CommandWith(args []string, stdout, stderr io.Writer, env Env) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, CommandUsage)
		return 2
	}
	switch args[0] {
	case "script":
		return cmdScript(args[1:], stdout, stderr)
	case "check":
		return cmdCheck(args[1:], stdout, stderr)
	case "say":
		return cmdSay(args[1:], stdout, stderr, env)
	case "render":
		return cmdRender(args[1:], stdout, stderr, env)
	case "export":
		return cmdExport(args[1:], stdout, stderr)
	case "generate":
		return cmdGenerate(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, CommandUsage)
		return 0
	}
	fmt.Fprintf(stderr, "voice：沒有 %q 這個指令\n\n%s", args[0], CommandUsage)
	return 2
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	return cliflag.New("voice "+name, CommandUsage, stderr)
}

func cmdScript(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("script", stderr)
	format := fs.String("format", "md", "md or csv")
	pos, err := cliflag.Interspersed(fs, args)
	if err != nil || len(pos) > 0 || (*format != "md" && *format != "csv") {
		fmt.Fprint(stderr, CommandUsage)
		return 2
	}
	b, err := Default()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if *format == "csv" {
		err = WriteScriptCSV(stdout, b)
	} else {
		err = WriteScriptMarkdown(stdout, b)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// WriteScriptCSV writes the recording checklist as CSV: a header, then one
// row per clip: clip, text, pinyin, lines (space-separated line ids),
// seconds (the suggested length).
func WriteScriptCSV(w io.Writer, b *Binding) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"clip", "text", "pinyin", "lines", "seconds"})
	for _, c := range b.Clips() {
		cw.Write([]string{c.ID, c.Text, c.Pinyin, strings.Join(c.Lines, " "), secs(c.Suggested())})
	}
	cw.Flush()
	return cw.Error()
}

func secs(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) }

// WriteScriptMarkdown writes the recording checklist as a Markdown document.
func WriteScriptMarkdown(w io.Writer, b *Binding) error {
	clips := b.Clips()
	var total time.Duration
	for _, c := range clips {
		total += c.Suggested()
	}
	fmt.Fprintf(w, `# Judge voice: recording checklist

%d clips, about %s of voice. Each clip is one file in the pack folder, named
by its clip id: `+"`line.day.deaths.2.wav`"+`. The table strings clips together into
sentences, so:

- record 16-bit PCM WAV (44.1 or 48 kHz, mono), or MP3 at 32 kHz or more;
- cut the silence before and after the voice to under 50 ms (the check warns
  over 150 ms: it becomes a gap in the sentence);
- keep one level and one pace for the whole pack (the check warns about clips
  more than 6 dB from the pack's median);
- say seats and fixed parts in the same tone, as parts of one sentence;
- add a pack.txt with name, language, recorded-by and date.

The pauses (after a comma, between listed seats, between the numbers of a
countdown) are made by the table: do not record them. Check the folder with
`+"`wolftable voice check DIR`"+`.

| clip | text | pinyin | used by | length |
|---|---|---|---|---|
`, len(clips), total.Round(time.Second))
	for _, c := range clips {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s s |\n", c.ID, c.Text, c.Pinyin, usedBy(c), secs(c.Suggested()))
	}
	_, err := fmt.Fprintln(w)
	return err
}

// usedBy is a clip's lines for the Markdown table, shortened when long.
func usedBy(c Clip) string {
	switch {
	case c.Kind == KindSeat:
		return fmt.Sprintf("every line with a seat: {s} {s2} {list} {players} (%d lines)", len(c.Lines))
	case len(c.Lines) > 4:
		return strings.Join(c.Lines[:3], ", ") + fmt.Sprintf(" and %d more", len(c.Lines)-3)
	}
	return strings.Join(c.Lines, ", ")
}

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", stderr)
	verbose := fs.Bool("v", false, "also print each clip's level and duration")
	pos, err := cliflag.Interspersed(fs, args)
	if err != nil || len(pos) != 1 {
		fmt.Fprint(stderr, CommandUsage)
		return 2
	}
	dir := pos[0]
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "voice check: %s is not a folder\n", dir)
		return 1
	}
	b, err := Default()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	ids := b.ClipIDs()
	findings := check.Check(os.DirFS(dir), ids, check.WithSuggested(b.Suggested))
	counts := map[check.Severity]int{}
	for _, f := range findings {
		counts[f.Severity]++
		if f.Severity > check.Info || *verbose || f.Kind == check.Spread {
			fmt.Fprintln(stdout, f)
		}
	}
	fmt.Fprintf(stdout, "%s: %d clips expected; %d errors, %d warnings\n", dir, len(ids), counts[check.Error], counts[check.Warning])
	if counts[check.Error] > 0 {
		return 1
	}
	return 0
}

// lineArgs are say's and render's: the voice, the line, its seats.
type lineArgs struct {
	choice Choice
	volume float64
	line   string
	seats  []int
	seq    []string
	out    string // render's --out
}

// parseLine parses say's or render's arguments and prints the line; code
// is the exit code when ok is false.
func parseLine(name string, args []string, stdout, stderr io.Writer, env Env) (la lineArgs, code int, ok bool) {
	fs := newFlags(name, stderr)
	configPath := fs.String("config", "", "the table's config file, for its voice (default: the installed one, if any)")
	packDir := fs.String("pack", "", "a voice-pack folder (default: the table's voice)")
	fillGaps := fs.Bool("fill", false, "with --pack: the clips it lacks from the embedded default pack")
	volume := fs.Float64("volume", 1, "0 to 1")
	out := new(string)
	if name == "render" {
		out = fs.String("out", "", "the WAV file to write")
	}
	pos, err := cliflag.Interspersed(fs, args)
	if err != nil || len(pos) == 0 || *volume < 0 || *volume > 1 || (*fillGaps && *packDir == "") ||
		(*configPath != "" && (*packDir != "" || env.TableVoice == nil)) || (name == "render" && *out == "") {
		fmt.Fprint(stderr, CommandUsage)
		return la, 2, false
	}
	la = lineArgs{choice: Choice{Pack: *packDir, Fill: *fillGaps, Label: *packDir}, volume: *volume, line: pos[0], out: *out}
	if *packDir == "" {
		la.choice.Label = "內建語音 / the embedded default pack"
		if env.TableVoice != nil {
			if la.choice, err = env.TableVoice(*configPath); err != nil {
				fmt.Fprintf(stderr, "voice %s: %v\n", name, err)
				return la, 1, false
			}
		}
	}
	for _, a := range pos[1:] {
		n, err := strconv.Atoi(a)
		if err != nil {
			fmt.Fprintf(stderr, "voice %s: %q is not a seat number\n", name, a)
			return la, 2, false
		}
		la.seats = append(la.seats, n)
	}
	b, err := Default()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return la, 1, false
	}
	if la.seq, err = b.Sequence(la.line, la.seats); err != nil {
		fmt.Fprintln(stderr, err)
		if errors.Is(err, ErrArgs) {
			if n := b.Args(la.line); n >= 0 {
				fmt.Fprintf(stderr, "%s takes %d seat(s)\n", la.line, n)
			}
		}
		return la, 1, false
	}
	text, _ := script.New().Render(la.line, la.seats)
	fmt.Fprintf(stdout, "%s\n  %s\n", text, strings.Join(la.seq, " "))
	return la, 0, true
}

func cmdSay(args []string, stdout, stderr io.Writer, env Env) int {
	la, code, ok := parseLine("say", args, stdout, stderr, env)
	if !ok {
		return code
	}
	choice, volume, line, seats, seq := la.choice, &la.volume, la.line, la.seats, la.seq
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	v, err := Open(ctx, Options{Pack: choice.Pack, Fill: choice.Fill, Volume: *volume, Log: log, Clips: seq})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer v.Close()
	voiceLine := "語音 / voice: " + choice.Label
	filled := v.Filled()
	n := 0
	for _, id := range seq {
		if slices.Contains(filled, id) {
			n++
		}
	}
	if n > 0 {
		voiceLine += fmt.Sprintf("（其中 %d 段取自內建語音 / %d clips from the default pack）", n, n)
	}
	fmt.Fprintln(stdout, "  "+voiceLine)
	if err := v.Speak(line, seats); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := v.Wait(ctx); err != nil || ctx.Err() != nil {
		v.Interrupt()
		return 1
	}
	// Wait counts what the device took from the queue; the last frames
	// may still be in ALSA's ring, which closing the device drops: give
	// them a device buffer or two (a loaded machine's ALSA runs late) so
	// the line's end is heard.
	time.Sleep(sayTail)
	return 0
}

// sayTail is how long voice say lets ALSA play out after the line.
const sayTail = 150 * time.Millisecond

// cmdRender writes what say would hand the device to --out as a WAV file.
func cmdRender(args []string, stdout, stderr io.Writer, env Env) int {
	la, code, ok := parseLine("render", args, stdout, stderr, env)
	if !ok {
		return code
	}
	a, err := Render(context.Background(), Options{Pack: la.choice.Pack, Fill: la.choice.Fill, Volume: la.volume}, la.line, la.seats)
	if err != nil {
		fmt.Fprintln(stderr, "voice render:", err)
		return 1
	}
	if err := os.WriteFile(la.out, pack.EncodeWAV(a), 0o644); err != nil {
		fmt.Fprintln(stderr, "voice render:", err)
		return 1
	}
	fmt.Fprintf(stdout, "  語音 / voice: %s\n  %s：%d Hz、%d 聲道、%.2f 秒 / %s: %d Hz, %d channels, %.2f s\n",
		la.choice.Label, la.out, a.Rate, a.Channels, a.Duration().Seconds(), la.out, a.Rate, a.Channels, a.Duration().Seconds())
	return 0
}

func cmdExport(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("export", stderr)
	pos, err := cliflag.Interspersed(fs, args)
	if err != nil || len(pos) != 1 {
		fmt.Fprint(stderr, CommandUsage)
		return 2
	}
	n, err := Export(pos[0])
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote the default pack (%d clips and %s) to %s\n", n, "pack.txt", pos[0])
	return 0
}

func cmdGenerate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("generate", stderr)
	verbose := fs.Bool("v", false, "print each clip as it is made")
	pos, err := cliflag.Interspersed(fs, args)
	if err != nil || len(pos) != 1 {
		fmt.Fprint(stderr, CommandUsage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	o := GenerateOptions{}
	if *verbose {
		o.Progress = stdout
	}
	start := time.Now()
	if err := Generate(ctx, pos[0], o); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	ids, _ := ClipIDs()
	fmt.Fprintf(stdout, "generated %d clips in %s (%v); check it with: wolftable voice check %s\n",
		len(ids), pos[0], time.Since(start).Round(100*time.Millisecond), pos[0])
	return 0
}
