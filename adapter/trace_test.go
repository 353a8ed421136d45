package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/suite"
)

const testTraceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

func traced() context.Context {
	return agent.WithTrace(context.Background(), agent.TraceContext{Traceparent: testTraceparent, Endpoint: "http://127.0.0.1:4318"})
}

// Each agent type receives the call's trace context its own way, and
// nothing when tracing is off.
func TestWithTrace_perAgentType(t *testing.T) {
	echoEnv := `printf '{"output": "%s|%s|%s"}\n' "$TRACEPARENT" "$OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" "$OTEL_EXPORTER_OTLP_ENDPOINT"` + "\n"
	cmd := mustAgent(t, shAgent(t, suite.AgentCommand, "cat >/dev/null\n"+echoEnv), Options{})
	for _, tc := range []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"traced", traced(), testTraceparent + "|http://127.0.0.1:4318/v1/traces|http://127.0.0.1:4318"},
		{"off", context.Background(), "||"},
	} {
		t.Run("command "+tc.name, func(t *testing.T) {
			resp, err := cmd.Answer(tc.ctx, agent.Question{ID: "q", Question: json.RawMessage(`"x"`)})
			if err != nil || string(resp.Output) != `"`+tc.want+`"` {
				t.Fatalf("Answer = %s, %v; want %q", resp.Output, err, tc.want)
			}
		})
	}

	// A worker starts with the endpoint; each question line carries its traceparent.
	worker := mustAgent(t, shAgent(t, suite.AgentWorker, `while read -r line; do
  tp=$(printf '%s' "$line" | sed -n 's/.*"traceparent":"\([^"]*\)".*/\1/p')
  printf '{"output": "%s|%s|%s"}\n' "$tp" "$TRACEPARENT" "$OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
done
`), Options{Concurrency: 1})
	resp, err := worker.Answer(traced(), agent.Question{ID: "q", Question: json.RawMessage(`"x"`)})
	if want := `"` + testTraceparent + `||http://127.0.0.1:4318/v1/traces"`; err != nil || string(resp.Output) != want {
		t.Fatalf("worker Answer = %s, %v; want %s", resp.Output, err, want)
	}

	// An http agent gets a traceparent header.
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get("traceparent"))
		fmt.Fprint(w, `{"output": "ok"}`)
	}))
	defer srv.Close()
	httpAgent := mustAgent(t, suite.AgentConfig{Name: "A", Type: suite.AgentHTTP, URL: srv.URL, Timeout: suite.Duration(10 * time.Second)}, Options{})
	for _, ctx := range []context.Context{traced(), context.Background()} {
		if _, err := httpAgent.Answer(ctx, agent.Question{ID: "q", Question: json.RawMessage(`"x"`)}); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Join(got, ",") != testTraceparent+"," {
		t.Errorf("traceparent headers = %q", got)
	}

	// A Go function gets the remote span context.
	sc := agent.SpanContext(traced())
	if !sc.IsRemote() || sc.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || sc.SpanID().String() != "00f067aa0ba902b7" {
		t.Errorf("span context = %+v", sc)
	}
	if agent.SpanContext(context.Background()).IsValid() {
		t.Error("a span context without tracing")
	}
}
