// Package otlp receives an agent's OpenTelemetry spans over OTLP/HTTP on loopback for the length of a run and turns each case's spans into evidence: kept spans, tool calls, model calls and usage.
package otlp

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/agentevals-go/agentevals/bounds"
)

// TracesPath is the OTLP/HTTP path for spans.
const TracesPath = "/v1/traces"

// Limits bound what the receiver holds; zero fields take the defaults.
type Limits struct {
	// MaxBodyBytes is the largest request body, compressed or not
	// (default 4 MiB; the SDKs' batches of 512 spans are far smaller).
	MaxBodyBytes int64
	// MaxSpans is how many spans one case keeps (default 1000); the rest
	// are counted as dropped.
	MaxSpans int
	// MaxAttributes is how many attributes one span keeps (default 64).
	MaxAttributes int
	// MaxValueBytes cuts each attribute value and status message
	// (default 8 KiB).
	MaxValueBytes int
	// MaxTraceBytes bounds the attribute text one case keeps, twice:
	// once for the attributes the mapping reads (tool names, arguments,
	// results, usage), once for all others (default 256 KiB each).
	MaxTraceBytes int
	// Quiet is how long the receiver waits after the answer, and after
	// each late span, for more spans (default 100 ms).
	Quiet time.Duration
	// MaxWait bounds the whole wait for late spans (default 2 s).
	MaxWait time.Duration
	// BodyTimeout bounds the reading of one request's body (default
	// 10 s); a slower sender's request is refused.
	BodyTimeout time.Duration
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	if l.MaxBodyBytes <= 0 {
		l.MaxBodyBytes = 4 << 20
	}
	def(&l.MaxSpans, 1000)
	def(&l.MaxAttributes, 64)
	def(&l.MaxValueBytes, 8<<10)
	def(&l.MaxTraceBytes, 256<<10)
	if l.Quiet <= 0 {
		l.Quiet = 100 * time.Millisecond
	}
	if l.MaxWait <= 0 {
		l.MaxWait = 2 * time.Second
	}
	if l.BodyTimeout <= 0 {
		l.BodyTimeout = 10 * time.Second
	}
	return l
}

// maxDecoding is how many request bodies are decoded at once, and
// maxReading how many are read at once, which with MaxBodyBytes bound the
// receiver's memory whatever clients send. A body is read before its
// request takes a decode slot, so a slow sender holds only a reading slot,
// for at most BodyTimeout.
const (
	maxDecoding = 2
	maxReading  = 32
)

// Receiver is an OTLP/HTTP endpoint on 127.0.0.1 that keeps the spans of
// the traces it was told to expect (Begin) and counts the others.
type Receiver struct {
	limits   Limits
	ln       net.Listener
	srv      *http.Server
	decoding chan struct{}
	reading  chan struct{}

	sink func(ptrace.Traces) // StartSink: every request's spans, instead of the cases

	mu      sync.Mutex
	cases   map[pcommon.TraceID]*Case
	refusal []refusal // requests refused, for the notes of the cases running then
	unknown int       // spans of traces no case expected
}

// refusal is one refused request.
type refusal struct {
	at   time.Time
	note string
}

// Start listens on a free loopback port; Close stops it.
func Start(limits Limits) (*Receiver, error) { return StartAt("127.0.0.1:0", limits) }

// StartAt listens on addr (host:port), a fixed address that a service
// started outside the run can export to; Close stops it.
func StartAt(addr string, limits Limits) (*Receiver, error) { return start(addr, limits, nil) }

// StartSink listens on addr and hands the spans of every request it
// accepts to sink, with the same bounds, instead of filing them under
// cases (a window of production traces, which expects no trace id). sink
// is called by up to two requests at once.
func StartSink(addr string, limits Limits, sink func(ptrace.Traces)) (*Receiver, error) {
	return start(addr, limits, sink)
}

func start(addr string, limits Limits, sink func(ptrace.Traces)) (*Receiver, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("otlp receiver: listen on %s: %w", addr, err)
	}
	r := &Receiver{limits: limits.withDefaults(), ln: ln, decoding: make(chan struct{}, maxDecoding), reading: make(chan struct{}, maxReading), cases: map[pcommon.TraceID]*Case{}, sink: sink}
	mux := http.NewServeMux()
	mux.HandleFunc(TracesPath, r.serveTraces)
	r.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 30 * time.Second, MaxHeaderBytes: 64 << 10}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

// Endpoint is the OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT).
func (r *Receiver) Endpoint() string { return "http://" + r.ln.Addr().String() }

// Close stops listening and waits briefly for requests in flight.
func (r *Receiver) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return r.srv.Shutdown(ctx)
}

// Unknown counts the spans received for traces no case expected.
func (r *Receiver) Unknown() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.unknown
}

// refuse answers a request with an error and remembers why for the notes
// of the cases running now.
func (r *Receiver) refuse(w http.ResponseWriter, status int, note string) {
	r.mu.Lock()
	if len(r.refusal) < 1000 {
		r.refusal = append(r.refusal, refusal{at: time.Now(), note: note})
	}
	r.mu.Unlock()
	http.Error(w, note, status)
}

