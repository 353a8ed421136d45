package eval

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/show"
)

// Rules of Gate.FailOn: what makes a compared run exit 1.
const (
	FailOnFailures    = "failures"    // a calculated check failed or errored (the gem's behaviour)
	FailOnRegressions = "regressions" // a gated regression against the baseline
	FailOnBoth        = "both"        // either
)

// Gate chooses the baseline, the regression gate and the exit rule of a
// run: what evalrun run's --baseline, --gate, --tolerance, --alpha,
// --min-effect and --fail-on set. The zero value is the strict gate with
// tolerance 0 against the automatic baseline, failing on failures.
type Gate struct {
	// Mode is compare.GateStrict ("" too) or compare.GateCI.
	Mode string
	// Tolerance is the score decrease per metric and question that is not
	// a regression (0..1); it never hides a new failure or error.
	Tolerance float64
	// Alpha is the ci gate's significance level (0: compare.DefaultAlpha).
	Alpha float64
	// MinEffect is the ci gate's smallest mean drop that regresses (nil:
	// compare.DefaultMinEffect).
	MinEffect *float64
	// Baseline is the id of the run to compare with instead of the
	// automatic baseline; it must be an earlier run of the same
	// definition. It needs Store.DB.
	Baseline string
	// BaselineFrom is an evidence file whose run is the baseline instead of
	// the automatic one (the same rules as Baseline); it needs no database.
	BaselineFrom string
	// Branch restricts the automatic baseline to the runs made on this git
	// branch (their provenance's branch): the pull request's target branch
	// in CI. "" takes any branch.
	Branch string
	// IsAncestor, when set with Branch, prefers a baseline whose commit it
	// accepts (an ancestor of the checkout: at or before the merge base);
	// without one, the branch's newest run is taken.
	IsAncestor func(commit string) bool
	// MaxAge makes a report warn about a baseline that started this long
	// before the run, or longer (0: never).
	MaxAge time.Duration
	// FailOn is FailOnFailures ("" too), FailOnRegressions or FailOnBoth.
	FailOn string
	// SliceBy is the case metadata key the ci gate's slice tests group by
	// ("": failure_mode).
	SliceBy string
	// Uncalibrated names judge metrics the gate must not gate on, with
	// why (run --min-kappa): their findings are kept, never gating.
	Uncalibrated map[string]string
}

// Options are the comparison options of the gate.
func (g Gate) Options() compare.Options {
	return compare.Options{Tolerance: g.Tolerance, Gate: g.Mode, Alpha: g.Alpha, MinEffect: g.MinEffect, SliceBy: g.SliceBy}
}

// Validate reports an unknown mode or rule and numbers out of range.
func (g Gate) Validate() error {
	if err := g.Options().Validate(); err != nil {
		return err
	}
	if g.Baseline != "" && g.BaselineFrom != "" {
		return fmt.Errorf("--baseline %s and --baseline-from %s: choose one baseline", g.Baseline, g.BaselineFrom)
	}
	switch g.FailOn {
	case "", FailOnFailures, FailOnRegressions, FailOnBoth:
		return nil
	}
	return fmt.Errorf("fail on %q: want %q, %q or %q", g.FailOn, FailOnFailures, FailOnRegressions, FailOnBoth)
}

// rule is FailOn with its default.
func (g Gate) rule() string {
	if g.FailOn == "" {
		return FailOnFailures
	}
	return g.FailOn
}

// Decision is the exit code of a run and the one line that says which
// rule produced it.
type Decision struct {
	Code int
	// Line is e.g. "exit 1: 2 regressions against baseline … (--fail-on
	// regressions)" or "exit 0: no gated regression (--fail-on
	// regressions; not acted on: 1 failed, 0 errors)".
	Line string
}

// Decide applies the FailOn rule to a compared run. It is the whole exit
// rule of a comparison; Run adds what only a fresh run can say (an outage,
// a save that failed).
func (g Gate) Decide(cmp *compare.Comparison) Decision {
	rule := g.rule()
	t := cmp.Totals
	failures := fmt.Sprintf("%d failed, %s", t.Failed, show.Count(t.Errored, "error", "errors"))
	regressions := show.Count(0, "regression", "regressions")
	if cmp.Baseline != nil {
		regressions = sanitize.EscapeText(cmp.RegressionText()) + " against baseline " + cmp.Baseline.ID.String()
	}
	checksFail, regressed := cmp.ChecksFailed(), cmp.Baseline != nil && cmp.Regressed()
	var because, ignored []string
	if rule != FailOnRegressions && checksFail {
		because = append(because, failures)
	}
	if rule != FailOnFailures && regressed {
		because = append(because, regressions)
	}
	if rule == FailOnRegressions && checksFail {
		ignored = append(ignored, failures)
	}
	if rule == FailOnFailures && regressed {
		ignored = append(ignored, regressions)
	}
	flag := "--fail-on " + rule
	if len(ignored) > 0 {
		flag += "; not acted on: " + strings.Join(ignored, "; ")
	}
	if len(because) > 0 {
		return Decision{Code: ExitFailed, Line: fmt.Sprintf("exit 1: %s (%s)", strings.Join(because, "; "), flag)}
	}
	var what string
	switch rule {
	case FailOnFailures:
		what = "no failed or errored check"
	case FailOnRegressions:
		what = "no gated regression"
	default:
		what = "no failed or errored check and no gated regression"
	}
	if rule != FailOnFailures && cmp.Baseline == nil {
		what += ", no baseline to regress against"
	}
	return Decision{Code: ExitOK, Line: fmt.Sprintf("exit 0: %s (%s)", what, flag)}
}

// decide is Decide for a fresh run: an outage (every agent or every judge
// call failed from infrastructure) exits 1 whatever FailOn says, and a run
// that is not in the database exits 3 with the line saying what FailOn
// alone would have given.
func (g Gate) decide(cmp *compare.Comparison, outage, notSaved bool) Decision {
	d := g.Decide(cmp)
	if outage && d.Code == ExitOK {
		d = Decision{Code: ExitFailed, Line: "exit 1: the run failed from infrastructure (see above), whatever --fail-on says; it is never an automatic baseline"}
	}
	if notSaved {
		d = Decision{Code: ExitNotSaved, Line: "exit 3: the run was NOT saved to the database (its evidence file is named below); --fail-on alone would give " + d.Line}
	}
	return d
}
