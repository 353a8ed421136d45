package monitor

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/otlp"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
	"github.com/agentevals-go/agentevals/tracefile"
)

// Window is one window of production traces made ready to score: a suite
// of one question per case and each case's observed answer.
type Window struct {
	Suite *suite.Suite
	// Record is the run summary's production record.
	Record models.Production
	// Notes say what was cut or incomplete in the cases, one line each.
	Notes    []string
	observed map[string]runner.Observed
}

// ErrEmpty is wrapped by Read when no case of the window is left to score.
var ErrEmpty = errors.New("no case to score")

// Observed is the answer observed for a question id (runner.ExecOptions.Observed).
func (w *Window) Observed(id string) (runner.Observed, bool) {
	o, ok := w.observed[id]
	return o, ok
}

// Source is one stream of exported traces: a file, or a live window.
type Source struct {
	// Name is the file as given, or the live window's address.
	Name string
	// Open starts reading it.
	Open func(tracefile.Options) (*tracefile.Reader, error)
}

// Files are trace files as sources.
func Files(paths []string) []Source {
	out := make([]Source, len(paths))
	for i, p := range paths {
		out[i] = Source{Name: p, Open: func(o tracefile.Options) (*tracefile.Reader, error) { return tracefile.Open(p, o) }}
	}
	return out
}

// Read reads the trace files into a window: sampled by trace or
// conversation id, filtered, capped at MaxCases (the earliest cases kept).
// A file that does not parse is an error naming it; so is a window
// without a case to score (wrapping ErrEmpty).
func (m *Monitor) Read(files []string, limits tracefile.Limits) (*Window, error) {
	w, err := m.ReadFrom(Files(files), limits)
	if w != nil {
		w.Record.Files = files
	}
	return w, err
}

// ReadFrom is Read over any sources.
func (m *Monitor) ReadFrom(srcs []Source, limits tracefile.Limits) (*Window, error) {
	w := &Window{Record: models.Production{Monitor: m.Name, Files: []string{}, Sample: m.Sample}, observed: map[string]runner.Observed{}}
	keep := func(key string) bool { return tracefile.Sampled(key, m.Sample) }
	var cases []*tracefile.Case
	seen := map[string]bool{}
	for _, src := range srcs {
		got, st, err := readSource(src, tracefile.Options{Limits: limits, Keep: keep})
		if err != nil {
			return nil, err
		}
		w.Record.Read += st.Cases + st.LeftOut
		w.Record.Sampled += st.Cases
		w.Record.SpansRead += st.Spans
		w.Record.SpansSkipped += st.NoTraceID + st.Late
		for _, c := range got {
			id := caseID(c)
			switch {
			case seen[id]:
				w.Record.Duplicates++
			case !m.Traces.Match(c):
				seen[id] = true
				w.Record.Filtered++
			default:
				seen[id] = true
				cases = append(cases, c)
			}
		}
	}
	sortCases(cases)
	if len(cases) > m.MaxCases {
		w.Record.Capped = len(cases) - m.MaxCases
		cases = cases[:m.MaxCases]
	}
	w.Record.Skipped = w.Record.Duplicates + w.Record.Filtered + w.Record.Capped
	if len(cases) == 0 {
		return nil, fmt.Errorf("monitor %q: %w: %d cases read, %d sampled at %g, %d filtered out by traces, %d read twice",
			m.Name, ErrEmpty, w.Record.Read, w.Record.Sampled, m.Sample, w.Record.Filtered, w.Record.Duplicates)
	}
	qs := make([]question, len(cases))
	for i, c := range cases {
		src := c.Source()
		if i == 0 || src.Start.Before(w.Record.WindowStart) {
			w.Record.WindowStart = src.Start
		}
		if src.End.After(w.Record.WindowEnd) {
			w.Record.WindowEnd = src.End
		}
		pc := models.ProductionCase{ConversationID: src.ConversationID, Start: src.Start, End: src.End, TraceIDs: src.TraceIDs, Service: c.Service}
		meta := map[string]any{models.ProductionKey: pc}
		if c.ConversationID != "" {
			meta[ConversationKey] = turnsOf(c)
		}
		qs[i] = question{ID: caseID(c), Question: questionOf(c), Metadata: meta}
		w.observed[qs[i].ID] = observedOf(c)
		for _, n := range c.Notes {
			w.Notes = append(w.Notes, qs[i].ID+": "+n)
		}
	}
	s, err := m.suite(qs)
	if err != nil {
		return nil, err
	}
	w.Suite = s
	return w, nil
}

