package models

import (
	"encoding/json"
	"reflect"
)

// CaseMetadata is a case's response_metadata: the metadata the agent
// returned (Extra), and the keys the runner adds as evidence. The fields
// are declared in the order of their JSON names, as the object is written
// with its keys sorted. Read it with DecodeCaseMetadata and write it with
// Encode.
type CaseMetadata struct {
	// APIReplay is what the case's strict API replay session saw.
	APIReplay *APIReplay `json:"api_replay,omitempty"`
	// JudgeUsage is the judge account of each judge-backed metric.
	JudgeUsage JudgeUsage `json:"judge_usage,omitempty"`
	// MetricDetails are the details of each metric's assessment (a judge's
	// model, prompt, raw reply; a check's counts), by metric name.
	MetricDetails map[string]map[string]json.RawMessage `json:"metric_details,omitempty"`
	// NotCalculated lists the metrics that were not calculated; the rows
	// keep no metric result for them (see NotCalculatedKey).
	NotCalculated []NotCalculated `json:"not_calculated,omitempty"`
	// Original keeps metadata that was not an object, when the runner had
	// to add a key to it.
	Original json.RawMessage `json:"original,omitempty"`
	// Trace is the agent's spans when the run had tracing on (TraceKey).
	Trace *CaseTrace `json:"otlp_trace,omitempty"`
	// OutputTruncated says that the answer was cut to the answer cap.
	OutputTruncated *OutputTruncation `json:"output_truncated,omitempty"`
	// CaseRepeats holds the keys of a question answered K > 1 times.
	*CaseRepeats
	// ReplyNote says how a reply that was not one Response object as a
	// whole was read (agent.reply auto).
	ReplyNote *ReplyNote `json:"reply_note,omitempty"`
	// Sanitized names the columns the sanitizer changed.
	Sanitized *Sanitized `json:"sanitized,omitempty"`
	// Transcript is the conversation of a question asked over several turns.
	Transcript *Transcript `json:"transcript,omitempty"`
	// Unencodable replaces metadata that could not be encoded as JSON: why.
	Unencodable string `json:"unencodable_metadata,omitempty"`

	// Extra holds every other key as it was returned or read: the agent's
	// own metadata, and keys whose value does not fit their field.
	Extra map[string]json.RawMessage `json:"-"`
	read  map[string]json.RawMessage
}

// NotCalculatedKey is the response_metadata key of CaseMetadata.NotCalculated.
//
// A metric that was not calculated (no score and no error), for example an
// LLM metric without a judge, gets no metric row: metric_results.passed is
// NOT NULL, and a row with passed = false under a case whose status is
// passed reads as a failure to anyone who counts failed rows (as a report
// over the gem's tables may), while passed = true would claim a pass that
// was never measured. So InsertRun writes rows for calculated metrics only
// and keeps the others, with their position, threshold and reason, in this
// list; the read queries put them back on the case as MetricResult records
// that are not Calculated, so reports, the dashboard and the run's coverage
// warnings still say what was not calculated and why. The invariant "a case
// whose status is passed has no metric row with passed = false" then holds
// for every reader. Runs saved before this rule keep their rows and read
// the same.
const NotCalculatedKey = "not_calculated"

// NotCalculated is a metric that was not calculated, as listed under
// NotCalculatedKey.
type NotCalculated struct {
	Name      string  `json:"name"`
	Position  int     `json:"position"`
	Threshold float64 `json:"threshold"`
	Reason    *string `json:"reason"`
}

// OutputTruncation describes an answer cut to the answer cap: the first
// KeptBytes of the answer were kept and scored; ReplyBytes and
// ReplySHA256 describe the agent's whole reply.
type OutputTruncation struct {
	KeptBytes   *int64 `json:"kept_bytes"`
	LimitBytes  *int64 `json:"limit_bytes"`
	Note        string `json:"note"`
	ReplyBytes  *int64 `json:"reply_bytes"`
	ReplySHA256 string `json:"reply_sha256"`
}

