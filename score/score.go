// Package score scores agent answers. Every scorer, deterministic check,
// action-group comparison or LLM judge, satisfies one Scorer contract, is
// built by name from a Registry, and returns an Assessment with a score in
// [0,1] and a reason. A scorer that cannot judge returns an error: the
// runner records it as a metric error, never as a pass.
package score

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Action is one tool call: expected by the suite or observed by the agent.
// Group may be empty for observed calls whose group the agent did not know;
// expected actions always name one.
type Action struct {
	Group     string          `json:"group,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// An observed call's outcome, read from its span or reported by the
	// agent; all optional.
	Result     json.RawMessage `json:"result,omitempty"`
	Status     string          `json:"status,omitempty"` // StatusOK, StatusError or "" (unknown)
	DurationMS *float64        `json:"duration_ms,omitempty"`
}

// ActionJSON keeps a call's arguments or result text as JSON: JSON text as
// it is, any other text as a JSON string; nil for none.
func ActionJSON(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s)
	return b
}

// The statuses of an observed call (Action.Status).
const (
	StatusOK    = "ok"
	StatusError = "error"
)

// Usage is the token and cost account of one model call or a sum of them.
type Usage struct {
	InputTokens  int64    `json:"input_tokens"`
	OutputTokens int64    `json:"output_tokens"`
	Cost         *float64 `json:"cost,omitempty"` // USD; nil when the price is unknown
}

// addUsage sums two usages; the cost stays known only if both are known.
func addUsage(a, b Usage) Usage {
	sum := Usage{InputTokens: a.InputTokens + b.InputTokens, OutputTokens: a.OutputTokens + b.OutputTokens}
	if a.Cost != nil && b.Cost != nil {
		c := *a.Cost + *b.Cost
		sum.Cost = &c
	}
	return sum
}

// Sample is everything a scorer may look at for one case: the suite's
// definition of the question and what the agent returned.
type Sample struct {
	CaseID string
	// RunID is the run's id, when the run has one before it is saved.
	RunID string
	// Metric is the name of the metric being scored (set by the runner).
	Metric string
	Name   string
	// Question is the question data sent to the agent (a string or an object).
	Question json.RawMessage
	// ExpectedAnswer is the reference answer (usually a JSON string).
	ExpectedAnswer  json.RawMessage
	ExpectedActions []Action
	// Metadata is evaluation context (e.g. important_facts); untrusted text.
	Metadata map[string]any
	// Context holds retrieval context passages (golden-set "context").
	Context []string

	// Output is the agent's answer as JSON (usually a string).
	Output json.RawMessage
	// Actions is the observed trace; nil means the agent was not instrumented.
	Actions []Action
	// Trace is the agent's spans for the case; nil when tracing was off.
	Trace            *Trace
	ResponseMetadata map[string]any
	DurationMS       float64
	InputTokens      *int64
	OutputTokens     *int64
	Cost             *float64
	// Conversation is every turn of a conversation (score/conversation.go);
	// nil for a single question.
	Conversation *Conversation
}

// OutputText is the answer as text: a JSON string's value, any other JSON
// value's compact encoding, "" for no output.
func (s Sample) OutputText() string { return text(s.Output) }

// ExpectedText is the expected answer as text, like OutputText.
func (s Sample) ExpectedText() string { return text(s.ExpectedAnswer) }

// QuestionText is the question as text, like OutputText.
func (s Sample) QuestionText() string { return text(s.Question) }

func text(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	return string(raw)
}

// Assessment is a scorer's verdict.
type Assessment struct {
	Score  float64 // finite, in [0,1]
	Reason string  // non-empty
	// Details is extra evidence kept with the metric (optional).
	Details map[string]any
	// Usage is the judge's own usage (LLM judges only); never agent usage.
	Usage *Usage
}

// Scorer scores one sample.
type Scorer interface {
	// Score judges the sample. An error means the metric could not be
	// judged; it is recorded as a metric error and counts as 0.
	Score(ctx context.Context, s Sample) (Assessment, error)
}

// Error is a metric error with structured details for the evidence.
type Error struct {
	Kind    string         // short machine-readable kind, e.g. "invalid_reply"
	Message string         // human-readable
	Details map[string]any // raw problem: reply text, attempts, status codes
}

// Error reads "kind: message".
func (e *Error) Error() string { return e.Kind + ": " + e.Message }

// Kinds of *Error returned by Client.Generate and Judge.Assess.
const (
	KindRateLimited   = "rate_limited"   // HTTP 429 on the last attempt
	KindServerError   = "server_error"   // HTTP 5xx on the last attempt
	KindTimeout       = "timeout"        // the per-attempt timeout expired
	KindCanceled      = "canceled"       // the caller's context ended
	KindUnreachable   = "unreachable"    // no HTTP reply: connection refused or reset, DNS failure
	KindProviderError = "provider_error" // any other provider failure
	KindEmptyReply    = "empty_reply"    // the provider returned no text
	KindInvalidReply  = "invalid_reply"  // the text is not a usable verdict
	KindMissingInput  = "missing_input"  // the sample lacks what the metric needs
)

// ErrInvalidParams is wrapped by constructors given parameters they cannot use.
var ErrInvalidParams = errors.New("invalid evaluator parameters")

// The question fields a Definition may need (Definition.Needs), named as
// in a suite file's question.
const (
	// NeedExpectedAnswer is Sample.ExpectedAnswer: present and not null.
	NeedExpectedAnswer = "expected_answer"
	// NeedContext is Sample.Context: at least one non-blank passage.
	NeedContext = "context"
	// NeedExpectedActions is Sample.ExpectedActions: present, possibly
	// empty (an empty list expects no call).
	NeedExpectedActions = "expected_actions"
)

// Definition describes one evaluator type in a Registry.
type Definition struct {
	// NeedsJudge marks LLM metrics: without a configured judge they are not
	// calculated at all (null), never replaced by another score.
	NeedsJudge bool
	// Needs names the question fields (NeedExpectedAnswer, NeedContext,
	// NeedExpectedActions) the scorer cannot judge without. The runner
	// refuses, when it loads a suite, a question scored on the type that
	// lacks one, instead of a metric error in that case at run time.
	Needs []string
	// NeedsUnless names a param that supplies what Needs names: when the
	// evaluator's params have it, nothing is needed from the question
	// (exact_match and equals: "value").
	NeedsUnless string
	// Doc documents the type and its params (for the schema and `evalrun
	// checks`); custom types may leave it empty.
	Doc Doc
	// New builds a scorer from the evaluator's JSON parameters (may be empty)
	// and, for NeedsJudge types, the judge (never nil for those). A suite
	// builds each scorer once, when it is loaded, with ContextJudge: the
	// judge asked is then the one the scoring context carries.
	New func(params json.RawMessage, judge Judge) (Scorer, error)
}

