package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/show"
	"github.com/agentevals-go/agentevals/suite"
)

// record runs the suite in recording mode (RunCmd --record): the agent's
// requests reach their real hosts, the run is shown but not saved, and the
// recorded fixtures are written as a new suite file. It exits 1 when a
// check failed or errored, whatever --fail-on says.
func (c *RunCmd) record(ctx context.Context, g *Globals, task eval.Task) error {
	s := task.Suite
	out := c.RecordTo
	if out == "" {
		base := strings.TrimSuffix(filepath.Base(s.Path), filepath.Ext(s.Path))
		out = filepath.Join(filepath.Dir(s.Path), base+".recorded.json")
	}
	if _, err := os.Lstat(out); err == nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--record-to: %s exists: nothing was run or written (move it away, or name another file with --record-to)", out)}
	}
	rec := suite.NewRecordings()
	task.Exec.Record = rec
	showProgress(g, &task.Exec, len(s.Cases), nil)
	res, err := eval.Run(ctx, task)
	if err != nil {
		return inStage(err, eval.StageExecute, func(err error) error { return fmt.Errorf("%w; nothing was recorded", err) })
	}
	writeRunTable(g.Stdout, res.Run, "", styleFor(g.Stdout, os.Getenv))
	written, err := rec.Write(s, out)
	if err != nil {
		var ve *suite.ValidationError
		if errors.As(err, &ve) {
			return &exitError{Code: exitInvalid, Err: fmt.Errorf("record: nothing was written: %w", err)}
		}
		return &exitError{Code: exitFailed, Err: err}
	}
	fmt.Fprintf(g.Stdout, "Recorded %s of %s: wrote %s", show.Count(written.Requests, "request", "requests"), questions(written.Questions), displayPath(absPath(written.Suite)))
	for _, f := range written.Files {
		fmt.Fprintf(g.Stdout, ", %s", displayPath(f))
	}
	fmt.Fprintf(g.Stdout, "\nNext: evalrun run %s   (replays them strictly, offline)\n", shellQuote(displayPath(absPath(written.Suite))))
	if res.Decision.Code != exitOK {
		return &exitError{Code: res.Decision.Code}
	}
	return nil
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
