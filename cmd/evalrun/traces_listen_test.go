package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// TestRun_tracesListen: a chat service started before the run, configured
// once with a fixed OTLP address, is evaluated over openai_chat; its tool
// calls are read from the spans it exports to --traces-listen (joined to
// the case by the traceparent header), and the spans of another trace it
// exports there are counted, never filed.
func TestRun_tracesListen(t *testing.T) {
	addr := freeLoopbackAddr(t)
	exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpoint(addr), otlptracehttp.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	tracer := tp.Tracer("chat-service")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := propagation.TraceContext{}.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
		_, sp := tracer.Start(ctx, "execute_tool lookup_order", trace.WithAttributes(attribute.String("gen_ai.operation.name", "execute_tool"),
			attribute.String("gen_ai.tool.name", "lookup_order"), attribute.String("gen_ai.tool.call.arguments", `{"id":42}`)))
		sp.End()
		_, other := tracer.Start(context.Background(), "health check", trace.WithNewRoot())
		other.End()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Order 42 shipped."}}]}`)
	}))
	defer srv.Close()
	dir := t.TempDir()
	url := testdb.SQLiteURL(t)
	suitePath := filepath.Join(dir, "suite.json")
	agentCfg, _ := json.Marshal(map[string]any{"name": "Chat", "url": srv.URL + "/v1/chat/completions", "protocol": "openai_chat", "timeout": "30s"})
	writeTestFile(t, suitePath, fmt.Sprintf(`{"suite": "Listen", "agent": %s,
	  "questions": [{"id": "order", "question": "Where is order 42?", "expected_actions": [{"name": "lookup_order", "arguments": {"id": 42}}],
	    "checks": [{"type": "action_group"}, {"type": "contains", "value": "shipped"}]}]}`, agentCfg))
	code, stdout, stderr := evalrun(t, "--database-url", url, "run", suitePath, "--traces-listen", addr)
	if code != 0 {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"traces: receiving OTLP/HTTP spans at http://" + addr, "traces: 1 spans of traces no question started were received and not filed"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	code, _, stderr = evalrun(t, "--database-url", url, "run", suitePath, "--traces-listen", "localhost")
	if code != exitInvalid || !strings.Contains(stderr, "want host:port") {
		t.Errorf("a bad address: exit %d\n%s", code, stderr)
	}
}

// freeLoopbackAddr returns a loopback address with a port free right now,
// for a fixed --traces-listen address.
func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