// Required returns the fields of Needs the question must have when the
// evaluator's params are params: none when params have the NeedsUnless
// param.
func (d Definition) Required(params json.RawMessage) []string {
	if d.NeedsUnless != "" {
		var p map[string]json.RawMessage
		if json.Unmarshal(params, &p) == nil {
			if _, ok := p[d.NeedsUnless]; ok {
				return nil
			}
		}
	}
	return d.Needs
}

// Has reports whether the sample has the question field need (one of the
// Need constants) in the sense the Need constants describe; an unknown
// name is never had.
func (s Sample) Has(need string) bool {
	switch need {
	case NeedExpectedAnswer:
		return !isNull(s.ExpectedAnswer)
	case NeedContext:
		for _, c := range s.Context {
			if strings.TrimSpace(c) != "" {
				return true
			}
		}
		return false
	case NeedExpectedActions:
		return s.ExpectedActions != nil
	case NeedConversation:
		return s.hasConversation()
	default:
		return false
	}
}

// Judge asks a model for a verdict. Implementations live beside the LLM
// metrics; the deterministic scorers never use it.
type Judge interface {
	// Assess sends one fresh conversation (system and user prompts) and
	// returns the parsed verdict or a *Error.
	Assess(ctx context.Context, system, user string) (Assessment, error)
}

// Registry maps evaluator type names to their definitions. Build one with
// Builtins and extend it explicitly; there is no global registry.
type Registry map[string]Definition

// Names lists the registered type names in sorted order.
func (r Registry) Names() []string {
	names := make([]string, 0, len(r))
	for n := range r {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Build constructs the scorer of type name. judge may be nil when the type
// does not need one.
func (r Registry) Build(name string, params json.RawMessage, judge Judge) (Scorer, error) {
	def, ok := r[name]
	if !ok {
		return nil, fmt.Errorf("build evaluator %q: unknown type", name)
	}
	if def.NeedsJudge && judge == nil {
		return nil, fmt.Errorf("build evaluator %q: needs a judge", name)
	}
	s, err := def.New(params, judge)
	if err != nil {
		return nil, fmt.Errorf("build evaluator %q: %w", name, err)
	}
	return s, nil
}
