package monitor

import (
	"encoding/binary"
	"errors"
	"io"
	"sync"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/tracefile"
)

// Live is the stream of a live window: the export requests handed to Take
// (by an OTLP/HTTP receiver) are framed as a file export's
// length-prefixed protobuf records and read, as they arrive, by the same
// reader as a file, so a live window is grouped, sampled and bounded
// exactly as a file of the same spans would be. Take blocks while the
// reader is busy, which bounds what is held to one request.
type Live struct {
	pr *io.PipeReader
	pw *io.PipeWriter

	mu       sync.Mutex
	closed   bool
	requests int
	dropped  int
}

// NewLive opens a live window's stream.
func NewLive() *Live {
	pr, pw := io.Pipe()
	return &Live{pr: pr, pw: pw}
}

// errLiveClosed is the reader's side of a window that stopped reading.
var errLiveClosed = errors.New("the live window stopped reading")

// Take adds one export request's spans; after Close they are dropped and
// counted.
func (l *Live) Take(td ptrace.Traces) {
	if td.SpanCount() == 0 {
		return
	}
	data, err := (&ptrace.ProtoMarshaler{}).MarshalTraces(td)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || err != nil {
		l.dropped++
		return
	}
	var head [4]byte
	binary.BigEndian.PutUint32(head[:], uint32(len(data)))
	if _, err := l.pw.Write(append(head[:], data...)); err != nil {
		l.dropped++
		return
	}
	l.requests++
}

// Close ends the window: the reader sees the end of the stream, and
// requests still arriving are dropped.
func (l *Live) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.closed = true
		_ = l.pw.Close()
	}
}

// Counts are the requests read into the window and those dropped (after
// it closed, or when its reader had stopped).
func (l *Live) Counts() (requests, dropped int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.requests, l.dropped
}

// Source is the window as one source named name. When its reader stops
// (at the end of the stream, or on an error) later requests are dropped
// rather than wait.
func (l *Live) Source(name string) Source {
	return Source{Name: name, Open: func(o tracefile.Options) (*tracefile.Reader, error) {
		r, err := tracefile.NewReader(name, stopOnClose{l}, o)
		if err != nil {
			_ = l.pr.CloseWithError(errLiveClosed)
		}
		return r, err
	}}
}

// stopOnClose is the pipe's reading end; an error it returns (including
// the end of the stream) stops the writers too.
type stopOnClose struct{ l *Live }

func (s stopOnClose) Read(p []byte) (int, error) {
	n, err := s.l.pr.Read(p)
	if err != nil {
		_ = s.l.pr.CloseWithError(errLiveClosed)
	}
	return n, err
}

// Stop is called when the window's reader is done: writers blocked on it
// return and later requests are dropped.
func (l *Live) Stop() { _ = l.pr.CloseWithError(errLiveClosed) }
