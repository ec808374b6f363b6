package studio

import (
	"strings"

	"wolftable/script"
)

// Group is a part of the script as a game goes, for the studio's page:
// the venue records a phase at a time, not 271 sentences in one list.
type Group struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	Total    int    `json:"total"`
	Recorded int    `json:"recorded"`
}

// groups are the studio's parts in the order a game goes; a line's
// first id segment (line.<segment>.…) says its part. A segment that is a
// role's id (a role's day lines: bear.*, cupid.*, rogue.*) is the skills'
// part without a row here (script.RoleSegment).
var groups = []struct {
	id, label string
	segments  []string
}{
	{"game", "開局、結局與自檢", []string{"game", "selftest", "judge"}},
	{"night", "夜晚（各身分）", []string{"night"}},
	{"election", "警長競選", []string{"signup", "election", "badge", "withdraw"}},
	{"day", "白天：天亮、發言、遺言", []string{"day", "speech", "lastwords"}},
	{"vote", "投票與放逐", []string{"vote", "tally", "exile", "guide"}},
	{"skill", "技能與特殊身分", []string{"skill", "explode", "duel", "charm"}},
	{"seat", "座位號碼", nil},
	{"count", "倒數數字", nil},
	{"other", "其他", nil},
}

// nightShared is the night's lines of no one role (確認是他嗎？, 請舉手示意).
const nightShared = "共用"

// groupOf is a clip's part, and within the night the role whose step it
// is.
func groupOf(id, kind string) (group, sub string) {
	switch kind {
	case "seat", "count":
		return kind, ""
	}
	parts := strings.Split(id, ".")
	if len(parts) < 3 || parts[0] != "line" {
		return "other", ""
	}
	if script.RoleSegment(parts[1]) {
		return "skill", ""
	}
	for _, g := range groups {
		for _, s := range g.segments {
			if parts[1] != s {
				continue
			}
			if g.id == "night" {
				if name, ok := script.NightStepName(parts[2]); ok {
					return g.id, name
				}
				return g.id, nightShared
			}
			return g.id, ""
		}
	}
	return "other", ""
}

// listGroups counts the listing's clips per part; parts without a clip
// are left out.
func listGroups(clips []ClipState) []Group {
	var out []Group
	for _, g := range groups {
		gr := Group{ID: g.id, Label: g.label}
		for _, c := range clips {
			if c.Group == g.id {
				gr.Total++
				if c.State != "missing" {
					gr.Recorded++
				}
			}
		}
		if gr.Total > 0 {
			out = append(out, gr)
		}
	}
	return out
}
