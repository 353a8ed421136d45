package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/evidence"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
)

// ImportCmd saves evidence files in the database.
type ImportCmd struct {
	Files          []string `arg:"" name:"file" help:"Evidence files written by 'evalrun run' (--save-to, --shard, or after a failed save)."`
	Merge          bool     `name:"merge" help:"The files are the N shards of one sharded run (evalrun run --shard I/N --save-to): join them into one run and import that."`
	MaxAnswerBytes int      `name:"max-answer-bytes" placeholder:"BYTES" help:"Keep at most this many bytes of each answer, as run --max-answer-bytes does (a longer answer is cut and its case's response_metadata.output_truncated says so). 0: 1048576 (1 MiB), run's default."`
}

// Help is the detail under "evalrun db:import --help".
func (c *ImportCmd) Help() string {
	return "Every file is read and validated first (format and version, shape, the table contract: statuses, " +
		"thresholds and scores in [0, 1], positions, JSON objects where required, rows matching the file's definition); " +
		"run times within 2000-01-01 to now + 24h, unique question ids, verdicts matching scores and thresholds; " +
		"one invalid file imports nothing (exit 2). Strings are repaired and redacted and answers cut to the answer cap as in a live run. " +
		"All runs of one command are inserted in one transaction (all or none), retried like a run's save " +
		"(--save-wait). Importing is idempotent, also when several imports of one file run at once: a run already in the database with equal content is reported and " +
		"skipped; different content under the same run id is refused (exit 2). " +
		"With --merge the files must be every shard 1..N of one definition (same suite, agent, version, digest, " +
		"metadata, --repeat and N), each once: the merged run has the cases in suite order, the earliest start, the latest finish, " +
		"a summary recomputed as run computes it, and the digest of an unsharded run, so the unsharded history is its " +
		"baseline. Merging the same shards again gives the same run id. Gate it with " +
		"'evalrun report --fail-on-regression' (the latest run) or 'evalrun report RUN_ID'. " +
		"Exit codes: 0 imported (or already there), 2 invalid files, a conflict or rows the database refuses, 1 when the database could not be reached or was busy (try again)."
}

// Run validates every file, merges shards when asked, then imports all
// runs in one transaction.
func (c *ImportCmd) Run(ctx context.Context, g *Globals) error {
	files, names, err := c.read()
	if err != nil {
		return err
	}
	db, err := g.open(ctx, false)
	if err != nil {
		if models.Transient(err) { // unreachable: the files are fine, try again later
			return &exitError{Code: exitFailed, Err: fmt.Errorf("db:import: %w (nothing was imported; the files are valid)", err)}
		}
		return asInvalid(err)
	}
	defer db.Close()
	outcomes, err := evidence.ImportAll(ctx, db, files, g.saveOptions(nil))
	var conflict *evidence.ConflictError
	switch {
	case errors.As(err, &conflict):
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("db:import %s: %w", strings.Join(c.Files, ", "), err)}
	case err != nil && models.Transient(err):
		return &exitError{Code: exitFailed, Err: fmt.Errorf("db:import: %w (nothing was imported: try again)", err)}
	case err != nil: // the database refused the rows: trying again changes nothing
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("db:import: %w (nothing was imported)", err)}
	}
	for i, f := range files {
		if outcomes[i] == evidence.AlreadyImported {
			fmt.Fprintf(g.Stdout, "Run %s (%s) is already in %s with the same content: nothing inserted.\n",
				f.Run.ID, sanitize.EscapeText(sanitize.String(names[i])), db.URL)
			continue
		}
		fmt.Fprintf(g.Stdout, "Imported run %s of suite %q, agent %q (%s) into %s from %s.\n",
			f.Run.ID, sanitize.EscapeText(f.Run.Suite), sanitize.EscapeText(f.Run.Agent),
			questions(len(f.Run.Cases)), db.URL, sanitize.EscapeText(sanitize.String(names[i])))
	}
	return nil
}

// read reads and validates every file before anything is written, merges
// shards with --merge, and drops a run given twice with equal content;
// names are the files behind each run, for messages.
func (c *ImportCmd) read() ([]*evidence.File, []string, error) {
	opts := evidence.Options{MaxAnswerBytes: c.MaxAnswerBytes}
	files := make([]*evidence.File, len(c.Files))
	for i, name := range c.Files {
		f, err := evidence.ReadWith(name, opts)
		if err != nil {
			return nil, nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("db:import: %w", err)}
		}
		if f.Shard != nil && !c.Merge {
			return nil, nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("db:import: %s holds shard %d of %d: import all %d shards together with --merge",
				name, f.Shard.Index, f.Shard.Count, f.Shard.Count)}
		}
		files[i] = f
	}
	if c.Merge {
		merged, err := evidence.Merge(files, c.Files)
		if err != nil {
			return nil, nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("db:import --merge: %w", err)}
		}
		return []*evidence.File{merged}, []string{strings.Join(c.Files, ", ")}, nil
	}
	var out []*evidence.File
	var names []string
	seen := map[string]int{}
	for i, f := range files {
		id := f.Run.ID.String()
		if j, dup := seen[id]; dup {
			if same, diff := evidence.Equal(out[j].Run, f.Run); !same {
				return nil, nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("db:import: %s and %s hold run %s with different content (%s); nothing was imported",
					names[j], c.Files[i], id, diff)}
			}
			continue
		}
		seen[id] = len(out)
		out = append(out, f)
		names = append(names, c.Files[i])
	}
	return out, names, nil
}
