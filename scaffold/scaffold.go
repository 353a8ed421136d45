// Package scaffold writes a new, runnable evaluation suite: a suite file
// with deterministic checks, an agent stub in one of several languages
// (command or worker), a golden set, the suite's JSON Schema for editors
// and a CI workflow that gates pull requests. It never overwrites a file.
package scaffold

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"text/template"

	"github.com/agentevals-go/agentevals/internal/atomicfile"
)

//go:embed templates/*.tmpl
var templates embed.FS

// stub is an agent language's stub file, the command that runs it, the
// flag that makes it a worker and the script that runs a compiled stub
// ("" for the others).
type stub struct {
	file    string
	command []string
	worker  string
	runner  string
}

// languages maps each supported agent language to its stub.
func languages() map[string]stub {
	return map[string]stub{
		"python": {"agent.py", []string{"python3", "agent.py"}, "--worker", ""},
		"node":   {"agent.js", []string{"node", "agent.js"}, "--worker", ""},
		"ruby":   {"agent.rb", []string{"ruby", "agent.rb"}, "--worker", ""},
		"sh":     {"agent.sh", []string{"sh", "agent.sh"}, "--worker", ""},
		// Built once by init (Build), again by the script only when
		// agent.go changed: "go run" under the agent's timeout, several
		// questions at once, timed every question out on a cold build cache.
		"go": {"agent.go", []string{"sh", "run-agent.sh"}, "-worker", "run-agent.sh"},
	}
}

// Languages lists the supported agent languages, sorted.
func Languages() []string {
	out := []string{}
	for l := range languages() {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// Options say what to scaffold.
type Options struct {
	// Dir receives the suite, agent and golden set (created if missing).
	Dir string
	// Lang is one of Languages().
	Lang string
	// Worker makes the agent a long-lived worker instead of one process
	// per question.
	Worker bool
	// Schema is the suite JSON Schema written beside the suite for editors.
	Schema []byte
	// NoWorkflow writes no CI workflow.
	NoWorkflow bool
}

// Result says what was written.
type Result struct {
	// Suite is the suite file's path; Files every file written, in order.
	Suite string
	Files []string
	// Notes are things the user should know about what was written (a
	// workflow GitHub will not read where it is).
	Notes []string
	// Compiled says the stub must be built before the first question
	// (Build does it).
	Compiled bool
}

// Build compiles a compiled stub (Result.Compiled) in dir into ./agent,
// as its run-agent.sh would, so that the first questions do not spend
// their timeout compiling on a cold build cache. ctx bounds the build.
func Build(ctx context.Context, dir string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", "agent", "agent.go")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("scaffold: go build -o agent agent.go in %s: %w\n%s", dir, err, bytes.TrimSpace(out))
	}
	return nil
}

// ErrExists is wrapped when a file to write already exists.
var ErrExists = errors.New("file exists")

type file struct {
	path, tmpl string
	mode       os.FileMode
	raw        []byte
}

// Write scaffolds the suite. It checks every target first and writes
// nothing when one exists (the error names them all), so a second init
// never clobbers edited files.
func Write(opts Options) (*Result, error) {
	lang, ok := languages()[opts.Lang]
	if !ok {
		return nil, fmt.Errorf("scaffold: unknown language %q (want one of %s)", opts.Lang, strings.Join(Languages(), ", "))
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("scaffold: %w", err)
	}
	command := append([]string{}, lang.command...)
	if opts.Worker {
		command = append(command, lang.worker)
	}
	workflowDir, suiteRel, inGit := workflowPlace(dir)
	name := suiteName(dir, workflowDir)
	workflow := workflowName(suiteRel)
	data := map[string]any{"Name": name, "AgentName": name + "-agent", "Command": command, "Worker": opts.Worker,
		"SuitePath": suiteRel, "ActionRef": actionRef(), "Workflow": workflow}
	files := []file{
		{path: filepath.Join(dir, "suite.json"), tmpl: "suite.json.tmpl", mode: 0o644},
		{path: filepath.Join(dir, "golden.jsonl"), tmpl: "golden.jsonl.tmpl", mode: 0o644},
		{path: filepath.Join(dir, lang.file), tmpl: lang.file + ".tmpl", mode: 0o755},
		{path: filepath.Join(dir, "suite.schema.json"), raw: opts.Schema, mode: 0o644},
	}
	if lang.runner != "" {
		files = append(files, file{path: filepath.Join(dir, lang.runner), tmpl: lang.runner + ".tmpl", mode: 0o755})
	}
	var notes []string
	if !opts.NoWorkflow {
		wf := filepath.Join(workflowDir, ".github", "workflows", workflow+".yml")
		files = append(files, file{path: wf, tmpl: "evals.yml.tmpl", mode: 0o644})
		if !inGit {
			notes = append(notes, fmt.Sprintf("no git work tree holds %s, so the workflow went to %s, where GitHub does not read it: "+
				"GitHub reads workflows only from .github/workflows at the repository's root, so move it there (and its suite path) once the suite is in a repository, "+
				"or pass --no-workflow", dir, wf))
		}
	}
	var exist []string
	for _, f := range files {
		if _, err := os.Lstat(f.path); err == nil {
			exist = append(exist, f.path)
		}
	}
	if len(exist) > 0 {
		return nil, fmt.Errorf("scaffold: %w: %s (nothing was written; move them away or choose another directory)", ErrExists, strings.Join(exist, ", "))
	}
	res := &Result{Suite: files[0].path, Notes: notes, Compiled: lang.runner != ""}
	for _, f := range files {
		content := f.raw
		if f.tmpl != "" {
			if content, err = render(f.tmpl, data); err != nil {
				return nil, err
			}
		}
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return res, fmt.Errorf("scaffold: %w", err)
		}
		// CreateNew: a file that appeared since the check is not overwritten.
		if err := atomicfile.CreateNew(f.path, content, f.mode); err != nil {
			return res, fmt.Errorf("scaffold: %w", err)
		}
		res.Files = append(res.Files, f.path)
	}
	return res, nil
}

