package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/internal/gatesim"
	"github.com/agentevals-go/agentevals/internal/testdb"
	"github.com/agentevals-go/agentevals/models"
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
	quality := math.Max(0, a.h.Truth(i)-drop(i))
	out, _ := json.Marshal(map[string]string{"output": gatesim.Answer(q.ID, run, rep, quality)})
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

// simTrial is one trial of the binary simulation: a baseline and a
// candidate run of the real binary under --gate ci --fail-on regressions.
type simTrial struct {
	name    string
	noise   string
	repeats int
	drop    func(i int) float64
	// wantExit and wantSlice are what the gate must decide ("" names no
	// slice).
	wantExit  int
	wantSlice string
}

var slicePattern = regexp.MustCompile(`slice (failure_mode=mode-\d+) regressed`)

// TestRunBinary_GateSimulation runs trials of the ci gate's simulation
// through the real binary: 200 judged questions in ten failure-mode
// slices of 20, gatesim's seeded judge (sd 0.10) behind the real judge
// client, an http agent, a fresh baseline per trial in one SQLite
// database. Each trial's exit code is the one the simulation table's gate
// (gatesim.GateCI, the same compare and eval code) decides on the two
// runs read back from the database, so the table's thousands of trials in
// internal/gatesim/localized stand for the binary; and the binary's
// decisions are those of the table: no change passes, nine questions
// dropping by 0.4 and a slice dropping by 0.3 fail, the slice is named,
// and a uniform drop of 0.05 names none.
func TestRunBinary_GateSimulation(t *testing.T) {
	bin := buildEvalrun(t)
	dir := t.TempDir()
	none := func(int) float64 { return 0 }
	nine := func(i int) float64 {
		if i%22 == 5 && i < 198 {
			return 0.4
		}
		return 0
	}
	slice := func(k int) func(int) float64 {
		return func(i int) float64 {
			if i/20 == k {
				return 0.3
			}
			return 0
		}
	}
	trials := []simTrial{
		{"no change", gatesim.NoiseGaussian, 1, none, exitOK, ""},
		{"no change", gatesim.NoiseGaussian, 1, none, exitOK, ""},
		{"no change", gatesim.NoiseGaussian, 3, none, exitOK, ""},
		{"no change", gatesim.NoiseT3, 3, none, exitOK, ""},
		{"no change", gatesim.NoiseWild, 3, none, exitOK, ""},
		{"9 questions -0.4", gatesim.NoiseGaussian, 3, nine, exitFailed, ""},
		{"slice of 20 -0.3", gatesim.NoiseGaussian, 1, slice(3), exitFailed, "failure_mode=mode-3"},
		{"slice of 20 -0.3", gatesim.NoiseT3, 3, slice(7), exitFailed, "failure_mode=mode-7"},
		{"uniform -0.05", gatesim.NoiseGaussian, 1, func(int) float64 { return 0.05 }, exitFailed, ""},
	}
	for n, tr := range trials {
		url := testdb.SQLiteURL(t) // a fresh history: the candidate's baseline is the trial's own
		h, err := gatesim.New(gatesim.Config{Questions: 200, Threshold: 0.7, SD: 0.10, Seed: 20261204, Noise: tr.noise, SliceSize: 20}, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		agent := &simAgent{h: h, drops: map[int]func(int) float64{}, calls: map[string]int{}}
		srv := httptest.NewServer(agent)
		suitePath := writeSimSuite(t, filepath.Join(dir, fmt.Sprintf("suite-%d.json", n)), srv.URL)
		runOnce := func(run int, drop func(int) float64) (int, string) {
			agent.mu.Lock()
			agent.drops[run] = drop
			agent.mu.Unlock()
			cmd := exec.CommandContext(t.Context(), bin, "--database-url", url, "run", suitePath, "--repeat", strconv.Itoa(tr.repeats),
				"--judge-base-url", h.JudgeURL(), "--judge-model", "sim-judge", "--gate", "ci", "--fail-on", "regressions")
			cmd.Env = append(os.Environ(), "OPENAI_API_KEY=sim-key", "SIM_RUN="+strconv.Itoa(run), "CI=", "GITHUB_ACTIONS=")
			out, err := cmd.Output()
			var exit *exec.ExitError
			switch {
			case errors.As(err, &exit):
				return exit.ExitCode(), string(out) + string(exit.Stderr)
			case err != nil:
				t.Fatal(err)
			}
			return 0, string(out)
		}
		run := 1000 * (n + 1)
		if code, out := runOnce(run, none); code != exitOK {
			t.Fatalf("trial %d (%s) baseline: exit %d\n%s", n, tr.name, code, out)
		}
		base := latestRunID(t, url)
		code, out := runOnce(run+1, tr.drop)
		cand := latestRunID(t, url)
		srv.Close()
		h.Close()
		var named []string
		for _, m := range slicePattern.FindAllStringSubmatch(out, -1) {
			if !strings.Contains(strings.Join(named, " "), m[1]) {
				named = append(named, m[1])
			}
		}
		t.Logf("trial %d: %s, %s judge, --repeat %d: exit %d, slices named %v", n, tr.name, noiseName(tr.noise), tr.repeats, code, named)
		if code != tr.wantExit {
			t.Errorf("trial %d (%s, %s judge, --repeat %d): exit %d, want %d\n%s", n, tr.name, noiseName(tr.noise), tr.repeats, code, tr.wantExit, out)
		}
		if want := tr.wantSlice; (want == "" && len(named) > 0) || (want != "" && (len(named) != 1 || named[0] != want)) {
			t.Errorf("trial %d (%s): slices named %v, want %q\n%s", n, tr.name, named, want, out)
		}
		if flagged := gateOf(t, url, base, cand); flagged != (code == exitFailed) {
			t.Errorf("trial %d (%s): the binary exited %d but the simulation table's gate decides flagged=%v on the same runs", n, tr.name, code, flagged)
		}
	}
}

// writeSimSuite writes gatesim's suite (200 questions, minimum 0.7, ten
// failure-mode slices) with an http agent at agentURL.
func writeSimSuite(t *testing.T, path, agentURL string) string {
	t.Helper()
	questions := make([]map[string]any, 200)
	for i := range questions {
		questions[i] = map[string]any{"id": fmt.Sprintf("q%03d", i), "question": fmt.Sprintf("Question %d?", i),
			"expected_answer": fmt.Sprintf("Answer %d.", i), "minimum_scores": map[string]float64{"semantic_accuracy": 0.7},
			"metadata": map[string]any{"failure_mode": fmt.Sprintf("mode-%d", i/20)}}
	}
	b, err := json.Marshal(map[string]any{"suite": "Gate simulation", "version": "1",
		"agent":     map[string]any{"name": "SimAgent", "url": agentURL, "header_env": map[string]string{"X-Sim-Run": "SIM_RUN"}},
		"questions": questions})
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, path, string(b))
	return path
}

// gateOf reads two runs back and returns gatesim.GateCI's decision.
func gateOf(t *testing.T, url, base, cand string) bool {
	t.Helper()
	db, err := models.Open(context.Background(), url, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, err := db.GetRuns(context.Background(), []uuid.UUID{uuid.MustParse(base), uuid.MustParse(cand)})
	if err != nil || len(runs) != 2 {
		t.Fatalf("read runs %s and %s: %v (%d runs)", base, cand, err, len(runs))
	}
	byID := map[string]*models.Run{runs[0].ID.String(): runs[0], runs[1].ID.String(): runs[1]}
	flagged, _ := gatesim.GateCI(byID[cand], byID[base])
	return flagged
}

func noiseName(n string) string {
	if n == "" {
		return "gaussian"
	}
	return n
}
