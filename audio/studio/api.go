package studio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"

	"wolftable/audio/defaultpack"
	"wolftable/audio/pack"
	"wolftable/internal/jsonreply"
)

// Handler is the studio's API (see the package documentation). It checks
// no session: the console mounts it behind its own.
func (s *Studio) Handler() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /api/judge/voice/clips", func(w http.ResponseWriter, r *http.Request) {
		jsonreply.Write(w, http.StatusOK, s.List())
	})
	m.HandleFunc("PUT /api/judge/voice/clips/{id}", s.putClip)
	m.HandleFunc("GET /api/judge/voice/clips/{id}/audio", s.getAudio)
	m.HandleFunc("POST /api/judge/voice/name", s.postName)
	m.HandleFunc("POST /api/judge/voice/activate", s.postActivate)
	m.HandleFunc("POST /api/judge/voice/deactivate", func(w http.ResponseWriter, r *http.Request) {
		if err := s.Deactivate(); err != nil {
			s.fail(w, err)
			return
		}
		jsonreply.Write(w, http.StatusOK, s.List())
	})
	m.HandleFunc("GET /api/judge/voice/export", s.getExport)
	m.HandleFunc("POST /api/judge/voice/import", s.postImport)
	m.HandleFunc("/api/judge/voice/", func(w http.ResponseWriter, r *http.Request) {
		jsonreply.Refuse(w, http.StatusNotFound, "not_found", "沒有這個功能")
	})
	return m
}

func (s *Studio) putClip(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if _, ok := s.b.Clip(id); !ok {
		s.fail(w, ErrUnknownClip)
		return
	}
	body, err := readBody(w, r, MaxUpload)
	if err != nil {
		s.fail(w, err)
		return
	}
	if err := cancelled(r.Context()); err != nil { // a game started while the take was uploading
		s.fail(w, err)
		return
	}
	res, err := s.Record(id, body)
	if err != nil {
		s.fail(w, err)
		return
	}
	jsonreply.Write(w, http.StatusOK, s.reply(res))
}

// resultReply is a take's result as the page shows it.
type resultReply struct {
	Result
	Notes []Note `json:"notes"`
	State string `json:"state"`
}

func (s *Studio) reply(r Result) resultReply {
	c, _ := s.b.Clip(r.Clip)
	return resultReply{Result: r, Notes: Notes(r.Findings, c.Suggested()), State: stateOf(r.Findings)}
}

func (s *Studio) getAudio(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if _, ok := s.b.Clip(id); !ok {
		s.fail(w, ErrUnknownClip)
		return
	}
	if r.URL.Query().Get("pack") == "default" {
		fsys := defaultpack.FS()
		l, err := pack.List(fsys)
		if err != nil || len(l.Clips[id]) != 1 {
			jsonreply.Refuse(w, http.StatusNotFound, "no_take", "內建語音沒有這一句")
			return
		}
		b, err := fs.ReadFile(fsys, l.Clips[id][0])
		if err != nil {
			s.fail(w, err)
			return
		}
		serveAudio(w, b)
		return
	}
	b, err := s.Take(id)
	if err != nil {
		s.fail(w, err)
		return
	}
	serveAudio(w, b)
}

func serveAudio(w http.ResponseWriter, b []byte) {
	ct := "audio/wav"
	if isMP3(b) {
		ct = "audio/mpeg"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b)
}

type nameRequest struct {
	Name string `json:"name"`
	By   string `json:"recorded_by"`
}

