package calibrate

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// RejudgeOptions tune Rejudge.
type RejudgeOptions struct {
	// Times is how many times each stored answer is judged again (>= 2).
	Times int
	// Concurrency is how many judge calls run at once (default
	// DefaultConcurrency).
	Concurrency int
	// Progress, when set, is called after each judge call, one call at a time.
	Progress func(done, total int)
}

// Rejudge judges the stored answers of run again, opts.Times times each,
// with the suite's judge-backed metrics (scorers built as Execute builds
// them, with judge): no agent is called and nothing is written. Questions
// whose agent call failed or that have no answer are skipped; a run
// answered K times (run --repeat) is re-judged on the answer its row
// holds, the first repeat's. The suite must define the run's questions
// (the caller checks the definition); an unknown case id is an error.
func Rejudge(ctx context.Context, s *suite.Suite, run *models.Run, judge score.Judge, opts RejudgeOptions) ([]Rejudged, error) {
	if opts.Times < 2 {
		return nil, fmt.Errorf("rejudge: want at least 2 repetitions, got %d", opts.Times)
	}
	names := runner.JudgeMetrics(s, s.Calculated(true))
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	scorers, err := runner.Scorers(s, list, judge != nil)
	if err != nil {
		return nil, fmt.Errorf("rejudge: %w", err)
	}
	ctx = score.WithJudge(ctx, judge)
	byID := map[string]*suite.Case{}
	for _, c := range s.Cases {
		byID[c.ID] = c
	}
	type job struct {
		item   int
		rep    int
		sc     score.Scorer
		sample score.Sample
	}
	var items []Rejudged
	var jobs []job
	for _, row := range run.Cases {
		c, ok := byID[row.CaseID]
		if !ok {
			return nil, fmt.Errorf("rejudge: run %s has question %q, which the suite does not define", run.ID, row.CaseID)
		}
		if row.AgentErrored() || row.Output.IsNull() {
			continue
		}
		sample, err := storedSample(c, row)
		if err != nil {
			return nil, err
		}
		for _, m := range c.Metrics {
			if !names[m.Name] {
				continue
			}
			sc, ok := scorers.Scorer(c, m.Name)
			if !ok {
				continue
			}
			items = append(items, Rejudged{CaseID: c.ID, Metric: m.Name, Threshold: m.Threshold,
				Scores: make([]*float64, opts.Times)})
			for r := range opts.Times {
				jobs = append(jobs, job{item: len(items) - 1, rep: r, sc: sc,
					sample: runner.StoredMetricSample(c, row.ResponseMetadata, m.Name, sample)})
			}
		}
	}
	conc := runner.Concurrency(opts.Concurrency, len(jobs))
	ch := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				sample := j.sample
				sample.Metadata = runner.DecodeObject(byID[sample.CaseID].Metadata) // a fresh copy per call
				a, err := runner.Assess(ctx, j.sc, sample)
				mu.Lock()
				if err == nil {
					score := a.Score
					items[j.item].Scores[j.rep] = &score
				}
				done++
				if opts.Progress != nil {
					opts.Progress(done, len(jobs))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, j := range jobs {
		select {
		case ch <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("rejudge: interrupted after %d of %d judge calls: %w", done, len(jobs), context.Cause(ctx))
	}
	return items, nil
}

// storedSample is the scorer input of a saved case row: the suite's
// definition and the stored answer, actions, usage and agent metadata.
func storedSample(c *suite.Case, row *models.CaseResult) (score.Sample, error) {
	s := runner.SampleOf(c)
	s.Output = json.RawMessage(row.Output)
	if !row.Actions.IsNull() {
		if err := json.Unmarshal(row.Actions, &s.Actions); err != nil {
			return s, fmt.Errorf("rejudge: question %q: stored actions: %w", row.CaseID, err)
		}
		if s.Actions == nil {
			s.Actions = []score.Action{}
		}
	}
	s.ResponseMetadata = agentMetadata(row.ResponseMetadata)
	s.DurationMS, s.InputTokens, s.OutputTokens = row.DurationMS, row.InputTokens, row.OutputTokens
	if row.Cost != nil {
		cost := row.Cost.Float64()
		s.Cost = &cost
	}
	return s, nil
}

// agentMetadata is a stored response_metadata without the runner's scoring
// evidence (API replay, judge usage, metric details, repeats): what the
// scorers see of the agent's metadata.
func agentMetadata(j models.JSON) map[string]any {
	meta, err := models.DecodeCaseMetadata(j)
	if err != nil {
		return runner.DecodeObject(json.RawMessage(j))
	}
	meta.APIReplay, meta.JudgeUsage, meta.MetricDetails, meta.CaseRepeats = nil, nil, nil, nil
	rest, err := meta.Encode()
	if err != nil {
		return map[string]any{}
	}
	return runner.DecodeObject(json.RawMessage(rest))
}
