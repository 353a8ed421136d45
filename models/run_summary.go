package models

import "encoding/json"

// GoWriter is the summary's writer value of runs this implementation
// wrote (see suite.GoWriter).
const GoWriter = "agentevals-go"

// RunSummary is a run's summary column as this implementation writes it
// (SummaryOf). Numbers are JSON numbers and null means not available; the
// object is written with its keys sorted, as it always was. Summaries
// written by the Ruby gem or another version may lack keys or hold others:
// read them with DecodeRunSummary, and count cases with TotalsOf, never
// from a summary.
type RunSummary struct {
	// Cases, Passed, Failed, Errors and NotEvaluated count the cases by
	// status (Errors: agent errors or an errored metric). They are nil in a
	// summary read without them.
	Cases *int `json:"cases"`
	// Concurrency is how many cases ran at once.
	Concurrency int `json:"concurrency"`
	// Cost is the agent's reported cost in USD, summed; nil when no case
	// reported one. Judge usage is never counted here.
	Cost *Decimal `json:"cost"`
	// DurationMS is the wall time of the execution.
	DurationMS float64 `json:"duration_ms"`
	Errors     *int    `json:"errors"`
	Failed     *int    `json:"failed"`
	// Gate is the decision made when the run was made; nil for runs
	// without one (see GateDecision).
	Gate *GateDecision `json:"gate,omitempty"`
	// InfrastructureFailure is set only when every agent call, or every
	// judge call, failed from infrastructure: {"agent"|"judge": "what (n
	// of n calls)"}. Such a run is never an automatic baseline.
	InfrastructureFailure map[string]string `json:"infrastructure_failure,omitempty"`
	// Interrupted is set on a run stopped by a signal (see Interrupted).
	Interrupted *Interrupted `json:"interrupted,omitempty"`
	// InputTokens and OutputTokens sum the agent's reported tokens; nil
	// when no case reported any.
	InputTokens *int64 `json:"input_tokens"`
	// JudgeUsage sums the cases' judge accounts (CaseMetadata.JudgeUsage);
	// nil when no judge was used. It is never part of the agent's usage.
	JudgeUsage *CallAccount `json:"judge_usage"`
	// JudgeSpend is set on a run made under a judge spend cap.
	JudgeSpend *JudgeSpend `json:"judge_spend,omitempty"`
	// Metrics summarize each metric over the cases, by name.
	Metrics      map[string]MetricSummary `json:"metrics"`
	NotEvaluated *int                     `json:"not_evaluated"`
	OutputTokens *int64                   `json:"output_tokens"`
	// RepeatSummary is set when every question was answered K > 1 times.
	*RepeatSummary
	// PassRate is Passed over the evaluated cases, Quality the mean case
	// quality over them; nil when none was evaluated.
	PassRate *float64 `json:"pass_rate"`
	Passed   *int     `json:"passed"`
	// Provenance is where the run was made; nil when not recorded.
	Provenance *Provenance `json:"provenance,omitempty"`
	Quality    *float64    `json:"quality"`
	// Writer names the implementation that wrote the run (GoWriter); ""
	// for a summary without one, as the gem writes.
	Writer string `json:"writer"`

	// Extra holds every other key as it was added or read (for example
	// the judge's provider and cache counts that evalrun adds).
	Extra map[string]json.RawMessage `json:"-"`
	read  map[string]json.RawMessage
}

// MetricSummary is one metric over a run's cases.
type MetricSummary struct {
	// Count counts the cases that calculated the metric, errors included.
	Count  int `json:"count"`
	Errors int `json:"errors"`
	// Mean is the mean calculated score (an error counts 0); nil when
	// Count is 0.
	Mean          *float64 `json:"mean"`
	NotCalculated int      `json:"not_calculated"`
	Passed        int      `json:"passed"`
}

// RepeatSummary is what the summary of a run made with K > 1 repeats adds.
type RepeatSummary struct {
	// PassAtK is the share of cases where some repeat passed and PassHatK
	// where every repeat passed, over the cases with an evaluated repeat;
	// nil when there is none.
	PassAtK  *float64 `json:"pass_at_k"`
	PassHatK *float64 `json:"pass_hat_k"`
	// Repeats is K.
	Repeats int `json:"repeats"`
}

// InfrastructureFailureKey is the summary key of
// RunSummary.InfrastructureFailure, for queries: a run whose summary holds
// it with a non-null value is never an automatic baseline.
const InfrastructureFailureKey = "infrastructure_failure"

// WriterKey is the summary key of RunSummary.Writer, for queries.
const WriterKey = "writer"

// DecodeRunSummary reads a summary column. Each key is read into its field
// when its value fits; every other key is kept in Extra as it was. SQL
// NULL and JSON null read as an empty summary; a value that is not an
// object is an error wrapping ErrNotJSONObject.
func DecodeRunSummary(j JSON) (RunSummary, error) {
	var s RunSummary
	var err error
	s.Extra, s.read, err = decodeObject(j, &s)
	if err != nil {
		return RunSummary{}, err
	}
	return s, nil
}

// Encode writes the summary as a JSON object, keys sorted. A key of the
// record wins over the same key in Extra; a summary read with
// DecodeRunSummary is written back as it was read where it was not
// changed.
func (s RunSummary) Encode() (JSON, error) {
	return encodeObject(&s, s.Extra, s.read)
}
