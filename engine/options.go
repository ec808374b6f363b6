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
	ThiefTwoWolves    string    // thief.two_wolf_bottom: redeal (default) | allow (rules-more.md H9)
	ThiefExtraCards   string    // thief.extra_cards: listed (default: the board lists N+2 cards) | two_villagers (two 村民 are added)

	// rules-more.md D2 禁言長老 (the zero value is each option's default)
	SilenceRepeat       bool   // silence.no_repeat=off: the elder may silence the same seat two nights running
	SilenceAnnounceVoid bool   // silence.announce_void: "X號玩家被禁言" is said even when the elder or the target died that night
	SilenceLastWords    bool   // silence.blocks_last_words: the silenced seat's last words are replaced too
	SilenceTurn         string // silence.turn: skip_with_line (default) | gesture_window (a 15 s turn of gestures)
	FoxWrap             bool   // fox.wrap: 狐狸's three seats wrap round the table (12-1-2; default on)

	MerchantTiming string // merchant.timing: n1_first (黑市商人 wakes first on night 1)
	ElderWitchInfo string // elder.first_hit_witch_info: shown | hidden (村長/長老's first hit and the witch)
	ElderAntidote  string // elder.antidote: wasted | restores | no_effect
	ElderCategory  string // elder.category: card (村長 民, 長老 神) | villager | god

	// rules-more.md D2 獵人 and E0.1/E0.2 (the seed-001 and seed-003 presets)
	HunterShootCauses  string // hunter.shoot_causes: knife_exile (default) | any_but_poison_grief
	SkipRevealedHunter bool   // night.skip_dead_revealed_hunter: no 獵人 step once the hunter is out and has shot (seed 001 (9))
	NightOrderPreset   string // night_order.preset: seed004 (default) | seed003: the order the loader gives a board without night lines

	// rules-more.md D2 (the venue's own boards)
	WildChildTrigger string // wildchild.trigger: any_death (default) | exile_only
	HalfBloodTimeout string // halfblood.timeout: random (default) | first_seat
	HiddenWolfAlone  bool   // hiddenwolf.kills_alone: 隱狼 kills alone once every other wolf is out (default on)
	RogueDelay       string // rogue.delay: next_day_speeches (default) | hit_day_speeches
	BearEarly        bool   // bear.roar_before_election: day 1's roar right after daybreak, before the election
	BearNeighbours   string // bear.neighbours: nearest_living (default) | adjacent_seats
	BearSeesHidden   bool   // bear.sees_hidden_wolf: a 隱狼 next to the bear makes it roar
	HiddenWolfBoom   bool   // hiddenwolf.may_explode: 隱狼 may explode
	WildChildSelf    bool   // wildchild.self_model: 野孩子 may pick itself ([004] "任意一名玩家")

	// 丘比特, 情侶, 魅魔 (rules-more.md D0.2, D0.3, D2)
	CupidWolfPairSide   string // cupid.wolf_pair_side: wolves | good (per board, G1)
	CupidCategory       string // cupid.category: neither | god | by_ratio
	CupidMaySkip        string // cupid.may_skip: on | random_link (新月版)
	MixedPairCamp       string // lovers.mixed_pair_camp: third | wolf_team (新月版)
	WolvesMustKillThird bool   // lovers.wolves_must_kill_third (屠邊: the wolves also need every third-camp member out)
	CupidMustDie        bool   // lovers.cupid_must_die: the good side must also remove 丘比特 of a 人狼戀
	NoMutualVote        bool   // lovers.no_mutual_vote: a lover may not vote for the partner (exile and PK votes)
	GriefBlocksSkill    bool   // lovers.grief_blocks_skill: a player who dies of grief has no skill
	SuccubusLaterNights string // succubus.later_nights: with_wolves | asleep
	// Framework options of the seed presets (rules-more.md E0.1, G33–G40, H5, H6, H12).
	SheriffPKWeight  float64 // sheriff.pk_weight: the sheriff's vote in the exile PK vote (0 = as sheriff.weight)
	PKVoters         string  // sheriff.pk_voters: not_on_stage (A5.6) | never_ran (H6)
	ExplodeWindows   string  // explode.windows: part_a (A11) | any_but_vote (seed 003) | any_speech (seed 001)
	ExplodeLastWords bool    // explode.last_words: an exploded wolf gives last words (seed 001 指刀)
	LastWordsMode    string  // last_words.mode: n1 (last_words.nights) | n1_n2 | n1_all_n2_single (G37)
	SpeechStart      string  // sheriff.speech_start: clock (A8) | lowest | highest (H12)
	SpeakingOrder    string  // speaking.order: sheriff_choice (A7) | sheriff_side_alternating | left_of_last_dead (H12)
	IdiotName        string  // idiot.name: yuzhe (愚者, seed 000) | baichi (白痴, seeds 003 and 001): the card's name in the judge's lines
	IdiotInterject   bool    // idiot.interject: a revealed idiot may cut into a speech for 15 s, the judge's pedal granting it (seed 003)
	Wording          string  // lines.wording: seed000 (the manual's 語術) | seed001 ([001]'s 主持 script where it differs)
}

