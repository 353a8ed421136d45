package evidence

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// sampleRun builds a prepared run of n cases with two metrics each, one
// case in five failing, one metric of one case errored and one not
// calculated, as runner.Execute would.
func sampleRun(tb testing.TB, n int) (*models.Run, Definition) {
	tb.Helper()
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	run := &models.Run{Suite: "S", Agent: "A", Version: "1", SuiteDigest: "digest", Status: models.RunStatusCompleted,
		StartedAt: start, FinishedAt: start.Add(time.Minute), Metadata: models.JSON(`{"revision":"abc"}`)}
	def := Definition{SuiteDigest: "digest", CalculatedMetrics: []string{"exact", "judge"}}
	for i := range n {
		id := fmt.Sprintf("q%d", i)
		def.CaseIDs = append(def.CaseIDs, id)
		c := &models.CaseResult{Position: i, CaseID: id, Name: id, Status: models.StatusPassed, DurationMS: float64(i) + 0.5,
			Question: models.JSON(fmt.Sprintf(`"Question %d?"`, i)), ExpectedAnswer: models.JSON(`"yes"`),
			MinimumScores: models.JSON(`{"exact":1,"judge":0.5}`), Metadata: models.JSON(`{"n":1}`),
			Output: models.JSON(`"yes"`), Actions: models.JSON("[]")}
		switch i % 7 {
		case 0:
			c.Actions = nil // not instrumented: SQL NULL
		case 1:
			c.Actions = models.JSON("null") // JSON null: Rails reads and writes it as NULL too
		}
		tokens := int64(i)
		c.InputTokens = &tokens
		one, half := 1.0, 0.5
		reason := "matches"
		exact := &models.MetricResult{Position: 0, Name: "exact", Threshold: 1, Score: &one, Passed: true, Reason: &reason}
		judge := &models.MetricResult{Position: 1, Name: "judge", Threshold: 0.5, Score: &half, Passed: true, Reason: &reason}
		switch i % 5 {
		case 1:
			zero := 0.0
			exact.Score, exact.Passed, c.Status = &zero, false, models.StatusFailed
		case 2:
			judge.Score, judge.Passed, judge.ErrorDetails, c.Status = nil, false, models.JSON(`{"kind":"timeout"}`), models.StatusError
		case 3:
			judge.Score, judge.Passed = nil, false
		}
		c.Metrics = []*models.MetricResult{exact, judge}
		run.Cases = append(run.Cases, c)
	}
	run.Summary = mustSummary(tb, models.SummaryOf(run, 4, time.Minute))
	if err := models.PrepareRun(run); err != nil {
		tb.Fatal(err)
	}
	return run, def
}