func (r *Receiver) serveTraces(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST spans to "+TracesPath, http.StatusMethodNotAllowed)
		return
	}
	ctype, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	isJSON := ctype == "application/json"
	if !isJSON && ctype != "application/x-protobuf" && ctype != "application/protobuf" {
		r.refuse(w, http.StatusUnsupportedMediaType, fmt.Sprintf("OTLP request refused: content type %q; send application/x-protobuf or application/json", clipText(ctype, 60)))
		return
	}
	raw, status, err := r.readRaw(w, req)
	if err != nil {
		r.refuse(w, status, "OTLP request refused: "+err.Error())
		return
	}
	select {
	case r.decoding <- struct{}{}:
		defer func() { <-r.decoding }()
	case <-req.Context().Done():
		r.refuse(w, http.StatusServiceUnavailable, "OTLP request dropped: its sender left while it waited to be decoded")
		return
	}
	body, err := r.inflate(req, raw)
	if err != nil {
		r.refuse(w, http.StatusRequestEntityTooLarge, "OTLP request refused: "+err.Error())
		return
	}
	er := ptraceotlp.NewExportRequest()
	if isJSON {
		if err = (bounds.Limits{MaxDepth: 64, MaxBytes: r.limits.MaxBodyBytes}).CheckJSON(body); err == nil {
			err = er.UnmarshalJSON(body)
		}
	} else {
		err = er.UnmarshalProto(body)
	}
	if err != nil {
		r.refuse(w, http.StatusBadRequest, "OTLP request refused: not a valid export request: "+clipText(err.Error(), 200))
		return
	}
	if r.sink != nil {
		r.sink(er.Traces())
	} else {
		r.take(er.Traces())
	}
	resp := ptraceotlp.NewExportResponse()
	var out []byte
	if isJSON {
		out, err = resp.MarshalJSON()
	} else {
		out, err = resp.MarshalProto()
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", ctype)
	_, _ = w.Write(out)
}

// errTooLarge is the body-size refusal.
var errTooLarge = errors.New("body too large")

// errSlow is the refusal of a body not received within BodyTimeout.
var errSlow = errors.New("body not received in time")

// readRaw reads the body as sent, at most MaxBodyBytes within BodyTimeout,
// holding a reading slot; the status goes with an error.
func (r *Receiver) readRaw(w http.ResponseWriter, req *http.Request) ([]byte, int, error) {
	limit := r.limits.MaxBodyBytes
	if req.ContentLength > limit {
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("%w: %d bytes, at most %d", errTooLarge, req.ContentLength, limit)
	}
	deadline := time.Now().Add(r.limits.BodyTimeout)
	_ = http.NewResponseController(w).SetReadDeadline(deadline) // unsupported only by test recorders
	wait := time.NewTimer(time.Until(deadline))
	defer wait.Stop()
	select {
	case r.reading <- struct{}{}:
		defer func() { <-r.reading }()
	case <-wait.C:
		return nil, http.StatusServiceUnavailable, fmt.Errorf("%w: %d other requests were being read for %s", errSlow, maxReading, r.limits.BodyTimeout)
	case <-req.Context().Done():
		return nil, http.StatusServiceUnavailable, errors.New("its sender left before its body was read")
	}
	raw, err := readAtMost(req.Body, limit)
	switch {
	case errors.Is(err, errTooLarge):
		return nil, http.StatusRequestEntityTooLarge, err
	case errors.Is(err, os.ErrDeadlineExceeded) || time.Now().After(deadline):
		return nil, http.StatusRequestTimeout, fmt.Errorf("%w: the whole body must arrive within %s", errSlow, r.limits.BodyTimeout)
	case err != nil:
		return nil, http.StatusBadRequest, err
	}
	return raw, 0, nil
}

// inflate gunzips a body sent compressed, never to more than MaxBodyBytes.
func (r *Receiver) inflate(req *http.Request, raw []byte) ([]byte, error) {
	limit := r.limits.MaxBodyBytes
	switch strings.ToLower(req.Header.Get("Content-Encoding")) {
	case "", "identity":
		return raw, nil
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("gzip body: %w", err)
		}
		return readAtMost(zr, limit)
	}
	return nil, fmt.Errorf("content encoding %q; send gzip or none", clipText(req.Header.Get("Content-Encoding"), 40))
}

func readAtMost(rd io.Reader, limit int64) ([]byte, error) {
	b, err := bounds.ReadAll(rd, limit)
	var be *bounds.Error
	if errors.As(err, &be) {
		return nil, fmt.Errorf("%w: more than %d bytes", errTooLarge, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	return b, nil
}

// take files every span under its case.
func (r *Receiver) take(td ptrace.Traces) {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	EachSpan(td, func(sp ptrace.Span, service string) {
		c, ok := r.cases[sp.TraceID()]
		if !ok {
			r.unknown++
			return
		}
		c.add(sp, service, now)
	})
}

// Begin registers a new trace for one agent call and returns its case.
func (r *Receiver) Begin() *Case {
	var tid pcommon.TraceID
	var sid pcommon.SpanID
	_, _ = rand.Read(tid[:])
	_, _ = rand.Read(sid[:])
	c := &Case{r: r, traceID: tid, parentID: sid, began: time.Now(), changed: make(chan struct{}, 1)}
	r.mu.Lock()
	r.cases[tid] = c
	r.mu.Unlock()
	return c
}

// Traceparent is the W3C traceparent of the case: version 00, its trace
// id, the span id its spans should name as parent, sampled.
func (c *Case) Traceparent() string {
	return "00-" + hex.EncodeToString(c.traceID[:]) + "-" + hex.EncodeToString(c.parentID[:]) + "-01"
}

// TraceID is the case's trace id in hex.
func (c *Case) TraceID() string { return hex.EncodeToString(c.traceID[:]) }

// clipText cuts s to n bytes at a rune boundary.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
