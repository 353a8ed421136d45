package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentevals-go/agentevals/evidence"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/suite"
)

// Store says where a finished run's evidence goes: the database (DB), an
// evidence file instead (File), or nowhere (neither: a dry run, whose run
// is still compared, without a baseline).
type Store struct {
	// DB is the database the run is saved to, and where its baseline and
	// flaky questions are looked up.
	DB *models.DB
	// Save tunes the retries of the database save.
	Save models.SaveOptions
	// EvidenceDir is where a run whose database save failed for good is
	// written as DIR/<run-id>.json; "" returns the save's error instead.
	EvidenceDir string
	// File is the evidence file the run is written to instead of a
	// database (evalrun run --save-to); Reason and Shard go into it.
	File   string
	Reason string
	Shard  *evidence.Shard
}

// Kept says where the evidence of a run went.
type Kept int

// The places of Evidence.Kept.
const (
	NotSaved Kept = iota // nowhere: no database and no file
	Saved                // in Store.DB
	InFile               // in Store.File, not in a database
	Spooled              // in an evidence file under Store.EvidenceDir: the database save failed
)

// Evidence says where the run went.
type Evidence struct {
	Kept Kept
	// URL is the database's (redacted) URL when one was used.
	URL string
	// Path is the evidence file (InFile, Spooled).
	Path string
	// SaveErr is why the database save failed (Spooled).
	SaveErr error
}

// validate refuses a store that names two places.
func (s Store) validate() error {
	if s.DB != nil && s.File != "" {
		return fmt.Errorf("store: a database and an evidence file (%s): choose one", s.File)
	}
	return nil
}

// keep stores the finished run: in the database (with retries), in the
// evidence file, or nowhere. When the database save fails for good and
// EvidenceDir is set, the run goes to an evidence file there and the
// Evidence says so; an error is returned only when nothing could keep the
// run, or when the save was interrupted (the evidence file is still
// written, and the Evidence names it).
func (s Store) keep(ctx context.Context, run *models.Run, st *suite.Suite, calculated []string) (Evidence, error) {
	if err := models.PrepareRun(run); err != nil { // what a save inserts, and the evidence file holds
		return Evidence{}, failure(StageSave, ExitFailed, err)
	}
	file := &evidence.File{Run: run, Definition: evidence.Definition{
		SuiteDigest: run.SuiteDigest, CalculatedMetrics: calculated, CaseIDs: st.DefinitionIDs()}}
	switch {
	case s.File != "":
		file.Reason, file.Shard = s.Reason, s.Shard
		if err := file.Write(s.File); err != nil {
			return Evidence{}, failure(StageSave, ExitFailed, err)
		}
		return Evidence{Kept: InFile, Path: s.File}, nil
	case s.DB == nil:
		return Evidence{Kept: NotSaved}, nil
	}
	path := filepath.Join(s.EvidenceDir, run.ID.String()+".json")
	written, undo := s.writeAhead(file, path)
	save := s.Save
	save.BeforeCommit = func() { // nothing commits before the file is complete
		written()
		if s.Save.BeforeCommit != nil {
			s.Save.BeforeCommit()
		}
	}
	saveErr := s.DB.SaveRun(ctx, run, save)
	written()
	if saveErr == nil {
		undo()
		return Evidence{Kept: Saved, URL: s.DB.URL}, nil
	}
	if s.EvidenceDir == "" {
		return Evidence{}, failure(StageSave, ExitFailed, saveErr)
	}
	file.Reason = "the save to " + s.DB.URL + " failed: " + saveErr.Error()
	if ctx.Err() != nil {
		file.Reason = "interrupted while saving to " + s.DB.URL
	}
	if err := file.Write(path); err != nil {
		return Evidence{}, &Error{Code: ExitNotSaved, Stage: StageSave,
			Err: fmt.Errorf("%w; and the evidence file could not be written either: %w", saveErr, err)}
	}
	ev := Evidence{Kept: Spooled, URL: s.DB.URL, Path: path, SaveErr: saveErr}
	if ctx.Err() != nil { // interrupted while the save was retrying: the run is kept, nothing more is done
		return ev, &Error{Code: ExitNotSaved, Stage: StageSave, Err: fmt.Errorf("interrupted while saving (%s had finished): %w",
			allCases(len(run.Cases)), saveErr)}
	}
	return ev, nil
}

