package dashboard

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a log destination written by the server's goroutines and
// read by the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// lockedServer serves a PostgreSQL history whose runs table another
// session holds locked, so every page waits in its first query until
// release is called (or its context ends).
func lockedServer(t *testing.T, budget time.Duration) (ts *httptest.Server, logs *syncBuffer, release func()) {
	t.Helper()
	rw, ro := MustOpenDBs(t, "postgres")
	seedFixture(t, rw)
	logs = &syncBuffer{}
	s, err := New(Config{DB: ro, RequestBudget: budget, Logger: slog.New(slog.NewJSONHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ts = httptest.NewServer(s)
	t.Cleanup(ts.Close)
	tx, err := rw.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(context.Background(), "LOCK TABLE ruby_llm_evaluations_runs IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() { once.Do(func() { tx.Rollback() }) }
	t.Cleanup(release)
	return ts, logs, release
}

// waitLog waits until the log holds a line containing want.
func waitLog(t *testing.T, logs *syncBuffer, want string) []map[string]any {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(logs.String(), want) {
			break
		}
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// TestBudget_ClientLeavingIsNotA503: a client that gives up while its page
// waits on the database stops the query, and the access log says the
// client left (499), not that the dashboard was unavailable.
func TestBudget_ClientLeavingIsNotA503(t *testing.T) {
	ts, logs, _ := lockedServer(t, DefaultRequestBudget)
	client := &http.Client{Timeout: 300 * time.Millisecond}
	if res, err := client.Get(ts.URL + "/"); err == nil {
		res.Body.Close()
		t.Fatalf("the page answered %d while its table was locked", res.StatusCode)
	}
	ls := waitLog(t, logs, `"path":"/"`)
	if len(ls) != 1 || ls[0]["status"] != float64(statusClientLeft) || ls[0]["level"] != "INFO" {
		t.Errorf("log lines = %v, want one info line with status %d", ls, statusClientLeft)
	}
}

// TestBudget_503ArrivesAtTheBudget: a page whose query outlasts the
// request budget answers 503 when the budget ends, not when the query
// would have finished.
func TestBudget_503ArrivesAtTheBudget(t *testing.T) {
	ts, logs, release := lockedServer(t, 500*time.Millisecond)
	timer := time.AfterFunc(15*time.Second, release) // the lock would otherwise hold the page forever
	defer timer.Stop()
	start := time.Now()
	res, err := http.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	took := time.Since(start)
	if res.StatusCode != http.StatusServiceUnavailable || took > 10*time.Second {
		t.Errorf("status %d after %s, want 503 at the 500 ms budget (the lock was held 15 s)", res.StatusCode, took.Round(time.Millisecond))
	}
	ls := waitLog(t, logs, `"status":503`)
	if len(ls) != 1 || ls[0]["msg"] != "request failed" {
		t.Errorf("log lines = %v, want one failure line", ls)
	}
}
