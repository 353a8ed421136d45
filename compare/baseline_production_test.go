package compare

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

// TestFindBaseline_ProductionApart: a production window (its summary's
// production record, or before it runs its cases' production metadata) is
// never the automatic baseline of a suite run of the same definition, nor
// a suite run the baseline of a production window; each still finds its
// own kind.
func TestFindBaseline_ProductionApart(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		plain := `{"writer":"` + goWriter + `"}`
		prod := `{"writer":"` + goWriter + `","production":{"monitor":"returns","files":["w.jsonl"],"read":1,"sampled":1}}`
		suiteRun := runfixture.SaveRun(t, db, returnsRun(uuid.NewString(), runfixture.T0, "go-1", plain))
		window := runfixture.SaveRun(t, db, returnsRun(uuid.NewString(), runfixture.T0.Add(time.Minute), "go-1", prod))

		next := returnsRun(uuid.NewString(), runfixture.T0.Add(time.Hour), "go-1", plain)
		got, err := FindBaseline(ctx, db, next, nil)
		if err != nil {
			t.Fatal(err)
		}
		if runfixture.IDOf(got) != suiteRun.ID.String() {
			t.Errorf("suite run's baseline = %s, want the suite run %s (not the newer production window %s)", runfixture.IDOf(got), suiteRun.ID, window.ID)
		}

		planned := returnsRun(uuid.NewString(), runfixture.T0.Add(2*time.Hour), "go-1", plain)
		planned.Cases[0].Metadata = models.JSON(`{"production":{"trace_ids":["0af7651916cd43dd8448eb211c80319c"],"start":"2026-11-03T09:00:00Z","end":"2026-11-03T09:00:01Z"}}`)
		got, err = FindBaseline(ctx, db, planned, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got != nil && got.ID == suiteRun.ID {
			t.Errorf("a production window found the suite run %s as its baseline", suiteRun.ID)
		}
		if err := CheckBaseline(planned, suiteRun, nil); err == nil {
			t.Error("CheckBaseline accepted a suite run as a production window's baseline")
		}
		if err := CheckBaseline(next, window, nil); err == nil {
			t.Error("CheckBaseline accepted a production window as a suite run's baseline")
		}
	})
}
