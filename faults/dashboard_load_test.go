package faults

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// seedLongAnswers stores one run of n questions whose answers are 1 MiB of
// text each (PostgreSQL), as the abuse campaign did.
func seedLongAnswers(t *testing.T, dbURL string, n int) {
	t.Helper()
	execAll(t, dbURL,
		`INSERT INTO ruby_llm_evaluations_runs (id, suite, agent, version, suite_digest, status, started_at, finished_at,
			metadata, summary, created_at, updated_at)
		 VALUES (gen_random_uuid(), 'Long', 'A', '1', 'd', 'completed', now(), now(), '{}', '{}', now(), now())`,
		`INSERT INTO ruby_llm_evaluations_case_results (run_id, position, case_id, name, status, duration_ms, question,
			expected_answer, metadata, output, actions, created_at, updated_at)
		 SELECT r.id, p, 'case-' || p, 'Case ' || p, 'passed', 1, to_jsonb('Question ' || p), to_jsonb('x'::text), '{}',
			to_jsonb(repeat('a', 1048576)), '[]', now(), now()
		 FROM ruby_llm_evaluations_runs AS r CROSS JOIN generate_series(0, `+strconv.Itoa(n-1)+`) AS p`)
}

// execAll runs the seeding statements on the database at dbURL.
func execAll(t *testing.T, dbURL string, stmts ...string) {
	t.Helper()
	ctx := context.Background()
	db, err := models.Open(ctx, dbURL, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range stmts {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("seed: %v", err)
		}
	}
}

// startEvaldash builds and starts the evaldash binary on a free port and
// returns its base URL and process. EVALDASH_BIN names a binary built
// elsewhere instead (an older build, to measure it the same way).
func startEvaldash(t *testing.T, dbURL string) (string, *os.Process) {
	t.Helper()
	return startEvaldashBin(t, os.Getenv("EVALDASH_BIN"), dbURL)
}

// startEvaldashBin is startEvaldash with the binary bin ("": built from
// this tree).
func startEvaldashBin(t *testing.T, bin, dbURL string) (string, *os.Process) {
	t.Helper()
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "evaldash")
		if out, err := exec.Command("go", "build", "-o", bin, "github.com/agentevals-go/agentevals/cmd/evaldash").CombinedOutput(); err != nil {
			t.Fatalf("go build ./cmd/evaldash: %v\n%s", err, out)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "--database-url", dbURL, "--listen", addr)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	base := "http://" + addr
	for i := 0; ; i++ {
		if res, err := http.Get(base + "/healthz"); err == nil {
			res.Body.Close()
			break
		}
		if i > 100 {
			t.Fatal("evaldash did not start listening")
		}
		time.Sleep(100 * time.Millisecond)
	}
	return base, cmd.Process
}

// rssKB is the resident set of pid now (VmRSS) from /proc.
func rssKB(pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// searchQueries are the campaign's hostile queries: a plain word, the
// longest query of 199 'a' and a 'b' against answers of 'a's (the worst
// case for a naive substring search), and an absent text.
var searchQueries = []string{"needle", strings.Repeat("a", 199) + "b", strings.Repeat("ab", 100), "zz"}

// TestDashboard_SearchUnderLoad stores 110 answers of 1 MiB, times each
// hostile /search on an idle evaldash, then sends them from 16 clients for
// EVALDASH_LOAD_SECONDS (default 5; the figures in the notes are from 30)
// while sampling evaldash's resident memory. It asserts that every
// request was answered 200 and that the peak stays under 300 MB; the
// times are logged (go test -v), never asserted.
func TestDashboard_SearchUnderLoad(t *testing.T) {
	dbURL := postgres(t)
	seedLongAnswers(t, dbURL, 110)
	base, proc := startEvaldash(t, dbURL)
	client := &http.Client{Timeout: 30 * time.Second}
	get := func(q string) (int, time.Duration, error) {
		start := time.Now()
		res, err := client.Get(base + "/search?q=" + url.QueryEscape(q))
		if err != nil {
			return 0, time.Since(start), err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode, time.Since(start), nil
	}
	for _, q := range searchQueries {
		code, d, err := get(q)
		if err != nil || code != http.StatusOK {
			t.Fatalf("idle /search?q=%.12s…: %d %v", q, code, err)
		}
		t.Logf("idle /search q=%.12s… (%d chars): %s", q, len(q), d.Round(time.Millisecond))
	}
	seconds := 5
	if v := os.Getenv("EVALDASH_LOAD_SECONDS"); v != "" {
		seconds, _ = strconv.Atoi(v)
	}
	var peak atomic.Int64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Add(1)
	go func() {
		defer sampler.Done()
		for {
			if kb := rssKB(proc.Pid); kb > peak.Load() {
				peak.Store(kb)
			}
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	deadline := time.Now().Add(time.Duration(seconds) * time.Second)
	var done, failed atomic.Int64
	var slowest atomic.Int64
	var wg sync.WaitGroup
	for c := 0; c < 16; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := c; time.Now().Before(deadline); i++ {
				code, d, err := get(searchQueries[i%len(searchQueries)])
				done.Add(1)
				if err != nil || code != http.StatusOK {
					failed.Add(1)
					t.Errorf("client %d: %d %v", c, code, err)
				}
				if int64(d) > slowest.Load() {
					slowest.Store(int64(d))
				}
			}
		}(c)
	}
	wg.Wait()
	close(stop)
	sampler.Wait()
	t.Logf("16 clients for %ds: %d requests, %d failed, slowest %s, evaldash peak RSS %d MB",
		seconds, done.Load(), failed.Load(), time.Duration(slowest.Load()).Round(time.Millisecond), peak.Load()/1024)
	if peak.Load() > 300*1024 {
		t.Errorf("evaldash peak RSS %d MB, want under 300 MB", peak.Load()/1024)
	}
}
