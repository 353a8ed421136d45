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
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agentevals/internal/testdb"
	"agentevals/models"
)

// evalrunBin is the evalrun binary built once for the whole test binary.
var evalrunBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "interop-evalrun")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	evalrunBin = filepath.Join(dir, "evalrun")
	if out, err := exec.Command("go", "build", "-o", evalrunBin, "agentevals/cmd/evalrun").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build evalrun: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
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
			v, err := strconv.ParseFloat(*fc.Cost, 64)
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

// view renders Go records in the neutral shape interop.rb prints, so the
// two sides compare as JSON values.
func view(t *testing.T, r *models.Run) map[string]any {
	t.Helper()
	ts := func(tm time.Time) string {
		if tm.Location() != time.UTC {
			t.Errorf("time %v read back outside UTC", tm)
		}
		return tm.UTC().Format("2006-01-02T15:04:05.000000Z")
	}
	js := func(j models.JSON) any {
		var v any
		if err := j.Decode(&v); err != nil {
			t.Errorf("decode %s: %v", j, err)
		}
		return v
	}
	out := map[string]any{
		"id": r.ID.String(), "sequence": r.Sequence, "suite": r.Suite, "agent": r.Agent, "version": r.Version,
		"suite_digest": r.SuiteDigest, "status": r.Status, "started_at": ts(r.StartedAt), "finished_at": ts(r.FinishedAt),
		"metadata": js(r.Metadata), "summary": js(r.Summary), "created_at": ts(r.CreatedAt), "updated_at": ts(r.UpdatedAt),
	}
	var cases []any
	for _, c := range r.Cases {
		var cost any
		if c.Cost != nil {
			cost = *c.Cost
		}
		cm := map[string]any{
			"id": c.ID, "run_id": c.RunID.String(), "position": c.Position, "case_id": c.CaseID, "name": c.Name,
			"status": c.Status, "duration_ms": c.DurationMS, "question": js(c.Question), "expected_answer": js(c.ExpectedAnswer),
			"expected_actions": js(c.ExpectedActions), "minimum_scores": js(c.MinimumScores), "metadata": js(c.Metadata),
			"output": js(c.Output), "actions": js(c.Actions), "actions_is_nil": c.Actions.IsNull(),
			"response_metadata": js(c.ResponseMetadata), "error_details": js(c.ErrorDetails),
			"input_tokens": c.InputTokens, "output_tokens": c.OutputTokens, "cost": cost,
			"created_at": ts(c.CreatedAt), "updated_at": ts(c.UpdatedAt),
		}
		var metrics []any
		for _, m := range c.Metrics {
			metrics = append(metrics, map[string]any{
				"id": m.ID, "case_result_id": m.CaseResultID, "position": m.Position, "name": m.Name,
				"threshold": m.Threshold, "score": m.Score, "passed": m.Passed, "reason": m.Reason,
				"error_details": js(m.ErrorDetails), "created_at": ts(m.CreatedAt), "updated_at": ts(m.UpdatedAt),
			})
		}
		cm["metrics"] = metrics
		cases = append(cases, cm)
	}
	out["cases"] = cases
	return normalize(t, out).(map[string]any)
}

// normalize passes a value through JSON, so Go and Ruby views hold the same
// Go types (float64, string, map, slice, nil), with empty lists as [].
func normalize(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return nilToEmpty(out)
}

func nilToEmpty(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if (k == "cases" || k == "metrics") && val == nil {
				x[k] = []any{}
				continue
			}
			x[k] = nilToEmpty(val)
		}
	case []any:
		for i := range x {
			x[i] = nilToEmpty(x[i])
		}
	}
	return v
}

// rubyView strips what only Ruby reports (association and read-only
// checks, which the test asserts separately) and turns decimal text into
// numbers.
func rubyView(t *testing.T, r map[string]any) map[string]any {
	t.Helper()
	r = normalize(t, r).(map[string]any)
	for _, k := range []string{"readonly", "previous_id"} {
		delete(r, k)
	}
	for _, c := range r["cases"].([]any) {
		cm := c.(map[string]any)
		if cm["run_matches"] != true {
			t.Errorf("case %v: belongs_to :run does not find its run", cm["case_id"])
		}
		delete(cm, "run_matches")
		if s, ok := cm["cost"].(string); ok {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Errorf("cost %q: %v", s, err)
			}
			cm["cost"] = f
		}
		for _, m := range cm["metrics"].([]any) {
			mm := m.(map[string]any)
			if mm["case_result_matches"] != true {
				t.Errorf("metric %v: belongs_to :case_result does not find its case", mm["name"])
			}
			delete(mm, "case_result_matches")
		}
	}
	return r
}

