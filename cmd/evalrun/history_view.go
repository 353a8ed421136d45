package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/sanitize"
)

// historyRow is one run of history, as printed and as --json writes it.
// Totals are computed from the rows. For a run with a recorded decision,
// Change and Regressions compare it with the baseline that decision used,
// and Gate is the decision; otherwise they compare it with its automatic
// baseline (strict gate, tolerance 0), nil when it has none.
type historyRow struct {
	ID        uuid.UUID `json:"id"`
	StartedAt string    `json:"started_at"`
	Suite     string    `json:"suite"`
	Agent     string    `json:"agent"`
	Version   string    `json:"version"`
	// Outcome is passed, failed, error or not_evaluated: how the run's
	// own checks went.
	Outcome      string             `json:"outcome"`
	Questions    int                `json:"questions"`
	Passed       int                `json:"passed"`
	Quality      *float64           `json:"quality"`
	Outage       bool               `json:"infrastructure_failure"`
	Interrupted  bool               `json:"interrupted"`
	BaselineID   *string            `json:"baseline_id"`
	Change       *float64           `json:"quality_change"`
	Regressions  *int               `json:"regressed_questions"`
	Gate         *historyGate       `json:"gate"`
	Revision     string             `json:"revision,omitempty"`
	Provenance   *models.Provenance `json:"provenance"`
	Metadata     json.RawMessage    `json:"metadata"`
	metadataCell string
}

