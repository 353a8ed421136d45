package models_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
)

func TestGetRunOrdersByPosition(t *testing.T) {
	dialects(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		r := &models.Run{Suite: "order", Agent: "a", Version: "1", SuiteDigest: "d", StartedAt: time.Now(), FinishedAt: time.Now()}
		for _, p := range []int{2, 0, 3, 1} {
			c := &models.CaseResult{Position: p, CaseID: fmt.Sprintf("c%d", p), Name: "n", Status: models.StatusPassed}
			for _, mp := range []int{1, 0} {
				c.Metrics = append(c.Metrics, &models.MetricResult{Position: mp, Name: fmt.Sprintf("m%d", mp), Threshold: 0.5, Score: ptr(1.0), Passed: true})
			}
			r.Cases = append(r.Cases, c)
		}
		if err := db.InsertRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		got, err := db.GetRun(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range got.Cases {
			if c.Position != i || c.CaseID != fmt.Sprintf("c%d", i) {
				t.Errorf("case %d has position %d (%s)", i, c.Position, c.CaseID)
			}
			for j, m := range c.Metrics {
				if m.Position != j || m.Name != fmt.Sprintf("m%d", j) {
					t.Errorf("case %d metric %d has position %d (%s)", i, j, m.Position, m.Name)
				}
			}
		}
		if _, err := db.GetRun(ctx, uuid.New()); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("GetRun of an unknown id: %v, want ErrNotFound", err)
		}
	})
}

// insertAt inserts a minimal run of suite/agent at a time.
func insertAt(t *testing.T, db *models.DB, s, a, digest string, at time.Time) *models.Run {
	t.Helper()
	r := &models.Run{Suite: s, Agent: a, Version: "1", SuiteDigest: digest, StartedAt: at, FinishedAt: at.Add(time.Second),
		Cases: []*models.CaseResult{{Position: 0, CaseID: "q", Name: "q", Status: models.StatusPassed,
			Metrics: []*models.MetricResult{{Name: "exact", Threshold: 1, Score: ptr(1.0), Passed: true}}}}}
	if err := db.InsertRun(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestListRunsKeysetPagination(t *testing.T) {
	dialects(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		base := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		var all []*models.Run
		// Ties on started_at (including sub-second ones) are broken by sequence.
		for i, off := range []time.Duration{0, time.Second, time.Second, 1500 * time.Microsecond, 2 * time.Second, 2 * time.Second, 2 * time.Second, 3 * time.Hour} {
			a := "A"
			if i%3 == 2 {
				a = "B"
			}
			all = append(all, insertAt(t, db, "paged", a, "d", base.Add(off)))
		}
		insertAt(t, db, "other suite", "A", "d", base.Add(time.Minute))

		expect := func(filter func(*models.Run) bool) []*models.Run {
			var out []*models.Run
			for _, r := range all {
				if filter(r) {
					out = append(out, r)
				}
			}
			// newest first, ties by sequence descending
			for i := 1; i < len(out); i++ {
				for j := i; j > 0; j-- {
					a, b := out[j-1], out[j]
					if a.StartedAt.Before(b.StartedAt) || (a.StartedAt.Equal(b.StartedAt) && a.Sequence < b.Sequence) {
						out[j-1], out[j] = b, a
					}
				}
			}
			return out
		}
		for _, tc := range []struct {
			name   string
			filter models.RunFilter
			want   []*models.Run
		}{
			{"suite", models.RunFilter{Suite: "paged", Limit: 3}, expect(func(*models.Run) bool { return true })},
			{"suite and agent", models.RunFilter{Suite: "paged", Agent: "A", Limit: 2}, expect(func(r *models.Run) bool { return r.Agent == "A" })},
			{"time window", models.RunFilter{Suite: "paged", From: base.Add(time.Second), To: base.Add(time.Hour), Limit: 1},
				expect(func(r *models.Run) bool {
					return !r.StartedAt.Before(base.Add(time.Second)) && r.StartedAt.Before(base.Add(time.Hour))
				})},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var got []*models.Run
				f := tc.filter
				for page := 0; ; page++ {
					runs, next, err := db.ListRuns(ctx, f)
					if err != nil {
						t.Fatal(err)
					}
					if len(runs) > f.Limit {
						t.Fatalf("page %d has %d runs, limit %d", page, len(runs), f.Limit)
					}
					got = append(got, runs...)
					if next == nil {
						break
					}
					if page > 20 {
						t.Fatal("pagination does not end")
					}
					f.Before = next
				}
				if len(got) != len(tc.want) {
					t.Fatalf("listed %d runs, want %d", len(got), len(tc.want))
				}
				for i := range got {
					if got[i].ID != tc.want[i].ID {
						t.Errorf("run %d: got sequence %d at %v, want sequence %d at %v", i,
							got[i].Sequence, got[i].StartedAt, tc.want[i].Sequence, tc.want[i].StartedAt)
					}
					if len(got[i].Cases) != 0 {
						t.Errorf("ListRuns loaded cases")
					}
				}
			})
		}
	})
}

