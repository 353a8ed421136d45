package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
)

// render shows a run of run: its table, what it did not check, an outage,
// the notes of the pipeline, the comparison (database is false when none
// was opened) and the reports written.
func (c *RunCmd) render(g *Globals, res *eval.Result, database bool) {
	writeRunTable(g.Stdout, res.Run, where(res.Evidence, "not saved (--no-save: dry run)"), styleFor(g.Stdout, os.Getenv))
	writeCoverageWarnings(g.Stderr, res.Run)
	writeReplyWarnings(g.Stderr, res.Run)
	writeInfrastructureFailure(g.Stderr, res.Outage)
	for _, n := range res.Notes {
		fmt.Fprintf(g.Stderr, "note: %s\n", sanitize.EscapeText(n))
	}
	if database || c.BaselineFrom != "" {
		writeGateSummary(g.Stdout, res.Comparison, c.noBaselineWhy(res))
		writeBaselineElsewhere(g.Stdout, res.Run, res.Baseline)
	} else {
		fmt.Fprintln(g.Stdout, "Baseline: not looked up (--save-to and --no-save open no database); thresholds only")
	}
	writeReports(g.Stdout, res.Reports)
}

// noBaselineWhy says why the run has no automatic baseline, for the
// summary's "Baseline: none (…)" line: "" for the first run of a
// definition.
func (c *RunCmd) noBaselineWhy(res *eval.Result) string {
	switch {
	case res.Baseline != nil || c.Baseline != "":
		return ""
	case len(c.Only) > 0 || len(c.Tag) > 0 || c.FailedIn != "":
		return "--only runs a subset, which is its own definition; no earlier run of this subset"
	}
	return res.NoBaseline
}

// writeReports says which reports were written, and prints the GitHub
// annotations where --report github asked for them.
func writeReports(w io.Writer, written []eval.Written) {
	for _, r := range written {
		if r.Path == "" {
			w.Write(r.Annotations)
			continue
		}
		fmt.Fprintf(w, "Wrote %s report to %s\n", r.Format, sanitize.EscapeText(r.Path))
	}
}

// writeInfrastructureFailure says when the run is marked as failed from
// infrastructure (every agent call or every judge call failed: connection
// refused, DNS, timeouts; lines say which), so that run exits 1.
func writeInfrastructureFailure(w io.Writer, lines []string) {
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(w, "evalrun: this run failed from infrastructure, not from the agent's answers:")
	for _, l := range lines {
		fmt.Fprintf(w, "  %s\n", sanitize.EscapeText(l))
	}
	fmt.Fprintln(w, "It is saved as evidence and marked \""+models.InfrastructureFailureKey+"\" in its summary: "+
		"an automatic baseline never uses it (pass --baseline RUN_ID to compare with it anyway). Exit 1.")
}

// strictJudgeNotice is the one note run prints when the strict gate
// compares judge metrics ("" otherwise): judge noise alone regresses most
// runs under strict, and --gate ci is made for it.
func strictJudgeNotice(cmp *compare.Comparison) string {
	if cmp.Baseline == nil || cmp.Options.Gate != compare.GateStrict {
		return ""
	}
	var judged []string
	for _, m := range cmp.Metrics {
		if m.Test != nil && m.Test.Judged && m.Test.Drop.N > 0 {
			judged = append(judged, sanitize.EscapeText(m.Name))
		}
	}
	if len(judged) == 0 {
		return ""
	}
	return fmt.Sprintf("note: the strict gate (the Ruby gem's rule) regresses on every per-question drop of the judge metrics %s, "+
		"so judge noise alone regresses most runs; for judged suites use --gate ci (paired tests; see evalrun run --help)",
		strings.Join(judged, ", "))
}
