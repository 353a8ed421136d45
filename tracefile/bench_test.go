package tracefile

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/tracefile/internal/synth"
)

// BenchmarkRead reads a file export of 1,000,000 GenAI spans (250,000
// agent invocations, 64 at a time, 512 spans a line) into cases, against
// decoding the same file with pdata alone. Run it on one core:
//
//	go test ./tracefile/ -run '^$' -bench Read -benchtime 1x -cpu 1 -benchmem
func BenchmarkRead(b *testing.B) {
	path := filepath.Join(b.TempDir(), "traces.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	spans, err := synth.Write(f, synth.Spec{Traces: 250000, Concurrent: 64, Batch: 512, Seed: 1})
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Run("pdata", func(b *testing.B) {
		cpu0 := cpuTime()
		for b.Loop() {
			if n := decodeOnly(b, path); n != spans {
				b.Fatalf("decoded %d spans; want %d", n, spans)
			}
		}
		b.ReportMetric(float64(spans)*float64(b.N)/b.Elapsed().Seconds(), "spans/s")
		b.ReportMetric(float64(spans)*float64(b.N)/(cpuTime()-cpu0).Seconds(), "spans/cpu-s")
	})
	b.Run("cases", func(b *testing.B) {
		cpu0 := cpuTime()
		for b.Loop() {
			_, st, err := readAll(b, path, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if st.Spans != spans || st.Cases != 250000 {
				b.Fatalf("stats %+v; want %d spans, 250000 cases", st, spans)
			}
		}
		b.ReportMetric(float64(spans)*float64(b.N)/b.Elapsed().Seconds(), "spans/s")
		b.ReportMetric(float64(spans)*float64(b.N)/(cpuTime()-cpu0).Seconds(), "spans/cpu-s")
	})
}

// cpuTime is the process's CPU time: on a shared machine, spans per CPU
// second are what one core does, whatever else runs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// decodeOnly unmarshals every line of a JSON-lines export with pdata and
// counts the spans: the baseline.
func decodeOnly(b *testing.B, path string) int {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 32<<20)
	n := 0
	for sc.Scan() {
		td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(sc.Bytes())
		if err != nil {
			b.Fatal(err)
		}
		n += td.SpanCount()
	}
	if err := sc.Err(); err != nil && err != io.EOF {
		b.Fatal(err)
	}
	return n
}