// DefaultOptions are the shared settings of every seed-000 board.
func DefaultOptions() Options {
	return Options{
		ClockRule: "minute_digit_sum", WitchSelfSave: "never", SheriffWeight: 1.5,
		DoubleExplode: true, Sheriff: true, LastWordsNights: 1, PKVotersBlue: true, SpeakerPulse: true,
		SpeechSeconds: 120, SheriffSeconds: 150, SpeechWarn: 30, LastWordsSeconds: 120,
		SkillSeconds: 10, VoteSeconds: 10, SignupSeconds: 5, WithdrawSeconds: 10, ChoiceSeconds: 15,
		ExplodeWolfSecs: 30, NightPace: PaceFixed, StepMinPercent: 40, BloodMoonSeal: true,
		ThiefTwoWolves: "redeal", ThiefExtraCards: "listed",
		FoxWrap:        true,
		MerchantTiming: "n1_first", ElderWitchInfo: "shown", ElderAntidote: "wasted", ElderCategory: "card",
		SilenceTurn: "skip_with_line", HunterShootCauses: "knife_exile", NightOrderPreset: "seed004", IdiotName: "yuzhe",
		WildChildTrigger: "any_death", HalfBloodTimeout: "random", HiddenWolfAlone: true, RogueDelay: "next_day_speeches",
		BearNeighbours:    "nearest_living",
		CupidWolfPairSide: "wolves", CupidCategory: "neither", CupidMaySkip: "on", MixedPairCamp: "third",
		CupidMustDie: true, NoMutualVote: true, GriefBlocksSkill: true, SuccubusLaterNights: "with_wolves",
		PKVoters: "not_on_stage", ExplodeWindows: "part_a", LastWordsMode: "n1",
		SpeechStart: "clock", SpeakingOrder: "sheriff_choice", Wording: "seed000",
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
	doc    string
	set    func(o *Options, v string) error
	get    func(o *Options) string
	values []string // every value the option takes, for an option of a fixed set (OptionValues)
}

func boolOpt(doc string, p func(o *Options) *bool) optionField {
	return optionField{doc, func(o *Options, v string) error {
		b, err := parseBool(v)
		if err != nil {
			return err
		}
		*p(o) = b
		return nil
	}, func(o *Options) string { return strconv.FormatBool(*p(o)) }, nil}
}

// notOpt is a bool option stored inverted (its default, on, is the zero value).
func notOpt(f optionField) optionField {
	return optionField{f.doc, func(o *Options, v string) error {
		b, err := parseBool(v)
		if err != nil {
			return err
		}
		return f.set(o, strconv.FormatBool(!b))
	}, func(o *Options) string {
		b, _ := parseBool(f.get(o))
		return strconv.FormatBool(!b)
	}, nil}
}

func intOpt(doc string, lo, hi int, p func(o *Options) *int) optionField {
	return optionField{doc, func(o *Options, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("want a whole number %d..%d, got %q", lo, hi, v)
		}
		*p(o) = n
		return nil
	}, func(o *Options) string { return strconv.Itoa(*p(o)) }, nil}
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
	}, func(o *Options) string { return *p(o) }, values}
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

// optionTab is the table of options: package data built once and never
// written (doc.go), like the role table: Options.Get and Set look a key up
// in it rather than building every option's closures on each call.
var optionTab = optionFields()

