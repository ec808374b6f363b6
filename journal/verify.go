package journal

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"wolftable/engine"
)

// Summary is what Verify found.
type Summary struct {
	Path      string
	Header    Header
	Records   int // the header included
	Inputs    int
	Refused   int // inputs the engine refused (journaled refusals, and a last one)
	Started   bool
	Closed    bool   // the journal has its end record
	EndResult string // the end record's result
	// Signed: the end record carries a signature, which verified with the
	// public key it names, SignedBy (Read checks that). Whether SignedBy is
	// the table's key is Check's question.
	Signed    bool
	SignedBy  [32]byte
	Head      [32]byte // the last record's chain hash: the final hash when Closed
	TornTail  bool
	TornBytes int64
	// Replayed: every input replayed as it was played; Over and Winner are
	// the replayed game's.
	Replayed bool
	Over     bool
	Winner   string
}

// Verify reads a journal, checks its hash chain (and the end record's
// signature with the key it names) and replays it through the engine with
// the embedded boards. The error is the first problem (the Summary holds
// what was found before it); a torn tail is not an error. Whether the
// journal proves a result — finished, signed by the table's key — is
// Summary.Check.
func Verify(path string) (Summary, error) { return verify(path, embedded) }

func verify(path string, get BoardSource) (Summary, error) {
	s := Summary{Path: path}
	j, err := Read(path)
	if err != nil {
		return s, err
	}
	s.Header, s.Records, s.Head = j.Header, len(j.Records)+1, j.Head()
	s.TornTail, s.TornBytes = j.TornTail, j.TornBytes
	for _, r := range j.Records {
		switch r.Kind {
		case KindStart:
			s.Started = true
		case KindInput:
			s.Inputs++
		case KindEnd:
			s.Closed, s.EndResult = true, r.Result
			s.Signed, s.SignedBy = r.Signed, r.PublicKey
		}
	}
	g, events, err := Replay(j, get)
	if err != nil {
		return s, err
	}
	for _, e := range events {
		if e.Refused != nil {
			s.Refused++
		}
	}
	s.Replayed = true
	over, w := g.Over()
	s.Over, s.Winner = over, string(w)
	return s, nil
}

// Policy is what `record verify` requires of a journal besides its chain
// and its replay.
type Policy struct {
	// PublicKey is the table's public key, as the organiser registered it;
	// KeySource says where it came from (a file, --pubkey). nil: none
	// known, and a signed journal cannot be checked.
	PublicKey ed25519.PublicKey
	KeySource string
	// Unfinished accepts a journal without an end record (a game still
	// being played, or cut by a power failure): it proves no result.
	Unfinished bool
	// Unsigned accepts an end record without a signature: a format 1
	// journal, written before signatures. It proves no result either.
	Unsigned bool
}

// PolicyError is a journal that verifies and replays but does not prove
// its result under the Policy. Msg is for the organiser (Chinese).
type PolicyError struct{ Msg string }

func (e *PolicyError) Error() string { return e.Msg }

// Check says whether a verified journal proves its result: it must have
// its end record (a journal cut at a record boundary is a valid prefix of
// the game, so an end record is the only way to know nothing was cut),
// nothing may follow the end record (the table writes nothing after it,
// so bytes there were added: the desk refuses them too), and that end
// record must be signed with the table's key (anyone can write a valid
// hash chain, so only the signature shows the table wrote it).
func (s *Summary) Check(p Policy) error {
	switch {
	case !s.Closed && !p.Unfinished:
		return &PolicyError{"日誌沒有結束紀錄：這局還沒結束，或檔案被截斷過。截斷在紀錄邊界的日誌一樣雜湊鏈完整、重播一致，所以沒有結束紀錄的日誌證明不了任何結果。確知是進行中或斷電中斷的對局，才加 --unfinished 檢查。"}
	case !s.Closed:
		return nil
	case s.TornTail:
		return &PolicyError{fmt.Sprintf("結束紀錄之後還有 %d 位元組：對局結束後 wolftable 不再寫任何資料（這不是斷電造成的斷尾），檔案被加寫或損壞過，證明不了結果；總台同樣拒收。", s.TornBytes)}
	case !s.Signed && !p.Unsigned:
		return &PolicyError{fmt.Sprintf("結束紀錄沒有簽章（日誌格式 %d）：證明不了結果是本桌寫的，因為任何人都能寫出一份雜湊鏈完整的日誌。格式 1 的舊日誌加 --unsigned 只檢查雜湊鏈與重播。", s.Header.Format)}
	case !s.Signed:
		return nil
	case p.PublicKey == nil:
		return &PolicyError{fmt.Sprintf("無法核對簽章：找不到本桌的公鑰%s。請以 --pubkey 指定主辦登記的本桌公鑰（`wolftable record pubkey` 在桌上印出它）。", paren(p.KeySource))}
	case !bytes.Equal(p.PublicKey, s.SignedBy[:]):
		return &PolicyError{fmt.Sprintf("簽章金鑰不符：日誌由金鑰 %s 簽署，不是本桌的金鑰 %s%s。這份日誌不是本桌簽署的（或是別桌的日誌）。", KeyFingerprint(s.SignedBy), KeyFingerprint([32]byte(p.PublicKey)), paren(p.KeySource))}
	}
	return nil
}

