package main

import (
	"context"
	"sync"
	"testing"
	"time"

	"wolftable/daemon"
)

// switchVoice is a voice for the switch's test: what it was told, whether
// it was closed, and whether a line was still being said when it was.
type switchVoice struct {
	name string
	mu   sync.Mutex
	said []string
	busy bool // a line not heard yet
	shut bool
	cut  bool
}

func (v *switchVoice) Say(line string, _ []int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.said = append(v.said, line)
	v.busy = true
}

func (v *switchVoice) Interrupt() {}

func (v *switchVoice) Wait(ctx context.Context) error {
	time.Sleep(50 * time.Millisecond) // the line plays out
	v.mu.Lock()
	defer v.mu.Unlock()
	v.busy = false
	return nil
}

func (v *switchVoice) Close() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.shut, v.cut = true, v.busy
	return nil
}

func (v *switchVoice) state() (said []string, shut, cut bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]string(nil), v.said...), v.shut, v.cut
}

var _ daemon.Voice = (*switchVoice)(nil)

// TestVoiceSwitch: an activation puts the new voice in place once the old
// one has said its line, then closes the old one; of two quick changes the
// later wins and the earlier's voice is closed unused.
func TestVoiceSwitch(t *testing.T) {
	old := &switchVoice{name: "old"}
	lv := &lateVoice{}
	lv.set(old)
	opened := make(chan *switchVoice, 4)
	slow := make(chan struct{})
	var mu sync.Mutex
	n := 0
	vs := &voiceSwitch{lv: lv, open: func(context.Context) daemon.Voice {
		mu.Lock()
		n++
		k := n
		mu.Unlock()
		v := &switchVoice{name: []string{"first", "second"}[k-1]}
		if k == 1 {
			<-slow // the first change's voice loads slowly
		}
		opened <- v
		return v
	}}
	lv.Say("night.close", nil)
	vs.change(context.Background())
	time.Sleep(10 * time.Millisecond)
	vs.change(context.Background())
	second := <-opened
	waitFor(t, "the second voice in place", func() bool { return lv.current() == daemon.Voice(second) })
	if _, shut, cut := old.state(); !shut || cut {
		t.Errorf("the old voice: closed %v, cut a line %v", shut, cut)
	}
	close(slow)
	first := <-opened
	waitFor(t, "the first change's voice closed", func() bool { _, shut, _ := first.state(); return shut })
	if lv.current() != daemon.Voice(second) {
		t.Error("the earlier change replaced the later")
	}
	lv.Say("day.dawn", nil)
	if said, _, _ := second.state(); len(said) != 1 || said[0] != "day.dawn" {
		t.Errorf("the new voice said %v", said)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s", what)
		}
	}
}
