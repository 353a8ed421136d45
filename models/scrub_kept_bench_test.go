package models

import (
	"fmt"
	"testing"

	"github.com/agentevals-go/agentevals/sanitize"
)

// BenchmarkScrub_trace scrubs a traced case's response_metadata of n
// spans kept by SetMetadata (the typed check) and the same column as JSON.
func BenchmarkScrub_trace(b *testing.B) {
	for _, n := range []int{3, 512} {
		tr := &CaseTrace{TraceID: "4bf92f3577b34da6a3ce929d0e0e4736", SpansReceived: n, SpanActions: JSON(`[{"name":"lookup_order","arguments":{"id":3}}]`)}
		for i := range n {
			tr.Spans = append(tr.Spans, TraceSpan{Name: "execute_tool lookup_order", SpanID: fmt.Sprintf("%016x", i), Status: "ok",
				Attributes: SpanAttrsOf(map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup_order",
					"gen_ai.usage.input_tokens": "700", "gen_ai.tool.call.result": `{"status": "shipped", "eta": "2026-12-08"}`})})
		}
		meta := CaseMetadata{JudgeUsage: JudgeUsage{}, Trace: tr}
		var kept CaseResult
		if err := kept.SetMetadata(meta); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("spans%d/typed", n), func(b *testing.B) {
			for b.Loop() {
				kept.Scrub(sanitize.Policy{})
			}
		})
		b.Run(fmt.Sprintf("spans%d/json", n), func(b *testing.B) {
			plain := CaseResult{ResponseMetadata: kept.ResponseMetadata}
			for b.Loop() {
				plain.Scrub(sanitize.Policy{})
			}
		})
	}
}
