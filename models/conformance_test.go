package models_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// dialects runs a conformance test against a migrated PostgreSQL schema and
// a migrated SQLite file: both must behave the same.
func dialects(t *testing.T, test func(t *testing.T, db *models.DB)) {
	t.Helper()
	for _, d := range []struct {
		name string
		open func(testing.TB) *models.DB
	}{{"postgres", testdb.Postgres}, {"sqlite", testdb.SQLite}} {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			test(t, d.open(t))
		})
	}
}

func ptr[T any](v T) *T { return &v }

// sameJSON compares two JSON column values as JSON (jsonb reorders keys and
// drops whitespace), keeping SQL NULL and JSON null apart.
func sameJSON(t *testing.T, field string, got, want models.JSON) {
	t.Helper()
	if got.IsSQLNull() != want.IsSQLNull() {
		t.Errorf("%s: got %s (SQL NULL %v), want %s (SQL NULL %v)", field, show(got), got.IsSQLNull(), show(want), want.IsSQLNull())
		return
	}
	if want.IsSQLNull() {
		return
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Errorf("%s: read back invalid JSON %q: %v", field, got, err)
		return
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("%s: test wrote invalid JSON %q: %v", field, want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: got %s, want %s", field, got, want)
	}
}

func show(j models.JSON) string {
	if j == nil {
		return "SQL NULL"
	}
	return string(j)
}

var berlin = time.FixedZone("CET", 3600)

// sampleRun builds a run with every kind of value the columns must keep.
func sampleRun(s string, started time.Time) *models.Run {
	return &models.Run{
		Suite: s, Agent: "SupportAgent", Version: "1", SuiteDigest: "abc123",
		StartedAt:  started,
		FinishedAt: started.Add(1500*time.Millisecond + 123*time.Nanosecond),
		Metadata:   models.JSON(`{"git":{"sha":"deadbeef"},"tags":["ci","nightly"],"note":"Grüße, 東京 ✓"}`),
		Summary:    models.JSON(`{"quality":0.875,"pass_rate":1,"evaluated":2}`),
		Cases: []*models.CaseResult{
			{
				Position: 0, CaseID: "returns", Name: "Rückgabe — 30 Tage ✓",
				Status: models.StatusPassed, DurationMS: 12.5,
				Question:         models.JSON(`{"text":"Wie lange kann ich zurückgeben?","locale":"de"}`),
				ExpectedAnswer:   models.JSON(`"Innerhalb von 30 Tagen."`),
				ExpectedActions:  models.JSON(`[{"group":"lookup","name":"policy","arguments":{"topic":"returns"}}]`),
				MinimumScores:    models.JSON(`{"semantic_accuracy":0.9,"answer_relevancy":0.8}`),
				Metadata:         models.JSON(`{"important_facts":["30 days"]}`),
				Output:           models.JSON(`"Sie haben 30 Tage Zeit. 🙂"`),
				Actions:          models.JSON(`[]`),   // observed none
				ResponseMetadata: models.JSON(`null`), // JSON null: saved as SQL NULL, as Rails saves nil
				InputTokens:      ptr(int64(120)), OutputTokens: ptr(int64(45)),
				Cost: ptr(models.Decimal("0.000123")),
				Metrics: []*models.MetricResult{
					{Position: 0, Name: "semantic_accuracy", Threshold: 0.9, Score: ptr(0.95), Passed: true, Reason: ptr("Matches — exactly ✓")},
					{Position: 1, Name: "answer_relevancy", Threshold: 0.8, Passed: false,
						ErrorDetails: models.JSON(`{"class":"JudgeError","message":"score 1.7 outside [0,1]"}`)},
					{Position: 2, Name: "exact", Threshold: 1, Passed: false}, // not calculated
				},
			},
			{
				Position: 1, CaseID: "numbers", Name: "numbers",
				Status: models.StatusError, DurationMS: 0,
				Question:       models.JSON(`42`),
				ExpectedAnswer: models.JSON(`3.25`),
				MinimumScores:  models.JSON(`{}`),
				Output:         nil, // SQL NULL
				Actions:        nil, // not instrumented
				ErrorDetails:   models.JSON(`{"class":"Timeout","message":"agent timed out after 60s"}`),
				Metrics:        []*models.MetricResult{},
			},
		},
	}
}

func TestInsertRunRoundTrip(t *testing.T) {
	dialects(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		started := time.Date(2026, 11, 30, 13, 4, 5, 123456789, berlin)
		want := sampleRun("Customer support", started)
		if err := db.InsertRun(ctx, want); err != nil {
			t.Fatal(err)
		}
		if want.ID == uuid.Nil || want.ID.Version() != 7 {
			t.Errorf("id = %s, want a uuid v7", want.ID)
		}
		if want.Sequence <= 0 {
			t.Errorf("sequence = %d after insert, want the database's value", want.Sequence)
		}
		for _, c := range want.Cases {
			if c.ID <= 0 || c.RunID != want.ID {
				t.Errorf("case %s: id %d run_id %s after insert", c.CaseID, c.ID, c.RunID)
			}
			for _, m := range c.Metrics {
				if !m.Calculated() {
					continue // no row: kept in response_metadata (models.NotCalculatedKey)
				}
				if m.ID <= 0 || m.CaseResultID != c.ID {
					t.Errorf("metric %s: id %d case_result_id %d after insert (case id %d)", m.Name, m.ID, m.CaseResultID, c.ID)
				}
			}
		}

		got, err := db.GetRun(ctx, want.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Sequence != want.Sequence {
			t.Errorf("sequence read back %d, returned %d", got.Sequence, want.Sequence)
		}
		wantStart := time.Date(2026, 11, 30, 12, 4, 5, 123456000, time.UTC)
		if !got.StartedAt.Equal(wantStart) || got.StartedAt.Location() != time.UTC {
			t.Errorf("started_at = %v, want %v in UTC", got.StartedAt, wantStart)
		}
		if want := wantStart.Add(1500 * time.Millisecond); !got.FinishedAt.Equal(want) || got.FinishedAt.Location() != time.UTC {
			t.Errorf("finished_at = %v, want %v", got.FinishedAt, want)
		}
		if got.CreatedAt.IsZero() || got.CreatedAt.Location() != time.UTC || got.CreatedAt.Nanosecond()%1000 != 0 {
			t.Errorf("created_at = %v, want UTC microseconds", got.CreatedAt)
		}
		for _, f := range [][3]any{
			{"suite", got.Suite, want.Suite}, {"agent", got.Agent, want.Agent}, {"version", got.Version, want.Version},
			{"suite_digest", got.SuiteDigest, want.SuiteDigest}, {"status", got.Status, models.RunStatusCompleted},
		} {
			if f[1] != f[2] {
				t.Errorf("%s = %q, want %q", f[0], f[1], f[2])
			}
		}
		sameJSON(t, "run metadata", got.Metadata, want.Metadata)
		sameJSON(t, "run summary", got.Summary, want.Summary)

		if len(got.Cases) != len(want.Cases) {
			t.Fatalf("%d cases read back, want %d", len(got.Cases), len(want.Cases))
		}
		for i, w := range want.Cases {
			g := got.Cases[i]
			if g.ID != w.ID || g.RunID != want.ID || g.Position != w.Position || g.CaseID != w.CaseID ||
				g.Name != w.Name || g.Status != w.Status || g.DurationMS != w.DurationMS {
				t.Errorf("case %d = %+v, want %+v", i, g, w)
			}
			for _, f := range []struct {
				name      string
				got, want models.JSON
			}{
				{"question", g.Question, w.Question}, {"expected_answer", g.ExpectedAnswer, w.ExpectedAnswer},
				{"expected_actions", g.ExpectedActions, w.ExpectedActions}, {"minimum_scores", g.MinimumScores, w.MinimumScores},
				{"metadata", g.Metadata, w.Metadata}, {"output", g.Output, w.Output}, {"actions", g.Actions, w.Actions},
				{"response_metadata", g.ResponseMetadata, w.ResponseMetadata}, {"error_details", g.ErrorDetails, w.ErrorDetails},
			} {
				sameJSON(t, fmt.Sprintf("case %d %s", i, f.name), f.got, f.want)
			}
			if !reflect.DeepEqual(g.InputTokens, w.InputTokens) || !reflect.DeepEqual(g.OutputTokens, w.OutputTokens) {
				t.Errorf("case %d tokens = %v/%v, want %v/%v", i, g.InputTokens, g.OutputTokens, w.InputTokens, w.OutputTokens)
			}
			if !reflect.DeepEqual(g.Cost, w.Cost) {
				t.Errorf("case %d cost = %v, want %v", i, deref(g.Cost), deref(w.Cost))
			}
			if g.CreatedAt.Location() != time.UTC || g.UpdatedAt.Location() != time.UTC {
				t.Errorf("case %d timestamps not UTC: %v %v", i, g.CreatedAt, g.UpdatedAt)
			}
			if len(g.Metrics) != len(w.Metrics) {
				t.Fatalf("case %d: %d metrics read back, want %d", i, len(g.Metrics), len(w.Metrics))
			}
			for j, wm := range w.Metrics {
				gm := g.Metrics[j]
				if gm.ID != wm.ID || gm.CaseResultID != g.ID || gm.Position != wm.Position || gm.Name != wm.Name ||
					gm.Threshold != wm.Threshold || !reflect.DeepEqual(gm.Score, wm.Score) || gm.Passed != wm.Passed ||
					!reflect.DeepEqual(gm.Reason, wm.Reason) {
					t.Errorf("case %d metric %d = %+v, want %+v", i, j, gm, wm)
				}
				sameJSON(t, fmt.Sprintf("case %d metric %d error_details", i, j), gm.ErrorDetails, wm.ErrorDetails)
				if gm.Calculated() != wm.Calculated() || gm.Errored() != wm.Errored() {
					t.Errorf("case %d metric %s: calculated/errored = %v/%v, want %v/%v", i, gm.Name,
						gm.Calculated(), gm.Errored(), wm.Calculated(), wm.Errored())
				}
			}
		}
		// The three metric states survive the trip.
		ms := got.Cases[0].Metrics
		if !ms[0].Calculated() || ms[0].Errored() || !ms[1].Calculated() || !ms[1].Errored() || ms[2].Calculated() {
			t.Errorf("metric states after reading back: %v/%v %v/%v %v", ms[0].Calculated(), ms[0].Errored(),
				ms[1].Calculated(), ms[1].Errored(), ms[2].Calculated())
		}
		// actions: [] (observed none) and NULL (not instrumented) stay apart.
		if got.Cases[0].Actions.IsSQLNull() || got.Cases[0].Actions.IsNull() || !got.Cases[1].Actions.IsSQLNull() {
			t.Errorf("actions read back as %s and %s, want [] and SQL NULL", show(got.Cases[0].Actions), show(got.Cases[1].Actions))
		}
		// JSON null in a nullable JSON column is saved as SQL NULL, as
		// Rails saves a Ruby nil; the case's metric that was not
		// calculated has no row and is listed in its response_metadata.
		sameJSON(t, "response_metadata", got.Cases[0].ResponseMetadata,
			models.JSON(`{"not_calculated":[{"name":"exact","position":2,"threshold":1,"reason":null}]}`))
		if out := got.Cases[1].Output; !out.IsSQLNull() {
			t.Errorf("output read back as %s, want SQL NULL", show(out))
		}
	})
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestInsertRunSequenceIncreases(t *testing.T) {
	dialects(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		var last int64
		for i := range 3 {
			r := sampleRun("seq", at)
			if err := db.InsertRun(ctx, r); err != nil {
				t.Fatal(err)
			}
			if r.Sequence <= last {
				t.Errorf("run %d sequence %d, not above the previous %d", i, r.Sequence, last)
			}
			last = r.Sequence
		}
	})
}

func TestInsertRunIsAllOrNothing(t *testing.T) {
	dialects(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		// Both databases refuse a NUL byte in text; it sits in the last
		// metric, so the run and its cases are written before the failure.
		r := sampleRun("atomic", time.Now())
		r.Cases[1].Metrics = append(r.Cases[1].Metrics, &models.MetricResult{Position: 9, Name: "bad\x00name", Threshold: 1, Score: ptr(1.0), Passed: true})
		if err := db.InsertRun(ctx, r); err == nil {
			t.Fatal("InsertRun with a NUL byte in a metric name succeeded")
		}
		// Duplicate positions are refused before anything is written.
		dup := sampleRun("atomic", time.Now())
		dup.Cases[1].Position = 0
		if err := db.InsertRun(ctx, dup); err == nil || !strings.Contains(err.Error(), "position 0") {
			t.Errorf("InsertRun with duplicate case positions: %v", err)
		}
		dup = sampleRun("atomic", time.Now())
		dup.Cases[0].Metrics[1].Position = 0
		if err := db.InsertRun(ctx, dup); err == nil || !strings.Contains(err.Error(), "position 0") {
			t.Errorf("InsertRun with duplicate metric positions: %v", err)
		}
		// JSON object columns refuse anything but an object, before
		// anything is written: jsonb would take an array or a string and
		// SQLite text would even take invalid JSON.
		for _, bad := range []string{`[]`, `"text"`, `42`, `true`, `  [{"a":1}]`, `{"a":`, `{} trailing`, ``} {
			for _, col := range []string{"run metadata", "run summary", "case metadata"} {
				r := sampleRun("atomic", time.Now())
				switch col {
				case "run metadata":
					r.Metadata = models.JSON(bad)
				case "run summary":
					r.Summary = models.JSON(bad)
				case "case metadata":
					r.Cases[1].Metadata = models.JSON(bad)
				}
				err := db.InsertRun(ctx, r)
				if !errors.Is(err, models.ErrNotJSONObject) {
					t.Errorf("InsertRun with %s %q: %v, want ErrNotJSONObject", col, bad, err)
				}
			}
		}
		runs, _, err := db.ListRuns(ctx, models.RunFilter{Suite: "atomic"})
		if err != nil {
			t.Fatal(err)
		}
		var cases int
		if err := db.NewSelect().Table(models.CaseResultsTable).ColumnExpr("count(*)").Scan(ctx, &cases); err != nil {
			t.Fatal(err)
		}
		if len(runs) != 0 || cases != 0 {
			t.Errorf("after a failed insert: %d runs and %d cases remain", len(runs), cases)
		}
	})
}

