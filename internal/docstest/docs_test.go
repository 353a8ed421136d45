package docstest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/agentevals-go/agentevals/suite"
)

// blockTimeout bounds one block; a block that hangs fails with its output.
// The first go command in the working copy compiles the module there
// (later runs find it in the build cache).
const blockTimeout = 8 * time.Minute

// documents are README.md and every docs/*.md, relative to the root.
func documents(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(env.root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := []string{"README.md"}
	for _, d := range docs {
		rel, _ := filepath.Rel(env.root, d)
		out = append(out, rel)
	}
	sort.Strings(out[1:])
	return out
}

func parseDoc(t *testing.T, rel string) []Block {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(env.root, rel))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := Parse(rel, string(b))
	if err != nil {
		t.Fatal(err)
	}
	return blocks
}

// TestDocs runs every document's blocks in order, in a fresh working copy
// of the repository per document: sh blocks are executed,
// json, jsonl and yaml blocks parsed (suites also validated by evalrun),
// go blocks written where their file marker says (TestDocs_GoBlocksCompile
// compiles them); output blocks are listed as shown. The log lists every
// block and what was done with it (go test -v).
func TestDocs(t *testing.T) {
	judge := scriptedJudge(t)
	root := workRoot(t)
	var compiling sync.Mutex
	slug := regexp.MustCompile(`[^a-zA-Z0-9]+`)
	for _, rel := range documents(t) {
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			blocks := parseDoc(t, rel)
			// The copy is named agentevals, as a clone is, so blocks can
			// refer to it from a sibling directory (../agentevals).
			// Documents whose blocks run the go command take turns in one
			// place, so the module compiles there once and stays in the
			// build cache; the others run in parallel, each in its own.
			base := filepath.Join(root, slug.ReplaceAllString(rel, "_"))
			if runsGo(blocks) {
				compiling.Lock()
				defer compiling.Unlock()
				base = filepath.Join(root, "go")
			}
			if err := os.RemoveAll(base); err != nil {
				t.Fatal(err)
			}
			work := filepath.Join(base, "agentevals")
			home := filepath.Join(t.TempDir(), "home")
			for _, d := range []string{work, filepath.Join(home, "tmp")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			copyRepo(t, env.root, work)
			for _, b := range blocks {
				where := fmt.Sprintf("%s:%d", rel, b.Line)
				if b.Marker.File != "" {
					path := filepath.Join(work, filepath.FromSlash(b.Marker.File))
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, []byte(b.Body), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				what, err := handle(b, work, home, judge)
				if err != nil {
					t.Errorf("%s %s: %v", where, b.Lang, err)
					continue
				}
				t.Logf("%s %s: %s", where, b.Lang, what)
			}
		})
	}
}

// goCommand finds the go command at the start of a shell command.
var goCommand = regexp.MustCompile(`(^|[\n;&|(]|\s)go\s+(run|test|build|install|mod|get|vet)\b`)

// runsGo reports whether a sh block of the document runs the go command.
func runsGo(blocks []Block) bool {
	for _, b := range blocks {
		if (b.Lang == "sh" || b.Lang == "bash" || b.Lang == "shell") && b.Marker.Skip == "" && goCommand.MatchString(b.Body) {
			return true
		}
	}
	return false
}

// handle does with one block what its language and marker say and returns
// a line for the log.
func handle(b Block, work, home string, judge []string) (string, error) {
	if b.Marker.Skip != "" {
		return "not run: " + b.Marker.Skip, nil
	}
	switch b.Lang {
	case "sh", "bash", "shell":
		if b.Marker.File != "" {
			return "a script, written to " + b.Marker.File + ", not run by itself", nil
		}
		var extra []string
		if b.Marker.Judge {
			extra = judge
		}
		return runShell(b, work, home, extra)
	case "go":
		return "compiled by TestDocs_GoBlocksCompile" + fileNote(b), nil
	case "json":
		return checkJSON(b, work, home)
	case "jsonl":
		for i, line := range strings.Split(strings.TrimSpace(b.Body), "\n") {
			if !json.Valid([]byte(line)) {
				return "", fmt.Errorf("line %d of the block is not one JSON value: %s", i+1, line)
			}
		}
		return "parsed (JSON lines)" + fileNote(b), nil
	case "yaml", "yml":
		var v any
		if err := yaml.Unmarshal([]byte(b.Body), &v); err != nil {
			return "", fmt.Errorf("YAML does not parse: %w", err)
		}
		return "parsed (YAML)" + fileNote(b), nil
	case "text", "console", "output", "ruby", "nginx", "sql", "python", "javascript":
		if b.Marker.Judge || b.Marker.Exit != 0 {
			return "", errors.New("an exit or judge marker on a block that is not run")
		}
		if cmd := typedCommand(b); cmd != "" {
			return "", fmt.Errorf("a %s block holds a command a reader types (%q): make it an sh block the test runs, or say why it cannot run with <!-- docstest: skip REASON -->; a transcript shows commands after \"$ \"", b.Lang, cmd)
		}
		if b.Marker.File != "" {
			return "a file, written to " + b.Marker.File + ", not run by itself", nil
		}
		return "shown, not run (" + b.Lang + " is output or another program's code or configuration)", nil
	}
	return "", fmt.Errorf("unknown block language %q: use sh, go, json, jsonl, yaml, or text for output", b.Lang)
}

