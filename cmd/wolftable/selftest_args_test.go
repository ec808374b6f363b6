package main

import (
	"bytes"
	"io"
	"reflect"
	"testing"
	"time"

	"wolftable/selftest"
)

// TestSelftestArgs: `wolftable selftest`'s command line becomes the
// options selftest.RunTable takes, and a bad one is a usage error (exit 2,
// with the usage) before anything is opened.
func TestSelftestArgs(t *testing.T) {
	o, code := selftestArgs([]string{"--emulate", "--seats", "6", "--fault", "dead-led:3", "--fault", "no-link",
		"--only", "link, lights", "--soak", "1s", "--wait", "5s", "--report", "a.json", "--report", "b.txt", "--config", "c.toml"}, io.Discard)
	dead, _ := selftest.ParseFault("dead-led:3")
	noLink, _ := selftest.ParseFault("no-link")
	want := selftest.TableOptions{Config: "c.toml", Reports: []string{"a.json", "b.txt"}, Soak: time.Second, Wait: 5 * time.Second,
		Only: []string{"link", "lights"}, Emulate: true, Faults: []selftest.Fault{dead, noLink}, Seats: 6}
	if code != -1 || !reflect.DeepEqual(o, want) {
		t.Fatalf("exit %d\n%+v\nwant %+v", code, o, want)
	}
	if o, code := selftestArgs(nil, io.Discard); code != -1 || o.Soak != 10*time.Second || o.Wait != selftest.DefaultWait {
		t.Fatalf("defaults: %d %+v", code, o)
	}
	for _, args := range [][]string{{"extra"}, {"--emulate", "--fault", "dead-led"}, {"--soak", "-1s"}, {"--wait", "0s"}, {"--bogus"},
		{"--only", "lights,toaster"}, {"--fault", "dead-led:3"}} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"selftest"}, args...), &out, &errb); code != 2 || !bytes.Contains(errb.Bytes(), []byte("用法：")) {
			t.Errorf("selftest %q: exit %d, want 2 with the usage\n%s%s", args, code, out.String(), errb.String())
		}
	}
	if code := run([]string{"selftest", "-h"}, io.Discard, io.Discard); code != 0 {
		t.Errorf("selftest -h: exit %d", code)
	}
}
