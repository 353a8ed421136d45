package agent

import (
	"context"
	"encoding/json"

	"github.com/agentevals-go/agentevals/money"
	"github.com/agentevals-go/agentevals/score"
)

// Question is what an agent receives for one case: the question data and the
// case's id and name, never the expected answer or evaluation metadata.
type Question struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Question json.RawMessage `json:"question"`
	// Traceparent is the W3C trace context of this call, sent to worker
	// agents with each question when the run has tracing on.
	Traceparent string `json:"traceparent,omitempty"`
	// Conversation fields (agent/history.go), absent for a single question.
	Conversation
}

// Response is what an agent returns for one case.
type Response struct {
	Output json.RawMessage `json:"output"`
	// Actions is the observed tool-call trace: nil means not instrumented,
	// an empty slice means none observed.
	Actions      []score.Action `json:"actions"`
	InputTokens  *int64         `json:"input_tokens,omitempty"`
	OutputTokens *int64         `json:"output_tokens,omitempty"`
	Cost         *float64       `json:"cost,omitempty"`
	// Metadata is kept as evidence; numbers in a reply parsed from JSON
	// are json.Number, so their digits survive.
	Metadata map[string]any `json:"metadata,omitempty"`

	// CostText is Cost exactly as written when the reply came as JSON
	// (Cost is its nearest float64): the saved cost is this text when it
	// is a number, else the shortest decimal of Cost.
	CostText money.Decimal `json:"-"`
}

// SavedCost is the case's cost column: CostText when it is a number, else
// the shortest decimal of Cost; nil when neither is set.
func (r Response) SavedCost() *money.Decimal {
	switch {
	case r.CostText != "":
		if d, err := money.ParseDecimal(string(r.CostText)); err == nil {
			return &d
		}
		if r.Cost != nil {
			d := money.DecimalOf(*r.Cost)
			return &d
		}
	case r.Cost != nil:
		d := money.DecimalOf(*r.Cost)
		return &d
	}
	return nil
}

// Agent answers questions. Implementations must be safe for concurrent use
// by as many goroutines as the run's concurrency.
//
// Answer must honour ctx: return promptly once it is done (the case
// deadline passed or the run was interrupted). The runner cannot stop a
// goroutine: one second after ctx ends it stops waiting, records the case
// as an agent error whose message says the agent did not return (kind
// "timeout", or "interrupted"; details.agent_returned is false) and goes
// on, so an Answer that ignores ctx may still be running, and acting (for
// example calling APIs, which replay then refuses), while the run is saved
// and after Execute returns.
type Agent interface {
	Answer(ctx context.Context, q Question) (Response, error)
}

// Func adapts a Go function to the Agent interface. Like any Agent, the
// function must return soon after ctx is done; one that ignores ctx is
// abandoned a second after the deadline (the case error says the agent did
// not return) and may still be running when the run is saved.
type Func func(ctx context.Context, q Question) (Response, error)

// Answer calls f.
func (f Func) Answer(ctx context.Context, q Question) (Response, error) { return f(ctx, q) }

var _ Agent = Func(nil)
