package bounds_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/agentevals-go/agentevals/bounds"
)

// zeros is an endless stream, as /dev/zero is.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// BenchmarkReadAll compares bounds.ReadAll with io.ReadAll over
// io.LimitReader (the baseline), on a 32 MiB input within the limit and on
// an endless one that breaks it: compare B/op between the pairs.
func BenchmarkReadAll(b *testing.B) {
	const limit = 32 << 20
	within := bytes.Repeat([]byte("x"), limit)
	for _, bc := range []struct {
		name string
		src  func() io.Reader
	}{
		{"within", func() io.Reader { return bytes.NewReader(within) }},
		{"endless", func() io.Reader { return zeros{} }},
	} {
		b.Run(bc.name+"/baseline-io.ReadAll", func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				_, _ = io.ReadAll(io.LimitReader(bc.src(), limit+1))
			}
		})
		b.Run(bc.name+"/bounds.ReadAll", func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				_, _ = bounds.ReadAll(bc.src(), limit)
			}
		})
	}
}
