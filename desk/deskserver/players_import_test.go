package deskserver

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// upload posts file as players.csv to /players/import with client c
// (and the token tok, "" for none).
func (o *opClient) upload(c *http.Client, tok string, file []byte) (int, string, string) {
	o.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if tok != "" {
		mw.WriteField("csrf", tok)
	}
	fw, _ := mw.CreateFormFile("csv", "players.csv")
	fw.Write(file)
	mw.Close()
	req, _ := http.NewRequest("POST", o.srv.URL+"/players/import", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := c.Do(req)
	if err != nil {
		o.t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

// TestPlayersImportPage (issue 29 item 1): players.csv uploaded on the
// registry's page: Excel's BOM and CRLF load every name; a file with bad
// lines is refused whole, each bad line named by its number; no upload
// without the operator's session and token; a file over the bound is
// refused.
func TestPlayersImportPage(t *testing.T) {
	o := newOpClient(t, t.TempDir())
	bad := []byte("\ufeff編號,名字,俱樂部,暱稱\r\nP01,王小明,,\r\nP02,,,\r\nP03,張志豪,,\r\nP04,,,\r\n")
	code, _, page := o.upload(o.c, o.tok, bad)
	if code != 400 || !strings.Contains(page, "第 3 行") || !strings.Contains(page, "第 5 行") || !strings.Contains(page, `href="/players"`) {
		t.Fatalf("a file with two bad lines: %d\n%s", code, page)
	}
	if ps, _ := o.d.Store.Players(); len(ps) != 0 {
		t.Fatalf("a refused file imported %d players", len(ps))
	}
	if code, _, _ := o.upload(o.anon, o.tok, bad[:0]); code != 401 {
		t.Errorf("an upload without the session: %d, want 401", code)
	}
	if code, _, _ := o.upload(o.c, "", bad[:0]); code != 403 {
		t.Errorf("an upload without the token: %d, want 403", code)
	}
	if code, _, _ := o.upload(o.c, o.tok, bytes.Repeat([]byte("P01,王小明,,\r\n"), maxImport/15+1)); code != 413 {
		t.Errorf("a file over %d bytes: %d, want 413", maxImport, code)
	}
	good := []byte("\ufeff編號,名字,俱樂部,暱稱\r\nP01,王小明,台北,\r\nP02,李美玲,,小玲\r\n")
	code, loc, _ := o.upload(o.c, o.tok, good)
	if code != 303 || loc != "/players?added=2&updated=0" {
		t.Fatalf("Excel's file: %d %q", code, loc)
	}
	if _, page := o.get(loc); !strings.Contains(page, "新增 2 位") || !strings.Contains(page, `value="李美玲"`) || !strings.Contains(page, `value="小玲"`) {
		t.Errorf("the registry after the import:\n%s", page)
	}
}
