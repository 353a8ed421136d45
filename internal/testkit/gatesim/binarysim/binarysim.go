// Package binarysim runs the ci gate's simulation through the real
// evalrun binary: chains of runs of gatesim's suite, each compared with
// the previous one by evalrun run --gate ci --baseline-from, tallied into
// the acceptance table and cross-checked against gatesim.GateCI. Its test
// packages, one per judge, each fit their own test timeout; it is not part
// of the product.
package binarysim

import (
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/evidence"
	"github.com/agentevals-go/agentevals/internal/testkit/gatesim"
)

// Sizes of the simulation: trials per no-change cell (one judge at one
// repeat count), per cell of nine questions dropping with one verdict,
// per other drop cell, and the suite.
const (
	NoChangeTrials = 200
	NineTrials     = 400
	DropTrials     = 40
	segment        = 50 // trials of one chain, run by one worker
	// NineFloorOneVerdict is the least share of trials in which nine
	// questions dropping by 0.4 must fail the gate with one verdict per
	// question.
	NineFloorOneVerdict = 0.80
	questions           = 200
	sliceSize           = 20
)

// Judge is one noise model of the simulated judge (sd 0.10).
type Judge struct {
	Name   string
	Levels int
	Noise  string
}

// The judges of the table.
var (
	Gaussian = Judge{"gaussian", 0, gatesim.NoiseGaussian}
	Coarse   = Judge{"coarse 5-level", 5, gatesim.NoiseGaussian}
	T3       = Judge{"t(3)", 0, gatesim.NoiseT3}
	Wild     = Judge{"wild 1%", 0, gatesim.NoiseWild}
)

// scenario is a candidate's drop: drop(t) gives question i's true drop in
// trial t; slice(t) is the slice that must be named ("" for none).
type scenario struct {
	name  string
	drop  func(t int) func(i int) float64
	slice func(t int) string
}

var (
	noChange = scenario{"no change", func(int) func(int) float64 { return func(int) float64 { return 0 } }, nil}
	uniform  = scenario{"uniform -0.05", func(int) func(int) float64 { return func(int) float64 { return 0.05 } }, nil}
	nine     = scenario{"9 questions -0.4", func(t int) func(int) float64 { return gatesim.NineDropped(t, questions) }, nil}
	oneSlice = scenario{"slice of 20 -0.3", func(t int) func(int) float64 { return gatesim.SliceDropped(t, questions, sliceSize) },
		func(t int) string { return fmt.Sprintf("failure_mode=mode-%d", t%(questions/sliceSize)) }}
)

// cell is one row of the table.
type cell struct {
	judge    string
	repeats  int
	scenario string
}

// tally counts a cell's trials: flagged (exit 1), any slice named, and
// the wanted slice named alone.
type tally struct{ trials, flagged, named, right int }

// job is one segment of a chain of no-change runs of one judge at one
// repeat count: run r(t+1) is compared with r(t), so every trial has a
// baseline of its own that no other trial of the cell compares with; the
// drops are candidates compared with r(t), each every few steps.
type job struct {
	judge   Judge
	repeats int
	first   int // run number of the segment's first run
	seg     int // the segment's index in its chain
	steps   int
	drops   []drop
}

// drop is a drop scenario of a job and its pace: a candidate every this
// many steps of the chain, its trial numbers starting at from (a scenario
// with more trials than the chain has steps is listed again with a later
// from).
type drop struct {
	scenario
	every, from int
}

