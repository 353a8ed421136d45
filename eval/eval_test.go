package eval_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/suite"
)

// loadSuite writes a suite of two exact_match questions, alpha and beta,
// and loads it.
func loadSuite(t *testing.T) *suite.Suite {
	t.Helper()
	path := filepath.Join(t.TempDir(), "suite.json")
	doc := `{"suite": "Eval", "version": "1", "agent": {"name": "Bot", "command": ["true"]},
	  "evaluators": {"exact": {"type": "exact_match", "threshold": 1}},
	  "questions": [
	    {"id": "alpha", "question": "alpha?", "expected_answer": "A"},
	    {"id": "beta", "question": "beta?", "expected_answer": "B"}]}`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// answering is an agent that answers each question with answers[id]; it
// counts its calls in calls.
func answering(answers map[string]string, calls *atomic.Int64) agent.Agent {
	return agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		calls.Add(1)
		return agent.Response{Output: json.RawMessage(strconv.Quote(answers[q.ID]))}, nil
	})
}

// TestRun_Pipeline runs the stages in order on SQLite: the baseline is
// resolved before Preflight and before any agent call, the run is saved,
// compared with the baseline under the gate, the reports are written
// (GitHub annotations kept for the caller) and the decision follows the
// fail-on rule.
func TestRun_Pipeline(t *testing.T) {
	ctx := context.Background()
	db := testdb.SQLite(t)
	defer db.Close()
	s := loadSuite(t)
	var calls atomic.Int64
	var order []string
	task := func(answers map[string]string, gate eval.Gate, reports ...eval.Report) eval.Task {
		return eval.Task{Suite: s, Agent: answering(answers, &calls), Store: eval.Store{DB: db}, Gate: gate, Reports: reports,
			Preflight: func(context.Context) error { order = append(order, "preflight"); return nil },
			Exec:      eval.Exec{Started: func() { order = append(order, "started") }, Finished: func() { order = append(order, "finished") }}}
	}
	first, err := eval.Run(ctx, task(map[string]string{"alpha": "A", "beta": "B"}, eval.Gate{FailOn: eval.FailOnRegressions}))
	if err != nil {
		t.Fatal(err)
	}
	if first.Baseline != nil || first.Evidence.Kept != eval.Saved || first.Evidence.URL != db.URL ||
		first.Decision != (eval.Decision{Code: eval.ExitOK, Line: "exit 0: no gated regression, no baseline to regress against (--fail-on regressions)"}) {
		t.Errorf("first run: baseline %v, evidence %+v, decision %+v", first.Baseline, first.Evidence, first.Decision)
	}
	if strings.Join(order, ",") != "preflight,started,finished" || calls.Load() != 2 {
		t.Errorf("stages %v, %d agent calls", order, calls.Load())
	}

	html := filepath.Join(t.TempDir(), "report.html")
	second, err := eval.Run(ctx, task(map[string]string{"alpha": "A", "beta": "wrong"}, eval.Gate{Mode: compare.GateCI, FailOn: eval.FailOnBoth},
		eval.Report{Path: html, Format: report.FormatHTML}, eval.Report{Format: report.FormatGitHub}))
	if err != nil {
		t.Fatal(err)
	}
	want := "exit 1: 1 failed, 0 errors; 1 regression against baseline " + first.Run.ID.String() + " (--fail-on both)"
	if second.Baseline == nil || second.Baseline.ID != first.Run.ID || second.Comparison.Options.Gate != compare.GateCI ||
		second.Decision != (eval.Decision{Code: eval.ExitFailed, Line: want}) {
		t.Errorf("second run: baseline %v, gate %q, decision %+v, want %q", second.Baseline, second.Comparison.Options.Gate, second.Decision, want)
	}
	if len(second.Reports) != 2 || second.Reports[0].Path != html || len(second.Reports[1].Annotations) == 0 ||
		!strings.Contains(string(second.Reports[1].Annotations), "::error") {
		t.Errorf("reports %+v", second.Reports)
	}
	if _, err := os.Stat(html); err != nil {
		t.Errorf("the html report was not written: %v", err)
	}

	// A named baseline that is no run stops the run before Preflight and the agent.
	order = nil
	calls.Store(0)
	_, err = eval.Run(ctx, task(map[string]string{}, eval.Gate{Baseline: "0190a3c8-0000-7000-8000-000000000000"}))
	var e *eval.Error
	if !errors.As(err, &e) || e.Code != eval.ExitInvalid || e.Stage != eval.StageBaseline ||
		!strings.Contains(err.Error(), "--baseline 0190a3c8-0000-7000-8000-000000000000: no such run in") || len(order) > 0 || calls.Load() > 0 {
		t.Errorf("unknown baseline: %v (%+v), stages %v, %d calls", err, e, order, calls.Load())
	}
	// The first run, named, is the baseline of a third.
	third, err := eval.Run(ctx, task(map[string]string{"alpha": "A", "beta": "B"}, eval.Gate{Baseline: first.Run.ID.String()}))
	if err != nil || third.Baseline == nil || third.Baseline.ID != first.Run.ID {
		t.Errorf("named baseline: %v, %+v", err, third)
	}
}

