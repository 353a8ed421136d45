// Package tracefile reads OpenTelemetry traces exported to files by a collector (JSON lines or length-prefixed protobuf, optionally compressed) into cases: one per agent invocation trace, or one per conversation, mapped like a run's traces.
package tracefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/otlp"
)

// Limits bound what a Reader reads and holds; zero fields take the
// defaults.
type Limits struct {
	// MaxRecordBytes bounds one line or message, decompressed (default
	// 32 MiB: a collector's default batch of 8192 spans, at up to 4 KiB
	// each). Decoding a record takes a few times its size in memory.
	MaxRecordBytes int
	// MaxDecompressedBytes bounds the whole file after decompression, so a
	// decompression bomb stops there (default 16 GiB).
	MaxDecompressedBytes int64
	// MaxWindowBytes bounds a zstd frame's window, the decoder's memory
	// (default 32 MiB).
	MaxWindowBytes int
	// MaxOpenTraces bounds the traces held while their spans arrive
	// (default 20,000). Past it the trace first seen longest ago becomes
	// a case as it stands, with a note, and counts in Stats.EarlyTraces.
	MaxOpenTraces int
	// RememberClosed is how many closed trace ids are remembered, so that
	// their stragglers count as Stats.Late rather than open a new case
	// (default 200,000, about 10 MB). A straggler of a trace closed longer
	// ago than that opens a case of its own.
	RememberClosed int
	// MaxOpenBytes bounds the span text held across open traces and
	// conversations (default 96 MiB), handled as MaxOpenTraces is.
	MaxOpenBytes int
	// MaxTurns bounds a conversation case (default 200); a longer
	// conversation continues in a case of its own (Case.Part 2, 3...).
	MaxTurns int
	// Linger is how far the stream's clock (the latest span end read) must
	// pass a complete trace's last span before it becomes a case: time
	// for its stragglers in later batches (default 10 s).
	Linger time.Duration
	// Timeout does the same for a trace still missing its root or a
	// parent (default 5 min), which then becomes a case noted incomplete.
	Timeout time.Duration
	// ConversationGap is how long a conversation may go without a new
	// turn, on the stream's clock, before it becomes a case (default 30
	// min).
	ConversationGap time.Duration
	// MaxTextBytes cuts a question or an answer (default 64 KiB).
	MaxTextBytes int
	// Spans are the per-trace limits of the run's receiver (span,
	// attribute and text caps), which the spans' mapping keeps.
	Spans otlp.Limits
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxRecordBytes, 32<<20)
	if l.MaxDecompressedBytes <= 0 {
		l.MaxDecompressedBytes = 16 << 30
	}
	def(&l.MaxWindowBytes, 32<<20)
	def(&l.MaxOpenTraces, 20000)
	def(&l.MaxOpenBytes, 96<<20)
	def(&l.RememberClosed, 200000)
	def(&l.MaxTurns, 200)
	def(&l.MaxTextBytes, 64<<10)
	durDef := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	durDef(&l.Linger, 10*time.Second)
	durDef(&l.Timeout, 5*time.Minute)
	durDef(&l.ConversationGap, 30*time.Minute)
	return l
}

// Options configure a Reader.
type Options struct {
	Limits Limits
	// Keep, when set, chooses the cases to read by key: the conversation
	// id of a conversation, else the trace id in hex (Sampled and InShard
	// are such choices). Spans of the cases left out are still read and
	// grouped, then released; Stats.LeftOut counts those cases.
	Keep func(key string) bool
}

// Stats count what a Reader read, and what it skipped and why.
type Stats struct {
	Records int // lines or messages
	Spans   int // spans read
	Traces  int // traces grouped
	Cases   int // cases returned
	// NoTraceID counts spans skipped for having no trace id.
	NoTraceID int
	// Late counts spans skipped because their trace had already become a
	// case (they arrived after Linger or Timeout, or after the trace was
	// closed early).
	Late int
	// Repaired counts spans whose text held invalid UTF-8 or NUL bytes,
	// repaired by the sanitizer before anything was kept.
	Repaired int
	// EarlyTraces counts traces closed before they were complete or had
	// lingered, to keep within MaxOpenTraces or MaxOpenBytes.
	EarlyTraces int
	// LeftOut counts cases Options.Keep did not choose.
	LeftOut int
	// OtherSignals counts records of metrics or logs (a collector may
	// write every pipeline to one file): skipped.
	OtherSignals int
}

