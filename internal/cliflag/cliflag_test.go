package cliflag

import (
	"flag"
	"io"
	"reflect"
	"testing"
)

func TestInterspersed(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	port := fs.String("port", "", "")
	pos, err := Interspersed(fs, []string{"3=red", "--port", "/dev/x", "all=off"})
	if err != nil || *port != "/dev/x" || !reflect.DeepEqual(pos, []string{"3=red", "all=off"}) {
		t.Fatalf("%v %q %v", pos, *port, err)
	}
	if _, err := Interspersed(fs, []string{"a", "--nope"}); err == nil {
		t.Fatal("an unknown flag must be an error")
	}
}

func TestInUsage(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.Bool("seed", false, "")
	fs.Bool("v", false, "")
	fs.String("no-tui", "", "")
	got := InUsage(fs, "usage: t [--seeds N] [-v] [--no-tui]")
	if !reflect.DeepEqual(got, []string{"--seed"}) {
		t.Fatalf("missing %v, want [--seed]", got)
	}
}
