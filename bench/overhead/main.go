// Command overhead measures what evalrun costs per case on top of the
// agent itself, end to end as whole binaries, in two comparisons:
//
//   - worker: N cases of a tiny python3 worker agent (evalrun's worker
//     protocol: one JSON question per line in, one JSON reply per line
//     out) run by `evalrun run suite.json --database-url sqlite:DB -j J`,
//     exact_match scoring and the save included, against the same python
//     worker fed the same N request lines by a bare pipe driver (this
//     program: J workers, each written one line and read one reply at a
//     time, as evalrun does). The overhead per case is the difference of
//     the median wall times divided by N.
//   - command: N cases of a `sh` command agent (`cat >/dev/null; echo ok`,
//     one process per case) run by `evalrun run -j 16`, against
//     `xargs -P16` running the same script N times with the question JSON
//     as its argument. The figure is the ratio of the median wall times.
//
// Every round runs each side once, alternating (A B A B …, or A B C with
// -compare, a second evalrun binary), so drift of the machine hits every
// side alike; every evalrun round starts from a copy of the same database
// holding -history earlier runs of the suite (written by unmeasured
// warm-up runs), so each round loads a baseline and appends one run, as a
// CI run does.
//
//	go run ./bench/overhead -cases 5000 -rounds 3
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// options are the command-line flags.
type options struct {
	evalrun  string
	compare  string
	cases    int
	history  int
	rounds   int
	only     string
	workerJ  int
	commandJ int
	keep     bool
	// evalrunFrom and compareFrom are the binaries as given (or built);
	// evalrun and compare are their copies in the temp dir (copyBinaries).
	evalrunFrom, compareFrom string
	// moduleDir is the module root (the current directory's module).
	moduleDir string
}

func main() {
	var o options
	flag.StringVar(&o.evalrun, "evalrun", "", "evalrun binary to measure (default: build ./cmd/evalrun of the module in the current directory into a temp dir)")
	flag.StringVar(&o.compare, "compare", "", "a second evalrun binary measured in the same rounds (say, a candidate change against -evalrun)")
	flag.IntVar(&o.cases, "cases", 5000, "cases per run")
	flag.IntVar(&o.history, "history", 1, "earlier runs of the suite in the database every evalrun round starts from (baseline and flaky-question history)")
	flag.IntVar(&o.rounds, "rounds", 5, "rounds; each runs every side once, alternating")
	flag.StringVar(&o.only, "only", "", "run one comparison only: worker, command, traces, conversation or startup (the last three run only when asked for)")
	flag.IntVar(&o.workerJ, "worker-j", 4, "worker comparison: evalrun -j and the bare driver's number of python workers (4 is evalrun's default)")
	flag.IntVar(&o.commandJ, "command-j", 16, "command comparison: evalrun -j and xargs -P")
	flag.BoolVar(&o.keep, "keep", false, "keep the temp dir (suites, scripts, databases) and print its path")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "overhead:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	if o.cases < 1 || o.rounds < 1 || o.workerJ < 1 || o.commandJ < 1 || o.history < 0 {
		return errors.New("-cases, -rounds, -worker-j and -command-j must be at least 1, -history at least 0")
	}
	if o.only != "" && o.only != "worker" && o.only != "command" && o.only != "traces" && o.only != "conversation" && o.only != "startup" {
		return fmt.Errorf("-only: want worker, command, traces, conversation or startup, got %q", o.only)
	}
	if o.only == "startup" && o.compare == "" {
		return errors.New("-only startup needs -compare BASELINE: the evalrun binary whose start-up is the yardstick")
	}
	dir, err := os.MkdirTemp("", "evalrun-overhead-")
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Fprintln(os.Stderr, "files in", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	if o.moduleDir, err = moduleDir(); err != nil && (o.evalrun == "" || o.only == "traces") {
		return err
	}
	if o.evalrun == "" {
		if o.evalrun, err = buildEvalrun(o.moduleDir, dir); err != nil {
			return err
		}
	} else if o.evalrun, err = filepath.Abs(o.evalrun); err != nil {
		return err
	}
	if o.compare != "" {
		if o.compare, err = filepath.Abs(o.compare); err != nil {
			return err
		}
	}
	if err := o.copyBinaries(dir); err != nil {
		return err
	}
	var comps []*comparison
	if o.only == "conversation" {
		c, err := newConversationComparison(dir, o)
		if err != nil {
			return err
		}
		comps = append(comps, c)
	}
	if o.only == "startup" {
		comps = append(comps, newStartupComparison(o))
	}
	if o.only == "traces" {
		for _, j := range []int{1, o.workerJ} {
			c, err := newTracesComparison(dir, o, j)
			if err != nil {
				return err
			}
			comps = append(comps, c)
		}
	}
	if o.only == "" || o.only == "worker" {
		c, err := newWorkerComparison(dir, o)
		if err != nil {
			return err
		}
		comps = append(comps, c)
	}
	if o.only == "" || o.only == "command" {
		c, err := newCommandComparison(dir, o)
		if err != nil {
			return err
		}
		comps = append(comps, c)
	}
	for _, c := range comps {
		fmt.Fprintf(os.Stderr, "%s: warm-up (writes %d earlier runs, not measured)\n", c.name, o.history)
		if err := c.warmUp(); err != nil {
			return fmt.Errorf("%s warm-up: %w", c.name, err)
		}
	}
	for r := range o.rounds {
		for _, c := range comps {
			for _, s := range c.sides {
				t, err := s.run(r)
				if err != nil {
					return fmt.Errorf("%s, %s, round %d: %w", c.name, s.label, r+1, err)
				}
				s.walls = append(s.walls, t.wall)
				s.cpus = append(s.cpus, t.cpu)
				s.peaks = append(s.peaks, time.Duration(t.peakKiB))
				fmt.Fprintf(os.Stderr, "round %d/%d  %-8s %-34s %8.3fs wall %8.3fs cpu\n", r+1, o.rounds, c.name, s.label, t.wall.Seconds(), t.cpu.Seconds())
			}
		}
	}
	printTable(os.Stdout, o, comps)
	return nil
}