// Reader streams cases out of one exported file. It holds one record at
// a time (read, decompressed and decoded within MaxRecordBytes), the
// spans of the traces still open (within MaxOpenTraces and MaxOpenBytes)
// and the ids of RememberClosed closed traces; a trace's spans are
// released as soon as its case is returned.
type Reader struct {
	path  string
	f     *os.File
	recs  *records
	opts  Options
	limit Limits
	g     *grouper
	stats Stats
	ready []*Case
	done  bool
	err   error
	other string // the first record of another signal: "metrics (line 1)"
}

// Open opens an exported file of OTLP traces: the file exporter's JSON
// lines, or its length-prefixed messages (JSON or protobuf, each message
// possibly zstd-compressed), the whole optionally gzip or zstd
// compressed. The format is found from the bytes, not the name.
func Open(path string, opts Options) (*Reader, error) {
	f, err := bounds.Open(path)
	if err != nil {
		return nil, fmt.Errorf("traces file: %w", err)
	}
	r, err := newReader(path, f, opts)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	r.f = f
	return r, nil
}

// NewReader reads an exported stream from rd, named name in errors.
func NewReader(name string, rd io.Reader, opts Options) (*Reader, error) {
	return newReader(name, rd, opts)
}

func newReader(name string, rd io.Reader, opts Options) (*Reader, error) {
	l := opts.Limits.withDefaults()
	recs, err := newRecords(name, rd, l)
	if err != nil {
		return nil, err
	}
	r := &Reader{path: name, recs: recs, opts: opts, limit: l}
	r.g = newGrouper(l, &r.stats, r.emit)
	return r, nil
}

// Close releases the file and the decompressors.
func (r *Reader) Close() error {
	r.recs.Close()
	if r.f != nil {
		return r.f.Close()
	}
	return nil
}

// Stats are the counts so far.
func (r *Reader) Stats() Stats { return r.stats }

// Next returns the next case, io.EOF after the last. Cases come in the
// order they close, not in time order. An error other than io.EOF ends
// the stream: the file is bad from that point (the message names the file
// and the line or offset), and the cases already returned are only part
// of it. A file in which no span was found is an error ("no spans").
func (r *Reader) Next() (*Case, error) {
	for len(r.ready) == 0 {
		if r.err != nil {
			return nil, r.err
		}
		if r.done {
			return nil, io.EOF
		}
		r.step()
	}
	c := r.ready[0]
	r.ready[0] = nil
	r.ready = r.ready[1:]
	return c, nil
}

// step reads one record, or ends the stream.
func (r *Reader) step() {
	rec, err := r.recs.next()
	if errors.Is(err, io.EOF) {
		switch {
		case r.stats.Spans == 0 && r.other != "":
			r.err = fmt.Errorf("%s: no spans: the file holds %s, not traces: export the traces pipeline to this file", r.path, r.other)
			return
		case r.stats.Spans == 0:
			r.err = fmt.Errorf("%s: no spans: %d records held no trace data", r.path, r.stats.Records)
			return
		case r.stats.Traces == 0 && len(r.g.open) == 0:
			r.err = fmt.Errorf("%s: no spans with a trace id: all %d spans read had none", r.path, r.stats.Spans)
			return
		}
		r.g.flush()
		r.done = true
		return
	}
	if err != nil {
		r.err = err
		return
	}
	r.stats.Records++
	td, err := r.decode(rec)
	if err != nil {
		r.err = err
		return
	}
	r.g.clean = rec.json && cleanJSON(rec.data)
	r.g.take(td)
	r.g.settle()
}

