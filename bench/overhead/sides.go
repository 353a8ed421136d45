package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// workerScript is the python worker: evalrun's worker protocol (one JSON
// question per line on stdin, one JSON Response per line on stdout,
// flushed), the question decoded as a real agent would.
const workerScript = `import json
import sys


def main():
    out = sys.stdout
    for line in sys.stdin:
        json.loads(line)
        out.write('{"output": "ok"}\n')
        out.flush()


main()
`

// workerReply is the line workerScript writes for every question.
const workerReply = `{"output": "ok"}` + "\n"

// commandScript is the command agent: it reads its stdin (the question
// under evalrun, /dev/null under xargs) and answers plain text.
const commandScript = "cat >/dev/null; echo ok\n"

// questionLines are the request lines evalrun writes for the suite's
// cases (agent.Question: id, name, question), newline included.
func questionLines(cases int) [][]byte {
	lines := make([][]byte, cases)
	for i := range lines {
		b, _ := json.Marshal(struct {
			ID       string `json:"id"`
			Name     string `json:"name"`
			Question string `json:"question"`
		}{fmt.Sprintf("q%d", i), "", fmt.Sprintf("Question number %d?", i)})
		lines[i] = append(b, '\n')
	}
	return lines
}

// writeSuite writes dir/suite.json: cases questions answered "ok" and one
// exact_match check, with the given agent section.
func writeSuite(dir, name string, agent map[string]any, cases int) (string, error) {
	qs := make([]map[string]any, cases)
	for i := range qs {
		qs[i] = map[string]any{"id": fmt.Sprintf("q%d", i), "question": fmt.Sprintf("Question number %d?", i), "expected_answer": "ok"}
	}
	b, err := json.Marshal(map[string]any{"suite": name, "agent": agent,
		"evaluators": map[string]any{"exact": map[string]any{"type": "exact_match"}}, "questions": qs})
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "suite.json")
	return path, os.WriteFile(path, b, 0o644)
}

// pythonWorker makes dir and writes workerScript into it; it returns the
// python interpreter itself (not a pyenv-style shim).
func pythonWorker(dir string) (python string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return "", fmt.Errorf("python3: %w", err)
	}
	return strings.TrimSpace(string(out)), os.WriteFile(filepath.Join(dir, "worker.py"), []byte(workerScript), 0o644)
}

func newWorkerComparison(root string, o options) (*comparison, error) {
	dir := filepath.Join(root, "worker")
	python, err := pythonWorker(dir)
	if err != nil {
		return nil, err
	}
	suite, err := writeSuite(dir, "Overhead worker", map[string]any{"name": "python worker", "type": "worker",
		"command": []string{python, "worker.py"}}, o.cases)
	if err != nil {
		return nil, err
	}
	reqs := questionLines(o.cases)
	bare := &side{label: fmt.Sprintf("bare pipe, %d workers", o.workerJ),
		run: func(int) (timing, error) { return barePipe(dir, []string{python, "worker.py"}, reqs, o.workerJ) }}
	return newComparison("worker", root, suite, o.workerJ, o, bare), nil
}

// newComparison is the evalrun binaries of o, each running suite with -j
// j, against base. The warm-up writes o.history runs with the first
// binary into the database every round copies, then runs base once.
func newComparison(name, root, suite string, j int, o options, base *side) *comparison {
	db := filepath.Join(root, name+"-base.sqlite3")
	bins := []string{o.evalrun}
	if o.compare != "" {
		bins = append(bins, o.compare)
	}
	c := &comparison{name: name}
	var first *evalrunSide
	for i, exe := range bins {
		ev := &evalrunSide{exe: exe, suite: suite, j: j, cases: o.cases, base: db, tag: fmt.Sprintf("b%d", i)}
		label := fmt.Sprintf("evalrun run -j %d (save)", j)
		if len(bins) > 1 {
			label = fmt.Sprintf("%s run -j %d (save)", []string{"evalrun", "compare"}[i], j)
		}
		if first == nil {
			first = ev
		}
		c.sides = append(c.sides, &side{label: label, run: ev.round})
	}
	c.sides = append(c.sides, base)
	c.warmUp = func() error {
		if err := first.prepare(o.history); err != nil {
			return err
		}
		_, err := base.run(0)
		return err
	}
	return c
}

func newCommandComparison(root string, o options) (*comparison, error) {
	dir := filepath.Join(root, "command")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "agent.sh"), []byte(commandScript), 0o644); err != nil {
		return nil, err
	}
	// xargs passes each question line as the script's argument (-d '\n':
	// no quote processing) and /dev/null as its stdin
	args := filepath.Join(dir, "questions.txt")
	if err := os.WriteFile(args, bytes.Join(questionLines(o.cases), nil), 0o644); err != nil {
		return nil, err
	}
	suite, err := writeSuite(dir, "Overhead command", map[string]any{"name": "sh command", "command": []string{"sh", "agent.sh"}}, o.cases)
	if err != nil {
		return nil, err
	}
	xargs := &side{label: fmt.Sprintf("xargs -P%d", o.commandJ),
		run: func(int) (timing, error) { return runXargs(dir, args, o.commandJ, o.cases) }}
	return newComparison("command", root, suite, o.commandJ, o, xargs), nil
}

// evalrunSide runs `evalrun run SUITE --database-url sqlite:DB -j J`.
type evalrunSide struct {
	exe, suite string
	j, cases   int
	base       string   // the database the warm-up wrote; each round gets a copy
	tag        string   // names this binary's round databases
	extra      []string // more evalrun run flags
}