// TestRun_Stores: without a database nothing is looked up and the run is
// not kept (a named baseline is refused); with a file the run goes to that
// evidence file; a failed Preflight stops the run with exit 2.
func TestRun_Stores(t *testing.T) {
	ctx := context.Background()
	s := loadSuite(t)
	var calls atomic.Int64
	ag := answering(map[string]string{"alpha": "A", "beta": "wrong"}, &calls)
	res, err := eval.Run(ctx, eval.Task{Suite: s, Agent: ag})
	if err != nil || res.Evidence.Kept != eval.NotSaved || res.Baseline != nil || res.Run.ID.String() == "" ||
		res.Decision != (eval.Decision{Code: eval.ExitFailed, Line: "exit 1: 1 failed, 0 errors (--fail-on failures)"}) {
		t.Errorf("no store: %v, %+v", err, res)
	}
	file := filepath.Join(t.TempDir(), "run.json")
	res, err = eval.Run(ctx, eval.Task{Suite: s, Agent: ag, Store: eval.Store{File: file, Reason: "test"}})
	if err != nil || res.Evidence != (eval.Evidence{Kept: eval.InFile, Path: file}) {
		t.Errorf("file store: %v, %+v", err, res)
	}
	var written struct{ Reason string }
	if b, err := os.ReadFile(file); err != nil || json.Unmarshal(b, &written) != nil || written.Reason != "test" {
		t.Errorf("evidence file: %v\n%.300s", err, b)
	}
	_, err = eval.Run(ctx, eval.Task{Suite: s, Agent: ag, Gate: eval.Gate{Baseline: "x"}})
	if !strings.Contains(fmtErr(err), "--baseline needs the database") {
		t.Errorf("named baseline without a database: %v", err)
	}
	calls.Store(0)
	_, err = eval.Run(ctx, eval.Task{Suite: s, Agent: ag, Preflight: func(context.Context) error { return errors.New("agent unreachable") }})
	var e *eval.Error
	if !errors.As(err, &e) || e.Code != eval.ExitInvalid || e.Stage != eval.StagePreflight || calls.Load() != 0 {
		t.Errorf("failed preflight: %v (%+v), %d agent calls", err, e, calls.Load())
	}
	_, err = eval.Run(ctx, eval.Task{Suite: s, Agent: ag, Gate: eval.Gate{Mode: "lenient"}})
	if !errors.As(err, &e) || e.Code != eval.ExitInvalid || e.Stage != eval.StageOptions {
		t.Errorf("unknown gate: %v", err)
	}
}

// TestRun_Interrupted: a run whose context ends while questions run exits
// 1 from the execute stage and keeps nothing.
func TestRun_Interrupted(t *testing.T) {
	s := loadSuite(t)
	ctx, cancel := context.WithCancel(context.Background())
	ag := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		cancel()
		<-ctx.Done()
		return agent.Response{}, ctx.Err()
	})
	file := filepath.Join(t.TempDir(), "run.json")
	res, err := eval.Run(ctx, eval.Task{Suite: s, Agent: ag, Store: eval.Store{File: file}})
	var e *eval.Error
	if res != nil || !errors.As(err, &e) || e.Code != eval.ExitFailed || e.Stage != eval.StageExecute {
		t.Errorf("interrupted: %+v, %v", res, err)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("an interrupted run was written: %v", err)
	}
}

// TestGate_Decide checks the fail-on rules on one compared pair: beta
// failed at the baseline and still fails, alpha newly fails.
func TestGate_Decide(t *testing.T) {
	s := loadSuite(t)
	var calls atomic.Int64
	base, err := eval.Run(context.Background(), eval.Task{Suite: s, Agent: answering(map[string]string{"alpha": "A", "beta": "wrong"}, &calls)})
	if err != nil {
		t.Fatal(err)
	}
	cand, err := eval.Run(context.Background(), eval.Task{Suite: s, Agent: answering(map[string]string{"alpha": "wrong", "beta": "wrong"}, &calls)})
	if err != nil {
		t.Fatal(err)
	}
	id := base.Run.ID.String()
	for _, tt := range []struct {
		rule     string
		baseline *models.Run
		want     eval.Decision
	}{
		{"", base.Run, eval.Decision{Code: 1, Line: "exit 1: 2 failed, 0 errors (--fail-on failures; not acted on: 1 regression against baseline " + id + ")"}},
		{eval.FailOnRegressions, base.Run, eval.Decision{Code: 1, Line: "exit 1: 1 regression against baseline " + id + " (--fail-on regressions; not acted on: 2 failed, 0 errors)"}},
		{eval.FailOnBoth, base.Run, eval.Decision{Code: 1, Line: "exit 1: 2 failed, 0 errors; 1 regression against baseline " + id + " (--fail-on both)"}},
		{eval.FailOnRegressions, nil, eval.Decision{Code: 0, Line: "exit 0: no gated regression, no baseline to regress against (--fail-on regressions; not acted on: 2 failed, 0 errors)"}},
		{eval.FailOnRegressions, cand.Run, eval.Decision{Code: 0, Line: "exit 0: no gated regression (--fail-on regressions; not acted on: 2 failed, 0 errors)"}},
	} {
		g := eval.Gate{FailOn: tt.rule}
		if got := g.Decide(compare.Compare(cand.Run, tt.baseline, g.Options())); got != tt.want {
			t.Errorf("%q against %v:\n got %+v\nwant %+v", tt.rule, tt.baseline != nil, got, tt.want)
		}
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
