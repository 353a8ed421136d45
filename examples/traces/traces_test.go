package main

import (
	"context"
	"io"
	"testing"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/otlp"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/suite"
)

// TestSuite runs suite.json as evalrun run --traces does: the worker
// (go run .) reports no actions, and every path check passes on the tool
// calls read from its spans.
func TestSuite(t *testing.T) {
	s, err := suite.Load("suite.json")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Traces {
		t.Fatal(`suite.json should say "traces": true`)
	}
	recv, err := otlp.Start(otlp.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer recv.Close()
	a, err := adapter.New(s.Agent, adapter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := a.(io.Closer); ok {
		defer c.Close()
	}
	run, err := runner.Execute(context.Background(), s, a, runner.ExecOptions{Traces: recv})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range run.Cases {
		if c.Status != models.StatusPassed {
			t.Errorf("%s: %s (%s)", c.CaseID, c.Status, c.ErrorDetails)
			for _, m := range c.Metrics {
				if !m.Passed {
					t.Errorf("  %s: %v", m.Name, *m.Reason)
				}
			}
		}
		meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
		if err != nil || meta.Trace == nil || meta.Trace.ActionsFrom != "spans" {
			t.Errorf("%s: the actions should come from spans: %s", c.CaseID, c.ResponseMetadata)
		}
	}
}