func optionFields() map[string]optionField {
	clock := []string{"minute_mod_n", "minute_digit_sum"}
	m := map[string]optionField{
		"silence.no_repeat":         notOpt(boolOpt("禁言長老 may not silence the same seat two nights running", func(o *Options) *bool { return &o.SilenceRepeat })),
		"silence.announce_void":     boolOpt("the silence is announced even when the elder or the silenced seat died that night (報)", func(o *Options) *bool { return &o.SilenceAnnounceVoid }),
		"silence.turn":              enumOpt("the silenced seat's turn: skip_with_line (the judge's line replaces it) | gesture_window (the line, then 15 s of gestures with the light pulsing)", []string{"skip_with_line", "gesture_window"}, func(o *Options) *string { return &o.SilenceTurn }),
		"silence.blocks_last_words": boolOpt("the silenced seat's last words are replaced by the judge's line too", func(o *Options) *bool { return &o.SilenceLastWords }),
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
		}, func(o *Options) string { return strconv.FormatFloat(o.SheriffWeight, 'f', -1, 64) }, []string{"1", "1.5", "2", "2.5", "3"}},
		"sheriff.enabled":                 boolOpt("the board has a sheriff (有警長)", func(o *Options) *bool { return &o.Sheriff }),
		"sheriff.double_explode":          boolOpt("an explosion in the election speeches resumes it next day; a second one ends it (雙爆吞警徽)", func(o *Options) *bool { return &o.DoubleExplode }),
		"sheriff.explode_keeps_badge":     boolOpt("a sheriff who explodes may still pass the badge", func(o *Options) *bool { return &o.ExplodeKeepsBadge }),
		"exile.last_words_first":          boolOpt("from day 2, the exiled player's last words come before the skill question (狼王攝夢人)", func(o *Options) *bool { return &o.LastWordsFirst }),
		"bloodmoon.seal_after_explode":    boolOpt("after 血月使徒 explodes, good roles' night skills fail the following night", func(o *Options) *bool { return &o.BloodMoonSeal }),
		"idiot.keeps_badge":               boolOpt("a revealed idiot who is sheriff keeps the badge", func(o *Options) *bool { return &o.IdiotKeepsBadge }),
		"last_words.nights":               intOpt("night deaths of nights 1..N have last words", 0, 99, func(o *Options) *int { return &o.LastWordsNights }),
		"lights.pk_voters_blue":           boolOpt("PK voters' lights turn blue", func(o *Options) *bool { return &o.PKVotersBlue }),
		"lights.speaker_pulse":            boolOpt("the speaker's light pulses", func(o *Options) *bool { return &o.SpeakerPulse }),
		"speech.seconds":                  intOpt("speech length", 10, 600, func(o *Options) *int { return &o.SpeechSeconds }),
		"speech.sheriff_seconds":          intOpt("the sheriff's exile-day speech length", 10, 600, func(o *Options) *int { return &o.SheriffSeconds }),
		"speech.warn_seconds":             intOpt("warning before a speech ends (0 = none)", 0, 120, func(o *Options) *int { return &o.SpeechWarn }),
		"speech.last_words_seconds":       intOpt("last words length", 10, 600, func(o *Options) *int { return &o.LastWordsSeconds }),
		"skill.seconds":                   intOpt("death skill window", 5, 60, func(o *Options) *int { return &o.SkillSeconds }),
		"vote.seconds":                    intOpt("voting window after 3~2~1", 3, 60, func(o *Options) *int { return &o.VoteSeconds }),
		"signup.seconds":                  intOpt("night sign-up window", 3, 60, func(o *Options) *int { return &o.SignupSeconds }),
		"withdraw.seconds":                intOpt("退水 window", 3, 60, func(o *Options) *int { return &o.WithdrawSeconds }),
		"choice.seconds":                  intOpt("sheriff choices (order, 歸票, badge)", 5, 120, func(o *Options) *int { return &o.ChoiceSeconds }),
		"explode.wolf_seconds":            intOpt("an exploded wolf's 指刀 time", 5, 120, func(o *Options) *int { return &o.ExplodeWolfSecs }),
		"thief.two_wolf_bottom":           enumOpt("two wolf-camp cards at the bottom: redeal, or allow (the thief takes the special wolf, else either)", []string{"redeal", "allow"}, func(o *Options) *string { return &o.ThiefTwoWolves }),
		"thief.extra_cards":               enumOpt("a thief's two bottom cards: listed on the board (N+2 cards), or two_villagers added to its N cards", []string{"listed", "two_villagers"}, func(o *Options) *string { return &o.ThiefExtraCards }),
		"fox.wrap":                        boolOpt("狐狸's three consecutive seats wrap round the table (12-1-2)", func(o *Options) *bool { return &o.FoxWrap }),
		"merchant.timing":                 enumOpt("when 黑市商人 trades: n1_first (night 1, first; mandatory) | any_night_after_seer (once, on any night, after 預言家; the board places his step)", []string{"n1_first", "any_night_after_seer"}, func(o *Options) *string { return &o.MerchantTiming }),
		"elder.first_hit_witch_info":      enumOpt("the witch is shown 村長/長老's first hit", []string{"shown", "hidden"}, func(o *Options) *string { return &o.ElderWitchInfo }),
		"elder.category":                  enumOpt("村長/長老's 屠邊 category: card (村長 民, 長老 神), villager or god", []string{"card", "villager", "god"}, func(o *Options) *string { return &o.ElderCategory }),
		"elder.antidote":                  enumOpt("the antidote on 村長/長老: wasted (a first hit still costs a life) | restores | no_effect", []string{"wasted", "restores", "no_effect"}, func(o *Options) *string { return &o.ElderAntidote }),
		"hunter.shoot_causes":             enumOpt("which deaths let 獵人 (and the lucky one's gun) shoot: knife_exile (the wolf camp's kills, exile, a shot) | any_but_poison_grief (every death but poison, grief, an explosion or a DQ)", []string{"knife_exile", "any_but_poison_grief"}, func(o *Options) *string { return &o.HunterShootCauses }),
		"night.skip_dead_revealed_hunter": boolOpt("the 獵人 step is left out of the night once the hunter is out and has shot (his card is public)", func(o *Options) *bool { return &o.SkipRevealedHunter }),
		"night_order.preset":              enumOpt("the night order the loader gives a board with no night lines: seed004 (E0.2) | seed003 ([003]'s generic order, H11)", []string{"seed004", "seed003"}, func(o *Options) *string { return &o.NightOrderPreset }),
		"night.min_percent":               intOpt("under night.pace=plausible, the shortest night step, % of its window (A15)", 10, 100, func(o *Options) *int { return &o.StepMinPercent }),
		"wildchild.trigger":               enumOpt("which death of the model turns 野孩子", []string{"any_death", "exile_only"}, func(o *Options) *string { return &o.WildChildTrigger }),
		"halfblood.timeout":               enumOpt("混血兒 who picks nobody follows a random other seat, or the lowest other seat", []string{"random", "first_seat"}, func(o *Options) *string { return &o.HalfBloodTimeout }),
		"hiddenwolf.kills_alone":          boolOpt("隱狼 makes the kill alone once every other wolf-camp player is out", func(o *Options) *bool { return &o.HiddenWolfAlone }),
		"rogue.delay":                     enumOpt("a poisoned or shot 老流氓 dies after the speeches of the day after the hit day, or of the hit day", []string{"next_day_speeches", "hit_day_speeches"}, func(o *Options) *string { return &o.RogueDelay }),
		"bear.roar_before_election":       boolOpt("day 1's bear roar right after daybreak, before the sheriff election (std 網易)", func(o *Options) *bool { return &o.BearEarly }),
		"bear.neighbours":                 enumOpt("the bear's neighbours: the nearest living seat on each side, or the two adjacent seats (a dead one counts as no wolf)", []string{"nearest_living", "adjacent_seats"}, func(o *Options) *string { return &o.BearNeighbours }),
		"bear.sees_hidden_wolf":           boolOpt("a 隱狼 next to the bear makes it roar", func(o *Options) *bool { return &o.BearSeesHidden }),
		"wildchild.self_model":            boolOpt("野孩子 may pick itself as its model (it then never turns)", func(o *Options) *bool { return &o.WildChildSelf }),
		"hiddenwolf.may_explode":          boolOpt("隱狼 may explode by day", func(o *Options) *bool { return &o.HiddenWolfBoom }),
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
		}, []string{"same", "1", "1.5", "2", "2.5", "3"}},
		"sheriff.pk_voters":    enumOpt("who votes in the election PK: not_on_stage = everyone off the PK stage (A5.6); never_ran = only players who never ran (H6)", []string{"not_on_stage", "never_ran"}, func(o *Options) *string { return &o.PKVoters }),
		"explode.windows":      enumOpt("when a wolf may explode by day: part_a = election speeches, 退水, exile-day speeches (A11); any_but_vote = also last words, the prince's speech, the sheriff's order and 歸票 (seed 003); any_speech = also last words and the prince's speech (seed 001)", []string{"part_a", "any_but_vote", "any_speech"}, func(o *Options) *string { return &o.ExplodeWindows }),
		"idiot.name":           enumOpt("the card's name in the judge's lines: yuzhe (愚者, seed 000) | baichi (白痴, seeds 003 and 001)", []string{"yuzhe", "baichi"}, func(o *Options) *string { return &o.IdiotName }),
		"lines.wording":        enumOpt("the judge's wording: seed000 (the manual's 語術) | seed001 ([001]'s 主持 script where it words a line differently; rules-more.md I6)", []string{"seed000", "seed001"}, func(o *Options) *string { return &o.Wording }),
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
		}, func(o *Options) string { return string(o.NightPace) }, []string{string(PaceFixed), string(PacePlausible)}},
	}
	for k, f := range loversOptionFields() {
		m[k] = f
	}
	return m
}

