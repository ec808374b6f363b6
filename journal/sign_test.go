package journal

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/engine"
)

// verifyCmd runs `record verify FILE` with o and returns the exit status
// and what it printed on stdout and stderr.
func verifyCmd(file string, o VerifyOptions) (int, string, string) {
	var out, errw bytes.Buffer
	code := VerifyFile(file, o, &out, &errw)
	return code, out.String(), errw.String()
}

// cutAt writes the first bytes of data, up to the frame of record idx (a
// record boundary), to a new file in dir.
func cutAt(t *testing.T, dir, name string, data []byte, j *Journal, idx int) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data[:j.Records[idx-1].Offset], 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestVerifyRefusesRewrittenResult is the attack of issue 11 item 6: a
// finished, signed journal cut at a record boundary is a valid journal of
// an unfinished game — same game id, valid chain, consistent replay — and
// with the project's own packages a different ending can be played onto
// it. `record verify` used to pass both (exit 0). It must refuse the cut
// journal (no end record), the re-played one closed without a signature,
// and the re-played one signed with another table's key; the genuine
// journal passes.
func TestVerifyRefusesRewrittenResult(t *testing.T) {
	dir := t.TempDir()
	p := playJournal(t, dir, "seer-witch-hunter-idiot", 3, true)
	data := readFile(t, p.path)
	j := mustLoad(t, data)
	n := len(j.Records)

	code, out, errs := verifyCmd(p.path, VerifyOptions{PublicKey: testPub})
	if code != 0 || !strings.Contains(out, "驗證通過") || !strings.Contains(out, "簽章     有") || !strings.Contains(out, "結果     "+p.winner) {
		t.Fatalf("the genuine journal: exit %d\n%s%s", code, out, errs)
	}

	// Cut at the end record's boundary, and in the middle of the game.
	for _, idx := range []int{n, n / 2} {
		cut := cutAt(t, t.TempDir(), "cut.wtj", data, j, idx)
		s, err := Verify(cut)
		if err != nil || !s.Replayed || s.Header.GameID != j.Header.GameID {
			t.Fatalf("cut at record %d: chain and replay should still hold: %v", idx, err)
		}
		code, out, errs := verifyCmd(cut, VerifyOptions{PublicKey: testPub})
		if code != 1 || !strings.Contains(out, "驗證失敗 日誌沒有結束紀錄") || !strings.Contains(errs, "驗證失敗") {
			t.Fatalf("cut at record %d: exit %d\n%s%s", idx, code, out, errs)
		}
		if code, out, _ := verifyCmd(cut, VerifyOptions{PublicKey: testPub, Unfinished: true}); code != 0 || !strings.Contains(out, "不證明任何結果") {
			t.Fatalf("cut at record %d with --unfinished: exit %d\n%s", idx, code, out)
		}
	}

	// Re-play a different ending: cut mid-game, resume with the package's
	// own Resume, void the game (流局) and close it, unsigned or signed
	// with a key that is not the table's.
	rewrite := func(key ed25519.PrivateKey) string {
		t.Helper()
		d := t.TempDir()
		cut := cutAt(t, d, filepath.Base(p.path), data, j, n/2)
		w, g, _, err := Resume(cut, boards.Get)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		at := j.Records[n/2-1].Wall.Add(time.Second)
		if _, err := w.Apply(g, at, "console:judge@192.0.2.1", engine.Judge(engine.JudgeVoid, 0, 0)); err != nil {
			t.Fatal(err)
		}
		over, won := g.Over()
		winner := string(won)
		if !over || winner == p.winner {
			t.Fatalf("the rewritten game: over %v, %q (the genuine result %q)", over, winner, p.winner)
		}
		if _, err := w.End(at, "console:judge@192.0.2.1", winner, key); err != nil {
			t.Fatal(err)
		}
		s, err := Verify(cut)
		if err != nil || !s.Replayed || !s.Closed || s.Header.GameID != j.Header.GameID || s.Winner != winner {
			t.Fatalf("the rewritten journal should chain and replay (that is the attack): %+v %v", s, err)
		}
		return cut
	}
	unsigned := rewrite(nil)
	code, out, _ = verifyCmd(unsigned, VerifyOptions{PublicKey: testPub})
	if code != 1 || !strings.Contains(out, "驗證失敗 結束紀錄沒有簽章") {
		t.Fatalf("re-played, unsigned: exit %d\n%s", code, out)
	}
	foreign := rewrite(otherKey)
	code, out, _ = verifyCmd(foreign, VerifyOptions{PublicKey: testPub})
	if code != 1 || !strings.Contains(out, "驗證失敗 簽章金鑰不符") {
		t.Fatalf("re-played, signed with another table's key: exit %d\n%s", code, out)
	}
	// The genuine journal checked against another table's key fails too.
	otherPub := FormatPublicKey(otherKey.Public().(ed25519.PublicKey))
	if code, out, _ := verifyCmd(p.path, VerifyOptions{PublicKey: otherPub}); code != 1 || !strings.Contains(out, "簽章金鑰不符") {
		t.Fatalf("another table's key: exit %d\n%s", code, out)
	}
}