// fixtureView is the fixture run in the neutral shape, without the values
// the database generates.
func fixtureView(t *testing.T, f *fixture, i int) map[string]any {
	t.Helper()
	r := normalize(t, f.raw[i]).(map[string]any)
	for _, c := range r["cases"].([]any) {
		cm := c.(map[string]any)
		cm["actions_is_nil"] = cm["actions"] == nil
		if s, ok := cm["cost"].(string); ok {
			v, _ := strconv.ParseFloat(s, 64)
			cm["cost"] = v
		}
	}
	return r
}

// withoutGenerated drops the database's ids and sequence and Rails
// timestamps (the run's uuid comes from the writer and stays).
func withoutGenerated(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	v = normalize(t, v).(map[string]any)
	for _, k := range []string{"sequence", "created_at", "updated_at"} {
		delete(v, k)
	}
	for _, c := range v["cases"].([]any) {
		cm := c.(map[string]any)
		for _, k := range []string{"id", "run_id", "created_at", "updated_at"} {
			delete(cm, k)
		}
		for _, m := range cm["metrics"].([]any) {
			mm := m.(map[string]any)
			for _, k := range []string{"id", "case_result_id", "created_at", "updated_at"} {
				delete(mm, k)
			}
		}
	}
	return v
}

// same reports every path where two JSON values differ.
func same(t *testing.T, what string, got, want any) {
	t.Helper()
	var diffs []string
	diffJSON("", got, want, &diffs)
	sort.Strings(diffs)
	if len(diffs) > 0 {
		if len(diffs) > 20 {
			diffs = append(diffs[:20], fmt.Sprintf("… %d more", len(diffs)-20))
		}
		t.Errorf("%s differ:\n  %s", what, strings.Join(diffs, "\n  "))
	}
}

func diffJSON(path string, got, want any, out *[]string) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: got %v, want an object", path, got))
			return
		}
		for k := range w {
			if _, ok := g[k]; !ok {
				*out = append(*out, fmt.Sprintf("%s.%s: missing", path, k))
				continue
			}
			diffJSON(path+"."+k, g[k], w[k], out)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				*out = append(*out, fmt.Sprintf("%s.%s: unexpected %v", path, k, g[k]))
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*out = append(*out, fmt.Sprintf("%s: got %v, want %v", path, got, want))
			return
		}
		for i := range w {
			diffJSON(fmt.Sprintf("%s[%d]", path, i), g[i], w[i], out)
		}
	default:
		if !reflect.DeepEqual(got, want) {
			*out = append(*out, fmt.Sprintf("%s: got %#v, want %#v", path, got, want))
		}
	}
}

// schemas are the two ways Ruby creates the tables: the gem's style,
// written independently of ours, and evalrun's own Rails migration.
var schemas = []string{"gem", "db:rails-migration"}

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

