// Package gatesim simulates judged evaluation runs to measure the
// regression gates: a scripted OpenAI-compatible judge (a real HTTP server
// on loopback, reached through the real langchaingo client of package
// llm) scores each answer with its true quality plus seeded noise, and
// a Go agent answers every question with text that carries that quality.
// Noise is a function of (seed, run, question, repeat) only, so results do
// not depend on concurrency or scheduling. It backs the gate simulation
// test and the bench/gatesim table; it is not part of the product.
package gatesim

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/provider"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// Config describes the simulated suite and judge.
type Config struct {
	Questions int     // questions in the suite (e.g. 200)
	Threshold float64 // semantic_accuracy minimum (e.g. 0.7)
	SD        float64 // judge noise: standard deviation of each verdict
	Seed      uint64  // fixes true qualities and every verdict's noise
	// Levels > 1 makes a coarse judge: each verdict is rounded to the
	// nearest of Levels evenly spaced scores (5: 0, 0.25, 0.5, 0.75, 1).
	Levels int
	// Noise is the shape of the judge's errors: NoiseGaussian (""),
	// NoiseT3 or NoiseWild; SD is their standard deviation.
	Noise string
	// SliceSize > 0 gives the questions metadata.failure_mode "mode-K",
	// K = index / SliceSize, so the ci gate's slice tests have slices.
	SliceSize int
	// Concurrency of runner.Execute (default 4); results do not depend on it.
	Concurrency int
}

// Noise models of the simulated judge.
const (
	// NoiseGaussian: each verdict's error is normal.
	NoiseGaussian = ""
	// NoiseT3: Student-t with 3 degrees of freedom, scaled to SD: mostly
	// smaller errors than the normal's and now and then a very large one.
	NoiseT3 = "t3"
	// NoiseWild: normal errors, except that 1 % of verdicts ignore the
	// answer and are uniform on [0, 1].
	NoiseWild = "wild"
)

// Harness owns the judge server, the suite and the judge client.
type Harness struct {
	cfg   Config
	srv   *httptest.Server
	suite *suite.Suite
	judge score.Judge
	truth []float64
}

// New starts the judge server on loopback and writes the suite under dir.
// Close stops the server.
func New(cfg Config, dir string) (*Harness, error) {
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 4
	}
	h := &Harness{cfg: cfg}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x7a11))
	questions := make([]map[string]any, cfg.Questions)
	h.truth = make([]float64, cfg.Questions)
	for i := range questions {
		// True qualities spread over [0.5, 1], so a fair share of the
		// questions sit within one noise sd of the minimum.
		h.truth[i] = 0.5 + 0.5*rng.Float64()
		questions[i] = map[string]any{"id": caseID(i), "question": fmt.Sprintf("Question %d?", i),
			"expected_answer": fmt.Sprintf("Answer %d.", i),
			"minimum_scores":  map[string]float64{"semantic_accuracy": cfg.Threshold}}
		if cfg.SliceSize > 0 {
			questions[i]["metadata"] = map[string]any{"failure_mode": fmt.Sprintf("mode-%d", i/cfg.SliceSize)}
		}
	}
	def := map[string]any{"suite": "Gate simulation", "version": "1",
		"agent": map[string]any{"name": "SimAgent", "command": []string{"true"}}, "questions": questions}
	b, err := json.Marshal(def)
	if err != nil {
		return nil, fmt.Errorf("gatesim: %w", err)
	}
	path := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return nil, fmt.Errorf("gatesim: %w", err)
	}
	if h.suite, err = suite.Load(path); err != nil {
		return nil, fmt.Errorf("gatesim: %w", err)
	}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serveJudge))
	h.judge, err = provider.NewJudge(llm.Settings{Provider: llm.ProviderOpenAI, Model: "sim-judge",
		BaseURL: h.srv.URL + "/v1", Retry: llm.Retry{MaxAttempts: 1}},
		provider.Options{Getenv: func(string) string { return "sim-key" }}, nil)
	if err != nil {
		h.srv.Close()
		return nil, fmt.Errorf("gatesim: %w", err)
	}
	return h, nil
}

