// Command gatesim measures how often the strict and ci regression gates
// flag a candidate run against its baseline when the true quality did not
// change, or dropped by 0.02, 0.05 or 0.10, with an LLM judge whose
// verdicts carry seeded noise (internal/gatesim), with one judge verdict
// per question and with the mean of three. It prints a Markdown table.
//
//	go run ./bench/gatesim -pairs 40 -sd 0.10
//
// Repeats are averaged by the harness itself (K agent answers and judge
// verdicts per question, the metric row's score their mean), standing in
// for the runner's --repeat until that lands; the gate reads the means.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"agentevals/internal/gatesim"
)

func main() {
	pairs := flag.Int("pairs", 40, "run pairs per row")
	questions := flag.Int("questions", 200, "questions in the suite")
	sd := flag.Float64("sd", 0.10, "judge noise (standard deviation of a verdict)")
	seed := flag.Uint64("seed", 20261201, "seed of true qualities and noise")
	flag.Parse()
	if err := run(*pairs, *questions, *sd, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "gatesim:", err)
		os.Exit(1)
	}
}

func run(pairs, questions int, sd float64, seed uint64) error {
	dir, err := os.MkdirTemp("", "gatesim")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	h, err := gatesim.New(gatesim.Config{Questions: questions, Threshold: 0.7, SD: sd, Seed: seed}, dir)
	if err != nil {
		return err
	}
	defer h.Close()
	drops := []float64{0, 0.02, 0.05, 0.10}
	type counts struct{ strict, ci [2]int }
	rows := make([]counts, len(drops))
	ctx := context.Background()
	start := time.Now()
	for ri, repeats := range []int{1, 3} {
		for p := range pairs {
			runID := (ri*pairs + p) * (len(drops) + 1)
			base, err := h.Run(ctx, runID, 0, repeats)
			if err != nil {
				return err
			}
			for di, d := range drops {
				cand, err := h.Run(ctx, runID+1+di, d, repeats)
				if err != nil {
					return err
				}
				o := gatesim.Gate(cand, base)
				if o.Strict {
					rows[di].strict[ri]++
				}
				if o.CI {
					rows[di].ci[ri]++
				}
			}
		}
	}
	fmt.Printf("%d questions, semantic_accuracy >= 0.7, judge noise sd %.2f, seed %d, %d pairs per cell (%s)\n\n",
		questions, sd, seed, pairs, time.Since(start).Round(time.Second))
	fmt.Println("| true change | strict, 1 verdict | ci, 1 verdict | strict, mean of 3 | ci, mean of 3 |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: |")
	for di, d := range drops {
		name := "no change"
		if d > 0 {
			name = fmt.Sprintf("drop %.2f", d)
		}
		c := rows[di]
		fmt.Printf("| %s | %s | %s | %s | %s |\n", name, pct(c.strict[0], pairs), pct(c.ci[0], pairs), pct(c.strict[1], pairs), pct(c.ci[1], pairs))
	}
	return nil
}

func pct(n, of int) string { return fmt.Sprintf("%d/%d (%.0f%%)", n, of, 100*float64(n)/float64(of)) }
