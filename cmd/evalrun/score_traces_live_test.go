package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentevals-go/agentevals/models"
)

var listening = regexp.MustCompile(`Listening for spans on (http://127\.0\.0\.1:\d+)/v1/traces`)

// startLive starts the binary on a live window and returns the process,
// its endpoint and a func that waits for it and returns its exit code and
// output.
func startLive(t *testing.T, bin, db string, args ...string) (*exec.Cmd, string, func() (int, string)) {
	t.Helper()
	dir := t.TempDir()
	mon := filepath.Join(dir, "monitor.json")
	writeTestFile(t, mon, `{"monitor": "live-shop", "agent": "shop", "checks": [{"name": "looked_up_order", "type": "tool_used", "tools": ["lookup_order"]}]}`)
	cmd := exec.Command(bin, append([]string{"--database-url", db, "score-traces", mon, "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	sc := bufio.NewReader(stdout)
	first, err := sc.ReadString('\n')
	m := listening.FindStringSubmatch(first)
	if err != nil || m == nil {
		rest, _ := io.ReadAll(sc)
		t.Fatalf("no listening line: %v\n%s%s%s", err, first, rest, stderr.String())
	}
	rest := make(chan string, 1)
	go func() { b, _ := io.ReadAll(sc); rest <- string(b) }()
	return cmd, m[1], func() (int, string) {
		out := first + <-rest
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out + stderr.String()
	}
}

// postShopTraces answers n requests through the OpenTelemetry Go SDK,
// which posts each span to endpoint as it ends; every third request
// skips the order lookup.
func postShopTraces(t *testing.T, endpoint string, n int) {
	t.Helper()
	ctx := context.Background()
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(endpoint+"/v1/traces"))
	if err != nil {
		t.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", "shop"))))
	tr := tp.Tracer("shop")
	for i := range n {
		msg, _ := json.Marshal([]map[string]any{{"role": "user", "parts": []map[string]string{{"type": "text", "content": fmt.Sprintf("Where is order %d?", 100+i)}}}})
		ctx, root := tr.Start(ctx, "invoke_agent shop", trace.WithAttributes(attribute.String("gen_ai.operation.name", "invoke_agent"),
			attribute.String("gen_ai.input.messages", string(msg))))
		if i%3 != 0 {
			_, tool := tr.Start(ctx, "execute_tool lookup_order", trace.WithAttributes(attribute.String("gen_ai.operation.name", "execute_tool"),
				attribute.String("gen_ai.tool.name", "lookup_order"), attribute.String("gen_ai.tool.call.arguments", fmt.Sprintf(`{"order":%d}`, 100+i))))
			tool.End()
		}
		root.End()
	}
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestScoreTraces_LiveWindow: spans the OpenTelemetry SDK posts to a
// listening score-traces are scored and saved as one run when the window
// closes; a SIGTERM in the middle of a ten-minute window closes it early,
// and what arrived is scored and saved, the output and the run's summary
// saying so.
func TestScoreTraces_LiveWindow(t *testing.T) {
	bin := buildEvalrun(t)
	db := "sqlite:" + filepath.Join(t.TempDir(), "db.sqlite3")
	production := func(t *testing.T) (models.Production, int, int) {
		t.Helper()
		run := getRun(t, db, latestRunID(t, db))
		p := productionRecord(t, run)
		passed := 0
		for _, c := range run.Cases {
			if c.Status == "passed" {
				passed++
			}
		}
		return p, len(run.Cases), passed
	}

	t.Run("the window ends", func(t *testing.T) {
		_, endpoint, wait := startLive(t, bin, db, "--window", "4s")
		postShopTraces(t, endpoint, 9)
		code, out := wait()
		if code != 0 || !strings.Contains(out, "9 cases read") || strings.Contains(out, "closed early") {
			t.Fatalf("exit %d, want 0 with 9 cases read:\n%s", code, out)
		}
		p, cases, passed := production(t)
		if cases != 9 || passed != 6 || p.Listen != endpoint || p.Window != "4s" || p.ClosedEarly != "" || len(p.Files) != 0 {
			t.Errorf("saved %d cases (%d passed), record %+v; want 9 cases, 6 passed, listening on %s", cases, passed, p, endpoint)
		}
	})

	t.Run("SIGTERM mid-window", func(t *testing.T) {
		cmd, endpoint, wait := startLive(t, bin, db, "--window", "10m")
		postShopTraces(t, endpoint, 6)
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		var code int
		var out string
		go func() { code, out = wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Minute):
			t.Fatal("score-traces did not end after SIGTERM")
		}
		if code != 0 || !strings.Contains(out, "Window closed early (terminated after") || !strings.Contains(out, "saved to") {
			t.Fatalf("exit %d, want 0, the early close and the save:\n%s", code, out)
		}
		p, cases, passed := production(t)
		if cases != 6 || passed != 4 || !strings.HasPrefix(p.ClosedEarly, "terminated after") || p.Window != "10m0s" {
			t.Errorf("saved %d cases (%d passed), record %+v; want the 6 received, 4 passed, closed early", cases, passed, p)
		}
	})

	t.Run("nothing arrives", func(t *testing.T) {
		before := countRuns(t, db)
		_, _, wait := startLive(t, bin, db, "--window", "1s")
		code, out := wait()
		if code != 2 || !strings.Contains(out, "no spans arrived") || !strings.Contains(out, "nothing was saved") {
			t.Errorf("exit %d, want 2 saying no spans arrived:\n%s", code, out)
		}
		if countRuns(t, db) != before {
			t.Error("an empty live window was saved")
		}
	})
}
