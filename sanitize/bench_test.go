package sanitize_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentevals-go/agentevals/sanitize"
)

// traceRecord is a stored trace record of n spans as a traced case keeps
// it in response_metadata: GenAI model and tool spans with usage counts,
// messages, tool arguments and results, none holding a credential.
func traceRecord(n int) []byte {
	spans := make([]map[string]any, n)
	for i := range spans {
		attrs := map[string]string{
			"service.name":               "support-agent",
			"gen_ai.operation.name":      "execute_tool",
			"gen_ai.tool.name":           "search_orders",
			"gen_ai.tool.call.id":        fmt.Sprintf("call_%08d", i),
			"gen_ai.tool.call.arguments": fmt.Sprintf(`{"query": "where is order %d?", "limit": 5, "include_history": true}`, 4000+i),
			"gen_ai.tool.call.result":    `{"status": "shipped", "carrier": "DHL", "eta": "2026-12-08T10:00:00Z", "note": "left the warehouse at 09:12"}`,
		}
		if i%2 == 0 {
			attrs = map[string]string{
				"service.name":                         "support-agent",
				"gen_ai.operation.name":                "chat",
				"gen_ai.request.model":                 "gpt-4o-mini",
				"gen_ai.usage.input_tokens":            fmt.Sprint(800 + i),
				"gen_ai.usage.output_tokens":           fmt.Sprint(40 + i%50),
				"gen_ai.usage.cache_read.input_tokens": "512",
				"gen_ai.input.messages":                `[{"role": "user", "parts": [{"type": "text", "content": "My parcel has not arrived: can you check order 4711 for me?"}]}]`,
				"gen_ai.output.messages":               `[{"role": "assistant", "parts": [{"type": "text", "content": "Order 4711 left the warehouse today at 09:12 and should arrive on Tuesday."}]}]`,
				"http.url":                             "https://api.example.com/v1/chat/completions",
			}
		}
		spans[i] = map[string]any{"span_id": fmt.Sprintf("%016x", i+1), "parent_id": "00000000000000aa", "name": fmt.Sprintf("span %d", i),
			"kind": "internal", "start_ms": float64(i) * 1.5, "duration_ms": 1.25, "status": "ok", "attributes": attrs}
	}
	meta := map[string]any{"otlp_trace": map[string]any{"trace_id": "0af7651916cd43dd8448eb211c80319c", "model_calls": n / 2,
		"spans_received": n, "spans": spans, "actions_from": "spans"}}
	b, err := json.Marshal(meta)
	if err != nil {
		panic(err)
	}
	return b
}

// BenchmarkJSON_trace512 sanitizes a stored 512-span trace record, the
// largest column a traced case saves.
func BenchmarkJSON_trace512(b *testing.B) {
	rec := traceRecord(512)
	b.SetBytes(int64(len(rec)))
	for b.Loop() {
		sanitize.JSON(rec)
	}
	b.ReportMetric(float64(b.N*512)/b.Elapsed().Seconds(), "spans/s")
}

// BenchmarkText_prose redacts answer-like prose with no credential.
func BenchmarkText_prose(b *testing.B) {
	s := "Your order 4711 left the warehouse on 2026-12-04 at 09:12: the carrier is DHL, tracking key points are listed below. " +
		"Please keep your receipt; the token of appreciation voucher is valid until March. See https://shop.example.com/orders/4711?lang=en for details.\n"
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		sanitize.Text(s)
	}
}

// BenchmarkText_secrets redacts text holding several credential shapes.
func BenchmarkText_secrets(b *testing.B) {
	s := "Authorization: Bearer abc123def456\npassword=hunter2 and api_key: \"k-123\"; key sk-abcdefghijklmnop and https://bob:pw@db.example/x " +
		`{"client_secret": "xyz"} AKIAABCDEFGHIJKLMNOP ghp_ABCDEFGHIJKLMNOP\n`
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		sanitize.Text(s)
	}
}