// readSource reads the chosen cases of one source.
func readSource(src Source, opts tracefile.Options) ([]*tracefile.Case, tracefile.Stats, error) {
	r, err := src.Open(opts)
	if err != nil {
		return nil, tracefile.Stats{}, err
	}
	defer r.Close()
	var out []*tracefile.Case
	for {
		c, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, r.Stats(), nil
		}
		if err != nil {
			return nil, r.Stats(), err
		}
		out = append(out, c)
	}
}

// caseID is the question id of a case: its trace or conversation id, and
// the part of a conversation cut in several.
func caseID(c *tracefile.Case) string {
	if c.Part > 1 {
		return c.ID + "#" + strconv.Itoa(c.Part)
	}
	return c.ID
}

// observedOf is the case's answer as the runner scores it: the final
// answer, and the turns' spans joined (actions and usage summed).
func observedOf(c *tracefile.Case) runner.Observed {
	out, _ := json.Marshal(c.Output)
	o := runner.Observed{Response: agent.Response{Output: out}}
	if len(c.Turns) == 0 {
		return o
	}
	ev := joined(c.Turns)
	o.Trace = &ev
	src := c.Source()
	o.Duration = src.End.Sub(src.Start)
	if o.Duration < 0 {
		o.Duration = 0
	}
	return o
}

// joined is the evidence of every turn as one: the first turn's record
// with every turn's spans, actions and usage.
func joined(turns []tracefile.Turn) otlp.Evidence {
	if len(turns) == 1 {
		return turns[0].Evidence
	}
	first := turns[0].Evidence
	ev := otlp.Evidence{Actions: first.Actions, InputTokens: first.InputTokens, OutputTokens: first.OutputTokens}
	if first.Record != nil {
		rec := *first.Record
		ev.Record = &rec
	}
	if first.Trace != nil {
		tr := *first.Trace
		tr.Spans = append([]score.Span(nil), tr.Spans...)
		ev.Trace = &tr
	}
	for _, t := range turns[1:] {
		e := t.Evidence
		if e.Actions != nil {
			ev.Actions = append(ev.Actions, e.Actions...)
		}
		ev.InputTokens, ev.OutputTokens = sum(ev.InputTokens, e.InputTokens), sum(ev.OutputTokens, e.OutputTokens)
		if e.Trace != nil {
			if ev.Trace == nil {
				ev.Trace = &score.Trace{}
			}
			ev.Trace.Spans = append(ev.Trace.Spans, e.Trace.Spans...)
			ev.Trace.Dropped += e.Trace.Dropped
		}
		if e.Record != nil && ev.Record != nil {
			ev.Record.Spans = append(ev.Record.Spans, e.Record.Spans...)
			ev.Record.SpansReceived += e.Record.SpansReceived
			ev.Record.SpansDropped += e.Record.SpansDropped
			ev.Record.ModelCalls += e.Record.ModelCalls
			ev.Record.Notes = append(ev.Record.Notes, e.Record.Notes...)
		}
	}
	return ev
}

func sum(a, b *int64) *int64 {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	s := *a + *b
	return &s
}

// questionOf is the case's question: the user's first message, or, when
// the traces hold none, an object saying so (a question is never blank).
func questionOf(c *tracefile.Case) any {
	if strings.TrimSpace(c.Question) != "" {
		return c.Question
	}
	return map[string]any{"user_message": nil, "trace_id": c.Turns[0].TraceID}
}
