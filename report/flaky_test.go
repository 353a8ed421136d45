package report

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

// TestFlakyQuestions reads the compatible history of a run from the
// database: a question that passed and failed in the last FlakyWindow
// earlier runs of the same commit is flaky, one whose only flip is older than the window or
// in an incompatible run (another agent) is not, and the run's own change
// is never counted. Every report format then marks the flaky question, so
// the test lives here, not in compare.
func TestFlakyQuestions(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		save := func(i int, a string, wobbly, old, recent float64) *models.Run {
			r := runfixture.Build(fmt.Sprintf("01900000-0000-7000-8000-%012d", 500+i), 0, runfixture.T0.Add(time.Duration(i)*time.Minute),
				runfixture.Case{ID: "wobbly", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(wobbly))}},
				runfixture.Case{ID: "old", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(old))}},
				runfixture.Case{ID: "recent", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(recent))}})
			r.Agent = a
			// One clean commit: flakiness is measured at the same revision.
			r.Summary = models.JSON(`{"provenance":{"commit":"c0ffee","dirty":false}}`)
			return runfixture.SaveRun(t, db, r)
		}
		// Run 0: "old" fails once, then passes in the 12 runs after it, so
		// its flip leaves the window of the last 10.
		save(0, "SupportAgent", 1, 0, 1)
		for i := 1; i <= 12; i++ {
			wobbly := 1.0
			if i == 8 {
				wobbly = 0
			}
			save(i, "SupportAgent", wobbly, 1, 1)
		}
		save(13, "OtherAgent", 1, 1, 0)          // incompatible: another agent
		run := save(14, "SupportAgent", 1, 1, 0) // "recent" newly fails in the run itself
		got, err := compare.FlakyQuestions(ctx, db, run, nil)
		if err != nil {
			t.Fatal(err)
		}
		w, ok := got["wobbly"]
		if len(got) != 1 || !ok {
			t.Fatalf("flaky = %+v, want only wobbly", got)
		}
		if w.Runs != compare.FlakyWindow || w.Flips != 2 || w.Statuses[5] != models.StatusFailed {
			t.Fatalf("wobbly = %+v, want %d runs, 2 flips, failed in the 6th", w, compare.FlakyWindow)
		}

		cmp := compare.Compare(run, nil, compare.Options{Flaky: got})
		var b bytes.Buffer
		if err := renderGitHub(&b, cmp); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "::notice title=Customer support / SupportAgent%3A flaky questions::1 question flipped") {
			t.Fatalf("GitHub output lacks the flaky notice:\n%s", b.String())
		}
		for _, f := range []Format{FormatText, FormatMarkdown, FormatHTML, FormatJSON, FormatJUnit} {
			out, err := mustRenderer(t).Bytes(f, cmp)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(out, []byte("flaky")) {
				t.Errorf("%s report does not mark the flaky question", f)
			}
		}
	})
}
