package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// chatJudge is a local OpenAI-compatible judge whose verdict's score is
// verdict(system, user) for the request's two messages ("" answers 503).
func chatJudge(t *testing.T, verdict func(system, user string) string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) < 2 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		s := verdict(req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content)
		if s == "" {
			http.Error(w, "upstream unavailable", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"1","object":"chat.completion","model":"judge","choices":[{"index":0,`+
			`"message":{"role":"assistant","content":"{\"reason\":\"Scripted.\",\"score\":%s}"},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":20,"completion_tokens":5,"total_tokens":25}}`, s)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// pairJudge is a chatJudge for pairwise prompts: prefer(first, second,
// expected) is the score it gives (1 first slot better, 0 second, 0.5
// equal; "" answers 503), read from the prompt's two answers and expected
// answer (JSON-encoded, as the prompt has them).
func pairJudge(t *testing.T, prefer func(first, second, expected string) string) *httptest.Server {
	return chatJudge(t, func(_, user string) string {
		return prefer(section(user, "[first answer (untrusted)]"), section(user, "[second answer (untrusted)]"),
			section(user, "[expected_answer (untrusted reference)]"))
	})
}

// section is the line after label in a prompt.
func section(prompt, label string) string {
	_, rest, ok := strings.Cut(prompt, label+"\n")
	if !ok {
		return ""
	}
	line, _, _ := strings.Cut(rest, "\n")
	return line
}

// pairwiseRuns saves two runs of ten questions: A answers "plain qN", B
// "good qN" except on the questions in worseB, where B answers "bad qN".
func pairwiseRuns(t *testing.T, worseB map[int]bool) (url, a, b string) {
	t.Helper()
	url = testdb.SQLiteURL(t)
	if code, _, stderr := evalrun(t, "--database-url", url, "db:migrate"); code != exitOK {
		t.Fatalf("db:migrate: %s", stderr)
	}
	db, err := models.Open(context.Background(), url, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ca, cb []runfixture.Case
	for i := 1; i <= 10; i++ {
		id := fmt.Sprintf("q%d", i)
		m := []runfixture.Metric{runfixture.NewMetric("exact_match", 1, runfixture.Score(1))}
		ca = append(ca, runfixture.Case{ID: id, Question: "Question " + id, Expected: "good " + id, Output: "plain " + id, Metrics: m})
		out := "good " + id
		if worseB[i] {
			out = "bad " + id
		}
		cb = append(cb, runfixture.Case{ID: id, Question: "Question " + id, Expected: "good " + id, Output: out, Metrics: m})
	}
	start := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	ra := runfixture.SaveRun(t, db, runfixture.Build("11111111-1111-4111-8111-111111111111", 1, start, ca...))
	rb := runfixture.SaveRun(t, db, runfixture.Build("22222222-2222-4222-8222-222222222222", 2, start.Add(time.Hour), cb...))
	return url, ra.ID.String(), rb.ID.String()
}

// rank orders answers: good over plain over bad.
func rank(answer string) int {
	switch {
	case strings.Contains(answer, "good"):
		return 2
	case strings.Contains(answer, "plain"):
		return 1
	}
	return 0
}

// consistentPreference prefers the better-ranked answer whatever its slot.
func consistentPreference(first, second, _ string) string {
	switch r1, r2 := rank(first), rank(second); {
	case r1 > r2:
		return "1"
	case r1 < r2:
		return "0"
	}
	return "0.5"
}

type pairwiseDoc struct {
	Pairwise struct {
		Pairs, Wins, Losses, Ties, Errors int
		SignTestP                         *float64 `json:"sign_test_p"`
		Consistency                       *float64 `json:"position_consistency"`
		FirstSlot                         *float64 `json:"first_slot_share"`
		PositionBias                      string   `json:"position_bias"`
		Verdict                           string
		Record                            models.PairwiseRecord
	}
}

// TestCompareCmd_Pairwise holds compare --pairwise to the position-swap
// rules with scripted judges: one that always prefers the first slot
// (the only one warned about position bias: it chose the first slot in
// all 20 decisive readings), one that is consistent (half its choices
// are of the first slot), one that flips on 3 of 10 pairs, and one whose
// calls fail.
func TestCompareCmd_Pairwise(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	flips := map[string]bool{`"good q1"`: true, `"plain q1"`: true, `"good q2"`: true, `"plain q2"`: true, `"good q3"`: true, `"plain q3"`: true}
	tests := []struct {
		name   string
		worseB map[int]bool
		prefer func(first, second, expected string) string
		code   int
		// wins, losses, ties, errors; sign test p (-1: null); consistency (-1: null)
		w, l, ties, errs int
		p, cons          float64
		verdict          string
	}{
		{"always the first slot", nil, func(string, string, string) string { return "1" }, exitOK, 0, 0, 10, 0, -1, 0, "no significant preference"},
		{"consistent, B better everywhere", nil, consistentPreference, exitOK, 10, 0, 0, 0, 2.0 / 1024, 1, "B is preferred"},
		// wins 8, losses 2: p = 2 (C(10,0) + C(10,1) + C(10,2)) / 2^10 = 112/1024.
		{"consistent, A better on two", map[int]bool{4: true, 9: true}, consistentPreference, exitOK, 8, 2, 0, 0, 112.0 / 1024, 1, "no significant preference"},
		// q1..q3 flip with the slots: 7 consistent wins, p = 2/2^7.
		{"flips on 3 of 10", nil, func(first, second, expected string) string {
			if flips[first] {
				return "1"
			}
			return consistentPreference(first, second, expected)
		}, exitOK, 7, 0, 3, 0, 2.0 / 128, 0.7, "B is preferred"},
		{"judge down", nil, func(string, string, string) string { return "" }, exitFailed, 0, 0, 0, 10, -1, -1, "no pair judged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, a, b := pairwiseRuns(t, tt.worseB)
			srv := pairJudge(t, tt.prefer)
			out := filepath.Join(t.TempDir(), "verdicts.json")
			code, stdout, stderr := evalrun(t, "--database-url", url, "compare", a, b, "--pairwise", "--format", "json",
				"--judge-provider", "openai", "--judge-model", "judge", "--judge-base-url", srv.URL+"/v1", "--pairwise-out", out)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, stdout, stderr)
			}
			if strings.Contains(stderr, "\r") || !strings.Contains(stderr, "pairwise: 10/10 pairs judged\n") {
				t.Errorf("progress off a terminal: want whole lines, no carriage return:\n%q", stderr)
			}
			var doc pairwiseDoc
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("json: %v\n%s", err, stdout)
			}
			p := doc.Pairwise
			if p.Pairs != 10 || p.Wins != tt.w || p.Losses != tt.l || p.Ties != tt.ties || p.Errors != tt.errs || p.Verdict != tt.verdict {
				t.Errorf("pairs %d: wins %d losses %d ties %d errors %d (%s), want %d %d %d %d (%s)",
					p.Pairs, p.Wins, p.Losses, p.Ties, p.Errors, p.Verdict, tt.w, tt.l, tt.ties, tt.errs, tt.verdict)
			}
			checkOptional(t, "sign test p", p.SignTestP, tt.p)
			checkOptional(t, "position consistency", p.Consistency, tt.cons)
			if biased := tt.name == "always the first slot"; biased != strings.HasPrefix(p.PositionBias, "position bias: the judge chose the first slot in 100% of 20 decisive readings") {
				t.Errorf("position bias %q (first-slot share %v), want a warning only for the judge that always picks the first slot", p.PositionBias, p.FirstSlot)
			}
			for _, v := range p.Record.Verdicts {
				if tt.errs > 0 && (v.Error == "" || v.Winner != "") {
					t.Errorf("%s: a failed judge call must be an error without a verdict: %+v", v.CaseID, v)
				}
			}
			if tt.cons == 0.7 {
				code, stdout, stderr := evalrun(t, "--database-url", url, "compare", a, b, "--pairwise",
					"--judge-provider", "openai", "--judge-model", "judge", "--judge-base-url", srv.URL+"/v1", "--pairwise-out", out+".2")
				for _, want := range []string{"Pairwise by openai/judge, each pair judged twice with the slots swapped: B wins 7, loses 0, ties 3; sign test p = 0.01562; position consistency 70%, first slot chosen in 65% of 20 decisive readings: B is preferred",
					"  q1                       tie  A first: A, B first: B  (orders disagree)", "  q4                       B    A first: B, B first: B\n"} {
					if code != exitOK || !strings.Contains(stdout, want) {
						t.Errorf("text: exit %d, lacks %q\n%s%s", code, want, stdout, stderr)
					}
				}
			}
			data, err := os.ReadFile(out)
			if err != nil || !strings.Contains(string(data), `"format": "agentevals-pairwise"`) || !strings.Contains(string(data), `"run_b": "`+b+`"`) {
				t.Errorf("verdicts file: %v\n%s", err, data)
			}
		})
	}
}

func checkOptional(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	switch {
	case want < 0 && got != nil:
		t.Errorf("%s = %v, want null", what, *got)
	case want >= 0 && (got == nil || *got < want-1e-12 || *got > want+1e-12):
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// TestCompareCmd_PairwiseOutCheckedFirst: a --pairwise-out that cannot be
// created (an existing file, a directory, /dev/full, a symbolic link) is
// refused with exit 2 before any judge call is paid for.
func TestCompareCmd_PairwiseOutCheckedFirst(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	var calls atomic.Int64
	srv := pairJudge(t, func(first, second, expected string) string {
		calls.Add(1)
		return consistentPreference(first, second, expected)
	})
	url, a, b := pairwiseRuns(t, nil)
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.json")
	if err := os.WriteFile(existing, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(filepath.Join(dir, "nowhere.json"), link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, path, want string }{
		{"existing file", existing, "is already a file"},
		{"directory", dir, "is already a directory"},
		{"/dev/full", "/dev/full", "is already a device or special file"},
		{"dangling symbolic link", link, "is already a symbolic link"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := evalrun(t, "--database-url", url, "compare", a, b, "--pairwise",
				"--judge-provider", "openai", "--judge-model", "judge", "--judge-base-url", srv.URL+"/v1", "--pairwise-out", tc.path)
			if code != exitInvalid || !strings.Contains(stderr, "--pairwise-out") || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 naming --pairwise-out and %q", code, stderr, tc.want)
			}
			if n := calls.Load(); n != 0 {
				t.Errorf("%d judge calls were made before the output was refused", n)
			}
		})
	}
}