// suiteName names a scaffolded suite after its project, so that two
// projects scaffolded the same way ("evalrun init evals") never share a
// suite and agent name, and therefore never a baseline, in the one
// default database: "<project>-<dir>" where the project is the git work
// tree's root (root) or, outside one, dir's parent; just dir's name when
// dir is that root.
func suiteName(dir, root string) string {
	project := filepath.Base(root)
	if root == dir {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return filepath.Base(dir)
		}
		project = filepath.Base(filepath.Dir(dir))
	}
	if project == "" || project == "/" || project == "." {
		return filepath.Base(dir)
	}
	return project + "-" + filepath.Base(dir)
}

// workflowPlace returns where .github goes (the root of the git work tree
// that holds dir, else dir), the suite's path relative to it, with forward
// slashes, and whether a git work tree holds dir.
func workflowPlace(dir string) (root, s string, inGit bool) {
	root = dir
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			root, inGit = d, true
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	rel, err := filepath.Rel(root, filepath.Join(dir, "suite.json"))
	if err != nil {
		rel = "suite.json"
	}
	return root, filepath.ToSlash(rel), inGit
}

// nonSlug is what a workflow name leaves out of a suite's folder path.
var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// workflowName names the suite's workflow (its file without .yml) after
// the suite's folder, so that every suite of a repository has its own:
// "evals" for evals/suite.json (or a suite at the root), "evals-evals2"
// for evals2/suite.json, "evals-services-billing-evals" for
// services/billing/evals/suite.json.
func workflowName(suiteRel string) string {
	folder := strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(strings.TrimSuffix(suiteRel, "suite.json")), "-"), "-")
	if folder == "" || folder == "evals" {
		return "evals"
	}
	return "evals-" + folder
}

// releaseVersion matches a released module version (no pre-release or
// pseudo-version suffix).
var releaseVersion = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+$`)

// actionRef is the ref of the agentevals GitHub Action the workflow uses:
// the release this evalrun was installed from (go install …@vX.Y.Z), else
// main.
func actionRef() string {
	if info, ok := debug.ReadBuildInfo(); ok && releaseVersion.MatchString(info.Main.Version) {
		return info.Main.Version
	}
	return "main"
}

func render(name string, data any) ([]byte, error) {
	t, err := template.New(name).Funcs(template.FuncMap{"json": func(v any) (string, error) {
		b, err := json.Marshal(v)
		return string(b), err
	}}).ParseFS(templates, "templates/"+name)
	if err != nil {
		return nil, fmt.Errorf("scaffold: %s: %w", name, err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("scaffold: %s: %w", name, err)
	}
	return b.Bytes(), nil
}