// TestInsertRun_RailsNulls: JSON null in every nullable JSON column is
// saved as SQL NULL (Rails' nil), while {} and [] stay what they are and
// object columns keep {}.
func TestInsertRun_RailsNulls(t *testing.T) {
	dialects(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		null := models.JSON(" null ")
		run := sampleRun("Rails nulls", time.Date(2026, 11, 30, 13, 0, 0, 0, time.UTC))
		c := run.Cases[0]
		c.Question, c.ExpectedAnswer, c.ExpectedActions, c.MinimumScores = null, null, null, null
		c.Output, c.ErrorDetails, c.ResponseMetadata = null, null, models.JSON(`{}`)
		c.Metadata = models.JSON(`{}`)
		c.Metrics[1].ErrorDetails = null // no score, no error: not calculated
		run.Cases[1].ResponseMetadata = models.JSON(`{}`)
		if err := db.InsertRun(ctx, run); err != nil {
			t.Fatal(err)
		}
		got, err := db.GetRun(ctx, run.ID)
		if err != nil {
			t.Fatal(err)
		}
		g := got.Cases[0]
		for name, j := range map[string]models.JSON{"question": g.Question, "expected_answer": g.ExpectedAnswer,
			"expected_actions": g.ExpectedActions, "minimum_scores": g.MinimumScores, "output": g.Output,
			"error_details": g.ErrorDetails, "metric error_details": g.Metrics[1].ErrorDetails} {
			if !j.IsSQLNull() {
				t.Errorf("%s: JSON null read back as %s, want SQL NULL", name, show(j))
			}
		}
		sameJSON(t, "response_metadata", g.ResponseMetadata, models.JSON(`{"not_calculated":[
			{"name":"answer_relevancy","position":1,"threshold":0.8,"reason":null},{"name":"exact","position":2,"threshold":1,"reason":null}]}`))
		sameJSON(t, "metadata", g.Metadata, models.JSON(`{}`))
		sameJSON(t, "response_metadata of a case that calculated everything", got.Cases[1].ResponseMetadata, models.JSON(`{}`))
		sameJSON(t, "actions", g.Actions, models.JSON(`[]`))
	})
}