// a + c: Ruby creates the tables and writes runs through nested
// attributes; Go reads every value back; evalrun db:migrate over those
// tables loses nothing and db:check is satisfied.
func TestRubyWritesGoReads(t *testing.T) {
	f := loadFixture(t)
	for _, kind := range schemas {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			e := newEnv(t)
			e.rubySchema(t, kind)
			written := parseDump(t, e.ruby(t, "write", fixturePath))
			if len(written.Runs) != len(f.Runs) {
				t.Fatalf("ruby wrote %d runs, want %d", len(written.Runs), len(f.Runs))
			}
			if code, out := e.evalrun(t, "db:check"); code != 0 {
				t.Errorf("db:check over Ruby's tables: exit %d\n%s", code, out)
			}

			byID := map[string]map[string]any{}
			for _, r := range written.Runs {
				byID[r["id"].(string)] = rubyView(t, r)
			}
			for i, fr := range f.Runs {
				got, err := e.db.GetRun(ctx, uuid.MustParse(fr.ID))
				if err != nil {
					t.Fatal(err)
				}
				same(t, fmt.Sprintf("run %d as Go reads it vs as Ruby wrote it", i), view(t, got), byID[fr.ID])
				same(t, fmt.Sprintf("run %d as Go reads it vs the fixture", i), withoutGenerated(t, view(t, got)), fixtureView(t, f, i))
			}
			// Explicit checks of what matters most.
			got, err := e.db.GetRun(ctx, uuid.MustParse(f.Runs[0].ID))
			if err != nil {
				t.Fatal(err)
			}
			if !got.Cases[1].Actions.IsSQLNull() || got.Cases[0].Actions.IsNull() || string(got.Cases[0].Actions) != "[]" {
				t.Errorf("actions: nil and [] not kept apart: %q %q", got.Cases[1].Actions, got.Cases[0].Actions)
			}
			if want := time.Date(2026, 11, 30, 12, 4, 5, 123456000, time.UTC); !got.StartedAt.Equal(want) {
				t.Errorf("started_at = %v, want %v", got.StartedAt, want)
			}
			if got.Cases[0].Cost == nil || *got.Cases[0].Cost != 0.000123 {
				t.Errorf("cost = %v, want 0.000123", got.Cases[0].Cost)
			}
			runs, _, err := e.db.ListRuns(ctx, models.RunFilter{})
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range runs {
				if r.ID.String() != written.Runs[i]["id"] {
					t.Errorf("ListRuns[%d] = %s, Ruby's recent[%d] = %v", i, r.ID, i, written.Runs[i]["id"])
				}
			}

			// c: db:migrate over Ruby's tables loses nothing.
			before := e.ruby(t, "dump")
			e.mustEvalrun(t, "db:migrate")
			e.mustEvalrun(t, "db:migrate")
			after := e.ruby(t, "dump")
			var b, a any
			json.Unmarshal(before, &b)
			json.Unmarshal(after, &a)
			same(t, "Ruby's view before and after evalrun db:migrate", a, b)
			if code, out := e.evalrun(t, "db:check"); code != 0 {
				t.Errorf("db:check after db:migrate: exit %d\n%s", code, out)
			}
		})
	}
}

// b: Go migrates an empty database and writes runs; ActiveRecord models
// with the gem's table names, associations and readonly? read every value.
func TestGoWritesRubyReads(t *testing.T) {
	ctx := context.Background()
	f := loadFixture(t)
	e := newEnv(t)
	e.mustEvalrun(t, "db:migrate")
	var written []*models.Run
	for i := range f.Runs {
		r := f.goRun(t, i)
		if err := e.db.InsertRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		written = append(written, r)
	}
	d := parseDump(t, e.ruby(t, "dump"))
	if d.ReadonlyEnforced == nil || !*d.ReadonlyEnforced || d.RecordsChecked != 3 {
		t.Errorf("readonly? did not stop update!/destroy on a run, case and metric: %v (%d checked)", d.ReadonlyEnforced, d.RecordsChecked)
	}
	if len(d.Runs) != len(written) {
		t.Fatalf("Ruby reads %d runs, Go wrote %d", len(d.Runs), len(written))
	}
	// Newest first: the fixture's second run started later.
	for i, r := range []*models.Run{written[1], written[0]} {
		rv := d.Runs[i]
		if rv["readonly"] != true {
			t.Errorf("run %s is not readonly? in Ruby", r.ID)
		}
		got := rubyView(t, rv)
		same(t, fmt.Sprintf("run %s as Ruby reads it vs as Go wrote it", r.ID), got, view(t, r))
		fi := 1 - i
		same(t, fmt.Sprintf("run %s as Ruby reads it vs the fixture", r.ID), withoutGenerated(t, got), fixtureView(t, f, fi))
	}
}

