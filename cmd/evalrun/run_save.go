package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/evidence"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/suite"
)

// DefaultEvidenceDir is where run writes the evidence file of a run it
// could not save, relative to the working directory.
const DefaultEvidenceDir = "evalrun-evidence"

// SaveFlags choose where a run's evidence goes.
type SaveFlags struct {
	SaveTo      string `name:"save-to" placeholder:"FILE" help:"Write the run to this evidence file instead of the database (air-gapped CI: upload it as an artifact, then 'evalrun db:import FILE'). No database is opened, so there is no baseline comparison."`
	NoSave      bool   `name:"no-save" help:"Dry run: save nothing anywhere (no database, no evidence file); the run table and the requested reports are still written, without a baseline comparison."`
	Shard       string `name:"shard" placeholder:"I/N" help:"Run only shard I of N: the questions at 0-based suite positions p with p mod N = I-1. Needs --save-to; join the N files with 'evalrun db:import --merge'."`
	EvidenceDir string `name:"evidence-dir" default:"${evidence_dir}" placeholder:"DIR" help:"Where a run that could not be saved to the database is written as DIR/<run-id>.json (exit 3); default ./${evidence_dir}."`
}

// check refuses combinations that make no sense, before the suite is read.
func (f *SaveFlags) check() (*suite.ShardSpec, error) {
	if f.SaveTo != "" && f.NoSave {
		return nil, fmt.Errorf("--save-to and --no-save: choose one (--no-save writes nothing, --save-to writes an evidence file)")
	}
	if f.SaveTo != "" {
		if err := checkWritable(f.SaveTo); err != nil {
			return nil, fmt.Errorf("--save-to %s: %w; nothing was run", f.SaveTo, err)
		}
	}
	if f.Shard == "" {
		return nil, nil
	}
	spec, err := suite.ParseShard(f.Shard)
	if err != nil {
		return nil, err
	}
	if f.SaveTo == "" {
		return nil, fmt.Errorf("--shard %s needs --save-to FILE: a shard is part of a run, never a run of its own; merge the shards' files with 'evalrun db:import --merge'", f.Shard)
	}
	return &spec, nil
}

// checkWritable refuses a --save-to path that the finished run could not
// be written to (an existing directory, a directory that cannot be created
// or written), so a long run is not lost at the end. It creates nothing.
func checkWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("is a directory; want a file path such as %s", filepath.Join(path, "run.json"))
	}
	dir := filepath.Dir(path)
	for { // the nearest existing ancestor: Write creates the directories below it
		if _, err := os.Stat(dir); err == nil || filepath.Dir(dir) == dir {
			break
		}
		dir = filepath.Dir(dir)
	}
	tmp, err := os.CreateTemp(dir, ".evalrun-save-to-*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write there: %w", err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// usesDatabase reports whether the run is saved to the database.
func (f *SaveFlags) usesDatabase() bool { return f.SaveTo == "" && !f.NoSave }

// store is where the flags send the run: db (nil with --save-to and
// --no-save), the --save-to file, and --evidence-dir for a run the
// database save failed on.
func (f *SaveFlags) store(g *Globals, db *models.DB, shard *suite.ShardSpec) eval.Store {
	st := eval.Store{DB: db, EvidenceDir: f.EvidenceDir, Save: g.saveOptions(g.announceRetry)}
	if f.SaveTo != "" {
		st.File, st.Reason = f.SaveTo, "evalrun run --save-to"
		if shard != nil {
			st.Shard = &evidence.Shard{Index: shard.Index, Count: shard.Count}
			st.Reason = fmt.Sprintf("evalrun run --shard %d/%d --save-to", shard.Index, shard.Count)
		}
	}
	return st
}

// announceRetry says on stderr that a save attempt failed and when the
// next one is made.
func (g *Globals) announceRetry(attempt int, wait time.Duration, err error) {
	fmt.Fprintf(g.Stderr, "evalrun: save attempt %d failed: %s; retrying in %s (gives up %s after the first attempt; --save-wait)\n",
		attempt, sanitize.EscapeText(err.Error()), wait.Round(time.Millisecond), g.saveWait())
}

// where says where the run went, for the run table.
func where(ev eval.Evidence, noSave string) string {
	switch ev.Kept {
	case eval.Saved:
		return "saved to " + ev.URL
	case eval.InFile:
		return "written to " + sanitize.EscapeText(ev.Path) + " (not to a database)"
	case eval.Spooled:
		return "NOT saved (see below)"
	}
	return noSave
}

// notSaved is the error of a run whose database save failed: the save's
// error, where its evidence file is and how to import it.
func notSaved(g *Globals, ev eval.Evidence) error {
	return fmt.Errorf("%w\n%s", ev.SaveErr, notSavedNote(g, ev.Path))
}

// keptAnyway adds to an error of eval.Run whose run was still written to
// an evidence file (the save was interrupted) where the file is and how to
// import it.
func keptAnyway(g *Globals, res *eval.Result, err error) error {
	if res == nil || res.Evidence.Kept != eval.Spooled {
		return err
	}
	return &exitError{Code: exitNotSaved, Err: fmt.Errorf("%w\n%s", err, notSavedNote(g, res.Evidence.Path))}
}

// notSavedNote says where the evidence of an unsaved run is and how to
// import it.
func notSavedNote(g *Globals, path string) string {
	return fmt.Sprintf("the run was NOT saved to the database; its evidence is in %s\nimport it when the database is back: %s",
		path, importCommand(g, path))
}

// importCommand is the command that imports path into the same database.
func importCommand(g *Globals, path string) string {
	cmd := "evalrun db:import " + shellQuote(path)
	if g.DatabaseURL != "" && g.DatabaseURL != os.Getenv("DATABASE_URL") {
		cmd = "evalrun --database-url " + shellQuote(models.Redact(g.DatabaseURL)) + " db:import " + shellQuote(path)
	}
	return cmd
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == ':' || r == '@' || r == '=' ||
			(r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