func paren(s string) string {
	if s == "" {
		return ""
	}
	return "（" + s + "）"
}

// Explain says in Chinese, for the organiser, why a journal failed Verify.
func Explain(err error) string {
	var ce *CorruptError
	var ve *VersionError
	var re *ReplayError
	var pe *PolicyError
	switch {
	case errors.As(err, &pe):
		return pe.Msg
	case errors.As(err, &ce) && errors.Is(err, ErrSignature):
		return fmt.Sprintf("結束紀錄（第 %d 筆）的簽章不符：日誌在簽署後被修改過，或簽章是偽造的。", ce.Index)
	case errors.As(err, &ce) && errors.Is(err, ErrHash):
		return fmt.Sprintf("第 %d 筆紀錄（位元組 %d）的雜湊不符：日誌寫入後被修改或損壞（不是斷電造成的斷尾）。", ce.Index, ce.Offset)
	case errors.As(err, &ce) && errors.Is(err, ErrFrame):
		return fmt.Sprintf("第 %d 筆紀錄（位元組 %d）的長度欄位損壞：日誌被修改或損壞。", ce.Index, ce.Offset)
	case errors.As(err, &ce):
		return fmt.Sprintf("第 %d 筆紀錄（位元組 %d）的內容無效：不是 wolftable 寫出的紀錄。", ce.Index, ce.Offset)
	case errors.As(err, &ve):
		return fmt.Sprintf("日誌格式 %d 比這個版本的 wolftable 新：請用較新的版本檢查。", ve.Version)
	case errors.As(err, &re):
		return fmt.Sprintf("重播不一致（第 %d 筆紀錄）：依日誌重播，規則引擎做的和當時不同（日誌被改過，或板子規則已變）。", re.Index)
	case errors.Is(err, ErrNotJournal):
		return "這不是 wolftable 的日誌檔。"
	case errors.Is(err, ErrNoHeader):
		return "日誌在建立時就中斷了（沒有完整的開頭紀錄）：這局沒有開始。"
	case errors.Is(err, fs.ErrNotExist):
		return "檔案不存在。"
	case errors.Is(err, fs.ErrPermission):
		return "沒有讀取權限（請以 sudo 執行）。"
	}
	return "無法讀取：" + err.Error()
}

// Write prints the summary as `wolftable record verify` does, in Chinese
// (the organiser reads it); hashes in hex.
func (s *Summary) Write(w io.Writer) {
	h := &s.Header
	fmt.Fprintf(w, "檔案     %s\n", s.Path)
	fmt.Fprintf(w, "對局     %s  板子 %s  種子 %d  %d 座  軟體 %s  日誌格式 %d\n", h.GameID, h.Board, h.Seed, h.Seats, h.Software, h.Format)
	if len(h.Bottom) > 0 {
		names := make([]string, len(h.Bottom))
		for i, r := range h.Bottom {
			names[i] = r.Name()
		}
		fmt.Fprintf(w, "底牌     %s\n", strings.Join(names, "、"))
	}
	if len(h.Draw) > 0 {
		parts := make([]string, len(h.Draw))
		for i, d := range h.Draw {
			parts[i] = fmt.Sprintf("%d號 %s", d.Seat, d.Name)
		}
		how := "桌上隨機抽"
		if h.DrawManual {
			how = "手動登錄"
		}
		fmt.Fprintf(w, "座位     %s（%s）\n", strings.Join(parts, "、"), how)
	}
	fmt.Fprintf(w, "建檔     %s\n", h.Start.Format("2006-01-02 15:04:05 -07:00"))
	fmt.Fprintf(w, "紀錄     %d 筆（開頭、%d 個輸入、%d 個被拒絕", s.Records, s.Inputs, s.Refused)
	if s.Started {
		fmt.Fprint(w, "、開局")
	}
	if s.Closed {
		fmt.Fprint(w, "、結束")
	}
	fmt.Fprintln(w, "）")
	fmt.Fprintf(w, "雜湊鏈   完整（末筆雜湊 %s）\n", hex.EncodeToString(s.Head[:]))
	switch {
	case s.TornTail && s.Closed:
		fmt.Fprintf(w, "斷尾     結束紀錄之後多出 %d 位元組（結束後不會再寫入：不是斷電）\n", s.TornBytes)
	case s.TornTail:
		fmt.Fprintf(w, "斷尾     有：最後一筆紀錄寫到一半就斷電，捨棄 %d 位元組；對局可從第 %d 筆續局\n", s.TornBytes, s.Records-1)
	default:
		fmt.Fprintln(w, "斷尾     無")
	}
	if !s.Replayed {
		return
	}
	fmt.Fprintln(w, "重播     一致：規則引擎重播的結果與對局時相同")
	switch {
	case s.Over:
		fmt.Fprintf(w, "結果     %s\n", s.Winner)
	case s.Started:
		fmt.Fprintln(w, "結果     尚無（對局未結束）")
	default:
		fmt.Fprintln(w, "結果     無（對局沒有開始）")
	}
	switch {
	case !s.Closed:
		fmt.Fprintln(w, "結束     否（沒有結束紀錄：對局可以續局，也可能被截斷）")
	case s.EndResult != "":
		fmt.Fprintf(w, "結束     是（%s）\n", s.EndResult)
	default:
		fmt.Fprintln(w, "結束     是")
	}
	switch {
	case s.Signed:
		fmt.Fprintf(w, "簽章     有，金鑰 %s（%s）\n", KeyFingerprint(s.SignedBy), FormatPublicKey(s.SignedBy[:]))
	case s.Closed:
		fmt.Fprintln(w, "簽章     無")
	}
	if s.Closed {
		fmt.Fprintf(w, "指紋     %s（最終雜湊的前 8 位；與計分表上抄的比對）\n", Fingerprint(s.Head))
	}
}

