package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"agentevals/evidence"
	"agentevals/models"
	"agentevals/sanitize"
	"agentevals/suite"
)

// exitNotSaved is the exit code of a run that finished but could not be
// saved to the database: its evidence file was written instead.
const exitNotSaved = 3

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

// saveResult says where the run went.
type saveResult struct {
	where    string // "saved to …" for the run table
	notSaved error  // set when the database save failed and evidence was written instead
}

// save stores the finished run: in the database (with retries), in the
// --save-to file, or nowhere (--no-save). When the database save fails
// for good, the run goes to an evidence file under --evidence-dir and
// notSaved says so; an error is returned only when nothing could keep the
// run.
func (c *RunCmd) save(ctx context.Context, g *Globals, db *models.DB, run *models.Run, s *suite.Suite, calculated []string, shard *suite.ShardSpec) (saveResult, error) {
	if err := models.PrepareRun(run); err != nil { // what a save inserts, and the evidence file holds
		return saveResult{}, err
	}
	file := evidenceOf(run, s, calculated)
	switch {
	case c.NoSave:
		return saveResult{where: "not saved (--no-save: dry run)"}, nil
	case c.SaveTo != "":
		file.Reason = "evalrun run --save-to"
		if shard != nil {
			file.Shard = &evidence.Shard{Index: shard.Index, Count: shard.Count}
			file.Reason = fmt.Sprintf("evalrun run --shard %d/%d --save-to", shard.Index, shard.Count)
		}
		if err := file.Write(c.SaveTo); err != nil {
			return saveResult{}, err
		}
		return saveResult{where: "written to " + sanitize.EscapeText(c.SaveTo) + " (not to a database)"}, nil
	}
	return saveOrSpool(ctx, g, db, file, c.EvidenceDir)
}

// evidenceOf is the evidence file of a prepared run of suite: its rows and
// the definition the gate and db:import check.
func evidenceOf(run *models.Run, s *suite.Suite, calculated []string) *evidence.File {
	return &evidence.File{Run: run, Definition: evidence.Definition{
		SuiteDigest: run.SuiteDigest, CalculatedMetrics: calculated, CaseIDs: s.DefinitionIDs()}}
}

// saveOrSpool saves the evidence file's run to the database, retrying
// transient errors within --save-wait. When the save fails for good, the run
// goes to an evidence file under dir and notSaved says so, with the command
// that imports it; an error is returned only when nothing could keep the
// run (or the save was interrupted).
func saveOrSpool(ctx context.Context, g *Globals, db *models.DB, file *evidence.File, dir string) (saveResult, error) {
	run := file.Run
	saveErr := db.SaveRun(ctx, run, g.saveOptions(func(attempt int, wait time.Duration, err error) {
		fmt.Fprintf(g.Stderr, "evalrun: save attempt %d failed: %s; retrying in %s (gives up %s after the first attempt; --save-wait)\n",
			attempt, sanitize.EscapeText(err.Error()), wait.Round(time.Millisecond), g.saveWait())
	}))
	if saveErr == nil {
		return saveResult{where: "saved to " + db.URL}, nil
	}
	path := filepath.Join(dir, run.ID.String()+".json")
	file.Reason = "the save to " + db.URL + " failed: " + saveErr.Error()
	if ctx.Err() != nil {
		file.Reason = "interrupted while saving to " + db.URL
	}
	if err := file.Write(path); err != nil {
		return saveResult{}, &exitError{Code: exitNotSaved, Err: fmt.Errorf("%w; and the evidence file could not be written either: %v", saveErr, err)}
	}
	if ctx.Err() != nil { // Ctrl-C while the save was retrying: keep the run, skip the reports
		return saveResult{}, &exitError{Code: exitNotSaved, Err: fmt.Errorf("interrupted while saving (%s had finished): %w\n%s",
			allCases(len(run.Cases)), saveErr, notSavedNote(g, path))}
	}
	return saveResult{
		where:    "NOT saved (see below)",
		notSaved: fmt.Errorf("%w\n%s", saveErr, notSavedNote(g, path)),
	}, nil
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
