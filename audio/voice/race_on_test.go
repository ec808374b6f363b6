//go:build race

package voice

// raceEnabled: the race detector makes the MP3 decoder about 20 times
// slower, so tests that decode the default pack take a sample of it.
const raceEnabled = true
