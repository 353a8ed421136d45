package otlp

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
)

// slowSender opens a connection that declares a body and sends one byte
// of it; closing the connection ends it.
func slowSender(t *testing.T, r *Receiver) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(r.Endpoint(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-protobuf\r\nContent-Length: 1000\r\n\r\n\x0a", TracesPath)
	return conn
}

// TestReceiver_slowSenders: eight connections trickling their bodies do
// not keep a case's own export out (they hold no decode slot while their
// bodies arrive); a body slower than BodyTimeout is refused, and the
// notes of the case running then say its spans are lost and why.
func TestReceiver_slowSenders(t *testing.T) {
	r := startReceiver(t, Limits{Quiet: fast.Quiet, MaxWait: fast.MaxWait, BodyTimeout: 3 * time.Second})
	c := r.Begin()
	for range 8 {
		slowSender(t, r)
	}
	time.Sleep(100 * time.Millisecond) // their headers have been read
	tr := goSDK(t, r, otlptracehttp.WithTimeout(2*time.Second), otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false}))
	agentTurn(caseContext(c), tr, false)
	got, notes := endNotes(c)
	if got.Received != 4 {
		t.Fatalf("the case received %d spans, want its 4 while slow senders are connected (notes %q)", got.Received, notes)
	}

	r = startReceiver(t, Limits{Quiet: fast.Quiet, MaxWait: fast.MaxWait, BodyTimeout: 200 * time.Millisecond})
	c = r.Begin()
	conn := slowSender(t, r)
	buf := make([]byte, 512)
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, _ := conn.Read(buf)
	if !strings.Contains(string(buf[:n]), "408") {
		t.Errorf("the slow sender got %q, want a 408", buf[:n])
	}
	_, notes = endNotes(c)
	if !strings.Contains(notes, "refused 1 OTLP requests") || !strings.Contains(notes, "body not received in time") {
		t.Errorf("notes %q, want the slow request's refusal", notes)
	}
}