// Close stops the judge server.
func (h *Harness) Close() { h.srv.Close() }

// JudgeURL is the OpenAI-compatible base URL of the judge server, for a
// run of the real binary (--judge-base-url).
func (h *Harness) JudgeURL() string { return h.srv.URL + "/v1" }

// Truth is question i's true quality.
func (h *Harness) Truth(i int) float64 { return h.truth[i] }

// Answer is the text an agent writes for question id as run number run,
// repeat rep, at true quality quality: the judge reads it back from the
// prompt and scores it.
func Answer(id string, run, rep int, quality float64) string {
	return fmt.Sprintf("case=%s run=%d rep=%d quality=%.4f", id, run, rep, quality)
}

func caseID(i int) string { return fmt.Sprintf("q%03d", i) }

// answerPattern finds what the agent wrote into its answer, which the
// judge reads back from the prompt.
var answerPattern = regexp.MustCompile(`case=(q\d+) run=(\d+) rep=(\d+) quality=([0-9.]+)`)

// serveJudge answers /v1/chat/completions with a verdict: the true quality
// the prompt carries plus N(0, SD) noise drawn from a stream seeded by
// (seed, run, case, repeat), clipped to [0, 1]. The answer's fields hold
// no character JSON escapes, so they are found in the raw request body
// (decoding the ~96,000 requests of the simulation test took about 6 % of
// its CPU time).
func (h *Harness) serveJudge(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20)) // a simulated prompt is a few KB
	var m [][]byte
	if r.URL.Path == "/v1/chat/completions" {
		m = answerPattern.FindSubmatch(body)
	}
	if m == nil {
		http.Error(w, "want a chat completion whose prompt holds a simulated answer", http.StatusBadRequest)
		return
	}
	run, _ := strconv.ParseUint(string(m[2]), 10, 64)
	rep, _ := strconv.ParseUint(string(m[3]), 10, 64)
	quality, _ := strconv.ParseFloat(string(m[4]), 64)
	score := h.verdict(run, string(m[1]), rep, quality)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"sim","object":"chat.completion","model":"sim-judge","choices":[{"index":0,"finish_reason":"stop",`+
		`"message":{"role":"assistant","content":"{\"score\":%s,\"reason\":\"simulated verdict\"}"}}],`+
		`"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`, strconv.FormatFloat(score, 'f', -1, 64))
}

// verdict is the judge's score of an answer of true quality: quality plus
// SD-scaled noise, clipped to [0, 1], rounded to the coarse judge's levels
// and to three decimals.
func (h *Harness) verdict(run uint64, caseID string, rep uint64, quality float64) float64 {
	rng := h.noise(run, caseID, rep)
	var score float64
	switch h.cfg.Noise {
	case NoiseT3:
		// t(3) = Z/√(χ²₃/3) has variance 3: scaled by SD/√3.
		z, chi := rng.NormFloat64(), 0.0
		for range 3 {
			g := rng.NormFloat64()
			chi += g * g
		}
		score = quality + h.cfg.SD/math.Sqrt(3)*z/math.Sqrt(chi/3)
	case NoiseWild:
		z, u, w := rng.NormFloat64(), rng.Float64(), rng.Float64()
		score = quality + h.cfg.SD*z
		if u < 0.01 {
			score = w
		}
	default:
		score = quality + h.cfg.SD*rng.NormFloat64()
	}
	score = math.Max(0, math.Min(1, score))
	if l := float64(h.cfg.Levels - 1); l > 0 {
		score = math.Round(score*l) / l
	}
	return math.Round(score*1000) / 1000
}

