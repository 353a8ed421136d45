package score

import (
	"context"
	"encoding/json"
	"fmt"
)

// MaxTokens ("max_tokens") passes when the agent's input and output
// tokens for the case (Sample.InputTokens + OutputTokens: a conversation's
// sum on the question, one turn's as a turn check) are at most limit. An
// agent that reported neither cannot pass: the metric is an error of kind
// "unknown_tokens".
//
// Params: "limit" (non-negative integer, tokens, required).
type MaxTokens struct {
	Limit int
}

var _ Scorer = (*MaxTokens)(nil)

// addTokenBudget registers max_tokens.
func addTokenBudget(r Registry) {
	d := define(newMaxTokens)
	d.Doc = Doc{Summary: "The agent's input plus output tokens are at most limit (a conversation's sum, or one turn's as a turn check).",
		Params:  []Param{{Name: "limit", Schema: count, Required: true, Description: "The most tokens, input and output together."}},
		Example: json.RawMessage(`{"limit": 4000}`)}
	r["max_tokens"] = d
}

func newMaxTokens(raw json.RawMessage) (*MaxTokens, error) {
	p, err := parseParams(raw, "limit")
	if err != nil {
		return nil, err
	}
	limit, err := p.count("limit")
	if err != nil {
		return nil, err
	}
	return &MaxTokens{Limit: limit}, nil
}

// Score compares the reported tokens with the limit.
func (c *MaxTokens) Score(_ context.Context, s Sample) (Assessment, error) {
	if s.InputTokens == nil && s.OutputTokens == nil {
		return Assessment{}, &Error{Kind: "unknown_tokens", Message: "max_tokens: the agent reported no tokens for this case"}
	}
	var n int64
	for _, t := range []*int64{s.InputTokens, s.OutputTokens} {
		if t != nil {
			n += *t
		}
	}
	if n <= int64(c.Limit) {
		return Assessment{Score: 1, Reason: fmt.Sprintf("%d tokens, within the limit of %d", n, c.Limit)}, nil
	}
	return Assessment{Score: 0, Reason: fmt.Sprintf("%d tokens, over the limit of %d", n, c.Limit)}, nil
}
