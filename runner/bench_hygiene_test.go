package runner

import (
	"context"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"os/exec"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/internal/proc"
	"github.com/agentevals-go/agentevals/suite"
)

// BenchmarkCommandVsXargs measures what process hygiene costs: 1,000 cases
// of a tiny sh agent at concurrency 16 through Execute (own process group,
// pipes evalrun owns, group kill and orphan check after every case) next
// to a bare `xargs -P16` loop running the same script 1,000 times, in the
// same run. Compare the two ns/op figures (the ratio is the overhead):
//
//	go test ./runner -run '^$' -bench CommandVsXargs -benchtime 5x -count 3
func BenchmarkCommandVsXargs(b *testing.B) {
	const script = `cat >/dev/null; echo ok`
	b.Run("xargs-P16", func(b *testing.B) {
		dir := b.TempDir()
		testfile.Write(b, dir, "agent.sh", script)
		in := strings.Repeat("x\n", benchCases)
		for b.Loop() {
			// one `sh agent.sh x` per line, stdin /dev/null (what GNU xargs gives)
			cmd := exec.Command("xargs", "-P16", "-n1", "sh", "agent.sh")
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(in)
			out, err := cmd.Output()
			if err != nil || strings.Count(string(out), "ok\n") != benchCases {
				b.Fatalf("xargs: %v: %d answers", err, strings.Count(string(out), "ok\n"))
			}
		}
	})
	b.Run("execute-c16", func(b *testing.B) {
		s := benchSuite(b)
		a := mustAgent(b, shAgent(b, suite.AgentCommand, script), adapter.Options{})
		for b.Loop() {
			run, err := Execute(context.Background(), s, a, ExecOptions{Concurrency: 16})
			if err != nil {
				b.Fatal(err)
			}
			if got := run.Cases[benchCases-1].Status; got != "passed" {
				b.Fatalf("last case %s: %s", got, run.Cases[benchCases-1].ErrorDetails)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*benchCases), "us/case")
	})
	// as evalrun runs it: a child subreaper that looks for orphans after
	// every case (this makes the benchmark process a subreaper for good,
	// so it runs last)
	b.Run("execute-c16-subreaper", func(b *testing.B) {
		if err := proc.BecomeSubreaper(); err != nil {
			b.Fatal(err)
		}
		s := benchSuite(b)
		a := mustAgent(b, shAgent(b, suite.AgentCommand, script), adapter.Options{})
		for b.Loop() {
			if _, err := Execute(context.Background(), s, a, ExecOptions{Concurrency: 16}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*benchCases), "us/case")
	})
}