// loversOptionFields are the options of 丘比特, 情侶 and 魅魔 (rules-more.md
// D0.2, D0.3, D2, G1–G8, G29).
func loversOptionFields() map[string]optionField {
	return map[string]optionField{
		"cupid.wolf_pair_side":          enumOpt("丘比特's side when both lovers are wolves", []string{"wolves", "good"}, func(o *Options) *string { return &o.CupidWolfPairSide }),
		"cupid.category":                enumOpt("丘比特's 屠邊 category: neither, 神, or by the board's 民/狼 ratio (seed 003)", []string{"neither", "god", "by_ratio"}, func(o *Options) *string { return &o.CupidCategory }),
		"cupid.may_skip":                enumOpt("丘比特 may link nobody (on), or linking nobody links him with a random player (random_link)", []string{"on", "random_link"}, func(o *Options) *string { return &o.CupidMaySkip }),
		"lovers.mixed_pair_camp":        enumOpt("a good and a wolf lover: a third camp, or both on the wolves' side", []string{"third", "wolf_team"}, func(o *Options) *string { return &o.MixedPairCamp }),
		"lovers.wolves_must_kill_third": boolOpt("屠邊: the wolves also need every third-camp member out", func(o *Options) *bool { return &o.WolvesMustKillThird }),
		"lovers.cupid_must_die":         boolOpt("the good side must also remove 丘比特 of a 人狼戀", func(o *Options) *bool { return &o.CupidMustDie }),
		"lovers.no_mutual_vote":         boolOpt("a lover may not vote for the partner (exile and PK votes)", func(o *Options) *bool { return &o.NoMutualVote }),
		"lovers.grief_blocks_skill":     boolOpt("a player who dies of grief (殉情) has no skill", func(o *Options) *bool { return &o.GriefBlocksSkill }),
		"succubus.later_nights":         enumOpt("魅魔 after night 1: wakes with the wolves, or sleeps", []string{"with_wolves", "asleep"}, func(o *Options) *string { return &o.SuccubusLaterNights }),
	}
}

// OptionNames lists the option keys in order.
func OptionNames() []string {
	f := optionTab
	names := make([]string, 0, len(f))
	for k := range f {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// OptionValues lists the values an option of a fixed set takes (an enum
// option, night.pace, sheriff.weight, sheriff.pk_weight), in the table's
// order; nil for a bool or a whole-number option and for an unknown key.
// The slice is the caller's own.
func OptionValues(key string) []string {
	v := optionTab[key].values
	if v == nil {
		return nil
	}
	return append([]string(nil), v...)
}

// OptionDoc describes an option key.
func OptionDoc(key string) string { return optionTab[key].doc }

// Set sets an option by its rules.md key ("witch.self_save", …).
func (o *Options) Set(key, value string) error {
	f, ok := optionTab[key]
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
	f, ok := optionTab[key]
	if !ok {
		return "", false
	}
	return f.get(o), true
}
