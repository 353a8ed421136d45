package dashboard

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
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

// TestBudget_HugeConversationAndAnswers: a 40-turn conversation of
// 256 KiB per turn and a pair of runs whose 12 answers are 256 KiB each
// give pages of bounded size on both databases: the case page shows the
// conversation's first turns, each value its first 8 KiB, and says so;
// the compare page diffs the first 4 KiB of each answer.
func TestBudget_HugeConversationAndAnswers(t *testing.T) {
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			rw, ro := MustOpenDBs(t, backend)
			ctx := context.Background()
			msg := strings.Repeat("m", 256<<10)
			tr := models.Transcript{Kind: "scripted", StopReason: models.StopScriptEnd}
			for i := 1; i <= 40; i++ {
				tr.Turns = append(tr.Turns, models.TranscriptTurn{Turn: i, User: "turn " + strconv.Itoa(i) + " " + msg,
					Output: models.MustJSON(msg), Actions: models.JSON(`[]`), DurationMS: 1})
			}
			talk := &models.Run{Suite: "Talk", Agent: "A", Version: "1", SuiteDigest: "t", StartedAt: t0, FinishedAt: t0.Add(time.Second),
				Metadata: models.JSON(`{}`), Summary: models.JSON(`{}`), Cases: []*models.CaseResult{{Position: 0, CaseID: "talk",
					Name: "Talk", Status: models.StatusPassed, Question: models.MustJSON("hi"), Output: models.MustJSON(msg),
					ResponseMetadata: models.MustJSON(map[string]any{"transcript": tr})}}}
			if err := rw.InsertRun(ctx, talk); err != nil {
				t.Fatal(err)
			}
			var pair [2]*models.Run
			for side := range pair {
				r := &models.Run{Suite: "Pair", Agent: "A", Version: "1", SuiteDigest: "p", StartedAt: t0.Add(time.Duration(side+1) * time.Minute),
					FinishedAt: t0.Add(time.Hour), Metadata: models.JSON(`{}`), Summary: models.JSON(`{}`)}
				for p := range 12 {
					r.Cases = append(r.Cases, &models.CaseResult{Position: p, CaseID: "q" + strconv.Itoa(p), Name: "Q",
						Status: models.StatusPassed, Question: models.MustJSON("q"),
						Output: models.MustJSON(strings.Repeat(string(rune('a'+side))+" ", 128<<10))})
				}
				if err := rw.InsertRun(ctx, r); err != nil {
					t.Fatal(err)
				}
				pair[side] = r
			}
			var logs syncBuffer
			srv, err := New(Config{DB: ro, MountPath: mount, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			defer func() {
				if t.Failed() {
					t.Logf("log:\n%s", logs.String())
				}
			}()
			for _, p := range []string{"/", "/runs/" + talk.ID.String(), "/runs/" + talk.ID.String() + "/cases/0",
				"/runs/" + pair[1].ID.String(), "/runs/" + pair[1].ID.String() + "/cases/0",
				"/compare?a=" + pair[0].ID.String() + "&b=" + pair[1].ID.String()} {
				r := fetch(t, http.MethodGet, ts.URL+mount+p)
				if r.Status != http.StatusOK {
					t.Errorf("%s: %d", p, r.Status)
				}
				if len(r.Body) > 1<<20 {
					t.Errorf("%s is %d bytes, want at most 1 MiB", p, len(r.Body))
				}
			}
			r := fetch(t, http.MethodGet, ts.URL+mount+"/runs/"+talk.ID.String()+"/cases/0")
			if !strings.Contains(r.Body, "its first 20 of 40 turns are shown") || !strings.Contains(r.Body, "turn 20 mmm") ||
				strings.Contains(r.Body, "turn 21 mmm") {
				t.Errorf("the case page does not show the conversation's first 20 turns and say so")
			}
		})
	}
}
