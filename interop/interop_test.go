package interop_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
)

// schemas are the two ways Ruby creates the tables: the gem's style,
// written independently of ours, and evalrun's own Rails migration.
var schemas = []string{"gem", "db:rails-migration"}

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
			if got.Cases[0].Cost == nil || *got.Cases[0].Cost != "0.000123" {
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
			if err := json.Unmarshal(before, &b); err != nil {
				t.Fatalf("ruby dump before db:migrate: %v", err)
			}
			if err := json.Unmarshal(after, &a); err != nil {
				t.Fatalf("ruby dump after db:migrate: %v", err)
			}
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
		same(t, fmt.Sprintf("run %s as Ruby reads it vs as Go wrote it", r.ID), got, savedByGo(view(t, r)))
		fi := 1 - i
		same(t, fmt.Sprintf("run %s as Ruby reads it vs the fixture", r.ID), withoutGenerated(t, got), savedByGo(fixtureView(t, f, fi)))
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

// f: evalrun db:rails-migration upgrades as well as creates: over 0.1-era
// tables (criteria) and over gem-created tables missing an index, a JSON
// default and a foreign key, ActiveRecord runs it twice (idempotent),
// every row is kept, criteria becomes minimum_scores, the missing pieces
// are back and db:check exits 0.
func TestRailsMigrationUpgrades(t *testing.T) {
	f := loadFixture(t)
	for _, kind := range []string{"gem-0.1", "gem"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			e := newEnv(t)
			e.ruby(t, "schema", kind)
			before := parseDump(t, e.ruby(t, "write", fixturePath))
			if kind == "gem" {
				for _, stmt := range []string{
					`DROP INDEX idx_evaluation_runs_baseline`,
					`ALTER TABLE ruby_llm_evaluations_case_results ALTER COLUMN metadata DROP DEFAULT`,
					`ALTER TABLE ruby_llm_evaluations_metric_results DROP CONSTRAINT ` + fkName(t, e, models.MetricResultsTable),
				} {
					if _, err := e.db.ExecContext(ctx, stmt); err != nil {
						t.Fatalf("%s: %v", stmt, err)
					}
				}
				if code, _ := e.evalrun(t, "db:check"); code == 0 {
					t.Log("db:check accepts the damaged gem tables (indexes and defaults are advisory)")
				}
			}
			e.rubySchema(t, "db:rails-migration")
			e.rubySchema(t, "db:rails-migration")
			if code, out := e.evalrun(t, "db:check"); code != 0 {
				t.Errorf("db:check after the Rails migration: exit %d\n%s", code, out)
			}
			after := parseDump(t, e.ruby(t, "dump"))
			same(t, "runs before and after the Rails migration", normalize(t, after.Runs), normalize(t, before.Runs))
			for i, fr := range f.Runs {
				got, err := e.db.GetRun(ctx, uuid.MustParse(fr.ID))
				if err != nil {
					t.Fatal(err)
				}
				same(t, fmt.Sprintf("run %d as Go reads it after the Rails migration vs the fixture", i),
					withoutGenerated(t, view(t, got)), fixtureView(t, f, i))
			}
			if kind != "gem" {
				return
			}
			var n int
			if err := e.db.QueryRowContext(ctx, `SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema()
				AND tablename = 'ruby_llm_evaluations_runs' AND indexdef LIKE '%(suite, agent, suite_digest, started_at, sequence)%'`).Scan(&n); err != nil || n != 1 {
				t.Errorf("baseline index after the Rails migration: %d (%v), want 1", n, err)
			}
			if fkName(t, e, models.MetricResultsTable) == "" {
				t.Errorf("the metric results' foreign key was not restored")
			}
			var def *string
			if err := e.db.QueryRowContext(ctx, `SELECT column_default FROM information_schema.columns WHERE table_schema = current_schema()
				AND table_name = 'ruby_llm_evaluations_case_results' AND column_name = 'metadata'`).Scan(&def); err != nil || def == nil || !strings.Contains(*def, "{}") {
				t.Errorf("case results' metadata default after the Rails migration: %v (%v), want '{}'", def, err)
			}
		})
	}
}

// fkName is the name of table's foreign key, "" when it has none.
func fkName(t *testing.T, e *env, table string) string {
	t.Helper()
	var name string
	err := e.db.QueryRowContext(context.Background(), `SELECT coalesce(min(constraint_name), '') FROM information_schema.table_constraints
		WHERE table_schema = current_schema() AND table_name = ? AND constraint_type = 'FOREIGN KEY'`, table).Scan(&name)
	if err != nil {
		t.Fatal(err)
	}
	return name
}
