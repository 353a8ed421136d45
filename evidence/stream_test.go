package evidence

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/atomicfile"
	"github.com/agentevals-go/agentevals/models"
)

// wholeDocument is the file as one document encoded at once: what
// File.Write streams row by row must read the same, byte for byte.
func wholeDocument(t testing.TB, f *File) []byte {
	t.Helper()
	d, err := encodeRun(f.Run)
	if err != nil {
		t.Fatal(err)
	}
	d.Reason, d.Definition, d.Shard = f.Reason, f.Definition, f.Shard
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(d); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestFile_streamedAsOneDocument(t *testing.T) {
	run, def := benchRun(t, 7)
	// text the row writer must encode as encoding/json does: HTML
	// characters, U+2028, a JSON column written with spaces
	awkward := "a <b> & c\u2028d \"e\""
	run.Cases[2].Output = models.JSON(`{ "text" : "a <b> & c\u2028d", "n": [1, 2.50] }`)
	run.Cases[3].Name, run.Cases[3].Metrics[1].Reason = awkward, &awkward
	noCases := *run
	noCases.Cases = nil
	for _, f := range []*File{
		{Run: run, Definition: def, Reason: "a <reason> & more"},
		{Run: &noCases, Definition: def},
	} {
		path := filepath.Join(t.TempDir(), "run.json")
		if err := f.Write(path); err != nil {
			t.Fatal(err)
		}
		if len(f.Run.Cases) > 0 {
			got, err := Read(path)
			if err != nil {
				t.Fatalf("read back: %v", err)
			}
			if len(got.Run.Cases) != len(f.Run.Cases) {
				t.Errorf("read back %d cases, want %d", len(got.Run.Cases), len(f.Run.Cases))
			}
		}
		b, err := f.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if want := wholeDocument(t, f); !bytes.Equal(b, want) {
			t.Errorf("streamed file differs from the document encoded whole:\n%s\n----\n%s", b, want)
		}
	}
}

// BenchmarkFile_Write writes a 5,000-question run (3 metrics each) as its
// evidence file, streamed ("stream"), and encodes it whole first as the
// writer did before ("whole"). Besides B/op it reports peak-heap-MB: the
// most heap in use above the run itself while writing, sampled every
// millisecond.
func BenchmarkFile_Write(b *testing.B) {
	run, def := benchRun(b, 5000)
	f := &File{Run: run, Definition: def}
	path := filepath.Join(b.TempDir(), "run.json")
	for _, side := range []struct {
		name  string
		write func() error
	}{
		{"stream", func() error { return f.Write(path) }},
		{"whole", func() error {
			return atomicfile.Write(path, wholeDocument(b, f), 0o644)
		}},
	} {
		b.Run(side.name, func(b *testing.B) {
			b.ReportAllocs()
			var peak uint64
			for b.Loop() {
				p, err := peakHeap(side.write)
				if err != nil {
					b.Fatal(err)
				}
				peak = max(peak, p)
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

// peakHeap runs write and returns the most heap in use above what was in
// use before it, sampled every millisecond.
func peakHeap(write func() error) (uint64, error) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, ms.HeapAlloc
	done := make(chan struct{})
	sampled := make(chan uint64)
	go func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				sampled <- peak
				return
			case <-tick.C:
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapAlloc)
			}
		}
	}()
	err := write()
	close(done)
	return <-sampled - base, err
}