// WriteRecords lists every record, one a line: index, byte offset, wall
// time, source, kind and content, and the first bytes of its chain hash.
func WriteRecords(w io.Writer, j *Journal) {
	h := &j.Header
	bottom := ""
	if len(h.Bottom) > 0 {
		parts := make([]string, len(h.Bottom))
		for i, r := range h.Bottom {
			parts[i] = string(r)
		}
		bottom = " bottom=" + strings.Join(parts, ",")
	}
	fmt.Fprintf(w, "%5d %8d  %s  header   %s board=%s seed=%d deal=%s%s\n", 0, len(Magic),
		h.Start.Format("15:04:05.000"), hex.EncodeToString(j.HeaderHash[:6]), h.Board, h.Seed, dealText(h.Deal), bottom)
	for _, r := range j.Records {
		var what string
		switch r.Kind {
		case KindInput:
			what = DescribeInput(r.Input)
		case KindRefused:
			what = fmt.Sprintf("code %d: %s", r.Code, r.Reason)
		case KindEnd:
			what = r.Result
		}
		fmt.Fprintf(w, "%5d %8d  %s  %-8s %s %-24s %s\n", r.Index, r.Offset, r.Wall.Format("15:04:05.000"),
			r.Kind, hex.EncodeToString(r.Hash[:6]), r.Source, what)
	}
}

func dealText(deal []engine.Role) string {
	parts := make([]string, len(deal))
	for i, r := range deal {
		parts[i] = fmt.Sprintf("%d:%s", i+1, r)
	}
	return strings.Join(parts, ",")
}

// keyCommand runs `record keygen` and `record pubkey`.
func keyCommand(sub, keyPath string, stdout, stderr io.Writer) int {
	if sub == "keygen" {
		key, err := GenerateKey(keyPath)
		if errors.Is(err, fs.ErrExist) {
			fmt.Fprintf(stderr, "record keygen: 本桌已有金鑰 %s：不覆寫（換金鑰要先移走舊的，並請主辦重新登記公鑰）\n", keyPath)
			return 1
		}
		if err != nil {
			fmt.Fprintln(stderr, "record keygen:", err)
			return 1
		}
		pub := key.Public().(ed25519.PublicKey)
		fmt.Fprintf(stdout, "本桌簽章金鑰：%s（私鑰，權限 0600）\n公鑰：%s（請交主辦登記）\n%s\n", keyPath, PublicKeyPath(keyPath), FormatPublicKey(pub))
		return 0
	}
	pub, err := ReadPublicKey(PublicKeyPath(keyPath))
	if err != nil {
		key, kerr := ReadPrivateKey(keyPath)
		if kerr != nil {
			fmt.Fprintf(stderr, "record pubkey: %v；%v\n", err, kerr)
			return 1
		}
		pub = key.Public().(ed25519.PublicKey)
	}
	fmt.Fprintln(stdout, FormatPublicKey(pub))
	return 0
}
