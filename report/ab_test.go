package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

func TestRenderer_RenderABGolden(t *testing.T) {
	a, b := runfixture.ABRuns(0.1)
	ab, err := compare.AB(a, b, compare.Options{})
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

// An errored metric has a NULL score: compare shows "—" as the dashboard
// does and reports null with error_a, never 0.000.
func TestCompareAB_ErroredScoreIsDash(t *testing.T) {
	a, b := runfixture.ABRuns(0.1)
	a.Cases[0].Metrics[0].Score = nil
	a.Cases[0].Metrics[0].ErrorDetails = models.JSON(`{"message":"judge timed out"}`)
	ab, err := compare.AB(a, b, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := ab.Cases[0].Metrics[0]; m.A != nil || !m.ErrorA || m.Delta != nil {
		t.Errorf("errored metric: A %v, ErrorA %v, Delta %v; want nil, true, nil", m.A, m.ErrorA, m.Delta)
	}
	var buf bytes.Buffer
	if err := mustRenderer(t).RenderAB(&buf, FormatText, ab); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "judge                  — -> 0.700"; !bytes.Contains([]byte(got), []byte(want)) {
		t.Errorf("text A/B lacks %q:\n%s", want, got)
	}
}
