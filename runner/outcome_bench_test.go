package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/outcome"
	"github.com/agentevals-go/agentevals/score"
)

// verifierCases is how many verdicts one iteration of the verifier benchmarks
// asks for.
const verifierCases = 5000

// verifierScript answers every line with a verdict.
const verifierScript = `while read -r line; do echo '{"score": 1, "reason": "ok"}'; done`

// benchSample is a typical case for a verifier.
func benchSample() score.Sample {
	return score.Sample{CaseID: "pens-acme", RunID: "01a24349-b12d-71d4-a3a9-59b44002b033", Metric: "verified",
		Question: json.RawMessage(`"Order 12 blue pens for Acme."`), ExpectedAnswer: json.RawMessage(`"Order placed: 12 x blue pens for Acme."`),
		Metadata: map[string]any{"item": "blue pens", "quantity": 12.0}, Output: json.RawMessage(`"Order placed: 12 x blue pens for Acme."`),
		Actions: []score.Action{{Group: "desk", Name: "place_order", Arguments: json.RawMessage(`{"quantity": 12, "item": "blue pens"}`)}}}
}

// BenchmarkVerifierWorker compares, per 5,000 cases, the same worker
// program driven over a bare pipe (write the case's document, read a
// line) with the verifier check in worker mode (the document built, the
// exchange under the process rules, the verdict parsed and checked). The
// two alternate in blocks of 100 cases, so a machine whose load changes
// during the run weighs on both alike; it reports each one's ns per case
// and their ratio (verifier / bare pipe, target at most 1.2).
func BenchmarkVerifierWorker(b *testing.B) {
	dir := b.TempDir()
	testfile.Write(b, dir, "verify.sh", verifierScript)
	doc, err := json.Marshal(outcome.InputOf(benchSample()))
	if err != nil {
		b.Fatal(err)
	}
	// The bare pipe: the program started by hand.
	cmd := exec.Command("sh", filepath.Join(dir, "verify.sh"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { stdin.Close(); _ = cmd.Wait() }()
	r := bufio.NewReader(stdout)
	line := append(doc, '\n')
	bare := func() {
		if _, err := stdin.Write(line); err != nil {
			b.Fatal(err)
		}
		if _, err := r.ReadBytes('\n'); err != nil {
			b.Fatal(err)
		}
	}
	// The verifier check, bound as a run binds it.
	s := loadIn(b, dir, `{"suite": "B", "agent": {"name": "A"}, "questions": [{"id": "pens-acme", "question": "q",
	  "checks": [{"type": "verifier", "command": ["sh", "verify.sh"], "worker": true}]}]}`, nil)
	rt, err := openOutcome(context.Background(), s, &models.Run{}, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer rt.Close()
	sc, err := rt.Bind(s.Registry).Build(score.Verifier, s.Cases[0].Checks[0].Params, nil)
	if err != nil {
		b.Fatal(err)
	}
	sample, ctx := benchSample(), context.Background()
	verify := func() {
		if a, err := sc.Score(ctx, sample); err != nil || a.Score != 1 {
			b.Fatalf("verdict %+v, %v", a, err)
		}
	}
	verify() // boot the worker outside the timing
	bare()
	var bareNS, verifierNS int64
	b.ResetTimer()
	for range b.N {
		for range verifierCases / 100 {
			start := time.Now()
			for range 100 {
				bare()
			}
			mid := time.Now()
			for range 100 {
				verify()
			}
			bareNS += mid.Sub(start).Nanoseconds()
			verifierNS += time.Since(mid).Nanoseconds()
		}
	}
	n := float64(b.N * verifierCases)
	b.ReportMetric(float64(bareNS)/n, "bare-ns/case")
	b.ReportMetric(float64(verifierNS)/n, "verifier-ns/case")
	b.ReportMetric(float64(verifierNS)/float64(bareNS), "ratio")
}
