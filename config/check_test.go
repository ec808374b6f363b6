package config

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

// TestBOMAccepted (issue 27 item 4): a file a Windows editor saved with a
// UTF-8 byte order mark is read as without it, and its errors keep their
// line numbers. Before the fix the BOM was a TOML error at line 1.
func TestBOMAccepted(t *testing.T) {
	bom := "\xef\xbb\xbf"
	c, err := Parse([]byte(bom + "[voice]\nvolume = 0.5\n"))
	if err != nil || c.Voice.Volume != 0.5 {
		t.Fatalf("with a BOM: %v", err)
	}
	_, err = Parse([]byte(bom + "[voice]\nvolume = 0.5\n[game]\ndeal = \"shuffle\"\n"))
	var ce *Error
	if !errors.As(err, &ce) || ce.Key != "game.deal" || ce.Line != 4 {
		t.Errorf("an error after a BOM: %v, want game.deal at line 4", err)
	}
	if KeyLine([]byte(bom+"[game]\ndeal = \"random\"\n"), "game.deal") != 2 {
		t.Error("KeyLine after a BOM")
	}
	if _, err := Parse([]byte("[voice]\n" + bom + "volume = 0.5\n")); err == nil {
		t.Error("a BOM inside the file was accepted")
	}
}

// TestServeRefusalsInTheText (issue 27 item 4): values serve's console or
// desk client refuse at start are refused by Parse (so config check and
// systemd's restart never disagree): a pin_hash of 64 non-hex characters
// (console.New refused it; Validate let it through) and desk URLs the
// NATS client cannot parse.
func TestServeRefusalsInTheText(t *testing.T) {
	for _, src := range []string{
		"[console]\npin_hash = \"sha256:" + strings.Repeat("z", 64) + "\"\n",
		"[desk]\nurl = \"nats://[::1\"\ntable = \"t1\"\ncreds = \"/x\"\n",
		"[desk]\nurl = \"http://192.0.2.5:4222\"\ntable = \"t1\"\ncreds = \"/x\"\n",
		"[desk]\nurl = \"nats://192.0.2.5:99999\"\ntable = \"t1\"\ncreds = \"/x\"\n",
		"[desk]\nurl = \"nats://192.0.2.5:4222, ws://192.0.2.6:80\"\ntable = \"t1\"\ncreds = \"/x\"\n",
		"[desk]\nurl = \" , \"\ntable = \"t1\"\ncreds = \"/x\"\n",
	} {
		if _, err := Parse([]byte(src)); err == nil {
			t.Errorf("accepted:\n%s", src)
		}
	}
	for _, u := range []string{"nats://192.0.2.5:4222", "192.0.2.5:4222", "tls://desk.local", "nats://a:4222, nats://b:4222", "wss://desk.example:443"} {
		if err := DeskURLProblem(u); err != nil {
			t.Errorf("%q: %v", u, err)
		}
	}
	if _, err := Parse([]byte("[console]\npin_hash = \"sha256:" + strings.Repeat("aB", 32) + "\"\n")); err != nil {
		t.Errorf("a good pin_hash: %v", err)
	}
}

// FuzzDeskURLProblem: never panics; an accepted URL is servers that each
// parse as a URL of one of the client's schemes.
func FuzzDeskURLProblem(f *testing.F) {
	for _, s := range []string{"nats://192.0.2.5:4222", "a:1,b:2", "ws://x, nats://y", "nats://[::1", "", ",", "tls://h:0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if DeskURLProblem(s) != nil || s == "" {
			return
		}
		for _, u := range strings.Split(s, ",") {
			if u = strings.TrimSpace(u); u == "" {
				continue
			}
			if !strings.Contains(u, "://") {
				u = "nats://" + u
			}
			p, err := url.Parse(u)
			if err != nil || p.Hostname() == "" || !strings.Contains(" nats tls ws wss ", " "+p.Scheme+" ") {
				t.Fatalf("%q accepted: %v", s, err)
			}
		}
	})
}