// Simulate runs the table's cells of one judge at one repeat count (1 or
// 3) through the binary and holds them to the rules, logging the table:
// NoChangeTrials no-change trials, and with the Gaussian judge trials of
// each drop scenario: NineTrials of nine questions dropping by 0.4 with one
// verdict, DropTrials of them with --repeat 3, and DropTrials each of a
// uniform drop of 0.05 and one slice of 20 dropping by 0.3 with one
// verdict. Every trial is
// one evalrun run --gate ci --fail-on regressions --baseline-from FILE
// --save-to FILE whose baseline is a run of its own: the previous run of
// its chain of no-change runs (so each baseline is compared with by one
// no-change trial, by two trials of nine questions dropping with one verdict
// (each with its own nine), and by at most one trial of each other drop). The
// rules: at most 5 % of no-change trials exit 1; nine questions dropping
// by 0.4 exit 1 in at least NineFloorOneVerdict of trials with one verdict
// and 95 % with --repeat 3; a uniform drop names a slice in at most 5 %; a one-slice
// drop names that slice alone in at least 95 %. Each trial's exit and
// named slices must also be what gatesim.GateCI (the gate of the
// in-process table, internal/testkit/gatesim/localized) decides on the two runs
// read back from their files. Workers run chains in parallel, one per
// CPU (at least two).
func Simulate(t *testing.T, bin string, j Judge, repeats int) {
	var drops []drop
	if j == Gaussian {
		if repeats == 1 {
			for from := 0; from < NineTrials; from += NoChangeTrials {
				drops = append(drops, drop{nine, 1, from})
			}
			drops = append(drops, drop{uniform, NoChangeTrials / DropTrials, 0}, drop{oneSlice, NoChangeTrials / DropTrials, 0})
		} else {
			drops = []drop{{nine, NoChangeTrials / DropTrials, 0}}
		}
	}
	var jobs []job
	for s := range NoChangeTrials / segment {
		jobs = append(jobs, job{judge: j, repeats: repeats, first: 100_000*repeats + 1000*s, seg: s,
			steps: segment, drops: drops})
	}
	// The jobs with drop candidates are the longest: they start first.
	sort.SliceStable(jobs, func(a, b int) bool { return len(jobs[a].drops) > len(jobs[b].drops) })
	var mu sync.Mutex
	tallies := map[cell]*tally{}
	record := func(c cell, flagged bool, named []string, want string) {
		mu.Lock()
		defer mu.Unlock()
		tl := tallies[c]
		if tl == nil {
			tl = &tally{}
			tallies[c] = tl
		}
		tl.trials++
		tl.flagged += b2i(flagged)
		tl.named += b2i(len(named) > 0)
		tl.right += b2i(want != "" && len(named) == 1 && named[0] == want)
	}
	var cpu, runs atomic.Int64
	work := make(chan job)
	var wg sync.WaitGroup
	for range max(2, runtime.NumCPU()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				runJob(t, bin, j, record, &cpu, &runs)
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
	check(t, j, repeats, tallies)
	t.Logf("%d runs of the binary took %v of CPU", runs.Load(), time.Duration(cpu.Load()))
}

// runJob runs one segment and records each trial.
func runJob(t *testing.T, bin string, j job, record func(cell, bool, []string, string), cpu, runs *atomic.Int64) {
	dir := t.TempDir()
	h, err := gatesim.New(gatesim.Config{Questions: questions, Threshold: 0.7, SD: 0.10, Seed: 20261205,
		Levels: j.judge.Levels, Noise: j.judge.Noise, SliceSize: sliceSize}, dir)
	if err != nil {
		t.Error(err)
		return
	}
	defer h.Close()
	agent := newSimAgent(h)
	srv := httptest.NewServer(agent)
	defer srv.Close()
	suitePath := writeSimSuite(t, filepath.Join(dir, "sim-suite.json"), srv.URL, questions)
	run := func(n int, drop func(int) float64, baseline string) (int, []string, string) {
		agent.plan(n, drop)
		file := filepath.Join(dir, fmt.Sprintf("run-%d.json", n))
		args := []string{"run", suitePath, "--repeat", strconv.Itoa(j.repeats), "--judge-base-url", h.JudgeURL(),
			"--judge-model", "sim-judge", "--gate", "ci", "--fail-on", "regressions", "--save-to", file}
		if baseline != "" {
			args = append(args, "--baseline-from", baseline)
		}
		cmd := exec.CommandContext(t.Context(), bin, args...)
		cmd.Env = append(os.Environ(), "OPENAI_API_KEY=sim-key", "SIM_RUN="+strconv.Itoa(n), "CI=", "GITHUB_ACTIONS=")
		code, out := exitOf(t, cmd)
		if cmd.ProcessState != nil {
			cpu.Add(int64(cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()))
			runs.Add(1)
		}
		return code, namedIn(out), file
	}
	code, _, prev := run(j.first, noChange.drop(0), "")
	if code != 0 {
		t.Errorf("%s judge, --repeat %d: the chain's first run (no baseline) exited %d", j.judge.Name, j.repeats, code)
		return
	}
	for step := range j.steps {
		trial := j.seg*j.steps + step // the trial's index within its cell
		for si, d := range j.drops {
			if trial%d.every != 0 {
				continue
			}
			n := j.first + 500 + 10*step + si + 1
			code, named, file := run(n, d.drop(d.from+trial/d.every), prev)
			want := ""
			if d.slice != nil {
				want = d.slice(d.from + trial/d.every)
			}
			crossCheck(t, j, d.name, n, code, named, prev, file)
			record(cell{j.judge.Name, j.repeats, d.name}, code == 1, named, want)
		}
		n := j.first + step + 1
		code, named, file := run(n, noChange.drop(0), prev)
		crossCheck(t, j, noChange.name, n, code, named, prev, file)
		record(cell{j.judge.Name, j.repeats, noChange.name}, code == 1, named, "")
		prev = file
	}
}

var slicePattern = regexp.MustCompile(`slice (failure_mode=mode-\d+) regressed`)

// namedIn are the slices the binary's output names as regressed, each once.
func namedIn(out string) []string {
	var named []string
	for _, m := range slicePattern.FindAllStringSubmatch(out, -1) {
		if !slices.Contains(named, m[1]) {
			named = append(named, m[1])
		}
	}
	return named
}

// crossCheck holds one trial of the binary to gatesim.GateCI's decision
// on the same two runs, read back from their evidence files.
func crossCheck(t *testing.T, j job, scenario string, n, code int, named []string, baseFile, candFile string) {
	t.Helper()
	if code != 0 && code != 1 {
		t.Errorf("%s judge, --repeat %d, %s, run %d: exit %d, want 0 or 1", j.judge.Name, j.repeats, scenario, n, code)
		return
	}
	base, err := evidence.Read(baseFile)
	if err != nil {
		t.Error(err)
		return
	}
	cand, err := evidence.Read(candFile)
	if err != nil {
		t.Error(err)
		return
	}
	flagged, cmp := gatesim.GateCI(cand.Run, base.Run)
	var want []string
	if cmp.Localized != nil {
		for _, s := range cmp.Localized.Slices {
			if s.Regressed && !slices.Contains(want, s.Name()) {
				want = append(want, s.Name())
			}
		}
	}
	if flagged != (code == 1) || strings.Join(named, ",") != strings.Join(want, ",") {
		t.Errorf("%s judge, --repeat %d, %s, run %d: the binary exited %d naming %v, the simulation table's gate decides flagged=%v naming %v on the same runs",
			j.judge.Name, j.repeats, scenario, n, code, named, flagged, want)
	}
}

// check holds the cells of judge j at k repeats to the rules and logs
// the table.
func check(t *testing.T, j Judge, k int, tallies map[cell]*tally) {
	var table strings.Builder
	fmt.Fprintf(&table, "| judge | repeats | scenario | exit 1 | slice named | right slice alone |\n|---|---|---|---|---|---|\n")
	if got := tallies[cell{j.Name, k, noChange.name}]; got == nil || got.trials != NoChangeTrials {
		t.Errorf("%s judge, --repeat %d: %+v no-change trials, want %d", j.Name, k, got, NoChangeTrials)
	}
	nineFloor := NineFloorOneVerdict
	if k > 1 {
		nineFloor = 0.95
	}
	for _, sc := range []scenario{noChange, uniform, nine, oneSlice} {
		tl := tallies[cell{j.Name, k, sc.name}]
		if tl == nil {
			continue
		}
		fmt.Fprintf(&table, "| %s | %d | %s | %d/%d | %d/%d | %d/%d |\n", j.Name, k, sc.name, tl.flagged, tl.trials, tl.named, tl.trials, tl.right, tl.trials)
		share := func(n int) float64 { return float64(n) / float64(tl.trials) }
		switch {
		case sc.name == noChange.name && share(tl.flagged) > 0.05:
			t.Errorf("%s judge, --repeat %d: %d of %d no-change trials exited 1, want at most 5%%", j.Name, k, tl.flagged, tl.trials)
		case sc.name == uniform.name && share(tl.named) > 0.05:
			t.Errorf("%s judge, --repeat %d: a uniform drop named a slice in %d of %d trials, want at most 5%%", j.Name, k, tl.named, tl.trials)
		case sc.name == nine.name && share(tl.flagged) < nineFloor:
			t.Errorf("%s judge, --repeat %d: nine questions dropping 0.4 exited 1 in %d of %d trials, want at least %.0f%%", j.Name, k, tl.flagged, tl.trials, 100*nineFloor)
		case sc.name == oneSlice.name && share(tl.right) < 0.95:
			t.Errorf("%s judge, --repeat %d: the dropped slice alone was named in %d of %d trials, want at least 95%%", j.Name, k, tl.right, tl.trials)
		}
	}
	t.Log("\n" + table.String())
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