// decode unmarshals one export request with pdata.
func (r *Reader) decode(rec record) (ptrace.Traces, error) {
	var td ptrace.Traces
	var err error
	if rec.json {
		if nestsValues(rec.data) && tooDeep(rec.data, maxDepth) { // bounds says where, at its slower pace
			err = (bounds.Limits{MaxDepth: maxDepth}).CheckJSON(rec.data)
		}
		if err == nil {
			td, err = (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(rec.data)
		}
	} else {
		td, err = (&ptrace.ProtoUnmarshaler{}).UnmarshalTraces(rec.data)
	}
	if err != nil {
		return td, fmt.Errorf("%s: %s: not an OTLP traces export request: %w", r.path, rec.where, err)
	}
	if td.ResourceSpans().Len() == 0 {
		if kind := otherSignal(rec.data); kind != "" {
			r.stats.OtherSignals++
			if r.other == "" {
				r.other = kind + " (" + rec.where + ")"
			}
		}
	}
	return td, nil
}

// maxDepth bounds the nesting of a JSON record, as the run's receiver
// does: OTLP's own structure is 8 levels deep, an attribute's value may
// nest arrays and maps below that.
const maxDepth = 64

// nestsValues reports whether a JSON record may nest attribute values:
// without arrays or maps of values its depth is OTLP's own (the decoder
// skips unknown fields within its own depth limit). It looks for the
// keys' endings, rare in a record, and checks what precedes them, rather
// than scanning the record once per key.
func nestsValues(data []byte) bool {
	for _, end := range [...][]byte{[]byte(`Value"`), []byte(`_value"`)} {
		for rest := data; ; {
			i := bytes.Index(rest, end)
			if i < 0 {
				break
			}
			if head := rest[:i]; bytes.HasSuffix(head, []byte("array")) || bytes.HasSuffix(head, []byte("kvlist")) {
				return true
			}
			rest = rest[i+len(end):]
		}
	}
	return false
}

// tooDeep reports whether data nests objects and arrays more than max
// deep. It skips through strings a quote at a time, several times faster
// than bounds.CheckJSON, whose path it does not need until it fails.
func tooDeep(data []byte, max int) bool {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			for {
				j := bytes.IndexByte(data[i+1:], '"')
				if j < 0 {
					return false
				}
				i += j + 1
				k := i - 1
				for k >= 0 && data[k] == '\\' {
					k--
				}
				if (i-1-k)%2 == 0 { // not escaped
					break
				}
			}
		case '{', '[':
			if depth++; depth > max {
				return true
			}
		case '}', ']':
			depth--
		}
	}
	return false
}

// cleanJSON reports whether a JSON record's strings can hold nothing the
// sanitizer repairs: the bytes are UTF-8 and no escape makes a NUL or a
// surrogate. One pass over the record is cheaper than one per value.
func cleanJSON(data []byte) bool {
	if !utf8.Valid(data) {
		return false
	}
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte(`\u`))
		if j < 0 {
			return true
		}
		i += j + 2
		if i+4 <= len(data) {
			hex := data[i : i+4]
			if string(hex) == "0000" || ((hex[0] == 'd' || hex[0] == 'D') && strings.IndexByte("89abcdefABCDEF", hex[1]) >= 0) {
				return false
			}
		}
	}
}

// otherSignal names a metrics or logs JSON export request.
func otherSignal(data []byte) string {
	head := data[:min(len(data), 64)]
	for _, k := range []struct{ key, kind string }{{`"resourceMetrics"`, "metrics"}, {`"resourceLogs"`, "logs"}, {`"resourceProfiles"`, "profiles"}} {
		if bytes.Contains(head, []byte(k.key)) {
			return k.kind
		}
	}
	return ""
}

// emit queues a finished case when Keep chooses it.
func (r *Reader) emit(c *Case) {
	if r.opts.Keep != nil && !r.opts.Keep(c.key()) {
		r.stats.LeftOut++
		return
	}
	r.stats.Cases++
	r.ready = append(r.ready, c)
}