func (s *Studio) postName(w http.ResponseWriter, r *http.Request) {
	var req nameRequest
	if !readJSON(w, r, &req) {
		return
	}
	if err := s.Name(req.Name, req.By); err != nil {
		jsonreply.Refuse(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	jsonreply.Write(w, http.StatusOK, s.List())
}

type activateRequest struct {
	Fill bool `json:"fill"`
}

func (s *Studio) postActivate(w http.ResponseWriter, r *http.Request) {
	var req activateRequest
	if !readJSON(w, r, &req) {
		return
	}
	if _, err := s.Activate(req.Fill); err != nil {
		s.fail(w, err)
		return
	}
	jsonreply.Write(w, http.StatusOK, s.List())
}

func (s *Studio) getExport(w http.ResponseWriter, r *http.Request) {
	name := fmt.Sprintf("wolftable-voice-%s.zip", s.now().Format("20060102-1504"))
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Cache-Control", "no-store")
	if err := s.Export(w); err != nil {
		s.log.Error("studio: export failed", "err", err) // the archive is cut short: the browser sees a broken download
	}
}

func (s *Studio) postImport(w http.ResponseWriter, r *http.Request) {
	// The archive goes to a file beside the studio: zip needs to seek, and
	// an archive is more than the table's memory.
	f, err := os.CreateTemp(s.dir, ".import-*.zip")
	if err != nil {
		s.fail(w, err)
		return
	}
	defer os.Remove(f.Name())
	defer f.Close()
	n, err := io.Copy(f, ctxReader{r.Context(), http.MaxBytesReader(w, r.Body, MaxArchive)})
	var tooBig *http.MaxBytesError
	switch {
	case errors.Is(err, ErrCancelled):
		s.fail(w, err)
		return
	case errors.As(err, &tooBig):
		jsonreply.Refuse(w, http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("壓縮檔太大（上限 %d MB）", MaxArchive>>20))
		return
	case err != nil:
		jsonreply.Refuse(w, http.StatusBadRequest, "bad_request", "沒收到完整的檔案")
		return
	}
	res, err := s.ImportContext(r.Context(), f, n)
	if err != nil {
		status, code := http.StatusUnprocessableEntity, "bad_archive"
		if errors.Is(err, ErrCancelled) { // what was saved before the game started is listed
			status, code = http.StatusConflict, "cancelled"
		}
		jsonreply.Write(w, status, struct {
			errorReply
			Imported
		}{errorReply{Error: err.Error(), Code: code}, res})
		return
	}
	jsonreply.Write(w, http.StatusOK, res)
}

// ctxReader reads r until ctx ends (then ErrCancelled): an upload stops
// at its next read once a game has started.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := cancelled(c.ctx); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// readBody reads a request's body of at most max bytes.
func readBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, ErrTooLarge
	case err != nil:
		return nil, errPartial
	}
	return b, nil
}

var errPartial = errors.New("沒收到完整的錄音 / the upload was cut short")

// readJSON decodes a small JSON body, or answers 400/415.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4<<10))
	if err == nil && len(b) > 0 {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		jsonreply.Refuse(w, http.StatusBadRequest, "bad_request", "請求格式不對")
		return false
	}
	return true
}

// fail answers an error of the studio with its status and code; anything
// unexpected (a disk error) is logged and answered in short.
func (s *Studio) fail(w http.ResponseWriter, err error) {
	var ce *CheckError
	var ie *IncompleteError
	switch {
	case errors.As(err, &ce):
		jsonreply.Write(w, http.StatusUnprocessableEntity, struct {
			errorReply
			Result resultReply `json:"result"`
		}{errorReply{Error: err.Error(), Code: "check_failed"}, s.reply(ce.Result)})
	case errors.As(err, &ie):
		jsonreply.Refuse(w, http.StatusConflict, "incomplete", err.Error())
	case errors.Is(err, ErrUnknownClip):
		jsonreply.Refuse(w, http.StatusNotFound, "unknown_clip", err.Error())
	case errors.Is(err, ErrNoTake):
		jsonreply.Refuse(w, http.StatusNotFound, "no_take", err.Error())
	case errors.Is(err, ErrTooLarge):
		jsonreply.Refuse(w, http.StatusRequestEntityTooLarge, "too_large", err.Error())
	case errors.Is(err, ErrCancelled):
		jsonreply.Refuse(w, http.StatusConflict, "cancelled", err.Error())
	case errors.Is(err, ErrNothing):
		jsonreply.Refuse(w, http.StatusConflict, "nothing", err.Error())
	case errors.Is(err, errPartial):
		jsonreply.Refuse(w, http.StatusBadRequest, "bad_request", err.Error())
	case isUploadError(err):
		jsonreply.Refuse(w, http.StatusUnprocessableEntity, "bad_upload", err.Error())
	default:
		s.log.Error("studio: request failed", "err", err)
		jsonreply.Refuse(w, http.StatusInternalServerError, "internal", "桌子存檔失敗，請看系統日誌")
	}
}

// uploadError marks the errors of an upload that cannot become a clip.
type uploadError struct{ error }

func (e uploadError) Unwrap() error { return e.error }

func isUploadError(err error) bool {
	var u uploadError
	return errors.As(err, &u) || errors.Is(err, ErrEmpty) || errors.Is(err, ErrNotAudio) || errors.Is(err, ErrSilent)
}

type errorReply = jsonreply.Error
