package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"agentevals/agent"
	"agentevals/compare"
	"agentevals/runner"
	"agentevals/suite"
)

// record runs the suite in recording mode (RunCmd --record): the agent's
// requests reach their real hosts, the run is shown but not saved, and the
// recorded fixtures are written as a new suite file.
func (c *RunCmd) record(ctx context.Context, g *Globals, s *suite.Suite, a agent.Agent, opts runner.ExecOptions) error {
	out := c.RecordTo
	if out == "" {
		base := strings.TrimSuffix(filepath.Base(s.Path), filepath.Ext(s.Path))
		out = filepath.Join(filepath.Dir(s.Path), base+".recorded.json")
	}
	if _, err := os.Lstat(out); err == nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--record-to: %s exists: nothing was run or written (move it away, or name another file with --record-to)", out)}
	}
	rec := suite.NewRecordings()
	opts.Record = rec
	run, err := executeShown(ctx, g, s, a, opts, nil, func(err error) error { return fmt.Errorf("%w; nothing was recorded", err) })
	if err != nil {
		return err
	}
	writeRunTable(g.Stdout, run, "", styleFor(g.Stdout, os.Getenv))
	res, err := rec.Write(s, out)
	if err != nil {
		var ve *suite.ValidationError
		if errors.As(err, &ve) {
			return &exitError{Code: exitInvalid, Err: fmt.Errorf("record: nothing was written: %w", err)}
		}
		return &exitError{Code: exitFailed, Err: err}
	}
	fmt.Fprintf(g.Stdout, "Recorded %s of %s: wrote %s", compare.Plural(res.Requests, "request", "requests"), questions(res.Questions), displayPath(absPath(res.Suite)))
	for _, f := range res.Files {
		fmt.Fprintf(g.Stdout, ", %s", displayPath(f))
	}
	fmt.Fprintf(g.Stdout, "\nNext: evalrun run %s   (replays them strictly, offline)\n", shellQuote(displayPath(absPath(res.Suite))))
	if runFailed(run) {
		return &exitError{Code: exitFailed}
	}
	return nil
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
