package tracefile

import (
	"context"
	"io"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// Cases close while the file is still being read, once the stream's
// clock has passed them: a trace's spans are released long before the
// end. A trace whose root never arrives closes after Timeout, noted.
func TestNext_closesAsTheClockPasses(t *testing.T) {
	const minute = 60_000
	reqs := sdkRequests(t, 4, func(tr trace.Tracer) {
		// The root of this call is never ended, so never exported.
		ctx, _ := tr.Start(context.Background(), "invoke_agent", at(0))
		_, chat := tr.Start(ctx, "chat", at(10), trace.WithAttributes(attribute.String("gen_ai.operation.name", "chat"),
			attribute.String("gen_ai.input.messages", msgs("user", "lost root"))))
		chat.End(at(20))
		for i := range 20 {
			genaiTrace(tr, (i+1)*minute, "", "q", "a")
		}
	})
	r, err := Open(writeFile(t, "traces.jsonl", jsonLines(t, reqs)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var first *Case
	var recordsAtFirst, maxOpen int
	var incomplete *Case
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first, recordsAtFirst = c, r.Stats().Records
		}
		if c.Question == "lost root" {
			incomplete = c
		}
		maxOpen = max(maxOpen, len(r.g.open))
	}
	if total := r.Stats().Records; recordsAtFirst >= total {
		t.Errorf("the first case came after record %d of %d; want it before the end", recordsAtFirst, total)
	}
	if maxOpen > 3 {
		t.Errorf("%d traces were open at once; want the passed ones closed", maxOpen)
	}
	if incomplete == nil || incomplete.Turns[0].Complete || !strings.Contains(strings.Join(incomplete.Notes, "; "), "incomplete") {
		t.Fatalf("the trace without its root = %+v; want a case noted incomplete", incomplete)
	}
	if st := r.Stats(); st.Cases != 21 || st.Late != 0 {
		t.Errorf("stats = %+v; want 21 cases", st)
	}
}

// A conversation longer than MaxTurns, or interrupted by more than
// ConversationGap, continues in cases of its own, numbered by Part.
func TestNext_conversationParts(t *testing.T) {
	const minute = 60_000
	reqs := sdkRequests(t, 8, func(tr trace.Tracer) {
		for i := range 5 {
			genaiTrace(tr, i*minute, "long", "turn "+string(rune('1'+i)), "ok")
		}
		genaiTrace(tr, 0, "gap", "before", "ok")
		genaiTrace(tr, 90*minute, "gap", "after", "ok")
	})
	cases, _, err := readAll(t, writeFile(t, "traces.jsonl", jsonLines(t, reqs)), Options{Limits: Limits{MaxTurns: 2}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cases {
		var turns []string
		for _, tr := range c.Turns {
			turns = append(turns, tr.Message)
		}
		got = append(got, c.ID+"#"+string(rune('0'+c.Part))+":"+strings.Join(turns, ","))
	}
	want := map[string]bool{"long#1:turn 1,turn 2": true, "long#2:turn 3,turn 4": true, "long#3:turn 5": true, "gap#1:before": true, "gap#2:after": true}
	if len(got) != len(want) {
		t.Fatalf("cases = %q; want %d", got, len(want))
	}
	for _, g := range got {
		if !want[g] {
			t.Errorf("unexpected case %q (all: %q)", g, got)
		}
	}
}

// Under a small MaxOpenBytes, traces and conversations close early with
// a note; every span still lands in a case or a count.
func TestNext_byteBudget(t *testing.T) {
	r, err := Open(writeFile(t, "traces.jsonl", jsonLines(t, traffic(t))), Options{Limits: Limits{MaxOpenBytes: 3000}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	kept, early := 0, 0
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range c.Turns {
			kept += tr.Evidence.Record.SpansReceived
		}
		if strings.Contains(strings.Join(c.Notes, ";")+strings.Join(c.Turns[0].Evidence.Record.Notes, ";"), "to stay within") {
			early++
		}
		if held := r.g.bytes + r.g.convBytes; held > 3000+4000 { // one record's spans may land before shedding
			t.Errorf("%d bytes held; want about the budget", held)
		}
	}
	st := r.Stats()
	if early == 0 || kept+st.Late != st.Spans {
		t.Errorf("%d cases closed early, %d spans in cases, stats %+v; want early closes and every span accounted for", early, kept, st)
	}
}

// A trace still incomplete when the file ends is a case of what arrived.
func TestNext_incompleteAtTheEnd(t *testing.T) {
	reqs := sdkRequests(t, 10, func(tr trace.Tracer) {
		ctx, _ := tr.Start(context.Background(), "invoke_agent", at(0)) // never ends, never exported
		_, chat := tr.Start(ctx, "chat", at(10), trace.WithAttributes(attribute.String("gen_ai.operation.name", "chat"),
			attribute.String("gen_ai.input.messages", msgs("user", "cut off")), attribute.Int("gen_ai.usage.input_tokens", 5)))
		chat.End(at(20))
	})
	cases, st, err := readAll(t, writeFile(t, "traces.jsonl", jsonLines(t, reqs)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 1 || st.Traces != 1 {
		t.Fatalf("%d cases, stats %+v; want 1", len(cases), st)
	}
	c := cases[0]
	if c.Question != "cut off" || c.Turns[0].Complete || !strings.Contains(strings.Join(c.Notes, ";"), "incomplete") ||
		c.Turns[0].Evidence.InputTokens == nil || *c.Turns[0].Evidence.InputTokens != 5 {
		t.Errorf("case = %+v; want the chat span's question and usage, noted incomplete", c)
	}
}
