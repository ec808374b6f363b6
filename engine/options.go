package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Options are a board's rule options (rules.md, names in code font there).
// Defaults are the seed-000 tournament settings.
type Options struct {
	ClockRule         string    // speaking.clock_rule: minute_mod_n | minute_digit_sum (election, and exile day without a sheriff)
	ExileClockRule    string    // speaking.exile_clock_rule: "" = same as ClockRule
	WitchSelfSave     string    // witch.self_save: never | first_night | no_guard
	SheriffWeight     float64   // sheriff.weight (1.5)
	DoubleExplode     bool      // sheriff.double_explode: explosion in the speeches resumes the election next day
	ExplodeKeepsBadge bool      // sheriff.explode_keeps_badge
	Sheriff           bool      // sheriff.enabled: the board has a sheriff (有警長)
	LastWordsNights   int       // last_words.nights: nights 1..N give last words
	PKVotersBlue      bool      // lights.pk_voters_blue
	SpeakerPulse      bool      // lights.speaker_pulse
	SpeechSeconds     int       // speech.seconds (120)
	SheriffSeconds    int       // speech.sheriff_seconds (150)
	SpeechWarn        int       // speech.warn_seconds: warning this many seconds before the end (30)
	LastWordsSeconds  int       // speech.last_words_seconds (120)
	SkillSeconds      int       // skill.seconds: "是否發動技能" window (10)
	VoteSeconds       int       // vote.seconds: voting window after "3~2~1" (10)
	SignupSeconds     int       // signup.seconds: night sign-up hands (5)
	WithdrawSeconds   int       // withdraw.seconds: 退水 window (10)
	ChoiceSeconds     int       // choice.seconds: the sheriff's 順/逆, 歸票 and badge choices (15)
	ExplodeWolfSecs   int       // explode.wolf_seconds: an exploded wolf points the kill for this long (30)
	NightPace         NightPace // night.pace: fixed (every step lasts its window) | plausible
	StepMinPercent    int       // night.min_percent: under night.pace=plausible, the shortest night step, in % of its window (40)
	IdiotKeepsBadge   bool      // idiot.keeps_badge: a revealed idiot who is sheriff keeps the badge
	LastWordsFirst    bool      // exile.last_words_first: from day 2, the exiled player's last words before the skill question (狼王攝夢人)
	BloodMoonSeal     bool      // bloodmoon.seal_after_explode (std, default on)
	// Framework options of the seed presets (rules-more.md E0.1, G33–G40, H5, H6, H12).
	SheriffPKWeight  float64 // sheriff.pk_weight: the sheriff's vote in the exile PK vote (0 = as sheriff.weight)
	PKVoters         string  // sheriff.pk_voters: not_on_stage (A5.6) | never_ran (H6)
	ExplodeWindows   string  // explode.windows: part_a (A11) | any_but_vote (seed 003) | any_speech (seed 001)
	ExplodeLastWords bool    // explode.last_words: an exploded wolf gives last words (seed 001 指刀)
	LastWordsMode    string  // last_words.mode: n1 (last_words.nights) | n1_n2 | n1_all_n2_single (G37)
	SpeechStart      string  // sheriff.speech_start: clock (A8) | lowest | highest (H12)
	SpeakingOrder    string  // speaking.order: sheriff_choice (A7) | sheriff_side_alternating | left_of_last_dead (H12)
	IdiotInterject   bool    // idiot.interject: a revealed idiot may cut into a speech for 15 s, the judge's pedal granting it (seed 003)
}

// DefaultOptions are the shared settings of every seed-000 board.
func DefaultOptions() Options {
	return Options{
		ClockRule: "minute_digit_sum", WitchSelfSave: "never", SheriffWeight: 1.5,
		DoubleExplode: true, Sheriff: true, LastWordsNights: 1, PKVotersBlue: true, SpeakerPulse: true,
		SpeechSeconds: 120, SheriffSeconds: 150, SpeechWarn: 30, LastWordsSeconds: 120,
		SkillSeconds: 10, VoteSeconds: 10, SignupSeconds: 5, WithdrawSeconds: 10, ChoiceSeconds: 15,
		ExplodeWolfSecs: 30, NightPace: PaceFixed, StepMinPercent: 40, BloodMoonSeal: true,
		PKVoters: "not_on_stage", ExplodeWindows: "part_a", LastWordsMode: "n1",
		SpeechStart: "clock", SpeakingOrder: "sheriff_choice",
	}
}

// NightPace is how long a night step lasts (night.pace; rules.md A3, A15).
// Under either pace a step's public output — its lines, their order and
// their times — does not depend on who holds the role, whether it lives, or
// what it does.
type NightPace string

