package eval

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/suite"
)

// Report is one report written after the comparison: a file, or GitHub
// Actions annotations (Format report.FormatGitHub and no Path).
type Report struct {
	Path   string
	Format report.Format
	// StepSummary, for GitHub annotations, is the job summary file the
	// summary is appended to ($GITHUB_STEP_SUMMARY; "" for none).
	StepSummary string
}

// annotations reports whether the report is GitHub annotations rather
// than a file.
func (rep Report) annotations() bool { return rep.Format == report.FormatGitHub && rep.Path == "" }

// Write writes the report of cmp: its file, or the annotations to w (locs
// place them at the questions' lines; nil leaves them unlocated) and the
// job summary.
func (rep Report) Write(r *report.Renderer, w io.Writer, cmp *compare.Comparison, locs map[string]report.Location) error {
	if !rep.annotations() {
		return r.WriteFile(rep.Path, rep.Format, cmp)
	}
	if err := r.RenderGitHub(w, cmp, report.GitHubOptions{Locations: locs}); err != nil {
		return err
	}
	if rep.StepSummary != "" {
		return r.AppendStepSummary(rep.StepSummary, cmp)
	}
	return nil
}

// Written is a report that was written; Annotations holds what a GitHub
// report printed, for the caller to show where its output goes.
type Written struct {
	Report
	Annotations []byte
}

// writeReports writes every report in order and returns those written,
// with notes for what did not stop them; an error stops at the report
// that failed.
func writeReports(reports []Report, cmp *compare.Comparison, suiteFile string) ([]Written, []string, error) {
	if len(reports) == 0 {
		return nil, nil, nil
	}
	r, err := report.NewRenderer()
	if err != nil {
		return nil, nil, err
	}
	var out []Written
	var notes []string
	for _, rep := range reports {
		var locs map[string]report.Location
		var buf bytes.Buffer
		if rep.annotations() {
			var note string
			locs, note = locations(suiteFile)
			if note != "" {
				notes = append(notes, note)
			}
		}
		if err := rep.Write(r, &buf, cmp, locs); err != nil {
			return out, notes, err
		}
		out = append(out, Written{Report: rep, Annotations: buf.Bytes()})
	}
	return out, notes, nil
}

// locations are the suite file's question positions as GitHub annotations
// name them (see repoPath). A suite whose questions cannot be located is
// annotated without locations, with a note.
func locations(suiteFile string) (map[string]report.Location, string) {
	if suiteFile == "" {
		return nil, ""
	}
	positions, err := suite.Positions(suiteFile)
	if err != nil {
		return nil, "GitHub annotations carry no file and line: " + err.Error()
	}
	out := make(map[string]report.Location, len(positions))
	for id, p := range positions {
		out[id] = report.Location{File: repoPath(p.File), Line: p.Line}
	}
	return out, ""
}

// repoPath names file the way GitHub resolves the file of an annotation:
// relative to the root of the git repository (the nearest directory up from
// the working directory holding .git), with forward slashes. Outside a git
// repository, or for a file outside the repository, it is the path as given
// (relative to the working directory), which matches when the working
// directory is the checkout's root, as in a default GitHub Actions job.
func repoPath(file string) string {
	wd, err := os.Getwd()
	if err != nil {
		return file
	}
	root := gitRoot(wd)
	if root == "" {
		return file
	}
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(wd, abs)
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	}
	if resolved, err := filepath.EvalSymlinks(root); err == nil {
		root = resolved
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return filepath.ToSlash(rel)
}

// gitRoot is the nearest directory from dir up that holds .git (a directory,
// or a file in worktrees and submodules); "" when there is none.
func gitRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