// comparison is one or two evalrun binaries against the zero-framework
// baseline, which is the last side.
type comparison struct {
	name string
	// cases is how many cases one run of a side answers (o.cases when 0).
	cases  int
	sides  []*side
	warmUp func() error
}

// side is one way of answering the cases; run times one run.
type side struct {
	label string
	// base is the side its ratio is against (nil: the comparison's last).
	base  *side
	run   func(round int) (timing, error)
	walls []time.Duration
	cpus  []time.Duration
	peaks []time.Duration // peak resident set in KiB, kept as a Duration for statsOf
}

// timing is one run's wall time and CPU time (user and system, of every
// process of the run: see each side for what that covers). On a busy
// machine the wall time carries the other load; the CPU time much less.
// peakKiB is the run's peak resident set (peakOf; 0 where not measured).
type timing struct {
	wall, cpu time.Duration
	peakKiB   int64
}

// moduleDir is the root of the module around the current directory.
func moduleDir() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(out))
	if err != nil || gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside the agentevals module: run from the checkout, or pass -evalrun PATH")
	}
	return filepath.Dir(gomod), nil
}

// buildEvalrun builds ./cmd/evalrun of the module in mod, static as the
// README installs it.
func buildEvalrun(mod, dir string) (string, error) {
	exe := filepath.Join(dir, "evalrun")
	cmd := exec.Command("go", "build", "-o", exe, "./cmd/evalrun")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	fmt.Fprintln(os.Stderr, "building ./cmd/evalrun into", dir)
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build ./cmd/evalrun: %w", err)
	}
	return exe, nil
}

