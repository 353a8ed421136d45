// Command gatesim measures how often the strict and ci regression gates
// flag a candidate run against its baseline when the true quality did not
// change, or dropped by 0.02, 0.05 or 0.10 (-drops), with an LLM judge whose
// verdicts carry seeded noise (internal/testkit/gatesim), with one judge verdict
// per question and with --repeat 3 (runner.ExecOptions.Repeat: every
// question answered and judged three times, the metric rows holding the
// means, which is what the gates read). It prints one Markdown table per
// noise level.
//
//	go run ./bench/gatesim -pairs 40 -sd 0.10,0.05
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/gatesim"
)

func main() {
	pairs := flag.Int("pairs", 40, "run pairs per row")
	questions := flag.Int("questions", 200, "questions in the suite")
	sdList := flag.String("sd", "0.10", "judge noise (standard deviation of a verdict); a comma-separated list gives one table each")
	dropList := flag.String("drops", "0,0.02,0.05,0.10", "true drops of the candidates' quality, one row each (0: no change)")
	seed := flag.Uint64("seed", 20261201, "seed of true qualities and noise")
	flag.Parse()
	sds, err := parseList("-sd", *sdList)
	if err == nil {
		var drops []float64
		if drops, err = parseList("-drops", *dropList); err == nil {
			for i, sd := range sds {
				if i > 0 {
					fmt.Println()
				}
				if err := run(*pairs, *questions, sd, drops, *seed); err != nil {
					fmt.Fprintln(os.Stderr, "gatesim:", err)
					os.Exit(1)
				}
			}
			return
		}
	}
	fmt.Fprintln(os.Stderr, "gatesim:", err)
	os.Exit(2)
}

// parseList reads a comma-separated list of numbers from 0 to 1.
func parseList(name, list string) ([]float64, error) {
	var out []float64
	for _, field := range strings.Split(list, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(field), 64)
		if err != nil || v < 0 || v > 1 {
			return nil, fmt.Errorf("%s: want numbers from 0 to 1 separated by commas, got %q", name, field)
		}
		out = append(out, v)
	}
	return out, nil
}

func run(pairs, questions int, sd float64, drops []float64, seed uint64) error {
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
	fmt.Println("| true change | strict | ci | strict, --repeat 3 | ci, --repeat 3 |")
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
