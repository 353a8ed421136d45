package tracefile

import (
	"sort"
	"time"

	"github.com/agentevals-go/agentevals/otlp"
	"github.com/agentevals-go/agentevals/sanitize"
)

// Case is one agent invocation trace, or one conversation of several.
type Case struct {
	// ID is the trace id in hex, or the conversation's id.
	ID string
	// ConversationID is the conversation's id; empty for a single trace.
	ConversationID string
	// Part numbers the cases of a conversation cut by MaxTurns or memory
	// (1 for the first).
	Part int
	// Service is the service.name of the first turn's spans.
	Service string
	// Question is the user's first message; Output the final answer.
	Question, Output string
	// Turns are the traces in start order: one for a single trace.
	Turns []Turn
	// Notes say what was cut, closed early or left incomplete.
	Notes []string
}

// Turn is one trace: one agent invocation.
type Turn struct {
	TraceID string
	// Start and End span its spans.
	Start, End time.Time
	// Message is the user's message that began the turn (the last user
	// message of its input, which for a conversation holds the history);
	// Answer the agent's answer.
	Message, Answer string
	// Evidence is the spans as the run's traces map them: actions, usage,
	// the trace checks' view and the stored record.
	Evidence otlp.Evidence
	// Complete says the root span and every span's parent arrived.
	Complete bool

	first   string // the first user message of the turn's input
	service string
}

// Source is what a case's metadata keeps of where it came from.
type Source struct {
	ConversationID string    `json:"conversation_id,omitempty"`
	Start          time.Time `json:"start"`
	End            time.Time `json:"end"`
	TraceIDs       []string  `json:"trace_ids"`
}

// Source names the case's traces and the time window they span.
func (c *Case) Source() Source {
	s := Source{ConversationID: c.ConversationID, TraceIDs: make([]string, 0, len(c.Turns))}
	for i, t := range c.Turns {
		s.TraceIDs = append(s.TraceIDs, t.TraceID)
		if i == 0 || t.Start.Before(s.Start) {
			s.Start = t.Start
		}
		if t.End.After(s.End) {
			s.End = t.End
		}
	}
	return s
}

// key is what Options.Keep chooses by.
func (c *Case) key() string { return c.ID }

// turn maps a closed trace.
func (t *openTrace) turn(l Limits, note string) Turn {
	col := t.spans.Collected()
	complete := t.complete()
	if note != "" {
		col.Notes = append(col.Notes, note)
	} else if !complete {
		col.Notes = append(col.Notes, "the trace is incomplete: its root span or a parent span never arrived")
	}
	tr := Turn{TraceID: col.TraceID, Start: unixTime(t.start), End: unixTime(t.end), Evidence: col.Evidence(), Complete: complete, service: t.service}
	in, out := t.rootIn, t.rootOut
	if in.empty() {
		in = t.in.p
	}
	if out.empty() {
		out = t.out.p
	}
	if users := userMessages(in.messages()); len(users) > 0 {
		tr.first = clean(users[0], l.MaxTextBytes)
		tr.Message = clean(users[len(users)-1], l.MaxTextBytes)
	}
	tr.Answer = clean(answerText(out.messages()), l.MaxTextBytes)
	return tr
}

func unixTime(ns uint64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, int64(ns)).UTC()
}

// clean cuts s to n bytes at a rune boundary and repairs it.
func clean(s string, n int) string {
	if len(s) > n {
		for n > 0 && s[n]&0xC0 == 0x80 {
			n--
		}
		s = s[:n]
	}
	out, _ := sanitize.Repair(s)
	return out
}

func singleCase(t Turn) *Case {
	return &Case{ID: t.TraceID, Part: 1, Service: t.service, Question: t.first, Output: t.Answer, Turns: []Turn{t}, Notes: t.Evidence.Record.Notes}
}

func conversationCase(id string, part int, turns []Turn, notes []string) *Case {
	sort.SliceStable(turns, func(i, j int) bool { return turns[i].Start.Before(turns[j].Start) })
	c := &Case{ID: clean(id, 256), ConversationID: clean(id, 256), Part: part, Turns: turns, Notes: notes}
	c.Service, c.Question = turns[0].service, turns[0].first
	c.Output = turns[len(turns)-1].Answer
	return c
}