// encode writes f and returns its bytes.
func encode(tb testing.TB, f *File) []byte {
	tb.Helper()
	b, err := f.Marshal()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestFile_RoundTrip(t *testing.T) {
	run, def := sampleRun(t, 20)
	b := encode(t, &File{Run: run, Definition: def, Reason: "test"})
	f, err := Parse("run.json", b)
	if err != nil {
		t.Fatal(err)
	}
	if same, diff := Equal(f.Run, run); !same {
		t.Errorf("round trip differs: %s", diff)
	}
	// Rails stores nil as SQL NULL, so a JSON null reads back as SQL NULL
	// (models.JSON's rule); "[]" (observed none) stays itself.
	if f.Run.Cases[0].Actions != nil || f.Run.Cases[1].Actions != nil || string(f.Run.Cases[2].Actions) != "[]" {
		t.Errorf("actions = %q, %q, %q; want SQL NULL, SQL NULL and []", f.Run.Cases[0].Actions, f.Run.Cases[1].Actions, f.Run.Cases[2].Actions)
	}
}

// TestParse_Refuses edits a valid file in one place and checks that the
// error names the file, the JSON path and what was expected.
func TestParse_Refuses(t *testing.T) {
	run, def := sampleRun(t, 6)
	valid := encode(t, &File{Run: run, Definition: def})
	for _, tc := range []struct {
		name string
		edit func(d map[string]any)
		want string
	}{
		{"format", func(d map[string]any) { d["format"] = "other" }, `$.format: want "agentevals-evidence"`},
		{"version", func(d map[string]any) { d["version"] = 2 }, "$.version: this evalrun reads version 1, got 2"},
		{"unknown key", func(d map[string]any) { d["extra"] = 1 }, `unknown field "extra"`},
		{"status", func(d map[string]any) { row(d, "case_results", 1)["status"] = "great" }, "$.case_results[1].status: want passed, failed, error or not_evaluated"},
		{"threshold", func(d map[string]any) { row(d, "metric_results", 0)["threshold"] = 1.5 }, "threshold 1.5"},
		{"score", func(d map[string]any) { row(d, "metric_results", 3)["score"] = -0.1 }, `$.metric_results[3] (case "q1", metric "judge"): score -0.1 is outside [0, 1]`},
		{"passed below threshold", func(d map[string]any) { row(d, "metric_results", 2)["passed"] = true }, `$.metric_results[2] (case "q1", metric "exact"): "exact" passed with score 0 below its threshold 1`},
		{"status against rows", func(d map[string]any) { row(d, "case_results", 1)["status"] = "passed" }, `$.case_results[1].status: "passed", but its rows make the case "failed"`},
		{"position", func(d map[string]any) { row(d, "case_results", 2)["position"] = 7 }, "$.metric_results[4].case_position: no case has position 2"},
		{"case id", func(d map[string]any) { row(d, "case_results", 0)["case_id"] = "zz" }, `the definition has "q0" at position 0`},
		{"metadata object", func(d map[string]any) { row(d, "case_results", 0)["metadata"] = []int{1} }, "$.case_results[0].metadata: want a JSON object"},
		{"missing column", func(d map[string]any) { delete(row(d, "case_results", 0), "status") }, "column status is missing"},
		{"wrong type", func(d map[string]any) { row(d, "case_results", 0)["duration_ms"] = "slow" }, "column duration_ms: want a number"},
		{"unknown column", func(d map[string]any) { row(d, "case_results", 0)["colour"] = "red" }, "unknown column(s) colour"},
		{"digest", func(d map[string]any) { d["definition"].(map[string]any)["suite_digest"] = "other" }, "does not match the run's suite_digest"},
		{"summary counts", func(d map[string]any) {
			d["run"].(map[string]any)["summary"] = map[string]any{"cases": 6, "passed": 6}
		}, "$.run.summary: passed is 6 but the rows hold"},
		{"uncalculated verdict", func(d map[string]any) { d["definition"].(map[string]any)["calculated_metrics"] = []string{"exact"} }, `"judge" has a verdict but is not among`},
		{"metric row missing", func(d map[string]any) {
			d["metric_results"] = d["metric_results"].([]any)[1:]
		}, "1 metric rows for 2 minimum_scores"},
		{"shard slice", func(d map[string]any) { d["shard"] = map[string]any{"index": 1, "count": 2} }, "shard 1 of 2 holds the positions p with p mod 2 = 0"},
		{"truncated shard", func(d map[string]any) {
			d["shard"] = map[string]any{"index": 1, "count": 6}
			d["case_results"] = d["case_results"].([]any)[:1]
			d["metric_results"] = d["metric_results"].([]any)[:2]
			d["run"].(map[string]any)["summary"] = map[string]any{}
			d["definition"].(map[string]any)["case_ids"] = []string{"q0", "q1", "q2", "q3", "q4", "q5", "q6"}
		}, "1 rows, but shard 1 of 6 of a definition of 7 questions holds 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d map[string]any
			if err := json.Unmarshal(valid, &d); err != nil {
				t.Fatal(err)
			}
			tc.edit(d)
			b, _ := json.Marshal(d)
			_, err := Parse("run.json", b)
			var inv *InvalidError
			if !errors.As(err, &inv) || !strings.HasPrefix(err.Error(), "run.json: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an *InvalidError containing %q", err, tc.want)
			}
		})
	}
}

// row returns the i-th row of a table in a decoded file.
func row(d map[string]any, table string, i int) map[string]any {
	return d[table].([]any)[i].(map[string]any)
}

// TestImport on both databases: a file imports once, a second import
// inserts nothing, and different content under the same id is refused.
func TestImport(t *testing.T) {
	for name, open := range map[string]func(testing.TB) *models.DB{"sqlite": testdb.SQLite, "postgres": testdb.Postgres} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db := open(t)
			run, def := sampleRun(t, 12)
			path := filepath.Join(t.TempDir(), "run.json")
			if err := (&File{Run: run, Definition: def}).Write(path); err != nil {
				t.Fatal(err)
			}
			f, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := Import(ctx, db, f, models.SaveOptions{}); err != nil || got != Inserted {
				t.Fatalf("first import: %v, %v", got, err)
			}
			stored, err := db.GetRun(ctx, run.ID)
			if err != nil {
				t.Fatal(err)
			}
			if same, diff := Equal(stored, run); !same {
				t.Errorf("stored run differs from the file: %s", diff)
			}
			again, _ := Read(path)
			if got, err := Import(ctx, db, again, models.SaveOptions{}); err != nil || got != AlreadyImported {
				t.Errorf("second import: %v, %v; want AlreadyImported", got, err)
			}
			changed, _ := Read(path)
			changed.Run.Cases[3].Name = "renamed"
			var conflict *ConflictError
			if _, err := Import(ctx, db, changed, models.SaveOptions{}); !errors.As(err, &conflict) || !strings.Contains(err.Error(), "case_results[3].name") {
				t.Errorf("changed content: %v, want a *ConflictError naming case_results[3].name", err)
			}
			n, err := db.NewSelect().Model((*models.Run)(nil)).Count(ctx)
			if err != nil || n != 1 {
				t.Errorf("%d runs stored (%v), want 1", n, err)
			}
		})
	}
}