const (
	// PaceFixed (the tournament default): every step lasts its whole window;
	// the hurry line is said at its point and the confirmation at the
	// window's end, always. Nothing about a step's length or lines can tell
	// anything.
	PaceFixed NightPace = "fixed"
	// PacePlausible: a step ends once its actor has acted and a length drawn
	// uniformly from [night.min_percent, 100 %] of its window has passed (a
	// dead or absent role's step at the drawn length alone, or at the
	// window's end). The hurry line is said if the step is still open at its
	// point; the confirmation always. Faster, but the length's distribution
	// still differs statistically between a slow live actor and a dead role
	// (docs/rules-decisions.md).
	PacePlausible NightPace = "plausible"
)

type optionField struct {
	doc string
	set func(o *Options, v string) error
	get func(o *Options) string
}

func boolOpt(doc string, p func(o *Options) *bool) optionField {
	return optionField{doc, func(o *Options, v string) error {
		b, err := parseBool(v)
		if err != nil {
			return err
		}
		*p(o) = b
		return nil
	}, func(o *Options) string { return strconv.FormatBool(*p(o)) }}
}

func intOpt(doc string, lo, hi int, p func(o *Options) *int) optionField {
	return optionField{doc, func(o *Options, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("want a whole number %d..%d, got %q", lo, hi, v)
		}
		*p(o) = n
		return nil
	}, func(o *Options) string { return strconv.Itoa(*p(o)) }}
}

func enumOpt(doc string, values []string, p func(o *Options) *string) optionField {
	return optionField{doc, func(o *Options, v string) error {
		for _, x := range values {
			if v == x {
				*p(o) = v
				return nil
			}
		}
		return fmt.Errorf("want one of %s, got %q", strings.Join(values, " | "), v)
	}, func(o *Options) string { return *p(o) }}
}

