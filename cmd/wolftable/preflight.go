package main

import (
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"wolftable/config"
	"wolftable/console"
	"wolftable/journal"
)

// preflight checks what serve refuses at start beyond the file's text
// (config.Load) and the hardware (selftest): the desk's credentials, the
// console's state and address, the journal folder's signing key and
// unfinished game. `config check` runs it, so that a config that passes
// never leaves systemd restarting serve in a loop. The error is a
// *config.Error naming the key; notes are problems serve goes on with
// (no HTTPS, a port a running wolftable holds).
func preflight(c *config.Config) (notes []string, err error) {
	if d := c.Desk; d.URL != "" {
		if err := checkDeskCreds(d.URL, d.Table, d.Creds); err != nil {
			return notes, c.Problem("desk.creds", strings.TrimPrefix(err.Error(), "desk.creds: "))
		}
	}
	if c.Console.Listen != "off" {
		if err := console.CheckState(c.StateDirPath()); err != nil {
			return notes, c.Problem("console.state_dir", fmt.Sprintf("主控台狀態資料夾 %s 的 PIN 檔壞了 / %v", c.StateDirPath(), err))
		}
		msg, fatal := listenProblem(c.Console.Listen, false)
		if fatal {
			return notes, c.Problem("console.listen", msg)
		}
		if msg != "" {
			notes = append(notes, "console.listen："+msg)
		}
		if a := c.TLSAddr(); a != "" {
			if msg, fatal := listenProblem(a, true); fatal {
				notes = append(notes, "console.tls_listen："+msg+"（serve 照常啟動，但不開 HTTPS，主控台只走 HTTP）")
			} else if msg != "" {
				notes = append(notes, "console.tls_listen："+msg)
			}
		}
	}
	if err := journalProblem(c); err != nil {
		return notes, err
	}
	if cat, err := c.Boards(); err == nil {
		for _, sk := range cat.Skipped {
			notes = append(notes, "game.boards_dir：略過 "+sk.String())
		}
	}
	for key, d := range map[string]string{"journal.dir": c.Journal.Dir, "console.state_dir": c.StateDirPath()} {
		if rel, err := filepath.Rel("/var/lib/wolftable", filepath.Clean(d)); err != nil || strings.HasPrefix(rel, "..") {
			notes = append(notes, fmt.Sprintf("%s：%s 不在 /var/lib/wolftable 之下：systemd 服務只能寫 /var/lib/wolftable（ProtectSystem=strict），請以 sudo systemctl edit wolftable 加上 [Service] ReadWritePaths=%s", key, d, d))
		}
	}
	slices.Sort(notes)
	return notes, nil
}

// journalProblem: the table's signing key, when there is one, must be
// readable (serve refuses to sign with a broken one), and the unfinished
// game serve would resume must be for the table's seats.
func journalProblem(c *config.Config) error {
	if path := journal.KeyPathFor(c.Journal.Dir); fileExistsAt(path) {
		if _, err := journal.ReadPrivateKey(path); err != nil {
			return c.Problem("journal.dir", fmt.Sprintf("%v（對局結果要以本桌金鑰簽章：修好金鑰檔，或移走它讓 wolftable 重新產生，並請主辦重新登記公鑰）", err))
		}
	}
	if !c.Journal.Resume || c.Table.Seats == 0 {
		return nil
	}
	list, err := journal.Unfinished(c.Journal.Dir)
	if err != nil || len(list) == 0 || list[0].Err != nil {
		return nil // a missing folder is CheckPaths'; a damaged journal is moved aside, not refused
	}
	if n := len(list[0].Header.Deal); n != c.Table.Seats {
		return c.Problem("table.seats", fmt.Sprintf("未完成的對局 %s 是 %d 人局，這張桌子設定為 %d 個座位：請把 [table] seats 改回 %d 續局，或移走該日誌 / the unfinished game is for %d seats, the table has %d",
			list[0].Path, n, c.Table.Seats, n, n, c.Table.Seats))
	}
	return nil
}

func fileExistsAt(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// listenProblem says what stops serve's console from listening on addr:
// a port below the unprivileged ones (the daemon runs as wolftable,
// without CAP_NET_BIND_SERVICE), an address that is not this machine's,
// a port another program holds. A port a running wolftable console holds
// is a note (fatal false): the restart frees it.
func listenProblem(addr string, overTLS bool) (msg string, fatal bool) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Sprintf("%q 不是「主機:埠」/ %v", addr, err), true
	}
	if p, err := strconv.Atoi(port); err == nil && p > 0 && p < unprivilegedPortStart() {
		return fmt.Sprintf("埠 %d 小於 %d：wolftable 服務以 wolftable 使用者執行，不能使用這個埠（請用 1024 以上的埠，例如 8080；或以 systemctl edit wolftable 加上 AmbientCapabilities=CAP_NET_BIND_SERVICE）/ port %d is privileged", p, unprivilegedPortStart(), p), true
	}
	ln, err := net.Listen("tcp", addr)
	if err == nil {
		ln.Close()
		return "", false
	}
	if errors.Is(err, syscall.EADDRINUSE) {
		if isWolftableConsole(host, port, overTLS) {
			return fmt.Sprintf("%s 正由執行中的 wolftable 主控台使用（重新啟動時會釋出）", addr), false
		}
		return fmt.Sprintf("%s 已被其他程式占用：請換一個埠，或停掉那個程式（sudo ss -ltnp 'sport = :%s' 列出它）/ %v", addr, port, err), true
	}
	return fmt.Sprintf("無法在 %s 上監聽：%q 不是這台機器的位址或名稱（用 0.0.0.0 表示所有網路介面，或 ip addr 列出的位址）/ %v", addr, host, err), true
}

// unprivilegedPortStart is the kernel's first port an unprivileged user
// may bind (1024 unless net.ipv4.ip_unprivileged_port_start says less).
func unprivilegedPortStart() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_unprivileged_port_start")
	if err != nil {
		return 1024
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 1024
	}
	return n
}

// isWolftableConsole asks the program on host:port for the console's
// public state (or its redirect to HTTPS): true when it answers as a
// wolftable console does.
func isWolftableConsole(host, port string, overTLS bool) bool {
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	scheme := "http"
	if overTLS {
		scheme = "https"
	}
	cl := &http.Client{Timeout: 3 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport:     &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} // only asking who it is
	defer cl.CloseIdleConnections()
	req, err := http.NewRequest("GET", scheme+"://"+net.JoinHostPort(host, port)+"/api/public/state", nil)
	if err != nil {
		return false
	}
	req.Host = "localhost"
	resp, err := cl.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusPermanentRedirect {
		return strings.HasPrefix(resp.Header.Get("Location"), "https://localhost") &&
			strings.HasSuffix(resp.Header.Get("Location"), "/api/public/state")
	}
	var st struct {
		Version *uint64 `json:"version"`
		Phase   *string `json:"phase"`
	}
	return resp.StatusCode == http.StatusOK && json.NewDecoder(resp.Body).Decode(&st) == nil && st.Version != nil && st.Phase != nil
}