// TestMerge_Refuses checks the shard-set rules on files in memory.
func TestMerge_Refuses(t *testing.T) {
	run, def := sampleRun(t, 9)
	shard := func(index, count int, edit func(*models.Run)) *File {
		r := *run
		r.ID = uuid.New()
		r.Cases = nil
		for _, c := range run.Cases {
			if c.Position%count == index-1 {
				cp := *c
				cp.RunID = r.ID
				r.Cases = append(r.Cases, &cp)
			}
		}
		if edit != nil {
			edit(&r)
		}
		return &File{Run: &r, Definition: def, Shard: &Shard{Index: index, Count: count}}
	}
	names := []string{"a", "b", "c", "d"}
	for _, tc := range []struct {
		name  string
		files []*File
		want  string
	}{
		{"missing", []*File{shard(1, 3, nil), shard(3, 3, nil)}, "missing shard(s) 2 of 3"},
		{"duplicated", []*File{shard(1, 3, nil), shard(1, 3, nil)}, "duplicated shard"},
		{"count", []*File{shard(1, 3, nil), shard(2, 2, nil)}, "shard of 2"},
		{"agent", []*File{shard(1, 2, nil), shard(2, 2, func(r *models.Run) { r.Agent = "B" })}, `agent "B" against "A"`},
		{"digest", []*File{shard(1, 2, nil), shard(2, 2, func(r *models.Run) { r.SuiteDigest = "x" })}, "suite_digest x against digest"},
		{"whole run", []*File{{Run: run, Definition: def}}, "not a shard"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Merge(tc.files, names[:len(tc.files)])
			var inv *InvalidError
			if !errors.As(err, &inv) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an *InvalidError containing %q", err, tc.want)
			}
		})
	}
	merged, err := Merge([]*File{shard(3, 3, nil), shard(1, 3, nil), shard(2, 3, nil)}, names[:3])
	if err != nil {
		t.Fatal(err)
	}
	if err := merged.Validate("merged"); err != nil {
		t.Errorf("merged run does not validate: %v", err)
	}
	for i, c := range merged.Run.Cases {
		if c.Position != i || c.RunID != merged.Run.ID {
			t.Fatalf("case %d: position %d, run %s", i, c.Position, c.RunID)
		}
	}
}

// TestMerge_Repeats: shards of a --repeat K run merge into a run whose
// summary says K (not the shards' sum) with pass_at_k and pass_hat_k over
// all questions, and shards made with another K are refused.
func TestMerge_Repeats(t *testing.T) {
	run, def := sampleRun(t, 4)
	for i, c := range run.Cases {
		c.ResponseMetadata = models.JSON(fmt.Sprintf(`{"pass_at_k":true,"pass_hat_k":%t}`, i != 1))
	}
	shard := func(index, k int, passHat float64) *File {
		r := *run
		r.ID = uuid.New()
		r.Cases = nil
		for _, c := range run.Cases {
			if c.Position%2 == index-1 {
				cp := *c
				cp.RunID = r.ID
				r.Cases = append(r.Cases, &cp)
			}
		}
		r.Summary = models.JSON(fmt.Sprintf(`{"repeats":%d,"pass_at_k":1,"pass_hat_k":%v}`, k, passHat))
		return &File{Run: &r, Definition: def, Shard: &Shard{Index: index, Count: 2}}
	}
	merged, err := Merge([]*File{shard(1, 3, 1), shard(2, 3, 0.5)}, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := merged.Run.Summary.Decode(&s); err != nil {
		t.Fatal(err)
	}
	if s["repeats"] != 3.0 || s["pass_at_k"] != 1.0 || s["pass_hat_k"] != 0.75 {
		t.Errorf("merged summary repeats %v, pass_at_k %v, pass_hat_k %v; want 3, 1, 0.75", s["repeats"], s["pass_at_k"], s["pass_hat_k"])
	}
	_, err = Merge([]*File{shard(1, 2, 1), shard(2, 3, 0.5)}, []string{"a", "b"})
	var inv *InvalidError
	if !errors.As(err, &inv) || !strings.Contains(err.Error(), "3 repeats per question against 2") {
		t.Errorf("got %v, want shards of another --repeat refused", err)
	}
}

// TestParse_NotAnEvidenceFile: input that is not a JSON object is named
// as such, without Go type names.
func TestParse_NotAnEvidenceFile(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`[]`, `x.json: $: not an evidence file: want a JSON object with "format": "agentevals-evidence" and "version": 1`},
		{`"text"`, `x.json: $: not an evidence file: want a JSON object`},
		{`{"format": "agentevals-evidence", "version": "1"}`, `x.json: $: not an evidence file: want a JSON object`},
		{`{"format": `, `x.json: not an evidence file: not valid JSON: unexpected end of JSON input`},
	} {
		_, err := Parse("x.json", []byte(tc.in))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "Go value") {
			t.Errorf("%s: got %v, want an error starting %q", tc.in, err, tc.want)
		}
	}
}

// mustSummary encodes a run summary.
func mustSummary(tb testing.TB, s models.RunSummary) models.JSON {
	tb.Helper()
	j, err := s.Encode()
	if err != nil {
		tb.Fatal(err)
	}
	return j
}
