package models_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// TestSaveRuns: on both databases the runs of one call are all saved, or,
// when one of them cannot be (here: its id is taken), none is; a taken id
// is a UniqueViolation.
func TestSaveRuns(t *testing.T) {
	for name, open := range map[string]func(testing.TB) *models.DB{"sqlite": testdb.SQLite, "postgres": testdb.Postgres} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db := open(t)
			start := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
			a, b := sampleRun("A", start), sampleRun("B", start.Add(time.Hour))
			a.ID, b.ID = uuid.New(), uuid.New()
			if err := db.SaveRuns(ctx, []*models.Run{a, b}, models.SaveOptions{MaxWait: -1}); err != nil {
				t.Fatalf("SaveRuns(a, b): %v", err)
			}
			c, taken := sampleRun("C", start.Add(2*time.Hour)), sampleRun("D", start.Add(3*time.Hour))
			c.ID, taken.ID = uuid.New(), a.ID
			err := db.SaveRuns(ctx, []*models.Run{c, taken}, models.SaveOptions{MaxWait: -1})
			if !models.UniqueViolation(err) {
				t.Fatalf("SaveRuns(c, a run whose id is taken) = %v, want a unique violation", err)
			}
			for _, tc := range []struct {
				id   uuid.UUID
				want bool
			}{{a.ID, true}, {b.ID, true}, {c.ID, false}} {
				_, err := db.GetRun(ctx, tc.id)
				if got := err == nil; got != tc.want {
					t.Errorf("run %s stored: %v (%v), want %v", tc.id, got, err, tc.want)
				}
			}
		})
	}
}
