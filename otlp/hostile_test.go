package otlp

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// endNotes ends the case and returns its notes joined.
func endNotes(c *Case) (Collected, string) {
	got := c.End(context.Background())
	return got, strings.Join(got.Notes, " | ")
}

func TestReceiver_malformedProtobuf(t *testing.T) {
	r := startReceiver(t, fast)
	c := r.Begin()
	if code := post(t, r, "application/x-protobuf", []byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2}); code != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", code)
	}
	if code := post(t, r, "application/json", []byte(`{"resourceSpans": [`)); code != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", code)
	}
	if code := post(t, r, "text/plain", []byte(`hello`)); code != http.StatusUnsupportedMediaType {
		t.Fatalf("status %d, want 415", code)
	}
	// The receiver still works after that.
	body, _ := requestFor(c, 1, nil).MarshalProto()
	if code := post(t, r, "application/x-protobuf", body); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	got, notes := endNotes(c)
	if got.Received != 1 || !strings.Contains(notes, "refused 3 OTLP requests") || !strings.Contains(notes, "not a valid export request") {
		t.Fatalf("received %d, notes %q", got.Received, notes)
	}
}

// zeros is an endless body that counts what was read of it.
type zeros struct{ read int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += int64(len(p))
	return len(p), nil
}

func TestReceiver_hugeBody(t *testing.T) {
	r := startReceiver(t, fast)
	c := r.Begin()
	const hundredMB = 100 << 20
	// Declared length: refused before reading.
	req, _ := http.NewRequest(http.MethodPost, r.Endpoint()+TracesPath, io.LimitReader(&zeros{}, hundredMB))
	req.ContentLength = hundredMB
	req.Header.Set("Content-Type", "application/x-protobuf")
	res, err := http.DefaultClient.Do(req)
	if err == nil {
		res.Body.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("status %d, want 413", res.StatusCode)
		}
	}
	// Chunked (no length): read up to the cap only.
	z := &zeros{}
	req, _ = http.NewRequest(http.MethodPost, r.Endpoint()+TracesPath, io.LimitReader(z, hundredMB))
	req.Header.Set("Content-Type", "application/x-protobuf")
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("status %d, want 413", res.StatusCode)
		}
	}
	// A gzip bomb: small on the wire, huge inflated.
	var bomb bytes.Buffer
	zw := newGzip(&bomb)
	_, _ = io.Copy(zw, io.LimitReader(&zeros{}, hundredMB))
	zw.Close()
	req, _ = http.NewRequest(http.MethodPost, r.Endpoint()+TracesPath, bytes.NewReader(bomb.Bytes()))
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("Content-Encoding", "gzip")
	if res, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else {
		res.Body.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("gzip bomb: status %d, want 413", res.StatusCode)
		}
	}
	_, notes := endNotes(c)
	if !strings.Contains(notes, "body too large") {
		t.Fatalf("notes %q", notes)
	}
}

