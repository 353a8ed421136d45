// Package runfixture builds in-memory runs for tests of compare and report.
package runfixture

import (
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
)

// Metric describes a metric row of a test case: Score nil means not
// calculated (or errored when Err is set).
type Metric struct {
	Name      string
	Threshold float64
	Score     *float64
	Err       string
	Reason    string
}

// Case describes a case row of a test run.
type Case struct {
	ID, Name           string
	Question, Expected string
	Output             string
	Meta               string // JSON object; "" is {}
	AgentErr           string
	Metrics            []Metric
}

// Score is a calculated score: Score(0.9) where a Metric wants a *float64.
func Score(v float64) *float64 { return &v }

// NewMetric is a metric row with a score (nil: not calculated) and the
// reason "checked <name>".
func NewMetric(name string, threshold float64, score *float64) Metric {
	return Metric{Name: name, Threshold: threshold, Score: score, Reason: "checked " + name}
}

// Build builds a run record in memory the way the runner does: minimum
// scores from the metrics, statuses derived from the rows.
func Build(id string, seq int64, started time.Time, cases ...Case) *models.Run {
	run := &models.Run{ID: uuid.MustParse(id), Sequence: seq, Suite: "Customer support", Agent: "SupportAgent",
		Version: "1", SuiteDigest: "digest-1", Status: models.RunStatusCompleted,
		StartedAt: started, FinishedAt: started.Add(1500 * time.Millisecond),
		Metadata: models.JSON(`{"revision":"test"}`), Summary: models.JSON(`{}`),
		CreatedAt: started, UpdatedAt: started}
	for i, cd := range cases {
		mins := map[string]float64{}
		for _, m := range cd.Metrics {
			mins[m.Name] = m.Threshold
		}
		meta := cd.Meta
		if meta == "" {
			meta = "{}"
		}
		name := cd.Name
		if name == "" {
			name = cd.ID
		}
		c := &models.CaseResult{ID: int64(i + 1), RunID: run.ID, Position: i, CaseID: cd.ID, Name: name,
			DurationMS: 120.5, Question: models.MustJSON(cd.Question), ExpectedAnswer: models.MustJSON(cd.Expected),
			MinimumScores: models.MustJSON(mins), Metadata: models.JSON(meta), Output: models.MustJSON(cd.Output),
			Actions: models.JSON(`[]`), InputTokens: ptr(int64(100)), OutputTokens: ptr(int64(20)), Cost: ptr(models.Decimal("0.0002")),
			CreatedAt: started, UpdatedAt: started}
		if cd.AgentErr != "" {
			c.ErrorDetails = models.MustJSON(map[string]string{"class": "AgentError", "message": cd.AgentErr})
			c.Output = nil
		}
		for j, md := range cd.Metrics {
			m := &models.MetricResult{ID: int64(100*i + j + 1), CaseResultID: c.ID, Position: j, Name: md.Name,
				Threshold: md.Threshold, Score: md.Score, CreatedAt: started, UpdatedAt: started}
			if md.Err != "" {
				m.ErrorDetails = models.MustJSON(map[string]string{"message": md.Err})
			} else if md.Score != nil {
				m.Passed = *md.Score >= md.Threshold
				r := md.Reason
				m.Reason = &r
			}
			c.Metrics = append(c.Metrics, m)
		}
		c.Status = c.DeriveStatus()
		run.Cases = append(run.Cases, c)
	}
	return run
}

func ptr[T any](v T) *T { return &v }
