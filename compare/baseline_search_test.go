package compare

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

// rubyShaped is a run as another implementation writes it: a summary
// without our writer marker and a digest of its own.
func rubyShaped(started time.Time, mutate func(r *models.Run)) *models.Run {
	r := returnsRun(uuid.NewString(), started, "ruby-sha256-"+uuid.NewString()[:8], `{"score":0.97}`)
	if mutate != nil {
		mutate(r)
	}
	return r
}

// TestFindBaseline_NoSilentLimit hides the equivalent Ruby run behind
// 2,000 newer runs that are not equivalent, in every way the search
// filters (Go runs of another digest, other versions, other case ids,
// other thresholds that only an exact comparison catches): it is still
// the baseline.
func TestFindBaseline_NoSilentLimit(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		want := runfixture.SaveRun(t, db, rubyShaped(runfixture.T0, nil))
		marked := `{"writer":"` + goWriter + `"}`
		for i := range 2000 {
			at := runfixture.T0.Add(time.Duration(i+1) * time.Second)
			var r *models.Run
			switch i % 4 {
			case 0: // a Go run of another definition
				r = returnsRun(uuid.NewString(), at, fmt.Sprintf("go-old-%d", i), marked)
			case 1:
				r = rubyShaped(at, func(r *models.Run) { r.Version = "2" })
			case 2:
				r = rubyShaped(at, func(r *models.Run) { r.Cases[0].CaseID = "returns-policy" })
			case 3:
				r = rubyShaped(at, func(r *models.Run) { r.Cases[0].MinimumScores = models.JSON(`{"semantic_accuracy":0.8}`) })
			}
			runfixture.SaveRun(t, db, r)
		}
		run := returnsRun(uuid.NewString(), runfixture.T0.Add(time.Hour), "go-new", marked)
		got, err := FindBaseline(ctx, db, run, nil)
		if err != nil {
			t.Fatal(err)
		}
		if runfixture.IDOf(got) != want.ID.String() {
			t.Fatalf("baseline behind 2,000 newer runs = %s, want the equivalent Ruby run %s", runfixture.IDOf(got), want.ID)
		}
	})
}

// TestFindBaseline_SkipsInfrastructureFailures: a run whose summary
// records an infrastructure failure (evalrun's mark, an object under
// infrastructure_failure) is never an automatic baseline, whether it has
// the same digest or an equivalent definition; a null key does not count,
// nor does another value a Ruby app wrote there (false, or a string).
func TestFindBaseline_SkipsInfrastructureFailures(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		marked := `{"writer":"` + goWriter + `"}`
		good := runfixture.SaveRun(t, db, returnsRun(uuid.NewString(), runfixture.T0, "go-1", `{"writer":"`+goWriter+`","infrastructure_failure":null}`))
		runfixture.SaveRun(t, db, returnsRun(uuid.NewString(), runfixture.T0.Add(time.Minute), "go-1",
			`{"writer":"`+goWriter+`","infrastructure_failure":{"reason":"judge provider unreachable"}}`))
		run := returnsRun(uuid.NewString(), runfixture.T0.Add(time.Hour), "go-1", marked)
		got, err := FindBaseline(ctx, db, run, nil)
		if err != nil {
			t.Fatal(err)
		}
		if runfixture.IDOf(got) != good.ID.String() {
			t.Fatalf("baseline = %s, want %s (the newer run records an infrastructure failure)", runfixture.IDOf(got), good.ID)
		}
		for i, value := range []string{"false", `"database timeout"`} {
			ruby := runfixture.SaveRun(t, db, rubyShaped(runfixture.T0.Add(time.Duration(2+i)*time.Minute), func(r *models.Run) {
				r.Summary = models.JSON(`{"infrastructure_failure":` + value + `}`)
			}))
			if InfrastructureFailure(ruby) {
				t.Errorf("infrastructure_failure %s counts as an outage", value)
			}
			got, err := FindBaseline(ctx, db, run, nil)
			if err != nil {
				t.Fatal(err)
			}
			if runfixture.IDOf(got) != ruby.ID.String() {
				t.Errorf("infrastructure_failure %s: baseline = %s, want that Ruby run %s", value, runfixture.IDOf(got), ruby.ID)
			}
		}
	})
}

// TestJSONEqual_ExactNumbers: definition columns compare numbers by exact
// decimal value, never through float64.
func TestJSONEqual_ExactNumbers(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`{"semantic_accuracy": 1.0}`, `{"semantic_accuracy":1}`, true},
		{`[100]`, `[1e2]`, true},
		{`0.1`, `0.10`, true},
		{`{"id": 12345678901234567890}`, `{"id": 12345678901234567891}`, false},
		{`0.1000000000000000001`, `0.1`, false},
		{`{"a": [1, {"b": "x"}]}`, `{"a": [1, {"b": "x"}]}`, true},
		{`"1"`, `1`, false},
		{`1e999999999`, `1e999999999`, true},
		{`1e999999999`, `1e999999998`, false},
	}
	for _, tt := range tests {
		got, err := JSONEqual(models.JSON(tt.a), models.JSON(tt.b), false)
		if err != nil || got != tt.want {
			t.Errorf("jsonEqual(%s, %s) = %v, %v; want %v", tt.a, tt.b, got, err, tt.want)
		}
	}
}
