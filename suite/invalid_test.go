package suite

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// invalidSuites reads the malformed-suite corpus: testdata/invalid/want.tsv
// lists each suite file and a substring its error must contain (file, JSON
// path and expectation).
func invalidSuites(tb testing.TB) [][2]string {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", "invalid", "want.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, want, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			tb.Fatalf("want.tsv: bad line %q", sc.Text())
		}
		out = append(out, [2]string{name, want})
	}
	return out
}

func TestLoad_Invalid(t *testing.T) {
	corpus := invalidSuites(t)
	if len(corpus) < 30 {
		t.Fatalf("corpus has %d suites, want at least 30", len(corpus))
	}
	for _, tc := range corpus {
		t.Run(tc[0], func(t *testing.T) {
			path := filepath.Join("testdata", "invalid", tc[0])
			s, err := Load(path)
			if s != nil {
				t.Fatalf("Load returned a suite")
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want a *ValidationError", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc[1]) {
				t.Errorf("error does not contain %q:\n%s", tc[1], msg)
			}
			for _, p := range ve.Problems {
				if p.File == "" || p.Message == "" {
					t.Errorf("problem without file or message: %+v", p)
				}
			}
		})
	}
}