// ReplyNote is how a command or http agent's reply was read when it was
// not one Response object as a whole: ReadAs "json" when its last line was
// the Response (TextBefore the text printed before it, not scored), "text"
// when it was scored as plain text although it holds a JSON object
// (ObjectError why its last line is not a Response, when it is an object).
type ReplyNote struct {
	Note        string `json:"note"`
	ObjectError string `json:"object_error,omitempty"`
	ReadAs      string `json:"read_as"`
	TextBefore  string `json:"text_before,omitempty"`
}

// Sanitized lists the columns (and "metrics[i].reason") the sanitizer
// repaired or redacted.
type Sanitized struct {
	// PII lists the columns where personal data was replaced by typed
	// markers (run --redact-pii).
	PII      []string `json:"pii,omitempty"`
	Redacted []string `json:"redacted,omitempty"`
	Repaired []string `json:"repaired,omitempty"`
}

// CaseRepeats is what a question answered K > 1 times keeps beside its one
// row (whose metric rows hold the means over the repeats).
type CaseRepeats struct {
	// PassAtK says whether some repeat passed, PassHatK whether every one
	// did; both are nil (JSON null) when no repeat was evaluated.
	PassAtK  *bool `json:"pass_at_k"`
	PassHatK *bool `json:"pass_hat_k"`
	// RepeatScores are each metric's scores by repeat, nil where a repeat
	// calculated none.
	RepeatScores map[string][]*float64 `json:"repeat_scores"`
	// Repeats are the K answers.
	Repeats []RepeatAnswer `json:"repeats"`
}

// RepeatAnswer is one repeat of a question: its answer, usage, status,
// agent error (Error) and metric results.
type RepeatAnswer struct {
	Actions          JSON           `json:"actions"`
	Cost             *Decimal       `json:"cost"`
	DurationMS       float64        `json:"duration_ms"`
	Error            JSON           `json:"error"`
	InputTokens      *int64         `json:"input_tokens"`
	Metrics          []RepeatMetric `json:"metrics"`
	Output           JSON           `json:"output"`
	OutputTokens     *int64         `json:"output_tokens"`
	ResponseMetadata JSON           `json:"response_metadata"`
	Status           string         `json:"status"`
}

// RepeatMetric is one metric's result in one repeat.
type RepeatMetric struct {
	ErrorDetails JSON     `json:"error_details"`
	Name         string   `json:"name"`
	Passed       bool     `json:"passed"`
	Reason       *string  `json:"reason"`
	Score        *float64 `json:"score"`
}

// DecodeCaseMetadata reads a response_metadata column. Each key is read
// into its field when its value fits; every other key is kept in Extra as
// it was. SQL NULL and JSON null read as no metadata; a value that is not
// an object is an error wrapping ErrNotJSONObject.
func DecodeCaseMetadata(j JSON) (CaseMetadata, error) {
	var m CaseMetadata
	var err error
	m.Extra, m.read, err = decodeObject(j, &m)
	if err != nil {
		return CaseMetadata{}, err
	}
	return m, nil
}

// Encode writes the metadata as a JSON object, keys sorted. A key of the
// record wins over the same key in Extra; metadata read with
// DecodeCaseMetadata is written back as it was read where it was not
// changed.
func (m CaseMetadata) Encode() (JSON, error) {
	if m.read == nil {
		return encodeFields(&m, m.Extra)
	}
	return encodeObject(&m, m.Extra, m.read)
}

// Repeated reports whether the case was answered more than once.
func (m CaseMetadata) Repeated() bool {
	return m.CaseRepeats != nil && len(m.Repeats) > 1
}

// AgentKey is the key CaseMetadata.Extra keeps an agent's own metadata key
// k under: k, except that the agent's judge_usage and metric_details, the
// keys of the runner's evidence, become agent_judge_usage and
// agent_metric_details (and otlp_trace agent_otlp_trace).
func AgentKey(k string) string {
	if k == "judge_usage" || k == "metric_details" || k == TraceKey {
		return "agent_" + k
	}
	return k
}

// CaseFacts are the keys of a case's response_metadata that the run's
// summary, its repeat statistics and the run table's warnings read.
type CaseFacts struct {
	JudgeUsage JudgeUsage
	ReplyNote  *ReplyNote
	*CaseRepeats
}

