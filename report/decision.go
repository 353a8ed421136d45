package report

import (
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// DecisionLine says in one line the decision recorded when a run was made:
// the gate and exit rule, the exit and the baseline ("gate ci, --fail-on
// regressions: exit 0 against baseline 0190… (--baseline)").
func DecisionLine(d *models.GateDecision) string {
	if d == nil {
		return ""
	}
	against := "no baseline"
	if b := d.Baseline; b != nil {
		against = "baseline " + b.RunID + " (" + sourceWords(b) + ")"
	}
	return fmt.Sprintf("gate %s, --fail-on %s: exit %d against %s; recorded when the run was made", d.Mode, d.FailOn, d.Exit, against)
}

// BaselineOriginLine says how a baseline was chosen and where it was made
// ("automatic, newest compatible run of target branch main; made on main
// at 1a2b3c4d5e6f"); "" for nil.
func BaselineOriginLine(b *models.GateBaseline) string {
	if b == nil {
		return ""
	}
	parts := []string{sourceWords(b)}
	switch {
	case b.Branch != "" && b.Commit != "":
		parts = append(parts, "made on "+b.Branch+" at "+short(b.Commit))
	case b.Branch != "":
		parts = append(parts, "made on "+b.Branch+" (commit not recorded)")
	case b.Commit != "":
		parts = append(parts, "made at commit "+short(b.Commit)+" (branch not recorded)")
	default:
		parts = append(parts, "branch and commit not recorded")
	}
	return strings.Join(parts, "; ")
}

// sourceWords names how a baseline was chosen.
func sourceWords(b *models.GateBaseline) string {
	switch b.Source {
	case models.BaselineBranch:
		if b.Ancestor {
			return "automatic: newest compatible run of target branch " + b.Target + " at or before the merge base"
		}
		return "automatic: newest compatible run of target branch " + b.Target
	case models.BaselineFlag:
		return "chosen with --baseline"
	case models.BaselineFile:
		return "read with --baseline-from " + b.File
	}
	return "automatic: newest earlier compatible run"
}

// short is a commit cut to 12 characters.
func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
