package report

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"agentevals/compare"
	"agentevals/models"
)

// TestFlakyQuestions reads the compatible history of a run from the
// database: a question that passed and failed in the last FlakyWindow
// earlier runs is flaky, one whose only flip is older than the window or
// in an incompatible run (another agent) is not, and the run's own change
// is never counted.
func TestFlakyQuestions(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		save := func(i int, a string, wobbly, old, recent float64) *models.Run {
			r := buildRun(fmt.Sprintf("01900000-0000-7000-8000-%012d", 500+i), 0, t0.Add(time.Duration(i)*time.Minute),
				cdef{id: "wobbly", metrics: []mdef{metric("exact", 1, sc(wobbly))}},
				cdef{id: "old", metrics: []mdef{metric("exact", 1, sc(old))}},
				cdef{id: "recent", metrics: []mdef{metric("exact", 1, sc(recent))}})
			r.Agent = a
			return saveRun(t, db, r)
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

// TestFlakyQuestions_SkipsInfrastructureFailures: a run marked as an
// infrastructure failure (every judge call failed) says nothing about the
// questions, so its errors are no flips: otherwise one outage would make
// every question "flaky", and under the ci gate none would gate one by one
// for the next FlakyWindow runs.
func TestFlakyQuestions_SkipsInfrastructureFailures(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		save := func(i int, score *float64, outage bool) *models.Run {
			m := metric("exact", 1, score)
			if outage {
				m.err = "unreachable"
			}
			r := buildRun(fmt.Sprintf("01900000-0000-7000-8000-%012d", 600+i), 0, t0.Add(time.Duration(i)*time.Minute),
				cdef{id: "steady", metrics: []mdef{m}})
			if outage {
				r.Summary = models.JSON(`{"` + models.InfrastructureFailureKey + `":{"judge":"unreachable (1 of 1 calls)"}}`)
			}
			return saveRun(t, db, r)
		}
		save(0, sc(1), false)
		save(1, nil, true)
		save(2, sc(1), false)
		run := save(3, sc(1), false)
		got, err := compare.FlakyQuestions(ctx, db, run, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 0 {
			t.Fatalf("flaky = %+v, want none: the only errors are an infrastructure failure's", got)
		}
	})
}

// TestFlakyQuestions_ReadsOnlyWhatDecides: the history reads full runs
// only where the definition has to be compared row by row (a run of
// another writer with another digest, here the gem's) or where a status
// has to be derived from the metric rows (a status the runner does not
// write); a run of the same writer with another digest is another
// definition and stays out.
func TestFlakyQuestions_ReadsOnlyWhatDecides(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		goWriter := models.JSON(`{"writer":"` + models.GoWriter + `"}`)
		save := func(i int, score float64, digest string, summary models.JSON, status string) *models.Run {
			r := buildRun(fmt.Sprintf("01900000-0000-7000-8000-%012d", 700+i), 0, t0.Add(time.Duration(i)*time.Minute),
				cdef{id: "q", metrics: []mdef{metric("exact", 1, sc(score))}})
			r.SuiteDigest, r.Summary = digest, summary
			if status != "" {
				r.Cases[0].Status = status
			}
			return saveRun(t, db, r)
		}
		save(0, 1, "digest-1", goWriter, "")            // passed
		save(1, 0, "gem-digest", models.JSON(`{}`), "") // the gem's: the same definition, failed
		save(2, 1, "digest-2", goWriter, "")            // another definition: not history
		save(3, 1, "digest-1", goWriter, "pending")     // passed, by its metric rows
		run := save(4, 1, "digest-1", goWriter, "")
		got, err := compare.FlakyQuestions(ctx, db, run, nil)
		if err != nil {
			t.Fatal(err)
		}
		q, ok := got["q"]
		want := []string{models.StatusPassed, models.StatusFailed, models.StatusPassed}
		if !ok || q.Runs != 3 || q.Flips != 2 || !slices.Equal(q.Statuses, want) {
			t.Fatalf("flaky = %+v, want q with statuses %v and 2 flips", got, want)
		}
	})
}