// d: a 0.1-era table with criteria is upgraded by evalrun db:migrate with
// every row kept and its values under minimum_scores.
func TestUpgradeFrom01(t *testing.T) {
	ctx := context.Background()
	f := loadFixture(t)
	e := newEnv(t)
	e.ruby(t, "schema", "gem-0.1")
	before := parseDump(t, e.ruby(t, "write", fixturePath))
	if code, out := e.evalrun(t, "db:check"); code != 2 || !strings.Contains(out, "minimum_scores") {
		t.Errorf("db:check on a 0.1-era table: exit %d, want 2 naming minimum_scores\n%s", code, out)
	}
	e.mustEvalrun(t, "db:migrate")
	if code, out := e.evalrun(t, "db:check"); code != 0 {
		t.Errorf("db:check after the upgrade: exit %d\n%s", code, out)
	}
	after := parseDump(t, e.ruby(t, "dump"))
	same(t, "runs before (criteria) and after (minimum_scores) the upgrade",
		normalize(t, after.Runs), normalize(t, before.Runs))
	for i, fr := range f.Runs {
		got, err := e.db.GetRun(ctx, uuid.MustParse(fr.ID))
		if err != nil {
			t.Fatal(err)
		}
		same(t, fmt.Sprintf("upgraded run %d as Go reads it vs the fixture", i), withoutGenerated(t, view(t, got)), fixtureView(t, f, i))
	}
}

// e: runs written alternately by Ruby and Go, several at the same
// started_at, order by (started_at, sequence) on both sides, and each
// side's baseline lookup finds the same predecessor.
func TestAlternatingWritersOrder(t *testing.T) {
	ctx := context.Background()
	f := loadFixture(t)
	e := newEnv(t)
	e.ruby(t, "schema", "gem")
	base := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	offsets := []time.Duration{0, 0, time.Microsecond, 0, time.Microsecond, 2 * time.Microsecond, time.Microsecond}
	type written struct {
		id  string
		at  time.Time
		seq int64
		by  string
	}
	var all []written
	for i, off := range offsets {
		at := base.Add(off)
		if i%2 == 0 {
			d := parseDump(t, e.ruby(t, "write", fixturePath, "0", at.Format("2006-01-02T15:04:05.000000Z")))
			all = append(all, written{d.Runs[0]["id"].(string), at, int64(d.Runs[0]["sequence"].(float64)), "ruby"})
			continue
		}
		r := f.goRun(t, 0)
		r.ID, r.StartedAt, r.FinishedAt = uuid.Nil, at, at.Add(time.Second)
		if err := e.db.InsertRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		all = append(all, written{r.ID.String(), at, r.Sequence, "go"})
	}
	for i := 1; i < len(all); i++ {
		if all[i].seq <= all[i-1].seq {
			t.Fatalf("sequence does not increase across writers: %+v", all)
		}
	}
	order := append([]written(nil), all...)
	sort.Slice(order, func(i, j int) bool { // newest first
		if !order[i].at.Equal(order[j].at) {
			return order[i].at.After(order[j].at)
		}
		return order[i].seq > order[j].seq
	})

	runs, _, err := e.db.ListRuns(ctx, models.RunFilter{Suite: f.Runs[0].Suite})
	if err != nil {
		t.Fatal(err)
	}
	d := parseDump(t, e.ruby(t, "dump"))
	if len(runs) != len(order) || len(d.Runs) != len(order) {
		t.Fatalf("Go lists %d runs, Ruby %d, wrote %d", len(runs), len(d.Runs), len(order))
	}
	for i, w := range order {
		if runs[i].ID.String() != w.id || d.Runs[i]["id"] != w.id {
			t.Errorf("position %d: Go %s, Ruby %v, want %s (%s at %v seq %d)", i, runs[i].ID, d.Runs[i]["id"], w.id, w.by, w.at, w.seq)
		}
		var wantPrev any
		if i+1 < len(order) {
			wantPrev = order[i+1].id
		}
		if d.Runs[i]["previous_id"] != wantPrev {
			t.Errorf("Ruby's previous of %s = %v, want %v", w.id, d.Runs[i]["previous_id"], wantPrev)
		}
		cands, err := e.db.BaselineCandidates(ctx, models.BaselineQuery{
			Suite: f.Runs[0].Suite, Agent: f.Runs[0].Agent, Digest: f.Runs[0].SuiteDigest,
			Before: models.Cursor{StartedAt: w.at, Sequence: w.seq}, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		var gotPrev any
		if len(cands) > 0 {
			gotPrev = cands[0].ID.String()
		}
		if gotPrev != wantPrev {
			t.Errorf("Go's baseline of %s = %v, want %v", w.id, gotPrev, wantPrev)
		}
	}
}