func parseBool(v string) (bool, error) {
	switch v {
	case "on", "true", "yes", "1":
		return true, nil
	case "off", "false", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("want on or off, got %q", v)
}

func optionFields() map[string]optionField {
	clock := []string{"minute_mod_n", "minute_digit_sum"}
	return map[string]optionField{
		"speaking.clock_rule":       enumOpt("first speaker from the wall clock (A8)", clock, func(o *Options) *string { return &o.ClockRule }),
		"speaking.exile_clock_rule": enumOpt("clock rule on exile days without a sheriff (default: as speaking.clock_rule)", clock, func(o *Options) *string { return &o.ExileClockRule }),
		"witch.self_save":           enumOpt("may the witch save herself", []string{"never", "first_night", "no_guard"}, func(o *Options) *string { return &o.WitchSelfSave }),
		"sheriff.weight": {"the sheriff's vote (A5.8)", func(o *Options, v string) error {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 1 || f > 3 || f*2 != float64(int(f*2)) {
				return fmt.Errorf("want 1, 1.5, 2, 2.5 or 3, got %q", v)
			}
			o.SheriffWeight = f
			return nil
		}, func(o *Options) string { return strconv.FormatFloat(o.SheriffWeight, 'f', -1, 64) }},
		"sheriff.enabled":              boolOpt("the board has a sheriff (有警長)", func(o *Options) *bool { return &o.Sheriff }),
		"sheriff.double_explode":       boolOpt("an explosion in the election speeches resumes it next day; a second one ends it (雙爆吞警徽)", func(o *Options) *bool { return &o.DoubleExplode }),
		"sheriff.explode_keeps_badge":  boolOpt("a sheriff who explodes may still pass the badge", func(o *Options) *bool { return &o.ExplodeKeepsBadge }),
		"exile.last_words_first":       boolOpt("from day 2, the exiled player's last words come before the skill question (狼王攝夢人)", func(o *Options) *bool { return &o.LastWordsFirst }),
		"bloodmoon.seal_after_explode": boolOpt("after 血月使徒 explodes, good roles' night skills fail the following night", func(o *Options) *bool { return &o.BloodMoonSeal }),
		"idiot.keeps_badge":            boolOpt("a revealed idiot who is sheriff keeps the badge", func(o *Options) *bool { return &o.IdiotKeepsBadge }),
		"last_words.nights":            intOpt("night deaths of nights 1..N have last words", 0, 99, func(o *Options) *int { return &o.LastWordsNights }),
		"lights.pk_voters_blue":        boolOpt("PK voters' lights turn blue", func(o *Options) *bool { return &o.PKVotersBlue }),
		"lights.speaker_pulse":         boolOpt("the speaker's light pulses", func(o *Options) *bool { return &o.SpeakerPulse }),
		"speech.seconds":               intOpt("speech length", 10, 600, func(o *Options) *int { return &o.SpeechSeconds }),
		"speech.sheriff_seconds":       intOpt("the sheriff's exile-day speech length", 10, 600, func(o *Options) *int { return &o.SheriffSeconds }),
		"speech.warn_seconds":          intOpt("warning before a speech ends (0 = none)", 0, 120, func(o *Options) *int { return &o.SpeechWarn }),
		"speech.last_words_seconds":    intOpt("last words length", 10, 600, func(o *Options) *int { return &o.LastWordsSeconds }),
		"skill.seconds":                intOpt("death skill window", 5, 60, func(o *Options) *int { return &o.SkillSeconds }),
		"vote.seconds":                 intOpt("voting window after 3~2~1", 3, 60, func(o *Options) *int { return &o.VoteSeconds }),
		"signup.seconds":               intOpt("night sign-up window", 3, 60, func(o *Options) *int { return &o.SignupSeconds }),
		"withdraw.seconds":             intOpt("退水 window", 3, 60, func(o *Options) *int { return &o.WithdrawSeconds }),
		"choice.seconds":               intOpt("sheriff choices (order, 歸票, badge)", 5, 120, func(o *Options) *int { return &o.ChoiceSeconds }),
		"explode.wolf_seconds":         intOpt("an exploded wolf's 指刀 time", 5, 120, func(o *Options) *int { return &o.ExplodeWolfSecs }),
		"night.min_percent":            intOpt("under night.pace=plausible, the shortest night step, % of its window (A15)", 10, 100, func(o *Options) *int { return &o.StepMinPercent }),
		"sheriff.pk_weight": {"the sheriff's vote in the exile PK vote (same = as sheriff.weight; seed 003: 1)", func(o *Options, v string) error {
			if v == "same" {
				o.SheriffPKWeight = 0
				return nil
			}
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 1 || f > 3 || f*2 != float64(int(f*2)) {
				return fmt.Errorf("want same, 1, 1.5, 2, 2.5 or 3, got %q", v)
			}
			o.SheriffPKWeight = f
			return nil
		}, func(o *Options) string {
			if o.SheriffPKWeight == 0 {
				return "same"
			}
			return strconv.FormatFloat(o.SheriffPKWeight, 'f', -1, 64)
		}},
		"sheriff.pk_voters":    enumOpt("who votes in the election PK: not_on_stage = everyone off the PK stage (A5.6); never_ran = only players who never ran (H6)", []string{"not_on_stage", "never_ran"}, func(o *Options) *string { return &o.PKVoters }),
		"explode.windows":      enumOpt("when a wolf may explode by day: part_a = election speeches, 退水, exile-day speeches (A11); any_but_vote = also last words, the prince's speech, the sheriff's order and 歸票 (seed 003); any_speech = also last words and the prince's speech (seed 001)", []string{"part_a", "any_but_vote", "any_speech"}, func(o *Options) *string { return &o.ExplodeWindows }),
		"idiot.interject":      boolOpt("a revealed idiot may ask (guarded key) to cut into another player's speech; the judge's pedal grants 15 s (seed 003)", func(o *Options) *bool { return &o.IdiotInterject }),
		"explode.last_words":   boolOpt("an exploded wolf gives last words (seed 001 指刀)", func(o *Options) *bool { return &o.ExplodeLastWords }),
		"last_words.mode":      enumOpt("which night deaths give last words: n1 = nights 1..last_words.nights; n1_n2 = nights 1 and 2 (seed 003 ②); n1_all_n2_single = all of night 1, night 2 only a single death (seed 001)", []string{"n1", "n1_n2", "n1_all_n2_single"}, func(o *Options) *string { return &o.LastWordsMode }),
		"sheriff.speech_start": enumOpt("who opens the election speeches: clock = the clock rule (A8); lowest / highest = the lowest / highest candidate, ascending / descending (seed 001)", []string{"clock", "lowest", "highest"}, func(o *Options) *string { return &o.SpeechStart }),
		"speaking.order":       enumOpt("the exile-day order: sheriff_choice = the sheriff picks 順/逆, else the clock (A7, A8); sheriff_side_alternating = the sheriff picks on his first day, the other side each later day; left_of_last_dead = without a sheriff, from the seat after the last to die (H12)", []string{"sheriff_choice", "sheriff_side_alternating", "left_of_last_dead"}, func(o *Options) *string { return &o.SpeakingOrder }),
		"night.pace": {"night step length: fixed = the whole window, always (tournaments); plausible = a drawn length (A15)", func(o *Options, v string) error {
			switch NightPace(v) {
			case PaceFixed, PacePlausible:
				o.NightPace = NightPace(v)
				return nil
			}
			return fmt.Errorf("want fixed or plausible, got %q", v)
		}, func(o *Options) string { return string(o.NightPace) }},
	}
}

// OptionNames lists the option keys in order.
func OptionNames() []string {
	f := optionFields()
	names := make([]string, 0, len(f))
	for k := range f {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// OptionDoc describes an option key.
func OptionDoc(key string) string { return optionFields()[key].doc }

// Set sets an option by its rules.md key ("witch.self_save", …).
func (o *Options) Set(key, value string) error {
	f, ok := optionFields()[key]
	if !ok {
		return fmt.Errorf("unknown option %q", key)
	}
	if err := f.set(o, value); err != nil {
		return fmt.Errorf("option %s: %w", key, err)
	}
	return nil
}

// Get returns an option's value as text.
func (o *Options) Get(key string) (string, bool) {
	f, ok := optionFields()[key]
	if !ok {
		return "", false
	}
	return f.get(o), true
}
