package reports

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"agentevals/models"
)

func abRuns(shift float64) (a, b *models.Run) {
	var ca, cb []cdef
	for i := range 20 {
		s := 0.6 + float64(i%5)*0.05
		ca = append(ca, cdef{id: fmt.Sprintf("q%02d", i), metrics: []mdef{metric("judge", 0.5, sc(s))}})
		cb = append(cb, cdef{id: fmt.Sprintf("q%02d", i), metrics: []mdef{metric("judge", 0.5, sc(min(1, s+shift)))}})
	}
	a = buildRun("01900000-0000-7000-8000-000000000301", 1, t0, ca...)
	b = buildRun("01900000-0000-7000-8000-000000000302", 2, t0.Add(time.Hour), cb...)
	b.Agent = "SupportAgentB" // an A/B of two agents of the same definition
	return a, b
}

func TestCompareAB(t *testing.T) {
	tests := []struct {
		shift float64
		want  string
	}{{0.2, VerdictBBetter}, {-0.2, VerdictBWorse}, {0, VerdictNoDifference}}
	for _, tt := range tests {
		a, b := abRuns(tt.shift)
		ab, err := CompareAB(a, b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if ab.Verdict != tt.want || ab.Metrics[0].Verdict != tt.want {
			t.Errorf("shift %v: verdict %q (metric %q), want %q", tt.shift, ab.Verdict, ab.Metrics[0].Verdict, tt.want)
		}
		if ab.Difference.N != 20 || len(ab.Cases) != 20 {
			t.Errorf("shift %v: %d paired questions, want 20", tt.shift, ab.Difference.N)
		}
	}
	a, b := abRuns(0.1)
	b.SuiteDigest = "other"
	b.Cases[3].MinimumScores = models.JSON(`{"judge":0.7}`)
	if _, err := CompareAB(a, b, Options{}); !errors.Is(err, ErrIncompatible) {
		t.Fatalf("different definitions: error %v, want ErrIncompatible", err)
	}
}

func TestRenderer_RenderABGolden(t *testing.T) {
	a, b := abRuns(0.1)
	ab, err := CompareAB(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := mustRenderer(t).RenderAB(&buf, FormatText, ab); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "ab.txt")
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("%s differs; run with -update and review the diff", path)
	}
	if err := mustRenderer(t).RenderAB(&buf, FormatHTML, ab); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("html A/B: error %v, want ErrUnknownFormat", err)
	}
}
