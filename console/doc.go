// Package console is the judge's console: a web page on the judge's phone or
// tablet with the god view and the judge's powers, and a public page for
// the players and the audience. It is an http.Handler served by `wolftable
// serve` and `sim`; its pages are plain HTML, CSS and JavaScript embedded in
// the binary (no build step), and they use only the API below.
//
// # Wiring
//
// New(Options{Table: t}) makes the Server. The console starts games and
// performs powers through the Table (StartGame, Submit); it follows a game
// through the function Attach returns, chained into that game's
// daemon.Config.OnEvent. The function runs on the daemon's goroutine, reads
// what the game waits for (engine.Game.Awaiting, the seats) there, copies
// the event and queues it: it never blocks. A worker goroutine applies the
// queue to two views and wakes the live streams. Close ends both.
//
// # API
//
// Public (no login):
//
//	GET  /api/public/state    PublicState as JSON
//	GET  /api/public/events   the same, live (server-sent events)
//	POST /api/login           {"pin": "123456"} → session cookie + {"csrf": "…"}
//
// Judge (session cookie; every POST also the X-CSRF-Token header):
//
//	GET  /api/judge/session   {"csrf", "expires"}: a reloaded page finds its token
//	GET  /api/judge/state     JudgeState as JSON (the god view)
//	GET  /api/judge/events    the same, live
//	GET  /api/judge/boards    the boards, their compositions and options
//	GET  /api/judge/record    the record and transcript (?format=text)
//	GET  /api/judge/history   the table's games, a page at a time (?page=N&per=M; history.go)
//	GET  /api/judge/history/{name}  a game's 復盤 (?format=text|md|json) or journal (?format=wtj)
//	POST /api/judge/start     a new game: board, options, deal (random or by hand), seed
//	POST /api/judge/{power}   pedal dq penalty void undo repeat pause resume seat
//	POST /api/judge/logout
//	GET  /api/judge/draw      the seat draw: the roster, the next game's draw, the game's (draw_http.go)
//	POST /api/judge/draw/roster  {"from":"desk"} the desk's roster, or {"text":…} names typed
//	POST /api/judge/draw      {} 抽座位 at random, or {"seats":[…]} as drawn on paper
//	POST /api/judge/draw/clear
//
// The voice studio (studio.go; Options.Studio, audio/studio's Handler):
//
//	GET  /api/judge/voice/clips            every clip of the script, its take's state and notes
//	PUT  /api/judge/voice/clips/{id}       a recording as the body (WAV, WebM/Opus, Ogg/Opus, MP3)
//	GET  /api/judge/voice/clips/{id}/audio the take; ?pack=default the default pack's clip
//	POST /api/judge/voice/name|activate|deactivate|import, GET /api/judge/voice/export
//
// Its requests need the session like the others, its changes (PUT, POST)
// the CSRF token and a same-origin request, but their bodies are audio or
// zip, not JSON; the studio bounds them. Changes are refused with 409
// (game_on) while a game is on.
//
// A refused power answers 409 (not now: the game is elsewhere, paused or
// over) or 422 (a rule forbids it) with {"error", "code"}; a malformed
// request 400. "error" is always the judge's words: an engine refusal is
// rendered from its reason and arguments by script.Refusal (the one table,
// script/refusals.go, beside the line catalogue); any other error (a file
// path, the daemon's internals) is logged and answered with a short Chinese
// sentence. The engine's English message stays in the log. Every power reaches the daemon as an engine input with the
// source "console:judge@<remote addr>", and the daemon journals it.
//
// Pages: / (public), /judge (login, god view, powers, new game), /deal
// (the printable deal sheet, naming each seat's drawn player), /studio
// (the voice studio), /history (the table's games, with each one's 復盤
// and journal), /draw (the seat draw before each game).
//
// # Live views
//
// Both streams send the whole state as "event: state" (id: its version)
// on every change, at most every 100 ms, with a keep-alive comment every
// 15 s. A page that reconnects, or a second judge device, is in sync with
// the first message. The pages reconnect on their own (EventSource, then a
// state read and a new stream with a growing delay when the browser gives up).
//
// # The public view
//
// The public view is built from public facts only (publicFacts is the one
// place that decides them) and never sees the deal, the cues, the seats'
// inputs, refused inputs or the night's records. It holds:
//
//   - the board (its name and seat count: the composition is public);
//   - the lights as they are, and the phase ("night-2", "day-2");
//   - the lines the voice speaks (never the judge's cues);
//   - timers by day only: a night step's timer would tell when the role
//     has acted (A15), so at night the public view shows none;
//   - pauses;
//   - deaths as announced, one entry per seat: the seat and when; the cause
//     only when everyone saw it (exile, explode, duel, dq, taken, shot,
//     charm). A night death is shown without its cause: "wolf" or "poison"
//     would tell whether the witch acted, and two causes on one seat more;
//   - exile results, the sheriff, the votes (hands are raised by day, so
//     ballots are public once counted; while a vote runs only the judge sees
//     the ballots as they come in);
//   - cards turned over in front of everyone (愚者, 定序王子, 血月使徒),
//     which the voice announces;
//   - the result.
//
// Check and action records ("check", "action"), penalties and speech
// records are the judge's. TestPublicViewLeaksNothing asserts this over
// whole games on every board.
//
// # Security
//
// The judge logs in with a PIN. Options.PINHash is console.pin_hash,
// "sha256:<hex>"; without it the hash kept in Options.StateDir is used
// (PINFile; NewPIN, `wolftable console pin`, makes a new one, which a
// running console takes at the next login attempt). With neither, New
// draws a 6-digit PIN with crypto/rand, stores its hash and GeneratedPIN
// returns it for the caller to show once. Only hashes are kept; the PIN is
// never logged.
//
// A wrong PIN counts against the remote address (an IPv6 address's /64,
// which one host can use whole): after 5 in a minute it waits 1 minute,
// doubling with each further lockout up to an hour (429 with Retry-After);
// 30 failures a minute from all addresses together hold every new login
// for the rest of the minute. An address without a lockout is forgotten
// once its failures leave the minute, one with a lockout a day after its
// last failure; past 4,096 tracked addresses the one whose last failure is
// the oldest is forgotten (the global limit, not the table, bounds the
// guesses of many addresses). A logged-in judge is not affected.
//
// The global limit lets anyone on the LAN hold every login. The judge is
// at the table: a long press of the pedal (Server.PedalHeld; `serve`
// passes the table's long presses to it) opens a two-minute window in
// which a login the throttle would hold (the global limit, or the
// address's own lockout) gets one attempt past it per address, 8 in all
// (webguard.WindowPasses); wrong PINs still count, and the window closes
// at the first good login. What an attacker gains from a window: at most 8
// guesses, never two minutes of free guessing. If a flood takes the 8
// before the judge, hold the pedal again. The throttle is the tournament
// desk's too (internal/webguard).
//
// Refused logins are logged without flooding the system log: the first
// after a quiet minute at once, then one summary line a minute (wrong PINs,
// throttled attempts, addresses) while they go on; nothing runs once they
// stop.
//
// Sessions end after Options.SessionTTL (12 h). Only the SHA-256 of the
// cookie is kept, in memory and in StateDir (sessions.json, mode 0600), so
// a session survives a restart; the CSRF token is an HMAC of the cookie,
// stored nowhere. A session is bound to the PIN's generation (a random
// line NewPIN writes beside the hash in pin_hash; console.pin_hash itself
// when configured): a new PIN ends every session, in the running console
// at its next request and, through the sessions file, after a restart. It
// is bound to its scheme too: a cookie set by a plain-HTTP login, which
// the LAN may have seen, is refused over HTTPS (and an HTTPS one over
// HTTP). The cookie is HttpOnly, SameSite=Strict, Secure over
// TLS. Every state-changing request needs the CSRF token in X-CSRF-Token,
// a same-origin Origin and Sec-Fetch-Site when the browser sends them, and
// a JSON body: otherwise 403 (415 for the body). Judge endpoints answer 401
// without a live session.
//
// # Connections
//
// `serve` runs HTTPServer on Listener(ln) (and, for HTTPS, with TLSConfig
// and a certificate from LoadOrCreateCert: the venue's own, or a
// self-signed one kept in StateDir, shown by its Fingerprint). The
// listener closes a peer outside Options.Allow (default DefaultAllow:
// loopback and the private LAN ranges) at accept, before reading a byte,
// and a connection past 32 open ones of one address (an IPv6 /64 counts as
// one: on an IPv6-only LAN the phones share it). The server times out the
// headers (10 s), the whole request (20 s), a reply (30 s) and an idle
// keep-alive connection (60 s), and bounds the headers to 16 KB; HTTP/1.1
// only. The handler checks Allow again (403), then the Host header: a
// configured name (Options.Hosts), localhost, the machine's name and
// NAME.local, or one of its addresses; anything else, such as a
// DNS-rebinding page's name, gets 421. Redirect is the plain-HTTP handler
// that sends every request to the HTTPS console (serve's default while
// HTTPS is up); every HTTPS answer carries Strict-Transport-Security.
// The self-signed certificate is a CA with critical name constraints
// (its own names and addresses, no CA below it): a phone that installs
// it trusts nothing else its key could sign (cert.go).
//
// Live streams have no read deadline and a write deadline per message
// (10 s): a client that stops reading loses its stream when its socket's
// buffers fill. At most 200 public streams, 8 of one address, and 16 of
// the judge's on slots of their own (503 past that), so an audience never
// takes the judge's live view. Responses carry a strict
// Content-Security-Policy (no inline script) and the pages build the DOM
// from text, never HTML.
//
// # Tests
//
// The tests run the console against a real daemon on a fake clock and the
// hwtest table (rig_test.go): whole games with random players on every
// board for the public view, a scripted 預女獵愚 game over HTTP for the
// powers, the security checks, and fuzz targets for the request parsing.
// browser_test.go (needs github.com/chromedp/chromedp
// and Debian's chromium) plays the scripted game in headless Chromium and
// keeps screenshots as artefacts (skipped without Chromium):
//
//	go test -run Browser -artifacts -outputdir DIR ./console/
package console
