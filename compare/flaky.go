package compare

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/show"
)

// FlakyWindow is how many earlier compatible runs FlakyQuestions looks at.
const FlakyWindow = 10

// flakyScanLimit bounds the earlier runs of the same suite and agent read
// to find FlakyWindow-1 compatible ones.
const flakyScanLimit = 40

// minFlakyFlips is the number of flips that makes a question flaky: it
// has to come back to an outcome it left. One flip (passed, passed,
// failed, failed) is a change, never flakiness.
const minFlakyFlips = 2

// Flakiness is a question's recent history at the run's own revision: its
// statuses in the last compatible runs of the same commit, oldest first,
// and how often the outcome flipped between passing and failing (failed
// or error) from one run to the next.
type Flakiness struct {
	Runs     int      `json:"runs"`
	Flips    int      `json:"flips"`
	Statuses []string `json:"statuses"`
	// Commit is the agent revision the history was measured on.
	Commit string `json:"commit,omitempty"`
}

// Text describes the history in a few words: "status flipped 2 times in
// the last 3 runs of commit 1a2b3c4d5e6f: passed, failed, passed".
func (f Flakiness) Text() string {
	at := ""
	if f.Commit != "" {
		at = " of commit " + shortCommit(f.Commit)
	}
	return fmt.Sprintf("status flipped %s in the last %d runs%s: %s", show.Count(f.Flips, "time", "times"), f.Runs, at,
		strings.Join(f.Statuses, ", "))
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// cleanCommit is the commit a run's summary records, "" when it records
// none (the gem's runs, runs outside git and CI) or when tracked files
// differed from it: then the code that ran is unknown.
func cleanCommit(run *models.Run) string {
	s, err := models.DecodeRunSummary(run.Summary)
	if err != nil || s.Provenance == nil {
		return ""
	}
	if d := s.Provenance.Dirty; d != nil && *d {
		return ""
	}
	return s.Provenance.Commit
}

// FlakyQuestions returns the questions whose outcome went back and forth
// (at least minFlakyFlips flips between passing and failing) within the
// last FlakyWindow compatible runs before run made from the same clean
// commit as run, by case id. Compatible is the baseline rule
// (CheckBaseline: same suite, agent and definition, earlier in
// (started_at, sequence) order; runs marked as infrastructure failures are
// skipped, as for automatic baselines). Only runs of the same code say
// whether a question is flaky: alternating runs of different commits are
// changes and their fixes. A run without a recorded commit (the gem's,
// one outside git, one from a dirty checkout) has no flaky questions. The
// run's own change from its baseline is not counted: that is what the gate
// judges. calculated is as for FindBaseline.
func FlakyQuestions(ctx context.Context, db *models.DB, run *models.Run, calculated []string) (map[string]Flakiness, error) {
	commit := cleanCommit(run)
	if commit == "" {
		return map[string]Flakiness{}, nil
	}
	history, err := compatibleHistory(ctx, db, run, calculated)
	if err != nil {
		return nil, fmt.Errorf("find flaky questions: %w", err)
	}
	same := history[:0:0]
	for _, h := range history {
		if cleanCommit(h) == commit {
			same = append(same, h)
		}
	}
	out := Flaky(same)
	for id, f := range out {
		f.Commit = commit
		out[id] = f
	}
	return out, nil
}

// compatibleHistory returns up to FlakyWindow runs that could be run's
// automatic baseline, oldest first: runs marked as infrastructure failures
// are skipped, since an outage's errors say nothing about the questions.
func compatibleHistory(ctx context.Context, db *models.DB, run *models.Run, calculated []string) ([]*models.Run, error) {
	if calculated == nil {
		calculated = CalculatedMetrics(run)
	}
	// The run rows first: a candidate with the run's digest shares its
	// definition and one of the same writer with another digest does not
	// (SameDefinition), so only runs of other writers with another digest
	// are loaded in full to be compared; of the rest the history needs no
	// more than each case's status.
	heads, err := db.BaselineCandidateHeaders(ctx, models.BaselineQuery{
		Suite: run.Suite, Agent: run.Agent, Before: models.Cursor{StartedAt: startOf(run), Sequence: run.Sequence},
		Limit: flakyScanLimit,
	})
	if err != nil {
		return nil, err
	}
	writer := WriterOf(run)
	var out []*models.Run
	var byStatus []uuid.UUID // the runs of out whose cases are still to read
	for _, c := range heads {
		if len(out) == FlakyWindow {
			break
		}
		if c.ID == run.ID || InfrastructureFailure(c) {
			continue
		}
		header := c.SuiteDigest == run.SuiteDigest || (writer != "" && WriterOf(c) == writer)
		if !header {
			if c, err = loadRun(ctx, db, c.ID); err != nil {
				return nil, err
			}
			if c == nil {
				continue
			}
		}
		if CheckBaseline(run, c, calculated) != nil {
			continue
		}
		if header {
			byStatus = append(byStatus, c.ID)
		}
		out = append(out, c)
	}
	statuses, needMetrics, err := db.CaseStatuses(ctx, byStatus)
	if err != nil {
		return nil, err
	}
	for i, c := range out {
		switch {
		case needMetrics[c.ID]: // a status only the metric rows resolve
			full, err := loadRun(ctx, db, c.ID)
			if err != nil {
				return nil, err
			}
			if full != nil {
				out[i] = full
			}
		case slices.Contains(byStatus, c.ID):
			c.Cases = statuses[c.ID]
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// loadRun reads one run with its cases and metrics; nil when it is gone.
func loadRun(ctx context.Context, db *models.DB, id uuid.UUID) (*models.Run, error) {
	runs, err := db.GetRuns(ctx, []uuid.UUID{id})
	if err != nil || len(runs) == 0 {
		return nil, err
	}
	return runs[0], nil
}

// Flaky reads runs of one revision (oldest first) and returns the
// questions whose outcome flipped between passing and failing (failed or
// error) from one run to the next at least minFlakyFlips times;
// not_evaluated statuses are skipped, as they say nothing about the
// outcome.
func Flaky(runs []*models.Run) map[string]Flakiness {
	type hist struct {
		statuses []string
		flips    int
		last     string
	}
	hs := map[string]*hist{}
	for _, r := range runs {
		for _, c := range r.Cases {
			h := hs[c.CaseID]
			if h == nil {
				h = &hist{}
				hs[c.CaseID] = h
			}
			st := CaseStatus(c)
			h.statuses = append(h.statuses, st)
			outcome := ""
			switch st {
			case models.StatusPassed:
				outcome = "pass"
			case models.StatusFailed, models.StatusError:
				outcome = "fail"
			default:
				continue
			}
			if h.last != "" && h.last != outcome {
				h.flips++
			}
			h.last = outcome
		}
	}
	out := map[string]Flakiness{}
	for id, h := range hs {
		if h.flips >= minFlakyFlips {
			out[id] = Flakiness{Runs: len(h.statuses), Flips: h.flips, Statuses: h.statuses}
		}
	}
	return out
}