// copyBinaries measures copies of the binaries, all written into dir the
// same way, so that their pages sit alike in the page cache: where the
// kernel caches files in large folios, one fault maps a whole folio, and
// the resident set of the same bytes depends on how the file was written
// (an evalrun written in 4 KiB pieces started in 42.5 MiB, written in
// 1 MiB pieces in 66.3 MiB) rather than on the program alone.
func (o *options) copyBinaries(dir string) error {
	o.evalrunFrom, o.compareFrom = o.evalrun, o.compare
	var err error
	if o.evalrun, err = copyBinary(o.evalrun, filepath.Join(dir, "measured-evalrun")); err != nil {
		return err
	}
	if o.compare != "" {
		o.compare, err = copyBinary(o.compare, filepath.Join(dir, "measured-compare"))
	}
	return err
}

func copyBinary(from, to string) (string, error) {
	src, err := os.Open(from)
	if err != nil {
		return "", err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return "", fmt.Errorf("copy %s: %w", from, err)
	}
	return to, dst.Close()
}

// stats are a side's min, median and max.
type stats struct{ min, med, max time.Duration }

func statsOf(ts []time.Duration) stats {
	s := slices.Clone(ts)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return stats{s[0], med, s[len(s)-1]}
}

func printTable(w *os.File, o options, comps []*comparison) {
	fmt.Fprintf(w, "\nevalrun overhead: %d cases, %d rounds, %d earlier runs in the database, %d CPUs, %s\nevalrun: %s\n", o.cases, o.rounds, o.history, runtime.NumCPU(), runtime.Version(), o.evalrunFrom)
	if o.compare != "" {
		fmt.Fprintf(w, "compare: %s\n", o.compareFrom)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "comparison\tside\twall min\t  median\t     max\tmedian per case\tCPU median\tper case\tpeak RSS median")
	for _, c := range comps {
		for _, s := range c.sides {
			st, cpu, peak := statsOf(s.walls), statsOf(s.cpus), statsOf(s.peaks)
			fmt.Fprintf(tw, "%s\t%s\t%7.3fs\t%7.3fs\t%7.3fs\t%8.3f ms\t%9.3fs\t%6.3f ms\t%6.1f MiB\n", c.name, s.label,
				st.min.Seconds(), st.med.Seconds(), st.max.Seconds(), perCase(st.med, c.casesOr(o)), cpu.med.Seconds(), perCase(cpu.med, c.casesOr(o)), mib(peak.med))
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, c := range comps {
		for _, s := range c.sides[:len(c.sides)-1] {
			base := c.sides[len(c.sides)-1]
			if s.base != nil {
				base = s.base
			}
			b, bc, bp := statsOf(base.walls), statsOf(base.cpus), statsOf(base.peaks)
			a, ac, ap := statsOf(s.walls), statsOf(s.cpus), statsOf(s.peaks)
			n := c.casesOr(o)
			fmt.Fprintf(w, "%s: %s / %s\n  wall: ratio of medians %.3fx; overhead per case %.3f ms (medians), %.3f ms (mins)\n  CPU:  ratio of medians %.3fx; overhead per case %.3f ms (medians)\n",
				c.name, s.label, base.label, a.med.Seconds()/b.med.Seconds(), perCase(a.med-b.med, n), perCase(a.min-b.min, n),
				ac.med.Seconds()/bc.med.Seconds(), perCase(ac.med-bc.med, n))
			if ap.med > 0 && bp.med > 0 {
				fmt.Fprintf(w, "  peak RSS: ratio of medians %.3fx (%.1f MiB against %.1f MiB)\n", float64(ap.med)/float64(bp.med), mib(ap.med), mib(bp.med))
			}
		}
	}
}

// casesOr is how many cases one run of c's sides answers.
func (c *comparison) casesOr(o options) int {
	if c.cases > 0 {
		return c.cases
	}
	return o.cases
}

// mib is a peak kept in KiB as MiB.
func mib(kib time.Duration) float64 { return float64(kib) / 1024 }

func perCase(d time.Duration, cases int) float64 {
	return float64(d) / float64(time.Millisecond) / float64(cases)
}
