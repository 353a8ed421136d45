package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// TestHistoryCmd_ShowsMetadata tells the reference and regressed runs of
// one definition apart by their --metadata revision.
func TestHistoryCmd_ShowsMetadata(t *testing.T) {
	url := testdb.SQLiteURL(t)
	for _, rev := range []string{"reference", "regressed"} {
		t.Setenv("AGENT_REVISION", rev)
		evalrun(t, "--database-url", url, "run", supportSuite, "--metadata", `{"revision":"`+rev+`","ci":{"job":7}}`)
	}
	code, out, stderr := evalrun(t, "--database-url", url, "history")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasSuffix(lines[0], "METADATA") {
		t.Fatalf("history:\n%s", out)
	}
	for i, want := range []string{`2/3     0.667`, `3/3     1.000`} {
		rev := []string{"revision=regressed", "revision=reference"}[i]
		if !strings.Contains(lines[i+1], want) || !strings.HasSuffix(lines[i+1], rev+`, ci={"job":7}`) {
			t.Errorf("line %d = %q, want %q and metadata %q", i+1, lines[i+1], want, rev)
		}
	}
}

func TestMetadataCell(t *testing.T) {
	tests := []struct {
		name, meta, want string
	}{
		{"empty", `{}`, "-"},
		{"revision first", `{"a": 1, "revision": "abc123", "branch": "main"}`, "revision=abc123, a=1, branch=main"},
		{"control characters", `{"revision": "abc\u001b[2J\n123\u0007"}`, "revision=abc 123"},
		{"clipped", `{"revision": "` + strings.Repeat("x", 60) + `"}`, "revision=" + strings.Repeat("x", 38) + "…"},
		{"not an object", `[1]`, "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := metadataCell(models.JSON(tt.meta)); got != tt.want {
				t.Errorf("metadataCell(%s) = %q, want %q", tt.meta, got, tt.want)
			}
		})
	}
}

// TestRunOutput_Plurals says "1 question", never "1 questions".
func TestRunOutput_Plurals(t *testing.T) {
	dir := t.TempDir()
	s := filepath.Join(dir, "one.json")
	os.WriteFile(s, []byte(`{"suite": "One", "agent": {"name": "A", "command": ["true"]},
	  "questions": [{"question": "q", "expected_answer": "a", "minimum_scores": {"exact_match": 1}}]}`), 0o644)
	code, out, stderr := evalrun(t, "validate", s)
	if code != exitOK || !strings.Contains(out, "(command), 1 question, metrics: exact_match") {
		t.Errorf("validate: exit %d\n%s%s", code, out, stderr)
	}
	for _, tt := range []struct {
		n    int
		want string
	}{{1, "1 question"}, {0, "0 questions"}, {3, "3 questions"}} {
		if got := questions(tt.n); got != tt.want {
			t.Errorf("questions(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestHistoryCmd_TotalsFromRows shows a run written by another
// implementation with the totals of its rows, not its summary: the summary
// claims 3 of 3 passed at 0.99, the rows hold one passed and one failed
// question (quality (0.95+0.024)/2 = 0.487).
func TestHistoryCmd_TotalsFromRows(t *testing.T) {
	ctx := context.Background()
	url := testdb.SQLiteURL(t)
	if code, _, stderr := evalrun(t, "--database-url", url, "db:migrate"); code != exitOK {
		t.Fatalf("db:migrate: exit %d\n%s", code, stderr)
	}
	db, err := models.Open(ctx, url, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	at := models.UTC(time.Now().Add(-time.Hour))
	run := &models.Run{Suite: "Ruby suite", Agent: "RubyAgent", Version: "1", SuiteDigest: "ruby-digest",
		Status: models.RunStatusCompleted, StartedAt: at, FinishedAt: at.Add(time.Second),
		Metadata: models.JSON(`{}`), Summary: models.JSON(`{"quality":0.99,"passed":3,"cases":3}`)}
	for i, s := range []float64{0.95, 0.024} {
		score := s
		status := models.StatusPassed
		if s < 0.9 {
			status = models.StatusFailed
		}
		run.Cases = append(run.Cases, &models.CaseResult{Position: i, CaseID: fmt.Sprint("q", i), Name: "q", Status: status,
			Metadata: models.JSON(`{}`), Metrics: []*models.MetricResult{{Name: "semantic_accuracy", Threshold: 0.9,
				Score: &score, Passed: s >= 0.9}}})
	}
	if err := db.InsertRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := evalrun(t, "--database-url", url, "history")
	if code != exitOK {
		t.Fatalf("history: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(out, "1/2     0.487") || strings.Contains(out, "0.990") {
		t.Errorf("history shows the summary, not the rows (want 1/2 at 0.487):\n%s", out)
	}
}
