package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// streamingModel is an OpenAI-compatible chat server for the AI SDK: the
// first request of a conversation gets a lookup_order tool call, the next
// (with the tool's result) the answer; as JSON, or as a chunk stream when
// the request asks for one.
func streamingModel(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		var req struct {
			Stream bool `json:"stream"`
		}
		_ = json.Unmarshal(body, &req)
		toolTurn := !strings.Contains(string(body), `"role":"tool"`)
		usage := `"usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}`
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			if toolTurn {
				fmt.Fprintf(w, `{"id": "c1", "object": "chat.completion", "created": 1, "model": "scripted-model", "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "lookup_order", "arguments": "{\"id\": 42}"}}]}}], %s}`, usage)
				return
			}
			fmt.Fprintf(w, `{"id": "c2", "object": "chat.completion", "created": 2, "model": "scripted-model", "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Order 42 has shipped."}}], %s}`, usage)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta, finish string) {
			f := "null"
			if finish != "" {
				f = `"` + finish + `"`
			}
			fmt.Fprintf(w, "data: {\"id\": \"c\", \"object\": \"chat.completion.chunk\", \"created\": 1, \"model\": \"scripted-model\", \"choices\": [{\"index\": 0, \"delta\": %s, \"finish_reason\": %s}]}\n\n", delta, f)
		}
		if toolTurn {
			chunk(`{"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "lookup_order", "arguments": "{\"id\": 42}"}}]}`, "tool_calls")
		} else {
			chunk(`{"role": "assistant", "content": "Order 42 "}`, "")
			chunk(`{"content": "has shipped."}`, "stop")
		}
		fmt.Fprintf(w, "data: {\"id\": \"c\", \"object\": \"chat.completion.chunk\", \"created\": 1, \"model\": \"scripted-model\", \"choices\": [], %s}\n\ndata: [DONE]\n\n", usage)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestBinary_ChatWebApp: a chat web app on the AI SDK (testdata/otel-node,
// real npm packages), started before the run and exporting its spans to the
// fixed --traces-listen address, is evaluated over HTTP with no adapter as
// /api/chat (the UI message stream: tool calls with results read from the
// response) and as /v1/chat/completions (tool calls read from its spans).
func TestBinary_ChatWebApp(t *testing.T) {
	nodeDir, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "otel-node"))
	if _, err := os.Stat(filepath.Join(nodeDir, "node_modules", "ai")); err != nil {
		t.Fatalf("the Node packages are not installed (%v); run: (cd testdata/otel-node && npm ci)", err)
	}
	bin := buildBinary(t)
	model := streamingModel(t)
	traces := freeLoopbackAddr(t)
	app := exec.Command("node", filepath.Join(nodeDir, "chat-app.mjs"))
	app.Env = append(os.Environ(), "MODEL_BASE_URL="+model.URL, "OTEL_EXPORTER_OTLP_ENDPOINT=http://"+traces)
	app.Stderr = os.Stderr
	out, err := app.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := app.Start(); err != nil {
		t.Fatalf("start the chat app: %v (node must be on PATH)", err)
	}
	t.Cleanup(func() { _ = app.Process.Kill(); _ = app.Wait() })
	port, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the chat app printed no port: %v", err)
	}
	base := "http://127.0.0.1:" + strings.TrimSpace(port)
	dir := t.TempDir()
	url := testdb.SQLiteURL(t)
	for _, tc := range []struct{ protocol, path, actionsFrom string }{
		{"ai_sdk_ui", "/api/chat", "agent"},
		{"openai_chat", "/v1/chat/completions", "spans"},
	} {
		t.Run(tc.protocol, func(t *testing.T) {
			suitePath := filepath.Join(dir, tc.protocol+".json")
			agentCfg, _ := json.Marshal(map[string]any{"name": "ChatApp", "url": base + tc.path, "protocol": tc.protocol, "timeout": "60s"})
			writeTestFile(t, suitePath, fmt.Sprintf(`{"suite": "Chat app %s", "agent": %s, "traces_listen": %q,
			  "questions": [{"id": "order", "question": "Where is order 42?", "expected_actions": [{"name": "lookup_order", "arguments": {"id": 42}}],
			    "checks": [{"type": "action_group"}, {"type": "tool_success"}, {"type": "contains", "value": "shipped"},
			               {"type": "span_count", "params": {"pattern": "ai.toolCall*", "min": 1}}]}]}`, tc.protocol, agentCfg, traces))
			cmd := exec.Command(bin, "--database-url", url, "run", suitePath)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMPDIR=" + dir, "NO_COLOR=1", "CI=true"}
			res, err := cmd.CombinedOutput()
			c := newestRun(t, url).Cases[0]
			if err != nil || c.Status != models.StatusPassed {
				t.Fatalf("run: %v, case %s, error %s\nmetrics %s\n%s", err, c.Status, c.ErrorDetails, metricReasons(c), res)
			}
			meta, _ := models.DecodeCaseMetadata(c.ResponseMetadata)
			if meta.Trace == nil || meta.Trace.ActionsFrom != tc.actionsFrom {
				t.Errorf("trace record %+v, want actions from %s", meta.Trace, tc.actionsFrom)
			}
			if !strings.Contains(string(c.Actions), `"result":{"id":42,"status":"shipped"}`) {
				t.Errorf("actions %s lack the tool's result", c.Actions)
			}
		})
	}
}

func metricReasons(c *models.CaseResult) string {
	var b strings.Builder
	for _, m := range c.Metrics {
		fmt.Fprintf(&b, "%s=%v (%s); ", m.Name, m.Score, deref(m.Reason))
	}
	return b.String()
}