// A million spans for one case, in batches as an SDK sends them: the case
// keeps MaxSpans, counts the rest, and the heap stays bounded.
func TestReceiver_millionSpans(t *testing.T) {
	r := startReceiver(t, fast)
	c := r.Begin()
	const batches, per = 40, 25_000
	body, err := requestFor(c, per, func(m pcommon.Map) {
		m.PutStr("gen_ai.operation.name", "execute_tool")
		m.PutStr("gen_ai.tool.call.arguments", `{"q": 1}`)
	}).MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	var peak uint64
	for range batches {
		if code := post(t, r, "application/x-protobuf", body); code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	got, notes := endNotes(c)
	if got.Received != batches*per || len(got.spans) != 1000 || got.Dropped != batches*per-1000 {
		t.Fatalf("received %d kept %d dropped %d", got.Received, len(got.spans), got.Dropped)
	}
	if !strings.Contains(notes, "kept the first 1000 of 1000000 spans") {
		t.Errorf("notes %q", notes)
	}
	// Two bodies being decoded at most, each a few MB: far below what
	// keeping a million spans would take (hundreds of MB).
	if peak > 256<<20 {
		t.Errorf("heap in use peaked at %d MB", peak>>20)
	}
	t.Logf("heap in use peaked at %d MB for %d spans of %d bytes per batch", peak>>20, batches*per, len(body))
}

func TestReceiver_unknownTrace(t *testing.T) {
	r := startReceiver(t, fast)
	c := r.Begin()
	stranger := r.Begin()
	body, _ := requestFor(stranger, 5, nil).MarshalProto()
	stranger.End(context.Background())
	if code := post(t, r, "application/x-protobuf", body); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	if got, _ := endNotes(c); got.Received != 0 {
		t.Fatalf("another trace's spans reached the case: %d", got.Received)
	}
	if r.Unknown() != 5 {
		t.Fatalf("unknown = %d, want 5 (spans after their case ended)", r.Unknown())
	}
}

func TestReceiver_deepAndLargeAttributes(t *testing.T) {
	r := startReceiver(t, Limits{Quiet: fast.Quiet, MaxWait: fast.MaxWait, MaxValueBytes: 1024, MaxAttributes: 4})
	c := r.Begin()
	// Deep but decodable: cut to the value cap.
	body, _ := requestFor(c, 1, func(m pcommon.Map) {
		v := m.PutEmptyMap("deep")
		for range 20 { // within the decoder's recursion limit
			v = v.PutEmptyMap("d")
		}
		v.PutStr("leaf", strings.Repeat("x", 10_000))
		m.PutStr("gen_ai.operation.name", "execute_tool")
		m.PutStr("gen_ai.tool.call.arguments", strings.Repeat("y", 5000))
		for i := range 10 {
			m.PutInt("extra."+string(rune('a'+i)), int64(i))
		}
	}).MarshalProto()
	if code := post(t, r, "application/x-protobuf", body); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	// Deeper than the decoders allow: refused, not a stack blow-up.
	deepJSON := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"` + c.TraceID() + `","spanId":"0102030405060708","name":"x","attributes":[{"key":"k","value":` +
		strings.Repeat(`{"kvlistValue":{"values":[{"key":"k","value":`, 5000) + `{"stringValue":"v"}` + strings.Repeat(`}]}}`, 5000) + `}]}]}]}]}`
	if code := post(t, r, "application/json", []byte(deepJSON)); code != http.StatusBadRequest {
		t.Fatalf("deep JSON: status %d, want 400", code)
	}
	deep := requestFor(c, 1, func(m pcommon.Map) {
		v := m.PutEmptyMap("deep")
		for range 20_000 {
			v = v.PutEmptyMap("d")
		}
	})
	if pb, err := deep.MarshalProto(); err == nil {
		if code := post(t, r, "application/x-protobuf", pb); code != http.StatusBadRequest {
			t.Fatalf("deep protobuf: status %d, want 400", code)
		}
	}
	got, notes := endNotes(c)
	ev := got.Evidence()
	if len(ev.Record.Spans) != 1 {
		t.Fatalf("spans %d", len(ev.Record.Spans))
	}
	for _, a := range ev.Record.Spans[0].Attributes {
		if len(a.Value) > 1024+len("…") {
			t.Errorf("attribute %s kept %d bytes", a.Key, len(a.Value))
		}
	}
	if _, ok := ev.Record.Spans[0].Attributes.Get("gen_ai.tool.call.arguments"); !ok {
		t.Error("a mapped attribute was dropped by the attribute cap")
	}
	if !strings.Contains(notes, "span attributes left out (at most 4 per span)") || !strings.Contains(notes, "refused") {
		t.Errorf("notes %q", notes)
	}
	if len(ev.Actions) != 1 || string(ev.Actions[0].Arguments) != "{}" || !strings.Contains(string(ev.Record.SpanActions), `"raw_arguments"`) {
		t.Errorf("cut arguments should be an empty object with their text kept beside: %+v %s", ev.Actions, ev.Record.SpanActions)
	}
}

func newGzip(w io.Writer) *gzip.Writer { return gzip.NewWriter(w) }
