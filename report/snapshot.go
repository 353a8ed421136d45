package report

import (
	"encoding/json"
	"time"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
)

// TimeFormat is how snapshots write timestamps: ISO 8601 in UTC with six
// fractional digits, as Ruby's Time#iso8601(6) does.
const TimeFormat = "2006-01-02T15:04:05.000000Z07:00"

// RunSnapshot is the detached, JSON-portable evidence of a run, key for key
// as the Ruby gem's Run#snapshot.
type RunSnapshot struct {
	ID          string         `json:"id"`
	Suite       string         `json:"suite"`
	Agent       string         `json:"agent"`
	Version     string         `json:"version"`
	SuiteDigest string         `json:"suite_digest"`
	StartedAt   string         `json:"started_at"`
	FinishedAt  string         `json:"finished_at"`
	Status      string         `json:"status"`
	Metadata    models.JSON    `json:"metadata"`
	Summary     models.JSON    `json:"summary"`
	Cases       []CaseSnapshot `json:"cases"`
}

// CaseSnapshot is a case result as the gem's CaseResult#snapshot writes it.
type CaseSnapshot struct {
	ID               string           `json:"id"`
	Name             string           `json:"name"`
	Question         models.JSON      `json:"question"`
	ExpectedAnswer   models.JSON      `json:"expected_answer"`
	ExpectedActions  models.JSON      `json:"expected_actions"`
	MinimumScores    models.JSON      `json:"minimum_scores"`
	Metadata         models.JSON      `json:"metadata"`
	Output           models.JSON      `json:"output"`
	Status           string           `json:"status"`
	DurationMS       float64          `json:"duration_ms"`
	InputTokens      *int64           `json:"input_tokens"`
	OutputTokens     *int64           `json:"output_tokens"`
	Cost             *models.Decimal  `json:"cost"`
	Actions          models.JSON      `json:"actions"`
	ResponseMetadata models.JSON      `json:"response_metadata"`
	Error            models.JSON      `json:"error"`
	Metrics          []MetricSnapshot `json:"metrics"`
}

// MetricSnapshot is a metric result as the gem's MetricResult#snapshot
// writes it.
type MetricSnapshot struct {
	Name      string      `json:"name"`
	Threshold float64     `json:"threshold"`
	Score     *float64    `json:"score"`
	Passed    bool        `json:"passed"`
	Reason    *string     `json:"reason"`
	Error     models.JSON `json:"error"`
}

// Snapshot returns the run's snapshot. SQL NULL and JSON null both become
// null; JSON values are written as stored. A metric that was not
// calculated has no row in the gem's tables, so it is no metric of the
// snapshot either (a passed question would otherwise carry a metric with
// passed false); NotCalculatedOf lists those.
func Snapshot(run *models.Run) RunSnapshot {
	s := RunSnapshot{
		ID: run.ID.String(), Suite: run.Suite, Agent: run.Agent, Version: run.Version,
		SuiteDigest: run.SuiteDigest, StartedAt: FormatTime(run.StartedAt),
		FinishedAt: FormatTime(run.FinishedAt), Status: run.Status,
		Metadata: validJSON(run.Metadata), Summary: validJSON(run.Summary),
		Cases: make([]CaseSnapshot, 0, len(run.Cases)),
	}
	for _, c := range run.Cases {
		cs := CaseSnapshot{
			ID: c.CaseID, Name: c.Name, Question: validJSON(c.Question),
			ExpectedAnswer: validJSON(c.ExpectedAnswer), ExpectedActions: validJSON(c.ExpectedActions),
			MinimumScores: validJSON(c.MinimumScores), Metadata: validJSON(c.Metadata),
			Output: validJSON(c.Output), Status: c.Status, DurationMS: c.DurationMS,
			InputTokens: c.InputTokens, OutputTokens: c.OutputTokens, Cost: c.Cost,
			Actions: validJSON(c.Actions), ResponseMetadata: validJSON(c.ResponseMetadata),
			Error: validJSON(c.ErrorDetails), Metrics: make([]MetricSnapshot, 0, len(c.Metrics)),
		}
		for _, m := range c.Metrics {
			if !m.Calculated() {
				continue
			}
			cs.Metrics = append(cs.Metrics, MetricSnapshot{Name: m.Name, Threshold: m.Threshold,
				Score: m.Score, Passed: m.Passed, Reason: m.Reason, Error: validJSON(m.ErrorDetails)})
		}
		s.Cases = append(s.Cases, cs)
	}
	return s
}

// validJSON returns j when it is valid JSON, nil (null) for SQL NULL, and
// the text as a JSON string when a column holds something else, so that a
// snapshot always encodes.
func validJSON(j models.JSON) models.JSON {
	if j == nil {
		return nil
	}
	if json.Valid(j) {
		return j
	}
	return models.JSON(compare.MarshalJSON(string(j)))
}

// FormatTime formats t as TimeFormat in UTC.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeFormat) }

