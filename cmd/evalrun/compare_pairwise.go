package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/internal/atomicfile"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/provider"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
	"golang.org/x/term"
)

// PairwiseFlags ask evalrun compare for a pairwise judgement of the two
// runs' answers.
type PairwiseFlags struct {
	Pairwise    bool   `name:"pairwise" help:"Also ask the judge, question by question, which run's answer is better against the expected answer, twice with the answers' slots swapped (see below). Needs a judge: --judge-model (and --judge-provider, --judge-base-url) or their EVAL_JUDGE_* variables."`
	PairwiseOut string `name:"pairwise-out" placeholder:"PATH" help:"With --pairwise, write the verdicts to PATH (a new file; default ./evalrun-evidence/pairwise-A-B-TIME.json)."`

	JudgeFlags
}

const pairwiseHelp = `With --pairwise the judge reads each question answered by both runs with the expected answer and both answers, twice: once with A's answer in the first slot, once with B's. A question is a win for the side both readings prefer; a judge that changes its mind when the slots change records a tie. The result is B's wins, losses and ties, the exact two-sided sign test over the wins and losses (ties left out; a side is preferred when p < 0.05), and the judge's position consistency: the share of pairs whose two readings agreed. A pair whose judge call failed is an error, never a tie. The verdicts are written to a file of their own (--pairwise-out): both runs are already stored and evidence is never changed.`

// renderPairwise judges the pairs of ab, writes the verdicts file and
// renders the comparison with its pairwise section.
func (c *CompareCmd) renderPairwise(ctx context.Context, g *Globals, r *report.Renderer, format report.Format, ab *compare.ABComparison) error {
	j, err := c.judge(ctx, nil)
	if err != nil {
		return asInvalid(err)
	}
	if j == nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--pairwise needs a judge: give --judge-model (or EVAL_JUDGE_MODEL), with --judge-provider and --judge-base-url as needed")}
	}
	path := c.PairwiseOut
	if path == "" {
		path = filepath.Join(DefaultEvidenceDir, fmt.Sprintf("pairwise-%s-%s-%s.json",
			ab.A.ID.String()[:8], ab.B.ID.String()[:8], time.Now().UTC().Format("20060102T150405")))
	}
	// The file is checked before any judge call is paid for.
	if err := checkPairwiseOut(path); err != nil {
		return err
	}
	rec, err := pairwiseRecord(ctx, g, j, c.built, ab.A, ab.B)
	if err != nil {
		return err
	}
	if err := writePairwiseFile(path, rec); err != nil {
		return err
	}
	fmt.Fprintf(g.Stderr, "wrote the pairwise verdicts to %s\n", sanitize.EscapeText(path))
	p := report.NewPairwise(rec)
	if err := r.RenderABPairwise(g.Stdout, format, ab, p); err != nil {
		return err
	}
	if p.Errors > 0 {
		return &exitError{Code: exitFailed, Err: fmt.Errorf("--pairwise: %d of %d pairs could not be judged (see the errors above); they count neither as ties nor as wins", p.Errors, p.Pairs)}
	}
	return nil
}

// pairwiseRecord judges b's answers against a's, with progress on stderr.
func pairwiseRecord(ctx context.Context, g *Globals, j score.Judge, built *provider.Judge, a, b *models.Run) (models.PairwiseRecord, error) {
	rec := models.PairwiseRecord{RunA: a.ID.String(), RunB: b.ID.String()}
	if built != nil {
		t := built.Totals()
		rec.Judge = map[string]string{"provider": t.Provider, "model": t.Model}
	}
	verdicts, err := eval.JudgePairs(ctx, j, a.Cases, b.Cases, eval.PairwiseOptions{Progress: pairwiseProgress(g.Stderr)})
	if err != nil {
		return rec, &exitError{Code: exitFailed, Err: err}
	}
	rec.Verdicts = verdicts
	return rec, nil
}

// checkPairwiseOut refuses a verdicts path that writePairwiseFile could
// not create: anything already there (a file, a directory, a device such
// as /dev/full, a symbolic link, even a dangling one), or a directory
// that cannot be created or written in.
func checkPairwiseOut(path string) error {
	fail := func(err error) error {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--pairwise-out: %w", err)}
	}
	if fi, err := os.Lstat(path); err == nil {
		what := "a file"
		switch {
		case fi.IsDir():
			what = "a directory"
		case fi.Mode()&os.ModeSymlink != 0:
			what = "a symbolic link"
		case !fi.Mode().IsRegular():
			what = "a device or special file"
		}
		return fail(fmt.Errorf("%s is already %s: give the path of a new file", sanitize.EscapeText(path), what))
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fail(err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err)
	}
	probe, err := os.CreateTemp(dir, ".pairwise-check-*")
	if err != nil {
		return fail(fmt.Errorf("cannot write in %s: %w", sanitize.EscapeText(dir), err))
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// writePairwiseFile writes rec as indented JSON to a new file.
func writePairwiseFile(path string, rec models.PairwiseRecord) error {
	data, err := json.MarshalIndent(struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
		models.PairwiseRecord
	}{"agentevals-pairwise", 1, rec}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--pairwise-out: %w", err)}
	}
	if err := atomicfile.CreateNew(path, append(data, '\n'), 0o644); err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--pairwise-out: %w", err)}
	}
	return nil
}

// pairwiseProgress rewrites one progress line in place on a terminal
// outside CI; elsewhere (a CI log, a file) it writes a line at every
// tenth of the pairs and at the end, never a carriage return.
func pairwiseProgress(w io.Writer) func(done, total int) {
	f, ok := w.(*os.File)
	tty := ok && term.IsTerminal(int(f.Fd())) && !inCI(os.Getenv)
	last := -1
	return func(done, total int) {
		if tty {
			fmt.Fprintf(w, "\rpairwise: %d/%d pairs judged", done, total)
			if done == total {
				fmt.Fprintln(w)
			}
			return
		}
		if step := done * 10 / max(total, 1); step != last || done == total {
			last = step
			fmt.Fprintf(w, "pairwise: %d/%d pairs judged\n", done, total)
		}
	}
}
