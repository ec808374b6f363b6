package deskserver

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/nats-io/nats.go"

	"wolftable/desk"
)

// A table asks its desk what became of a record (desk.Ask on
// wolftable.table.<name>.ask): the desk answers from its store for the
// asking table only (the subject is the table's: the broker lets no table
// publish under another's), and from the verdicts of the attempts it
// consumed. JetStream's acknowledgement and its duplicate flag are never
// taken as the desk's word.

// maxVerdicts bounds the verdicts kept for the tables' attempts; an older
// one is answered "unknown", and the table sends again (counted once).
const maxVerdicts = 8192

// verdicts are the desk's answers to the attempts it consumed, by table
// and attempt id.
type verdicts struct {
	mu    sync.Mutex
	byKey map[string]desk.Verdict
	order []string
}

func (v *verdicts) put(table, attempt string, vd desk.Verdict) {
	if attempt == "" || len(attempt) > 64 {
		return
	}
	k := table + "/" + attempt
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.byKey == nil {
		v.byKey = map[string]desk.Verdict{}
	}
	if _, ok := v.byKey[k]; !ok {
		v.order = append(v.order, k)
	}
	v.byKey[k] = vd
	for len(v.order) > maxVerdicts {
		delete(v.byKey, v.order[0])
		v.order = v.order[1:]
	}
}

func (v *verdicts) get(table, attempt string) (desk.Verdict, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	vd, ok := v.byKey[table+"/"+attempt]
	return vd, ok
}

// answer is the desk's verdict on a table's question.
func (d *Desk) answer(table string, a desk.Ask) desk.Verdict {
	var byAttempt desk.Verdict
	known := false
	if a.Attempt != "" {
		byAttempt, known = d.verdicts.get(table, a.Attempt)
	}
	if fp, ok := d.Store.Holds(table, strings.ToLower(a.Hash)); ok {
		// held before the attempt: asked about the hash alone, or the
		// attempt's verdict says so (an attempt not yet noted stored it)
		return desk.Verdict{State: desk.VerdictStored, Fingerprint: fp, Duplicate: a.Attempt == "" || byAttempt.Duplicate}
	}
	if known && byAttempt.State == desk.VerdictRefused {
		return byAttempt
	}
	return desk.Verdict{State: desk.VerdictUnknown}
}

func (d *Desk) onAsk(m *nats.Msg) {
	table, kind := desk.SubjectTable(m.Subject)
	if table == "" || kind != desk.KindAsk || m.Reply == "" || len(m.Data) > desk.MaxLiveBytes {
		return
	}
	var a desk.Ask
	if json.Unmarshal(m.Data, &a) != nil || len(a.Hash) != 64 {
		return
	}
	body, _ := json.Marshal(d.answer(table, a))
	if err := m.Respond(body); err != nil {
		d.log.Debug("desk: an answer to a table", "table", table, "err", err)
	}
}

// onRoster answers a table's roster question (desk.KindRoster) from the
// open round's locked plan, for the asking table only.
func (d *Desk) onRoster(m *nats.Msg) {
	table, kind := desk.SubjectTable(m.Subject)
	if table == "" || kind != desk.KindRoster || m.Reply == "" || len(m.Data) > desk.MaxLiveBytes {
		return
	}
	body, _ := json.Marshal(d.Store.Roster(table))
	if err := m.Respond(body); err != nil {
		d.log.Debug("desk: a roster to a table", "table", table, "err", err)
	}
}