func TestBaselineCandidates(t *testing.T) {
	dialects(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		t0 := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
		old := insertAt(t, db, "s", "a", "d1", t0)
		otherDigest := insertAt(t, db, "s", "a", "d2", t0.Add(time.Minute))
		tieA := insertAt(t, db, "s", "a", "d1", t0.Add(time.Hour))
		tieB := insertAt(t, db, "s", "a", "d1", t0.Add(time.Hour))
		future := insertAt(t, db, "s", "a", "d1", t0.Add(48*time.Hour))
		insertAt(t, db, "s", "other agent", "d1", t0.Add(time.Minute))
		insertAt(t, db, "other suite", "a", "d1", t0.Add(time.Minute))

		ids := func(runs []*models.Run) []uuid.UUID {
			var out []uuid.UUID
			for _, r := range runs {
				out = append(out, r.ID)
			}
			return out
		}
		for _, tc := range []struct {
			name string
			q    models.BaselineQuery
			want []*models.Run
		}{
			{"before tieB by sequence", models.BaselineQuery{Suite: "s", Agent: "a", Before: models.Cursor{StartedAt: tieB.StartedAt, Sequence: tieB.Sequence}},
				[]*models.Run{tieA, otherDigest, old}},
			{"with digest", models.BaselineQuery{Suite: "s", Agent: "a", Digest: "d1", Before: models.Cursor{StartedAt: tieB.StartedAt, Sequence: tieB.Sequence}},
				[]*models.Run{tieA, old}},
			{"strictly before a time", models.BaselineQuery{Suite: "s", Agent: "a", Digest: "d1", Before: models.Cursor{StartedAt: tieA.StartedAt}},
				[]*models.Run{old}},
			{"a new run now", models.BaselineQuery{Suite: "s", Agent: "a", Digest: "d1", Before: models.Cursor{StartedAt: t0.Add(2 * time.Hour)}, Limit: 1},
				[]*models.Run{tieB}},
			{"the future run sees everything before it", models.BaselineQuery{Suite: "s", Agent: "a", Digest: "d1", Before: models.Cursor{StartedAt: future.StartedAt, Sequence: future.Sequence}},
				[]*models.Run{tieB, tieA, old}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := db.BaselineCandidates(ctx, tc.q)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(ids(got), ids(tc.want)) {
					t.Errorf("got %v, want %v", ids(got), ids(tc.want))
				}
				for _, r := range got {
					if !r.StartedAt.Before(tc.q.Before.StartedAt) && !(r.StartedAt.Equal(tc.q.Before.StartedAt) && r.Sequence < tc.q.Before.Sequence) {
						t.Errorf("candidate %s at %v is not before %v", r.ID, r.StartedAt, tc.q.Before)
					}
					if len(r.Cases) != 1 || len(r.Cases[0].Metrics) != 1 {
						t.Errorf("candidate %s loaded without its cases and metrics", r.ID)
					}
				}
			})
		}
	})
}
