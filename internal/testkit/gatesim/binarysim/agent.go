package binarysim

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/gatesim"
)

// simAgent is an http agent for the binary simulation: it answers
// question qNNN of run SIM_RUN (sent in the X-Sim-Run header) with the
// text gatesim's judge scores at the question's true quality minus the
// run's drop, counting its calls per question as the repeat index.
type simAgent struct {
	h     *gatesim.Harness
	mu    sync.Mutex
	drops map[int]func(int) float64
	calls map[string]int
}

func newSimAgent(h *gatesim.Harness) *simAgent {
	return &simAgent{h: h, drops: map[int]func(int) float64{}, calls: map[string]int{}}
}

// plan sets the drop of run number run before the binary runs it.
func (a *simAgent) plan(run int, drop func(int) float64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.drops[run] = drop
}

func (a *simAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var q struct {
		ID string `json:"id"`
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	run, err := strconv.Atoi(r.Header.Get("X-Sim-Run"))
	if json.Unmarshal(body, &q) != nil || err != nil || len(q.ID) != 4 {
		http.Error(w, "want a question of the simulated suite and an X-Sim-Run header", http.StatusBadRequest)
		return
	}
	i, _ := strconv.Atoi(q.ID[1:])
	a.mu.Lock()
	drop := a.drops[run]
	key := fmt.Sprintf("%d/%s", run, q.ID)
	rep := a.calls[key]
	a.calls[key]++
	a.mu.Unlock()
	if drop == nil {
		http.Error(w, fmt.Sprintf("run %d was not planned", run), http.StatusBadRequest)
		return
	}
	quality := math.Max(0, a.h.Truth(i)-drop(i))
	out, _ := json.Marshal(map[string]string{"output": gatesim.Answer(q.ID, run, rep, quality)})
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

// writeSimSuite writes gatesim's suite (questions judged questions,
// minimum 0.7, failure-mode slices of 20) with an http agent at agentURL.
func writeSimSuite(t *testing.T, path, agentURL string, questions int) string {
	t.Helper()
	qs := make([]map[string]any, questions)
	for i := range qs {
		qs[i] = map[string]any{"id": fmt.Sprintf("q%03d", i), "question": fmt.Sprintf("Question %d?", i),
			"expected_answer": fmt.Sprintf("Answer %d.", i), "minimum_scores": map[string]float64{"semantic_accuracy": 0.7},
			"metadata": map[string]any{"failure_mode": fmt.Sprintf("mode-%d", i/20)}}
	}
	b, err := json.Marshal(map[string]any{"suite": "Gate simulation", "version": "1",
		"agent":     map[string]any{"name": "SimAgent", "url": agentURL, "header_env": map[string]string{"X-Sim-Run": "SIM_RUN"}},
		"questions": qs})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// BuildEvalrun builds cmd/evalrun into a temporary binary.
func BuildEvalrun(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build evalrun (put the Go toolchain on PATH): %v", err)
	}
	bin := filepath.Join(t.TempDir(), "evalrun")
	build := exec.CommandContext(t.Context(), goBin, "build", "-o", bin, "github.com/agentevals-go/agentevals/cmd/evalrun")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", build, err, out)
	}
	return bin
}

// exitOf is the exit code of a finished command and its output; any
// other error (the binary could not start) fails the test.
func exitOf(t *testing.T, cmd *exec.Cmd) (int, string) {
	out, err := cmd.Output()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), string(out) + string(exit.Stderr)
	case err != nil:
		t.Errorf("%s: %v", cmd, err)
		return -1, ""
	}
	return 0, string(out)
}
