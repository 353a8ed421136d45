package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// reorderKeys re-encodes a JSON value with every object's keys in reverse
// order and integral numbers written as Ruby floats ("1.0"), the way a
// different serializer may store the same value.
func reorderKeys(t *testing.T, j models.JSON) any {
	t.Helper()
	if j.IsNull() {
		return nil // Ruby nil: SQL NULL
	}
	var v any
	if err := j.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var enc func(v any) string
	enc = func(v any) string {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			slices.Reverse(keys)
			parts := make([]string, len(keys))
			for i, k := range keys {
				kb, _ := json.Marshal(k)
				parts[i] = string(kb) + ": " + enc(x[k])
			}
			return "{" + strings.Join(parts, ", ") + "}"
		case []any:
			parts := make([]string, len(x))
			for i, e := range x {
				parts[i] = enc(e)
			}
			return "[" + strings.Join(parts, ", ") + "]"
		case float64:
			if x == float64(int64(x)) {
				return strconv.FormatInt(int64(x), 10) + ".0"
			}
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	return enc(v)
}

// TestRunCmd_RubyWrittenBaseline writes a run of the support example the way
// ActiveRecord does (its own digest, nil as SQL NULL, reordered jsonb keys,
// a summary of its own) into PostgreSQL, then runs the regressed Go agent:
// the Ruby run is its baseline and the regression gate fails.
func TestRunCmd_RubyWrittenBaseline(t *testing.T) {
	s := filepath.Join("..", "..", "examples", "support", "suite.json")
	url, rubyID := rubySupportRun(t, s)

	t.Setenv("AGENT_REVISION", "regressed")
	code, out, stderr := evalrun(t, "--database-url", url, "run", s, "--fail-on-regression")
	if code != exitFailed || !strings.Contains(out, "Baseline: "+rubyID.String()) || !strings.Contains(out, "new_failure") {
		t.Fatalf("regressed Go run over a Ruby baseline: exit %d, want %d with baseline %s\n%s%s", code, exitFailed, rubyID, out, stderr)
	}
	// The Ruby run itself reports in every format (its summary is not ours).
	for _, f := range []string{"text", "markdown", "html", "json", "junit", "github"} {
		if code, out, stderr := evalrun(t, "--database-url", url, "report", rubyID.String(), "--format", f); code != exitOK {
			t.Errorf("report of the Ruby run as %s: exit %d\n%s%s", f, code, out, stderr)
		}
	}
}

// insertRubyCopy writes goRun's definition into db the way ActiveRecord
// does (its own digest, a v4 id, nil as SQL NULL, reordered jsonb keys with
// Ruby floats, a summary of its own, every metric passed at 1.0) and
// returns the new run's id.
func insertRubyCopy(t *testing.T, db *models.DB, goRun *models.Run, started time.Time) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	rubyID := uuid.New() // Ruby's SecureRandom.uuid: v4
	if _, err := db.ExecContext(ctx, `INSERT INTO ruby_llm_evaluations_runs
		(id, suite, agent, version, suite_digest, status, started_at, finished_at, metadata, summary, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, 'completed', ?, ?, '{"revision": "ruby"}', '{"score": 1.0, "passed": 3, "ruby_only": {"x": [1]}}', ?, ?)`,
		rubyID.String(), goRun.Suite, goRun.Agent, goRun.Version, "3f2a9c0d1e7b4a5c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c",
		started, started.Add(2*time.Second), started, started); err != nil {
		t.Fatal(err)
	}
	for _, c := range goRun.Cases {
		var caseID int64
		err := db.QueryRowContext(ctx, `INSERT INTO ruby_llm_evaluations_case_results
			(run_id, position, case_id, name, status, duration_ms, question, expected_answer, expected_actions,
			 minimum_scores, metadata, output, actions, response_metadata, error_details, input_tokens, output_tokens, cost,
			 created_at, updated_at)
			VALUES (?, ?, ?, ?, 'passed', 3.5, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, NULL, NULL, ?, ?) RETURNING id`,
			rubyID.String(), c.Position, c.CaseID, c.Name, reorderKeys(t, c.Question), reorderKeys(t, c.ExpectedAnswer),
			reorderKeys(t, c.ExpectedActions), reorderKeys(t, c.MinimumScores), reorderKeys(t, c.Metadata),
			reorderKeys(t, c.Output), reorderKeys(t, c.Actions), started, started).Scan(&caseID)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range c.Metrics {
			if _, err := db.ExecContext(ctx, `INSERT INTO ruby_llm_evaluations_metric_results
				(case_result_id, position, name, threshold, score, passed, reason, error_details, created_at, updated_at)
				VALUES (?, ?, ?, ?, 1.0, true, NULL, NULL, ?, ?)`, caseID, m.Position, m.Name, m.Threshold, started, started); err != nil {
				t.Fatal(err)
			}
		}
	}
	return rubyID
}

// rubySupportRun runs the support suite (reference agent) into a scratch
// SQLite file to get its persisted definition, then writes a copy of it as
// ActiveRecord would (insertRubyCopy) into a migrated PostgreSQL schema
// started an hour ago. It returns that database's URL and the Ruby run's id.
func rubySupportRun(t *testing.T, s string) (string, uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	scratch := "sqlite:" + filepath.Join(t.TempDir(), "scratch.sqlite3")
	t.Setenv("AGENT_REVISION", "reference")
	if code, out, stderr := evalrun(t, "--database-url", scratch, "run", s); code != exitOK {
		t.Fatalf("scratch run: exit %d\n%s%s", code, out, stderr)
	}
	sdb, err := models.Open(ctx, scratch, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	goRun, err := sdb.GetRun(ctx, uuid.MustParse(latestRunID(t, scratch)))
	if err != nil {
		t.Fatal(err)
	}
	url := testdb.PostgresURL(t)
	if code, out, stderr := evalrun(t, "--database-url", url, "db:migrate"); code != exitOK {
		t.Fatalf("db:migrate: exit %d\n%s%s", code, out, stderr)
	}
	db, err := models.Open(ctx, url, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return url, insertRubyCopy(t, db, goRun, models.UTC(time.Now().Add(-time.Hour)))
}