// allCases is "the 1 case" or "all 3 cases".
func allCases(n int) string {
	if n == 1 {
		return "the 1 case"
	}
	return fmt.Sprintf("all %d cases", n)
}

// writeAhead writes the run's evidence file while the first save attempt
// writes its rows, and no attempt commits before the file is complete
// (written, which keep hands the save as its BeforeCommit), so a process
// killed during the save (SIGKILL, the OOM killer, a CI runner's last
// resort) leaves a file that db:import accepts; importing it after a save
// that did commit finds the run there and inserts nothing. The file is
// encoded from a copy of the run's records (snapshotRun): the save fills
// ids and keys in on the originals meanwhile. undo waits for the file and
// removes it (and the directory, when it made it and it is empty) once
// the save has committed. Without an EvidenceDir, or when the file cannot
// be written, the save goes ahead as before: the file is a safety net,
// not a condition.
func (s Store) writeAhead(file *evidence.File, path string) (written, undo func()) {
	if s.EvidenceDir == "" {
		return func() {}, func() {}
	}
	_, statErr := os.Stat(s.EvidenceDir)
	made := os.IsNotExist(statErr)
	ahead := *file
	ahead.Run = snapshotRun(file.Run)
	ahead.Reason = "written before the save to " + s.DB.URL + " and removed once it commits: the process stopped during the save; " +
		"db:import this file (a run that did commit is reported as already imported)"
	done := make(chan struct{})
	ok := false
	go func() {
		defer close(done)
		ok = ahead.Write(path) == nil
	}()
	written = func() { <-done }
	return written, func() {
		written()
		if ok && os.Remove(path) == nil && made {
			_ = os.Remove(s.EvidenceDir) // only when empty
		}
	}
}

// snapshotRun copies run, its cases and their metrics: the records, not
// the values they point to (answers, scores, reasons), which a save
// replaces but never changes in place.
func snapshotRun(run *models.Run) *models.Run {
	cp := *run
	cases := make([]models.CaseResult, len(run.Cases))
	cp.Cases = make([]*models.CaseResult, len(run.Cases))
	n := 0
	for _, c := range run.Cases {
		n += len(c.Metrics)
	}
	metrics := make([]models.MetricResult, 0, n)
	ptrs := make([]*models.MetricResult, 0, n)
	for i, c := range run.Cases {
		cases[i] = *c
		first := len(ptrs)
		for _, m := range c.Metrics {
			metrics = append(metrics, *m)
			ptrs = append(ptrs, &metrics[len(metrics)-1])
		}
		cases[i].Metrics = ptrs[first:len(ptrs):len(ptrs)]
		cp.Cases[i] = &cases[i]
	}
	return &cp
}

// keepInterrupted writes the finished cases of an interrupted run to an
// evidence file (Store.File, else EvidenceDir/<run-id>.json) that db:import
// accepts as an interrupted run, never an automatic baseline, and returns
// the error that says where it went (or why it could not be written).
func (s Store) keepInterrupted(ie *runner.InterruptedError, st *suite.Suite, calculated []string) error {
	run := ie.Run
	path := s.File
	if path == "" && s.EvidenceDir != "" {
		path = filepath.Join(s.EvidenceDir, run.ID.String()+".json")
	}
	if path == "" {
		return ie
	}
	if err := models.PrepareRun(run); err != nil {
		return fmt.Errorf("%w; and its finished cases could not be kept: %w", ie, err)
	}
	file := &evidence.File{Run: run, Definition: evidence.Definition{SuiteDigest: run.SuiteDigest, CalculatedMetrics: calculated,
		CaseIDs: st.DefinitionIDs()}, Reason: fmt.Sprintf("interrupted (%v) after %d of %d questions", ie.Cause, ie.Finished, ie.Total)}
	if s.File == "" {
		if err := os.MkdirAll(s.EvidenceDir, 0o755); err != nil {
			return fmt.Errorf("%w; and its finished cases could not be kept: %w", ie, err)
		}
	}
	if err := file.Write(path); err != nil {
		return fmt.Errorf("%w; and its finished cases could not be kept: %w", ie, err)
	}
	return fmt.Errorf("%w\nthe %d finished cases are in %s; 'evalrun db:import %s' keeps them as an interrupted run (never an automatic baseline)",
		ie, ie.Finished, path, path)
}
