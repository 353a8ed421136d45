package report

import (
	"fmt"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/show"
)

// spendCapNote follows the usage line of a run made under a judge spend
// cap: the cap, and when it was reached how many judged metrics it left
// out; "" for a run without one.
func spendCapNote(run *models.Run) string {
	sum, err := models.DecodeRunSummary(run.Summary)
	if err != nil || sum.JudgeSpend == nil {
		return ""
	}
	js := sum.JudgeSpend
	if !js.Reached {
		return fmt.Sprintf("; spend cap $%s, not reached", js.Limit)
	}
	return fmt.Sprintf("; spend cap $%s reached: %s not calculated", js.Limit, show.Count(js.NotCalculated, "judged metric", "judged metrics"))
}
