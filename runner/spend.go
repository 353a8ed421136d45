package runner

import (
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/money"
)

// The judge spend cap. Before a judged metric starts, the runner asks the
// meter (ExecOptions.JudgeSpend); once the judge's recorded cost has
// reached the cap, that metric and every later one is not calculated,
// with the reason. A metric's cost is counted when it finishes (every
// call it made, retries and failed calls included): the cost of a call is
// known only from the tokens it used, so the metrics already started when
// the cap is reached finish, and the total may pass the cap by at most
// what those (one per case running at once) cost.

// spent counts one metric's judge account against the cap.
func (e *executor) spent(acc models.CallAccount) {
	if e.opts.JudgeSpend != nil && acc.Cost != nil {
		e.opts.JudgeSpend.Add(money.DecimalOf(*acc.Cost))
	}
}

// spendSummary is the summary's judge_spend record of run; nil without
// a cap.
func (e *executor) spendSummary(run *models.Run) *models.JudgeSpend {
	if e.opts.JudgeSpend == nil {
		return nil
	}
	r := e.opts.JudgeSpend.Read()
	out := &models.JudgeSpend{Limit: r.Limit, Spent: r.Spent, Reached: r.Reached}
	for _, c := range run.Cases {
		for _, m := range c.Metrics {
			if m.Reason != nil && *m.Reason == reasonSpendCap {
				out.NotCalculated++
			}
		}
	}
	return out
}
