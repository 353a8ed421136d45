package runner

import (
	"fmt"
	"testing"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
)

// BenchmarkScrubCase_trace512 scrubs a traced case as the run saves it:
// a 512-span stored trace record of model and tool spans (usage counts,
// messages, tool arguments and results) in response_metadata.
func BenchmarkScrubCase_trace512(b *testing.B) {
	tr := &models.CaseTrace{TraceID: "0af7651916cd43dd8448eb211c80319c", SpansReceived: 512, ActionsFrom: "spans"}
	for i := range 512 {
		attrs := map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup_order",
			"gen_ai.tool.call.arguments": fmt.Sprintf(`{"id": %d, "fields": ["status", "eta"]}`, i),
			"gen_ai.tool.call.result":    `{"status": "shipped", "eta": "2026-12-08", "note": "left the depot at 09:12"}`}
		if i%2 == 0 {
			attrs = map[string]string{"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini",
				"gen_ai.usage.input_tokens": fmt.Sprint(700 + i), "gen_ai.usage.output_tokens": "42",
				"gen_ai.output.messages": `[{"role": "assistant", "parts": [{"type": "text", "content": "Order 42 ships on Tuesday."}]}]`}
			tr.ModelCalls++
		}
		tr.Spans = append(tr.Spans, models.TraceSpan{SpanID: fmt.Sprintf("%016x", i+1), Name: "span", Status: "ok",
			StartMS: float64(i), DurationMS: 0.5, Attributes: models.SpanAttrsOf(attrs)})
	}
	meta, err := models.CaseMetadata{Trace: tr}.Encode()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(meta)))
	for b.Loop() {
		c := &models.CaseResult{Output: models.JSON(`"Order 42 ships on Tuesday."`), ResponseMetadata: meta}
		scrubCase(c, sanitize.Policy{})
		if len(c.ResponseMetadata) != len(meta) {
			b.Fatalf("the trace record was changed: %s", c.ResponseMetadata[:200])
		}
	}
	b.ReportMetric(float64(b.N*512)/b.Elapsed().Seconds(), "spans/s")
}
