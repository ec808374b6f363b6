package desk

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"wolftable/internal/atomicfile"
)

// Discipline at the desk (issue 29 item 5): what the organiser or the
// head judge gives a registered player outside a game's journal — a
// warning (警告), a deduction (扣分) or a disqualification (取消資格) — kept
// in DATA/discipline.json (written atomically) and the organiser's log.
// The judge's penalties inside a game come with its signed record and
// count per seat, hence per player. A pack may turn warnings into
// deductions (warnings_per_deduction, warning_deduction: e.g. every third
// warning is a point off). A disqualified player keeps the games played
// (the other players' points are kept) and is ranked after everyone,
// without a rank. A sanction given in error is revoked, with a reason:
// never deleted.

// Sanction kinds.
const (
	SanctionWarning   = "warning"
	SanctionDeduction = "deduction"
	SanctionDQ        = "dq"
)

// Sanction is one warning, deduction or disqualification.
type Sanction struct {
	ID        int       `json:"id"`
	At        time.Time `json:"at"`
	Player    string    `json:"player"` // the registered player's id
	Kind      string    `json:"kind"`
	Points    float64   `json:"points,omitempty"` // a deduction's points
	Reason    string    `json:"reason"`
	Revoked   string    `json:"revoked,omitempty"` // why it was revoked ("" = in force)
	RevokedAt time.Time `json:"revoked_at,omitzero"`
}

// KindWords is a sanction's kind in Chinese.
func (s Sanction) KindWords() string {
	switch s.Kind {
	case SanctionWarning:
		return "警告"
	case SanctionDeduction:
		return fmt.Sprintf("扣 %s 分", trimFloat(s.Points))
	case SanctionDQ:
		return "取消資格"
	}
	return s.Kind
}

func trimFloat(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", f), "0"), ".")
}

// DisciplineFile is the sanctions of a desk's data folder.
const DisciplineFile = "discipline.json"

func (s *Store) loadDiscipline() error {
	b, err := os.ReadFile(filepath.Join(s.data, DisciplineFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &s.sanctions); err != nil {
		return fmt.Errorf("desk: %s: %w", DisciplineFile, err)
	}
	return nil
}

func (s *Store) writeDisciplineLocked(next []Sanction) error {
	body, _ := json.MarshalIndent(next, "", "  ")
	if err := atomicfile.Write(filepath.Join(s.data, DisciplineFile), append(body, '\n'), 0o640); err != nil {
		return err
	}
	s.sanctions = next
	return nil
}

// Sanctions are every sanction given, revoked ones too, oldest first.
func (s *Store) Sanctions() []Sanction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Sanction(nil), s.sanctions...)
}

// Sanction gives a registered player a warning, a deduction (points > 0)
// or a disqualification, with a reason.
func (s *Store) Sanction(player, kind string, points float64, reason string) (Sanction, error) {
	reason = strings.TrimSpace(reason)
	switch {
	case reason == "":
		return Sanction{}, errors.New("要寫原因")
	case len([]rune(reason)) > 200:
		return Sanction{}, errors.New("原因太長（最多 200 字）")
	}
	switch kind {
	case SanctionWarning, SanctionDQ:
		points = 0
	case SanctionDeduction:
		if !(points > 0 && points <= 100) || math.IsNaN(points) {
			return Sanction{}, errors.New("扣分要是大於 0、最多 100 的分數")
		}
	default:
		return Sanction{}, fmt.Errorf("不認得的處分 %q", clip(kind, 20))
	}
	players, _ := s.playersByID()
	p, ok := players[player]
	if !ok {
		return Sanction{}, fmt.Errorf("名冊裡沒有選手編號 %s", clip(player, 40))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id := 1
	for _, o := range s.sanctions {
		id = max(id, o.ID+1)
		if kind == SanctionDQ && o.Player == player && o.Kind == SanctionDQ && o.Revoked == "" {
			return Sanction{}, fmt.Errorf("選手 %s 已經被取消資格了", p.Name)
		}
	}
	sn := Sanction{ID: id, At: s.clock().UTC(), Player: player, Kind: kind, Points: points, Reason: reason}
	if err := s.writeDisciplineLocked(append(append([]Sanction(nil), s.sanctions...), sn)); err != nil {
		return Sanction{}, err
	}
	return sn, s.Log("discipline", player, fmt.Sprintf("選手 %s（%s）%s：%s", p.Name, player, sn.KindWords(), reason))
}

// Revoke revokes a sanction given in error, with a reason; it stays listed.
func (s *Store) Revoke(id int, reason string) (Sanction, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return Sanction{}, errors.New("撤銷要寫原因")
	}
	if len([]rune(reason)) > 200 {
		return Sanction{}, errors.New("原因太長（最多 200 字）")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	next := append([]Sanction(nil), s.sanctions...)
	for i := range next {
		if next[i].ID != id {
			continue
		}
		if next[i].Revoked != "" {
			return Sanction{}, fmt.Errorf("處分 %d 已經撤銷了", id)
		}
		next[i].Revoked, next[i].RevokedAt = reason, s.clock().UTC()
		if err := s.writeDisciplineLocked(next); err != nil {
			return Sanction{}, err
		}
		sn := next[i]
		return sn, s.Log("discipline", sn.Player, fmt.Sprintf("撤銷對 %s 的%s：%s", sn.Player, sn.KindWords(), reason))
	}
	return Sanction{}, fmt.Errorf("沒有處分 %d", id)
}

// applySanctions adds the sanctions in force to the rows (by player id):
// warnings (and the deductions they turn into under the pack), desk
// deductions, disqualifications. A sanctioned player with no game yet
// gets a row.
func applySanctions(p *Pack, rows map[string]*Row, sanctions []Sanction, factor float64, name func(id string) string) {
	warnings := map[string]int{}
	for _, sn := range sanctions {
		if sn.Revoked != "" || sn.Player == "" {
			continue
		}
		k := "id:" + sn.Player
		r := rows[k]
		if r == nil {
			r = &Row{PlayerID: sn.Player, Player: name(sn.Player)}
			rows[k] = r
		}
		switch sn.Kind {
		case SanctionWarning:
			r.Warnings++
			warnings[sn.Player]++
			if n := p.WarningsPerDeduction; n > 0 && warnings[sn.Player]%n == 0 {
				d := p.WarningDeduction
				if d == 0 {
					d = 1
				}
				r.Penalty += d
				r.Points -= d * factor
			}
		case SanctionDeduction:
			r.Penalty += sn.Points
			r.Points -= sn.Points * factor
		case SanctionDQ:
			r.DQ = true
		}
	}
}
