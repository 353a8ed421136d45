package dashboard

import (
	"context"
	"fmt"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/show"
)

// changeEpsilon ignores float noise when quality values are compared.
const changeEpsilon = 1e-9

// runChange is a history row against the previous run of the same suite,
// agent and definition (suite_digest): the run the Go writer takes as the
// automatic baseline. It is computed from the two runs' totals only, so a
// page costs one indexed look-up per suite/agent/definition on it, whatever
// the size of the history; the run page holds the question-by-question
// comparison.
type runChange struct {
	// HasPrevious is false for the first run of a definition.
	HasPrevious bool
	// Delta is quality now minus quality then (nil when either is unknown).
	Delta *float64
	Text  string // "+0.012", "−0.300", "—", or "first run"
	// Regressed: quality fell, or more questions failed or errored than in
	// the previous run. Each of these is also a regression on the run page
	// (a lower score, a newly failed threshold or a new error), which may
	// list more.
	Regressed bool
	Improved  bool
	// Why explains the marker in words.
	Why string
	// Decision is the gate decision the run recorded when it was made
	// (report.DecisionLine); "" for a run without one.
	Decision string
}

// newRunChange compares a run's totals with the previous run's.
func newRunChange(cur, prev runStats) runChange {
	ch := runChange{HasPrevious: true, Text: "—"}
	if cur.Quality != nil && prev.Quality != nil {
		d := *cur.Quality - *prev.Quality
		ch.Delta = &d
		ch.Text = formatSignedDelta(d)
	}
	var why []string
	if ch.Delta != nil && *ch.Delta < -changeEpsilon {
		why = append(why, "quality fell by "+fmt.Sprintf("%.3f", -*ch.Delta))
	}
	if bad, was := cur.Failed+cur.Errors, prev.Failed+prev.Errors; bad > was {
		why = append(why, fmt.Sprintf("%s, %d before", show.Count(bad, "failed or errored question", "failed or errored questions"), was))
	}
	if len(why) > 0 {
		ch.Regressed, ch.Why = true, strings.Join(why, "; ")
	} else if ch.Delta != nil && *ch.Delta > changeEpsilon {
		ch.Improved, ch.Why = true, "quality rose by "+fmt.Sprintf("%.3f", *ch.Delta)
	}
	return ch
}

// formatSignedDelta writes a change with a real minus sign, so screen
// readers say "minus" and the digits line up.
func formatSignedDelta(d float64) string {
	if d > -0.0005 && d < 0.0005 {
		return "±0.000"
	}
	if d < 0 {
		return fmt.Sprintf("−%.3f", -d)
	}
	return fmt.Sprintf("+%.3f", d)
}

// definitionKey is what a previous run must share with a run.
type definitionKey struct{ suite, agent, digest string }

// linkPrevious sets each row's Change against the previous run of its
// definition. Rows come newest first; a row's previous run is the next
// older row of the same key, and for the oldest row of each key it is
// looked up with one indexed query (LIMIT 1) when shown(sequence) says the
// page shows that row (a status filter reads more rows than it shows).
func (s *Server) linkPrevious(c *gin.Context, rows []historyRow, shown func(sequence int64) bool) error {
	ctx := c.Request.Context()
	lastIndex := map[definitionKey]int{}
	for i := len(rows) - 1; i >= 0; i-- {
		k := definitionKey{rows[i].Run.Suite, rows[i].Run.Agent, rows[i].Run.SuiteDigest}
		if j, ok := lastIndex[k]; ok {
			rows[i].Change = newRunChange(rows[i].Stats, rows[j].Stats)
		}
		lastIndex[k] = i
	}
	// lastIndex now holds the oldest row of each key on the page: its
	// previous run is the one the gem's Run#previous picks (same digest).
	for _, i := range lastIndex {
		if !shown(rows[i].Run.Sequence) {
			continue
		}
		prev, err := compare.GemPrevious(ctx, s.rows, rows[i].Run)
		if err != nil {
			return unavailable(err)
		}
		if prev != nil {
			rows[i].Change = newRunChange(rows[i].Stats, statsFromCases(prev.Cases))
		}
	}
	return nil
}

// runIDs are the ids of runs, in order.
func runIDs(runs []*models.Run) []uuid.UUID {
	ids := make([]uuid.UUID, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	return ids
}

// runStatsOf computes the totals of runs from their case and metric rows
// (loaded in one batch), as every view does: summaries, above all those
// written by another implementation, may lack keys or disagree with the
// rows.
func (s *Server) runStatsOf(ctx context.Context, runs []*models.Run) ([]runStats, error) {
	ids := runIDs(runs)
	cases, err := s.rows.CaseTotalsOf(ctx, ids)
	if err != nil {
		return nil, unavailable(err)
	}
	out := make([]runStats, len(runs))
	for i, r := range runs {
		out[i] = statsFromCases(cases[r.ID])
	}
	return out, nil
}

// compactCases sums a run's questions up as "2/3 passed" and the non-zero
// rest ("1 failed, 1 error, 1 not evaluated").
func compactCases(st runStats) (head, detail string) {
	head = fmt.Sprintf("%d/%d passed", st.Passed, st.Total)
	var rest []string
	if st.Failed > 0 {
		rest = append(rest, fmt.Sprintf("%d failed", st.Failed))
	}
	if st.Errors > 0 {
		rest = append(rest, show.Count(st.Errors, "error", "errors"))
	}
	if st.NotEvaluated > 0 {
		rest = append(rest, fmt.Sprintf("%d not evaluated", st.NotEvaluated))
	}
	return head, strings.Join(rest, ", ")
}
