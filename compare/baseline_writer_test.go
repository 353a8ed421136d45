package compare

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

// goWriter is suite.GoWriter: the summary.writer value of runs written by
// the Go runner.
const goWriter = "agentevals-go"

// returnsRun is a one-question run whose rows equal the Ruby-shaped run of
// runfixture.InsertRubyRun (threshold 0.9), with the given digest and summary.
func returnsRun(id string, started time.Time, digest, summary string) *models.Run {
	r := runfixture.Build(id, 0, started, runfixture.Case{ID: "returns",
		Question: "How long do I have to return an item?", Expected: "You can return it within 30 days.",
		Output: "Within 30 days.", Meta: `{"failure_mode":"policy","tags":["returns"]}`,
		Metrics: []runfixture.Metric{runfixture.NewMetric("semantic_accuracy", 0.9, runfixture.Score(0.95))}})
	r.SuiteDigest = digest
	r.Summary = models.JSON(summary)
	return r
}

func TestSameDefinition_WriterMarker(t *testing.T) {
	marked := `{"writer":"` + goWriter + `","cases":1}`
	tests := []struct {
		name           string
		a, b           *models.Run
		want           error
		wantInMessage  string
		differentMetas bool
	}{
		{name: "both marked, digests differ", want: ErrIncompatible, wantInMessage: "both runs were written by " + goWriter,
			a: returnsRun("01900000-0000-7000-8000-000000000301", runfixture.T0, "go-1", marked),
			b: returnsRun("01900000-0000-7000-8000-000000000302", runfixture.T0, "go-2", marked)},
		{name: "both marked, same digest",
			a: returnsRun("01900000-0000-7000-8000-000000000303", runfixture.T0, "go-1", marked),
			b: returnsRun("01900000-0000-7000-8000-000000000304", runfixture.T0, "go-1", marked)},
		{name: "marked and a Ruby-shaped run",
			a: returnsRun("01900000-0000-7000-8000-000000000305", runfixture.T0, "go-1", marked),
			b: returnsRun("01900000-0000-7000-8000-000000000306", runfixture.T0, "ruby-sha256-5f1c", `{"score":0.97}`)},
		{name: "a Ruby-shaped run and a marked one",
			a: returnsRun("01900000-0000-7000-8000-000000000307", runfixture.T0, "ruby-sha256-5f1c", `{"score":0.97}`),
			b: returnsRun("01900000-0000-7000-8000-000000000308", runfixture.T0, "go-1", marked)},
		{name: "another writer's marker",
			a: returnsRun("01900000-0000-7000-8000-000000000309", runfixture.T0, "go-1", marked),
			b: returnsRun("01900000-0000-7000-8000-000000000310", runfixture.T0, "py-1", `{"writer":"agentevals-py"}`)},
		{name: "neither marked (runs saved before the marker)",
			a: returnsRun("01900000-0000-7000-8000-000000000311", runfixture.T0, "go-1", `{}`),
			b: returnsRun("01900000-0000-7000-8000-000000000312", runfixture.T0, "go-2", `{"writer":null}`)},
		{name: "marked and a Ruby-shaped run of another definition", want: ErrIncompatible, wantInMessage: "metadata differs",
			differentMetas: true,
			a:              returnsRun("01900000-0000-7000-8000-000000000313", runfixture.T0, "go-1", marked),
			b:              returnsRun("01900000-0000-7000-8000-000000000314", runfixture.T0, "ruby-sha256-5f1c", `{"score":0.97}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.differentMetas {
				tt.b.Cases[0].Metadata = models.JSON(`{"tags":["refunds"]}`)
			}
			err := SameDefinition(tt.a, tt.b, nil, nil)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("SameDefinition = %v, want the same definition", err)
				}
				return
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.wantInMessage) {
				t.Fatalf("SameDefinition = %v, want %v saying %q", err, tt.want, tt.wantInMessage)
			}
		})
	}
}

// TestFindBaseline_WriterMarker saves a Ruby-shaped run and Go runs whose
// rows are equal but whose digests differ (as when a replay fixture's bytes
// change): a Go run never baselines a Go run of another digest, but still
// finds the equivalent Ruby run.
func TestFindBaseline_WriterMarker(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		marked := `{"writer":"` + goWriter + `"}`
		rubyID := uuid.MustParse("5b3c2a10-0000-4000-8000-000000000301")
		runfixture.InsertRubyRun(t, db, rubyID, runfixture.T0, "0.9", 0.98)
		fixturesV1 := runfixture.SaveRun(t, db, returnsRun("01900000-0000-7000-8000-000000000321", runfixture.T0.Add(time.Hour), "go-fixtures-1", marked))
		fixturesV2 := runfixture.SaveRun(t, db, returnsRun("01900000-0000-7000-8000-000000000322", runfixture.T0.Add(2*time.Hour), "go-fixtures-2", marked))
		againV2 := runfixture.SaveRun(t, db, returnsRun("01900000-0000-7000-8000-000000000323", runfixture.T0.Add(3*time.Hour), "go-fixtures-2", marked))

		tests := []struct {
			name string
			run  *models.Run
			want string
		}{
			{"first Go run: the Ruby run", fixturesV1, rubyID.String()},
			{"changed fixtures: the Ruby run, not the Go run of the old fixtures", fixturesV2, rubyID.String()},
			{"same fixtures again: the Go run of the same digest", againV2, fixturesV2.ID.String()},
		}
		for _, tt := range tests {
			got, err := FindBaseline(ctx, db, tt.run, nil)
			if err != nil {
				t.Fatal(err)
			}
			if runfixture.IDOf(got) != tt.want {
				t.Errorf("%s: baseline = %s, want %s", tt.name, runfixture.IDOf(got), tt.want)
			}
		}
		if err := CheckBaseline(fixturesV2, fixturesV1, nil); !errors.Is(err, ErrIncompatible) {
			t.Errorf("explicit baseline of another Go digest: CheckBaseline = %v, want ErrIncompatible", err)
		}
		ruby, err := db.GetRun(ctx, rubyID)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckBaseline(fixturesV2, ruby, nil); err != nil {
			t.Errorf("explicit Ruby baseline: CheckBaseline = %v, want compatible", err)
		}
	})
}