// rechain rewrites the chain hashes of every record from index idx on,
// as someone editing a journal without the key would.
func rechain(t *testing.T, data []byte, idx int) []byte {
	t.Helper()
	d := append([]byte(nil), data...)
	var prev [32]byte
	pos := len(Magic)
	for i := 0; pos < len(d); i++ {
		n := int(uint32(d[pos])<<24 | uint32(d[pos+1])<<16 | uint32(d[pos+2])<<8 | uint32(d[pos+3]))
		body := d[pos+frameHead : pos+frameHead+n]
		sum := chain(prev, body)
		if i >= idx {
			copy(d[pos+frameHead+n:], sum[:])
		}
		prev = sum
		pos += frameHead + n + hashSize
	}
	return d
}

// TestVerifyForgedSignature: an end record whose signature or result was
// edited, with the chain hashes recomputed so the chain holds, is refused
// on reading (ErrSignature), by `record verify` (a Chinese message) and
// by `record show`.
func TestVerifyForgedSignature(t *testing.T) {
	dir := t.TempDir()
	p := playJournal(t, dir, "wolfking-guard", 4, true)
	data := readFile(t, p.path)
	j := mustLoad(t, data)
	end := j.Records[len(j.Records)-1]
	if !end.Signed {
		t.Fatal("the end record is not signed")
	}
	bodyEnd := len(data) - hashSize
	other := map[string]string{"好人": "狼人", "狼人": "好人", "流局": "好人"}[p.winner]
	if len(other) != len(p.winner) || !bytes.HasSuffix(data[:bodyEnd-sealSize], []byte(p.winner)) {
		t.Fatalf("result %q: the end record does not end with it", p.winner)
	}
	cases := map[string]func(d []byte){
		"a signature byte": func(d []byte) { d[bodyEnd-10] ^= 0x01 },
		"a key byte":       func(d []byte) { d[bodyEnd-64-5] ^= 0x01 },
		"the result":       func(d []byte) { copy(d[bodyEnd-sealSize-len(other):], other) },
	}
	for name, edit := range cases {
		d := append([]byte(nil), data...)
		edit(d)
		d = rechain(t, d, end.Index)
		_, err := Load(bytes.NewReader(d))
		if ce := asCorrupt(err); ce == nil || ce.Index != end.Index || !errors.Is(err, ErrSignature) {
			t.Errorf("%s: Load: %v, want ErrSignature at record %d", name, err, end.Index)
			continue
		}
		f := filepath.Join(t.TempDir(), "forged.wtj")
		os.WriteFile(f, d, 0o644)
		code, out, _ := verifyCmd(f, VerifyOptions{PublicKey: testPub})
		if code != 1 || !strings.Contains(out, "驗證失敗 結束紀錄（第") || !strings.Contains(out, "簽章不符") {
			t.Errorf("%s: verify exit %d\n%s", name, code, out)
		}
		var so, se bytes.Buffer
		if code := ShowFile(f, ShowOptions{}, &so, &se); code != 1 || !strings.Contains(se.String(), "簽章不符") {
			t.Errorf("%s: show exit %d %s", name, code, se.String())
		}
	}
	// The signature's own check: a forged signature appended by Append is
	// refused before it reaches the disk.
	b, _ := boards.Get("seer-witch-hunter-idiot")
	w, err := Create(t.TempDir(), HeaderFor(b, engine.Deal(b, 1), 1, 12, base, "t"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r := EndRecord(base, "daemon", "")
	if err := signEnd(&r, [32]byte{1}, testKey); err != nil { // signed for another chain
		t.Fatal(err)
	}
	if err := w.Append(r); !errors.Is(err, ErrSignature) {
		t.Fatalf("Append of a forged end record: %v", err)
	}
}

// TestVerifyFlippedByte: a flipped bit anywhere in a signed journal fails
// `record verify`, never passes and never reads as a torn tail: every byte
// of the end record, and every fifth byte before it.
func TestVerifyFlippedByte(t *testing.T) {
	dir := t.TempDir()
	p := playJournal(t, dir, "seer-witch-hunter-idiot", 5, true)
	data := readFile(t, p.path)
	j := mustLoad(t, data)
	endAt := int(j.Records[len(j.Records)-1].Offset)
	f := filepath.Join(dir, "flipped.wtj")
	pol := Policy{PublicKey: testKey.Public().(ed25519.PublicKey)}
	for i := 0; i < len(data); i++ {
		if i < endAt && i%5 != 0 {
			continue
		}
		d := append([]byte(nil), data...)
		d[i] ^= 1 << (i % 8)
		os.WriteFile(f, d, 0o644)
		s, err := Verify(f)
		if err == nil {
			err = s.Check(pol)
		}
		if err == nil {
			t.Fatalf("byte %d flipped: the journal still verifies", i)
		}
		if msg := Explain(err); !strings.ContainsAny(msg, "雜湊簽章長度內容日誌") {
			t.Fatalf("byte %d: %q is not a clear message", i, msg)
		}
	}
	code, out, _ := verifyCmd(f, VerifyOptions{PublicKey: testPub})
	if code != 1 || !strings.Contains(out, "驗證失敗") {
		t.Fatalf("the last flip: exit %d\n%s", code, out)
	}
	// A flip in the middle (the last byte of the middle record's chain
	// hash, so it is neither a length nor a field): the hash names the
	// record, in Chinese.
	d := append([]byte(nil), data...)
	mid := len(j.Records) / 2
	d[int(j.Records[mid+1].Offset)-1] ^= 0x10
	os.WriteFile(f, d, 0o644)
	if _, out, _ := verifyCmd(f, VerifyOptions{PublicKey: testPub}); !strings.Contains(out, "雜湊不符：日誌寫入後被修改或損壞") {
		t.Fatalf("a flip mid-file:\n%s", out)
	}
}

// TestFormat1Journals: a journal of format 1 (written before signatures)
// is still read, replayed and shown; `record verify` refuses it as
// unsigned unless --unsigned, which passes it saying it proves no result.
// A signature inside a format 1 journal is refused.
func TestFormat1Journals(t *testing.T) {
	src := playJournal(t, t.TempDir(), "seer-witch-hunter-idiot", 6, true)
	j := mustLoad(t, readFile(t, src.path))
	h := j.Header
	h.Format = 1
	w, err := Create(t.TempDir(), h)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range j.Records[:len(j.Records)-1] {
		if err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	end, err := w.End(j.Records[len(j.Records)-1].Wall, "daemon", src.winner, testKey)
	if err != nil || end.Signed {
		t.Fatalf("End on a format 1 journal: signed %v, %v", end.Signed, err)
	}
	w.Close()
	code, out, _ := verifyCmd(w.Path(), VerifyOptions{PublicKey: testPub})
	if code != 1 || !strings.Contains(out, "結束紀錄沒有簽章（日誌格式 1）") {
		t.Fatalf("format 1 without --unsigned: exit %d\n%s", code, out)
	}
	code, out, _ = verifyCmd(w.Path(), VerifyOptions{Unsigned: true})
	if code != 0 || !strings.Contains(out, "驗證通過（--unsigned）") || !strings.Contains(out, "日誌格式 1") {
		t.Fatalf("format 1 with --unsigned: exit %d\n%s", code, out)
	}
	var md bytes.Buffer
	if code := ShowFile(w.Path(), ShowOptions{Format: "md"}, &md, &md); code != 0 || !strings.Contains(md.String(), "未簽章（日誌格式 1）") {
		t.Fatalf("show of a format 1 journal: %d\n%s", code, md.String())
	}
	// A signed end record in a format 1 journal is not in the format.
	recs := append([]Record(nil), j.Records...)
	h1 := j.Header
	h1.Format = 1
	data := buildJournal(h1, recs)
	if _, err := Load(bytes.NewReader(data)); !errors.Is(err, ErrRecord) {
		t.Fatalf("a signature in a format 1 journal: %v", err)
	}
}

// TestFingerprintOnRecord: the 復盤 (md and text) and verify show the final
// hash's fingerprint, and it is the first 8 hex digits of the final hash.
func TestFingerprintOnRecord(t *testing.T) {
	p := playJournal(t, t.TempDir(), "seer-witch-hunter-idiot", 7, true)
	j := mustLoad(t, readFile(t, p.path))
	fp := Fingerprint(j.Head())
	if len(fp) != 9 || fp[4] != ' ' {
		t.Fatalf("fingerprint %q", fp)
	}
	for _, f := range []string{"md", "text"} {
		var out bytes.Buffer
		if code := ShowFile(p.path, ShowOptions{Format: f}, &out, &out); code != 0 ||
			!strings.Contains(out.String(), "指紋") || !strings.Contains(out.String(), fp) ||
			!strings.Contains(out.String(), "結束紀錄由金鑰 "+KeyFingerprint([32]byte(testKey.Public().(ed25519.PublicKey)))) {
			t.Fatalf("show --format %s:\n%s", f, out.String())
		}
	}
	if _, out, _ := verifyCmd(p.path, VerifyOptions{PublicKey: testPub}); !strings.Contains(out, "指紋     "+fp) {
		t.Fatalf("verify:\n%s", out)
	}
	// An unfinished journal has no final fingerprint.
	u := playJournal(t, t.TempDir(), "seer-witch-hunter-idiot", 7, false)
	var out bytes.Buffer
	if ShowFile(u.path, ShowOptions{Format: "md"}, &out, &out); !strings.Contains(out.String(), "沒有最終指紋") {
		t.Fatalf("unfinished:\n%s", out.String())
	}
}

// TestVerifyRefusesBytesAfterEnd (issue 27 item 4): a finished, signed
// journal with bytes after its end record (a few bytes, zeros, the start
// of a frame) is refused by `record verify`, as the desk refuses it: the
// table writes nothing after the end, so they were added. Before the fix
// they read as a power cut's torn tail and verify passed (exit 0).
func TestVerifyRefusesBytesAfterEnd(t *testing.T) {
	dir := t.TempDir()
	p := playJournal(t, dir, "seer-witch-hunter-idiot", 5, true)
	data := readFile(t, p.path)
	if code, out, errs := verifyCmd(p.path, VerifyOptions{PublicKey: testPub}); code != 0 {
		t.Fatalf("the genuine journal: exit %d\n%s%s", code, out, errs)
	}
	for name, tail := range map[string][]byte{
		"three bytes":     []byte("abc"),
		"zeros":           make([]byte, 4096),
		"a frame's start": data[len(Magic) : len(Magic)+frameHead+2],
	} {
		f := filepath.Join(t.TempDir(), "added.wtj")
		if err := os.WriteFile(f, append(append([]byte(nil), data...), tail...), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Verify(f)
		if err != nil || !s.Closed || !s.TornTail {
			t.Fatalf("%s: the chain still reads (closed %v, torn %v): %v", name, s.Closed, s.TornTail, err)
		}
		code, out, errs := verifyCmd(f, VerifyOptions{PublicKey: testPub})
		if code != 1 || !strings.Contains(out, "結束紀錄之後還有") || !strings.Contains(errs, "驗證失敗") {
			t.Errorf("%s: exit %d\n%s%s", name, code, out, errs)
		}
		if code, _, _ := verifyCmd(f, VerifyOptions{PublicKey: testPub, Unfinished: true, Unsigned: true}); code != 1 {
			t.Errorf("%s: --unfinished --unsigned let it pass", name)
		}
	}
}