// prepare writes history runs into the base database. With history 0
// there is no base database: every round creates and migrates its own, and
// the warm-up runs once into a throwaway one.
func (e *evalrunSide) prepare(history int) error {
	removeDB(e.base)
	if history == 0 {
		throwaway := e.base + ".warm-up"
		defer removeDB(throwaway)
		_, err := e.run(throwaway)
		return err
	}
	for range history {
		if _, err := e.run(e.base); err != nil {
			return err
		}
	}
	return nil
}

// round copies the warm-up's database and runs evalrun on the copy.
func (e *evalrunSide) round(r int) (timing, error) {
	db := strings.TrimSuffix(e.base, ".sqlite3") + fmt.Sprintf("-%s-round%d.sqlite3", e.tag, r+1)
	if _, err := os.Stat(e.base); err == nil {
		if err := copyFile(e.base, db); err != nil {
			return timing{}, err
		}
	}
	defer removeDB(db)
	return e.run(db)
}

// run times one evalrun run on db and checks that every case passed and
// the run was saved (exit 0; 3 would be a failed save). Its CPU time
// includes the agent processes and the guardian, which evalrun waits for.
func (e *evalrunSide) run(db string) (timing, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(e.exe, append([]string{"run", e.suite, "--database-url", "sqlite:" + db, "-j", fmt.Sprint(e.j)}, e.extra...)...)
	cmd.Dir = filepath.Dir(e.suite)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return timing{}, fmt.Errorf("%s: %w\n%s", strings.Join(cmd.Args, " "), err, tail(stderr.Bytes(), stdout.Bytes()))
	}
	if want := fmt.Sprintf("Passing questions: %d of %d", e.cases, e.cases); !bytes.Contains(stdout.Bytes(), []byte(want)) {
		return timing{}, fmt.Errorf("evalrun output lacks %q:\n%s", want, tail(stdout.Bytes()))
	}
	return timing{wall: d, cpu: cpuOf(cmd.ProcessState), peakKiB: peakOf(cmd.ProcessState)}, nil
}

// barePipe starts workers copies of the worker command and feeds them the
// request lines, one line and one reply at a time per worker, the way
// evalrun's worker agent does, with nothing else: no scoring, no save. Its
// CPU time is the workers' plus this process's own over the run (the
// driver; nothing else runs meanwhile).
func barePipe(dir string, command []string, reqs [][]byte, workers int) (timing, error) {
	self0 := selfCPU()
	start := time.Now()
	jobs := make(chan []byte)
	type result struct {
		cpu time.Duration
		err error
	}
	results := make(chan result, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cpu, err := feedWorker(dir, command, jobs)
			results <- result{cpu, err}
		}()
	}
	for _, r := range reqs {
		jobs <- r
	}
	close(jobs)
	wg.Wait()
	t := timing{wall: time.Since(start), cpu: selfCPU() - self0}
	close(results)
	for r := range results {
		if r.err != nil {
			return timing{}, r.err
		}
		t.cpu += r.cpu
	}
	return t, nil
}

// feedWorker runs one worker process over the jobs and returns its CPU
// time. After a failure it keeps draining jobs so the feeder never blocks.
func feedWorker(dir string, command []string, jobs <-chan []byte) (cpu time.Duration, err error) {
	defer func() {
		for range jobs {
		}
	}()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	r := bufio.NewReader(stdout)
	for req := range jobs {
		if _, err = stdin.Write(req); err != nil {
			break
		}
		var line []byte
		if line, err = r.ReadSlice('\n'); err != nil {
			break
		}
		if string(line) != workerReply {
			err = fmt.Errorf("worker replied %q", line)
			break
		}
	}
	_ = stdin.Close()
	if werr := cmd.Wait(); err == nil && werr != nil {
		err = werr
	}
	if err != nil {
		return 0, fmt.Errorf("bare pipe worker: %w\n%s", err, tail(stderr.Bytes()))
	}
	return cpuOf(cmd.ProcessState), nil
}

// runXargs runs `xargs -P<j> -n1 -d '\n' -a questions.txt sh agent.sh`
// and checks that every run answered. Its CPU time includes the scripts,
// which xargs waits for.
func runXargs(dir, args string, j, cases int) (timing, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("xargs", fmt.Sprintf("-P%d", j), "-n1", "-d", `\n`, "-a", args, "sh", "agent.sh")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return timing{}, fmt.Errorf("xargs: %w\n%s", err, tail(stderr.Bytes()))
	}
	if n := bytes.Count(stdout.Bytes(), []byte("ok\n")); n != cases {
		return timing{}, fmt.Errorf("xargs: %d answers, want %d", n, cases)
	}
	return timing{wall: d, cpu: cpuOf(cmd.ProcessState)}, nil
}

// cpuOf is a finished process's user and system time, its waited-for
// descendants included (wait4's rusage).
func cpuOf(ps *os.ProcessState) time.Duration {
	if ps == nil {
		return 0
	}
	return ps.UserTime() + ps.SystemTime()
}

// peakOf is a finished process's peak resident set in KiB: the largest
// of it and its waited-for descendants (wait4's ru_maxrss), so for an
// evalrun run, evalrun's own unless an agent process grew larger.
func peakOf(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}

// selfCPU is this process's user and system time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// removeDB removes a round's database and any journal SQLite left.
func removeDB(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		_ = os.Remove(path + suffix)
	}
}

// tail is the last 2 KiB of the outputs, for error messages.
func tail(outs ...[]byte) string {
	b := bytes.Join(outs, []byte("\n"))
	if len(b) > 2048 {
		b = b[len(b)-2048:]
	}
	return string(b)
}
