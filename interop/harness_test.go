package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// evalrunBin is the evalrun binary built once for the whole test binary.
var evalrunBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "interop-evalrun")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(runWithEvalrun(m, dir))
}

// runWithEvalrun builds evalrun into dir, runs the tests and removes dir
// whatever happened (os.Exit skips deferred calls, so TestMain cannot).
func runWithEvalrun(m *testing.M, dir string) int {
	defer os.RemoveAll(dir)
	evalrunBin = filepath.Join(dir, "evalrun")
	if out, err := exec.Command("go", "build", "-o", evalrunBin, "github.com/agentevals-go/agentevals/cmd/evalrun").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build evalrun: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// env is one isolated PostgreSQL schema seen from Go and from Ruby.
type env struct {
	goURL   string // with search_path
	rubyURL string // TCP, no query: Rails 6.1 ignores ?host= and friends
	schema  string
	db      *models.DB
}

func newEnv(t *testing.T) *env {
	t.Helper()
	goURL := testdb.PostgresURL(t)
	u, err := url.Parse(goURL)
	if err != nil {
		t.Fatal(err)
	}
	schemaName := u.Query().Get("search_path")
	if schemaName == "" || u.Hostname() == "" {
		t.Fatalf("interop needs a TCP PostgreSQL URL with a search_path, got %s", models.Redact(goURL))
	}
	ru := *u
	ru.RawQuery = ""
	db, err := models.Open(context.Background(), goURL, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &env{goURL: goURL, rubyURL: ru.String(), schema: schemaName, db: db}
}

// ruby runs interop.rb with a command and returns its stdout.
func (e *env) ruby(t *testing.T, args ...string) []byte {
	t.Helper()
	if _, err := exec.LookPath("ruby"); err != nil {
		t.Fatalf("ruby is not installed: the Rails interop test needs `apt-get install -y ruby ruby-activerecord ruby-pg`")
	}
	cmd := exec.Command("ruby", append([]string{filepath.Join("ruby", "interop.rb")}, args...)...)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+e.rubyURL, "EVAL_SCHEMA="+e.schema)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("ruby interop.rb %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.Bytes()
}

// evalrun runs the evalrun binary against this schema and returns its exit code and output.
func (e *env) evalrun(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(evalrunBin, append([]string{"--database-url", e.goURL}, args...)...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatalf("evalrun %v: %v", args, err)
	}
	return 0, string(out)
}

func (e *env) mustEvalrun(t *testing.T, args ...string) string {
	t.Helper()
	code, out := e.evalrun(t, args...)
	if code != 0 {
		t.Fatalf("evalrun %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// dump is what interop.rb prints: runs newest first, in a neutral JSON shape.
type dump struct {
	Runs             []map[string]any `json:"runs"`
	ReadonlyEnforced *bool            `json:"readonly_enforced"`
	RecordsChecked   int              `json:"records_checked"`
}

func parseDump(t *testing.T, b []byte) dump {
	t.Helper()
	var d dump
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("parse ruby output: %v\n%s", err, b)
	}
	return d
}

// fixture is testdata/runs.json, read by both languages.
type fixture struct {
	Runs []struct {
		ID, Suite, Agent, Version, SuiteDigest, Status string
		StartedAt, FinishedAt                          string
		Metadata, Summary                              json.RawMessage
		Cases                                          []struct {
			Position                                                  int
			CaseID, Name, Status                                      string
			DurationMS                                                float64
			Question, ExpectedAnswer, ExpectedActions, MinimumScores  json.RawMessage
			Metadata, Output, Actions, ResponseMetadata, ErrorDetails json.RawMessage
			InputTokens, OutputTokens                                 *int64
			Cost                                                      *string
			Metrics                                                   []struct {
				Position     int
				Name         string
				Threshold    float64
				Score        *float64
				Passed       bool
				Reason       *string
				ErrorDetails json.RawMessage
			}
		}
	}
	raw []map[string]any
}

const fixturePath = "testdata/runs.json"

func loadFixture(t *testing.T) *fixture {
	t.Helper()
	b, err := os.ReadFile(fixturePath)
	if err != nil {
		t.Fatal(err)
	}
	var f fixture
	dec := json.NewDecoder(bytes.NewReader(snakeToCamelKeys(b)))
	if err := dec.Decode(&f); err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Runs []map[string]any `json:"runs"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	f.raw = raw.Runs
	return &f
}

// snakeToCamelKeys lets the fixture's snake_case keys fill Go fields:
// encoding/json matches names case-insensitively, but not across "_".
func snakeToCamelKeys(b []byte) []byte {
	for _, k := range []string{"suite_digest", "started_at", "finished_at", "case_id", "duration_ms", "expected_answer",
		"expected_actions", "minimum_scores", "response_metadata", "error_details", "input_tokens", "output_tokens"} {
		b = bytes.ReplaceAll(b, []byte(`"`+k+`":`), []byte(`"`+strings.ReplaceAll(k, "_", "")+`":`))
	}
	return b
}

// jsonColumn turns a fixture value into a column value: JSON null becomes
// SQL NULL, except where jsonNull asks for a JSON null (Rails reads both as nil).
func jsonColumn(raw json.RawMessage, jsonNull bool) models.JSON {
	if len(raw) == 0 || string(raw) == "null" {
		if jsonNull {
			return models.JSON("null")
		}
		return nil
	}
	return models.JSON(raw)
}

// goRun builds the i-th fixture run as Go records.
func (f *fixture) goRun(t *testing.T, i int) *models.Run {
	t.Helper()
	fr := f.Runs[i]
	parse := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	r := &models.Run{
		ID: uuid.MustParse(fr.ID), Suite: fr.Suite, Agent: fr.Agent, Version: fr.Version, SuiteDigest: fr.SuiteDigest,
		Status: fr.Status, StartedAt: parse(fr.StartedAt), FinishedAt: parse(fr.FinishedAt),
		Metadata: jsonColumn(fr.Metadata, false), Summary: jsonColumn(fr.Summary, false),
	}
	for _, fc := range fr.Cases {
		c := &models.CaseResult{
			Position: fc.Position, CaseID: fc.CaseID, Name: fc.Name, Status: fc.Status, DurationMS: fc.DurationMS,
			Question: jsonColumn(fc.Question, false), ExpectedAnswer: jsonColumn(fc.ExpectedAnswer, false),
			ExpectedActions: jsonColumn(fc.ExpectedActions, false), MinimumScores: jsonColumn(fc.MinimumScores, false),
			Metadata: jsonColumn(fc.Metadata, false), Output: jsonColumn(fc.Output, false),
			Actions:          jsonColumn(fc.Actions, false),
			ResponseMetadata: jsonColumn(fc.ResponseMetadata, true),
			ErrorDetails:     jsonColumn(fc.ErrorDetails, false),
			InputTokens:      fc.InputTokens, OutputTokens: fc.OutputTokens,
		}
		if fc.Cost != nil {
			v, err := models.ParseDecimal(*fc.Cost)
			if err != nil {
				t.Fatal(err)
			}
			c.Cost = &v
		}
		for _, fm := range fc.Metrics {
			c.Metrics = append(c.Metrics, &models.MetricResult{
				Position: fm.Position, Name: fm.Name, Threshold: fm.Threshold, Score: fm.Score, Passed: fm.Passed,
				Reason: fm.Reason, ErrorDetails: jsonColumn(fm.ErrorDetails, false),
			})
		}
		r.Cases = append(r.Cases, c)
	}
	return r
}

// rubySchema has Ruby create the tables: kind "gem" (or "gem-0.1") runs the
// gem-style schema, "db:rails-migration" runs the migration evalrun prints.
func (e *env) rubySchema(t *testing.T, kind string) {
	t.Helper()
	if kind == "db:rails-migration" {
		out := e.mustEvalrun(t, "db:rails-migration")
		path := filepath.Join(t.TempDir(), "create_ruby_llm_evaluations.rb")
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		e.ruby(t, "schema", path)
		return
	}
	e.ruby(t, "schema", kind)
}
