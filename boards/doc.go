// Package boards holds the board definitions of the table as data: the
// twelve seed-000 tournament boards are embedded (data/*.board), venues may
// add their own from a folder (LoadDir), and both go through one parser and
// one validator. A board is an engine.Board: composition, night order and
// rule options.
//
// # File format
//
// A board file is UTF-8 text, one directive per line. A "#" starts a comment
// that runs to the end of the line; blank lines are ignored; tokens are
// separated by any Unicode white space (an ideographic space U+3000 counts).
// A byte-order mark at the start of the file and CR before LF are ignored.
//
//	# 預女獵愚 — seed 000 三（一）
//	id       seer-witch-hunter-idiot
//	name     預女獵愚
//	players  12
//	roles    werewolf*4 seer witch hunter idiot villager*4
//	night 1    wolves/90/hurry=60 witch/30/hurry=15 seer/30 hunter/10 idiot/5
//	night 2-   wolves/60/hurry=30 witch/30/hurry=10 seer/30 hunter/10 idiot/5
//	option speaking.clock_rule minute_mod_n
//	option speaking.exile_clock_rule minute_digit_sum
//
// The directives:
//
//	id ID           required, once. Lower-case ASCII letters and digits in
//	                words joined by "-" ("wolfking-guard"), at most 64 bytes.
//	name NAME       required, once. The board's Chinese name (狼王守衛); the
//	                rest of the line, runs of white space read as one space.
//	players N       required, once. 6..18 seats.
//	roles ROLE...   required, once. The composition: exactly N roles. A
//	                ROLE is an engine role id (werewolf, seer, …) or its
//	                Chinese name (狼人, 預言家, 白痴, …, see engine.LookupRole);
//	                ROLE*K stands for K of them (K 1..18).
//	win WORD        optional, once. The wolves' win: 屠邊 (the default: every
//	                god or every villager out) or 屠城 (everyone out).
//	night SPEC STEP...
//	                the night order of the nights SPEC names, one or more
//	                lines. SPEC is "N" (night N), "N-M" (nights N to M) or
//	                "N-" (night N and every later night); nights are 1..99.
//	                Optional: a board with no night line gets seed 004's
//	                order (below).
//	option KEY VALUE
//	                a rule option (rules.md, engine.OptionNames), set with
//	                engine.Options.Set on top of engine.DefaultOptions; each
//	                key at most once.
//	preset NAME     optional, once, before every option line. A seed preset
//	                (seed003 or seed001, rules-more.md E0.1): a bundle of
//	                option values (engine.PresetSettings) applied on top of
//	                engine.DefaultOptions; the option lines after it override
//	                it. A key of the bundle that this build does not know (a
//	                role option still to come) is skipped. Format writes the
//	                preset back, and only the options that differ from it.
//
// A STEP is
//
//	KIND/SECONDS[/hurry=S][/mark=ROLE][/open][/line=FROM>TO]…
//
// KIND is an engine.StepKind (guard, wolves, witch, seer, …) and names the
// role whose eyes open; SECONDS (1..600) is the step's action window
// (行動時間). hurry=S says the hurry line ("X請迅猛") S seconds after the step
// opens, 1 <= S < SECONDS; without it there is no hurry line. The judge's
// manual (seed 000) writes the hurry point two ways: "（剩餘 30 秒後提示）" in
// a 90 s step is hurry=60, "（超過 30 秒後提示）" is hurry=30. mark=ROLE is
// allowed on the wolves step only: the open line asks that special wolf to
// raise a hand ("狼王請舉手示意"); ROLE must be in the composition and wake
// with the wolves. open makes an open-and-close step: the role opens its
// eyes (its "wake" line) and closes them at the window's end, with no action
// and no confirmation.
// line=FROM>TO (any number, each FROM once) gives the step the board's own
// wording of the manual's 語術: while the step runs, the script line FROM is
// said as line TO, or not at all when TO is "-" (石像鬼守墓人's witch:
// line=night.witch.close>night.witch.close.confirm, "女巫確認請閉眼"). The
// attributes may come in any order, each once (line= once per FROM).
//
// # Seed 004's order (no night line)
//
// A board that lists its roles without any night line gets the night order
// of rules-more.md E0.2 (seed 004's full-cast order, the spine of the merged
// master order; table in order.go): every role of the composition that has a
// step, in that order — 野孩子, 混血兒, 攝夢人, 守衛, 狼人, 狼美人, 隱狼, 女巫,
// 預言家, 熊, 獵人, 愚者, 騎士, 老流氓 — as two plans, night 1 and nights 2-,
// the steps flagged "first night only" (野孩子, 混血兒, 隱狼, 老流氓) on night 1
// only. Durations and hurry points are E0.3's defaults: 狼人 90 s on night 1
// (hurry=60) and 60 s later (hurry=30); 野孩子, 混血兒 and 女巫 30 s with the
// hurry line 10 s before the end (hurry=20); 守衛, 狼美人, 預言家 30 s; 獵人 10 s;
// identification steps (隱狼, 熊, 愚者, 騎士, 老流氓) 5 s. A role with no place
// in the table (part B's own roles: 噩夢之影, 石像鬼 …) needs night lines.
// Format writes the plans back as ordinary night lines.
//
// # Venue boards
//
// A venue's own boards are the *.board files of one folder (the config's
// game.boards_dir, DefaultDir by default): Open reads them beside the
// embedded boards into a Catalog, the one lookup of serve, sim, the
// console, a resumed journal and `record show|verify`. A venue board may
// not reuse an embedded board's id or name, and no two files may share
// one. CheckDir (`wolftable boards check DIR`) reports every bad file with
// its line; docs/boards.md is the venue's guide.
//
// # Validation
//
// Parse rejects, naming the file, the line and the problem:
//
//   - an unknown directive; a missing or repeated id, name, players or roles
//     line; no night line while a role of the composition has no place in
//     seed 004's order (reported at the roles line);
//   - players outside 6..18, or a roles line whose count differs from it;
//   - an unknown role, step kind, mark role or step attribute; bad seconds
//     or hurry;
//   - a composition with no wolf-camp role, or no good role;
//   - a step whose role is not in the composition — the wolves step needs a
//     role that wakes with the wolves (werewolf, wolfking, whitewolfking,
//     wolfbeauty, evilknight, bloodmoon, nightmare, eclipsequeen, wolfwitch;
//     not the gargoyle, who never meets them);
//   - a seer, witch or guard in the composition with no step on any night,
//     or wolves that wake together with no wolves step on any night;
//   - night plans that do not start at night 1, overlap, leave a gap, or do
//     not end with an open "N-" plan;
//   - an unknown option, a bad option value (engine.Options.Set's message)
//     or a repeated option;
//   - an unknown or repeated preset, or a preset after an option line.
//
// Problems of one line are reported at that line; problems between lines
// (a step whose role is missing from the composition, a plan gap) at the
// line that shows them (the night line, the roles line); a missing directive
// at line 1. Errors are *Error; Parse stops at the first problem.
package boards
