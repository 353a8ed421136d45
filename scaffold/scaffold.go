// Package scaffold writes a new, runnable evaluation suite: a suite file
// with deterministic checks, an agent stub in one of several languages
// (command or worker), a golden set, the suite's JSON Schema for editors
// and a CI workflow that gates pull requests. It never overwrites a file.
package scaffold

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
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

// stub is an agent language's stub file, the command that runs it and the
// flag that makes it a worker.
type stub struct {
	file    string
	command []string
	worker  string
}

// languages maps each supported agent language to its stub.
func languages() map[string]stub {
	return map[string]stub{
		"python": {"agent.py", []string{"python3", "agent.py"}, "--worker"},
		"node":   {"agent.js", []string{"node", "agent.js"}, "--worker"},
		"ruby":   {"agent.rb", []string{"ruby", "agent.rb"}, "--worker"},
		"sh":     {"agent.sh", []string{"sh", "agent.sh"}, "--worker"},
		"go":     {"agent.go", []string{"go", "run", "agent.go"}, "-worker"},
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
}

// Result says what was written.
type Result struct {
	// Suite is the suite file's path; Files every file written, in order.
	Suite string
	Files []string
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
	workflowDir, suiteRel := workflowPlace(dir)
	name := suiteName(dir, workflowDir)
	data := map[string]any{"Name": name, "AgentName": name + "-agent", "Command": command, "Worker": opts.Worker,
		"SuitePath": suiteRel, "ActionRef": actionRef()}
	files := []file{
		{path: filepath.Join(dir, "suite.json"), tmpl: "suite.json.tmpl", mode: 0o644},
		{path: filepath.Join(dir, "golden.jsonl"), tmpl: "golden.jsonl.tmpl", mode: 0o644},
		{path: filepath.Join(dir, lang.file), tmpl: lang.file + ".tmpl", mode: 0o755},
		{path: filepath.Join(dir, "suite.schema.json"), raw: opts.Schema, mode: 0o644},
		{path: filepath.Join(workflowDir, ".github", "workflows", "evals.yml"), tmpl: "evals.yml.tmpl", mode: 0o644},
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
	res := &Result{Suite: files[0].path}
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
// that holds dir, else dir) and the suite's path relative to it, with
// forward slashes.
func workflowPlace(dir string) (root, s string) {
	root = dir
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			root = d
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
	return root, filepath.ToSlash(rel)
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