// Repeated reports whether the case was answered more than once.
func (f CaseFacts) Repeated() bool {
	return f.CaseRepeats != nil && len(f.Repeats) > 1
}

// scoredFacts are a record's facts with the encoding it was written to.
type scoredFacts struct {
	facts CaseFacts
	j     JSON
	// notCalculated: j has a not_calculated key (needsFold).
	notCalculated bool
	// trace is the record j's otlp_trace was encoded from (SetMetadata),
	// written at j[traceAt[0]:traceAt[1]]; nil when not kept.
	trace   *CaseTrace
	traceAt [2]int
}

// KeepMetadata sets the case's response_metadata to j, the encoding of
// meta, and keeps meta's facts beside it, so that FactsOf reads them
// without decoding j again. meta must not be changed afterwards. A record
// whose Extra holds a key of its own fields (which a decode would read into
// the field) keeps none.
func (c *CaseResult) KeepMetadata(meta CaseMetadata, j JSON) {
	c.ResponseMetadata, c.scored = j, nil
	fields := objectFields(reflect.TypeOf(meta))
	for k := range meta.Extra {
		if _, ok := fields[k]; ok {
			return
		}
	}
	c.scored = &scoredFacts{facts: factsOf(meta), j: j, notCalculated: len(meta.NotCalculated) > 0}
}

// SetMetadata encodes meta (Encode) into the case's response_metadata
// and keeps it as KeepMetadata does, with the trace record and where its
// value was written: Scrub then checks the spans' strings as the typed
// text they are rather than scanning their JSON (scrub_kept.go). meta
// must not be changed afterwards. On error the case is left as it was.
func (c *CaseResult) SetMetadata(meta CaseMetadata) error {
	if meta.read != nil || meta.Trace == nil {
		j, err := meta.Encode()
		if err != nil {
			return err
		}
		c.KeepMetadata(meta, j)
		return nil
	}
	j, at, err := encodeFieldsAt(&meta, meta.Extra, TraceKey)
	if err != nil {
		return err
	}
	c.KeepMetadata(meta, j)
	if c.scored != nil && at[1] > at[0] {
		c.scored.trace, c.scored.traceAt = meta.Trace, at
	}
	return nil
}

// FactsOf is the case's facts as DecodeCaseMetadata reads them: those kept
// by KeepMetadata when the column still holds that very encoding (a
// sanitizer that rewrote it made a new one), else decoded. Their maps and
// slices may be shared: read only.
func FactsOf(c *CaseResult) (CaseFacts, error) {
	if s := c.kept(); s != nil {
		return s.facts, nil
	}
	var r factsRecord // the facts' keys only: a trace's spans are not decoded
	if _, _, err := decodeObject(c.ResponseMetadata, &r); err != nil {
		return CaseFacts{}, err
	}
	return CaseFacts{JudgeUsage: r.JudgeUsage, ReplyNote: r.ReplyNote, CaseRepeats: r.CaseRepeats}, nil
}

// factsRecord is CaseMetadata's fields that CaseFacts holds, under the
// same keys, read by decodeObject as a CaseMetadata's are.
type factsRecord struct {
	JudgeUsage JudgeUsage `json:"judge_usage,omitempty"`
	*CaseRepeats
	ReplyNote *ReplyNote `json:"reply_note,omitempty"`
}

// factsOf is meta's facts.
func factsOf(meta CaseMetadata) CaseFacts {
	return CaseFacts{JudgeUsage: meta.JudgeUsage, ReplyNote: meta.ReplyNote, CaseRepeats: meta.CaseRepeats}
}

// kept is what KeepMetadata kept of the case's response_metadata, nil
// when nothing was kept or the column has been replaced since.
func (c *CaseResult) kept() *scoredFacts {
	if s := c.scored; s != nil && sameBytes(s.j, c.ResponseMetadata) {
		return s
	}
	return nil
}

// sameBytes reports whether a and b are the same non-empty slice of
// memory, not merely equal bytes.
func sameBytes(a, b []byte) bool {
	return len(a) > 0 && len(a) == len(b) && &a[0] == &b[0]
}
