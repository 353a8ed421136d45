package monitor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/tracefile"
)

// ConversationKey is the question metadata key under which a window keeps
// a conversation case's turns (each user message and the answer it got),
// so a case read back from the database can become a conversation again.
const ConversationKey = "conversation"

// Draft is a production case written back as a suite question for a
// person to review: the user's messages, the answer the agent gave as the
// reference, the calls it made as the expected actions, and the monitor
// checks that should hold.
type Draft struct {
	// Question is the user's message of a single trace; Turns the user's
	// messages of a conversation (then Question is empty).
	Question string
	Turns    []DraftTurn
	// Answer is the agent's final answer, kept as the reference to review.
	Answer string
	// Actions are the tool calls observed, in order.
	Actions []score.Action
	// Failed names the metrics the case failed or errored on, when it was
	// scored.
	Failed []string
	// Source says where the case came from.
	Source DraftSource
}

// DraftTurn is one turn of a conversation: the user's message and the
// answer it got.
type DraftTurn struct {
	User  string `json:"user"`
	Agent string `json:"agent"`
}

// DraftSource is kept under the question's metadata.production: the run
// and case, or the file, and the traces the question was read from.
type DraftSource struct {
	Monitor        string    `json:"monitor,omitempty"`
	RunID          string    `json:"run_id,omitempty"`
	CaseID         string    `json:"case_id,omitempty"`
	File           string    `json:"file,omitempty"`
	ConversationID string    `json:"conversation_id,omitempty"`
	TraceIDs       []string  `json:"trace_ids"`
	Start          time.Time `json:"start"`
	End            time.Time `json:"end"`
}

// turnsOf is a conversation case's turns as the window keeps them.
func turnsOf(c *tracefile.Case) []DraftTurn {
	out := make([]DraftTurn, len(c.Turns))
	for i, t := range c.Turns {
		out[i] = DraftTurn{User: t.Message, Agent: t.Answer}
	}
	return out
}

// DraftFromTrace drafts a question from a case read from a trace file.
func DraftFromTrace(c *tracefile.Case, file string) (Draft, error) {
	src := c.Source()
	d := Draft{Answer: c.Output, Source: DraftSource{CaseID: caseID(c), File: file, ConversationID: src.ConversationID,
		TraceIDs: src.TraceIDs, Start: src.Start, End: src.End}}
	if ev := joined(c.Turns); ev.Actions != nil {
		d.Actions = ev.Actions
	}
	if c.ConversationID != "" {
		d.Turns = turnsOf(c)
	} else {
		d.Question = c.Question
	}
	return d, d.check("trace " + caseID(c))
}

// DraftFromCase drafts a question from a case of a saved production
// window.
func DraftFromCase(run *models.Run, cr *models.CaseResult) (Draft, error) {
	what := fmt.Sprintf("case %q of run %s", cr.CaseID, run.ID)
	if !models.IsProduction(run) {
		return Draft{}, fmt.Errorf("run %s is not a production window (evalrun score-traces): its questions are in its suite already", run.ID)
	}
	d := Draft{Source: DraftSource{Monitor: run.Suite, RunID: run.ID.String(), CaseID: cr.CaseID}}
	if s, ok := jsonString(cr.Question); ok {
		d.Question = s
	}
	d.Answer, _ = jsonString(cr.Output)
	var meta struct {
		Production   models.ProductionCase `json:"production"`
		Conversation []DraftTurn           `json:"conversation"`
	}
	if err := json.Unmarshal(nonNull(cr.Metadata, "{}"), &meta); err != nil {
		return Draft{}, fmt.Errorf("%s: metadata: %w", what, err)
	}
	pc := meta.Production
	d.Source.ConversationID, d.Source.TraceIDs, d.Source.Start, d.Source.End = pc.ConversationID, pc.TraceIDs, pc.Start, pc.End
	if len(meta.Conversation) > 0 {
		d.Question, d.Turns = "", meta.Conversation
	}
	if raw := nonNull(cr.Actions, ""); len(raw) > 0 {
		var calls []struct {
			Group     *string         `json:"group"`
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal(raw, &calls); err != nil {
			return Draft{}, fmt.Errorf("%s: actions: %w", what, err)
		}
		d.Actions = make([]score.Action, 0, len(calls))
		for _, c := range calls {
			a := score.Action{Name: c.Name, Arguments: c.Arguments}
			if c.Group != nil {
				a.Group = *c.Group
			}
			d.Actions = append(d.Actions, a)
		}
	}
	for _, m := range cr.Metrics {
		if !m.Passed || len(nonNull(m.ErrorDetails, "")) > 0 {
			d.Failed = append(d.Failed, m.Name)
		}
	}
	return d, d.check(what)
}

// check refuses a draft without a user message to ask.
func (d Draft) check(what string) error {
	if strings.TrimSpace(d.Question) != "" {
		return nil
	}
	for _, t := range d.Turns {
		if strings.TrimSpace(t.User) == "" {
			return fmt.Errorf("%s: a turn holds no user message: nothing to ask", what)
		}
	}
	if len(d.Turns) == 0 {
		return fmt.Errorf("%s: the trace holds no user message (gen_ai.input.messages, input.value): nothing to ask", what)
	}
	return nil
}

func jsonString(raw models.JSON) (string, bool) {
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

func nonNull(raw models.JSON, empty string) []byte {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 || string(b) == "null" {
		return []byte(empty)
	}
	return b
}

// ErrNoCheck is wrapped by ChecksNamed when a name is no check of the
// monitor.
var ErrNoCheck = errors.New("no such check in the monitor")

// ChecksNamed returns the monitor's checks whose metric name (their name,
// else their type) is in names, as written in the monitor file.
func (m *Monitor) ChecksNamed(names []string) ([]json.RawMessage, error) {
	var all []json.RawMessage
	if err := json.Unmarshal(m.checks, &all); err != nil {
		return nil, fmt.Errorf("monitor %s: checks: %w", m.Path, err)
	}
	byName := map[string]json.RawMessage{}
	var known []string
	for _, raw := range all {
		var c struct{ Name, Type string }
		_ = json.Unmarshal(raw, &c)
		name := c.Name
		if name == "" {
			name = c.Type
		}
		byName[name] = raw
		known = append(known, name)
	}
	out := make([]json.RawMessage, 0, len(names))
	for _, n := range names {
		raw, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("monitor %s: check %q: %w (it has %s)", m.Path, n, ErrNoCheck, strings.Join(known, ", "))
		}
		out = append(out, raw)
	}
	return out, nil
}