// Document is the JSON report: the run snapshot plus a top-level
// "comparison" object and, beside the snapshot's cases, the metrics that
// were not calculated.
type Document struct {
	RunSnapshot
	// NotCalculated lists the metrics of the run's questions that were not
	// calculated (no score and no error, e.g. judge metrics without a
	// judge): they are not in the cases' metrics, as they have no row.
	NotCalculated []NotCalculatedMetric `json:"not_calculated"`
	Comparison    ComparisonJSON        `json:"comparison"`
	// Repeats is present when the questions were answered K > 1 times:
	// K, pass@k, pass^k and each metric's within-question sd.
	Repeats *compare.RepeatStats `json:"repeats,omitempty"`
}

// ComparisonJSON is the "comparison" object of the JSON report.
type ComparisonJSON struct {
	Baseline       *BaselineRef               `json:"baseline"`
	Tolerance      float64                    `json:"tolerance"`
	Gate           string                     `json:"gate"`
	Alpha          float64                    `json:"alpha"`
	MinEffect      float64                    `json:"min_effect"`
	Regressed      bool                       `json:"regressed"`
	Totals         compare.Totals             `json:"totals"`
	BaselineTotals *compare.Totals            `json:"baseline_totals"`
	Metrics        []compare.MetricComparison `json:"metrics"`
	Cases          []compare.CaseComparison   `json:"cases"`
	Regressions    []compare.Finding          `json:"regressions"`
	Improvements   []compare.Finding          `json:"improvements"`
	Slices         []compare.Slice            `json:"slices"`
	Missing        []string                   `json:"missing_cases"`
	Bootstrap      BootstrapJSON              `json:"bootstrap"`
	// Localized is the ci gate's question and slice tests (absent when
	// none ran) and LocalizedText their one-sentence summary.
	Localized     *compare.Localization `json:"localized,omitempty"`
	LocalizedText string                `json:"localized_text,omitempty"`
}

// BaselineRef identifies the baseline run in the JSON report.
type BaselineRef struct {
	ID          string `json:"id"`
	SuiteDigest string `json:"suite_digest"`
	StartedAt   string `json:"started_at"`
}

// BootstrapJSON records how the intervals were computed.
type BootstrapJSON struct {
	Resamples  int     `json:"resamples"`
	Seed       uint64  `json:"seed"`
	Confidence float64 `json:"confidence"`
}

// NotCalculatedMetric is a metric of a question that was not calculated,
// and why.
type NotCalculatedMetric struct {
	CaseID    string  `json:"case_id"`
	Name      string  `json:"name"`
	Threshold float64 `json:"threshold"`
	Reason    *string `json:"reason"`
}

// NotCalculatedOf lists the run's metrics that were not calculated, in
// case and metric order.
func NotCalculatedOf(run *models.Run) []NotCalculatedMetric {
	out := []NotCalculatedMetric{}
	for _, c := range run.Cases {
		for _, m := range c.Metrics {
			if !m.Calculated() {
				out = append(out, NotCalculatedMetric{CaseID: c.CaseID, Name: m.Name, Threshold: m.Threshold, Reason: m.Reason})
			}
		}
	}
	return out
}

// NewDocument builds the JSON report of a comparison.
func NewDocument(c *compare.Comparison) Document {
	d := Document{RunSnapshot: Snapshot(c.Run), NotCalculated: NotCalculatedOf(c.Run), Comparison: ComparisonJSON{
		Tolerance: c.Options.Tolerance, Gate: c.Options.Gate, Regressed: c.Regressed(),
		Alpha: c.Options.AlphaOrDefault(), MinEffect: c.Options.MinEffectOrDefault(),
		Totals: c.Totals, BaselineTotals: c.BaselineTotals, Metrics: nonNil(c.Metrics),
		Cases: append([]compare.CaseComparison{}, c.Cases...), Regressions: nonNil(c.Regressions()), Improvements: []compare.Finding{},
		Slices: nonNil(c.Slices), Missing: nonNil(c.Missing),
		Bootstrap: BootstrapJSON{Resamples: c.Options.Resamples, Seed: c.Options.Seed, Confidence: 0.95},
	}}
	for _, f := range c.Findings {
		if !f.Kind.Regression() {
			d.Comparison.Improvements = append(d.Comparison.Improvements, f)
		}
	}
	for i := range d.Comparison.Cases {
		d.Comparison.Cases[i].Metrics = nonNil(d.Comparison.Cases[i].Metrics)
		d.Comparison.Cases[i].Findings = nonNil(d.Comparison.Cases[i].Findings)
	}
	d.Repeats = compare.Repeats(c.Run)
	if l := c.Localized; l != nil {
		d.Comparison.Localized, d.Comparison.LocalizedText = l, l.Headline()
	}
	if b := c.Baseline; b != nil {
		d.Comparison.Baseline = &BaselineRef{ID: b.ID.String(), SuiteDigest: b.SuiteDigest, StartedAt: FormatTime(b.StartedAt)}
	}
	return d
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