// userCommand is a line that starts one of the project's commands as a
// reader would type it (a transcript's "$ " prompt marks shown output).
var userCommand = regexp.MustCompile(`^\s*([A-Z_]+=\S*\s+)*(evalrun|evaldash|go (run|test|build|install))\s`)

// typedCommand returns the first line of a text block that is a command,
// or "".
func typedCommand(b Block) string {
	if b.Lang != "text" && b.Lang != "console" && b.Lang != "output" {
		return ""
	}
	for _, line := range strings.Split(b.Body, "\n") {
		if userCommand.MatchString(line) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

func fileNote(b Block) string {
	if b.Marker.File != "" {
		return "; written to " + b.Marker.File
	}
	return ""
}

// runShell runs an sh block with bash -e -o pipefail in the working copy
// and checks its exit status against the marker.
func runShell(b Block, work, home string, extra []string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), blockTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", b.Body)
	cmd.Dir = work
	cmd.Env = environ(home, extra...)
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return "", fmt.Errorf("timed out after %s\n%s", blockTimeout, tail(out.Bytes(), 4000))
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		return "", err
	}
	if code != b.Marker.Exit {
		return "", fmt.Errorf("exit %d, want %d\n%s\n--- output:\n%s%s", code, b.Marker.Exit, b.Body, tail(out.Bytes(), 4000), offlineHint(out.Bytes()))
	}
	judge := ""
	if len(extra) > 0 {
		judge = ", scripted judge"
	}
	return fmt.Sprintf("ran (exit %d%s, %s)", code, judge, time.Since(start).Round(100*time.Millisecond)), nil
}

// checkJSON parses a json block; a suite (an object with questions or a
// golden set) must also pass evalrun validate, where its file marker put it
// or alone in a temporary directory.
func checkJSON(b Block, work, home string) (string, error) {
	var v any
	if err := json.Unmarshal([]byte(b.Body), &v); err != nil {
		return "", fmt.Errorf("JSON does not parse: %w", err)
	}
	obj, _ := v.(map[string]any)
	_, questions := obj["questions"]
	_, golden := obj["golden_set"]
	if !questions && !golden {
		return "parsed (JSON)" + fileNote(b), nil
	}
	path := filepath.Join(work, filepath.FromSlash(b.Marker.File))
	if b.Marker.File == "" {
		dir, err := os.MkdirTemp(filepath.Join(home, "tmp"), "suite-")
		if err != nil {
			return "", err
		}
		path = filepath.Join(dir, "suite.json")
		if err := os.WriteFile(path, []byte(b.Body), 0o644); err != nil {
			return "", err
		}
	}
	if _, err := suite.Load(path); err != nil {
		return "", fmt.Errorf("a suite that does not load: %w", err)
	}
	agentSection, _ := obj["agent"].(map[string]any)
	_, command := agentSection["command"]
	_, url := agentSection["url"]
	_, model := agentSection["llm"]
	if !command && !url && !model {
		// No agent evalrun can call: a suite for a Go agent, which
		// evalrun validate refuses and evaltest.Run loads as above.
		return "parsed and loaded as a suite for a Go agent (evaltest)" + fileNote(b), nil
	}
	cmd := exec.Command(filepath.Join(env.bin, "evalrun"), "validate", path)
	cmd.Dir = work
	cmd.Env = environ(home)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("a suite that evalrun validate refuses: %v\n%s", err, out)
	}
	return "parsed and validated as a suite" + fileNote(b), nil
}
