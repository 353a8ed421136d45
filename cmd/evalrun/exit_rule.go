package main

import (
	"fmt"
	"strings"

	"agentevals/compare"
	"agentevals/sanitize"
)

// Values of --fail-on.
const (
	failOnFailures    = "failures"
	failOnRegressions = "regressions"
	failOnBoth        = "both"
)

// exitRule decides the exit code of a compared run under the --fail-on
// rule and says why in one line, e.g. "exit 1: 2 regressions (--fail-on
// regressions)" or "exit 0: no gated regression (--fail-on regressions; not
// acted on: 1 failed, 0 errors)".
func exitRule(cmp *compare.Comparison, rule string) (code int, line string) {
	t := cmp.Totals
	failures := fmt.Sprintf("%d failed, %s", t.Failed, compare.Plural(t.Errored, "error", "errors"))
	gating := 0
	if cmp.Baseline != nil {
		gating = cmp.GatingCount()
	}
	regressions := compare.Plural(gating, "regression", "regressions")
	if cmp.Baseline != nil {
		regressions += " against baseline " + cmp.Baseline.ID.String()
	}
	checksFail, regressed := cmp.ChecksFailed(), gating > 0
	var because, ignored []string
	if rule != failOnRegressions && checksFail {
		because = append(because, failures)
	}
	if rule != failOnFailures && regressed {
		because = append(because, regressions)
	}
	if rule == failOnRegressions && checksFail {
		ignored = append(ignored, failures)
	}
	if rule == failOnFailures && regressed {
		ignored = append(ignored, regressions)
	}
	flag := "--fail-on " + rule
	if len(ignored) > 0 {
		flag += "; not acted on: " + strings.Join(ignored, "; ")
	}
	if len(because) > 0 {
		return exitFailed, fmt.Sprintf("exit 1: %s (%s)", strings.Join(because, "; "), flag)
	}
	var what string
	switch rule {
	case failOnFailures:
		what = "no failed or errored check"
	case failOnRegressions:
		what = "no gated regression"
	default:
		what = "no failed or errored check and no gated regression"
	}
	if rule != failOnFailures && cmp.Baseline == nil {
		what += ", no baseline to regress against"
	}
	return exitOK, fmt.Sprintf("exit 0: %s (%s)", what, flag)
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