// historyRows builds the rows of runs (newest first) with their cases,
// finding each run's baseline.
func historyRows(ctx context.Context, db *models.DB, runs []*models.Run, cases map[uuid.UUID][]*models.CaseResult) ([]historyRow, error) {
	rows := make([]historyRow, 0, len(runs))
	for _, r := range runs {
		r.Cases = cases[r.ID]
		t := models.TotalsOf(r.Cases)
		row := historyRow{ID: r.ID, StartedAt: r.StartedAt.UTC().Format("2006-01-02 15:04:05"),
			Suite: r.Suite, Agent: r.Agent, Version: r.Version, Outcome: outcomeOf(t),
			Questions: t.Cases, Passed: t.Passed, Quality: t.Quality, Outage: compare.InfrastructureFailure(r),
			Revision: report.Revision(r), Provenance: report.ProvenanceOf(r), Metadata: json.RawMessage(r.Metadata),
			metadataCell: metadataCell(r.Metadata)}
		if s, err := models.DecodeRunSummary(r.Summary); err == nil {
			row.Interrupted = s.Interrupted != nil
		}
		if r.Metadata.IsNull() {
			row.Metadata = json.RawMessage("{}")
		}
		base, err := historyBaseline(ctx, db, r, &row)
		if err != nil {
			return nil, fmt.Errorf("history: baseline of run %s: %w", r.ID, err)
		}
		if base != nil && row.Gate == nil {
			id := base.ID.String()
			cmp := compare.Compare(r, base, compare.Options{Resamples: 1})
			n := len(cmp.RegressionsByQuestion())
			row.BaselineID, row.Regressions = &id, &n
		}
		if base != nil {
			if bq := models.TotalsOf(base.Cases).Quality; bq != nil && t.Quality != nil {
				d := *t.Quality - *bq
				row.Change = &d
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// historyGate is a run's recorded decision as history shows it.
type historyGate struct {
	Mode   string `json:"mode"`
	FailOn string `json:"fail_on"`
	Exit   int    `json:"exit"`
	// BaselineSource says how the baseline was chosen (automatic, branch,
	// --baseline, --baseline-from; "" without one).
	BaselineSource string `json:"baseline_source,omitempty"`
	Decision       string `json:"decision"`
}

// historyBaseline is the baseline a history row compares with: the one
// of the run's recorded decision (its Gate, Regressions and BaselineID
// are set from the decision), else the automatic one.
func historyBaseline(ctx context.Context, db *models.DB, r *models.Run, row *historyRow) (*models.Run, error) {
	d := compare.RecordedDecision(r)
	if d == nil {
		return compare.FindBaseline(ctx, db, r, nil)
	}
	row.Gate = &historyGate{Mode: d.Mode, FailOn: d.FailOn, Exit: d.Exit, Decision: d.Line}
	if d.Baseline == nil {
		return nil, nil
	}
	gated := map[[2]string]bool{} // a question, else a slice or a metric, counted once
	for _, f := range d.Findings {
		if f.CaseID != "" {
			gated[[2]string{f.CaseID}] = true
		} else {
			gated[[2]string{f.Slice, f.Metric}] = true
		}
	}
	n := len(gated)
	row.Regressions = &n
	row.Gate.BaselineSource = d.Baseline.Source
	id := d.Baseline.RunID
	row.BaselineID = &id
	return compare.RecordedBaseline(ctx, db, d)
}

// outcomeOf names how a run's own checks went.
func outcomeOf(t models.Totals) string {
	switch {
	case t.Errored > 0:
		return models.StatusError
	case t.Failed > 0:
		return models.StatusFailed
	case t.Cases == t.NotEvaluated:
		return models.StatusNotEvaluated
	}
	return models.StatusPassed
}

// writeHistoryRows prints the rows as a table: OUTCOME, PASSED
// (passed/all questions, "outage" for a run marked infrastructure_failure
// and "interrupted" for one stopped by a signal, never automatic
// baselines), QUALITY ("-" when no question was evaluated), CHANGE
// (quality against the run's baseline, "-" without one), REGRESSED
// (questions that regressed against it), GATE (the recorded decision's
// exit and gate), SOURCE (branch and commit it was made from).
func writeHistoryRows(w io.Writer, rows []historyRow) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STARTED (UTC)\tSUITE\tAGENT\tVERSION\tOUTCOME\tPASSED\tQUALITY\tCHANGE\tREGRESSED\tGATE\tRUN\tSOURCE\tMETADATA")
	for _, r := range rows {
		passed := fmt.Sprintf("%d/%d", r.Passed, r.Questions)
		if r.Outage {
			passed += " outage"
		}
		if r.Interrupted {
			passed += " interrupted"
		}
		change, regressed := "-", "-"
		if r.Change != nil {
			change = fmt.Sprintf("%+.3f", *r.Change)
		}
		if r.Regressions != nil {
			regressed = fmt.Sprint(*r.Regressions)
		}
		gate := "-"
		if r.Gate != nil {
			gate = fmt.Sprintf("exit %d %s", r.Gate.Exit, r.Gate.Mode)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.StartedAt,
			clip(sanitize.EscapeText(r.Suite), 30), clip(sanitize.EscapeText(r.Agent), 24), clip(sanitize.EscapeText(r.Version), 12),
			r.Outcome, passed, fmtScore(r.Quality), change, regressed, gate, r.ID, sourceCell(r.Provenance), r.metadataCell)
	}
	tw.Flush()
}

// sourceCell is history's SOURCE column: "branch@commit12" with "-dirty"
// when tracked files had changes, "-" when nothing was recorded.
func sourceCell(p *models.Provenance) string {
	if p == nil || (p.Commit == "" && p.Branch == "") {
		return "-"
	}
	commit := p.Commit
	if len(commit) > 12 {
		commit = commit[:12]
	}
	if p.Dirty != nil && *p.Dirty {
		commit += "-dirty"
	}
	s := commit
	if p.Branch != "" {
		s = p.Branch + "@" + commit
	}
	return clip(sanitize.EscapeText(s), 40)
}

// writeHistoryJSON writes the rows as a JSON array (strings as stored,
// which the sanitizer passed when they were saved; the encoder escapes
// control characters).
func writeHistoryJSON(w io.Writer, rows []historyRow) error {
	if rows == nil {
		rows = []historyRow{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rows)
}
