package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
)

// PairwiseOptions tune JudgePairs.
type PairwiseOptions struct {
	// Concurrency is how many pairs are judged at once (default 4).
	Concurrency int
	// Progress, when set, is called after each pair, one call at a time.
	Progress func(done, total int)
}

// JudgePairs judges every question answered by both a and b (in b's
// order) twice with the slots swapped (score.JudgePair). A pair whose
// judge failed, or where a run has no answer, carries its error and no
// verdict; the record is returned whole either way, and the error is
// only the context's.
func JudgePairs(ctx context.Context, j score.Judge, a, b []*models.CaseResult, opts PairwiseOptions) ([]models.PairVerdict, error) {
	byID := make(map[string]*models.CaseResult, len(a))
	for _, c := range a {
		byID[c.CaseID] = c
	}
	type job struct {
		i    int
		a, b *models.CaseResult
	}
	var jobs []job
	for _, cb := range b {
		if ca, ok := byID[cb.CaseID]; ok {
			jobs = append(jobs, job{len(jobs), ca, cb})
		}
	}
	out := make([]models.PairVerdict, len(jobs))
	conc := opts.Concurrency
	if conc <= 0 {
		conc = 4
	}
	feed := make(chan job)
	var mu sync.Mutex
	var wg sync.WaitGroup
	done := 0
	for range min(conc, max(1, len(jobs))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for jb := range feed {
				v := judgeOnePair(ctx, j, jb.a, jb.b)
				mu.Lock()
				out[jb.i] = v
				done++
				if opts.Progress != nil {
					opts.Progress(done, len(jobs))
				}
				mu.Unlock()
			}
		}()
	}
send:
	for _, jb := range jobs {
		select {
		case feed <- jb:
		case <-ctx.Done():
			break send
		}
	}
	close(feed)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("pairwise judging: %w", context.Cause(ctx))
	}
	return out, nil
}

// judgeOnePair judges one question's two answers; every stored string
// passes the sanitizer.
func judgeOnePair(ctx context.Context, j score.Judge, a, b *models.CaseResult) models.PairVerdict {
	v := models.PairVerdict{CaseID: a.CaseID}
	for _, side := range []struct {
		name string
		c    *models.CaseResult
	}{{"A", a}, {"B", b}} {
		if noAnswer(side.c) {
			v.Error = fmt.Sprintf("run %s has no answer to this question (status %s)", side.name, side.c.Status)
			return v
		}
	}
	pj, err := score.JudgePair(ctx, j, score.Pair{Question: json.RawMessage(b.Question), Expected: json.RawMessage(b.ExpectedAnswer),
		AnswerA: json.RawMessage(a.Output), AnswerB: json.RawMessage(b.Output)})
	if err != nil {
		var se *score.Error
		if !errors.As(err, &se) && ctx.Err() != nil {
			err = context.Cause(ctx)
		}
		v.Error = sanitize.String(err.Error())
		return v
	}
	v.AFirst, v.BFirst, v.Winner = pj.AFirst, pj.BFirst, pj.Winner
	v.ReasonAFirst, v.ReasonBFirst = sanitize.String(pj.ReasonAFirst), sanitize.String(pj.ReasonBFirst)
	return v
}

// noAnswer reports whether a case holds no answer to judge.
func noAnswer(c *models.CaseResult) bool {
	return c.Output.IsNull() || len(c.Output) == 0
}
