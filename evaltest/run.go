package evaltest

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/provenance"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// Result is what one Run ran.
type Result struct {
	// Run is the run record (saved or not), its cases in suite order; nil
	// when no question was selected or the suite could not be run.
	Run *models.Run
	// Comparison is the saved Run compared with its baseline under the
	// gate (ci unless Gate or EVALTEST_GATE says otherwise); nil when
	// nothing was saved (there is no history to compare with).
	Comparison *compare.Comparison
	// Saved says the run was written to the database (EVALTEST_DATABASE_URL
	// or SaveTo).
	Saved bool
	// Decision is what evalrun run would exit with under the same gate and
	// fail-on rule, with the line saying why.
	Decision eval.Decision
}

// outcomes hands the results of the run to the question subtests, which
// resume only after the test function that called Run returns.
type outcomes struct {
	mu       sync.Mutex
	selected []string
	cases    map[string]*models.CaseResult
	findings map[string][]compare.Finding
	notEval  string // why judge metrics were not evaluated
	mode     string // the gate: compare.GateStrict or compare.GateCI
	checks   bool   // failed checks fail (fail-on failures or both)
	gate     bool   // gating regressions fail (fail-on regressions or both)
	failure  string // why nothing ran ("" when the run finished)
	path     string // the suite file, to locate failed questions in
}

// Run evaluates agent on the suite file at path: one parallel subtest per
// question, named by the question's id, that fails when one of the
// question's checks fails or errors or the agent call fails, and logs
// every metric's score, threshold and reason. A question none of whose
// metrics could be calculated is skipped with the reason.
//
// agent is the Go agent under test (agent.Func adapts a function); it must
// make its HTTP requests with agent.HTTPClient(ctx), through which the
// suite's api_interactions are replayed strictly, as by evalrun. A nil
// agent runs the suite's own agent section (a command, worker, http or llm
// agent).
//
// Only the questions that -run and -skip select are asked; the subtests
// report after the calling test function returns. A suite that cannot be
// loaded or run fails t at once. See the package documentation for judges,
// saving and the regression gate.
func Run(t *testing.T, path string, a agent.Agent, opts ...Option) *Result {
	t.Helper()
	cfg, err := newConfig(opts)
	if err != nil {
		t.Fatalf("evaltest.Run: %v", err)
	}
	s, err := suite.Load(path)
	if err != nil {
		t.Fatalf("evaltest.Run: %s", sanitize.StripControl(err.Error(), true))
	}
	out := &outcomes{path: path, failure: "the suite could not be run (see " + t.Name() + ")"}
	for _, c := range s.Cases {
		t.Run(c.ID, func(st *testing.T) {
			st.Helper() // log lines point at the call of Run in the test file
			out.mu.Lock()
			out.selected = append(out.selected, c.ID)
			out.mu.Unlock()
			st.Parallel()
			out.report(st, c.ID)
		})
	}
	if len(out.selected) == 0 {
		return &Result{}
	}
	res, err := execute(t, cfg, s, a, out)
	if err != nil {
		out.failure = "not run: " + err.Error()
		t.Fatalf("evaltest.Run: %s", sanitize.StripControl(err.Error(), true))
	}
	out.failure = ""
	return res
}

// execute runs the selected questions with eval.Run, as evalrun run does:
// judge, baseline lookup before any agent call, execution, save, compare.
// It fills out for the subtests and reports the run-level findings on t.
func execute(t *testing.T, cfg *config, s *suite.Suite, ag agent.Agent, out *outcomes) (*Result, error) {
	t.Helper()
	ctx := t.Context()
	if len(out.selected) < len(s.Cases) {
		var err error
		if s, err = s.Only(out.selected); err != nil {
			return nil, err
		}
	}
	// As evalrun, build the judge only when a metric or a scenario's
	// simulated user needs one, so a suite of deterministic checks runs
	// without the provider's credential.
	var judge score.Judge
	var why string
	if s.NeedsJudge() || s.NeedsSimulator() {
		var err error
		if judge, why, err = cfg.resolveJudge(s.Judge, testing.Short()); err != nil {
			return nil, fmt.Errorf("%w (to run without the judge: go test -short, or %s=1)", err, envNoJudge)
		}
	}
	gate := cfg.effectiveGate()
	db, err := cfg.openStore(ctx)
	if err != nil {
		return nil, err
	}
	if db != nil {
		defer db.Close()
	} else if err := cfg.needsDatabase(gate); err != nil {
		return nil, err
	}
	if db != nil {
		if gate.Uncalibrated, err = cfg.uncalibrated(t, db, s); err != nil {
			return nil, err
		}
	}
	if ag == nil {
		setup, err := cfg.setup()
		if err != nil {
			return nil, err
		}
		built, err := setup.Agent(s.Agent, eval.AgentOptions{Concurrency: runner.Concurrency(cfg.concurrency, len(s.Cases)), Timeout: cfg.timeout})
		if errors.Is(err, adapter.ErrNoModels) {
			err = fmt.Errorf("%w: pass evaltest.WithModels(modelkit.Models{})", err)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Path, err)
		}
		defer built.Close()
		ag = built.Agent
	}
	meta := map[string]any{"go_test": t.Name()}
	for k, v := range cfg.metadata {
		meta[k] = v
	}
	prov := provenance.Collect(ctx, s.Dir, os.Getenv)
	meta = provenance.WithRevision(meta, prov, report.RevisionKeys)
	if gate.Branch == "" { // in CI, the target branch's runs are the baseline, as evalrun run takes them
		gate.Branch = provenance.TargetBranch(os.Getenv).Branch
	}
	// One attempt: a test fails at once when its database is down.
	res, err := eval.Run(ctx, eval.Task{Suite: s, Agent: ag, Judge: judge, Gate: gate,
		Store: eval.Store{DB: db, Save: models.SaveOptions{MaxWait: -1}},
		Exec: eval.Exec{Concurrency: cfg.concurrency, Timeout: cfg.timeout, Metadata: meta,
			JudgeDisabled: judge == nil && why != reasonNoJudge, ExtraSummary: eval.JudgeSummary(judge), Provenance: prov}})
	if err != nil {
		return nil, err
	}
	r := &Result{Run: res.Run, Decision: res.Decision}
	out.fill(res.Run, why, gate)
	if len(res.Outage) > 0 && !out.checks {
		t.Errorf("%s", sanitize.EscapeText(res.Decision.Line))
	}
	if db == nil {
		return r, nil
	}
	r.Saved, r.Comparison = true, res.Comparison
	out.fillFindings(res.Comparison)
	logHistory(t, db.URL, res)
	reportRunFindings(t, res.Comparison, out)
	return r, nil
}

// fill keeps the cases for the subtests, with why judge metrics were not
// evaluated and what fails under the gate's fail-on rule.
func (o *outcomes) fill(run *models.Run, why string, gate eval.Gate) {
	o.cases = map[string]*models.CaseResult{}
	for _, c := range run.Cases {
		o.cases[c.CaseID] = c
	}
	o.notEval, o.mode = why, gate.Options().Gate
	if o.mode == "" {
		o.mode = compare.GateStrict
	}
	o.checks, o.gate = gate.FailOn != eval.FailOnRegressions, gate.FailOn != eval.FailOnFailures
}

// fillFindings keeps each question's comparison findings for its subtest.
func (o *outcomes) fillFindings(cmp *compare.Comparison) {
	o.findings = map[string][]compare.Finding{}
	for _, f := range cmp.Findings {
		if f.CaseID != "" {
			o.findings[f.CaseID] = append(o.findings[f.CaseID], f)
		}
	}
}
