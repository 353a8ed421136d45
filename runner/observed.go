package runner

import (
	"context"
	"time"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/otlp"
	"github.com/agentevals-go/agentevals/suite"
)

// Observed is an answer the agent already gave, read from its traces: it
// is scored as a reply would be, without calling the agent
// (ExecOptions.Observed).
type Observed struct {
	Response agent.Response
	// Trace is what its spans said; nil when none were read.
	Trace *otlp.Evidence
	// Duration is how long the agent took.
	Duration time.Duration
}

// observed is ask for a case whose answer was already observed.
func (e *executor) observed(ctx context.Context, c *suite.Case) (agent.Response, *models.APIReplay, *otlp.Evidence, time.Duration, bool, error) {
	if ctx.Err() != nil {
		return agent.Response{}, nil, nil, 0, false, &adapter.Error{Kind: "interrupted", Message: ctx.Err().Error()}
	}
	o, ok := e.opts.Observed(c.ID)
	if !ok {
		return agent.Response{}, nil, nil, 0, false, &adapter.Error{Kind: "setup", Message: "no observed answer for case " + c.ID}
	}
	if o.Trace != nil {
		tr := *o.Trace // applyTrace marks the record: keep the caller's intact
		if tr.Record != nil {
			rec := *tr.Record
			tr.Record = &rec
		}
		o.Trace = &tr
	}
	return o.Response, nil, o.Trace, o.Duration, true, nil
}