// noise is the random stream of one verdict, determined by (seed, run,
// case, repeat); its first draw is the Gaussian judge's standard normal.
func (h *Harness) noise(run uint64, caseID string, rep uint64) *rand.Rand {
	f := fnv.New64a()
	var b [8]byte
	for _, v := range []uint64{h.cfg.Seed, run, rep} {
		binary.LittleEndian.PutUint64(b[:], v)
		f.Write(b[:])
	}
	f.Write([]byte(caseID))
	return rand.New(rand.NewPCG(f.Sum64(), 0x5eed))
}

// Run executes the suite once as run number run of a revision whose true
// quality is every question's base quality minus drop, through eval.Run
// (the pipeline of evalrun run, saving nothing) with Exec.Repeat =
// repeats: each question is answered and judged repeats times and its
// metric row holds the mean, as evalrun run --repeat does. The agent writes the repeat index it reads
// from its context (runner.RepeatOf) into its answer, and the judge seeds
// that verdict's noise with it, so each repeat has its own noise and no
// result depends on the order of calls.
func (h *Harness) Run(ctx context.Context, run int, drop float64, repeats int) (*models.Run, error) {
	return h.RunDrops(ctx, run, func(int) float64 { return drop }, repeats)
}

// RunDrops is Run with a drop of its own for each question (by index), so
// a regression can hit a few questions or one slice.
func (h *Harness) RunDrops(ctx context.Context, run int, drop func(i int) float64, repeats int) (*models.Run, error) {
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		i, err := strconv.Atoi(q.ID[1:])
		if err != nil || i >= len(h.truth) {
			return agent.Response{}, fmt.Errorf("gatesim: unknown question %q", q.ID)
		}
		rep, _ := runner.RepeatOf(ctx)
		quality := math.Max(0, h.truth[i]-drop(i))
		text := Answer(q.ID, run, rep, quality)
		return agent.Response{Output: json.RawMessage(strconv.Quote(text))}, nil
	})
	res, err := eval.Run(ctx, eval.Task{Suite: h.suite, Agent: a, Judge: h.judge,
		Exec: eval.Exec{Concurrency: h.cfg.Concurrency, Repeat: max(1, repeats)}})
	if err != nil {
		return nil, fmt.Errorf("gatesim run %d: %w", run, err)
	}
	return res.Run, nil
}

// Outcome is whether each gate flagged one candidate against its
// baseline; CIComparison is the ci gate's comparison, for what it found.
type Outcome struct {
	Strict, CI   bool
	CIComparison *compare.Comparison
}

// Gate compares candidate with baseline under both gates, with the
// default tolerance (0), alpha and min effect, and reports whether each
// would fail evalrun run --gate MODE --fail-on regressions (eval.Gate's
// decision).
func Gate(candidate, baseline *models.Run) Outcome {
	strict, _ := flagged(candidate, baseline, compare.GateStrict)
	ci, cmp := flagged(candidate, baseline, compare.GateCI)
	return Outcome{Strict: strict, CI: ci, CIComparison: cmp}
}

// flagged reports whether the gate of mode decides exit 1 on candidate
// against baseline when only regressions count.
func flagged(candidate, baseline *models.Run, mode string) (bool, *compare.Comparison) {
	g := eval.Gate{Mode: mode, FailOn: eval.FailOnRegressions}
	cmp := compare.Compare(candidate, baseline, g.Options())
	return g.Decide(cmp).Code == eval.ExitFailed, cmp
}

// tableResamples is the bootstrap size of GateCI's comparison: the gate's
// decision rests on its paired tests, never on a bootstrap interval (those
// are shown, not gated on), so a small one decides the same and keeps the
// simulation table's thousands of comparisons fast.
const tableResamples = 20

// GateCI is whether the ci gate (evalrun run --gate ci --fail-on
// regressions) flags candidate against baseline, with the comparison.
func GateCI(candidate, baseline *models.Run) (bool, *compare.Comparison) {
	g := eval.Gate{Mode: compare.GateCI, FailOn: eval.FailOnRegressions}
	opts := g.Options()
	opts.Resamples = tableResamples
	cmp := compare.Compare(candidate, baseline, opts)
	return g.Decide(cmp).Code == eval.ExitFailed, cmp
}
