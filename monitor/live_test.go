package monitor

import (
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/tracefile"
)

// oneTrace is an export request of one trace: a root span with a user
// message and an answer.
func oneTrace(n byte) ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "shop")
	sp := rs.ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	sp.SetTraceID(pcommon.TraceID{n, 5})
	sp.SetSpanID(pcommon.SpanID{n, 1})
	sp.SetName("invoke_agent shop")
	at := time.Date(2026, 11, 3, 9, 0, int(n), 0, time.UTC)
	sp.SetStartTimestamp(pcommon.NewTimestampFromTime(at))
	sp.SetEndTimestamp(pcommon.NewTimestampFromTime(at.Add(time.Second)))
	sp.Attributes().PutStr("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"Where is order 9?"}]}]`)
	return td
}

// TestLive: requests taken while the window is open are read as a file of
// the same spans would be; those after it closed are dropped and counted;
// a window in which nothing arrived is an error.
func TestLive(t *testing.T) {
	m, err := Load(write(t, `{"monitor":"shop","agent":"shop","checks":[{"type":"error_spans"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	read := func(feed func(*Live)) (*Window, *Live, error) {
		live := NewLive()
		type result struct {
			w   *Window
			err error
		}
		done := make(chan result, 1)
		go func() {
			w, err := m.ReadFrom([]Source{live.Source("live")}, tracefile.Limits{})
			live.Stop()
			done <- result{w, err}
		}()
		feed(live)
		live.Close()
		live.Take(oneTrace(99)) // after the window: dropped
		r := <-done
		return r.w, live, r.err
	}
	w, live, err := read(func(l *Live) {
		for n := range byte(5) {
			l.Take(oneTrace(n + 1))
		}
		l.Take(ptrace.NewTraces()) // no spans: nothing to read
	})
	if err != nil {
		t.Fatal(err)
	}
	if requests, dropped := live.Counts(); requests != 5 || dropped != 1 || len(w.Suite.Cases) != 5 || w.Record.SpansRead != 5 {
		t.Errorf("requests %d, dropped %d, cases %d, record %+v; want 5, 1, 5", requests, dropped, len(w.Suite.Cases), w.Record)
	}
	if _, _, err := read(func(*Live) {}); err == nil {
		t.Error("an empty live window should be an error")
	}
}
