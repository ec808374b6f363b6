package journal_test

import (
	"fmt"
	"log"
	"os"
	"time"

	"wolftable/boards"
	"wolftable/engine"
	"wolftable/journal"
)

// The runtime's path: create the journal with the game, journal each input
// before the engine applies it, close with the result; after a power cut,
// Resume rebuilds the game from the journal.
func Example() {
	dir, err := os.MkdirTemp("", "journal-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	b, _ := boards.Get("seer-witch-hunter-idiot")
	deal := engine.Deal(b, 7)
	g, _ := engine.New(engine.Config{Board: b, Deal: deal, Seed: 7})
	start := time.Date(2026, 11, 29, 20, 15, 3, 0, time.UTC)
	h := journal.HeaderFor(b, deal, 7, 12, start, "0.1.0")
	h.GameID = "ab12cd"
	w, err := journal.Create(dir, h)
	if err != nil {
		log.Fatal(err)
	}
	w.Apply(g, start, "clock", engine.Clock(20, 15))
	w.Start(g, start.Add(time.Second), "pedal")
	_, err = w.Apply(g, start.Add(2*time.Second), "seat-3", engine.SeatTarget(3, 5))
	fmt.Println("refused:", err != nil) // a seat that does not act now: journaled as refused
	w.Close()

	j, err := journal.Read(w.Path())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(j.Records), "records, torn:", j.TornTail, "finished:", j.Finished())

	w, g2, _, err := journal.Resume(w.Path(), boards.Get)
	if err != nil {
		log.Fatal(err)
	}
	defer w.Close()
	fmt.Println("resumed at night", g2.Night())
	// Output:
	// refused: true
	// 4 records, torn: false finished: false
	// resumed at night 1
}
