package main

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// pairwiseHooks makes a later variant's run judge its answers against the
// reference variant's (--pairwise) once its last question finished and
// before it is saved: the verdicts go into the run's own summary
// (models.PairwiseKey), written with the run, so nothing stored is ever
// changed. The first variant, or an experiment without --pairwise, is
// left as it was.
func (c *ExperimentCmd) pairwiseHooks(ctx context.Context, g *Globals, e *eval.Exec, judge score.Judge, v suite.Variant) {
	if !c.Pairwise || c.reference == nil {
		return
	}
	ref := c.reference
	var mu sync.Mutex
	var cases []*models.CaseResult
	progress := e.Progress
	e.Progress = func(p runner.Progress) {
		mu.Lock()
		cases = append(cases, p.Case)
		mu.Unlock()
		if progress != nil {
			progress(p)
		}
	}
	extra := e.ExtraSummary
	e.ExtraSummary = func() map[string]any {
		out := map[string]any{}
		if extra != nil {
			for k, val := range extra() {
				out[k] = val
			}
		}
		mu.Lock()
		own := append([]*models.CaseResult(nil), cases...)
		mu.Unlock()
		sort.Slice(own, func(i, j int) bool { return own[i].Position < own[j].Position })
		rec := models.PairwiseRecord{RunA: ref.ID.String(), VariantA: variantOf(ref), VariantB: v.Name}
		if c.built != nil {
			t := c.built.Totals()
			rec.Judge = map[string]string{"provider": t.Provider, "model": t.Model}
		}
		var usage models.UsageRecorder // the pairwise calls count in the run's judge_usage
		verdicts, err := eval.JudgePairs(models.WithUsageRecorder(ctx, &usage), judge, ref.Cases, own, eval.PairwiseOptions{})
		if err != nil {
			// Interrupted: the run is not saved either (runner.Execute
			// sees the same context).
			fmt.Fprintf(g.Stderr, "evalrun: variant %q: %v\n", v.Name, err)
			return out
		}
		rec.Verdicts = verdicts
		out[models.PairwiseKey] = rec
		if acc, ok := usage.Account(); ok {
			out["judge_usage"] = acc
		}
		return out
	}
}

// variantOf is a run's experiment variant name, "" when it has none.
func variantOf(r *models.Run) string {
	if info := report.ExperimentOf(r); info != nil {
		return info.Variant
	}
	return ""
}
