package deskserver

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"

	"wolftable/desk"
)

// The registry's CSV import on the desk's page (issue 29 item 1): the
// logged-in operator uploads players.csv (Excel's UTF-8 with BOM and
// CRLF); every bad line is listed with its number and nothing is
// imported, or every line is.

// maxImport bounds an uploaded players.csv (MaxPlayers lines and more).
const maxImport = 1 << 20

// importBounded reads the upload before the session's check, so that a
// file over the bound is told as such (not as a missing token).
func (d *Desk) importBounded(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var big *http.MaxBytesError
		if err := r.ParseMultipartForm(maxImport); errors.As(err, &big) {
			d.fail(w, r, http.StatusRequestEntityTooLarge, "名冊沒有匯入：", "檔案太大（最大 1 MB）", "/players")
			return
		}
		h(w, r)
	}
}

func (d *Desk) playerImport(w http.ResponseWriter, r *http.Request) {
	f, _, err := r.FormFile("csv")
	if err != nil {
		d.fail(w, r, http.StatusBadRequest, "名冊沒有匯入：", "沒有收到檔案（請選一個 CSV 檔，最大 1 MB）", "/players")
		return
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxImport+1))
	if err != nil || len(b) > maxImport {
		d.fail(w, r, http.StatusBadRequest, "名冊沒有匯入：", "檔案讀不完（最大 1 MB）", "/players")
		return
	}
	added, updated, err := desk.ImportPlayers(d.opts.Data, b)
	var bad desk.LineErrors
	if errors.As(err, &bad) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusBadRequest)
		importTmpl.Execute(w, map[string]any{"Title": d.title(), "Bad": bad})
		return
	}
	if err != nil {
		d.fail(w, r, http.StatusBadRequest, "名冊沒有匯入：", err.Error(), "/players")
		return
	}
	d.log.Warn("desk: players imported", "added", added, "updated", updated)
	d.Store.Log("player", "", fmt.Sprintf("匯入選手名冊：新增 %d 位、更新 %d 位", added, updated))
	http.Redirect(w, r, fmt.Sprintf("/players?added=%d&updated=%d", added, updated), http.StatusSeeOther)
}

var importTmpl = template.Must(template.New("import").Parse(head + `
<title>名冊沒有匯入・{{.Title}}</title></head><body>` + nav + `
<h1 class="bad">名冊沒有匯入：檔案有 {{len .Bad}} 行有問題</h1>
<p>整個檔案都沒有匯入（名冊沒有任何變動）。請改正下列各行後再匯入一次：</p>
<ul class="import-errors">{{range .Bad}}<li>{{.}}</li>{{end}}</ul>
<p><a href="/players">← 回上一頁</a></p></body></html>`))
