package desk_test

import (
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

// BenchmarkIngest: records ingested per second by the desk's store
// (verification: chain, signature, replay, key; two atomic writes).
func BenchmarkIngest(b *testing.B) {
	jdir := b.TempDir()
	const k = 16
	var recs [][]byte
	for i := range k {
		p := desktest.Play(b, jdir, "seer-witch-hunter-idiot", uint64(500+i), key(1), 0)
		data, _ := os.ReadFile(p)
		recs = append(recs, data)
	}
	var s *desk.Store
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%k == 0 {
			b.StopTimer()
			data := b.TempDir()
			desk.AddTable(data, "T1", key(1).Public().(ed25519.PublicKey), "")
			var err error
			if s, err = desk.OpenStore(data, nil); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		if out, err := s.Ingest(desk.Subject("T1", desk.KindRecord), "", "x.wtj", recs[i%k]); out != desk.Stored || err != nil {
			b.Fatal(out, err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkStandings10k: the standings of 10,000 twelve-seat games over
// 100 tables under the league pack.
func BenchmarkStandings10k(b *testing.B) {
	games := make([]desk.Game, 10000)
	camps := []string{"wolf", "wolf", "wolf", "wolf", "villager", "villager", "villager", "villager", "god", "god", "god", "god"}
	for i := range games {
		g := &games[i]
		g.Hash = fmt.Sprintf("%064x", i)
		g.Table = fmt.Sprintf("T%d", i%100)
		g.Winner = []string{"好人", "狼人", "好人", "流局"}[i%4]
		g.MVP, g.SVP = 1+i%12, 1+(i+5)%12
		for s := range 12 {
			g.Seats = append(g.Seats, desk.Seat{Seat: s + 1, Player: filepath.Join(g.Table, fmt.Sprint(s+1)), Camp: camps[(s+i)%12], Out: (s+i)%3 == 0,
				Penalty: float64((s*i)%7) / 14})
		}
	}
	pack, err := desk.LoadPack("league")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rows := desk.Standings(pack, games); len(rows) != 1200 {
			b.Fatal(len(rows))
		}
	}
}
