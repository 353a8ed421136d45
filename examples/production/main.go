// Command production simulates a shop agent's production traffic: it
// answers requests with spans from the OpenTelemetry SDK, which exports
// them over OTLP/HTTP to a receiver on loopback, and writes what the
// receiver got as a collector's file exporter does (JSON lines, one export
// request a line, through pdata's marshaler). evalrun score-traces then
// scores the file with monitor.json.
//
//	go run ./examples/production -revision reference -requests 300 -out window1.jsonl
//
// With -answer it is the same agent as evalrun run calls it (suite.json):
// one question on stdin, one reply with the tool call it made on stdout.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

func main() {
	rev := flag.String("revision", "reference", "the agent's revision: reference or regressed")
	n := flag.Int("requests", 300, "how many requests the agent answers")
	seed := flag.Uint64("seed", 1, "the simulation's seed")
	start := flag.String("start", "2026-11-03T09:00:00Z", "when the first request arrives (RFC 3339)")
	out := flag.String("out", "traces.jsonl", "the file export to write")
	endpoint := flag.String("endpoint", "", "send the spans to this OTLP/HTTP endpoint (a collector, or evalrun score-traces --listen) instead of writing -out")
	ask := flag.Bool("answer", false, "answer one question from stdin as a command agent (evalrun run) instead; SHOP_REVISION overrides -revision")
	flag.Parse()
	if *ask {
		if err := answerOne(os.Stdin, os.Stdout, revisionFromEnv(*rev)); err != nil {
			fmt.Fprintln(os.Stderr, "production:", err)
			os.Exit(2)
		}
		return
	}
	t0, err := time.Parse(time.RFC3339, *start)
	switch {
	case err == nil && *endpoint != "":
		err = simulate(*endpoint, *rev, *n, *seed, t0)
	case err == nil:
		err = export(*out, *rev, *n, *seed, t0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "production:", err)
		os.Exit(2)
	}
}

// export simulates n requests of the revision and writes their spans to
// path in the file exporter's JSON-lines shape.
func export(path, name string, n int, seed uint64, start time.Time) error {
	col := &receiver{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: col, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	if err := simulate("http://"+ln.Addr().String(), name, n, seed, start); err != nil {
		return err
	}
	if col.err != nil {
		return col.err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, td := range col.requests {
		line, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
		if err != nil {
			f.Close()
			return err
		}
		w.Write(line)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// simulate answers n requests of the revision, the SDK exporting their
// spans over OTLP/HTTP to endpoint (its base URL).
func simulate(endpoint, name string, n int, seed uint64, start time.Time) error {
	rev, ok := revisions[name]
	if !ok {
		return fmt.Errorf("revision %q: want reference or regressed", name)
	}
	ctx := context.Background()
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(strings.TrimSuffix(endpoint, "/")+"/v1/traces"), otlptracehttp.WithInsecure())
	if err != nil {
		return err
	}
	res := resource.NewSchemaless(attribute.String("service.name", "shop"), attribute.String("service.version", name))
	tp := sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithIDGenerator(newSeededIDs(seed)), sdktrace.WithBatcher(exp, sdktrace.WithMaxExportBatchSize(64)))
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := range n {
		answer(tp.Tracer("shop"), rng, rev, start.Add(time.Duration(i)*2*time.Second), i)
	}
	return tp.Shutdown(ctx)
}

// receiver is the OTLP/HTTP receiver a collector runs: it keeps each
// export request the SDK posts.
type receiver struct {
	mu       sync.Mutex
	requests []ptrace.Traces
	err      error
}

func (c *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	req := ptraceotlp.NewExportRequest()
	if err == nil {
		err = req.UnmarshalProto(body)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.err = err
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.requests = append(c.requests, req.Traces())
	out, _ := ptraceotlp.NewExportResponse().MarshalProto()
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}
