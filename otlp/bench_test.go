package otlp

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// BenchmarkReceiver_throughput posts batches of 512 GenAI tool spans (the
// SDKs' default batch) over loopback HTTP and reports spans per second,
// decoding and filing included.
func BenchmarkReceiver_throughput(b *testing.B) {
	r, err := Start(Limits{MaxSpans: 1 << 30, Quiet: time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	c := r.Begin()
	const batch = 512
	body, err := requestFor(c, batch, func(m pcommon.Map) {
		m.PutStr("gen_ai.operation.name", "execute_tool")
		m.PutStr("gen_ai.tool.name", "search")
		m.PutStr("gen_ai.tool.call.arguments", `{"q": "returns policy", "limit": 5}`)
		m.PutStr("gen_ai.tool.call.result", `{"hits": 3}`)
	}).MarshalProto()
	if err != nil {
		b.Fatal(err)
	}
	client := &http.Client{}
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	for b.Loop() {
		res, err := client.Post(r.Endpoint()+TracesPath, "application/x-protobuf", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatalf("status %d", res.StatusCode)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "spans/s")
}
