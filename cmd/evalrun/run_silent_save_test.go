package main

import (
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// freezingProxy forwards TCP connections to a server until it is frozen;
// from then on it keeps every connection open and forwards nothing, and
// accepts new connections without ever answering: a database that went
// silent in the middle of a run.
type freezingProxy struct {
	l      net.Listener
	target string
	frozen atomic.Bool
	mu     sync.Mutex
	conns  []net.Conn
}

func startFreezingProxy(t *testing.T, target string) *freezingProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &freezingProxy{l: l, target: target}
	t.Cleanup(p.close)
	go p.serve()
	return p
}

func (p *freezingProxy) serve() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.keep(c)
		if p.frozen.Load() {
			continue // accepted, never answered
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.keep(up)
		go p.pipe(up, c)
		go p.pipe(c, up)
	}
}

// pipe copies until the proxy freezes, then drops what it reads.
func (p *freezingProxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32*1024)
	for {
		n, err := src.Read(buf)
		if n > 0 && !p.frozen.Load() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *freezingProxy) keep(c net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conns = append(p.conns, c)
}

func (p *freezingProxy) close() {
	p.l.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
}

// TestRun_DatabaseSilentWhileSaving: PostgreSQL stops answering (without
// closing anything) while cases run; the save gives up after the connect
// and statement timeouts instead of hanging, and the run's evidence file
// is written (exit 3).
func TestRun_DatabaseSilentWhileSaving(t *testing.T) {
	direct := testdb.PostgresURL(t)
	u, err := url.Parse(direct)
	if err != nil {
		t.Fatal(err)
	}
	proxy := startFreezingProxy(t, u.Host)
	u.Host = proxy.l.Addr().String()
	dir := t.TempDir()
	s, marker := writeSlowSuite(t, dir, 2)
	if code, out, errOut := evalrun(t, "--database-url", direct, "db:migrate"); code != exitOK {
		t.Fatalf("db:migrate: exit %d\n%s%s", code, out, errOut)
	}
	start := time.Now()
	done := evalrunAsync(t, "--database-url", u.String(), "--connect-timeout", "1s", "--statement-timeout", "1s",
		"--save-wait", "0", "run", s, "--evidence-dir", filepath.Join(dir, "evidence"))
	waitForAgent(t, marker)
	proxy.frozen.Store(true)
	var res runResult
	select {
	case res = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("evalrun hung on a silent database")
	}
	// The flaky-question look-up before the save gives up first (bounded the
	// same way) and drops the silent connection; the save then gives up on
	// its own timeouts, on that connection or on a new one's connect.
	gaveUp := strings.Contains(res.errOut, "did not answer within 2s") || strings.Contains(res.errOut, "timeout: context deadline exceeded")
	if res.code != exitNotSaved || !strings.Contains(res.errOut, "NOT saved") || !gaveUp {
		t.Fatalf("exit %d, want %d\n%s%s", res.code, exitNotSaved, res.out, res.errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "evidence", "*.json"))
	if len(files) != 1 {
		t.Errorf("evidence files %v, want one", files)
	}
	t.Logf("run with a silent database ended after %s (timeouts: connect 1s, statement 1s); stderr:\n%s",
		time.Since(start).Round(time.Millisecond), res.errOut)
}
