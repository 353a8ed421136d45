package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentevals/agentevals/evidence"
	"github.com/agentevals/agentevals/models"
	"github.com/agentevals/agentevals/sanitize"
)

// ImportCmd saves evidence files in the database.
type ImportCmd struct {
	Files []string `arg:"" name:"file" help:"Evidence files written by 'evalrun run' (--save-to, --shard, or after a failed save)."`
	Merge bool     `name:"merge" help:"The files are the N shards of one sharded run (evalrun run --shard I/N --save-to): join them into one run and import that."`
}

// Help is the detail under "evalrun db:import --help".
func (c *ImportCmd) Help() string {
	return "Every file is read and validated first (format and version, shape, the table contract: statuses, " +
		"thresholds and scores in [0, 1], positions, JSON objects where required, rows matching the file's definition); " +
		"one invalid file imports nothing (exit 2). Each run is inserted in one transaction, retried like a run's save " +
		"(--save-wait). Importing is idempotent: a run already in the database with equal content is reported and " +
		"skipped; different content under the same run id is refused (exit 2). " +
		"With --merge the files must be every shard 1..N of one definition (same suite, agent, version, digest, " +
		"metadata, --repeat and N), each once: the merged run has the cases in suite order, the earliest start, the latest finish, " +
		"a summary recomputed as run computes it, and the digest of an unsharded run, so the unsharded history is its " +
		"baseline. Merging the same shards again gives the same run id. Gate it with " +
		"'evalrun report --fail-on-regression' (the latest run) or 'evalrun report RUN_ID'. " +
		"Exit codes: 0 imported (or already there), 2 invalid files or a conflict, 1 when the database could not be written."
}

// Run validates every file, merges shards when asked, then imports.
func (c *ImportCmd) Run(ctx context.Context, g *Globals) error {
	files := make([]*evidence.File, len(c.Files))
	for i, name := range c.Files {
		f, err := evidence.Read(name)
		if err != nil {
			return &exitError{Code: exitInvalid, Err: fmt.Errorf("db:import: %w", err)}
		}
		if f.Shard != nil && !c.Merge {
			return &exitError{Code: exitInvalid, Err: fmt.Errorf("db:import: %s holds shard %d of %d: import all %d shards together with --merge",
				name, f.Shard.Index, f.Shard.Count, f.Shard.Count)}
		}
		files[i] = f
	}
	if c.Merge {
		merged, err := evidence.Merge(files, c.Files)
		if err != nil {
			return &exitError{Code: exitInvalid, Err: fmt.Errorf("db:import --merge: %w", err)}
		}
		files = []*evidence.File{merged}
	}
	db, err := g.open(ctx, false)
	if err != nil {
		if models.Transient(err) { // unreachable: the files are fine, try again later
			return &exitError{Code: exitFailed, Err: fmt.Errorf("db:import: %w (nothing was imported; the files are valid)", err)}
		}
		return asInvalid(err)
	}
	defer db.Close()
	for i, f := range files {
		name := strings.Join(c.Files, ", ")
		if !c.Merge {
			name = c.Files[i]
		}
		outcome, err := evidence.Import(ctx, db, f, g.saveOptions(nil))
		var conflict *evidence.ConflictError
		switch {
		case errors.As(err, &conflict):
			return &exitError{Code: exitInvalid, Err: fmt.Errorf("db:import %s: %w", name, err)}
		case err != nil:
			return &exitError{Code: exitFailed, Err: fmt.Errorf("db:import %s: %w", name, err)}
		case outcome == evidence.AlreadyImported:
			fmt.Fprintf(g.Stdout, "Run %s (%s) is already in %s with the same content: nothing inserted.\n",
				f.Run.ID, sanitize.EscapeText(name), db.URL)
		default:
			fmt.Fprintf(g.Stdout, "Imported run %s of suite %q, agent %q (%s) into %s from %s.\n",
				f.Run.ID, sanitize.EscapeText(f.Run.Suite), sanitize.EscapeText(f.Run.Agent),
				questions(len(f.Run.Cases)), db.URL, sanitize.EscapeText(name))
		}
	}
	return nil
}
