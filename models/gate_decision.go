package models

import "time"

// GateDecisionKey is the summary key of RunSummary.Gate.
const GateDecisionKey = "gate"

// InterruptedKey is the summary key of RunSummary.Interrupted, for
// queries: a run whose summary holds it is never an automatic baseline.
const InterruptedKey = "interrupted"

// GateDecision is the summary's "gate": the decision evalrun made when the
// run was made, so that every later view (report, history, the dashboard,
// evaltest) shows the same gate, baseline and exit instead of comparing
// again under other rules. A run with none (the gem's, an older run, a run
// kept in an evidence file without a baseline) is compared as before.
type GateDecision struct {
	// Fields are in the order of their keys, which are written sorted.

	// Alpha, MinEffect, Mode, SliceBy and Tolerance are the gate (strict
	// or ci) and its options, as given.
	Alpha float64 `json:"alpha,omitempty"`
	// Baseline is the run compared with; nil when there was none.
	Baseline *GateBaseline `json:"baseline"`
	// Line is the sentence that says which rule produced Exit.
	Line string `json:"decision"`
	// Exit is the gate's exit code (0 or 1).
	Exit int `json:"exit"`
	// FailOn is the exit rule: failures, regressions or both.
	FailOn string `json:"fail_on"`
	// Findings are the findings that gated (empty when none did).
	Findings []GateFinding `json:"findings"`
	// Flaky are the questions the decision marked flaky, as it measured
	// them; later views show these marks instead of measuring again.
	Flaky     []GateFlaky `json:"flaky,omitempty"`
	MinEffect *float64    `json:"min_effect,omitempty"`
	Mode      string      `json:"mode"`
	// NoBaseline says why there was none, when known.
	NoBaseline string  `json:"no_baseline,omitempty"`
	SliceBy    string  `json:"slice_by,omitempty"`
	Tolerance  float64 `json:"tolerance"`
	// Ungated names judge metrics the gate did not gate on, with why
	// (an uncalibrated judge).
	Ungated map[string]string `json:"ungated,omitempty"`
}

// Baseline sources: how a run's baseline was chosen.
const (
	BaselineAutomatic = "automatic"       // the newest earlier compatible run
	BaselineBranch    = "branch"          // the newest compatible run of a target branch
	BaselineFlag      = "--baseline"      // named by the user
	BaselineFile      = "--baseline-from" // an evidence file
)

// GateBaseline is the baseline of a recorded decision: which run, how it
// was chosen and where it was made.
type GateBaseline struct {
	// Ancestor is true when the baseline's commit is an ancestor of the
	// run's checkout: at or before the merge base of a pull request.
	Ancestor bool `json:"ancestor,omitempty"`
	// Branch and Commit are where the baseline was made, from its
	// provenance ("" when it recorded none).
	Branch string `json:"branch,omitempty"`
	Commit string `json:"commit,omitempty"`
	// File is the evidence file it was read from (Source --baseline-from).
	File  string `json:"file,omitempty"`
	RunID string `json:"run_id"`
	// Source is one of the Baseline* constants.
	Source    string    `json:"source"`
	StartedAt time.Time `json:"started_at"`
	// Target is the branch the baseline was looked for on (Source branch).
	Target string `json:"target,omitempty"`
	// Warnings say what makes the baseline doubtful: another branch than
	// the run's target, an old run.
	Warnings []string `json:"warnings,omitempty"`
}

// GateFinding is one finding that gated, as the decision recorded it.
type GateFinding struct {
	CaseID  string `json:"case_id,omitempty"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Metric  string `json:"metric,omitempty"`
	Slice   string `json:"slice,omitempty"`
}

// GateFlaky is one question a decision marked flaky: its outcome went back
// and forth in the last Runs runs of one commit.
type GateFlaky struct {
	CaseID string `json:"case_id"`
	// Commit is the agent revision the history was measured on.
	Commit   string   `json:"commit,omitempty"`
	Flips    int      `json:"flips"`
	Runs     int      `json:"runs"`
	Statuses []string `json:"statuses"`
}

// Interrupted is the summary's "interrupted": the run was stopped by a
// signal and holds only the cases that finished. It is never an automatic
// baseline.
type Interrupted struct {
	// Finished and Planned count the cases.
	Finished int `json:"finished"`
	Planned  int `json:"planned"`
	// Signal names what stopped it ("interrupt", "terminated").
	Signal string `json:"signal"`
}
